"""Fit the checkers evaluation with pattern tables to the engine's own games.

    python scripts/checkers_train_patterns.py GAMES.jsonl [more ...] --out fit.json [--mix 0.5] [--l2 1e-6]
        [--epochs 6] [--module tui_games/engine/checkers/_pattern_data.py] [--python]

**Data**: the JSON lines of ``scripts/checkers_tune.py selfplay``: games of tui-games' own
engine against itself from the standard three-move ballots (one random move at ply 4-16 for
variety), every quiet position (no capture pending) with the game's result for Black and,
in files written since the pattern tables, the engine's search score for Black at the move
(``--nodes`` nodes, 10,000 by default). The shipped tables were fitted to nothing but the
engine's own play. ``--train-only`` adds games from outside in the same form (human games
with a stated provenance, read by ``scripts/checkers_import_games.py``; never another
engine's evaluation, nets or games), fitted to but never held out. The shipped tables' data
and command, and the outside games tried, are in docs/games/checkers.md.

**The model** is the engine's evaluation itself (evaluation.py): the 83 phase-blended
features (started from the shipped weights) plus the 13 pattern tables (started at zero, or
from the shipped tables with ``--warm``),
in hundredths of a man; the probability that Black wins is the logistic of the score over
``--scale`` (53.6 by default: the scale of the previous logistic fit of the features).

**Labels** (:func:`labels`): the result (1, 0.5, 0) blended with the search's opinion: ``mix
· result + (1 − mix) · logistic(score / scale)``. The search score is much less noisy than one
game's result (a distillation of a deeper look into the static evaluation); a file without
scores gives the result alone.

**Fitting** needs PyTorch (``pip install torch``; training only: the engine never imports
it): Adam on the cross-entropy with an L2 penalty on the tables, on 90% of the games; the
other 10% (whole games) measure the error of the shipped evaluation and of the fit, against the
labels and against the results alone (the same yardstick whatever ``--mix``). The
weights are rounded to integers (16 bits for the tables). ``--module`` writes the tables as
``_pattern_data.py`` (the image of ``patterns.encode`` in base 85) and ``--python`` prints the
feature weights as ``evaluation.py``'s tuple.

The pieces that need no PyTorch (:func:`load_positions`, :func:`labels`,
:func:`pattern_index_arrays`) are tested in tests/engine/test_checkers_patterns.py.
Run it nice'd: one process.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from tui_games.engine.checkers import patterns
from tui_games.engine.checkers.evaluation import (
    BASE3,
    DEFAULT_WEIGHTS,
    N_FEATURES,
    N_WEIGHTS,
    PATTERN_STATES,
    PATTERN_UNIT,
    PATTERN_WINDOWS,
    PHASE,
    features,
)
from tui_games.training import fit_modules

SCALE = 53.6


def _read_games(paths: list[str]) -> list[tuple[float, list]]:
    games = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.strip():
                record = json.loads(line)
                games.append((float(record["result"]), record["positions"]))
    return games


def load_positions(paths: list[str], np: Any, seed: int = 0, check_share: float = 0.1,
                   train_only: list[str] | None = None, twins: list[str] | None = None,
                   train_weighted: list[str] | None = None) -> dict[str, Any]:
    """Every position of the games as arrays: black, white, kings, turn, result, score (NaN
    where the file has none), ``check`` (True for the held-out games: whole games, a
    ``check_share`` of the games of ``paths`` chosen by ``seed``) and ``primary`` (True for
    the games of ``paths``). The games of ``train_only`` come after them and are never held
    out, so adding such files leaves the held-out games, and so the errors measured on them,
    as they were. ``twins`` are files holding the same games as ``paths``, file for file and
    game for game, with other labels (the games before ``checkers_train_net.py label``
    searched again one in n of their positions, in the same order; a labelling stopped early
    leaves the labelled file shorter): their games are trained on too, but never the twins
    of held-out games, so no held-out position is seen with another label. The games of
    ``train_weighted`` are never held out either but are marked ``weighted`` like those of
    ``paths`` (a fit weighs both alike): older games of the kind in ``paths``, so that the
    held-out games are new ones no earlier fit saw. ``game`` numbers each position's game
    (positions come in the order they were played)."""
    per_file = [_read_games([path]) for path in paths]
    games = [game for file_games in per_file for game in file_games]
    rng = random.Random(seed)
    check_games = set(rng.sample(range(len(games)), int(len(games) * check_share)))
    primary = len(games)
    if twins:
        if len(twins) != len(paths):
            raise ValueError(f"{len(twins)} twin files for {len(paths)} files")
        first = 0
        for file_games, twin in zip(per_file, twins):
            games += [game for i, game in enumerate(_read_games([twin]))
                      if i >= len(file_games) or first + i not in check_games]
            first += len(file_games)
    weighted_from = len(games)
    games += _read_games(train_weighted or [])
    weighted_to = len(games)
    games += _read_games(train_only or [])
    cols: dict[str, list] = {k: [] for k in ("black", "white", "kings", "turn", "result", "score", "check",
                                              "primary", "weighted", "game")}
    for g, (result, kept) in enumerate(games):
        for p in kept:
            cols["game"].append(g)
            cols["black"].append(p[0])
            cols["white"].append(p[1])
            cols["kings"].append(p[2])
            cols["turn"].append(p[3])
            cols["score"].append(float(p[4]) if len(p) > 4 else float("nan"))
            cols["result"].append(result)
            cols["check"].append(g in check_games)
            cols["primary"].append(g < primary)
            cols["weighted"].append(g < primary or weighted_from <= g < weighted_to)
    out = {k: np.array(v, dtype=np.uint32) for k, v in cols.items() if k in ("black", "white", "kings")}
    out["turn"] = np.array(cols["turn"], dtype=np.int8)
    out["result"] = np.array(cols["result"], dtype=np.float64)
    out["score"] = np.array(cols["score"], dtype=np.float64)
    out["check"] = np.array(cols["check"], dtype=bool)
    out["primary"] = np.array(cols["primary"], dtype=bool)
    out["weighted"] = np.array(cols["weighted"], dtype=bool)
    out["game"] = np.array(cols["game"], dtype=np.int64)
    out["games"] = len(games)
    return out


def labels(result: Any, score: Any, mix: float, scale: float, np: Any, lam: float = 0.0,
           game: Any = None) -> Any:
    """``mix · result + (1 − mix) · logistic(score / scale)``; the result alone without a score.

    With ``lam`` (and ``game``, each position's game, positions in the order played) the
    search's half is the λ-return of the game's later searches instead of the position's own:
    ``G_i = (1 − lam) · s_i + lam · G_next``, the result after the game's last position, a
    position without a score passing its successor's on. It leans a position's label on what
    searches some ``1 / (1 − lam)`` positions later saw (TD(λ)): a drift the position's own
    search missed, without the whole noise of one game's result."""
    if lam and (game is None or not 0 < lam < 1):
        raise ValueError(f"lam {lam}: wants 0 < lam < 1 and each position's game")
    searched = 1 / (1 + np.exp(-np.clip(np.nan_to_num(score) / scale, -30, 30)))
    if lam:
        has = ~np.isnan(score)
        ahead = np.empty_like(searched)
        after = None  # G of the next position of the same game
        for i in range(len(score) - 1, -1, -1):
            if after is None or game[i] != game[i + 1]:
                after = float(result[i])
            if has[i]:
                after = (1 - lam) * float(searched[i]) + lam * after
            ahead[i] = after
        searched = ahead
    return np.where(np.isnan(score), result, mix * result + (1 - mix) * searched)


def _turn(m: Any, np: Any) -> Any:
    """Bit i <-> bit 31 - i on an array of uint32 masks."""
    rev8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint32)
    return (rev8[m & 255] << 24) | (rev8[(m >> 8) & 255] << 16) | (rev8[(m >> 16) & 255] << 8) | rev8[m >> 24]


