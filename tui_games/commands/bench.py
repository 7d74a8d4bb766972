"""``tui-games bench NAME [options]``: print a benchmark's tables (see :mod:`tui_games.bench`)."""

from __future__ import annotations

import argparse
from typing import Any

from tui_games.bench import bench_names, run
from tui_games.commands.common import UsageError, positive_int


def cmd_bench(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {"quick": args.quick}
    if args.node_limit is not None:
        options["node_limit"] = args.node_limit
    sets = [*args.files, *(args.sets or [])]
    if sets:
        options["sets"] = sets
    if args.limit is not None:
        options["limit"] = args.limit
    if args.logic:
        options["logic"] = True
    if args.jobs != 1:
        options["jobs"] = args.jobs
    if args.results is not None:
        options["results"] = args.results
    if args.sweep:
        options["sweep"] = True
        for name in ("depth", "position"):
            if getattr(args, name) is not None:
                options[name] = getattr(args, name)
    elif args.depth is not None or args.position is not None:
        raise UsageError("--depth and --position go with --sweep")
    try:
        run(args.game, lambda line: print(line, flush=True), **options)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return 0


def add_arguments(bench: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games bench``."""
    bench.set_defaults(handler=cmd_bench)
    bench.add_argument("game", metavar="NAME", help=f"what to measure: {', '.join(bench_names())}")
    bench.add_argument("files", nargs="*", metavar="FILE", help="test sets to run (the same as --set FILE)")
    bench.add_argument("--quick", action="store_true",
                       help="a short run (tic-tac-toe: only the small boards; Connect-4: 20 positions a set)")
    bench.add_argument("--node-limit", type=positive_int, default=None,
                       help="node budget for the searches that cannot finish (default 1,000,000)")
    bench.add_argument("--set", dest="sets", action="append", default=None, metavar="FILE",
                       help="connect4, sudoku: a test set file (repeatable; default: the samples shipped with "
                            "the package)")
    bench.add_argument("--limit", type=positive_int, default=None, metavar="N",
                       help="connect4, sudoku: only the first N positions of each set")
    bench.add_argument("--logic", action="store_true",
                       help="sudoku: the human stepper instead of the solvers (share finished by logic, time "
                            "per hint and per puzzle, ratings against Sudoku Explainer's where a "
                            "NAME_se_ratings.txt file sits beside the set)")
    bench.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                       help="sudoku --logic: spread the puzzles over N processes")
    bench.add_argument("--results", default=None, metavar="FILE",
                       help="sudoku --logic: also write one JSON object per puzzle (level, rating, technique, "
                            "seconds, steps, wrong steps) to FILE")
    bench.add_argument("--sweep", action="store_true",
                       help="games with a search tree: minimax, alpha-beta, + ordering, + TT, + deepening "
                            "at depths 1..D on one position (states, cutoffs, time, root value)")
    bench.add_argument("--depth", type=positive_int, default=None, metavar="D",
                       help="--sweep: the deepest depth (default: the position's, 6-9)")
    bench.add_argument("--position", default=None, metavar="NAME|POSITION",
                       help="--sweep: a library position (tictactoe: empty, corners, fork, misere, 4x4-k3; "
                            "connect4: empty, 4455, middlegame, late-draw; checkers: start, ballot-133, ending) "
                            "or one in the game's notation")
