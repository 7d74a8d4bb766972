"""The 12-ply opening book of ``bitbully-databases``, read in place.

The engine does no I/O: the app finds the file and maps it (:mod:`tui_games.data.connect4_book`),
and :meth:`OpeningBook.from_buffer` checks and searches those bytes where they lie (the book
is 21 MB; the package's own reader builds 4.2 million tuples: 1.9 s and 467 MB). Players
and solvers take an :class:`OpeningBook` object, or None to search without one.

The file (``book_12ply_distances.dat``), as established by experiment and checked on
open: records of 5 bytes, a big-endian signed 32-bit key then a signed 8-bit value, sorted
by key as signed integers. The key walks the columns left to right, each bottom to top:
``10`` for a first-player disc, ``11`` for a second-player disc, ``0`` to end the column,
then one ``0`` of padding; twelve discs make exactly 32 bits. Of a position and its mirror
image only one is stored (not always the smaller key, so both are tried). Every 12-disc
position in which the side to move cannot win at once is there; those where it can are not.

Values are for the first player, who is the side to move with twelve discs: 0 a draw; odd
``v`` in 71..97 a win, Pons score ``(v - 69) / 2``; even ``v`` in -70..-98 a loss, Pons score
``(v + 68) / 2`` (BitBully's ``100 - |v|`` is the number of plies to the end).

With the book comes a table of the positions with at most four discs
(:mod:`.opening_scores`), derived from it by ``scripts/connect4_opening_scores.py``: the
search from those to the 12-disc frontier is the slowest part of an opening.
"""

from __future__ import annotations

import mmap
import struct
from typing import Union

from tui_games.engine.connect4.bits import COLUMNS, ROWS, STRIDE, mirror
from tui_games.engine.connect4.opening_scores import SCORES, SHALLOW_DISCS

BOOK_DISCS = 12
RECORD = 5
# The package's own count for this file (``get_book_size``): a file of another size is
# either damaged or a different edition, and is refused rather than trusted.
EXPECTED_RECORDS = 4_200_899

# The file's bytes: read whole, or mapped by the app (mmap, read-only).
Buffer = Union[bytes, mmap.mmap]

_KEY = struct.Struct(">i")
_COLUMN_BITS = (1 << STRIDE) - 1

# The package documents these two 12-disc positions and their values (the move strings
# reach its example boards); a file that does not give them is not the book we know.
KNOWN_VALUES = (("422446622446", 71), ("344323243647", -88))
# Keys are checked for order at this many evenly spaced records when the book is taken in.
ORDER_SAMPLES = 256
# Lookups start from the range of records that share the key's top 10 bits (see _bucket).
BUCKET_SHIFT = 22


class BookError(Exception):
    """The book file is missing, unreadable or not in the expected format (one line)."""


def _column_codes() -> list[tuple[int, int]]:
    """(code, length) of one column's part of the key, indexed by ``first + mask`` of that
    column (the first player's discs plus all discs, 7 bits): the sum sets the bit above the
    top disc, so it tells the height and who holds each cell, like Pons' position key."""
    codes = [(0, 0)] * (1 << STRIDE)
    for height in range(ROWS + 1):
        filled = (1 << height) - 1
        for first in range(1 << height):
            code = 0
            for row in range(height):
                code = code << 2 | (0b10 if first >> row & 1 else 0b11)
            codes[first + filled] = (code << 1, 2 * height + 1)
    return codes


_CODES = _column_codes()


def book_key(first: int, mask: int, mirror: bool = False) -> int:
    """The book's key of the position whose first player holds ``first`` of the discs
    ``mask`` (a signed 32-bit value for twelve discs), of its mirror image if ``mirror``."""
    x = first + mask
    key = 0
    columns = range(COLUMNS - 1, -1, -1) if mirror else range(COLUMNS)
    for col in columns:
        code, length = _CODES[(x >> (col * STRIDE)) & _COLUMN_BITS]
        key = key << length | code
    key <<= 1
    return key - (1 << 32) if key >= 1 << 31 else key


def to_score(value: int) -> int | None:
    """A stored value as Pons' score for the first player (None if it is not a book value)."""
    if value == 0:
        return 0
    if 71 <= value <= 97 and value % 2:
        return (value - 69) // 2
    if -98 <= value <= -70 and not value % 2:
        return (value + 68) // 2
    return None