def _window_byte(m: Any, shift: int, block: bool) -> Any:
    m = m >> shift
    if not block:
        return m & 255
    m = m & 0x3333
    m = (m | m >> 2) & 0x0F0F
    return (m | m >> 4) & 255


def pattern_index_arrays(black: Any, white: Any, np: Any) -> tuple[Any, Any]:
    """Each window's table index for Black (``own``) and for White (from the board turned
    round), shape (positions, windows): ``evaluation.pattern_indices`` on arrays."""
    base3 = np.array(BASE3, dtype=np.int64)
    tb, tw = _turn(white, np), _turn(black, np)
    own = np.stack([base3[_window_byte(black, s, b)] + 2 * base3[_window_byte(white, s, b)]
                    for s, b in PATTERN_WINDOWS], axis=1)
    opp = np.stack([base3[_window_byte(tb, s, b)] + 2 * base3[_window_byte(tw, s, b)]
                    for s, b in PATTERN_WINDOWS], axis=1)
    return own, opp


def feature_matrix(data: dict[str, Any], np: Any) -> tuple[Any, Any]:
    """The phase (pieces / 24) and the feature counts (Black minus White) of every position."""
    rows, phase = [], []
    for b, w, k, t in zip(data["black"].tolist(), data["white"].tolist(), data["kings"].tolist(),
                          data["turn"].tolist()):
        pieces, f = features(b, w, k, t)
        rows.append(f)
        phase.append(pieces / PHASE)
    return np.array(phase, dtype=np.float32), np.array(rows, dtype=np.float32)


