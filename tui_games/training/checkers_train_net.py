"""Label positions by the engine's search, and fit the checkers evaluation's small network.

    python scripts/checkers_train_net.py label GAMES.jsonl --out LABELLED.jsonl [--nodes 10000] [--every 2]
    python scripts/checkers_train_net.py fit GAMES.jsonl [more ...] --out net.json [--train-only MORE ...]
        [--twins UNLABELLED ...] [--train-weighted OLDER ...] [--weight 1] [--warm FIT|shipped]
        [--mix 0.25] [--lam 0] [--hidden 32 32] [--epochs 8] [--module tui_games/engine/checkers/_net_data.py]

**label** searches one in ``--every`` quiet positions of the games of a file in the
self-play form (``scripts/checkers_tune.py selfplay``, ``scripts/checkers_import_games.py``)
with the engine at ``--nodes`` nodes (the shipped evaluation, no book, no database) and writes
the games again with the search's score for Black added to each kept position: master games'
variety with the engine's label. It appends game by game, so a stopped run can be resumed
(games already in ``--out`` are skipped).

**fit** trains the network of :mod:`tui_games.engine.checkers.network` as a residual on top
of the shipped evaluation, which stays frozen: the probability that Black wins is the
logistic of ``(evaluation + network) / scale`` (the network read from the side to move), so a
network of zeros is the shipped evaluation exactly. The labels and the held-out split are
``checkers_train_patterns.py``'s (:func:`load_positions`, :func:`labels`: whole games held
out, the result mixed with the search's score by ``--mix``; with ``--lam`` the search's share is
the λ-return of the game's later searches). Positions labelled again by a
deeper search are fitted with ``--twins``, the files they were labelled from (trained on but
for the held-out games' twins, so the held-out error is against the deep labels of positions
no fit saw), and weigh ``--weight`` times the others, as do the games of ``--train-weighted``
(never held out: older games of the data files' kind, so that a warm fit is checked on games
it never saw); ``--warm`` starts from a fit instead of
from no correction. Needs PyTorch and NumPy
(training only: the engine never imports them). After the float fit the weights are
quantised exactly as the engine computes them (:func:`network.forward`) and the held-out
error is measured again with the integer network. ``--module`` writes the shipped image.
Run it nice'd: one process.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

from tui_games.engine.checkers import core, network
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, NETWORK, make_evaluator
from tui_games.engine.checkers.notation import format_fen
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits
from tui_games.training import fit_modules
from tui_games.training.checkers_train_patterns import SCALE, labels, load_positions

TABLE_BITS = 18


# -- labelling -------------------------------------------------------------------------------------

def cmd_label(args: argparse.Namespace) -> int:
    done = 0
    out_path = Path(args.out)
    if out_path.exists():
        done = sum(1 for line in out_path.read_text().splitlines() if line.strip())
    lines = [line for line in Path(args.games).read_text().splitlines() if line.strip()]
    if args.limit:
        lines = lines[:args.limit]
    began = time.process_time()
    labelled = 0
    # One engine, cleared between games (a new table a game would only cost allocations).
    engine = Engine(evaluation="default", table_bits=TABLE_BITS)
    with out_path.open("a") as out:
        for g, line in enumerate(lines):
            if g < done:
                continue
            record = json.loads(line)
            engine.clear()
            kept = []
            rng = random.Random(g)  # a share of each game's positions, both sides to move
            for p in record["positions"]:
                if rng.randrange(args.every):
                    continue
                b, w, k, t = p[:4]
                pos = CheckersPosition(format_fen(b, w, k, t))
                if not pos.legal_moves():
                    continue
                result = engine.search(pos, SearchLimits(nodes=args.nodes))
                kept.append([b, w, k, t, result.score if t == 0 else -result.score])
                labelled += 1
            record["positions"] = kept
            record["labelled"] = f"checkers_train_net.py label --nodes {args.nodes} --every {args.every}"
            out.write(json.dumps(record) + "\n")
            out.flush()
            if (g + 1) % 100 == 0:
                print(f"{g + 1} games, {labelled} positions, {time.process_time() - began:.0f} s CPU", file=sys.stderr)
    return 0


# -- fitting ---------------------------------------------------------------------------------------

def _turn_np(m: Any, np: Any) -> Any:
    rev8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint32)
    return (rev8[m & 255] << 24) | (rev8[(m >> 8) & 255] << 16) | (rev8[(m >> 16) & 255] << 8) | rev8[m >> 24]


def input_matrix(data: dict[str, Any], np: Any) -> Any:
    """The network's 128 inputs of every position, from the side to move (uint8, 0 or 1)."""
    black, white, kings, turn = data["black"], data["white"], data["kings"], data["turn"]
    white_moves = turn == 1
    own = np.where(white_moves, _turn_np(white, np), black)
    opp = np.where(white_moves, _turn_np(black, np), white)
    k = np.where(white_moves, _turn_np(kings, np), kings)
    bits = np.arange(32, dtype=np.uint32)
    planes = [own & ~k, own & k, opp & ~k, opp & k]
    return np.concatenate([((p[:, None] >> bits) & 1).astype(np.uint8) for p in planes], axis=1)


