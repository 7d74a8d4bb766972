"""``tui-games bench NAME [options]``: print a benchmark's tables (see :mod:`tui_games.bench`).

The options every benchmark shares (``--quick``, the sweep's) are here; a game's own knobs
(``--set``, ``--node-limit``, ``--logic`` …) are declared in its command module
(``BENCH_OPTIONS``, :mod:`tui_games.commands.options`) and passed to its bench function as
keywords of the same names.
"""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Sequence
from typing import Any

from tui_games.bench import bench_names, find_bench, run
from tui_games.commands.common import UsageError, positive_int
from tui_games.commands.options import Option, add_game_options, given_options
from tui_games.games import GAMES, find_game

# FILE arguments are the sets of ``--set``: a game that reads test sets declares that option.
SETS_FLAG = "--set"


# The algorithm sweep (any game with a search tree) has a knob of its own.
SWEEP_OPTIONS = (Option("--node-limit", type=positive_int, metavar="N",
                        help="a search that would pass N states is skipped (default 1,000,000)"),)


# The knobs of the benchmarks of the program itself (not a game's), by benchmark name.
PROGRAM_OPTIONS: dict[str, Sequence[Option]] = {
    "capacity": (Option("--players", type=positive_int, metavar="N",
                        help="players logging in at 4 a second (default 100; 20 with --quick)"),
                 Option("--zygote-only", action="store_true",
                        help="only apps forked from the zygote: no run of fresh processes first (it loads "
                             "the machine for minutes, and the next run with it)")),
    "online": (Option("--fronts", type=positive_int, metavar="N",
                      help="one lobby shared by N front ends: 64 players, a move to the opponent's app within "
                           "one front end and across two"),
               Option("--lobby", metavar="postgresql://...",
                      help="--fronts: the PostgreSQL database they share (default: one SQLite file)")),
}


def _declared_options() -> list[tuple[str, Sequence[Option]]]:
    return [("--sweep", SWEEP_OPTIONS), *PROGRAM_OPTIONS.items(),
            *((spec.key, spec.commands_module.BENCH_OPTIONS) for spec in GAMES)]


def _own_flags(name: str, sweep: bool, every: dict[str, Option]) -> set[str] | None:
    """The flags of ``every`` the benchmark ``name`` takes: its game's own, or for the sweep
    those its function has a keyword for; None when there is no such benchmark (run() says so)."""
    if sweep:
        try:
            accepted = inspect.signature(find_bench(name, sweep=True)).parameters
        except ValueError:
            return None
        return {flag for flag, option in every.items() if option.dest in accepted}
    if name not in bench_names():
        return None
    try:
        return {option.flag for option in find_game(name).commands_module.BENCH_OPTIONS}
    except ValueError:  # a program bench (terminal, startup, capacity …): its own options, if any
        return {option.flag for option in PROGRAM_OPTIONS.get(name, ())}


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The bench function's keywords from the games' own options given; UsageError for a flag
    the benchmark named does not take (another game's)."""
    every = {option.flag: option for _, options in _declared_options() for option in options}
    given = given_options(args, every.values())
    if args.files:
        given[SETS_FLAG] = [*args.files, *given.get(SETS_FLAG, [])]
    name = args.game.strip().lower()
    own = _own_flags(name, args.sweep, every)
    for flag in given:
        if own is not None and flag not in own:
            raise UsageError(f"{flag} does not apply to the {name} benchmark")
    return {every[flag].dest: value for flag, value in given.items()}


def cmd_bench(args: argparse.Namespace) -> int:
    options: dict[str, Any] = {"quick": args.quick, **_game_options(args)}
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
    bench.add_argument("files", nargs="*", metavar="FILE", help=f"test sets to run (the same as {SETS_FLAG} FILE)")
    bench.add_argument("--quick", action="store_true",
                       help="a short run (tic-tac-toe: only the small boards; Connect-4: 20 positions a set)")
    bench.add_argument("--sweep", action="store_true",
                       help="games with a search tree: minimax, alpha-beta, + ordering, + TT, + deepening "
                            "at depths 1..D on one position (states, cutoffs, time, root value)")
    bench.add_argument("--depth", type=positive_int, default=None, metavar="D",
                       help="--sweep: the deepest depth (default: the position's, 6-9)")
    bench.add_argument("--position", default=None, metavar="NAME|POSITION",
                       help="--sweep: a library position (each game's: tictactoe empty, corners …; connect4 "
                            "4455 …; checkers start …) or one in the game's notation")
    # Each game's own knobs, from its command module (GameCommands.BENCH_OPTIONS).
    add_game_options(bench, _declared_options())
