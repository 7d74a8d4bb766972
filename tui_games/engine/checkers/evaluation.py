"""Static evaluation of checkers positions, from the side to move, in hundredths of a man.

:func:`evaluate` (the engine's, ``"default"``) is a weighted sum of integer features, each
counted for Black minus White (:func:`features`), with two weights per feature: one for the
opening (a full board) and one for the endgame (an empty one). The phase is the number of
pieces on the board (24 down to 0) and the two sums are blended by it, so a term can matter
in the middlegame and fade in the ending, or the other way round (a king's worth over a man,
advancement, the back rank):

    score = (opening · F × pieces + endgame · F × (24 − pieces)) / 24   (rounded towards 0)

The features (:data:`FEATURE_NAMES`):

- **material**: men and kings;
- **square tables**: a man or a king on each square (from Black's side; a White piece on
  square s counts as a Black one on 33 − s); they carry the tempo (how far the men have
  come), centre control and the edges;
- **back rank**: men on the two squares that stop crowning (1 and 3 for Black) while the
  opponent has men to crown, the **bridge** (both), the **triangle** (2, 3 and 7);
- **dog-hole**: a man on 28 held by a piece on 32 (for White: 5 held by 1);
- **free paths**: men with no enemy piece in the cone ahead of them, by rows to go
  (1, 2, 3 or more): runaways, worth more the closer they are;
- **mobility** of men and of kings (steps to empty squares), **trapped kings** (no step),
  **blocked men** (no step forward);
- **backed men**: men that cannot be jumped from the front (both squares behind them are
  taken or off the board);
- **balance**: the difference between a side's men on the left and right halves;
- **hanging**: the side to move's pieces that the opponent could jump (the evaluation is
  called where the side to move has no capture, so its own pieces are the ones at risk);
- when one side is ahead (men 2, kings 3): **trading down** (the lead times the pieces gone
  from the board), its kings **chasing** (the distance to the nearest enemy piece) and the
  side behind's kings in a **double corner** (its drawing refuge).

White's features are Black's on the board turned round (:func:`_side`), so the evaluation
is colour-symmetric by construction. :func:`material` counts material only (the baseline
player of the engine match). Both take the masks and the side to move and return an int
well inside ``search.WIN``.

On top of the features, **pattern tables** (:data:`PATTERN_WINDOWS`): thirteen windows of
eight squares (the seven bands of two rows, and the left and right halves of rows 1-4, 3-6
and 5-8), each square empty, the side's or the opponent's piece: a window's 3^8 = 6,561
states each have an opening and an endgame weight, fitted to games (many small terms,
in sixteenths of a hundredth of a man: :data:`PATTERN_UNIT`). They see what the features
cannot: how the men stand together (holes, pairs, blocks, the shape of a formation). Black's
windows add, White's (read from the board turned round, through the same tables) subtract.

The weights are one vector: every feature's opening weight, then every feature's endgame
weight (:data:`WEIGHT_NAMES`, :data:`N_WEIGHTS` of them), then optionally the tables
(:data:`N_PATTERN_WEIGHTS`, each window's states in order, an (opening, endgame) pair a
state). :func:`make_evaluator` builds the evaluation for any vector, and the compiled search
core (``_ckcore.c``) takes the same vector and computes the same numbers.
:data:`DEFAULT_WEIGHTS` are :data:`FEATURE_WEIGHTS` and the tables (:data:`PATTERN_WEIGHTS`,
shipped as an image, :mod:`.patterns`), fitted together to the engine's own games by
``scripts/checkers_train_patterns.py`` (see the comment above :data:`FEATURE_WEIGHTS`);
:data:`PREVIOUS_WEIGHTS` are the features alone as fitted before the tables.
"""

from __future__ import annotations

from collections.abc import Callable

from tui_games.engine.checkers import _net_data, _pattern_data, network, patterns
from tui_games.engine.checkers.bits import (
    BLACK,
    DOWN_LEFT,
    DOWN_RIGHT,
    FORWARD,
    FULL,
    STEP,
    STEP_SHIFTS,
    UP_LEFT,
    UP_RIGHT,
    bit,
    distance,
    row_col,
)

