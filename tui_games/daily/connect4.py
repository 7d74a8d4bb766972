"""Connect-4's puzzle of the day: a position where the side to move wins in N of its own
moves with exactly one first move, proven by the exact solver.

A seeded random game is played to 16-24 discs (no four made on the way); the solver's root
analysis gives the score, hence N, and the columns that keep it. Positions with an immediate
win, with no win, with another N than the weekday's (:data:`WEEK`) or with two first moves
that win as fast are drawn again. The answer is the first move; a wrong one is refuted by the opponent's best
reply after it, with what that reply achieves (a draw, their win, or a slower win for you).
"""

from __future__ import annotations

import datetime
import random
from functools import lru_cache

from tui_games.daily.puzzle import AnswerError, Puzzle, Verdict
from tui_games.daily.seed import day_rng
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver, plies_to_end

__all__ = ["CONNECT4", "Connect4Daily", "own_moves"]

FEWEST_DISCS, MOST_DISCS = 16, 24
# N for each day of the week, Monday first: the week climbs as Sudoku's grades do.
WEEK = (2, 2, 3, 3, 4, 4, 5)
# A small table: positions this deep solve in milliseconds, and a puzzle needs a few of them.
TABLE_SIZE = 1_048_573
PLAYERS = ("first player (X)", "second player (O)")


def own_moves(score: int, discs: int) -> int | None:
    """How many of its own moves the side to move needs to win with ``score`` (None: no win)."""
    plies = plies_to_end(score, discs)
    return None if plies is None or score <= 0 else (plies + 1) // 2


def _random_position(rng: random.Random) -> Connect4 | None:
    pos = Connect4()
    for _ in range(rng.randint(FEWEST_DISCS, MOST_DISCS)):
        moves = pos.legal_moves()
        if not moves:
            return None
        col = rng.choice(moves)
        if pos.is_winning_move(col):
            return None
        pos.push(col)
    return pos


class Connect4Daily:
    key = "connect4"

    def __init__(self) -> None:
        self.solver = Solver(TABLE_SIZE)

    def make(self, day: datetime.date) -> Puzzle:
        return _cached(self, day)

    def find(self, rng: random.Random, n: int) -> tuple[Connect4, list[int]]:
        """The first position drawn by ``rng`` where the mover wins in ``n`` with one first
        move: (position, the winning line)."""
        while True:
            pos = _random_position(rng)
            if pos is None or any(pos.is_winning_move(c) for c in pos.legal_moves()):
                continue
            root = self.solver.root(pos)
            if own_moves(root.score, pos.moves) != n or len(root.best) != 1:
                continue
            after = pos.copy()
            after.push(root.best[0])
            line = [root.best[0]] + self.solver.principal_variation(after)
            return pos, line

    def diagram(self, puzzle: Puzzle) -> str:
        return Connect4.parse(puzzle.position).diagram()

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict:
        pos = Connect4.parse(puzzle.position)
        col = _column(answer, pos)
        n = puzzle.details["moves"]
        name = pos.move_name(col)
        if name == puzzle.solution:
            return Verdict(True, name, f"{name} wins in {n} (proven by the exact solver)", line=puzzle.line)
        pos.push(col)
        reply = self.solver.root(pos)
        them = PLAYERS[pos.turn].split(" (")[0]
        refutation = pos.move_name(reply.best[0])
        if reply.score > 0:
            why = f"after {name}, the {them} answers {refutation} and wins"
        elif reply.score == 0:
            why = f"after {name}, the {them} answers {refutation} and holds the draw"
        else:
            slower = own_moves(-reply.score, pos.moves - 1)
            why = (f"after {name}, the {them} answers {refutation}: you still win, but in {slower} moves, "
                   f"not {n}")
        return Verdict(False, name, why, refutation)


def _column(answer: str, pos: Connect4) -> int:
    text = answer.strip()
    if len(text) != 1 or not "1" <= text <= "7":
        raise AnswerError(f"answer {text[:20]!r}: give one column, 1-7")
    col = int(text) - 1
    if not pos.can_play(col):
        raise AnswerError(f"answer {text}: column {text} is full")
    return col


@lru_cache(maxsize=16)
def _cached(game: Connect4Daily, day: datetime.date) -> Puzzle:
    n = WEEK[day.weekday()]
    pos, line = game.find(day_rng(game.key, day), n)
    mover = PLAYERS[pos.turn]
    names = [str(c + 1) for c in line]
    return Puzzle(game.key, day, pos.format(), f"{mover} to move: win in {n}", "one column, 1-7",
                  mover.split(" (")[1].rstrip(")"), names[0], tuple(names), {"moves": n})


CONNECT4 = Connect4Daily()
