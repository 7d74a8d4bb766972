"""``tui-games tictactoe solve`` and ``tui-games play tictactoe``.

    tui-games tictactoe solve BOARD [--k K] [--misere] [--to-move X|O] [--json]

BOARD is rows of ``X``, ``O`` and ``.`` joined by ``/``. The answer is the game value for the
side to move, every move that keeps it, and the plies to the end under perfect play. Moves are
named as the app's board edges show them (``c3``: column c, row 3 from the top); ``--json``
also gives them as 0-based ``[row, col]`` pairs, the form scripts written before the names read.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tui_games.commands.common import UsageError, parse_size, play_opponent, positive_int
from tui_games.commands.options import Option
from tui_games.commands.trace import add_trace_tool
from tui_games.commands.tree_output import add_tree_argument, recorder_for, write_tree
from tui_games.engine.search import TT, SearchLimits, game_value, plies_to_end, search
from tui_games.engine.tictactoe import BoardError, TicTacToe, geometry
from tui_games.engine.tree import TreeRecorder

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}



def _size_variant(text: str) -> dict[str, int]:
    rows, cols = parse_size(text)
    return {"rows": rows, "cols": cols}


# What this game adds to ``tui-games arena`` (its variant) and ``tui-games bench``.
ARENA_OPTIONS = (
    Option("--size", metavar="RxC", variant=_size_variant, help="board size (default 3x3)"),
    Option("--k", type=int, help="marks in a row to win"),
    Option("--misere", action="store_true", help="completing a line loses"),
)
BENCH_OPTIONS = (
    Option("--node-limit", type=positive_int, metavar="N",
           help="node budget for the searches that cannot finish (default 1,000,000)"),
)


# -- play ------------------------------------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", default=None, metavar="RxC",
                        help="board size, 3x3 to 7x7 (default: the last game's)")
    parser.add_argument("--k", type=int, default=None, help="marks in a row to win (default: the shorter side)")
    parser.add_argument("--misere", action=argparse.BooleanOptionalAction, default=None,
                        help="reverse rules: completing a line loses (default: the last game's)")
    parser.add_argument("--opponent", default=None, metavar="NAME",
                        help="human (two players), perfect, level1..level9, random, rule-based, magic-square, "
                             "or a bot file (bot.py, level3:eval.py; docs/bots.md)")
    parser.add_argument("--first", choices=("human", "computer"), default=None, help="who moves first")


def play_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options for a tic-tac-toe game, validated, as the app expects them.

    What the command line leaves out comes from the saved settings (the last game's options);
    with ``--size`` and no ``--k``, k is the shorter side; ``--misere``/``--no-misere`` sets
    the rules.
    """
    # Here, not at the top: `solve` needs neither the players nor the player's data.
    from tui_games.engine.mcts_spec import spec_family
    from tui_games.engine.tictactoe.players import normalize_spec, opponents_for
    from tui_games.userdata.store import Store

    saved = Store().load_settings()["tictactoe"]
    misere = bool(saved["misere"]) if args.misere is None else args.misere
    if args.size is not None:
        rows, cols = parse_size(args.size)
        k = args.k if args.k is not None else min(rows, cols)
    else:
        rows, cols = saved["rows"], saved["cols"]
        k = args.k if args.k is not None else saved["k"]
    try:
        geometry(rows, cols, k)
    except BoardError as error:
        raise UsageError(str(error)) from None
    from tui_games.bots import is_bot_spec  # here: the game's other tools do without it

    opponent = play_opponent(args.opponent, saved["opponent"], normalize_spec, "tictactoe")
    if opponent != "human" and not is_bot_spec(opponent):
        allowed = [spec for spec, _ in opponents_for(TicTacToe(rows, cols, k, misere))]
        if spec_family(opponent) not in allowed:
            if args.opponent is None:
                opponent = "perfect"  # the saved opponent does not play this board
            else:
                raise UsageError(f"opponent {opponent!r} only plays 3x3, k=3, normal rules; "
                                 f"on this board choose one of {', '.join(allowed)}, or human")
    first = args.first if args.first is not None else saved["first"]
    return {"rows": rows, "cols": cols, "k": k, "misere": misere, "opponent": opponent, "first": first}


# -- solve -----------------------------------------------------------------------------------------


def solve_tictactoe(position: TicTacToe, recorder: TreeRecorder | None = None) -> dict[str, Any]:
    """Exact value for the side to move, every move that keeps it, and the plies to the end.

    Under perfect play the winner wins as fast as possible and the loser holds out as long as
    possible (the search's ``WIN - ply`` scores do exactly that); a drawn game is played to
    the full board. ``exact_root`` gives every root move an exact score, not just the best.
    """
    outcome = position.outcome()
    if outcome is not None:
        return {"value": outcome.value_for(position.turn), "best_moves": [], "best_cells": [], "plies": 0}
    pos = position.copy()
    pos.symmetry = True
    result = search(pos, SearchLimits(depth=pos.empties), TT, exact_root=True, recorder=recorder)
    # Depth = empties reaches the end of every line, so this cannot fail short of a bug.
    assert result.exact and not result.stopped, "a full-depth search must be exact"
    value = game_value(result.score)
    moves = sorted(rm.move for rm in result.root_moves if game_value(rm.score) == value)
    plies = plies_to_end(result.score) if value != 0 else pos.empties
    return {"value": value, "best_moves": [divmod(m, pos.cols) for m in moves],
            "best_cells": [pos.move_name(m) for m in moves], "plies": plies}


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        position = TicTacToe.parse(args.board, k=args.k, misere=args.misere, to_move=args.to_move)
    except BoardError as error:
        raise UsageError(f"bad board {args.board!r}: {error}") from None
    recorder = recorder_for(args.tree)
    solution = solve_tictactoe(position, recorder)
    write_tree(args.tree, recorder, position.move_name, proven=True, position=position.format())
    if args.json:
        solution["best_moves"] = [list(rc) for rc in solution["best_moves"]]
        print(json.dumps(solution))
    else:
        moves = " ".join(solution["best_cells"]) or "none"
        print(f"value: {VALUE_WORDS[solution['value']]}")
        print(f"best moves: {moves}")
        print(f"plies: {solution['plies']}")
    return 0


def add_tools(parser: argparse.ArgumentParser) -> None:
    """The tools of ``tui-games tictactoe``."""
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    add_trace_tool(tools, "tictactoe")
    solve = tools.add_parser("solve", help="exact value, best moves and game length of a position")
    solve.set_defaults(handler=cmd_solve)
    solve.add_argument("board", metavar="BOARD", help="rows of X, O and . joined by '/', e.g. X.O/.X./...")
    solve.add_argument("--k", type=int, default=None, help="marks in a row to win (default: the shorter side)")
    solve.add_argument("--misere", action="store_true", help="reverse rules: completing a line loses")
    solve.add_argument("--to-move", type=str.upper, choices=("X", "O"), default=None,
                       help="side to move (default: from the counts; X when they are equal)")
    solve.add_argument("--json", action="store_true", help='print {"value", "best_moves" ([row, col] pairs, 0-based), "best_cells" (c3), "plies"} as JSON')
    add_tree_argument(solve)