Evaluator = Callable[[int, int, int, int], int]

MAN = 100
# The material-only baseline values a king a little higher (a common choice: 1.5 men).
MATERIAL_KING = 150
PHASE = 24  # pieces on a full board: the opening weights count fully there


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


# CONE[index]: the squares ahead of a Black man (White's are Black's turned round).
CONE = tuple(_cone(i, FORWARD[BLACK]) for i in range(32))
# DIST[a][b] on bit indices.
DIST = tuple(tuple(distance(a + 1, b + 1) for b in range(32)) for a in range(32))
# The board turned round: bit i <-> bit 31 - i (a byte's bits reversed, per byte).
_REV8 = tuple(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _turn(m: int) -> int:
    return _REV8[m & 255] << 24 | _REV8[m >> 8 & 255] << 16 | _REV8[m >> 16 & 255] << 8 | _REV8[m >> 24]


def _shift(m: int, d: int) -> int:
    """Every square one step in direction ``d`` from a square of ``m``."""
    (s0, m0), (s1, m1) = STEP_SHIFTS[d]
    a, b = m & m0, m & m1
    return (a << s0 if s0 > 0 else a >> -s0) | (b << s1 if s1 > 0 else b >> -s1)


_BACK = bit(1) | bit(3)  # Black's guard squares (White's: 30 and 32)
_TRIANGLE = bit(2) | bit(3) | bit(7)
_DOG_MAN, _DOG_HOLDER = bit(28), bit(32)
_LEFT = sum(1 << i for i in range(32) if row_col(i + 1)[1] < 4)
_RIGHT = FULL ^ _LEFT
# The squares with a neighbour up-left / up-right (a Black man's back squares).
_HAS_UL = STEP_SHIFTS[UP_LEFT][0][1] | STEP_SHIFTS[UP_LEFT][1][1]
_HAS_UR = STEP_SHIFTS[UP_RIGHT][0][1] | STEP_SHIFTS[UP_RIGHT][1][1]
_DOUBLE_CORNERS = bit(1) | bit(5) | bit(28) | bit(32)

# The features after the material and the square tables, in order: per side (_side), then
# the ones that need both sides.
SIDE_FEATURES = ("guard", "bridge", "triangle", "dog_hole", "free_1", "free_2", "free_3",
                 "man_mobility", "king_mobility", "trapped_kings", "blocked_men", "backed_men", "balance")
GLOBAL_FEATURES = ("hanging", "double_corner", "chase", "trade_down")
FEATURE_NAMES = ("man", "king", *(f"man_on_{s}" for s in range(1, 33)), *(f"king_on_{s}" for s in range(1, 33)),
                 *SIDE_FEATURES, *GLOBAL_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
_MAN_SQ, _KING_SQ, _SIDE = 2, 34, 66
_GLOBAL = _SIDE + len(SIDE_FEATURES)
WEIGHT_NAMES = (*(f"{n}:open" for n in FEATURE_NAMES), *(f"{n}:end" for n in FEATURE_NAMES))


def _side(om: int, ok: int, pm: int, pk: int) -> list[int]:
    """The per-side features of the side with men ``om`` and kings ``ok`` (moving down the
    board, as Black) against men ``pm`` and kings ``pk``."""
    own = om | ok
    opp = pm | pk
    empty = FULL ^ (own | opp)
    back = om & _BACK if pm else 0
    free = [0, 0, 0]
    m = om
    while m:
        low = m & -m
        m ^= low
        i = low.bit_length() - 1
        if not CONE[i] & opp:
            free[min(7 - (i >> 2), 3) - 1] += 1
    man_steps = _shift(om, DOWN_LEFT) & empty, _shift(om, DOWN_RIGHT) & empty
    king_moves = 0
    king_free = 0
    if ok:
        for d in (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT):
            king_moves += (_shift(ok, d) & empty).bit_count()
            king_free |= _shift(empty, d)
    men_free = _shift(empty, UP_LEFT) | _shift(empty, UP_RIGHT)
    backed = om & ((_shift(own, DOWN_RIGHT) | ~_HAS_UL) & (_shift(own, DOWN_LEFT) | ~_HAS_UR))
    return [
        back.bit_count(),
        1 if back == _BACK else 0,
        1 if om & _TRIANGLE == _TRIANGLE else 0,
        1 if om & _DOG_MAN and opp & _DOG_HOLDER else 0,
        *free,
        man_steps[0].bit_count() + man_steps[1].bit_count(),
        king_moves,
        (ok & ~king_free).bit_count(),
        (om & ~men_free).bit_count(),
        backed.bit_count(),
        abs((om & _LEFT).bit_count() - (om & _RIGHT).bit_count()),
    ]


def _hanging(own: int, pm: int, pk: int, empty: int) -> int:
    """How many of ``own`` (a side moving down the board) the opponent could jump."""
    out = 0
    for d in (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT):
        attackers = pm | pk if d in (UP_LEFT, UP_RIGHT) else pk
        if attackers:
            land = _shift(_shift(attackers, d) & own, d) & empty
            out |= _shift(land, 3 - d)  # back over the jumped piece (3 - d: the opposite way)
    return (out & own).bit_count()


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


def _global(bm: int, bk: int, wm: int, wk: int, turn: int) -> list[int]:
    """The features that need both sides: hanging, and the leader's endgame terms."""
    black, white = bm | bk, wm | wk
    empty = FULL ^ (black | white)
    if turn == BLACK:
        hanging = _hanging(black, wm, wk, empty)
    else:
        hanging = -_hanging(_turn(white), _turn(bm), _turn(bk), _turn(empty))
    lead = 2 * (bm.bit_count() - wm.bit_count()) + 3 * (bk.bit_count() - wk.bit_count())
    pieces = (black | white).bit_count()
    if lead > 0:
        return [hanging, -(wk & _DOUBLE_CORNERS).bit_count(), -_chase(bk, white), (24 - pieces) * min(lead, 6)]
    if lead < 0:
        return [hanging, (bk & _DOUBLE_CORNERS).bit_count(), _chase(wk, black), (24 - pieces) * max(lead, -6)]
    return [hanging, 0, 0, 0]


def _structure(bm: int, bk: int, wm: int, wk: int, turn: int) -> list[int]:
    """Every feature after the square tables, Black minus White."""
    black = _side(bm, bk, wm, wk)
    white = _side(_turn(wm), _turn(wk), _turn(bm), _turn(bk))
    return [b - w for b, w in zip(black, white)] + _global(bm, bk, wm, wk, turn)


def features(black: int, white: int, kings: int, turn: int) -> tuple[int, list[int]]:
    """The pieces on the board (the phase) and every feature (:data:`FEATURE_NAMES`), Black
    minus White: the evaluation is their blend with the weights (the training script's input)."""
    bk, wk = black & kings, white & kings
    bm, wm = black ^ bk, white ^ wk
    out = [0] * _SIDE
    out[0] = bm.bit_count() - wm.bit_count()
    out[1] = bk.bit_count() - wk.bit_count()
    for mask, base, sign in ((bm, _MAN_SQ, 1), (bk, _KING_SQ, 1)):
        while mask:
            low = mask & -mask
            mask ^= low
            out[base + low.bit_length() - 1] += sign
    for mask, base in ((wm, _MAN_SQ), (wk, _KING_SQ)):
        while mask:
            low = mask & -mask
            mask ^= low
            out[base + 32 - low.bit_length()] -= 1
    return (black | white).bit_count(), out + _structure(bm, bk, wm, wk, turn)


def blend(opening: int, endgame: int, pieces: int, unit: int = 1) -> int:
    """The two sums (in ``unit``-ths of the score's unit) blended by the phase, rounded towards
    zero (so colours stay symmetric)."""
    total = opening * pieces + endgame * (PHASE - pieces)
    return total // (PHASE * unit) if total >= 0 else -(-total // (PHASE * unit))


def material(black: int, white: int, kings: int, turn: int) -> int:
    """Material only: men 100, kings 150, from the side to move."""
    bk = (black & kings).bit_count()
    wk = (white & kings).bit_count()
    score = MAN * (black.bit_count() - bk - white.bit_count() + wk) + MATERIAL_KING * (bk - wk)
    return score if turn == BLACK else -score


# -- pattern tables --------------------------------------------------------------------------------
# A window is eight squares: (shift, block). Its byte is (mask >> shift) & 255 for a band of two
# whole rows, or for a block (two squares of each of four rows) the bits 0, 1, 4, 5, 8, 9, 12,
# 13 of mask >> shift packed together. The windows: the seven bands (rows 1-2 to 7-8), then
# the left and right halves of rows 1-4, 3-6 and 5-8. Turning the board round maps the set onto
# itself (band r to band 6 - r, a left block to a right one), so one table per window serves
# both sides: White's pieces are read from the board turned round, as for the other features.
PATTERN_WINDOWS: tuple[tuple[int, bool], ...] = (
    *((4 * r, False) for r in range(7)), *((4 * r + c, True) for r in (0, 2, 4) for c in (0, 2)))
PATTERN_STATES = 3 ** 8  # per square: empty, the side's piece, the opponent's piece
# The tables' unit: a sixteenth of a hundredth of a man (their many small terms would round
# away in whole hundredths); the blend divides it out with the phase.
PATTERN_UNIT = 16
N_PATTERN_WEIGHTS = 2 * len(PATTERN_WINDOWS) * PATTERN_STATES
N_WEIGHTS = 2 * N_FEATURES  # the feature weights; a vector with patterns has N_PATTERN_WEIGHTS more
# BASE3[byte]: the byte's bits as base-3 digits (bit j -> 3**j).
BASE3 = tuple(sum(3 ** j for j in range(8) if x >> j & 1) for x in range(256))


def window_byte(mask: int, shift: int, block: bool) -> int:
    m = mask >> shift
    if not block:
        return m & 255
    m &= 0x3333
    m = (m | m >> 2) & 0x0F0F
    return (m | m >> 4) & 255


def pattern_indices(own: int, opp: int) -> list[int]:
    """Each window's table index for a side with pieces ``own`` (moving down, as Black) against
    ``opp``: 3**j for its piece on the window's j-th square, 2 * 3**j for an opponent's."""
    return [BASE3[window_byte(own, s, b)] + 2 * BASE3[window_byte(opp, s, b)] for s, b in PATTERN_WINDOWS]


def make_evaluator(weights: tuple[int, ...], net: network.Network | None = None) -> Evaluator:
    """The engine's evaluation with these weights (see the module doc and WEIGHT_NAMES; a vector
    of N_WEIGHTS + N_PATTERN_WEIGHTS adds the pattern tables, see :func:`pattern_weights`), plus
    ``net``'s correction read from the side to move when a network is given (:mod:`.network`)."""
    if len(weights) not in (N_WEIGHTS, N_WEIGHTS + N_PATTERN_WEIGHTS) or weights[0] <= 0:
        raise ValueError(f"expected {N_WEIGHTS} weights (or {N_WEIGHTS + N_PATTERN_WEIGHTS} with the pattern "
                         "tables), the man's opening weight positive")
    if any(not -32768 <= w <= 32767 for w in weights[N_WEIGHTS:]):
        raise ValueError("pattern weights must fit in 16 bits")
    opening, endgame = weights[:N_FEATURES], weights[N_FEATURES:N_WEIGHTS]
    # Per window: the table's (opening, endgame) pairs, flat.
    patterns = [weights[N_WEIGHTS + 2 * w * PATTERN_STATES:N_WEIGHTS + 2 * (w + 1) * PATTERN_STATES]
                for w in range(len(PATTERN_WINDOWS))] if len(weights) > N_WEIGHTS else []
    windows = list(zip(PATTERN_WINDOWS, patterns))
    forward = network.make_forward(net) if net is not None else None
    # Per side and kind: bit index -> (opening, endgame) worth of the piece there.
    tables = []
    for base, sign in ((_MAN_SQ, 1), (_KING_SQ, 1)):
        kind = 0 if base == _MAN_SQ else 1
        black = [(sign * (opening[kind] + opening[base + i]), sign * (endgame[kind] + endgame[base + i]))
                 for i in range(32)]
        tables.append((black, [(-o, -e) for o, e in reversed(black)]))
    (black_man, white_man), (black_king, white_king) = tables
    rest_open, rest_end = opening[_SIDE:], endgame[_SIDE:]

    def evaluate(black: int, white: int, kings: int, turn: int) -> int:
        bk, wk = black & kings, white & kings
        bm, wm = black ^ bk, white ^ wk
        op = en = 0
        for mask, table in ((bm, black_man), (wm, white_man), (bk, black_king), (wk, white_king)):
            while mask:
                low = mask & -mask
                mask ^= low
                o, e = table[low.bit_length() - 1]
                op += o
                en += e
        for f, o, e in zip(_structure(bm, bk, wm, wk, turn), rest_open, rest_end):
            if f:
                op += f * o
                en += f * e
        if windows:
            op *= PATTERN_UNIT
            en *= PATTERN_UNIT
            tb, tw = _turn(white), _turn(black)  # White's side, seen as Black's
            for (shift, block), pattern in windows:
                i = 2 * (BASE3[window_byte(black, shift, block)] + 2 * BASE3[window_byte(white, shift, block)])
                j = 2 * (BASE3[window_byte(tb, shift, block)] + 2 * BASE3[window_byte(tw, shift, block)])
                op += pattern[i] - pattern[j]
                en += pattern[i + 1] - pattern[j + 1]
            score = blend(op, en, (black | white).bit_count(), PATTERN_UNIT)
        else:
            score = blend(op, en, (black | white).bit_count())
        if forward is None:
            return score if turn == BLACK else -score
        if turn == BLACK:
            return score + forward(bm, bk, wm, wk)
        return forward(_turn(wm), _turn(wk), _turn(bm), _turn(bk)) - score

    return evaluate


# FITTED_WEIGHTS
# Fitted together with the pattern tables by scripts/checkers_train_patterns.py (``--epochs 8
# --l2 1e-7``, the labels half the game's result and half the search's score) to 337,893
# quiet positions of 3,368 games of the engine against itself at 10,000 nodes a move: 1,742
# played with PREVIOUS_WEIGHTS (``checkers_tune.py selfplay --seed 31`` and ``--seed 32``,
# with the search's scores) and the 1,626 that PREVIOUS_WEIGHTS were fitted to (results
# only), starting from PREVIOUS_WEIGHTS. docs/games/checkers.md has the gain in play.
FEATURE_WEIGHTS: tuple[int, ...] = (
    # opening: man, king; man squares 1-32; king squares 1-32; the rest of FEATURE_NAMES
    108, 199,
    14, 44, 7, 5, 7, 21, 18, -5, 0, 16, 1, -14, 1, -5, 7, -19,
    -22, -21, -23, -8, -25, -18, -22, -11, 13, 9, 6, 10, 0, 0, 0, 0,
    8, 9, 17, -34, 13, 12, 9, 18, -6, -3, -4, 37, -17, 11, 0, 13,
    4, 5, 11, 26, 27, 5, 6, -9, -1, 3, -6, -8, -41, 4, -7, -18,
    18, -1, 4, -38, 24, 3, -18, 1, 4, 7, 2, 2, -3, -22, -10, 4,
    -3,
    # endgame: man, king; man squares 1-32; king squares 1-32; the rest of FEATURE_NAMES
    175, 198,
    2, 7, 8, 0, -4, -14, -8, 1, -8, -26, -13, 12, -3, -8, -12, 9,
    0, 4, 8, 7, 1, 4, 15, 5, -2, 5, 8, 2, 0, 0, 0, 0,
    15, 0, 12, -23, 7, 16, 15, -2, 10, 7, 7, 0, 3, 4, 8, 0,
    -10, 1, 4, 5, -39, -6, 3, 9, -12, -4, 2, -1, -10, -10, -2, 3,
    -1, 33, 16, -25, -6, 10, 17, 2, 1, 1, 4, -9, -2, -8, 7, 6,
    1,
)

# The evaluation before the pattern tables (the weights above, fitted alone by
# scripts/checkers_tune.py): kept to measure the tables' gain against
# (``checkers_tune.py compare --b previous``; docs/games/checkers.md).
PREVIOUS_WEIGHTS: tuple[int, ...] = (
    # opening: man, king; man squares 1-32; king squares 1-32; the rest of FEATURE_NAMES
    100, 193,
    7, 24, 4, -2, -1, 9, 8, -7, -1, 11, -4, -16, 2, -2, 8, -16,
    -6, -7, -10, 2, -9, -3, 0, 0, 2, 3, 4, -2, 0, 0, 0, 0,
    1, -1, 1, -2, 1, 1, 0, 0, 0, 0, 0, 3, -1, 2, 2, 1,
    -1, 1, 3, 5, -2, -1, 2, 1, -2, -1, -1, 0, -11, 0, 0, -2,
    12, 6, 9, -10, 12, 4, 2, 4, 6, 0, 0, 6, -4, -13, -1, 2,
    -3,
    # endgame: man, king; man squares 1-32; king squares 1-32; the rest of FEATURE_NAMES
    179, 196,
    1, 7, 1, -2, -3, -3, -2, -2, -2, -8, -4, 7, 0, -5, -6, 4,
    0, -2, 0, 4, 2, 2, 5, 2, 2, 3, 4, -3, 0, 0, 0, 0,
    3, -4, 4, -4, 2, 4, -1, 0, 2, 1, 3, 2, -1, 4, 4, 1,
    -2, 1, 5, 9, -12, -5, 1, 5, -5, -4, -1, 3, -10, -1, -1, -1,
    2, 11, 5, -9, 9, 7, 7, -2, 0, 1, 3, -5, -2, -10, 3, 5,
    0,
)


# Material only, as a weight vector (men 100, kings 150 in both phases; nothing else).
MATERIAL_WEIGHTS: tuple[int, ...] = tuple(
    MAN if i % N_FEATURES == 0 else MATERIAL_KING if i % N_FEATURES == 1 else 0 for i in range(2 * N_FEATURES))

# The engine's evaluation: the feature weights and the pattern tables, fitted together (see
# the comment above FEATURE_WEIGHTS), the tables decoded from their shipped image.
PATTERN_WEIGHTS: tuple[int, ...] = patterns.decode_text(_pattern_data.BLOB, len(PATTERN_WINDOWS), PATTERN_STATES)
DEFAULT_WEIGHTS: tuple[int, ...] = FEATURE_WEIGHTS + PATTERN_WEIGHTS

evaluate = make_evaluator(DEFAULT_WEIGHTS)

# The network on top of the default evaluation (network.py; fitted by
# scripts/checkers_train_net.py, see docs/games/checkers.md), decoded from its shipped image.
NETWORK: network.Network = network.decode_text(_net_data.BLOB)

EVALUATORS: dict[str, Evaluator] = {"default": evaluate, "material": material,
                                    "network": make_evaluator(DEFAULT_WEIGHTS, NETWORK)}


def resolve(name: str) -> Evaluator:
    """The evaluation named ``name``; ValueError lists the choices."""
    key = name.strip().lower()
    if key not in EVALUATORS:
        raise ValueError(f"unknown evaluation {name!r}; choose one of {', '.join(EVALUATORS)}")
    return EVALUATORS[key]
