"""The ``tui-games`` command.

    tui-games [play]                      open the menu
    tui-games play tictactoe [options]    start a tic-tac-toe game
    tui-games play connect4 [options]     start a Connect-4 game
    tui-games tictactoe solve BOARD       game value, best moves and length of a position
    tui-games connect4 solve [MOVES ...]  exact scores (standard convention), stdin if no MOVES
    tui-games connect4 analyze MOVES      the score of each of the seven columns
    tui-games bench tictactoe|connect4    search benchmark tables (--sweep: every algorithm, depths 1..D)
    tui-games arena GAME --a P --b P      two computer players play N games: results table or JSON
    tui-games serve --ssh | --web         host the games: an SSH game server, or in a browser

Only ``play`` imports Textual (lazily, in :func:`launch`): solving and benchmarking stay fast
to start and work where no terminal UI can run. Every usage error is one line on stderr,
``tui-games: error: ...``, with exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Sequence

from tui_games import __version__
from tui_games.engine.connect4.heuristics import HEURISTICS, resolve_heuristic
from tui_games.engine.connect4.players import normalize_spec as connect4_spec
from tui_games.engine.connect4.position import Connect4, Connect4Error
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.search import TT, SearchLimits, game_value, plies_to_end, search
from tui_games.engine.tictactoe import BoardError, TicTacToe, geometry
from tui_games.engine.tictactoe_players import normalize_spec, opponents_for

PROG = "tui-games"
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

VALUE_WORDS = {1: "win", 0: "draw", -1: "loss"}


class UsageError(Exception):
    """A bad command line; main prints it as one line and exits 2."""


class _Parser(argparse.ArgumentParser):
    # argparse's own error() prints the whole usage block and exits; we want one line
    # and a return code from main() (tests call main directly).
    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix(PROG).strip()
        raise UsageError(f"{command}: {message}" if command else message)


# -- play ------------------------------------------------------------------------------------------


def launch(game: str | None, options: dict | None = None, *, ascii: bool | None = None) -> None:
    """Start the Textual app; imported here so no other command pays for (or needs) Textual."""
    from tui_games.ui.app import run_app

    run_app(game, options, ascii=ascii)


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", text, re.IGNORECASE)
    if match is None:
        raise UsageError(f"--size {text!r} is not ROWSxCOLS, e.g. 4x4")
    return int(match[1]), int(match[2])


def tictactoe_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options for a tic-tac-toe game, validated, as run_app expects them.

    What the command line leaves out comes from the saved settings (the last game's options);
    with ``--size`` and no ``--k``, k is the shorter side. The variant is misère only with
    ``--misere``.
    """
    from tui_games.store import Store

    saved = Store().load_settings()["tictactoe"]
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
    opponent = args.opponent if args.opponent is not None else saved["opponent"]
    if opponent.strip().lower() == "human":
        opponent = "human"
    else:
        try:
            opponent = normalize_spec(opponent)
        except ValueError as error:
            raise UsageError(f"{error}, or human") from None
        allowed = [spec for spec, _ in opponents_for(TicTacToe(rows, cols, k, args.misere))]
        if opponent not in allowed:
            if args.opponent is None:
                opponent = "perfect"  # the saved opponent does not play this board
            else:
                raise UsageError(f"opponent {opponent!r} only plays 3x3, k=3, normal rules; "
                                 f"on this board choose one of {', '.join(allowed)}, or human")
    first = args.first if args.first is not None else saved["first"]
    return {"rows": rows, "cols": cols, "k": k, "misere": args.misere, "opponent": opponent, "first": first}


