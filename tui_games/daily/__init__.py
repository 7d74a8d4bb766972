"""The puzzle of the day, one per game: a function of the date alone, the same on every
machine, proven by the game's solver (the exact Connect-4 solver, the checkers endgame
tables, a full solve of misère tic-tac-toe, Sudoku's generator and grader).

Pure like the engine: no UI, server or file I/O. ``puzzle(game, day)`` makes (and keeps, a
few days per process) the day's puzzle; ``judge(puzzle, answer)`` says right or wrong, and
why. The package is ``daily`` because ``tui_games.puzzles`` is the shipped collections'
installed name (pyproject's package-dir).
"""

from __future__ import annotations

import datetime

from tui_games.daily.puzzle import AnswerError, DailyGame, Puzzle, Verdict
from tui_games.daily.seed import parse_day

__all__ = ["GAMES", "AnswerError", "DailyGame", "Puzzle", "Verdict", "daily_game", "judge", "parse_day", "puzzle"]

# The games with a daily puzzle, in the game table's order.
GAMES = ("tictactoe", "connect4", "checkers", "sudoku")


def daily_game(game: str) -> DailyGame:
    """The game's puzzle maker; ValueError naming the games for another name. Each game's
    module is imported when first asked for (Sudoku's brings the SAT solver)."""
    if game == "tictactoe":
        from tui_games.daily.tictactoe import TICTACTOE
        return TICTACTOE
    if game == "connect4":
        from tui_games.daily.connect4 import CONNECT4
        return CONNECT4
    if game == "checkers":
        from tui_games.daily.checkers import CHECKERS
        return CHECKERS
    if game == "sudoku":
        from tui_games.daily.sudoku import SUDOKU
        return SUDOKU
    raise ValueError(f"no puzzle of the day for {game[:40]!r}; choose one of {', '.join(GAMES)}")


def puzzle(game: str, day: datetime.date) -> Puzzle:
    return daily_game(game).make(day)


def judge(puzzle: Puzzle, answer: str) -> Verdict:
    """The verdict on ``answer``; AnswerError (one line) when it cannot be read or played."""
    return daily_game(puzzle.game).judge(puzzle, answer)
