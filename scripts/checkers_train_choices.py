"""Fit the checkers evaluation's network to the moves masters chose (comparison training).

    python scripts/checkers_train_choices.py ACF.txt --out fit.json [--warm shipped] [--anchor 1]
        [--epochs 4] [--plies 1|2] [--jobs N] [--values GAMES... [--value-weight 1] [--mix 0.5]]
        [--module tui_games/engine/checkers/_net_data.py]

The value fits of ``checkers_train_net.py`` learn from the engine's own games, whose labels
(results, searches) say little about the early middlegame where the engine loses to stronger
programs. A master's move says something there: of the positions the mover could reach, this
one is the best. Comparison training (Tesauro, 1989; the evaluation tuning of Deep Blue and of
Buro's Logistello) turns that into a loss: over each decision's candidates, the softmax of the
mover's score (shipped evaluation + network) / T, T learnt with the network, should put the
master's move first.

**Candidates.** A move's position is resolved through forced exchanges: while the side to move
has exactly one move and it is a capture, it is played (checkers' captures are compulsory, so a
move that offers an exchange is judged after it). A move whose resolution reaches a choice of
captures, or the end of the game, is left out (the search judges those, not the evaluation).
A decision counts where the mover had no capture to make, at ply 3 or later (after a three-move
ballot), the master's move is among the candidates, and there are at least two.

**Two plies.** ``--plies 2`` judges each candidate one ply deeper, as a search would: by its
worst leaf for the mover, the leaves being the positions after each of the opponent's moves,
resolved the same way (those reaching a choice of captures or the game's end left out; the
candidate itself when all are). About seven times the positions (14 million leaves for the ACF
games): ``--jobs`` processes read the games, and as many threads fit. With ``--plies 1`` (the
default) each candidate is its own single leaf.

**Anchor.** Only the order of a decision's candidates is learnt, so nothing ties the scores to
the value the search needs (a win's probability): ``--anchor MU`` adds MU times the mean squared
change of the network's output from the ``--warm`` network's, in units of the scale (53.6), over
the leaves. A tenth of the games (``--seed``) is held out; the fit reports the held-out
share of decisions where the master's move scores highest, for no network, the warm network and
the fit after quantising (the engine's integers).

**Values beside the choices.** A value fit (``checkers_train_net.py fit``) from a network fitted
to the choices unlearns them: warm from the shipped network, the twenty-second and twenty-third
rounds' fits put the master's move first in 43.6% and 44.5% of the held-out decisions, against
49.9% (docs/games/checkers.md). ``--values GAMES...`` fits both at once: each step adds
``--value-weight`` times the value fit's loss (the cross-entropy of the logistic of the score /
``--scale`` against ``--mix`` · result + (1 − ``--mix``) · the logistic of the search's score)
on the next share of those games' positions, so that one epoch passes over both. A tenth of the
value games is held out too (``checkers_train_net.py``'s split, by ``--seed``), and the fit
reports their error against the results for the warm network and the fit. Needs PyTorch and
NumPy (training only).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from pathlib import Path
from typing import Any

from tui_games.engine.checkers import network
from tui_games.engine.checkers.position import CheckersPosition, generate, has_capture, play
from tui_games.training import fit_modules
from tui_games.training.checkers_import_games import parse_line, read_transcripts, transcript_moves
from tui_games.training.checkers_train_net import (
    add_network_options,
    base_scores,
    engine_scores,
    input_matrix,
    load_net,
    number_in,
    quantise,
    start_from,
    value_loss,
    whole_number,
    write_module,
)
from tui_games.training.checkers_train_patterns import labels, load_positions

Board = tuple[int, int, int, int]

# A resolution longer than this is a king's endless capture ring in a malformed record, not an exchange.
MAX_RESOLVE = 24


def resolve(board: Board) -> Board | None:
    """The quiet position after the forced exchanges from ``board`` (see the module doc), or
    None where a choice of captures or the game's end comes first."""
    for _ in range(MAX_RESOLVE):
        if not has_capture(*board):
            return board if generate(*board) else None
        moves = generate(*board)
        if len(moves) != 1:
            return None
        board = play(*board, moves[0])
    return None


