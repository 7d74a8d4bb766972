"""The Connect-4 bitboard layout and its bit tricks (after Pascal Pons' ``Position.hpp``).

Each column takes 7 bits, bottom row first: bit ``7 * col + row``. The 7th bit of a column
is a sentinel row that no disc ever occupies, so a shift that walks off the top of one column
lands on an empty sentinel instead of the bottom of the next column; that is what lets a
four in a row be found with four shifts and no edge masks::

     6 13 20 27 34 41 48    <- sentinels, always 0
     5 12 19 26 33 40 47
     4 11 18 25 32 39 46
     3 10 17 24 31 38 45
     2  9 16 23 30 37 44
     1  8 15 22 29 36 43
     0  7 14 21 28 35 42    <- bottom row

A position is two masks: the discs of the side to move and all discs (``mask``).
``mask + BOTTOM`` adds one to every column's stack of ones, which carries into the lowest
empty cell of each column: the cells where a disc can be dropped.
"""

from __future__ import annotations

from typing import Iterator

COLUMNS = 7
ROWS = 6
STRIDE = ROWS + 1
CELLS = COLUMNS * ROWS

BOTTOM = sum(1 << (c * STRIDE) for c in range(COLUMNS))
BOARD = BOTTOM * ((1 << ROWS) - 1)
COLUMN_MASK = tuple(((1 << ROWS) - 1) << (c * STRIDE) for c in range(COLUMNS))
TOP_MASK = tuple(1 << (c * STRIDE + ROWS - 1) for c in range(COLUMNS))
BOTTOM_MASK = tuple(1 << (c * STRIDE) for c in range(COLUMNS))
# Cells in the 1st, 3rd and 5th rows from the bottom (row index 0, 2, 4): the first player's
# "odd" threats, which zugzwang at the end of a game tends to let that player fill.
ODD_ROWS = BOTTOM * 0b010101
EVEN_ROWS = BOTTOM * 0b101010

# Centre first: the middle column lies in the most fours.
CENTRE_ORDER = (3, 2, 4, 1, 5, 0, 6)

# Bit distance between neighbours on a line: vertical, horizontal, "\" (down-right), "/".
VERTICAL, HORIZONTAL, DOWN_RIGHT, UP_RIGHT = 1, STRIDE, STRIDE - 1, STRIDE + 1
DIRECTIONS = (VERTICAL, HORIZONTAL, DOWN_RIGHT, UP_RIGHT)


def bit(row: int, col: int) -> int:
    return 1 << (col * STRIDE + row)


def has_four(x: int) -> bool:
    """Four of ``x``'s discs in a line: pairs at distance s, then pairs of pairs at 2s."""
    for s in DIRECTIONS:
        m = x & (x >> s)
        if m & (m >> 2 * s):
            return True
    return False


def four_starts(x: int, s: int) -> int:
    """The lowest cell of every four of ``x`` along direction ``s`` (a line of five has two)."""
    return x & (x >> s) & (x >> 2 * s) & (x >> 3 * s)


def count_fours(x: int) -> int:
    """How many distinct fours ``x`` holds; a line of five counts two, of six three."""
    return sum(four_starts(x, s).bit_count() for s in DIRECTIONS)


def four_cells(x: int) -> int:
    """Every cell that belongs to one of ``x``'s fours."""
    cells = 0
    for s in DIRECTIONS:
        start = four_starts(x, s)
        cells |= start | (start << s) | (start << 2 * s) | (start << 3 * s)
    return cells


def completing_cells(x: int) -> int:
    """Cells of the board (empty or not) that would give ``x`` a four: Pons'
    ``compute_winning_position`` without the final mask. For each direction a cell wins if
    the three cells before it, after it, or around it on that line are ``x``'s."""
    # Vertical: only the three directly below can count (the cells above are empty).
    r = (x << 1) & (x << 2) & (x << 3)
    for s in (HORIZONTAL, DOWN_RIGHT, UP_RIGHT):
        p = (x << s) & (x << 2 * s)
        r |= p & ((x << 3 * s) | (x >> s))
        p = (x >> s) & (x >> 2 * s)
        r |= p & ((x << s) | (x >> 3 * s))
    return r & BOARD


def playable(mask: int) -> int:
    """The lowest empty cell of every column that is not full."""
    return (mask + BOTTOM) & BOARD


def cells(x: int) -> Iterator[tuple[int, int]]:
    """(row, col) of every set bit of ``x``, column by column, bottom up."""
    while x:
        low = x & -x
        index = low.bit_length() - 1
        yield index % STRIDE, index // STRIDE
        x ^= low


def mirror(x: int) -> int:
    """``x`` with the columns in reverse order (the board's mirror image)."""
    out = 0
    for c in range(COLUMNS):
        out |= ((x >> (c * STRIDE)) & ((1 << STRIDE) - 1)) << ((COLUMNS - 1 - c) * STRIDE)
    return out


def column_of(move_bit: int) -> int:
    return (move_bit.bit_length() - 1) // STRIDE
