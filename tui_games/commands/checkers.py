"""``tui-games checkers …``: legal moves, perft and the engine's move for a position.

    tui-games checkers moves FEN [MOVE ...]          every legal move, one per line (full paths)
    tui-games checkers perft FEN DEPTH [--divide]    leaf count (each capture path its own move)
    tui-games checkers play FEN [MOVE ...] --seconds S | --depth D [--json]
    tui-games checkers build-db --pieces N            the endgame databases (see checkers_egdb)
    tui-games checkers probe FEN [MOVE ...] [--json]  a position's value in them
    tui-games checkers engine [--seed N]             the engine on stdin/stdout, one command a line

FEN is bare (``B:W21,22,…:B1,2,…``), a PDN tag (``[FEN "…"]``) or ``start``; the MOVEs (PDN,
``11-15``, ``15x24``) are played from it first. A malformed FEN or move is one line on
stderr naming the bad part, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from tui_games.commands.checkers_egdb import add_db_tools
from tui_games.commands.common import UsageError, positive_int, positive_seconds
from tui_games.commands.options import Option
from tui_games.commands.trace import add_trace_tool
from tui_games.commands.tree_output import add_tree_argument, recorder_for, write_tree
from tui_games.data.checkers_book import shared_book
from tui_games.engine.checkers.book import OpeningBook
from tui_games.engine.checkers.egdb import RESULT_NAMES, EndgameDB, value_note
from tui_games.engine.checkers.engine import STRONG_EVALUATION, Engine
from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.perft import divide, perft
from tui_games.engine.checkers.players import DEFAULT_SECONDS, normalize_spec
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.checkers.protocol import WALL_FACTOR as PROTOCOL_WALL_FACTOR
from tui_games.engine.checkers.protocol import EngineSession
from tui_games.engine.players import describe_result
from tui_games.engine.search import SearchLimits

OUTCOME_WORDS = {0: "Black wins", 1: "White wins", None: "draw"}

# Nothing added to ``tui-games arena`` (one variant: the ballots) or ``tui-games bench``.
ARENA_OPTIONS: tuple[Option, ...] = ()
BENCH_OPTIONS: tuple[Option, ...] = ()


def position_from(fen: str, moves: list[str] | None = None) -> CheckersPosition:
    """The position of ``fen`` after ``moves``; UsageError (one line) names the bad part."""
    try:
        position = CheckersPosition(fen)
        for text in moves or ():
            position.push_text(text)
    except CheckersError as error:
        raise UsageError(str(error)) from None
    return position


def _game_over(position: CheckersPosition) -> str | None:
    outcome = position.outcome()
    if outcome is None:
        return None
    return f"{OUTCOME_WORDS[outcome.winner]} ({outcome.reason})"


def cmd_moves(args: argparse.Namespace) -> int:
    position = position_from(args.fen, args.moves)
    moves = position.legal_moves()
    if args.json:
        print(json.dumps({"fen": position.fen(), "moves": [str(m) for m in moves], "game_over": _game_over(position)}))
    else:
        for move in moves:
            print(move)
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    position = position_from(args.fen)
    start = time.perf_counter()
    if args.divide:
        rows = divide(position, args.depth)
        total = sum(n for _, n in rows)
    else:
        rows = []
        total = perft(position, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        record = {"fen": position.fen(), "depth": args.depth, "nodes": total, "seconds": round(seconds, 6)}
        if args.divide:
            record["divide"] = {str(m): n for m, n in rows}
        print(json.dumps(record))
        return 0
    for move, n in rows:
        print(f"{move} {n}")
    if args.divide:
        print(f"total {total}")
    else:
        print(total)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    position = position_from(args.fen, args.moves)
    over = _game_over(position)
    if over is not None:
        if args.json:
            print(json.dumps({"fen": position.fen(), "move": None, "game_over": over}))
        else:
            print(f"no move: the game is over, {over}")
        return 0
    if args.depth is not None:
        limits = SearchLimits(depth=args.depth, seconds=args.seconds)
    else:
        limits = SearchLimits(seconds=args.seconds if args.seconds is not None else DEFAULT_SECONDS)
    database = _database(args)
    value = database.probe(position) if database is not None else None
    verdict = RESULT_NAMES[value] if value is not None else None
    book = _book(args)
    booked = None if book is None else book.move(position)
    if booked is not None:
        if args.json:
            print(json.dumps({"fen": position.fen(), "move": str(booked), "score": None, "depth": 0, "seldepth": 0,
                              "pv": [str(booked)], "nodes": 0, "seconds": 0.0, "note": "opening book",
                              "database": verdict, "book": True}))
        else:
            print(f"move: {booked}")
            print("note: opening book (--no-book searches instead)")
        return 0
    recorder = recorder_for(args.tree)
    result = Engine(evaluation=args.evaluation, database=database).search(position, limits, recorder=recorder,
                                                                       rng=random.Random(args.seed))
    write_tree(args.tree, recorder, str, proven=result.exact, position=position.fen())
    stats = result.stats
    if args.json:
        print(json.dumps({
            "fen": position.fen(),
            "move": str(result.move),
            "score": result.score,
            "depth": stats.depth,
            "seldepth": stats.seldepth,
            "pv": [str(m) for m in result.pv],
            "nodes": stats.nodes,
            "seconds": round(stats.seconds, 6),
            "note": describe_result(result),
            "database": verdict,
            "book": False,
        }))
        return 0
    print(f"move: {result.move}")
    print(f"score: {result.score:+d}")
    print(f"note: {describe_result(result)}")
    if value is not None:
        print(value_note(value, position.turn))
    print(f"pv: {' '.join(str(m) for m in result.pv)}")
    print(f"depth: {stats.depth} (selective {stats.seldepth}), nodes: {stats.nodes:,} in {stats.seconds:.2f} s "
          f"({stats.nodes_per_second:,.0f}/s)")
    return 0


def _book(args: argparse.Namespace) -> OpeningBook | None:
    """The shipped opening book with --book-file's entries over it, or None (--no-book);
    UsageError (one line) names a file that cannot be read or its first bad line."""
    if args.book_file is None:
        return None if args.no_book else shared_book()
    if args.no_book:
        raise UsageError("--book-file and --no-book exclude each other")
    try:
        text = Path(args.book_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise UsageError(f"--book-file {args.book_file}: {reason}") from None
    book = shared_book().copy()
    try:
        book.update(text)
    except ValueError as error:
        raise UsageError(f"--book-file {args.book_file}: {error}") from None
    return book


def _database(args: argparse.Namespace) -> EndgameDB | None:
    """The endgame tables in the data directory (``build-db``), unless --no-database."""
    if args.no_database:
        return None
    from tui_games.data.checkers_db import shared_db

    return shared_db()


def cmd_engine(args: argparse.Namespace) -> int:
    """The line protocol of :mod:`tui_games.engine.checkers.protocol` on stdin/stdout."""
    engine = Engine(evaluation=args.evaluation, wall_factor=PROTOCOL_WALL_FACTOR, database=_database(args))
    session = EngineSession(seed=args.seed, engine=engine, book=_book(args))
    for line in sys.stdin:
        reply = session.handle(line.strip())
        if reply is None:
            break
        print(reply, flush=True)
    return 0


BOOK_FILE_HELP = ("a book (FEN MOVE lines, as puzzles/checkers_book.txt) read over the shipped one: its moves "
                  "replace the shipped book's where both have one")


def add_tools(parser: argparse.ArgumentParser) -> None:
    """The tools of ``tui-games checkers``."""
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    add_trace_tool(tools, "checkers")
    fen_help = 'position: FEN (B:W21,22,…:B1,2,…; K before a king), [FEN "…"], or start'

    moves = tools.add_parser("moves", help="every legal move of a position, one per line")
    moves.set_defaults(handler=cmd_moves)
    moves.add_argument("fen", metavar="FEN", help=fen_help)
    moves.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play first (PDN: 11-15, 15x24x31)")
    moves.add_argument("--json", action="store_true", help='print {"fen", "moves", "game_over"}')

    pf = tools.add_parser("perft", help="leaf count to a depth (every capture path its own move)")
    pf.set_defaults(handler=cmd_perft)
    pf.add_argument("fen", metavar="FEN", help=fen_help)
    pf.add_argument("depth", metavar="DEPTH", type=positive_int, help="plies")
    pf.add_argument("--divide", action="store_true", help="the count below each legal move, then the total")
    pf.add_argument("--json", action="store_true", help='print {"fen", "depth", "nodes", "seconds"[, "divide"]}')

    play = tools.add_parser("play", help="the engine's move and score for a position")
    play.set_defaults(handler=cmd_play)
    play.add_argument("fen", metavar="FEN", help=fen_help)
    play.add_argument("moves", nargs="*", metavar="MOVE", help="moves to play first (PDN)")
    play.add_argument("--seconds", type=positive_seconds, default=None,
                      help=f"time budget (default {DEFAULT_SECONDS:g} s; with --depth, a cap)")
    play.add_argument("--depth", type=positive_int, default=None, help="search this many plies instead")
    play.add_argument("--seed", type=int, default=None, help="seed for the tie-breaks between equal moves")
    play.add_argument("--json", action="store_true",
                      help='print {"fen", "move", "score", "depth", "seldepth", "pv", "nodes", "seconds", "note", '
                           '"database", "book"}')
    play.add_argument("--no-book", action="store_true", help="search the opening book's positions too")
    play.add_argument("--book-file", metavar="FILE", default=None, help=BOOK_FILE_HELP)
    add_tree_argument(play)
    add_evaluation(play)
    play.add_argument("--no-database", action="store_true",
                      help="search without the endgame tables of build-db (used when they are there)")

    add_db_tools(tools, fen_help, position_from)
    engine = tools.add_parser("engine", help="the engine on stdin/stdout: new FEN, move M, moves, go S, fen, quit")
    engine.set_defaults(handler=cmd_engine)
    engine.add_argument("--seed", type=int, default=None, help="seed for the tie-breaks between equal moves")
    engine.add_argument("--no-database", action="store_true",
                        help="search without the endgame tables of build-db (used when they are there)")
    engine.add_argument("--no-book", action="store_true", help="search the opening book's positions too")
    engine.add_argument("--book-file", metavar="FILE", default=None, help=BOOK_FILE_HELP)
    add_evaluation(engine)


def add_evaluation(parser: argparse.ArgumentParser) -> None:
    """--evaluation, the same on `play` and `engine`."""
    parser.add_argument("--evaluation", choices=("default", "network", "material"), default=STRONG_EVALUATION,
                        help="the static evaluation: the linear one (default), the linear one with the network on "
                             f"top (network), or material only (the default: {STRONG_EVALUATION})")


# -- play ------------------------------------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--opponent", default=None, metavar="NAME",
                        help="human (two players), strong, level1..level12, baseline, random, or a bot file "
                             "(bot.py, level3:eval.py; docs/bots.md)")
    parser.add_argument("--side", choices=("black", "white"), default=None,
                        help="the side you play against the computer (Black moves first)")
    parser.add_argument("--fen", default=None, metavar="FEN", help="start from this position (B:W21,…:B1,…)")


def play_options(args: argparse.Namespace) -> dict[str, Any]:
    """What ``play checkers`` asks for; the rest comes from the saved settings in the screen."""
    from tui_games.bots import checked_spec, is_bot_spec  # here: the game's other tools do without it

    options: dict[str, Any] = {}
    if args.opponent is not None:
        opponent = args.opponent.strip().lower()
        if is_bot_spec(args.opponent):
            try:
                opponent = checked_spec("checkers", args.opponent)
            except ValueError as error:
                raise UsageError(f"--opponent {args.opponent!r}: {error}") from None
        elif opponent != "human":
            try:
                opponent = normalize_spec(opponent)
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
