"""Building the endgame databases by retrograde analysis, one piece class at a time.

A class depends only on classes built before it (:func:`egdb.class_order`): a capture
leaves fewer pieces, a man crowned leaves a man fewer and a king more; every other move —
a king's step, a man's step short of the far row — stays inside the class. So:

1. **First pass**, every position of the class from its own moves: with a capture (which
   is compulsory) its value is decided at once from the capture's results in the smaller
   classes; otherwise a step that crowns is looked up in the class with a king more, and
   a move to a position the opponent loses makes it a win. What is left keeps a counter:
   its moves inside the class, plus one if a crowning step leads to a draw (it can never
   be a loss then). No moves at all, or only moves to opponent wins: a loss.
2. **Propagation**: each decided win or loss tells its predecessors inside the class (the
   positions one step of the other side before it, found by stepping pieces *back*): a
   loss makes every predecessor a win; a win counts its predecessor's counter down, and a
   predecessor whose every move leads to an opponent win is a loss.
3. What is never decided is a **draw**: from there neither side can force anything.

A class and its colour twin have the same values (see :mod:`.egdb`): only the first of the
two in the order is built; the second is probed through it.

This is the pure-Python twin of the C builder in ``_egdb.c`` (same index, same tables byte
for byte; a test compares them on the small classes). It generates moves with THE move
generator of :mod:`.position`, so the twins also cross-check the C move rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from tui_games.engine.checkers.bits import BLACK, STEP
from tui_games.engine.checkers.egdb import (
    DRAW,
    INVALID,
    LOSS,
    WIN,
    EndgameDB,
    PieceClass,
    _egdb,
    class_size,
    index_of,
    position_of,
)
from tui_games.engine.checkers.position import generate, play

__all__ = ["COMPILED", "Builder", "build_class_python"]

COMPILED = _egdb is not None

Progress = Callable[[int, int], None]
OPEN = 4
# Directions a piece came from when it stepped: a man from behind it, a king from anywhere.
_BACK = {(BLACK, False): (0, 1), (1, False): (2, 3), (BLACK, True): (0, 1, 2, 3), (1, True): (0, 1, 2, 3)}


def _pack(values: bytearray) -> bytearray:
    out = bytearray((len(values) + 3) // 4)
    for e, v in enumerate(values):
        if v:
            out[e >> 2] |= v << ((e & 3) << 1)
    return out


def build_class_python(db: EndgameDB, cls: PieceClass, progress: Progress | None = None) -> bytearray:
    """The packed table of ``cls`` (both sides to move); ``db`` holds every class it needs."""
    n = class_size(cls)
    entries = 2 * n
    val = bytearray(entries)
    count = bytearray(entries)
    queue: deque[int] = deque()
    positions: list[tuple[int, int, int] | None] = [position_of(cls, i) for i in range(n)]
    probe = db.probe_masks
    for e in range(entries):
        turn, i = divmod(e, n)
        pos = positions[i]
        if pos is None:
            val[e] = INVALID
            continue
        black, white, kings = pos
        moves = generate(black, white, kings, turn)
        if moves and moves[0].is_capture:
            best = LOSS
            for move in moves:
                child = probe(*play(black, white, kings, turn, move))
                if child is None:
                    raise LookupError(f"class {cls} needs a class that is not held")
                if child == LOSS:
                    best = WIN
                    break
                if child == DRAW:
                    best = DRAW
            val[e] = best
            if best != DRAW:
                queue.append(e)
            continue
        inside = draw_out = 0
        won = False
        for move in moves:
            if move.crowns:
                child = probe(*play(black, white, kings, turn, move))
                if child is None:
                    raise LookupError(f"class {cls} needs a class that is not held")
                if child == LOSS:
                    won = True
                    break
                draw_out |= child == DRAW
            else:
                inside += 1
        if won:
            val[e] = WIN
            queue.append(e)
        elif inside + draw_out == 0:
            val[e] = LOSS
            queue.append(e)
        else:
            val[e] = OPEN
            count[e] = inside + draw_out
        if progress is not None and e % 65536 == 0:
            progress(e, 2 * entries)
    done = 0
    while queue:
        e = queue.popleft()
        done += 1
        turn, i = divmod(e, n)
        black, white, kings = positions[i]  # type: ignore[misc]
        mover = turn ^ 1
        value = val[e]
        own = white if mover else black
        empty = ~(black | white)
        while own:
            low = own & -own
            own ^= low
            at = low.bit_length() - 1
            king = bool(kings & low)
            for d in _BACK[(mover, king)]:
                frm = STEP[d][at]
                if frm < 0 or not empty >> frm & 1:
                    continue
                delta = low | 1 << frm
                pb, pw = (black ^ delta, white) if mover == BLACK else (black, white ^ delta)
                q = mover * n + index_of(pb, pw, kings ^ delta if king else kings)
                if val[q] != OPEN:
                    continue
                if value == LOSS:
                    val[q] = WIN
                    queue.append(q)
                else:
                    count[q] -= 1
                    if count[q] == 0:
                        val[q] = LOSS
                        queue.append(q)
        if progress is not None and done % 65536 == 0:
            progress(entries + done, 2 * entries)
    for e in range(entries):
        if val[e] == OPEN:
            val[e] = DRAW
    if progress is not None:
        progress(2 * entries, 2 * entries)
    return _pack(val)


class Builder:
    """Builds classes in dependency order and holds the finished tables (for probing the
    next ones). ``compiled`` None uses the C builder when it was built."""

    def __init__(self, compiled: bool | None = None) -> None:
        self.db = EndgameDB(compiled=compiled)
        self.compiled = self.db.compiled_tables is not None

    def add(self, cls: PieceClass, table: bytes | bytearray | memoryview) -> None:
        """Hold a finished class (built now or read back from a file)."""
        self.db.add(cls, table)

    def build(self, cls: PieceClass, progress: Progress | None = None) -> bytearray:
        """The packed table of ``cls``, then held; every class it depends on (or their
        colour twins) must be held."""
        if self.db.compiled_tables is not None:
            table = self.db.compiled_tables.build(cls, progress)
        else:
            table = build_class_python(self.db, cls, progress)
        self.add(cls, table)
        return table
