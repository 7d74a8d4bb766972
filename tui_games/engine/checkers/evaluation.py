"""Static evaluation of checkers positions, from the side to move, in hundredths of a man.

:func:`evaluate` (the engine's, ``"default"``) adds up, for Black minus White:

- **material**: a man 100, a king :data:`KING` (a king moves both ways, so it is worth more);
- **square tables**: what a man or a king is worth on each square (:data:`MAN_SQUARES`,
  :data:`KING_SQUARES`, from Black's side; turned round for White);
- **advancement**: men past the middle of the board, more on the row before crowning; in
  the endgame every row forward counts (new kings decide endgames);
- **back-rank guard**: men still on the two back squares that stop the opponent crowning
  (1 and 3 for Black, 30 and 32 for White), while the opponent has men to crown;
- **centre control**: pieces on the four central squares 14, 15, 18, 19;
- **mobility**: squares the side's pieces can step to;
- **runaway men**: a man with no enemy piece in the cone ahead of it, and no enemy king to
  come back for it, will crown (worth less than the crowning itself, so crowning gains);
- **endgame** (from :data:`ENDGAME_PIECES` pieces down): the side ahead gains for each
  piece traded off (trading down wins), its kings gain for closing in on the enemy pieces
  (kings must chase), kings stay off the edges, and a king of the side behind gains in a
  double corner (its drawing refuge), which the side ahead must work to break.

:func:`material` counts material only (the baseline player of the engine match).
Both take the masks and the side to move and return an int well inside ``search.WIN``.

The weights are one vector (:data:`WEIGHT_NAMES`, :data:`DEFAULT_WEIGHTS`):
:func:`make_evaluator` builds the evaluation for any vector, and the compiled search core
(``_ckcore.c``) takes the same vector, so both compute the same numbers. The defaults
were tuned on the engine's own games (see the comment above :data:`GUARD`).
"""

from __future__ import annotations

from collections.abc import Callable

from tui_games.engine.checkers.bits import (
    BLACK,
    FORWARD,
    ROW_MASK,
    STEP,
    STEP_SHIFTS,
    bit,
    distance,
)

Evaluator = Callable[[int, int, int, int], int]

MAN = 100
KING = 140
# The material-only baseline values a king a little higher (a common choice: 1.5 men).
MATERIAL_KING = 150

# The weights below were tuned by Texel's method (scripts/checkers_tune.py) on 43,246 quiet
# positions of 412 games of the engine against itself (10,000 nodes a move, from the
# standard three-move ballots, seed 1), starting from hand-set values (in brackets): the
# held-out error fell from 0.0422 to 0.0368, and 200 games old against new are in
# docs/games/checkers.md. The man (100) is the unit and the king was not moved.
GUARD = 27  # (15)
CENTRE = -2  # (6): the square tables below say where the centre pays
ADVANCE_MID = -19  # (3) black men on rows 4-5 (white: rows 3-2), with the square tables
ADVANCE_LATE = 10  # (8) row 6 (white: row 1)
# In the endgame every row forward counts (rows from the man's own back rank, 0-6).
ENDGAME_ROWS = (-2, 2, 6, 14, 5, 6, 16)  # (0, 0, 2, 4, 7, 10, 14)
MOBILITY = 2
# Less than a king's worth over a man, with the advancement: crowning must always gain.
RUNAWAY = 19  # (25)
ENDGAME_PIECES = 10  # (12)
TRADE_DOWN = 2  # per piece gone from the board, per man of lead
CHASE = 4
EDGE_KING = 2  # (6)
DOUBLE_CORNER = 6  # (12)

_CENTRE = bit(14) | bit(15) | bit(18) | bit(19)
_BLACK_GUARD = bit(1) | bit(3)
_WHITE_GUARD = bit(30) | bit(32)
_BLACK_MID = ROW_MASK[4] | ROW_MASK[5]
_BLACK_LATE = ROW_MASK[6]
_WHITE_MID = ROW_MASK[3] | ROW_MASK[2]
_WHITE_LATE = ROW_MASK[1]
# (weight, black men's row, white men's row) for the endgame advancement.
_ENDGAME_ROW_MASKS = tuple((w, ROW_MASK[r], ROW_MASK[7 - r]) for r, w in enumerate(ENDGAME_ROWS) if w)
_EDGE = sum(bit(s) for s in (1, 2, 3, 4, 5, 12, 13, 20, 21, 28, 29, 30, 31, 32))
# The double corners: 1 and 5 (Black's side), 28 and 32 (White's side).
_DOUBLE_CORNERS = bit(1) | bit(5) | bit(28) | bit(32)