def replies(board: Board) -> list[Board]:
    """The leaves of a candidate looked at one ply further (``--plies 2``): the quiet position
    after each of the opponent's moves from ``board``, each resolved as the candidates are
    (those reaching a choice of captures or the game's end left out); ``[board]`` itself when
    every move is left out."""
    out = [r for r in (resolve(play(*board, m)) for m in generate(*board)) if r is not None]
    return out or [board]


def decisions(moves: list[str]) -> list[tuple[list[Board], int, int]]:
    """Each decision of a transcript game (see the module doc): the candidates' resolved
    positions, the index of the master's among them, and the mover (0 Black, 1 White). A
    move that is not legal raises ValueError."""
    start = CheckersPosition()
    board: Board = (start.black, start.white, start.kings, start.turn)
    out = []
    for ply, move in enumerate(transcript_moves(moves)):
        if ply >= 3 and not has_capture(*board):
            legal = generate(*board)
            candidates: list[Board] = []
            master = -1
            for m in legal:
                resolved = resolve(play(*board, m))
                if resolved is None:
                    continue
                if m == move:
                    master = len(candidates)
                candidates.append(resolved)
            if master >= 0 and len(candidates) >= 2:
                out.append((candidates, master, board[3]))
        board = play(*board, move)
    return out


def _game_rows(job: tuple[str, int]) -> tuple[list[int], list[int], list[int], list[int], list[int]] | None:
    """One transcript line's decisions as flat rows (a worker's share of :func:`load_decisions`):
    the leaves (black, white, kings, turn interleaved), each candidate's leaf count, and per
    decision its candidate count, master index and mover; None for a line that is not a game."""
    line, plies = job
    try:
        game = decisions(parse_line(line)[0])
    except ValueError:
        return None
    leaves: list[int] = []
    leaf_count, count, master, mover = [], [], [], []
    for candidates, best, side in game:
        count.append(len(candidates))
        master.append(best)
        mover.append(side)
        for candidate in candidates:
            found = replies(candidate) if plies == 2 else [candidate]
            leaf_count.append(len(found))
            for board in found:
                leaves.extend(board)
    return leaves, leaf_count, count, master, mover


def load_decisions(path: str, np: Any, seed: int, plies: int = 1, jobs: int = 1) -> dict[str, Any]:
    """Every decision of a transcript file as arrays: the leaves' boards (black, white, kings,
    turn: the candidates themselves, or with ``plies`` 2 the positions after each reply), each
    candidate's first leaf and leaf count, each decision's first candidate, count, master index
    and mover, and whether its game is held out (a tenth of the games, drawn by ``seed``)."""
    rng = random.Random(seed)
    lines = [line for line in read_transcripts(path) if line.strip()]
    check_line = [rng.random() < 0.1 for _ in lines]
    work = [(line, plies) for line in lines]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            rows = pool.map(_game_rows, work, chunksize=64)
    else:
        rows = [_game_rows(job) for job in work]
    leaves: list[Any] = []
    leaf_count: list[int] = []
    count: list[int] = []
    master: list[int] = []
    mover: list[int] = []
    held: list[bool] = []
    games = skipped = 0
    for check, row in zip(check_line, rows):
        if row is None:
            skipped += 1
            continue
        games += 1
        leaves.append(np.array(row[0], dtype=np.uint32))
        leaf_count += row[1]
        count += row[2]
        master += row[3]
        mover += row[4]
        held += [check] * len(row[2])
    boards = np.concatenate(leaves).reshape(-1, 4) if leaves else np.zeros((0, 4), dtype=np.uint32)
    data = {name: np.ascontiguousarray(boards[:, i]) for i, name in enumerate(("black", "white", "kings", "turn"))}
    leaf_counts = np.array(leaf_count, dtype=np.int64)
    counts = np.array(count, dtype=np.int64)
    data.update(leaf_first=np.cumsum(leaf_counts) - leaf_counts, leaf_count=leaf_counts,
                first=np.cumsum(counts) - counts, count=counts,
                master=np.array(master, dtype=np.int64), mover=np.array(mover, dtype=np.int64),
                check=np.array(held, dtype=bool), games=games, skipped=skipped)
    return data


