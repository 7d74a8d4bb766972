"""``tui-games connect4 solve|analyze`` and ``tui-games play connect4``.

    tui-games connect4 solve [MOVES ...]   exact scores (standard convention), stdin if no MOVES
    tui-games connect4 analyze [MOVES]     the score of each of the seven columns (none or '-':
                                           the empty board)

A position is the string of 1-based column digits played from the empty board; scores follow
Pascal Pons' convention (see docs/games/connect4.md). A bad line of a batch is one line on stderr naming
it, and the exit status is 2 at the end. Both use the 12-ply opening book (bitbully-databases)
unless ``--no-book``; without a usable book they say so in one line on stderr and solve anyway.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from tui_games.commands.common import EXIT_USAGE, PROG, UsageError, play_opponent, positive_int
from tui_games.commands.options import Option
from tui_games.commands.trace import add_trace_tool
from tui_games.commands.tree_output import add_tree_argument, recorder_for, write_tree
from tui_games.data.connect4_book import default_book
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.heuristics import HEURISTICS, resolve_heuristic
from tui_games.engine.connect4.players import normalize_spec, record_root
from tui_games.engine.connect4.position import Connect4, Connect4Error
from tui_games.engine.connect4.solver import Solver, to_search_score
from tui_games.engine.search import EXACT, RootMove, plies_to_end
from tui_games.userdata.store import Store

# What this game adds to ``tui-games arena`` (its variant) and ``tui-games bench``.
ARENA_OPTIONS = (Option("--full-board", action="store_true", help="play on to a full board"),)
BENCH_OPTIONS = (
    Option("--node-limit", type=positive_int, metavar="N",
           help="node budget of each search that cannot finish (default 1,000,000)"),
    Option("--set", dest="sets", action="append", metavar="FILE",
           help="a test set file (repeatable; default: the Test_L*_R* samples shipped with the package)"),
    Option("--limit", type=positive_int, metavar="N", help="only the first N positions of each set"),
    Option("--mcts", action="store_true",
           help="Monte Carlo tree search at 10,000 playouts on the sets instead: its share of best-value "
                "columns and playouts per CPU second (default 10 positions a set)"),
)


# -- play ------------------------------------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", default=None, metavar="NAME",
                        help="human (two players), perfect, level1..level12, random, or a bot file (bot.py, "
                             "level3:eval.py; docs/bots.md)")
    parser.add_argument("--first", choices=("human", "computer"), default=None, help="who moves first")
    parser.add_argument("--full-board", action="store_true",
                        help="variant: play to a full board, the player with more fours wins")
    parser.add_argument("--heuristic", default=None, metavar="NAME",
                        help=f"evaluation for the searches: {', '.join(HEURISTICS)}")


def play_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options for a Connect-4 game, validated, as the app expects them: ``opponent``,
    ``first``, ``full_board`` and ``heuristic``. What the command line leaves out comes from
    the saved settings; the variant is full-board only with ``--full-board``."""
    saved = Store().load_settings()["connect4"]
    opponent = play_opponent(args.opponent, saved["opponent"], normalize_spec, "connect4")
    heuristic = args.heuristic if args.heuristic is not None else saved["heuristic"]
    try:
        heuristic = resolve_heuristic(heuristic)
    except ValueError as error:
        if args.heuristic is not None:
            raise UsageError(str(error)) from None
        heuristic = "default"
    first = args.first if args.first is not None else saved["first"]
    return {"opponent": opponent, "first": first, "full_board": args.full_board, "heuristic": heuristic}


# -- solve / analyze -------------------------------------------------------------------------------