def _cone(index: int, directions: tuple[int, ...]) -> int:
    """The squares a man on ``index`` could reach moving forward (excluding its own)."""
    out = 0
    frontier = [index]
    while frontier:
        nxt = []
        for i in frontier:
            for d in directions:
                t = STEP[d][i]
                if t >= 0 and not out >> t & 1:
                    out |= 1 << t
                    nxt.append(t)
        frontier = nxt
    return out


# CONE[colour][index]: the squares ahead of a man of that colour.
CONE = tuple(tuple(_cone(i, FORWARD[colour]) for i in range(32)) for colour in (0, 1))
# Men close enough to the crowning row for the runaway test (two rows or less to go).
_BLACK_RUN_ROWS = ROW_MASK[5] | ROW_MASK[6]
_WHITE_RUN_ROWS = ROW_MASK[2] | ROW_MASK[1]
# DIST[a][b] on bit indices.
DIST = tuple(tuple(distance(a + 1, b + 1) for b in range(32)) for a in range(32))



def _merged_shifts(directions: tuple[int, ...]) -> dict[int, int]:
    """shift -> mask of the squares whose step in one of ``directions`` moves the bit index
    by ``shift`` (the two forward directions share the shift 4)."""
    out: dict[int, int] = {}
    for d in directions:
        for shift, mask in STEP_SHIFTS[d]:
            out[shift] = out.get(shift, 0) | mask
    return out


_DOWN = _merged_shifts(FORWARD[0])
_UP = _merged_shifts(FORWARD[1])
D3, D4, D5 = _DOWN[3], _DOWN[4], _DOWN[5]
U3, U4, U5 = _UP[-3], _UP[-4], _UP[-5]


def material(black: int, white: int, kings: int, turn: int) -> int:
    """Material only: men 100, kings 150, from the side to move."""
    bk = (black & kings).bit_count()
    wk = (white & kings).bit_count()
    score = MAN * (black.bit_count() - bk - white.bit_count() + wk) + MATERIAL_KING * (bk - wk)
    return score if turn == BLACK else -score


# The weights in the order the compiled core takes them (its W_* enum): evaluate's terms.
WEIGHT_NAMES = (
    "man", "king", "guard", "centre", "advance_mid", "advance_late",
    "endgame_row0", "endgame_row1", "endgame_row2", "endgame_row3", "endgame_row4", "endgame_row5",
    "endgame_row6", "mobility", "runaway", "trade_down", "chase", "edge_king", "double_corner",
    "endgame_pieces",
    *(f"man_on_{s}" for s in range(1, 33)),
    *(f"king_on_{s}" for s in range(1, 33)),
)
# The square tables (a man's or king's worth on each square 1-32, from Black's side: a
# White piece on square s counts as a Black one on 33 - s), tuned from zero as above.
MAN_SQUARES = (-8, 34, 12, 4, 4, 8, 18, 4, 0, 2, 4, 10, 0, -8, 4, -6,
               0, 12, 8, 8, 0, 16, 8, 10, 6, 10, 16, -18, 0, 0, 0, 0)
KING_SQUARES = (14, -8, -24, 8, 26, 2, -6, -14, 6, 0, -6, 12, 0, 6, 2, 0,
                -4, 6, 8, 12, 0, 4, 2, 0, -4, 0, 2, 2, -20, -6, 4, 0)
DEFAULT_WEIGHTS: tuple[int, ...] = (
    MAN, KING, GUARD, CENTRE, ADVANCE_MID, ADVANCE_LATE, *ENDGAME_ROWS, MOBILITY, RUNAWAY, TRADE_DOWN, CHASE,
    EDGE_KING, DOUBLE_CORNER, ENDGAME_PIECES, *MAN_SQUARES, *KING_SQUARES,
)

# Material only, as a weight vector (men 100, kings 150; no endgame terms).
MATERIAL_WEIGHTS: tuple[int, ...] = (MAN, MATERIAL_KING, *(0,) * (len(WEIGHT_NAMES) - 2))


