"""Tic-tac-toe's puzzle of the day: a misère (reverse) position where the side to move forces
a win, with exactly one move that does: whoever completes a line of three loses.

The puzzles are every such position of the 3×3 misère game reachable from the empty board,
with at least :data:`FEWEST_EMPTY` empty cells, one per class of the board's eight
symmetries, sorted by their notation; the day's random number picks one and shows it turned
by one of the symmetries. The exact values come from a full solve of the game (a few
thousand positions, memoised): a position's score is ``+(10 - plies)`` for a win in
``plies``, ``-(10 - plies)`` for a loss, 0 for a draw, from the side to move.
"""

from __future__ import annotations

import datetime
from functools import lru_cache

from tui_games.daily.cache import kept
from tui_games.daily.puzzle import AnswerError, Puzzle, Verdict
from tui_games.daily.seed import day_rng
from tui_games.engine.tictactoe.position import MARKS, BoardError, TicTacToe

__all__ = ["TICTACTOE", "TicTacToeDaily", "score"]

SIDE = 3
FEWEST_EMPTY = 4  # fewer and the one winning move is a count of the cells left
HORIZON = 10  # more than any game's plies: the score's scale


def _new(text: str | None = None) -> TicTacToe:
    if text is None:
        return TicTacToe(SIDE, SIDE, SIDE, misere=True)
    return TicTacToe.parse(text, SIDE, misere=True)


@lru_cache(maxsize=None)
def _score(key: int, text: str) -> int:
    return _solve(_new(text))


def score(pos: TicTacToe) -> int:
    """The exact score of ``pos`` for the side to move (see the module's description)."""
    return _score(pos.key(), pos.format())


def _solve(pos: TicTacToe) -> int:
    outcome = pos.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        # The game just ended: the side to move won (the other completed a line) or lost.
        return HORIZON if outcome.winner == pos.turn else -HORIZON
    best = -HORIZON - 1
    for cell in pos.legal_moves():
        pos.push(cell)
        value = -score(pos)
        pos.pop()
        # One ply further from the end: a win is a ply slower, a loss a ply later.
        value = value - 1 if value > 0 else value + 1 if value < 0 else 0
        best = max(best, value)
    return best


def _move_scores(pos: TicTacToe) -> dict[int, int]:
    scores = {}
    for cell in pos.legal_moves():
        pos.push(cell)
        value = -score(pos)
        pos.pop()
        scores[cell] = value - 1 if value > 0 else value + 1 if value < 0 else 0
    return scores


def plies_to_win(value: int) -> int:
    return HORIZON - value


def _symmetries() -> list[tuple[int, ...]]:
    return list(_new().geo.symmetries)


def _image(pos: TicTacToe, perm: tuple[int, ...]) -> str:
    cells = ["."] * (SIDE * SIDE)
    for cell in range(SIDE * SIDE):
        cells[perm[cell]] = pos.mark_at(cell)
    return "/".join("".join(cells[r * SIDE:(r + 1) * SIDE]) for r in range(SIDE))


@lru_cache(maxsize=1)
def candidates() -> tuple[str, ...]:
    """Every puzzle position, one per symmetry class (its least image), sorted."""
    found: set[str] = set()
    seen: set[str] = set()
    perms = _symmetries()

    def walk(pos: TicTacToe) -> None:
        text = pos.format()
        if text in seen or pos.outcome() is not None:
            return
        seen.add(text)
        empty = text.count(".")
        if empty >= FEWEST_EMPTY:
            scores = _move_scores(pos)
            best = max(scores.values())
            if best > 0 and sum(v > 0 for v in scores.values()) == 1:
                found.add(min(_image(pos, p) for p in perms))
        for cell in pos.legal_moves():
            pos.push(cell)
            walk(pos)
            pos.pop()

    walk(_new())
    return tuple(sorted(found))


class TicTacToeDaily:
    key = "tictactoe"

    def make(self, day: datetime.date) -> Puzzle:
        return _cached(day)

    def diagram(self, puzzle: Puzzle) -> str:
        rows = puzzle.position.split("/")
        letters = "".join(chr(ord("a") + c) for c in range(len(rows[0])))
        return "\n".join([f"  {letters}"] + [f"{r + 1} {row}" for r, row in enumerate(rows)])

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict:
        """The answer is the first move, and may go on (``b3 c2``): each of the player's moves
        is answered by the defender's best reply (the slowest loss, the lowest cell among
        equals) and must keep the forced win."""
        pos = _new(puzzle.position)
        words = answer.replace(",", " ").split()
        if not 1 <= len(words) <= SIDE * SIDE:
            raise AnswerError("answer: give a cell like b2 (and more of your moves if you like)")
        line: list[str] = []
        for text in words:
            if pos.outcome() is not None:
                raise AnswerError(f"answer: the game is over after {' '.join(line)}; {text} is one move too many")
            try:
                cell = pos.parse_move(text)
            except BoardError as error:
                raise AnswerError(f"answer: {error}") from None
            name = pos.move_name(cell)
            pos.push(cell)
            line.append(name)
            them = MARKS[pos.turn]
            if pos.outcome() is not None:
                return Verdict(False, " ".join(words), f"{name} completes a line of three: in misère that loses at once",
                               line=tuple(line))
            replies = _move_scores(pos)
            reply = max(replies, key=lambda c: (replies[c], -c))
            refutation = pos.move_name(reply)
            if replies[reply] > 0:
                return Verdict(False, " ".join(words), f"after {name}, {them} answers {refutation} and wins: "
                                                       "you are the one forced to make three", refutation, tuple(line))
            if replies[reply] == 0:
                return Verdict(False, " ".join(words), f"after {name}, {them} answers {refutation} and holds the draw",
                               refutation, tuple(line))
            pos.push(reply)
            line.append(refutation)
        if pos.outcome() is not None:
            return Verdict(True, " ".join(words), f"{' '.join(line)}: {MARKS[1 - pos.turn]} had to make three, "
                                                  "the win (proven by a full solve)", line=tuple(line), finished=True)
        if len(words) == 1:
            return Verdict(True, words[0], f"{words[0]} forces the win in {puzzle.details['plies']} plies "
                                           "(proven by a full solve)", line=tuple(line))
        return Verdict(True, " ".join(words), f"{' '.join(line[:-1])}: each move keeps the forced win "
                                              "(a full solve)", line=tuple(line))


def _line(pos: TicTacToe) -> list[str]:
    """Best play to the end: fastest wins, slowest losses, lowest cell among equals."""
    line = []
    pos = pos.copy()
    while pos.outcome() is None:
        scores = _move_scores(pos)
        cell = max(scores, key=lambda c: (scores[c], -c))
        line.append(pos.move_name(cell))
        pos.push(cell)
    return line


@kept
def _cached(day: datetime.date) -> Puzzle:
    rng = day_rng(TicTacToeDaily.key, day)
    pool = candidates()
    text = pool[rng.randrange(len(pool))]
    shown = _image(_new(text), rng.choice(_symmetries()))
    pos = _new(shown)
    scores = _move_scores(pos)
    best = max(scores.values())
    line = _line(pos)
    mover = MARKS[pos.turn]
    return Puzzle(TicTacToeDaily.key, day, shown,
                  f"misère (three in a row loses): {mover} to move forces a win", "one cell, like b2",
                  mover, line[0], tuple(line), {"misere": True, "k": SIDE, "plies": plies_to_win(best)})


TICTACTOE = TicTacToeDaily()