def padded(data: dict[str, Any], np: Any) -> Any:
    """Each decision's candidate indices in a row, -1 past its count."""
    width = int(data["count"].max())
    cols = np.arange(width)[None, :]
    return np.where(cols < data["count"][:, None], data["first"][:, None] + cols, -1)


def candidate_values(scores: Any, data: dict[str, Any], np: Any) -> Any:
    """Each candidate's value for the decision's mover: the lowest of its leaves' ``scores``
    (for Black) seen from the mover, that is, the opponent's best reply."""
    sides = np.repeat(np.repeat(np.where(data["mover"] == 0, 1.0, -1.0), data["count"]), data["leaf_count"])
    return np.minimum.reduceat(scores * sides, data["leaf_first"]) if len(scores) else scores


def accuracy(scores: Any, data: dict[str, Any], rows: Any, np: Any) -> float:
    """The share of the decisions ``rows`` whose master's candidate has the mover's highest value
    (``scores``: for Black, every leaf; a tie counts against)."""
    values = candidate_values(scores, data, np)
    hits = 0
    for d in rows.tolist():
        lo, n = int(data["first"][d]), int(data["count"][d])
        s = values[lo:lo + n]
        best = s[int(data["master"][d])]
        hits += int((s < best).sum() == n - 1)
    return hits / max(1, len(rows))