def make_evaluator(weights: tuple[int, ...] = DEFAULT_WEIGHTS) -> Evaluator:
    """The engine's evaluation with these weights (see the module doc and WEIGHT_NAMES)."""
    if len(weights) != len(WEIGHT_NAMES) or weights[0] <= 0:
        raise ValueError(f"expected {len(WEIGHT_NAMES)} weights, the man's positive")
    (man, king, guard, centre, adv_mid, adv_late, *rows, mobility, runaway, trade, chase, edge_king,
     double_corner, endgame_pieces) = weights[:20]
    man_squares, king_squares = weights[20:52], weights[52:84]
    # Per side and kind: (bit index -> worth) as a list indexed by the index.
    black_man, white_man = list(man_squares), list(reversed(man_squares))
    black_king, white_king = list(king_squares), list(reversed(king_squares))
    squares_used = any(man_squares) or any(king_squares)
    row_masks = tuple((w, ROW_MASK[r], ROW_MASK[7 - r]) for r, w in enumerate(rows) if w)

    def evaluate(black: int, white: int, kings: int, turn: int) -> int:
        bk = black & kings
        wk = white & kings
        bm = black ^ bk
        wm = white ^ wk
        nbm, nbk, nwm, nwk = bm.bit_count(), bk.bit_count(), wm.bit_count(), wk.bit_count()
        mat = man * (nbm - nwm) + king * (nbk - nwk)
        score = mat
        if squares_used:
            for mask, table, sign in ((bm, black_man, 1), (wm, white_man, -1), (bk, black_king, 1),
                                      (wk, white_king, -1)):
                while mask:
                    low = mask & -mask
                    mask ^= low
                    score += sign * table[low.bit_length() - 1]
        empty = 0xFFFFFFFF ^ (black | white)

        total = nbm + nbk + nwm + nwk
        # Men: advancement (worth more once the board empties: new kings decide endgames),
        # guard, runaways.
        if total > endgame_pieces:
            score += adv_mid * ((bm & _BLACK_MID).bit_count() - (wm & _WHITE_MID).bit_count())
            score += adv_late * ((bm & _BLACK_LATE).bit_count() - (wm & _WHITE_LATE).bit_count())
        else:
            for weight, black_row, white_row in row_masks:
                score += weight * ((bm & black_row).bit_count() - (wm & white_row).bit_count())
        if nwm:
            score += guard * (bm & _BLACK_GUARD).bit_count()
        if nbm:
            score -= guard * (wm & _WHITE_GUARD).bit_count()
        # A runaway: nothing of the enemy's ahead of it, and no enemy king to come back for it.
        run = bm & _BLACK_RUN_ROWS if not nwk else 0
        while run:
            low = run & -run
            run ^= low
            if not CONE[0][low.bit_length() - 1] & white:
                score += runaway
        run = wm & _WHITE_RUN_ROWS if not nbk else 0
        while run:
            low = run & -run
            run ^= low
            if not CONE[1][low.bit_length() - 1] & black:
                score -= runaway

        # Centre and mobility.
        score += centre * ((black & _CENTRE).bit_count() - (white & _CENTRE).bit_count())
        black_mob = ((black & D3) << 3) | ((black & D4) << 4) | ((black & D5) << 5)
        if bk:
            black_mob |= ((bk & U3) >> 3) | ((bk & U4) >> 4) | ((bk & U5) >> 5)
        white_mob = ((white & U3) >> 3) | ((white & U4) >> 4) | ((white & U5) >> 5)
        if wk:
            white_mob |= ((wk & D3) << 3) | ((wk & D4) << 4) | ((wk & D5) << 5)
        score += mobility * ((black_mob & empty).bit_count() - (white_mob & empty).bit_count())

        if total <= endgame_pieces:
            # Kings off the edges, and (for the side behind) the double corner as a refuge.
            score -= edge_king * ((bk & _EDGE).bit_count() - (wk & _EDGE).bit_count())
            if mat > 0:
                # Black leads: trading pieces off widens the lead, its kings chase White's pieces.
                score += trade * (24 - total) * min(mat, 300) // man
                score -= chase * _chase(bk, white)
                score -= double_corner * (wk & _DOUBLE_CORNERS).bit_count()
            elif mat < 0:
                score -= trade * (24 - total) * min(-mat, 300) // man
                score += chase * _chase(wk, black)
                score += double_corner * (bk & _DOUBLE_CORNERS).bit_count()
        return score if turn == BLACK else -score

    return evaluate


evaluate = make_evaluator()


def _chase(hunters: int, prey: int) -> int:
    """Sum over the hunting kings of the distance to the nearest prey piece."""
    if not prey:
        return 0
    total = 0
    while hunters:
        low = hunters & -hunters
        hunters ^= low
        row = DIST[low.bit_length() - 1]
        best = 8
        p = prey
        while p:
            q = p & -p
            p ^= q
            d = row[q.bit_length() - 1]
            if d < best:  # noqa: PLR1730  (no call in the hot loop)
                best = d
        total += best
    return total


EVALUATORS: dict[str, Evaluator] = {"default": evaluate, "material": material}


def resolve(name: str) -> Evaluator:
    """The evaluation named ``name``; ValueError lists the choices."""
    key = name.strip().lower()
    if key not in EVALUATORS:
        raise ValueError(f"unknown evaluation {name!r}; choose one of {', '.join(EVALUATORS)}")
    return EVALUATORS[key]