class OpeningBook:
    """The memory-mapped book: :meth:`score` of a 12-disc position for the side to move.

    Opening maps the file and checks its size, the order of keys at a few hundred records
    and two documented values; it reads nothing else, so the memory used is the pages that
    lookups touch. A lookup is one binary search per mirror image (22 steps).
    """

    discs = BOOK_DISCS

    def __init__(self, data: Buffer, source: str, *, shallow: bool = True) -> None:
        self.data = data
        self.source = source  # where the bytes came from, for messages (a path)
        self.count = len(data) // RECORD
        # The scores of the first few plies, derived from this book once and for all
        # (scripts/connect4_opening_scores.py): the search from them to the 12-disc
        # frontier is the slowest part of an opening.
        self.shallow_discs = SHALLOW_DISCS if shallow else -1
        self.shallow_scores = SCORES if shallow else {}
        self._buckets: dict[int, tuple[int, int]] = {}

    @classmethod
    def from_buffer(cls, data: Buffer, source: str, *, shallow: bool = True) -> "OpeningBook":
        """The book in ``data`` (the file's bytes, mapped or read by the caller; ``source``
        names them in messages); BookError (one line) if they cannot be the book.
        ``shallow=False`` leaves out the derived scores of the first plies."""
        size = len(data)
        if size != EXPECTED_RECORDS * RECORD:
            raise BookError(f"opening book {source!r} has {size:,} bytes, expected "
                            f"{EXPECTED_RECORDS * RECORD:,} ({EXPECTED_RECORDS:,} records of {RECORD})")
        book = cls(data, source, shallow=shallow)
        book._check()
        return book

    def _check(self) -> None:
        last = None
        step = max(1, (self.count - 1) // ORDER_SAMPLES)
        for index in [*range(0, self.count, step), self.count - 1]:
            key = _KEY.unpack_from(self.data, index * RECORD)[0]
            value = self._value_at(index)
            if (last is not None and key < last) or to_score(value) is None:
                raise BookError(f"opening book {self.source!r} is damaged (record {index:,})")
            last = key
        # The documented values, without the position module (it would import this one).
        for moves, expected in KNOWN_VALUES:
            first, mask = _play(moves)
            if self.value(first, mask) != expected:
                raise BookError(f"opening book {self.source!r} is damaged "
                                f"(position {moves} does not have its documented value)")


    def _value_at(self, index: int) -> int:
        value = self.data[index * RECORD + 4]
        return value - 256 if value > 127 else value

    def _lower_bound(self, key: int, lo: int, hi: int) -> int:
        """The first record in ``[lo, hi)`` whose key is at least ``key``."""
        data, unpack = self.data, _KEY.unpack_from
        while lo < hi:
            mid = (lo + hi) >> 1
            if unpack(data, mid * RECORD)[0] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo

    def _bucket(self, top: int) -> tuple[int, int]:
        """The records whose keys start with the bits ``top`` (cached: after a few thousand
        lookups most searches start from a range of a few thousand records, 10 fewer steps)."""
        found = self._buckets.get(top)
        if found is None:
            lo = self._lower_bound(top << BUCKET_SHIFT, 0, self.count)
            found = self._buckets[top] = (lo, self._lower_bound((top + 1) << BUCKET_SHIFT, lo, self.count))
        return found

    def _find(self, key: int) -> int | None:
        data, unpack = self.data, _KEY.unpack_from
        lo, hi = self._bucket(key >> BUCKET_SHIFT)
        while lo < hi:
            mid = (lo + hi) >> 1
            k = unpack(data, mid * RECORD)[0]
            if k < key:
                lo = mid + 1
            elif k > key:
                hi = mid
            else:
                return self._value_at(mid)
        return None

    def value(self, first: int, mask: int) -> int | None:
        """The stored value of the position (first player's discs ``first``, all discs
        ``mask``) or of its mirror image; None if neither is stored."""
        value = self._find(book_key(first, mask))
        if value is None:
            value = self._find(book_key(first, mask, mirror=True))
        return value

    def score(self, current: int, mask: int) -> int | None:
        """Pons' score for the side to move (who holds ``current``) of a position with
        exactly twelve discs, or None when the book does not hold it: the side to move can
        win at once, or a damaged record (the caller then searches as without a book)."""
        # With twelve discs the side to move is the first player, whose values these are.
        value = self.value(current, mask)
        return None if value is None else to_score(value)

    def exact(self, current: int, mask: int, discs: int) -> int | None:
        """Pons' score for the side to move if the book knows it: a position with 12 discs
        (from the file) or with at most :data:`SHALLOW_DISCS` (the derived table); else None."""
        if discs == BOOK_DISCS:
            return self.score(current, mask)
        if discs <= self.shallow_discs:
            key = current + mask
            found = self.shallow_scores.get(key)
            if found is None:
                found = self.shallow_scores.get(mirror(current) + mirror(mask))
            return found
        return None


def _play(moves: str) -> tuple[int, int]:
    """(first player's discs, all discs) after ``moves``, 1-based columns (no rule checks:
    for the module's own known positions)."""
    first = mask = 0
    for i, ch in enumerate(moves):
        col = int(ch) - 1
        height = ((mask >> (col * STRIDE)) & _COLUMN_BITS).bit_length()
        cell = 1 << (col * STRIDE + height)
        mask |= cell
        if i % 2 == 0:
            first |= cell
    return first, mask