def train(data: dict[str, Any], args: argparse.Namespace, np: Any) -> dict[str, Any]:
    import torch  # training only (see the module doc)

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    phase, feats = feature_matrix(data, np)
    own, opp = pattern_index_arrays(data["black"], data["white"], np)
    offsets = np.arange(len(PATTERN_WINDOWS), dtype=np.int64) * PATTERN_STATES
    y = labels(data["result"], data["score"], args.mix, args.scale, np).astype(np.float32)
    check = data["check"]
    t = {name: torch.from_numpy(np.ascontiguousarray(a)) for name, a in
         (("phase", phase), ("feats", feats), ("own", own + offsets), ("opp", opp + offsets), ("y", y),
          ("result", data["result"].astype(np.float32)))}
    dense = torch.tensor(np.array(DEFAULT_WEIGHTS[:N_WEIGHTS], dtype=np.float32).reshape(2, N_FEATURES),
                         requires_grad=True)
    if args.warm:  # a further round: start from the shipped tables
        start = np.array(DEFAULT_WEIGHTS[N_WEIGHTS:], dtype=np.float32).reshape(-1, 2)
        tables = torch.tensor(start, requires_grad=True)
    else:
        tables = torch.zeros(len(PATTERN_WINDOWS) * PATTERN_STATES, 2, requires_grad=True)

    def score(idx: Any) -> Any:
        ph = t["phase"][idx]
        f = t["feats"][idx]
        op = f @ dense[0]
        en = f @ dense[1]
        diff = tables[t["own"][idx]].sum(1) - tables[t["opp"][idx]].sum(1)
        op = op + diff[:, 0] / PATTERN_UNIT
        en = en + diff[:, 1] / PATTERN_UNIT
        return op * ph + en * (1 - ph)

    def loss_of(s: Any, target: Any) -> Any:
        return torch.nn.functional.binary_cross_entropy_with_logits(s / args.scale, target)

    train_idx = torch.from_numpy(np.flatnonzero(~check))
    check_idx = torch.from_numpy(np.flatnonzero(check))
    with torch.no_grad():
        # The starting evaluation's error: the shipped one with --warm, else the features alone.
        start_error = float(loss_of(score(check_idx), t["y"][check_idx]))
        # Against the games' results alone: the same yardstick for fits of any --mix.
        start_result_error = float(loss_of(score(check_idx), t["result"][check_idx]))
    opt = torch.optim.Adam([{"params": [tables], "lr": args.lr}, {"params": [dense], "lr": args.lr_dense}])
    n = len(train_idx)
    # Adam moves every weight a batch touches by about its step, so a constant step leaves the
    # fit jittering around the optimum: the steps fall linearly to --final-lr of themselves.
    steps = args.epochs * ((n + args.batch - 1) // args.batch)
    decay = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1 - (1 - args.final_lr) * min(i, steps) / steps)
    for epoch in range(args.epochs):
        perm = train_idx[torch.randperm(n)]
        total = 0.0
        for lo in range(0, n, args.batch):
            idx = perm[lo:lo + args.batch]
            loss = loss_of(score(idx), t["y"][idx]) + args.l2 * ((tables / PATTERN_UNIT) ** 2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            decay.step()
            total += float(loss.detach()) * len(idx)
        with torch.no_grad():
            err = float(loss_of(score(check_idx), t["y"][check_idx]))
        print(f"epoch {epoch + 1}: train {total / n:.5f}, check {err:.5f} (start {start_error:.5f})", file=sys.stderr)
    # The feature weights rounded to integers cost more than the tables' sixteenths: round them,
    # then let the tables make up for it over one more pass (the feature weights fixed).
    dense_int = [int(round(v)) for v in dense.detach().numpy().reshape(-1).tolist()]
    with torch.no_grad():
        dense.copy_(torch.tensor(dense_int, dtype=torch.float32).reshape(2, N_FEATURES))
    dense.requires_grad_(False)
    settle = torch.optim.Adam([tables], lr=args.lr * args.final_lr)
    perm = train_idx[torch.randperm(n)]
    for lo in range(0, n, args.batch):
        idx = perm[lo:lo + args.batch]
        loss = loss_of(score(idx), t["y"][idx]) + args.l2 * ((tables / PATTERN_UNIT) ** 2).sum()
        settle.zero_grad()
        loss.backward()
        settle.step()
    tables_int = np.clip(np.rint(tables.detach().numpy()), -32768, 32767).astype(np.int64).reshape(-1).tolist()
    with torch.no_grad():
        tables.copy_(torch.tensor(tables_int, dtype=torch.float32).reshape(-1, 2))
        rounded_error = float(loss_of(score(check_idx), t["y"][check_idx]))
        result_error = float(loss_of(score(check_idx), t["result"][check_idx]))
    return {"positions": int(len(y)), "games": data["games"], "check_positions": int(check.sum()),
            "mix": args.mix, "scale": args.scale, "l2": args.l2, "epochs": args.epochs,
            "check_error_start": start_error, "check_error": rounded_error, "data": args.data,
            "train_only": args.train_only, "check_result_error_start": start_result_error,
            "check_result_error": result_error,
            "weights": dense_int, "patterns": tables_int}


def write_module(path: str, record: dict[str, Any]) -> None:
    text = patterns.encode_text(record["patterns"], len(PATTERN_WINDOWS), PATTERN_STATES)
    Path(path).write_text(
        '"""The evaluation\'s pattern tables (see patterns.py), written by scripts/checkers_train_patterns.py\n'
        f'from {record["positions"]:,} positions of {record["games"]:,} self-play games (docs/games/checkers.md)."""\n\n'
        f'BLOB = """\n{text}\n"""\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+")
    parser.add_argument("--out", required=True, help="the fit as JSON")
    parser.add_argument("--mix", type=float, default=0.5, help="the result's share of the label")
    parser.add_argument("--scale", type=float, default=SCALE)
    parser.add_argument("--l2", type=float, default=1e-6, help="the penalty on the tables' squares (in hundredths of a man)")
    parser.add_argument("--lr", type=float, default=4.0, help="Adam's step for the tables (their unit)")
    parser.add_argument("--lr-dense", type=float, default=0.1, help="Adam's step for the feature weights")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--final-lr", type=float, default=0.05, help="the steps' share left at the end (linear decay)")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--train-only", nargs="+", default=[], metavar="GAMES",
                        help="more games to fit to, never held out (e.g. scripts/checkers_import_games.py's)")
    parser.add_argument("--warm", action="store_true", help="start the tables from the shipped ones, not from zero")
    parser.add_argument("--module", help="write the tables as this _pattern_data.py")
    parser.add_argument("--python", action="store_true", help="print the feature weights as evaluation.py's tuple")
    args = parser.parse_args(argv)
    found = fit_modules("checkers_train_patterns.py", "numpy", "torch")  # training only
    if found is None:
        return 2
    np = found[0]
    data = load_positions(args.data, np, seed=args.seed, train_only=args.train_only)
    print(f"{len(data['result'])} positions from {data['games']} games", file=sys.stderr)
    record = train(data, args, np)
    Path(args.out).write_text(json.dumps(record) + "\n")
    print(f"check error {record['check_error']:.5f} (shipped {record['check_error_start']:.5f}), against the results "
          f"alone {record['check_result_error']:.5f} (shipped {record['check_result_error_start']:.5f}); wrote {args.out}",
          file=sys.stderr)
    if args.module:
        write_module(args.module, record)
    if args.python:
        from tui_games.training.checkers_tune import python_tuple

        print(python_tuple(record["weights"]).replace("DEFAULT_WEIGHTS", "FEATURE_WEIGHTS"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