def engine_scores(net: network.Network | None, data: dict[str, Any], idx: Any, np: Any) -> Any:
    """The engine's evaluation for Black at the positions ``idx`` (the rest zero): the linear one,
    with ``net`` on top when given, by the compiled core where it was built (the same integers
    as the Python evaluation, some sixty times faster: a fit has millions of positions)."""
    out = np.zeros(len(data["turn"]), dtype=np.float32)
    if core.COMPILED:
        score = core.make_core(8, DEFAULT_WEIGHTS, net=net).evaluate
    else:
        score = make_evaluator(DEFAULT_WEIGHTS, net)
    black, white, kings, turn = (data[name] for name in ("black", "white", "kings", "turn"))
    for i in idx.tolist():
        t = int(turn[i])
        value = score(int(black[i]), int(white[i]), int(kings[i]), t)
        out[i] = value if t == 0 else -value
    return out


def base_scores(data: dict[str, Any], np: Any) -> Any:
    """The shipped evaluation of every position, for Black (the frozen part of the model)."""
    return engine_scores(None, data, np.arange(len(data["turn"])), np)


def quantise(model: Any, np: Any) -> network.Network:
    """The float model's weights as the engine's integers (see network's module doc)."""
    w1 = model[0].weight.detach().numpy().T  # inputs x hidden1
    b1 = model[0].bias.detach().numpy()
    w2 = model[2].weight.detach().numpy().T  # hidden1 x hidden2
    b2 = model[2].bias.detach().numpy()
    w3 = model[4].weight.detach().numpy()[0]
    b3 = float(model[4].bias.detach().numpy()[0])
    act, s2, s3 = network.ACT, 1 << network.SHIFT2, 1 << network.SHIFT3

    def q(a: Any, scale: float, bound: int) -> list[int]:
        return np.clip(np.rint(a * scale), -bound, bound).astype(np.int64).reshape(-1).tolist()

    # a1 = act · h1; a2 = act · h2 needs (B2 + Σ a1 · W2) / s2 = act · (b2 + Σ h1 · w2): W2 = w2 · s2,
    # B2 = b2 · act · s2; out = (B3 + Σ a2 · W3) / s3: W3 = w3 · s3 / act, B3 = b3 · s3.
    weights = (q(w1, act, network.MAX_W1) + q(b1, act, network.MAX_B1) + q(w2, s2, network.MAX_WEIGHT)
               + q(b2, act * s2, network.MAX_BIAS) + q(w3, s3 / act, network.MAX_WEIGHT)
               + q(np.array([b3]), s3, network.MAX_BIAS))
    return network.Network(w1.shape[1], w2.shape[1], tuple(weights))


def start_from(model: Any, net: network.Network | None, torch: Any) -> None:
    """Set the float model to a network's integers (:func:`quantise` undone)."""
    if net is None:
        raise SystemExit("--warm needs a network")
    h1, h2, w = net.hidden1, net.hidden2, net.weights
    if (model[0].out_features, model[2].out_features) != (h1, h2):
        raise SystemExit(f"--warm: a {h1}x{h2} network, not {model[0].out_features}x{model[2].out_features}")
    act, s2, s3 = network.ACT, 1 << network.SHIFT2, 1 << network.SHIFT3
    b1_at = network.INPUTS * h1
    w2_at = b1_at + h1
    b2_at = w2_at + h1 * h2
    w3_at = b2_at + h2

    def t(values: Any, shape: tuple[int, ...], scale: float) -> Any:
        return torch.tensor(values, dtype=torch.float32).reshape(shape) / scale

    model[0].weight.copy_(t(w[:b1_at], (network.INPUTS, h1), act).T)
    model[0].bias.copy_(t(w[b1_at:w2_at], (h1,), act))
    model[2].weight.copy_(t(w[w2_at:b2_at], (h1, h2), s2).T)
    model[2].bias.copy_(t(w[b2_at:w3_at], (h2,), act * s2))
    model[4].weight.copy_(t(w[w3_at:w3_at + h2], (1, h2), s3 / act))
    model[4].bias.copy_(t(w[w3_at + h2:], (1,), s3))


