"""Connect-4's puzzle of the day: a position where the side to move wins in N of its own
moves with exactly one first move, proven by the exact solver.

A seeded random game is played to 16-24 discs (no four made on the way); the solver's root
analysis gives the score, hence N, and the columns that keep it. Positions with an immediate
win, with no win, with another N than the weekday's (:data:`WEEK`) or with two first moves
that win as fast are drawn again. The answer is the first move, and may go on: ``4 3 3`` is the player's
moves, each answered by the defender's best reply (the slowest loss, centre first among
equals), each of which must keep the win in N. A wrong move is refuted by the opponent's best
reply after it, with what that reply achieves (a draw, their win, or a slower win for you).
"""

from __future__ import annotations

import datetime
import random

from tui_games.daily.cache import kept
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
            return pos, self.best_line(pos)

    def best_line(self, pos: Connect4) -> list[int]:
        """Best play to the end: the winner's fastest move and the loser's slowest loss, the
        centre first among equals (the defender's replies :meth:`judge` plays)."""
        line = []
        pos = pos.copy()
        while pos.outcome() is None:
            col = self.solver.root(pos).best[0]
            line.append(col)
            pos.push(col)
        return line

    def diagram(self, puzzle: Puzzle) -> str:
        return Connect4.parse(puzzle.position).diagram()

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict:
        pos = Connect4.parse(puzzle.position)
        words = _moves(answer)
        n = puzzle.details["moves"]
        line: list[str] = []
        for done, text in enumerate(words):
            col = _column(text, pos)
            name = pos.move_name(col)
            left = n - done  # own moves left for the win, this one included
            if pos.is_winning_move(col):
                if done + 1 < len(words):
                    raise AnswerError(f"answer: {name} wins; the game is over before {' '.join(words[done + 1:])}")
                line.append(name)
                return Verdict(True, " ".join(words), f"{' '.join(line)}: four in a row, the win in {n} "
                                                      "(proven by the exact solver)", line=tuple(line), finished=True)
            pos.push(col)
            line.append(name)
            reply = self.solver.root(pos)
            mine = own_moves(-reply.score, pos.moves - 1)
            if mine is None or mine > left:
                return Verdict(False, " ".join(words), self._why(pos, name, reply.score, reply.best[0], n, done, mine),
                               pos.move_name(reply.best[0]), tuple(line))
            defence = reply.best[0]
            line.append(pos.move_name(defence))
            pos.push(defence)
        why = (f"{words[0]} wins in {n} (proven by the exact solver)" if len(words) == 1 else
               f"{' '.join(line[:-1])}: each move keeps the win in {n} (the exact solver)")
        return Verdict(True, " ".join(words), why, line=tuple(line))

    @staticmethod
    def _why(pos: Connect4, name: str, score: int, refutation: int, n: int, done: int, mine: int | None) -> str:
        """Why ``name`` (just played in ``pos``) fails: what the opponent's best reply achieves."""
        them = PLAYERS[pos.turn].split(" (")[0]
        reply = pos.move_name(refutation)
        if score > 0:
            return f"after {name}, the {them} answers {reply} and wins"
        if score == 0:
            return f"after {name}, the {them} answers {reply} and holds the draw"
        return (f"after {name}, the {them} answers {reply}: you still win, but in {mine + done} moves, "
                f"not {n}") if mine is not None else f"after {name}, the {them} answers {reply}"


def _moves(answer: str) -> list[str]:
    """``4 3 3``, ``4,3,3`` or ``433``: the player's columns."""
    words = answer.replace(",", " ").split()
    if len(words) == 1 and words[0].isdigit():
        words = list(words[0])
    if not words:
        raise AnswerError("answer: give a column, 1-7 (and more of your moves if you like)")
    if len(words) > 21:
        raise AnswerError(f"answer: {len(words)} moves; a player has at most 21")
    return words


def _column(answer: str, pos: Connect4) -> int:
    text = answer.strip()
    if len(text) != 1 or not "1" <= text <= "7":
        raise AnswerError(f"answer {text[:20]!r}: give one column, 1-7")
    col = int(text) - 1
    if not pos.can_play(col):
        raise AnswerError(f"answer {text}: column {text} is full")
    return col


@kept
def _cached(game: Connect4Daily, day: datetime.date) -> Puzzle:
    n = WEEK[day.weekday()]
    pos, line = game.find(day_rng(game.key, day), n)
    mover = PLAYERS[pos.turn]
    names = [str(c + 1) for c in line]
    return Puzzle(game.key, day, pos.format(), f"{mover} to move: win in {n}", "one column, 1-7",
                  mover.split(" (")[1].rstrip(")"), names[0], tuple(names), {"moves": n})


CONNECT4 = Connect4Daily()
