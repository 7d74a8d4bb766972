"""``tui-games analyse GAME [MOVES|FILE|-]``: a finished game reviewed move by move.

    tui-games analyse connect4 4453356342
    tui-games analyse tictactoe "b2 a1 c3 a3" --size 3x3
    tui-games analyse checkers game.pdn --seconds 1 --json
    tui-games analyse connect4 game.txt --export reviewed.txt

The game is the moves in the game's notation (Connect-4's column digits, which may run
together; tic-tac-toe's cells; checkers' PDN movetext), a file holding them or a record
(:mod:`tui_games.engine.records`; for checkers a PDN file), a game of the archive by its name
(``games/NAME`` in the data directory), or ``-`` for stdin. Each move
gets the score before and after it for its mover, the engine's best move and a mark
(:mod:`tui_games.engine.analysis` says when, and which are exact). ``--export`` writes the game
as a record with the review in its comments, which this command reads back.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from datetime import date
from pathlib import Path
from typing import Any

from tui_games.commands.arena import declared_options, variant_of_args
from tui_games.commands.common import EXIT_INTERRUPTED, UsageError, positive_seconds
from tui_games.commands.options import add_game_options
from tui_games.commands.progress import ProgressLine
from tui_games.engine.adapter import GameAdapter
from tui_games.engine.analysis import GameReview, MoveReview, review_game
from tui_games.engine.game_text import MoveError as TextMoveError
from tui_games.engine.game_text import read_game
from tui_games.engine.records import RecordError, read_record, variant_text, write_record
from tui_games.games import arena_adapter, arena_specs, find_game
from tui_games.userdata.game_archive import ARCHIVE_ENTRY
from tui_games.userdata.store import Store

MAX_INPUT_BYTES = 1 << 20


def _read_input(text: str) -> tuple[str, str]:
    """(the game's text, where it came from): stdin for ``-``, a file's text, or the argument."""
    if text == "-":
        return sys.stdin.read(MAX_INPUT_BYTES), "<stdin>"
    if ARCHIVE_ENTRY.match(text) and not os.path.exists(text):
        # A game of the archive by its name (the data directory's games/, the Games screen's).
        try:
            return Store().archived_text(text), f"games/{text}"
        except (OSError, ValueError) as error:
            problem = error.strerror if isinstance(error, OSError) and error.strerror else error
            raise UsageError(f"cannot read the archived game {text!r}: {problem}") from None
    if os.path.isfile(text):
        try:
            with open(text, encoding="utf-8") as file:
                return file.read(MAX_INPUT_BYTES), text
        except OSError as error:
            raise UsageError(f"cannot read {text!r}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise UsageError(f"cannot read {text!r}: not UTF-8 text") from None
    return text, "MOVES"


class MoveError(UsageError):
    """A move of the game that cannot be played: which one (1 is the first)."""

    def __init__(self, message: str, number: int) -> None:
        super().__init__(message)
        self.number = number


def _meant_as_a_name(text: str, error: UsageError) -> bool:
    """Whether a word that is neither a file nor an archived game was meant as one: it has a
    path's characters, or not even its first move reads (``44x`` is moves with a typo)."""
    words = text.split()
    return len(words) == 1 and (any(ch in words[0] for ch in "./\\") or
                                (isinstance(error, MoveError) and error.number == 1))


def parse_game(game: GameAdapter, text: str, source: str, variant: dict) -> tuple[Any, list[Any], dict, dict]:
    """(start position, moves, variant, tags) of the game in ``text``; UsageError names the
    source, the line or move, and the problem."""
    try:
        if text.lstrip().startswith("[") and game.name != "checkers":
            named = read_record(text).tags.get("Game")
            if named and find_game(named).key != game.name:
                raise UsageError(f"{source}: the record is a {named} game, not {game.name}")
        return read_game(game, text, variant)
    except TextMoveError as error:
        raise MoveError(f"{source}: {error}", error.number) from None
    except (RecordError, ValueError) as error:
        message = "no moves to analyse" if str(error) == "no moves" else str(error)
        raise UsageError(f"{source}: {message}") from None


def _comment(review: MoveReview) -> str:
    text = f"{review.words(review.before)} -> {review.words(review.after)}"
    if review.mark:
        text = f"{review.mark} {text}"
    if review.best:
        text += f"; best {review.best}"
    return text


def _result(start: Any, moves: list[Any]) -> str:
    position = start.copy()
    for move in moves:
        position.push(move)
    outcome = position.outcome()
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == start.turn else "0-1"


def _print_review(game: GameAdapter, review: GameReview) -> None:
    width = max((len(m.move) for m in review.moves), default=2)
    words = [(m, m.words(m.before), m.words(m.after)) for m in review.moves]
    before_width = max((len(b) for _, b, _ in words), default=4)
    for m, before, after in words:
        mark = m.mark or ""
        best = f"  best {m.best}" if m.best and m.mark else ""
        print(f"{m.ply:4d}. {game.side_names[m.side]:<5} {m.move:<{width}} {mark:<2}  "
              f"{before:>{before_width}} -> {after}{best}")
    for side, summary in enumerate(review.sides):
        parts = [f"{summary.blunders} blunders (??)", f"{summary.mistakes} mistakes (?)",
                 f"{summary.inaccuracies} inaccuracies (?!)"]
        if summary.results_lost:
            parts.append(f"results given away {summary.results_lost}")
        if summary.average_loss is not None:
            parts.append(f"average loss {summary.average_loss:.1f}")
        print(f"{game.side_names[side]}: " + ", ".join(parts))


def cmd_analyse(args: argparse.Namespace) -> int:
    try:
        spec = find_game(args.game)
    except ValueError:
        raise UsageError(f"nothing to analyse in {args.game!r}; choose one of "
                         f"{', '.join(s.key for s in arena_specs())}") from None
    if spec.arena is None:
        raise UsageError(f"no analysis for {spec.key}: {spec.no_arena}")
    args.game = spec.key
    game = arena_adapter(spec.key)
    text, source = _read_input(args.record)
    try:
        start, moves, variant, tags = parse_game(game, text, source, variant_of_args(args))
    except UsageError as error:
        if source != "MOVES" or not _meant_as_a_name(text, error):
            raise
        raise UsageError(f"no file or archived game {text.strip()!r}, and not moves: "
                         f"{str(error).removeprefix(source + ': ')}") from None
    judge = game.judge(variant, seconds=args.seconds)
    if judge is None:
        raise UsageError(f"no analysis for {spec.key}")
    progress = ProgressLine(len(moves) + 1, unit="positions", shown=None if not args.json else False)
    stop = threading.Event()
    began = time.process_time()
    try:
        review = review_game(start, moves, judge, move_text=game.move_text, stop=stop,
                             on_progress=lambda done, total: progress.update(done))
    except KeyboardInterrupt:
        progress.clear()
        print("tui-games: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    progress.clear()
    seconds = time.process_time() - began
    if args.export is not None:
        record_tags = {"Game": spec.key, "Variant": variant_text(variant), "Date": date.today().strftime("%Y.%m.%d"),
                       **{k: v for k, v in tags.items() if k in ("First", "Second", "Event", "Clock")}}
        if game.format(start) != game.format(game.start(variant)):
            record_tags["Start"] = game.format(start)
        record_tags.update(game.record_tags(start, record_tags))
        comments = {m.ply: _comment(m) for m in review.moves}
        try:
            Path(args.export).write_text(write_record(record_tags, [m.move for m in review.moves], comments=comments,
                                                      result=_result(start, moves)), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write --export {args.export!r}: {error.strerror or error}") from None
    if args.json:
        record = review.to_dict(game.side_names)
        record.update({"game": spec.key, "variant": variant, "cpu_seconds": round(seconds, 3)})
        print(json.dumps(record))
    else:
        _print_review(game, review)
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games analyse``."""
    parser.set_defaults(handler=cmd_analyse)
    parser.add_argument("game", metavar="GAME", help=", ".join(spec.key for spec in arena_specs()))
    parser.add_argument("record", metavar="MOVES|FILE", nargs="?", default="-",
                        help="the moves in the game's notation, a file with them or a record (checkers: PDN), "
                             "an archived game's name (games/ in the data directory), "
                             "or '-' for stdin (the default)")
    parser.add_argument("--seconds", type=positive_seconds, default=None, metavar="S",
                        help="CPU seconds a position for the games the engine judges (default: tic-tac-toe 1, "
                             "checkers 0.5; Connect-4 is solved exactly)")
    parser.add_argument("--json", action="store_true",
                        help='print one object: "moves" (ply, move, mark, best, before, after, ...) and "summary"')
    parser.add_argument("--export", default=None, metavar="FILE",
                        help="also write the game as a record with the review in its comments")
    add_game_options(parser, declared_options())
