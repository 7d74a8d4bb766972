"""The checkers board as 32-bit masks: square numbering, neighbour tables, shift masks.

The 32 playable squares carry the standard numbers 1–32; square ``s`` is bit ``s - 1``.
Row 0 is at the top of the usual diagram (Black's side), row 7 at the bottom (White's)::

        col: 0  1  2  3  4  5  6  7
    row 0:      1     2     3     4         Black starts on 1–12 and moves down,
    row 1:   5     6     7     8            towards the higher numbers;
    row 2:      9    10    11    12         White starts on 21–32 and moves up.
    row 3:  13    14    15    16
    row 4:     17    18    19    20
    row 5:  21    22    23    24
    row 6:     25    26    27    28
    row 7:  29    30    31    32

On an even row the squares sit in the odd columns, on an odd row in the even ones. A
diagonal step therefore changes the bit index by 3, 4 or 5 depending on the row's parity,
and a jump by 7 or 9 whatever the row: each direction is two shifts under two masks
(:data:`STEP_SHIFTS`), which is how the move generator finds every man's moves at once.
"""

from __future__ import annotations

from collections.abc import Iterator

SQUARES = 32
FULL = (1 << SQUARES) - 1

# Directions on the diagram: up-left, up-right, down-left, down-right.
UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT = range(4)
DIRECTIONS = (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)
_DELTAS = {UP_LEFT: (-1, -1), UP_RIGHT: (-1, 1), DOWN_LEFT: (1, -1), DOWN_RIGHT: (1, 1)}
# Forward for each colour: Black (0) moves down the diagram, White (1) up.
FORWARD = ((DOWN_LEFT, DOWN_RIGHT), (UP_LEFT, UP_RIGHT))

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("Black", "White")


def square_of(row: int, col: int) -> int | None:
    """The square number (1–32) at ``row``, ``col`` (0–7), or None on a light square."""
    if not (0 <= row < 8 and 0 <= col < 8) or (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def row_col(square: int) -> tuple[int, int]:
    """The (row, col) of ``square`` on the diagram (row 0 at the top, Black's side)."""
    index = square - 1
    row, j = divmod(index, 4)
    return row, 2 * j + (1 if row % 2 == 0 else 0)


def bit(square: int) -> int:
    return 1 << (square - 1)


def squares_of(mask: int) -> Iterator[int]:
    """The square numbers of the set bits of ``mask``, in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


def _step(index: int, direction: int) -> int | None:
    row, col = row_col(index + 1)
    dr, dc = _DELTAS[direction]
    sq = square_of(row + dr, col + dc)
    return None if sq is None else sq - 1


# STEP[d][i]: the index one diagonal step from index i in direction d, or -1 off the board.
STEP: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if (t := _step(i, d)) is None else t for i in range(SQUARES)) for d in DIRECTIONS
)
# JUMP[d][i]: (over, landing) indices of a jump from i in direction d, or None.
JUMP: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    tuple(
        (STEP[d][i], STEP[d][STEP[d][i]]) if STEP[d][i] >= 0 and STEP[d][STEP[d][i]] >= 0 else None
        for i in range(SQUARES)
    )
    for d in DIRECTIONS
)


def _shift_masks(direction: int) -> tuple[tuple[int, int], ...]:
    """((shift, mask), ...): the squares whose step in ``direction`` moves the bit index by
    ``shift``. Two entries per direction (one per row parity)."""
    by_shift: dict[int, int] = {}
    for i in range(SQUARES):
        t = STEP[direction][i]
        if t >= 0:
            by_shift[t - i] = by_shift.get(t - i, 0) | (1 << i)
    return tuple(sorted(by_shift.items()))


STEP_SHIFTS = tuple(_shift_masks(d) for d in DIRECTIONS)


def step_mask(mask: int, direction: int) -> int:
    """Every square one step from a square of ``mask`` in ``direction`` (slow, for tables
    and tests; the generator inlines the shifts)."""
    out = 0
    for shift, m in STEP_SHIFTS[direction]:
        out |= (mask & m) << shift if shift > 0 else (mask & m) >> -shift
    return out


def distance(a: int, b: int) -> int:
    """King steps between squares ``a`` and ``b`` (1–32) on an empty board."""
    ra, ca = row_col(a)
    rb, cb = row_col(b)
    return max(abs(ra - rb), abs(ca - cb))


# Rows as masks, and the crowning row of each colour (Black crowns on row 7, White on row 0).
ROW_MASK = tuple(0xF << (4 * r) for r in range(8))
CROWN_ROW = (ROW_MASK[7], ROW_MASK[0])
# Each colour's back rank (the row it starts on and guards against crowning).
BACK_ROW = (ROW_MASK[0], ROW_MASK[7])
START_BLACK = sum(bit(s) for s in range(1, 13))
START_WHITE = sum(bit(s) for s in range(21, 33))