def connect4_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options for a Connect-4 game, validated, as run_app expects them: ``opponent``,
    ``first``, ``full_board`` and ``heuristic``. What the command line leaves out comes from
    the saved settings; the variant is full-board only with ``--full-board``."""
    from tui_games.store import Store

    saved = Store().load_settings()["connect4"]
    opponent = args.opponent if args.opponent is not None else saved["opponent"]
    if opponent.strip().lower() == "human":
        opponent = "human"
    else:
        try:
            opponent = connect4_spec(opponent)
        except ValueError as error:
            if args.opponent is None:
                opponent = "perfect"  # a saved opponent this version does not know
            else:
                raise UsageError(f"{error}, or human") from None
    heuristic = args.heuristic if args.heuristic is not None else saved["heuristic"]
    try:
        heuristic = resolve_heuristic(heuristic)
    except ValueError as error:
        if args.heuristic is not None:
            raise UsageError(str(error)) from None
        heuristic = "default"
    first = args.first if args.first is not None else saved["first"]
    return {"opponent": opponent, "first": first, "full_board": args.full_board, "heuristic": heuristic}


def cmd_play(args: argparse.Namespace) -> int:
    options = {"tictactoe": tictactoe_options, "connect4": connect4_options, "sudoku": sudoku_options,
               "checkers": checkers_options}
    game = args.game
    # --ascii forces ASCII output; without it the saved setting decides.
    launch(game, options[game](args) if game else None, ascii=True if getattr(args, "ascii", False) else None)
    return 0


def checkers_options(args: argparse.Namespace) -> dict[str, Any]:
    from tui_games.engine.checkers.notation import CheckersError
    from tui_games.engine.checkers.players import normalize_spec as checkers_spec
    from tui_games.engine.checkers.position import CheckersPosition

    options: dict[str, Any] = {}
    if args.opponent is not None:
        opponent = args.opponent.strip().lower()
        if opponent != "human":
            try:
                opponent = checkers_spec(opponent)
            except ValueError as error:
                raise UsageError(str(error)) from None
        options["opponent"] = opponent
    if args.side is not None:
        options["human"] = args.side
    if args.fen is not None:
        try:
            position = CheckersPosition(args.fen)
        except CheckersError as error:
            raise UsageError(str(error)) from None
        options["start"], options["opening"] = position.fen(), "from FEN"
    return options


def sudoku_options(args: argparse.Namespace) -> dict[str, Any]:
    """What "play sudoku" asks for; nothing given: resume the saved puzzle or the last choice."""
    from tui_games.engine.sudoku.techniques import LEVELS, level_index

    chosen = [name for name in ("puzzle", "file") if getattr(args, name)]
    if len(chosen) > 1:
        raise UsageError("give --puzzle or --file, not both")
    if args.puzzle:
        return {"source": "paste", "text": args.puzzle}
    if args.file:
        return {"source": "file", "text": args.file}
    if args.grade is None and args.size is None and not args.diagonal:
        return {}
    try:
        grade = LEVELS[level_index(args.grade or "basic")]
    except ValueError as error:
        raise UsageError(str(error)) from None
    return {"source": "generate", "grade": grade, "variant": f"{args.size or 9}{'x' if args.diagonal else ''}"}


# -- tictactoe solve ---------------------------------------------------------------------------


def solve_tictactoe(position: TicTacToe) -> dict[str, Any]:
    """Exact value for the side to move, every move that keeps it, and the plies to the end.

    Under perfect play the winner wins as fast as possible and the loser holds out as long as
    possible (the search's ``WIN - ply`` scores do exactly that); a drawn game is played to
    the full board. ``exact_root`` gives every root move an exact score, not just the best.
    """
    outcome = position.outcome()
    if outcome is not None:
        return {"value": outcome.value_for(position.turn), "best_moves": [], "plies": 0}
    pos = position.copy()
    pos.symmetry = True
    result = search(pos, SearchLimits(depth=pos.empties), TT, exact_root=True)
    # Depth = empties reaches the end of every line, so this cannot fail short of a bug.
    assert result.exact and not result.stopped, "a full-depth search must be exact"
    value = game_value(result.score)
    moves = sorted(rm.move for rm in result.root_moves if game_value(rm.score) == value)
    plies = plies_to_end(result.score) if value != 0 else pos.empties
    return {"value": value, "best_moves": [divmod(m, pos.cols) for m in moves], "plies": plies}


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        position = TicTacToe.parse(args.board, k=args.k, misere=args.misere, to_move=args.to_move)
    except BoardError as error:
        raise UsageError(f"bad board {args.board!r}: {error}") from None
    solution = solve_tictactoe(position)
    if args.json:
        solution["best_moves"] = [list(rc) for rc in solution["best_moves"]]
        print(json.dumps(solution))
    else:
        moves = " ".join(f"{r},{c}" for r, c in solution["best_moves"]) or "none"
        print(f"value: {VALUE_WORDS[solution['value']]}")
        print(f"best moves: {moves}")
        print(f"plies: {solution['plies']}")
    return 0


# -- connect4 solve / analyze -------------------------------------------------------------------


def _connect4_positions(args: argparse.Namespace):
    """(label for errors, move string) pairs: the arguments, or the lines of stdin.

    A stdin line is ``MOVES`` or ``MOVES SCORE`` (the test-set format; the score is ignored);
    blank lines and ``#`` comments are skipped. Yields (label, moves, problem) where problem
    is a message for a malformed line.
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


def _solve_lines(args: argparse.Namespace, answer) -> int:
    """Answer every position; errors go to stderr as they come, one line each, and the exit
    status is 2 at the end if any position failed."""
    solver = Solver()
    failed = 0
    for label, moves, problem in _connect4_positions(args):
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


def cmd_connect4_solve(args: argparse.Namespace) -> int:
    def answer(solver: Solver, position: Connect4) -> str:
        result = solver.solve(position, weak=args.weak)
        if args.json:
            return json.dumps({"moves": position.format(), "score": result.score, "nodes": result.nodes,
                               "seconds": round(result.seconds, 6)})
        return f"{position.format()} {result.score}"

    return _solve_lines(args, answer)


def cmd_connect4_analyze(args: argparse.Namespace) -> int:
    try:
        position = Connect4.parse(args.position)
    except Connect4Error as error:
        raise UsageError(str(error)) from None
    scores, stats = Solver().analyze_run(position, weak=args.weak)
    if args.json:
        print(json.dumps({"moves": position.format(), "scores": scores, "nodes": stats.nodes,
                          "seconds": round(stats.seconds, 6)}))
    else:
        print(" ".join("-" if s is None else str(s) for s in scores))
    return 0


# -- bench -------------------------------------------------------------------------------------


def cmd_bench(args: argparse.Namespace) -> int:
    from tui_games import bench

    options: dict[str, Any] = {"quick": args.quick}
    if args.node_limit is not None:
        options["node_limit"] = args.node_limit
    sets = [*args.files, *(args.sets or [])]
    if sets:
        options["sets"] = sets
    if args.limit is not None:
        options["limit"] = args.limit
    if args.sweep:
        options["sweep"] = True
        for name in ("depth", "position"):
            if getattr(args, name) is not None:
                options[name] = getattr(args, name)
    elif args.depth is not None or args.position is not None:
        raise UsageError("--depth and --position go with --sweep")
    try:
        bench.run(args.game, lambda line: print(line, flush=True), **options)
    except ValueError as error:
        raise UsageError(str(error)) from None
    return 0


# -- the parser --------------------------------------------------------------------------------


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Terminal games with engines you can watch think.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--ascii", action="store_true",
                        help="draw with ASCII characters only (for terminals with poor Unicode fonts)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    play = commands.add_parser("play", help="open the game menu, or start a game directly")
    play.set_defaults(handler=cmd_play)
    play.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS,
                      help="draw with ASCII characters only")
    games = play.add_subparsers(dest="game", metavar="GAME")
    ttt = games.add_parser("tictactoe", help="tic-tac-toe on an m×n board, k in a row")
    ttt.add_argument("--size", default=None, metavar="RxC",
                     help="board size, 3x3 to 7x7 (default: the last game's)")
    ttt.add_argument("--k", type=int, default=None, help="marks in a row to win (default: the shorter side)")
    ttt.add_argument("--misere", action="store_true", help="reverse rules: completing a line loses")
    ttt.add_argument("--opponent", default=None, metavar="NAME",
                     help="human (two players), perfect, level1..level9, random, rule-based, magic-square")
    ttt.add_argument("--first", choices=("human", "computer"), default=None, help="who moves first")

    c4 = games.add_parser("connect4", help="Connect-4 (7×6)")
    c4.add_argument("--opponent", default=None, metavar="NAME",
                    help="human (two players), perfect, level1..level12, random")
    c4.add_argument("--first", choices=("human", "computer"), default=None, help="who moves first")
    c4.add_argument("--full-board", action="store_true",
                    help="variant: play to a full board, the player with more fours wins")
    c4.add_argument("--heuristic", default=None, metavar="NAME",
                    help=f"evaluation for the searches: {', '.join(HEURISTICS)}")

    sdk = games.add_parser("sudoku", help="Sudoku: a generated puzzle, or one you give")
    sdk.add_argument("--grade", default=None, metavar="LEVEL",
                     help="generate a puzzle of this grade: trivial, basic, intermediate, advanced, extreme")
    sdk.add_argument("--size", type=int, choices=(4, 6, 9), default=None, help="grid size for a generated puzzle")
    sdk.add_argument("--diagonal", action="store_true", help="the X variant: the diagonals hold every digit too")
    sdk.add_argument("--puzzle", default=None, metavar="LINE", help="play this puzzle (81 characters, . for a blank)")
    sdk.add_argument("--file", default=None, metavar="PATH", help="play the first puzzle of this file")

    chk = games.add_parser("checkers", help="American checkers (English draughts)")
    chk.add_argument("--opponent", default=None, metavar="NAME",
                     help="human (two players), strong, level1..level12, baseline, random")
    chk.add_argument("--side", choices=("black", "white"), default=None,
                     help="the side you play against the computer (Black moves first)")
    chk.add_argument("--fen", default=None, metavar="FEN", help="start from this position (B:W21,…:B1,…)")

    tictactoe = commands.add_parser("tictactoe", help="tic-tac-toe tools")
    ttt_tools = tictactoe.add_subparsers(dest="tool", metavar="TOOL", required=True)
    solve = ttt_tools.add_parser("solve", help="exact value, best moves and game length of a position")
    solve.set_defaults(handler=cmd_solve)
    solve.add_argument("board", metavar="BOARD", help="rows of X, O and . joined by '/', e.g. X.O/.X./...")
    solve.add_argument("--k", type=int, default=None, help="marks in a row to win (default: the shorter side)")
    solve.add_argument("--misere", action="store_true", help="reverse rules: completing a line loses")
    solve.add_argument("--to-move", type=str.upper, choices=("X", "O"), default=None,
                       help="side to move (default: from the counts; X when they are equal)")
    solve.add_argument("--json", action="store_true", help='print {"value", "best_moves", "plies"} as JSON')

    connect4 = commands.add_parser("connect4", help="Connect-4 tools")
    c4_tools = connect4.add_subparsers(dest="tool", metavar="TOOL", required=True)
    c4_solve = c4_tools.add_parser("solve", help="exact scores of positions (standard convention)")
    c4_solve.set_defaults(handler=cmd_connect4_solve)
    c4_solve.add_argument("moves", nargs="*", metavar="MOVES",
                          help="1-based column digits from the empty board; none: one position per line on stdin "
                               "(a trailing score field is ignored)")
    c4_solve.add_argument("--weak", action="store_true", help="only win/draw/loss: print 1, 0 or -1")
    c4_solve.add_argument("--json", action="store_true",
                          help='one {"moves", "score", "nodes", "seconds"} object per line')
    c4_analyze = c4_tools.add_parser("analyze", help="the score of each column, '-' for a full one")
    c4_analyze.set_defaults(handler=cmd_connect4_analyze)
    c4_analyze.add_argument("position", metavar="MOVES", help="1-based column digits from the empty board")
    c4_analyze.add_argument("--weak", action="store_true", help="only win/draw/loss: 1, 0 or -1 per column")
    c4_analyze.add_argument("--json", action="store_true", help='print {"moves", "scores", "nodes", "seconds"}')

    from tui_games.commands import checkers as checkers_commands

    checkers_commands.register(commands)

    from tui_games.commands import sudoku as sudoku_commands

    sudoku_commands.register(commands)

    from tui_games.commands import arena as arena_commands

    arena_commands.register(commands)

    from tui_games.commands import serve as serve_commands

    serve_commands.register(commands)

    bench = commands.add_parser("bench", help="print a search benchmark table for a game")
    bench.set_defaults(handler=cmd_bench)
    bench.add_argument("game", metavar="GAME", help="what to measure: tictactoe, connect4, sudoku, checkers, or terminal (bytes and latency)")
    bench.add_argument("files", nargs="*", metavar="FILE", help="test sets to run (the same as --set FILE)")
    bench.add_argument("--quick", action="store_true",
                       help="a short run (tic-tac-toe: only the small boards; Connect-4: 20 positions a set)")
    bench.add_argument("--node-limit", type=positive_int, default=None,
                       help="node budget for the searches that cannot finish (default 1,000,000)")
    bench.add_argument("--set", dest="sets", action="append", default=None, metavar="FILE",
                       help="connect4: a test set of 'MOVES SCORE' lines (repeatable; default: the samples "
                            "shipped with the package)")
    bench.add_argument("--limit", type=positive_int, default=None, metavar="N",
                       help="connect4: solve only the first N positions of each set")
    bench.add_argument("--sweep", action="store_true",
                       help="tictactoe, connect4, checkers: minimax, alpha-beta, + ordering, + TT, + deepening "
                            "at depths 1..D on one position (states, cutoffs, time, root value)")
    bench.add_argument("--depth", type=positive_int, default=None, metavar="D",
                       help="--sweep: the deepest depth (default: the position's, 6-9)")
    bench.add_argument("--position", default=None, metavar="NAME|POSITION",
                       help="--sweep: a library position (tictactoe: empty, corners, fork, misere, 4x4-k3; "
                            "connect4: empty, 4455, middlegame, late-draw; checkers: start, ballot-133, ending) "
                            "or one in the game's notation")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        handler = getattr(args, "handler", cmd_play)
        if handler is cmd_play and args.command is None:
            args.game = None
        return handler(args)
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as done:  # --help and --version end here
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other Unix tools do. Point stdout
        # at /dev/null so the interpreter's final flush does not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
