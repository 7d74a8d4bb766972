"""Checkers' puzzle of the day: an endgame of two pieces a side where the side to move wins,
with exactly one move that keeps the win, proven by the endgame tables.

The tables of every class of up to two pieces a side (2v2 and whatever a capture or a
crowning leads to) are built in memory the first time (about a second with the compiled
builder) and kept for the process: the puzzle cannot depend on which tables a machine has on
disk. The day's random numbers pick a class with at least one man (four kings draw), then
positions of it by index until one has a win for the side to move, at least two legal moves
and one winning move. The tables are game-theoretic (no 40-move rule, as every published
checkers database): "win" means the side can force one.
"""

from __future__ import annotations

import datetime
import threading
from functools import lru_cache

from tui_games.daily.cache import kept
from tui_games.daily.puzzle import AnswerError, Puzzle, Verdict
from tui_games.daily.seed import day_rng
from tui_games.engine.checkers.bits import COLOUR_NAMES
from tui_games.engine.checkers.egdb import (
    DRAW,
    LOSS,
    WIN,
    EndgameDB,
    PieceClass,
    class_order,
    class_size,
    position_of,
    stored_class,
)
from tui_games.engine.checkers.egdb_build import Builder
from tui_games.engine.checkers.notation import CheckersError, format_fen
from tui_games.engine.checkers.position import CheckersPosition, Move

__all__ = ["CHECKERS", "CheckersDaily", "PUZZLE_CLASSES", "tables"]

SIDE_PIECES = 2
# (Black men, Black kings, White men, White kings): two a side, at least one man on the board.
PUZZLE_CLASSES: tuple[PieceClass, ...] = tuple(
    cls for cls in class_order(2 * SIDE_PIECES)
    if cls[0] + cls[1] == SIDE_PIECES and cls[2] + cls[3] == SIDE_PIECES and cls[0] + cls[2] > 0)

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _built() -> EndgameDB:
    builder = Builder()
    for cls in class_order(2 * SIDE_PIECES):
        small = sum(cls) < 2 * SIDE_PIECES
        if stored_class(cls) == cls and (small or (cls[0] + cls[1] == SIDE_PIECES)):
            builder.build(cls)
    return builder.db


def tables() -> EndgameDB:
    """The endgame tables the puzzles are proven by (built once a process)."""
    with _lock:  # two threads asking at once build once
        return _built()


def _value(db: EndgameDB, pos: CheckersPosition) -> int:
    value = db.probe(pos)
    if value is None:  # every position a 2v2 move leads to is in the tables
        raise AssertionError(f"{pos.fen()} is not in the tables")
    return value


def _after(db: EndgameDB, pos: CheckersPosition, move: Move) -> int:
    """The value for the side to move after ``move`` (the opponent)."""
    pos.push(move)
    try:
        return _value(db, pos)
    finally:
        pos.pop()


class CheckersDaily:
    key = "checkers"

    def make(self, day: datetime.date) -> Puzzle:
        return _cached(day)

    def diagram(self, puzzle: Puzzle) -> str:
        return CheckersPosition.parse(puzzle.position).diagram()

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict:
        db = tables()
        pos = CheckersPosition.parse(puzzle.position)
        try:
            move = pos.parse_move(answer)
        except CheckersError as error:
            raise AnswerError(f"answer: {error}") from None
        name = str(move)
        me, them = COLOUR_NAMES[pos.turn], COLOUR_NAMES[1 - pos.turn]
        if _after(db, pos, move) == LOSS:
            return Verdict(True, name, f"{name} keeps the win: every reply loses for {them} "
                                       "(proven by the endgame tables)", line=(name,),
                           finished=True)
        pos.push(move)
        replies = [(r, _after(db, pos, r)) for r in pos.legal_moves()]
        # The reply that does best for them: a position lost for us first, then a drawn one.
        reply, value = min(replies, key=lambda rv: {LOSS: 0, DRAW: 1, WIN: 2}[rv[1]])
        if value == LOSS:
            what = f"and wins: the tables give {me} a loss"
        else:
            what = "and draws: the tables say neither side can force a win"
        return Verdict(False, name, f"after {name}, {them} answers {reply} {what}", str(reply), (name,))


def _find(day: datetime.date) -> tuple[CheckersPosition, Move]:
    db = tables()
    rng = day_rng(CheckersDaily.key, day)
    cls = PUZZLE_CLASSES[rng.randrange(len(PUZZLE_CLASSES))]
    while True:
        found = position_of(cls, rng.randrange(class_size(cls)))
        turn = rng.randrange(2)
        if found is None:
            continue
        black, white, kings = found
        pos = CheckersPosition.parse(format_fen(black, white, kings, turn))
        moves = pos.legal_moves()
        if len(moves) < 2 or _value(db, pos) != WIN:
            continue
        winning = [m for m in moves if _after(db, pos, m) == LOSS]
        if len(winning) == 1:
            return pos, winning[0]


@kept
def _cached(day: datetime.date) -> Puzzle:
    pos, move = _find(day)
    mover = COLOUR_NAMES[pos.turn]
    counts = pos.counts()
    return Puzzle(CheckersDaily.key, day, pos.fen(), f"{mover} to move and win", "one move, like 22-18 or 15x24",
                  mover, str(move), (str(move),), {"pieces": counts})


CHECKERS = CheckersDaily()
