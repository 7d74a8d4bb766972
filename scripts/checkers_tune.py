"""Tune the checkers evaluation on the engine's own games (Texel's method); measure the gain.

    python scripts/checkers_tune.py selfplay --games 600 --nodes 10000 --out selfplay.jsonl [--seed 1]
    python scripts/checkers_tune.py tune selfplay.jsonl [more.jsonl ...] --out tuned.json
    python scripts/checkers_tune.py compare tuned.json --games 200 --nodes 20000 [--seed 2]

**Data** (``selfplay``): games of tui-games' own engine against itself (the weights in
``evaluation.DEFAULT_WEIGHTS`` unless ``--weights FILE``), ``--nodes`` nodes a move, from the
standard three-move ballots (the project's ``checkers_ballots.txt``), each ballot with one
random legal move at a random ply from 4 to 16 for variety. A game ends by the rules or at
200 plies (a lead of 2 or more, men 1 and kings 1.5, wins; less is a draw). Every position
after the random move where the side to move has no capture is kept with the game's result
for Black (1, 0.5, 0): one JSON line a game. Nothing but the engine's own play goes in.

**Tuning** (``tune``): the evaluation (from Black's side) maps to an expected result by a
logistic curve whose scale is fitted first; then each weight in turn (the man stays at
100, the unit) moves up or down by its step while the mean squared error falls (coordinate
descent), on 90% of the games; the other 10% check that the error falls there too. The
output holds the starting and the tuned weights.

**Measuring** (``compare``): the tuned weights against the starting ones, both sides at the
same node budget a move, every ballot with colours swapped; prints W-D-L, the score and
the Elo difference with its 95% interval.

Run it nice'd: one process, one core.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.core import make_core
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, WEIGHT_NAMES
from tui_games.engine.checkers.position import CheckersPosition, has_capture
from tui_games.engine.search import SearchLimits
from tui_games.resources import read_puzzles

MAX_PLIES = 200
TABLE_BITS = 18


def ballots() -> list:
    return [b for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]


def adjudicate(pos: CheckersPosition) -> float:
    """The result for Black: by the rules, or by material at the ply limit."""
    outcome = pos.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else 1.0 if outcome.winner == 0 else 0.0
    c = pos.counts()
    lead = c["b"] + 1.5 * c["B"] - c["w"] - 1.5 * c["W"]
    return 1.0 if lead >= 2 else 0.0 if lead <= -2 else 0.5


def play(black: Engine, white: Engine, start: CheckersPosition, nodes: int, rng: random.Random,
         random_ply: int | None = None) -> tuple[float, list[tuple[int, int, int, int]]]:
    """One game; the result for Black and the quiet positions after the random move."""
    pos = start.copy()
    kept = []
    engines = (black, white)
    while pos.outcome() is None and pos.ply < MAX_PLIES:
        if random_ply is not None and pos.ply == random_ply:
            pos.push(rng.choice(pos.legal_moves()))
            random_ply = -1
            continue
        if random_ply == -1 and not has_capture(pos.black, pos.white, pos.kings, pos.turn):
            kept.append((pos.black, pos.white, pos.kings, pos.turn))
        result = engines[pos.turn].search(pos, SearchLimits(nodes=nodes), rng=rng)
        pos.push(result.move)
    return adjudicate(pos), kept


def cmd_selfplay(args: argparse.Namespace) -> int:
    weights = load_weights(args.weights, "tuned") if args.weights else DEFAULT_WEIGHTS
    rng = random.Random(args.seed)
    openings = ballots()
    began = time.process_time()
    with open(args.out, "a") as out:
        for game in range(args.games):
            ballot = openings[game % len(openings)]
            engine = Engine(evaluation=weights, table_bits=TABLE_BITS)
            result, kept = play(engine, engine, ballot.position(), args.nodes, rng, rng.randrange(4, 17))
            out.write(json.dumps({"ballot": str(ballot), "result": result, "positions": kept}) + "\n")
            out.flush()
            if (game + 1) % 20 == 0:
                print(f"{game + 1} games, {time.process_time() - began:.0f} s CPU", file=sys.stderr)
    return 0


# -- tuning ----------------------------------------------------------------------------------------


def load_games(paths: list[str]) -> list[tuple[float, list]]:
    games = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            record = json.loads(line)
            games.append((record["result"], [tuple(p) for p in record["positions"]]))
    return games


def flatten(games: list) -> tuple[list, list]:
    positions, results = [], []
    for result, kept in games:
        for p in kept:
            positions.append(p)
            results.append(result)
    return positions, results


def scores(weights: tuple[int, ...], positions: list) -> list[int]:
    evaluate = make_core(8, weights).evaluate
    return [evaluate(b, w, k, 0) for b, w, k, _ in positions]


def loss(values: list[int], results: list[float], scale: float) -> float:
    total = 0.0
    for v, r in zip(values, results):
        x = -scale * v
        expected = 1.0 / (1.0 + math.exp(x)) if x < 700 else 0.0
        total += (r - expected) ** 2
    return total / max(len(values), 1)


def fit_scale(values: list[int], results: list[float]) -> float:
    lo, hi = 1e-4, 0.05
    for _ in range(40):  # golden-section search: the error is unimodal in the scale
        a, b = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if loss(values, results, a) < loss(values, results, b):
            hi = b
        else:
            lo = a
    return (lo + hi) / 2


def step_of(name: str) -> int:
    return 5 if name in ("king",) else 1 if name == "endgame_pieces" else 2


def cmd_tune(args: argparse.Namespace) -> int:
    games = load_games(args.data)
    random.Random(0).shuffle(games)
    split = len(games) // 10
    train, check = flatten(games[split:]), flatten(games[:split])
    start = load_weights(args.start, "tuned") if args.start else DEFAULT_WEIGHTS
    print(f"{len(train[0])} training positions, {len(check[0])} to check, from {len(games)} games", file=sys.stderr)
    scale = fit_scale(scores(start, train[0]), train[1])
    weights = list(start)
    best = loss(scores(tuple(weights), train[0]), train[1], scale)
    first = best
    began = time.process_time()
    for sweep in range(args.sweeps):
        improved = False
        for i, name in enumerate(WEIGHT_NAMES):
            if name == "man":
                continue
            step = step_of(name)
            for direction in (1, -1):
                moved = False
                while True:
                    trial = list(weights)
                    trial[i] += direction * step
                    if name == "endgame_pieces" and not 0 <= trial[i] <= 24:
                        break
                    value = loss(scores(tuple(trial), train[0]), train[1], scale)
                    if value >= best:
                        break
                    weights, best, moved, improved = trial, value, True, True
                if moved:
                    break
        print(f"sweep {sweep + 1}: error {best:.5f} (from {first:.5f}), {time.process_time() - began:.0f} s CPU",
              file=sys.stderr)
        if not improved:
            break
    check_before = loss(scores(start, check[0]), check[1], scale)
    check_after = loss(scores(tuple(weights), check[0]), check[1], scale)
    record = {"scale": scale, "games": len(games), "positions": len(train[0]) + len(check[0]),
              "train_error": [first, best], "check_error": [check_before, check_after],
              "start": list(start), "tuned": weights, "names": list(WEIGHT_NAMES)}
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    print(f"check error {check_before:.5f} -> {check_after:.5f}; wrote {args.out}", file=sys.stderr)
    return 0


def load_weights(path: str, which: str) -> tuple[int, ...]:
    record = json.loads(Path(path).read_text())
    weights = tuple(int(x) for x in record[which])
    if len(weights) != len(WEIGHT_NAMES):
        raise SystemExit(f"{path}: {which} has {len(weights)} weights, not {len(WEIGHT_NAMES)}")
    return weights


# -- measuring -------------------------------------------------------------------------------------


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def cmd_compare(args: argparse.Namespace) -> int:
    new, old = load_weights(args.weights, "tuned"), load_weights(args.weights, "start")
    rng = random.Random(args.seed)
    openings = ballots()
    rng.shuffle(openings)
    wins = draws = losses = 0
    for game in range(args.games):
        ballot = openings[(game // 2) % len(openings)]
        new_black = game % 2 == 0
        a, b = Engine(evaluation=new, table_bits=TABLE_BITS), Engine(evaluation=old, table_bits=TABLE_BITS)
        black, white = (a, b) if new_black else (b, a)
        result, _ = play(black, white, ballot.position(), args.nodes, rng)
        score = result if new_black else 1 - result
        wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
        print(f"game {game + 1}: {ballot}, new {'Black' if new_black else 'White'}: {score}", file=sys.stderr)
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    sd = math.sqrt((wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n) / math.sqrt(n)
    print(f"new vs old: {wins}-{draws}-{losses} ({n} games, {args.nodes} nodes a move): score {100 * p:.1f}% "
          f"± {196 * sd:.1f}, Elo {elo(p):+.0f} [{elo(p - 1.96 * sd):+.0f}, {elo(p + 1.96 * sd):+.0f}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tools = parser.add_subparsers(dest="tool", required=True)
    sp = tools.add_parser("selfplay", help="play games and keep their positions")
    sp.add_argument("--games", type=int, default=600)
    sp.add_argument("--nodes", type=int, default=10_000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--weights", help="a tune output: play with its tuned weights")
    sp.add_argument("--out", required=True)
    sp.set_defaults(handler=cmd_selfplay)
    tu = tools.add_parser("tune", help="fit the weights to the games' results")
    tu.add_argument("data", nargs="+")
    tu.add_argument("--start", help="a tune output: start from its tuned weights")
    tu.add_argument("--sweeps", type=int, default=8)
    tu.add_argument("--out", required=True)
    tu.set_defaults(handler=cmd_tune)
    co = tools.add_parser("compare", help="tuned against starting weights, both colours from the ballots")
    co.add_argument("weights", help="a tune output")
    co.add_argument("--games", type=int, default=200)
    co.add_argument("--nodes", type=int, default=20_000)
    co.add_argument("--seed", type=int, default=2)
    co.set_defaults(handler=cmd_compare)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
