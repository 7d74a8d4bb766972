"""Fit the checkers evaluation to the engine's own games; measure the gain.

    python scripts/checkers_tune.py selfplay --games 1500 --nodes 10000 --seed 11 --out sp11.jsonl [--weights W.json]
        [--network] [--database] [--from-games ACF.txt]
    python scripts/checkers_tune.py fit sp11.jsonl [more.jsonl ...] --out fitted.json [--python]
    python scripts/checkers_tune.py compare --a fitted.json [--b other.json|previous] --games 200
        (--nodes 20000 | --seconds 0.02) [--first 0] [--seed 2]

**Data** (``selfplay``): games of tui-games' own engine against itself (the weights in
``evaluation.DEFAULT_WEIGHTS`` unless ``--weights FILE``), ``--nodes`` nodes a move, from the
standard three-move ballots (the project's ``checkers_ballots.txt``, 144 lines, one after
another), each with one random legal move at a random ply from 4 to 16 for variety. A game
ends by the rules or at 200 plies (a lead of 2 or more, men 1 and kings 1.5, wins; less is a
draw). ``--network`` plays with the shipped network on top of the weights; ``--database``
searches with the endgame tables on disk (``tui-games checkers build-db``) and ends a game at
the first position they cover, scored by their result (perfect play's, where two engines
might still have drawn a won ending or lost a drawn one); the positions from there on are not
kept. ``--from-games`` starts each game instead at a random ply from 10 to 24 of a game of a
transcript file (``checkers_import_games.py``'s input, e.g. the ACF games: the middlegames
strong players reach), each game's start once, with no random move. Every position after the
random move (from the start with ``--from-games``) where the side to move has no capture is kept
with the search's score there for Black (``[black, white, kings, turn, score]``) and the
game's result for Black (1, 0.5, 0): one JSON line a game. (Files written before the scores
were kept have four numbers a position.) Nothing but the engine's
own play goes in: no outside games, no other engine's evaluation.

**Fitting** (``fit``, needs numpy, which is not a project dependency: ``pip install numpy``):
every position becomes its features (``evaluation.features``: the phase and the feature
counts, Black minus White) and the evaluation's two weight vectors (opening, endgame) are
the coefficients of a logistic regression of the game's result on the features blended by
the phase (cross-entropy, a small L2 penalty on everything but material, Newton's method),
on 90% of the games; the other 10% measure the error. The fitted weights are scaled so a man
is worth 100 in the opening and rounded to integers. ``--python`` prints them as the tuple
that ``evaluation.py`` ships.

**Measuring** (``compare``): two weight vectors (``--a``, ``--b``: fit outputs; ``--b``
defaults to ``evaluation.DEFAULT_WEIGHTS``) against each other at the same node budget a
move (or ``--seconds`` CPU seconds a move), every ballot with colours swapped; prints W-D-L
for A, the score and the Elo difference with its 95% interval. A fit output of
``checkers_train_patterns.py`` brings its pattern tables; ``previous`` names the feature-only
evaluation that the tables replaced (``evaluation.PREVIOUS_WEIGHTS``), ``features`` the shipped
feature weights without the tables. ``--first K`` starts at game K of the same ballot order,
so processes can split a match (``--first 0 --games 60``, ``--first 60 --games 60``, ...). (To measure against an older evaluation *code*, play the
two engine modes through ``scripts/checkers_engine_match.py --opponent``.)

Run it nice'd: one process, one core.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tui_games.data.checkers_db import db_dir, open_db
from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import (
    DEFAULT_WEIGHTS,
    FEATURE_WEIGHTS,
    N_FEATURES,
    NETWORK,
    PHASE,
    PREVIOUS_WEIGHTS,
    WEIGHT_NAMES,
    features,
)
from tui_games.engine.checkers.position import CheckersPosition, has_capture
from tui_games.engine.search import SearchLimits
from tui_games.training import fit_modules
from tui_games.training.checkers_import_games import parse_line, read_transcripts, transcript_moves

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


def play(black: Engine, white: Engine, start: CheckersPosition, nodes: int | None, rng: random.Random,
         random_ply: int | None = None, seconds: float | None = None,
         end_in_database: bool = False) -> tuple[float, list[tuple[int, int, int, int, int]]]:
    """One game; the result for Black and the quiet positions after the random move (from the
    start without one), each with the search's score for Black (black, white, kings, turn,
    score). With
    ``end_in_database`` the game ends at the first position Black's engine's endgame tables
    cover, with their result (perfect play's, not the engines' play out)."""
    pos = start.copy()
    kept: list[tuple[int, int, int, int, int]] = []  # black, white, kings, turn, Black's score
    engines = (black, white)
    while pos.outcome() is None and pos.ply < MAX_PLIES:
        verdict = black.verdict(pos) if end_in_database else None
        if verdict is not None:
            return 0.5 + verdict / 2 if pos.turn == 0 else 0.5 - verdict / 2, kept
        if random_ply is not None and pos.ply == random_ply:
            pos.push(rng.choice(pos.legal_moves()))
            random_ply = -1
            continue
        quiet = random_ply in (None, -1) and not has_capture(pos.black, pos.white, pos.kings, pos.turn)
        result = engines[pos.turn].search(pos, SearchLimits(nodes=nodes, seconds=seconds), rng=rng)
        if quiet:
            kept.append((pos.black, pos.white, pos.kings, pos.turn, result.score if pos.turn == 0 else -result.score))
        pos.push(result.move)
    return adjudicate(pos), kept


def load_weights(path: str | None) -> tuple[int, ...]:
    """A fit output's weights, with its pattern tables if it has them (checkers_train_patterns.py);
    None or ``default``: the shipped defaults, ``features``: the shipped feature weights alone, ``previous``:
    the feature-only evaluation the pattern tables replaced."""
    if path in (None, "default"):
        return DEFAULT_WEIGHTS
    if path == "features":
        return FEATURE_WEIGHTS
    if path == "previous":
        return PREVIOUS_WEIGHTS
    record = json.loads(Path(path).read_text())
    weights = tuple(int(x) for x in record["weights"])
    if len(weights) != len(WEIGHT_NAMES):
        raise SystemExit(f"{path}: {len(weights)} weights, not {len(WEIGHT_NAMES)}")
    return weights + tuple(int(x) for x in record.get("patterns", ()))


def game_starts(path: str, lines: list[str], rng: random.Random,
                pieces: int) -> Iterator[tuple[str, CheckersPosition]]:
    """The positions at a random ply from 10 to 24 of a transcript file's games (in an order
    drawn by ``rng``), each named by its line and ply: games unreadable or too short, starts
    seen before and starts of ``pieces`` or fewer pieces (the tables' to score) are passed over."""
    order = list(range(len(lines)))
    rng.shuffle(order)
    seen = set()
    for i in order:
        try:
            moves = transcript_moves(parse_line(lines[i])[0])
        except ValueError:
            continue
        ply = rng.randrange(10, 25)
        if len(moves) < ply + 6:
            continue
        pos = CheckersPosition()
        for move in moves[:ply]:
            pos.push(move)
        key = (pos.black, pos.white, pos.kings, pos.turn)
        if key not in seen and (pos.black | pos.white).bit_count() > pieces:
            seen.add(key)
            yield f"{Path(path).name} line {i + 1} ply {ply}", pos


def cmd_selfplay(args: argparse.Namespace) -> int:
    weights = load_weights(args.weights)
    net = NETWORK if args.network else None
    database = open_db() if args.database else None
    if database is not None and not database.pieces:
        raise SystemExit(f"--database: no endgame tables in {db_dir()} (build them: tui-games checkers build-db)")
    rng = random.Random(args.seed)
    openings = ballots()
    starts = None
    if args.from_games:  # read before the output is opened: a bad path leaves no file behind
        starts = game_starts(args.from_games, read_transcripts(args.from_games, "--from-games"), rng,
                             database.pieces if database else 0)
    began = time.process_time()
    with open(args.out, "a") as out:
        for game in range(args.games):
            engine = Engine(evaluation=weights, table_bits=TABLE_BITS, net=net, database=database)
            if starts is None:
                ballot = openings[game % len(openings)]
                name, start, random_ply = str(ballot), ballot.position(), rng.randrange(4, 17)
            else:
                try:
                    name, start = next(starts)
                except StopIteration:
                    break
                random_ply = None
            result, kept = play(engine, engine, start, args.nodes, rng, random_ply,
                                end_in_database=database is not None)
            out.write(json.dumps({"ballot": name, "result": result, "positions": kept}) + "\n")
            out.flush()
            if (game + 1) % 20 == 0:
                print(f"{game + 1} games, {time.process_time() - began:.0f} s CPU", file=sys.stderr)
    return 0


# -- fitting ---------------------------------------------------------------------------------------


def load_games(paths: list[str]) -> list[tuple[float, list]]:
    games = []
    for path in paths:
        for line in Path(path).read_text().splitlines():
            record = json.loads(line)
            games.append((record["result"], [tuple(p) for p in record["positions"]]))
    return games


def design(games: list, np: Any) -> tuple[Any, Any]:
    """The blended feature matrix (opening columns, then endgame columns) and the results."""
    rows, results = [], []
    for result, kept in games:
        for b, w, k, turn in kept:
            pieces, f = features(b, w, k, turn)
            rows.append([pieces, *f])
            results.append(result)
    raw = np.array(rows, dtype=np.float64)
    phase = raw[:, :1] / PHASE
    f = raw[:, 1:]
    return np.hstack([f * phase, f * (1 - phase)]), np.array(results)


def cross_entropy(x: Any, y: Any, theta: Any, np: Any) -> float:
    p = 1 / (1 + np.exp(-np.clip(x @ theta, -30, 30)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit_logistic(x: Any, y: Any, l2: float, np: Any, iterations: int = 25) -> Any:
    """Newton's method for the L2-penalised logistic regression (material unpenalised)."""
    n, m = x.shape
    penalty = np.full(m, l2 * n)
    for j in (0, 1, N_FEATURES, N_FEATURES + 1):  # men and kings, both phases
        penalty[j] = 0.0
    theta = np.zeros(m)
    for it in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(x @ theta, -30, 30)))
        grad = x.T @ (p - y) + penalty * theta
        hess = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-6 * n)
        step = np.linalg.solve(hess, grad)
        theta -= step
        if float(np.max(np.abs(step))) < 1e-4:
            break
        print(f"  newton {it + 1}: step {float(np.max(np.abs(step))):.2e}", file=sys.stderr)
    return theta