def cmd_fit(args: argparse.Namespace) -> int:
    found = fit_modules("checkers_train_net.py", "numpy", "torch")  # training only (see the module doc)
    if found is None:
        return 2
    np, torch = found

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    data = load_positions(args.data, np, seed=args.seed, train_only=args.train_only, twins=args.twins,
                          train_weighted=args.train_weighted)
    print(f"{len(data['result'])} positions from {data['games']} games", file=sys.stderr)
    # The files' own positions (those searched deeper, with --twins) and --train-weighted's count --weight times.
    weight = torch.from_numpy(np.where(data["weighted"], args.weight, 1.0).astype(np.float32))
    x = torch.from_numpy(input_matrix(data, np).astype(np.float32))
    base = torch.from_numpy(base_scores(data, np))
    sign = torch.from_numpy(np.where(data["turn"] == 0, 1.0, -1.0).astype(np.float32))
    y = torch.from_numpy(labels(data["result"], data["score"], args.mix, args.scale, np, lam=args.lam,
                                game=data["game"]).astype(np.float32))
    result = torch.from_numpy(data["result"].astype(np.float32))
    check = data["check"]
    train_idx = torch.from_numpy(np.flatnonzero(~check))
    check_idx = torch.from_numpy(np.flatnonzero(check))
    h1, h2 = args.hidden
    model = torch.nn.Sequential(torch.nn.Linear(network.INPUTS, h1), torch.nn.Hardtanh(0, 1),
                                torch.nn.Linear(h1, h2), torch.nn.Hardtanh(0, 1), torch.nn.Linear(h2, 1))
    with torch.no_grad():
        if args.warm:  # start from a fit's integers (the inverse of quantise)
            start_from(model, load_net(args.warm), torch)
        else:  # start as the shipped evaluation: no correction
            model[4].weight.mul_(0.01)
            model[4].bias.zero_()

    def score(idx: Any, net: Any = None) -> Any:
        if net is None:
            out = model(x[idx])[:, 0].clamp(-network.LIMIT, network.LIMIT)
        else:
            out = net[idx]
        return base[idx] + sign[idx] * out

    def loss_of(s: Any, target: Any, w: Any = None) -> Any:
        return value_loss(s, target, args.scale, torch, w)

    with torch.no_grad():
        zero = torch.zeros(len(y))
        start_error = float(loss_of(score(check_idx, zero), y[check_idx]))
        start_result_error = float(loss_of(score(check_idx, zero), result[check_idx]))
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.decay)
    n = len(train_idx)
    steps = max(1, args.epochs * ((n + args.batch - 1) // args.batch))  # --epochs 0: a fit measured as it is
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda i: 1 - (1 - args.final_lr) * min(i, steps) / steps)
    for epoch in range(args.epochs):
        perm = train_idx[torch.randperm(n)]
        total = 0.0
        for lo in range(0, n, args.batch):
            idx = perm[lo:lo + args.batch]
            loss = loss_of(score(idx), y[idx], weight[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        with torch.no_grad():
            err = float(loss_of(score(check_idx), y[check_idx]))
        print(f"epoch {epoch + 1}: train {total / n:.5f}, check {err:.5f} (shipped {start_error:.5f})",
              file=sys.stderr)
    net = quantise(model, np)
    forward = network.make_forward(net)
    xs = input_matrix(data, np)
    masks = [(xs[:, 32 * p:32 * p + 32] * (1 << np.arange(32, dtype=np.uint64))).sum(1).astype(np.uint64)
             for p in range(4)]
    ci = check_idx.numpy()
    outs = torch.zeros(len(y))
    outs[check_idx] = torch.tensor([float(forward(int(masks[0][i]), int(masks[1][i]), int(masks[2][i]),
                                                  int(masks[3][i]))) for i in ci])
    with torch.no_grad():
        float_error = float(loss_of(score(check_idx), y[check_idx]))
        q_error = float(loss_of(score(check_idx, outs), y[check_idx]))
        q_result_error = float(loss_of(score(check_idx, outs), result[check_idx]))
    record = {"positions": int(len(y)), "games": data["games"], "check_positions": int(check.sum()),
              "data": args.data, "train_only": args.train_only, "twins": args.twins,
              "train_weighted": args.train_weighted, "weight": args.weight,
              "warm": args.warm, "mix": args.mix, "lam": args.lam, "scale": args.scale,
              "hidden": [h1, h2], "epochs": args.epochs, "lr": args.lr, "decay": args.decay,
              "check_error_start": start_error, "check_error_float": float_error, "check_error": q_error,
              "check_result_error_start": start_result_error, "check_result_error": q_result_error,
              "net": list(net.weights)}
    Path(args.out).write_text(json.dumps(record) + "\n")
    print(f"check error {q_error:.5f} (float {float_error:.5f}, shipped {start_error:.5f}); against the results "
          f"alone {q_result_error:.5f} (shipped {start_result_error:.5f}); wrote {args.out}", file=sys.stderr)
    if args.module:
        write_module(args.module, net, f"scripts/checkers_train_net.py from {record['positions']:,} positions "
                                       f"of {record['games']:,} games")
    return 0


def value_loss(score: Any, target: Any, scale: float, torch: Any, weight: Any = None) -> Any:
    """The value fits' loss: the cross-entropy of the logistic of ``score`` / ``scale`` (for
    Black) against ``target`` (a win's probability for Black), weighted by ``weight``."""
    return torch.nn.functional.binary_cross_entropy_with_logits(score / scale, target, weight=weight)


def write_module(path: str, net: network.Network, origin: str) -> None:
    """Write the shipped image; ``origin`` ends its docstring's first sentence ("written by …")."""
    Path(path).write_text(
        f'"""The evaluation\'s network (see network.py), written by\n{origin}\n(docs/games/checkers.md)."""\n\n'
        f'BLOB = """\n{network.encode_text(net)}\n"""\n')


# -- comparing in play -----------------------------------------------------------------------------

def load_net(path: str) -> network.Network | None:
    """A fit's network (``shipped``: the shipped one, ``none``: no network)."""
    if path == "none":
        return None
    if path == "shipped":
        return NETWORK
    record = json.loads(Path(path).read_text())
    hidden1, hidden2 = record["hidden"]
    return network.Network(hidden1, hidden2, tuple(record["net"]))


def cmd_compare(args: argparse.Namespace) -> int:
    """A with a network against B (by default the evaluation without one), in one process,
    both colours of each ballot; nodes a move (each side its own count, so a slower
    evaluation can be given fewer) or CPU seconds."""
    from tui_games.training.checkers_tune import ballots, elo

    net_a, net_b = load_net(args.a), load_net(args.b)
    rng = random.Random(args.seed)
    openings = ballots()
    rng.shuffle(openings)
    wins = draws = losses = 0
    # One engine a side, cleared before each game.
    a, b = Engine(table_bits=TABLE_BITS, net=net_a), Engine(table_bits=TABLE_BITS, net=net_b)
    if args.seconds:
        limits = {id(a): SearchLimits(seconds=args.seconds), id(b): SearchLimits(seconds=args.seconds)}
    else:
        limits = {id(a): SearchLimits(nodes=args.nodes_a or args.nodes), id(b): SearchLimits(nodes=args.nodes)}
    for game in range(args.first, args.first + args.games):
        ballot = openings[(game // 2) % len(openings)]
        new_black = game % 2 == 0
        a.clear()
        b.clear()
        black, white = (a, b) if new_black else (b, a)
        result = _play(black, white, ballot.position(), limits, rng)
        score = result if new_black else 1 - result
        wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
        print(f"game {game + 1}: {ballot}, A {'Black' if new_black else 'White'}: {score}", file=sys.stderr, flush=True)
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    sd = math.sqrt((wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n) / math.sqrt(n)
    budget = f"{args.seconds} CPU s" if args.seconds else f"{args.nodes_a or args.nodes} / {args.nodes} nodes"
    print(f"A vs B: {wins}-{draws}-{losses} ({n} games, {budget} a move): score {100 * p:.1f}% "
          f"± {196 * sd:.1f}, Elo {elo(p):+.0f} [{elo(p - 1.96 * sd):+.0f}, {elo(p + 1.96 * sd):+.0f}]")
    return 0


def _play(black: Engine, white: Engine, start: CheckersPosition, limits: dict[int, SearchLimits],
          rng: random.Random) -> float:
    """checkers_tune.play with each engine's own limits."""
    from tui_games.training.checkers_tune import MAX_PLIES, adjudicate

    pos = start.copy()
    engines = (black, white)
    while pos.outcome() is None and pos.ply < MAX_PLIES:
        engine = engines[pos.turn]
        pos.push(engine.search(pos, limits[id(engine)], rng=rng).move)
    return float(adjudicate(pos))


def number_in(low: float, below: float | None = None) -> Callable[[str], float]:
    """An argparse type: a number from ``low`` (up to, not including, ``below``), refused when
    the command line is read, not after minutes of loading games."""
    wants = f"from {low:g} up to (not including) {below:g}" if below is not None else f"{low:g} or more"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not (value >= low and (below is None or value < below)):
            raise argparse.ArgumentTypeError(f"{text!r}: wants a number {wants}")
        return value
    return parse


def whole_number(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` up, refused when the command line is read."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"{text!r}: wants a whole number, {low} or more")
        return value
    return parse


def add_network_options(parser: argparse.ArgumentParser, *, epochs: int, lr: float, batch: int,
                        batch_help: str | None = None) -> None:
    """The options every fit of the network shares (this script's and checkers_train_choices.py's)."""
    parser.add_argument("--scale", type=float, default=SCALE)
    parser.add_argument("--hidden", type=int, nargs=2, default=[128, 32])
    parser.add_argument("--epochs", type=whole_number(0), default=epochs)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--final-lr", type=float, default=0.05)
    parser.add_argument("--batch", type=whole_number(1), default=batch, help=batch_help)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--module", help="write the network as this _net_data.py")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    lab = sub.add_parser("label", help="add the engine's search score to each kept position")
    lab.set_defaults(handler=cmd_label)
    lab.add_argument("games")
    lab.add_argument("--out", required=True)
    lab.add_argument("--nodes", type=int, default=10_000)
    lab.add_argument("--every", type=int, default=2, help="search one in n kept positions (drawn by the game's number)")
    lab.add_argument("--limit", type=int, default=0, help="the first n games only")
    fit = sub.add_parser("fit", help="fit the network on top of the shipped evaluation")
    fit.set_defaults(handler=cmd_fit)
    fit.add_argument("data", nargs="+")
    fit.add_argument("--out", required=True, help="the fit as JSON")
    fit.add_argument("--train-only", nargs="+", default=[], metavar="GAMES", help="more games, never held out")
    fit.add_argument("--train-weighted", nargs="+", default=[], metavar="GAMES",
                     help="more games, never held out, weighed --weight times like the data files'")
    fit.add_argument("--twins", nargs="+", default=[], metavar="GAMES",
                     help="the data files' games before labelling, file for file: trained on, but for the held-out")
    fit.add_argument("--weight", type=float, default=1.0, help="the data files' positions' weight in the loss")
    fit.add_argument("--warm", help="start from this fit (JSON) or the shipped network, not from zero")
    fit.add_argument("--mix", type=float, default=0.25, help="the result's share of the label")
    fit.add_argument("--lam", type=number_in(0, 1), default=0.0,
                     help="the search's share of the label is the λ-return of the game's later searches (TD(λ))")
    fit.add_argument("--decay", type=float, default=0.0, help="Adam's weight decay")
    add_network_options(fit, epochs=8, lr=2e-3, batch=1024)
    co = sub.add_parser("compare", help="a network against another (or none) in play")
    co.set_defaults(handler=cmd_compare)
    co.add_argument("--a", required=True, help="a fit (JSON), shipped, or none")
    co.add_argument("--b", default="none", help="a fit (JSON), shipped, or none (the default)")
    co.add_argument("--games", type=int, default=100)
    co.add_argument("--nodes", type=int, default=20_000, help="nodes a move (B's, and A's without --nodes-a)")
    co.add_argument("--nodes-a", type=int, default=0, help="A's nodes a move (e.g. fewer for a slower evaluation)")
    co.add_argument("--seconds", type=float, help="CPU seconds a move instead of nodes")
    co.add_argument("--first", type=int, default=0, help="start at this game (to split a match into shards)")
    co.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