def cmd_fit(args: argparse.Namespace) -> int:
    found = fit_modules("checkers_train_choices.py", "numpy", "torch")  # training only (see the module doc)
    if found is None:
        return 2
    np, torch = found

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.jobs)
    data = load_decisions(args.games, np, args.seed, args.plies, args.jobs)
    decided = len(data["count"])
    if not decided:
        raise SystemExit(f"{args.games}: no decisions to fit to ({data['games']} games read, "
                         f"{data['skipped']} skipped)")
    print(f"{decided} decisions, {len(data['leaf_count'])} candidates, {len(data['turn'])} leaves from {data['games']} games "
          f"({data['skipped']} skipped)", file=sys.stderr)
    rows = padded(data, np)
    check_rows = np.flatnonzero(data["check"])
    train_rows = torch.from_numpy(np.flatnonzero(~data["check"]))
    x = torch.from_numpy(input_matrix(data, np))
    base_np = base_scores(data, np)
    base = torch.from_numpy(base_np)
    sign = torch.from_numpy(np.where(data["turn"] == 0, 1.0, -1.0).astype(np.float32))
    mover = torch.from_numpy(np.where(data["mover"] == 0, 1.0, -1.0).astype(np.float32))
    pad = torch.from_numpy(rows)
    leaf_first = torch.from_numpy(data["leaf_first"])
    leaf_count = torch.from_numpy(data["leaf_count"])
    target = torch.from_numpy(data["master"])
    h1, h2 = args.hidden
    model = torch.nn.Sequential(torch.nn.Linear(network.INPUTS, h1), torch.nn.Hardtanh(0, 1),
                                torch.nn.Linear(h1, h2), torch.nn.Hardtanh(0, 1), torch.nn.Linear(h2, 1))
    warm = load_net(args.warm) if args.warm else None
    with torch.no_grad():
        if warm is not None:
            start_from(model, warm, torch)
        else:
            model[4].weight.mul_(0.01)
            model[4].bias.zero_()
        anchor_out = torch.cat([model(x[lo:lo + 65536].float())[:, 0].clamp(-network.LIMIT, network.LIMIT)
                                for lo in range(0, len(x), 65536)])
    values = _value_data(args, np, torch) if args.values else None
    log_t = torch.nn.Parameter(torch.tensor(math.log(args.scale)))
    opt = torch.optim.Adam([*model.parameters(), log_t], lr=args.lr)
    n = len(train_rows)
    per_epoch = (n + args.batch - 1) // args.batch
    steps = max(1, args.epochs * per_epoch)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1 - (1 - args.final_lr) * min(i, steps) / steps)
    for epoch in range(args.epochs):
        perm = train_rows[torch.randperm(n)]
        total_choice = total_anchor = total_value = 0.0
        if values is not None:  # the value positions in per_epoch slices, so that an epoch passes over both
            value_perm = values["train"][torch.randperm(len(values["train"]))]
            value_slices = torch.tensor_split(value_perm, per_epoch)
        for step, lo in enumerate(range(0, n, args.batch)):
            batch = perm[lo:lo + args.batch]
            idx = pad[batch]
            valid = idx >= 0
            flat = idx[valid]
            # Each candidate's leaves, and which candidate of the batch each leaf is.
            counts = leaf_count[flat]
            owner = torch.repeat_interleave(torch.arange(len(flat)), counts)
            starts = torch.cumsum(counts, 0) - counts
            leaves = leaf_first[flat][owner] + torch.arange(len(owner)) - starts[owner]
            out = model(x[leaves].float())[:, 0].clamp(-network.LIMIT, network.LIMIT)
            sides = mover[batch].unsqueeze(1).expand_as(idx)[valid][owner]
            # A candidate is worth its worst leaf for the mover: the opponent's best reply.
            value = torch.full((len(flat),), math.inf).scatter_reduce(
                0, owner, sides * (base[leaves] + sign[leaves] * out), reduce="amin")
            logits = torch.full(idx.shape, -1e9)
            logits[valid] = value / log_t.exp()
            choice = torch.nn.functional.cross_entropy(logits, target[batch])
            anchor = (((out - anchor_out[leaves]) / args.scale) ** 2).mean()
            loss = choice + args.anchor * anchor
            if values is not None and len(value_slices[step]):  # fewer positions than steps leave some empty
                values_loss = _value_loss(model, values, value_slices[step], args.scale, torch)
                loss = loss + args.value_weight * values_loss
                total_value += float(values_loss.detach()) * len(batch)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total_choice += float(choice.detach()) * len(batch)
            total_anchor += float(anchor.detach()) * len(batch)
        print(f"epoch {epoch + 1}: choice {total_choice / n:.5f}, anchor {total_anchor / n:.6f}, "
              + (f"value {total_value / n:.5f}, " if values is not None else "")
              + f"T {float(log_t.detach().exp()):.1f}", file=sys.stderr)
    net = quantise(model, np)
    # The held-out decisions' leaves: a decision's candidates are contiguous, and so are theirs.
    held_candidates = np.repeat(data["check"], data["count"])
    held_idx = np.flatnonzero(np.repeat(held_candidates, data["leaf_count"]))
    figures = {"none": accuracy(base_np, data, check_rows, np)}
    for name, which in (("warm", warm), ("fit", net)):
        figures[name] = accuracy(engine_scores(which, data, held_idx, np), data, check_rows, np)
    record = {"data": args.games, "games": data["games"], "decisions": decided, "check_decisions": int(len(check_rows)),
              "warm": args.warm, "anchor": args.anchor, "plies": args.plies, "hidden": [h1, h2], "epochs": args.epochs,
              "lr": args.lr, "temperature": float(log_t.detach().exp()), "seed": args.seed,
              "check_accuracy": figures, "positions": int(len(data["turn"])),
              "values": args.values, "value_weight": args.value_weight, "mix": args.mix,
              "net": list(net.weights)}
    if values is not None:
        record["value_positions"] = int(len(values["result"]))
        record["check_result_error"] = {name: _value_check_error(which, values, args.scale, np, torch)
                                        for name, which in (("warm", warm), ("fit", net))}
    Path(args.out).write_text(json.dumps(record) + "\n")
    print("held-out master's move first: " + ", ".join(f"{k} {v:.4f}" for k, v in figures.items())
          + f"; wrote {args.out}", file=sys.stderr)
    if values is not None:
        print("held-out value games against the results: "
              + ", ".join(f"{k} {v:.5f}" for k, v in record["check_result_error"].items()), file=sys.stderr)
    if args.module:
        write_module(args.module, net, f"scripts/checkers_train_choices.py from {decided:,} decisions "
                                       f"of {data['games']:,} master games, warm from {args.warm or 'no network'}")
    return 0


