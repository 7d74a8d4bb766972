"""``tui-games puzzle GAME [--date D] [--json] [--answer A]``: the puzzle of the day, offline.

    tui-games puzzle connect4                      today's (the local date), with its diagram
    tui-games puzzle checkers --date 2026-12-02 --json
    tui-games puzzle tictactoe --answer b2         right or wrong, and why

The puzzle is a function of the date (:mod:`tui_games.daily`), so this is the one the lobby
gives that day. A right answer exits 0, a wrong one 1; an unreadable date, game or answer is
one line on stderr with status 2.
"""

from __future__ import annotations

import argparse
import datetime
import json

from tui_games.commands.common import UsageError
from tui_games.daily import GAMES, AnswerError, judge, parse_day, puzzle
from tui_games.daily.seed import local_day
from tui_games.daily.text import puzzle_lines, verdict_lines

EXIT_WRONG = 1


def cmd_puzzle(args: argparse.Namespace) -> int:
    today, zone = local_day(datetime.datetime.now().astimezone())
    try:
        day = today if args.date is None else parse_day(args.date)
    except ValueError as error:
        raise UsageError(f"--date: {error}") from None
    made = puzzle(args.game, day)
    if args.answer is None:
        if args.json:
            print(json.dumps(made.data()))
        else:
            print("\n".join(puzzle_lines(made, zone if args.date is None else "the date given")))
        return 0
    try:
        verdict = judge(made, args.answer)
    except AnswerError as error:
        # The daily games say "answer: …" (as the lobby prints it); here the option is named.
        said = str(error)
        raise UsageError(f"--{said}" if said.startswith("answer") else f"--answer: {said}") from None
    if args.json:
        print(json.dumps({**made.data(), "verdict": verdict.data()}))
    else:
        print("\n".join(verdict_lines(verdict, made)))
    return 0 if verdict.correct else EXIT_WRONG


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games puzzle``."""
    parser.set_defaults(handler=cmd_puzzle)
    parser.add_argument("game", metavar="GAME", choices=GAMES, help=", ".join(GAMES))
    parser.add_argument("--date", metavar="D", default=None, help="the day, YYYY-MM-DD (default: today, local time)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object: game, date, position, goal, answer_format, to_move (and the verdict)")
    parser.add_argument("--answer", metavar="A", default=None,
                        help="judge an answer: a column (connect4), a move like 22-18 (checkers), a cell "
                             "like b2 (tictactoe), the whole grid (sudoku)")
