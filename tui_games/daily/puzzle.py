"""What a daily puzzle is, what an answer's verdict is, and what each game provides."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = ["AnswerError", "DailyGame", "Puzzle", "Verdict"]


class AnswerError(ValueError):
    """An answer that cannot be judged (not a move, an illegal move, a grid of the wrong
    size): one line naming the problem. It is not counted as an attempt."""


@dataclass(frozen=True)
class Puzzle:
    """One game's puzzle of one day. ``position`` is in the game's own notation (a move string
    for Connect-4, FEN for checkers, rows for tic-tac-toe, 81 characters for Sudoku);
    ``goal`` says what to find and ``answer_format`` how to write it. ``solution`` is the
    answer (kept out of :meth:`data`: it is what the player is to find) and ``line`` the play
    it starts, for telling after a right answer."""

    game: str
    date: datetime.date
    position: str
    goal: str
    answer_format: str
    to_move: str | None
    solution: str
    line: tuple[str, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """The puzzle as JSON shows it: no solution."""
        return {"game": self.game, "date": self.date.isoformat(), "position": self.position, "goal": self.goal,
                "answer_format": self.answer_format, "to_move": self.to_move, **self.details}


@dataclass(frozen=True)
class Verdict:
    """An answer judged. ``why`` is one sentence: what the answer achieves, or why it fails;
    ``refutation`` the reply that defeats a wrong move (two-player games) or the cell that is
    wrong (Sudoku). ``line`` is the play so far: in Connect-4 and tic-tac-toe an answer may go
    on past its first move, each of the player's moves followed by the defender's best reply,
    and ``line`` holds them all (the last a reply, for the player to answer next) while
    ``finished`` says whether there is nothing more to play: the win reached (a right
    answer in checkers or Sudoku always is). A right first move alone is a
    right answer (the puzzle's ``line`` is then the winning line to tell)."""

    correct: bool
    answer: str
    why: str
    refutation: str | None = None
    line: tuple[str, ...] = ()
    finished: bool = False

    def data(self) -> dict[str, Any]:
        return {"correct": self.correct, "answer": self.answer, "why": self.why, "refutation": self.refutation,
                "line": list(self.line), "finished": self.finished}


class DailyGame(Protocol):
    """A game's daily puzzles: ``make`` is a function of the day alone; ``judge`` reads an
    answer (raising AnswerError when it cannot) and proves it right or wrong with the game's
    solver; ``diagram`` draws the position as text."""

    key: str

    def make(self, day: datetime.date) -> Puzzle: ...

    def diagram(self, puzzle: Puzzle) -> str: ...

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict: ...