def cmd_fit(args: argparse.Namespace) -> int:
    found = fit_modules("checkers_tune.py", "numpy")  # only the fitting needs it (not a project dependency)
    if found is None:
        return 2
    (np,) = found

    games = load_games(args.data)
    random.Random(0).shuffle(games)
    split = len(games) // 10
    x_train, y_train = design(games[split:], np)
    x_check, y_check = design(games[:split], np)
    print(f"{len(y_train)} training positions, {len(y_check)} to check, from {len(games)} games", file=sys.stderr)
    theta = fit_logistic(x_train, y_train, args.l2, np)
    scale = 100 / theta[0]  # a man is worth 100 in the opening
    weights = [int(round(v)) for v in theta * scale]
    rounded = np.array(weights, dtype=np.float64) / scale
    record = {
        "games": len(games), "positions": len(y_train) + len(y_check), "l2": args.l2,
        "logistic_scale": 1 / scale,
        "train_error": cross_entropy(x_train, y_train, rounded, np),
        "check_error": cross_entropy(x_check, y_check, rounded, np),
        "check_error_start": cross_entropy(x_check, y_check, np.array(DEFAULT_WEIGHTS) * (1 / scale), np),
        "check_error_material": cross_entropy(x_check, y_check, material_only(np) * (1 / scale), np),
        "data": args.data, "names": list(WEIGHT_NAMES), "weights": weights,
    }
    Path(args.out).write_text(json.dumps(record, indent=1) + "\n")
    print(f"check error {record['check_error']:.5f} (shipped weights {record['check_error_start']:.5f}, "
          f"material {record['check_error_material']:.5f}); wrote {args.out}", file=sys.stderr)
    if args.python:
        print(python_tuple(weights))
    return 0


