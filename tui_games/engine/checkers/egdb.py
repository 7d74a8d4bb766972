"""Endgame databases: win/loss/draw for every position of few pieces, and their index.

The positions are split into **piece classes** — the numbers of Black men, Black kings,
White men and White kings, written ``(bm, bk, wm, wk)`` — and each class into two halves,
Black to move then White to move. Within a half a position's index is a mixed-radix number
whose digits are, most significant first:

- the Black men, ranked as a combination (colexicographic) of square indices 0–27 — a Black
  man never stands on its crowning row 29–32, so 28 squares;
- the White men, likewise over their 28 squares, mirrored (index ``31 - i``) so that for
  both colours the most advanced man carries the highest digit;
- the Black kings, ranked among the ``32 - men`` squares the men leave free;
- the White kings, ranked among the squares left after that.

Colexicographic ranks grow with the highest element first, so the index runs through a
class grouped by the square — hence the rank — of each side's leading man, the order in
which the field subdivides its databases (a man only moves forward, so a position depends
only on its own and more advanced leading ranks). A Black and a White man may be given the
same square by the first two digits; those indexes are not positions and are stored as
:data:`INVALID` (a few per cent of the big classes, which keeps the index a plain product).

A class and its **colour twin** — Black's men and kings as White's, ``(wm, wk, bm, bk)`` —
hold the same positions with the board turned round (square ``s`` as ``33 - s``), the
colours swapped and the other side to move, with the same values. Only one of the two is
stored, the first in :func:`class_order` (:func:`stored_class`); a probe of the other turns
the position round.

Values are two bits per index, four to a byte, lowest bits first: :data:`INVALID` 0,
:data:`WIN` 1, :data:`LOSS` 2, :data:`DRAW` 3, always for the side to move. They are the
game-theoretic values with perfect play: the 40-move rule and repetitions are not rules of
the database (as in every published checkers database); a "draw" means neither side can
force a win.

Nothing here reads files: the store/CLI layer opens the tables and hands them to
:class:`EndgameDB` as buffers (bytes, mmap), see ``tui_games.data.checkers_db``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from math import comb
from typing import Protocol

from tui_games.engine.checkers.bits import BLACK, COLOUR_NAMES, CROWN_ROW, FULL

try:  # the compiled probe and builder, when the extension was built
    # `as _egdb`: re-exported for egdb_build, which shares this import.
    from tui_games.engine.checkers import _egdb as _egdb
except ImportError:  # pragma: no cover - depends on the build
    _egdb = None  # type: ignore[assignment]  # no extension: the checks below test for None

__all__ = [
    "DRAW",
    "INVALID",
    "LOSS",
    "NEGATE",
    "RESULT_NAMES",
    "WIN",
    "EndgameDB",
    "PieceClass",
    "class_of",
    "class_order",
    "class_size",
    "classes_with",
    "index_of",
    "position_count",
    "position_of",
    "stored_class",
    "table_bytes",
    "twin",
    "value_at",
    "value_note",
]

INVALID, WIN, LOSS, DRAW = 0, 1, 2, 3
RESULT_NAMES = {WIN: "win", LOSS: "loss", DRAW: "draw"}
# The value for the other side: a win for one is a loss for the other.
NEGATE = (INVALID, LOSS, WIN, DRAW)

MAN_SQUARES = 28

PieceClass = tuple[int, int, int, int]  # Black men, Black kings, White men, White kings


class Masks(Protocol):
    """What a probe reads of a position (``CheckersPosition`` has it)."""

    black: int
    white: int
    kings: int
    turn: int


def _mirror(mask: int) -> int:
    """Square index i -> 31 - i (the board turned round): White's men as Black's."""
    return int(f"{mask:032b}"[::-1], 2)


def _colex(indexes: Iterator[int] | list[int]) -> int:
    return sum(comb(i, k) for k, i in enumerate(indexes, 1))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _squeezed(mask: int, occupied: int) -> list[int]:
    """The indexes of ``mask`` counted among the squares ``occupied`` leaves free."""
    return [i - (occupied & ((1 << i) - 1)).bit_count() for i in _bits(mask)]


def _uncolex(rank: int, k: int) -> list[int]:
    """The k indexes whose colexicographic rank is ``rank``, increasing."""
    out = []
    for j in range(k, 0, -1):
        i = j - 1
        while comb(i + 1, j) <= rank:
            i += 1
        out.append(i)
        rank -= comb(i, j)
    return out[::-1]


def _unsqueeze(indexes: list[int], occupied: int) -> int:
    free = [i for i in range(32) if not occupied >> i & 1]
    mask = 0
    for i in indexes:
        mask |= 1 << free[i]
    return mask


def radices(cls: PieceClass) -> tuple[int, int, int, int]:
    """The sizes of the four digits of a class's index (see the module doc)."""
    bm, bk, wm, wk = cls
    free = 32 - bm - wm
    return comb(MAN_SQUARES, bm), comb(MAN_SQUARES, wm), comb(free, bk), comb(free - bk, wk)