def _value_data(args: argparse.Namespace, np: Any, torch: Any) -> dict[str, Any]:
    """The ``--values`` games' positions as tensors: inputs, the frozen evaluation for Black, the
    side to move's sign, labels, results, and the training and held-out indices."""
    data = load_positions(args.values, np, seed=args.seed)
    if not len(data["result"]):
        raise SystemExit(f"{' '.join(args.values)}: no positions to fit to")
    print(f"{len(data['result'])} value positions from {data['games']} games", file=sys.stderr)
    return {"x": torch.from_numpy(input_matrix(data, np)), "data": data,
            "base": torch.from_numpy(base_scores(data, np)),
            "sign": torch.from_numpy(np.where(data["turn"] == 0, 1.0, -1.0).astype(np.float32)),
            "label": torch.from_numpy(labels(data["result"], data["score"], args.mix, args.scale, np)
                                      .astype(np.float32)),
            "result": torch.from_numpy(data["result"].astype(np.float32)),
            "train": torch.from_numpy(np.flatnonzero(~data["check"])),
            "check": np.flatnonzero(data["check"])}


def _value_loss(model: Any, values: dict[str, Any], idx: Any, scale: float, torch: Any) -> Any:
    """The value fit's loss (checkers_train_net.py's) on the positions ``idx``: scores and labels
    are for Black."""
    out = model(values["x"][idx].float())[:, 0].clamp(-network.LIMIT, network.LIMIT)
    return value_loss(values["base"][idx] + values["sign"][idx] * out, values["label"][idx], scale, torch)


def _value_check_error(net: network.Network | None, values: dict[str, Any], scale: float, np: Any,
                       torch: Any) -> float:
    """The held-out value positions' error against their games' results, scored as the engine
    scores them (for Black, as the results are)."""
    idx = values["check"]
    if not len(idx):
        return float("nan")
    black = torch.from_numpy(engine_scores(net, values["data"], idx, np)[idx])
    return float(value_loss(black, values["result"][idx], scale, torch))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="a transcript file (scripts/checkers_import_games.py's input)")
    parser.add_argument("--out", required=True, help="the fit as JSON")
    parser.add_argument("--warm", help="start from (and anchor to) this fit (JSON) or the shipped network")
    parser.add_argument("--anchor", type=number_in(0), default=1.0, help="the weight of staying near the warm network")
    parser.add_argument("--plies", type=int, choices=(1, 2), default=1,
                        help="judge each candidate by its own position (1) or by the opponent's best reply (2)")
    parser.add_argument("--jobs", type=whole_number(1), default=1, help="processes reading the games, threads fitting")
    parser.add_argument("--values", nargs="+", default=[], metavar="GAMES",
                        help="self-play games (checkers_tune.py selfplay's) whose values are fitted beside the choices")
    parser.add_argument("--value-weight", type=number_in(0), default=1.0, help="the values' loss's weight")
    parser.add_argument("--mix", type=number_in(0), default=0.5,
                        help="the result's share of a value's label (the rest the search's score)")
    add_network_options(parser, epochs=4, lr=1e-3, batch=256, batch_help="decisions a step")
    args = parser.parse_args(argv)
    if args.mix > 1:
        parser.error(f"argument --mix: {args.mix:g}: wants a number from 0 to 1")
    for path in [args.games, *args.values]:
        if not Path(path).is_file():
            parser.error(f"{path}: no such file")
    return cmd_fit(args)


if __name__ == "__main__":
    sys.exit(main())