def material_only(np: Any) -> Any:
    out = np.zeros(2 * N_FEATURES)
    out[0] = out[N_FEATURES] = 100
    out[1] = out[N_FEATURES + 1] = 150
    return out


def python_tuple(weights: list[int]) -> str:
    """The weights as evaluation.py writes them: a line per feature group and phase."""
    lines = []
    for phase, part in (("opening", weights[:N_FEATURES]), ("endgame", weights[N_FEATURES:])):
        groups = ((0, 2), (2, 34), (34, 66), (66, N_FEATURES))
        lines.append(f"    # {phase}: man, king; man squares 1-32; king squares 1-32; the rest of FEATURE_NAMES")
        for lo, hi in groups:
            for start in range(lo, hi, 16):
                lines.append("    " + ", ".join(str(v) for v in part[start:min(start + 16, hi)]) + ",")
    return "DEFAULT_WEIGHTS: tuple[int, ...] = (\n" + "\n".join(lines) + "\n)"


# -- measuring -------------------------------------------------------------------------------------


def elo(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def cmd_compare(args: argparse.Namespace) -> int:
    new, old = load_weights(args.a), load_weights(args.b)
    rng = random.Random(args.seed)
    openings = ballots()
    rng.shuffle(openings)
    wins = draws = losses = 0
    for game in range(args.first, args.first + args.games):
        ballot = openings[(game // 2) % len(openings)]
        new_black = game % 2 == 0
        a, b = Engine(evaluation=new, table_bits=TABLE_BITS), Engine(evaluation=old, table_bits=TABLE_BITS)
        black, white = (a, b) if new_black else (b, a)
        result, _ = play(black, white, ballot.position(), None if args.seconds else args.nodes, rng,
                         seconds=args.seconds)
        score = result if new_black else 1 - result
        wins, draws, losses = wins + (score == 1), draws + (score == 0.5), losses + (score == 0)
        print(f"game {game + 1}: {ballot}, A {'Black' if new_black else 'White'}: {score}", file=sys.stderr)
    n = wins + draws + losses
    p = (wins + draws / 2) / n
    sd = math.sqrt((wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n) / math.sqrt(n)
    budget = f"{args.seconds} CPU s" if args.seconds else f"{args.nodes} nodes"
    print(f"A vs B: {wins}-{draws}-{losses} ({n} games, {budget} a move): score {100 * p:.1f}% "
          f"± {196 * sd:.1f}, Elo {elo(p):+.0f} [{elo(p - 1.96 * sd):+.0f}, {elo(p + 1.96 * sd):+.0f}]")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    tools = parser.add_subparsers(dest="tool", required=True)
    sp = tools.add_parser("selfplay", help="play games and keep their positions")
    sp.add_argument("--games", type=int, default=600)
    sp.add_argument("--nodes", type=int, default=10_000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--weights", help="a fit output: play with its weights")
    sp.add_argument("--network", action="store_true", help="the shipped network on top of the weights")
    sp.add_argument("--database", action="store_true",
                    help="search with the endgame tables on disk; a game ends where they cover it, with their result")
    sp.add_argument("--from-games", metavar="TRANSCRIPTS",
                    help="start each game at a random ply 10-24 of one of these games (no random move)")
    sp.add_argument("--out", required=True)
    sp.set_defaults(handler=cmd_selfplay)
    fi = tools.add_parser("fit", help="fit the weights to the games' results")
    fi.add_argument("data", nargs="+")
    fi.add_argument("--l2", type=float, default=1e-4, help="the penalty per position on non-material weights")
    fi.add_argument("--python", action="store_true", help="print the weights as evaluation.py's tuple")
    fi.add_argument("--out", required=True)
    fi.set_defaults(handler=cmd_fit)
    co = tools.add_parser("compare", help="two weight vectors against each other, both colours from the ballots")
    co.add_argument("--a", required=True, help="a fit output")
    co.add_argument("--b", help="a fit output (default: the shipped weights)")
    co.add_argument("--games", type=int, default=200)
    co.add_argument("--nodes", type=int, default=20_000)
    co.add_argument("--seconds", type=float, help="CPU seconds a move instead of --nodes")
    co.add_argument("--first", type=int, default=0, help="start at this game (to split a match into shards)")
    co.add_argument("--seed", type=int, default=2)
    co.set_defaults(handler=cmd_compare)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