def _positions(args: argparse.Namespace):
    """(label for errors, move string, problem) triples: the arguments, or the lines of stdin.

    A stdin line is ``MOVES`` or ``MOVES SCORE`` (the test-set format; the score is ignored);
    blank lines and ``#`` comments are skipped; ``problem`` is a message for a malformed line.
    """
    if args.moves:
        for moves in args.moves:
            yield "", moves, None
        return
    for number, raw in enumerate(sys.stdin, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        label = f"line {number}: "
        if len(fields) > 2:
            yield label, fields[0], f"expected MOVES or MOVES SCORE, got {len(fields)} fields"
        elif len(fields) == 2 and not re.fullmatch(r"[+-]?\d+", fields[1]):
            yield label, fields[0], f"{fields[1]!r} is not a score"
        else:
            yield label, fields[0], None


def opening_book(args: argparse.Namespace) -> OpeningBook | None:
    """The book unless ``--no-book``; when there is none, one line on stderr says why."""
    if args.no_book:
        return None
    book, problem = default_book()
    if problem is not None:
        print(f"{PROG}: warning: {problem}; solving without the opening book", file=sys.stderr, flush=True)
    return book


def _solve_lines(args: argparse.Namespace, answer) -> int:
    """Answer every position; errors go to stderr as they come, one line each, and the exit
    status is 2 at the end if any position failed."""
    solver = Solver(book=opening_book(args), compiled=False if args.pure_python else None)
    failed = 0
    for label, moves, problem in _positions(args):
        try:
            if problem is not None:
                raise Connect4Error(problem)
            position = Connect4.parse(moves)
        except Connect4Error as error:
            failed += 1
            print(f"{PROG}: error: {label}{error}", file=sys.stderr, flush=True)
            continue
        # A fresh table generation per position: node counts that do not depend on the order.
        solver.reset()
        print(answer(solver, position), flush=True)
    return EXIT_USAGE if failed else 0


def cmd_solve(args: argparse.Namespace) -> int:
    def answer(solver: Solver, position: Connect4) -> str:
        result = solver.solve(position, weak=args.weak)
        if args.json:
            return json.dumps({"moves": position.format(), "score": result.score, "nodes": result.nodes,
                               "seconds": round(result.seconds, 6), "source": result.stats.algorithm})
        return f"{position.format()} {result.score}"

    return _solve_lines(args, answer)


def cmd_analyze(args: argparse.Namespace) -> int:
    try:
        position = Connect4.parse("" if args.position == "-" else args.position)
    except Connect4Error as error:
        raise UsageError(str(error)) from None
    outcome = position.outcome()
    if outcome is not None:
        # '-' means a full column: a board where a four already ended the game is no such thing.
        why = "the board is full" if outcome.reason == "full" else f"{'XO'[outcome.winner or 0]} has four in a row"
        raise UsageError(f"{position.format()!r}: the game is over ({why}); analyze scores the moves of a game "
                         "still going")
    if args.tree is not None and args.weak:
        raise UsageError("analyze: --tree needs each column's exact score: leave out --weak")
    solver = Solver(book=opening_book(args), compiled=False if args.pure_python else None)
    scores, stats = solver.analyze_run(position, weak=args.weak)
    recorder = recorder_for(args.tree)
    if recorder is not None and position.outcome() is None:
        # The solver records no nodes of its own: the tree is the root and each column's value.
        root_moves = [RootMove(col, to_search_score(score, position.moves), EXACT)
                      for col, score in enumerate(scores) if score is not None]
        best = max(root_moves, key=lambda rm: rm.score)
        record_root(recorder, root_moves, best.move, best.score, plies_to_end(best.score) or 1)
    write_tree(args.tree, recorder, position.move_name, proven=True, position=position.format())
    if args.json:
        print(json.dumps({"moves": position.format(), "scores": scores, "nodes": stats.nodes,
                          "seconds": round(stats.seconds, 6), "source": stats.algorithm}))
    else:
        print(" ".join("-" if s is None else str(s) for s in scores))
    return 0


def add_tools(parser: argparse.ArgumentParser) -> None:
    """The tools of ``tui-games connect4``."""
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    add_trace_tool(tools, "connect4")
    solve = tools.add_parser("solve", help="exact scores of positions (standard convention)")
    solve.set_defaults(handler=cmd_solve)
    solve.add_argument("moves", nargs="*", metavar="MOVES",
                       help="1-based column digits from the empty board; none: one position per line on stdin "
                            "(a trailing score field is ignored)")
    solve.add_argument("--weak", action="store_true", help="only win/draw/loss: print 1, 0 or -1")
    solve.add_argument("--json", action="store_true",
                       help='one {"moves", "score", "nodes", "seconds", "source"} object per line')
    analyze = tools.add_parser("analyze", help="the score of each column, '-' for a full one")
    analyze.set_defaults(handler=cmd_analyze)
    analyze.add_argument("position", metavar="MOVES", nargs="?", default="",
                         help="1-based column digits from the empty board; none or '-': the empty board")
    analyze.add_argument("--weak", action="store_true", help="only win/draw/loss: 1, 0 or -1 per column")
    analyze.add_argument("--json", action="store_true", help='print {"moves", "scores", "nodes", "seconds", "source"}')
    add_tree_argument(analyze)
    for tool in (solve, analyze):
        tool.add_argument("--no-book", action="store_true",
                          help="search without the 12-ply opening book (the solver alone)")
        tool.add_argument("--pure-python", action="store_true",
                          help="the pure-Python search even where the compiled one is built (same results, slower)")