def class_size(cls: PieceClass) -> int:
    """Indexes per side to move (positions plus the INVALID men overlaps)."""
    a, b, c, d = radices(cls)
    return a * b * c * d


def table_bytes(cls: PieceClass) -> int:
    """Bytes of a class's table: both sides to move, two bits each."""
    return (2 * class_size(cls) + 3) // 4


def class_of(black: int, white: int, kings: int) -> PieceClass:
    return ((black & ~kings).bit_count(), (black & kings).bit_count(),
            (white & ~kings).bit_count(), (white & kings).bit_count())


def index_of(black: int, white: int, kings: int) -> int:
    """The index of a position within its class's half (the side to move picks the half)."""
    bm, bk, wm, wk = class_of(black, white, kings)
    bmen, wmen = black & ~kings, white & ~kings
    men = bmen | wmen
    r_bm, r_wm, r_bk, r_wk = radices((bm, bk, wm, wk))
    i_bm = _colex(_bits(bmen))
    i_wm = _colex(_bits(_mirror(wmen)))
    i_bk = _colex(_squeezed(black & kings, men))
    i_wk = _colex(_squeezed(white & kings, men | (black & kings)))
    return ((i_bm * r_wm + i_wm) * r_bk + i_bk) * r_wk + i_wk


def position_of(cls: PieceClass, index: int) -> tuple[int, int, int] | None:
    """(black, white, kings) at ``index`` of a class's half; None for an INVALID index."""
    bm, bk, wm, wk = cls
    _, r_wm, r_bk, r_wk = radices(cls)
    index, i_wk = divmod(index, r_wk)
    index, i_bk = divmod(index, r_bk)
    i_bm, i_wm = divmod(index, r_wm)
    bmen = sum(1 << i for i in _uncolex(i_bm, bm))
    wmen = _mirror(sum(1 << i for i in _uncolex(i_wm, wm)))
    if bmen & wmen:
        return None
    men = bmen | wmen
    bkings = _unsqueeze(_uncolex(i_bk, bk), men)
    wkings = _unsqueeze(_uncolex(i_wk, wk), men | bkings)
    return bmen | bkings, wmen | wkings, bkings | wkings


def position_count(cls: PieceClass) -> int:
    """Positions of a class with one side to move, counted without the index: the ways to
    place the men without overlap, times the ways to place the kings on what is left."""
    bm, bk, wm, wk = cls
    total = 0
    # j Black men on the 24 squares both colours' men may use (5–28), bm - j on Black's own
    # first row 1–4, which White men may not use; White's men then avoid those j squares.
    for j in range(bm + 1):
        black_ways = comb(24, j) * comb(4, bm - j)
        white_ways = comb(MAN_SQUARES - j, wm)
        total += black_ways * white_ways
    free = 32 - bm - wm
    return total * comb(free, bk) * comb(free - bk, wk)


def classes_with(pieces: int) -> list[PieceClass]:
    """Every class of exactly ``pieces`` pieces with at least one on each side."""
    out = []
    for black in range(1, pieces):
        white = pieces - black
        for bm in range(black + 1):
            for wm in range(white + 1):
                out.append((bm, black - bm, wm, white - wm))
    return out


def twin(cls: PieceClass) -> PieceClass:
    """The class with the colours swapped."""
    bm, bk, wm, wk = cls
    return wm, wk, bm, bk


def stored_class(cls: PieceClass) -> PieceClass:
    """The one of a class and its twin that has a table (the first of the two in
    :func:`class_order`, which orders classes of equal men by the tuple)."""
    return min(cls, twin(cls))


def class_order(pieces: int) -> list[PieceClass]:
    """Every class of 2..``pieces`` pieces in an order where each class comes after those it
    depends on: fewer pieces first (a capture removes one), then fewer men (a man crowned
    turns a class into one with a man fewer and a king more)."""
    return [cls for n in range(2, pieces + 1) for cls in sorted(classes_with(n), key=lambda c: (c[0] + c[2], c))]


