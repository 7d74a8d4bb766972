"""Connect-4 evaluation functions, each from the side to move: ``fn(own, opp, mask) -> int``.

``own`` and ``opp`` are the bitboards of the side to move and of the other side, ``mask``
all discs (see :mod:`.bits`). A position's ``evaluate`` calls the function named by its
``heuristic`` attribute; ``HEURISTICS`` maps the names to the functions.

The two classic course functions score every one of the 69 four-cell *windows* (horizontal,
vertical and both diagonals) and add the scores up; how this module reads their rules:

``simple``
    +4 for a window holding four of our discs, +3 for three and an empty cell, +2 for two and
    two empty cells; minus the same for the opponent's windows. *Blocking*: a window holding
    three opponent discs and one of ours is a three we have blocked, +1; three of ours and
    one of theirs is one they have blocked, -1.

``aware``
    The same census with other weights, aware of gravity: 40 for a four; 17 for a three whose
    empty cell is playable now (the lowest empty cell of its column), 15 for a three whose
    empty cell still needs discs below it; 4 for a two (two empty cells); 2 for a single disc
    in an otherwise empty window; minus the same for the opponent; ±13 for a blocked three as
    in ``simple``.

``default`` (this project's)
    Threat-based. A *threat* is an empty cell that would complete a four. Late in a game the
    zugzwang decides which threats get filled: the first player profits from threats on the
    1st/3rd/5th rows from the bottom, the second player from threats on even rows, so a threat
    on one's own parity counts double. Two threats of one side stacked one above the other are
    nearly decisive (blocking the lower one hands over the upper one). Open twos and discs in
    the middle columns break ties early in the game, and completed fours (which only exist in
    the full-board variant) dominate everything else. All values stay far below
    ``search.WIN_BOUND`` and below the position's forced-win score.

The census is bit-parallel: for each direction the four discs of every window are added as
1-bit numbers with a small carry-save adder (``b0``/``b1``/``b2`` = the count's bits), so
one pass of about thirty integer operations scores all windows of that direction at once.
"""

from __future__ import annotations

from typing import Callable

from tui_games.engine.connect4.bits import (
    BOARD,
    BOTTOM,
    COLUMN_MASK,
    DIRECTIONS,
    EVEN_ROWS,
    ODD_ROWS,
    completing_cells,
)

Heuristic = Callable[[int, int, int], int]

# (direction, the lowest cell of every window along it that fits on the board): the sentinel
# row makes "all four cells on the board" a plain AND of shifted board masks.
_WINDOWS = tuple((s, BOARD & (BOARD >> s) & (BOARD >> 2 * s) & (BOARD >> 3 * s)) for s in DIRECTIONS)
WINDOW_COUNT = sum(valid.bit_count() for _, valid in _WINDOWS)  # 69

CENTRE = COLUMN_MASK[3]
NEAR_CENTRE = COLUMN_MASK[2] | COLUMN_MASK[4]


def census(own: int, opp: int, mask: int) -> tuple[int, ...]:
    """Window counts, indexed as below (``x`` = the side to move, ``y`` = the opponent):

    0-4   x: one disc, two, three with its empty cell playable, three not yet playable, four
          (the first three with the rest of the window empty)
    5-9   y: the same
    10    windows where x blocks y (three of y, one of x)
    11    windows where y blocks x (three of x, one of y)
    """
    nxt = (mask + BOTTOM) & BOARD
    x1 = x2 = x3p = x3u = x4 = y1 = y2 = y3p = y3u = y4 = xb = yb = 0
    for s, valid in _WINDOWS:
        s2, s3 = 2 * s, 3 * s
        # Carry-save count of x's discs in the window starting at each cell.
        a1, a2, a3 = own >> s, own >> s2, own >> s3
        p, q = own ^ a1, a2 ^ a3
        c, d = own & a1, a2 & a3
        xb0 = p ^ q
        xb1 = (p & q) ^ c ^ d
        xb2 = c & d
        x_any = own | a1 | a2 | a3
        b1, b2, b3 = opp >> s, opp >> s2, opp >> s3
        p, q = opp ^ b1, b2 ^ b3
        c, d = opp & b1, b2 & b3
        yb0 = p ^ q
        yb1 = (p & q) ^ c ^ d
        yb2 = c & d
        y_any = opp | b1 | b2 | b3

        x_only = valid & ~y_any
        y_only = valid & ~x_any
        x1 += (x_only & xb0 & ~xb1).bit_count()
        x2 += (x_only & xb1 & ~xb0).bit_count()
        x3 = x_only & xb1 & xb0
        x4 += (valid & xb2).bit_count()
        y1 += (y_only & yb0 & ~yb1).bit_count()
        y2 += (y_only & yb1 & ~yb0).bit_count()
        y3 = y_only & yb1 & yb0
        y4 += (valid & yb2).bit_count()
        if x3:
            # The one empty cell of a three is at the offset where x has no disc.
            hot = (x3 & ~own & nxt) | (x3 & ~a1 & (nxt >> s)) | (x3 & ~a2 & (nxt >> s2)) | (x3 & ~a3 & (nxt >> s3))
            n = hot.bit_count()
            x3p += n
            x3u += x3.bit_count() - n
        if y3:
            hot = (y3 & ~opp & nxt) | (y3 & ~b1 & (nxt >> s)) | (y3 & ~b2 & (nxt >> s2)) | (y3 & ~b3 & (nxt >> s3))
            n = hot.bit_count()
            y3p += n
            y3u += y3.bit_count() - n
        x_one = xb0 & ~xb1 & ~xb2
        y_one = yb0 & ~yb1 & ~yb2
        xb += (valid & x_one & yb0 & yb1).bit_count()
        yb += (valid & y_one & xb0 & xb1).bit_count()
    return (x1, x2, x3p, x3u, x4, y1, y2, y3p, y3u, y4, xb, yb)