def value_note(value: int, turn: int) -> str:
    """``"database: win for Black"``: a probe's value (WIN/LOSS/DRAW) for the side ``turn``."""
    return f"database: {RESULT_NAMES[value]} for {COLOUR_NAMES[turn]}"


def value_at(table: bytes | bytearray | memoryview, entry: int) -> int:
    return table[entry >> 2] >> ((entry & 3) << 1) & 3


class EndgameDB:
    """Win/loss/draw for the positions of the classes it holds (``tables``: class -> the
    packed table, both halves) and of their colour twins. ``probe`` is cheap enough for a search's leaves: about
    0.3 µs through the compiled probe, 5 µs in pure Python (``compiled=False``, or where
    the extension was not built). The tables are read, never copied or changed."""

    def __init__(self, tables: Mapping[PieceClass, bytes | bytearray | memoryview] | None = None, *,
                 compiled: bool | None = None) -> None:
        if compiled and _egdb is None:
            raise RuntimeError("the compiled endgame module (_egdb) is not built")
        use_c = _egdb is not None if compiled is None else compiled
        # The C side holds the same buffers: probe, build and capsule go through it.
        self.compiled_tables = _egdb.Tables() if use_c else None
        self.tables: dict[PieceClass, bytes | bytearray | memoryview] = {}
        for cls, table in (tables or {}).items():
            self.add(cls, table)

    def add(self, cls: PieceClass, table: bytes | bytearray | memoryview) -> None:
        if len(table) != table_bytes(cls):
            raise ValueError(f"table of class {cls}: {len(table)} bytes, expected {table_bytes(cls)}")
        self.tables[cls] = table
        if self.compiled_tables is not None:
            self.compiled_tables.add(cls, table)

    def capsule(self) -> object | None:
        """For a compiled search: a PyCapsule named ``tui_games.engine.checkers._egdb.probe``
        holding ``struct { int (*probe)(void *self, uint32_t black, uint32_t white,
        uint32_t kings, int turn); void *self; }`` (0 not covered, 1 win, 2 loss, 3 draw for
        the side to move); valid while this object lives. None without the extension."""
        return None if self.compiled_tables is None else self.compiled_tables.capsule()

    @property
    def pieces(self) -> int:
        """The most pieces N such that every position of N pieces or fewer is covered (0: none)."""
        n = 2
        while all(cls in self for cls in classes_with(n)):
            n += 1
        return n - 1 if n > 2 else 0

    def __contains__(self, cls: object) -> bool:
        """The class, or its colour twin, is held."""
        return cls in self.tables or (isinstance(cls, tuple) and len(cls) == 4 and twin(cls) in self.tables)

    def probe_masks(self, black: int, white: int, kings: int, turn: int) -> int | None:
        """WIN, LOSS or DRAW for the side to move, or None when the class is not held."""
        if self.compiled_tables is not None:
            if (black | white | kings) >> 32 or black < 0 or white < 0 or kings < 0:
                return None
            return self.compiled_tables.probe(black, white, kings, turn) or None
        return self.probe_python(black, white, kings, turn)

    def probe_python(self, black: int, white: int, kings: int, turn: int) -> int | None:
        """:meth:`probe_masks` in pure Python (the compiled probe's twin)."""
        own, other = (black, white) if turn == BLACK else (white, black)
        if not own:
            return LOSS
        if not other:
            return WIN
        if (black & ~kings & CROWN_ROW[BLACK]) or (white & ~kings & CROWN_ROW[1]) or (black & white) \
                or (black | white) & ~FULL:
            return None
        cls = class_of(black, white, kings)
        table = self.tables.get(cls)
        if table is None:
            table = self.tables.get(twin(cls))
            if table is None:
                return None
            # The twin's position: the board turned round, colours swapped, the other to move.
            black, white, kings, turn = _mirror(white), _mirror(black), _mirror(kings), 1 - turn
            cls = twin(cls)
        value = value_at(table, turn * class_size(cls) + index_of(black, white, kings))
        return None if value == INVALID else value

    def probe(self, position: Masks) -> int | None:
        """The value of a position for its side to move: WIN, LOSS, DRAW, or None when it is
        not covered."""
        return self.probe_masks(position.black, position.white, position.kings, position.turn)