def simple(own: int, opp: int, mask: int) -> int:
    """4/3/2 for our fours/threes/twos, minus the opponent's, ±1 per blocked three."""
    x1, x2, x3p, x3u, x4, y1, y2, y3p, y3u, y4, xb, yb = census(own, opp, mask)
    return 4 * (x4 - y4) + 3 * (x3p + x3u - y3p - y3u) + 2 * (x2 - y2) + (xb - yb)


def aware(own: int, opp: int, mask: int) -> int:
    """40 four, 17 playable three, 15 other three, 4 two, 2 one; minus the opponent's; ±13
    per blocked three."""
    x1, x2, x3p, x3u, x4, y1, y2, y3p, y3u, y4, xb, yb = census(own, opp, mask)
    return (40 * (x4 - y4) + 17 * (x3p - y3p) + 15 * (x3u - y3u) + 4 * (x2 - y2) + 2 * (x1 - y1)
            + 13 * (xb - yb))


# Weights of the default heuristic.
FOUR = 400
GOOD_THREAT = 40
OTHER_THREAT = 20
STACKED_THREATS = 150
OPEN_TWO = 4
CENTRE_DISC = 4
NEAR_CENTRE_DISC = 2


def default(own: int, opp: int, mask: int) -> int:
    """Threats by row parity, stacked threats, open twos, centre discs; fours dominate."""
    empty = BOARD & ~mask
    own_threats = completing_cells(own) & empty
    opp_threats = completing_cells(opp) & empty
    # Even disc count: the first player is to move, and odd rows are its good rows.
    if mask.bit_count() & 1:
        own_good, opp_good = EVEN_ROWS, ODD_ROWS
    else:
        own_good, opp_good = ODD_ROWS, EVEN_ROWS
    score = (GOOD_THREAT * (own_threats & own_good).bit_count()
             + OTHER_THREAT * (own_threats & ~own_good).bit_count()
             - GOOD_THREAT * (opp_threats & opp_good).bit_count()
             - OTHER_THREAT * (opp_threats & ~opp_good).bit_count())
    score += STACKED_THREATS * ((own_threats & (own_threats >> 1)).bit_count()
                                - (opp_threats & (opp_threats >> 1)).bit_count())
    x1, x2, x3p, x3u, x4, y1, y2, y3p, y3u, y4, xb, yb = census(own, opp, mask)
    score += OPEN_TWO * (x2 - y2)
    score += CENTRE_DISC * ((own & CENTRE).bit_count() - (opp & CENTRE).bit_count())
    score += NEAR_CENTRE_DISC * ((own & NEAR_CENTRE).bit_count() - (opp & NEAR_CENTRE).bit_count())
    # A window full of one side's discs is a four (a line of five is two windows, two fours).
    return score + FOUR * (x4 - y4)


HEURISTICS: dict[str, Heuristic] = {
    "default": default,
    "simple": simple,
    "aware": aware,
}

HEURISTIC_LABELS: dict[str, str] = {
    "default": "default (threats by row parity)",
    "simple": "simple (4/3/2, ±1 blocking)",
    "aware": "aware (40/17/15/4/2, ±13 blocking)",
}


def resolve_heuristic(name: str) -> str:
    """The registry name for ``name`` (any case); ValueError lists the choices."""
    key = name.strip().lower()
    if key not in HEURISTICS:
        raise ValueError(f"unknown heuristic {name!r}; choose one of {', '.join(HEURISTICS)}")
    return key
