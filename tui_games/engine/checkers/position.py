"""The checkers position and THE move generator (used by the UI, CLI, engine and tests).

A position is three 32-bit masks — ``black``, ``white``, ``kings`` (layout in :mod:`.bits`) —
and the side to move, ``turn`` (0 Black, who moves first; 1 White).

Moves are :class:`Move` objects: a tuple ``(delta, captured, king_delta, zobrist, path, key)``
where ``delta`` flips the mover's start and end squares, ``captured`` is the mask of the
pieces taken, ``king_delta`` updates the kings (``kings = kings & ~captured ^ king_delta``),
``zobrist`` is the change of the Zobrist key, ``path`` the squares visited (1–32) and ``key``
the search's 16-bit name for the move (:func:`move_key`). So
playing a move is four XORs, and the engine's hot loop plays them on plain ints without
ever building a position. Non-capturing moves are built once, at import, and shared; only
captures are built as they are found.

The rules (American checkers / English draughts):

- men step and capture diagonally forward only; kings one square in all four directions;
- capturing is compulsory, any capture sequence may be chosen, but the one chosen must be
  completed (a path ends only where the piece can take nothing more);
- a man that reaches the far row is crowned and its move ends there, even mid-capture;
- every distinct capture path is its own move (a king taking the same pieces clockwise or
  anticlockwise has two moves; that is the convention of the published perft tables);
- the side to move with no legal move loses; threefold repetition of a position with the
  same side to move is a draw, and so is the 40-move rule: 40 moves by each side (80 plies)
  with no capture and no man moved; players may also agree a draw (:meth:`agree_draw`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from itertools import pairwise

from tui_games.engine.checkers import evaluation
from tui_games.engine.checkers.bits import (
    BLACK,
    COLOUR_NAMES,
    CROWN_ROW,
    DIRECTIONS,
    FORWARD,
    FULL,
    JUMP,
    START_BLACK,
    START_WHITE,
    STEP,
    STEP_SHIFTS,
    WHITE,
    row_col,
    square_of,
)
from tui_games.engine.checkers.notation import (
    CheckersError,
    format_fen,
    parse_fen,
    parse_move_text,
)
from tui_games.engine.game import Outcome, Playouts
from tui_games.engine.splitmix import MASK64, splitmix64

__all__ = [
    "QUIET_LIMIT",
    "REPETITIONS",
    "CheckersPosition",
    "Move",
    "generate",
    "has_capture",
    "has_step",
    "play",
    "python_playout",
    "random_playout",
    "row_col",
    "square_of",
]

# 40 moves by each side without a capture or a man moved: a draw.
QUIET_LIMIT = 80
# The third occurrence of a position (same side to move) is a draw.
REPETITIONS = 3

MAN, KING = 0, 1

# The shapes of the precomputed tables below.
# ZOBRIST[colour]: [kind][index] -> key.
_ZobristColour = tuple[tuple[int, ...], ...]
# (shift, mask, {target bit: the quiet move landing there}).
_QuietEntry = tuple[int, int, dict[int, "Move"]]
_QuietEntries = tuple[_QuietEntry, ...]
# JUMPS[colour][kind][index]: ((over_bit, land_bit, land_index, over_index), ...).
_JumpTable = tuple[tuple[tuple[int, int, int, int], ...], ...]
# (s1, m1, s2, m2, down, jump_shift), see _first_jumps.
_FirstJump = tuple[int, int, int, int, bool, int]

# -- Zobrist keys -------------------------------------------------------------------------------------

_rng = random.Random(0x0C4EC3E5)
# ZOBRIST[colour][kind][index]; the side-to-move key is folded into every move's delta.
ZOBRIST = tuple(tuple(tuple(_rng.getrandbits(64) for _ in range(32)) for _kind in (MAN, KING)) for _c in (BLACK, WHITE))
Z_WHITE_TO_MOVE = _rng.getrandbits(64)


def zobrist_key(black: int, white: int, kings: int, turn: int) -> int:
    """The Zobrist key from scratch (positions keep theirs up to date move by move)."""
    key = Z_WHITE_TO_MOVE if turn == WHITE else 0
    for colour, mask in ((BLACK, black), (WHITE, white)):
        while mask:
            low = mask & -mask
            mask ^= low
            i = low.bit_length() - 1
            key ^= ZOBRIST[colour][KING if kings & low else MAN][i]
    return key


# -- moves ------------------------------------------------------------------------------------------

# MIDDLE[(a, b)]: the square jumped over from square a to square b (1-based).
MIDDLE: dict[tuple[int, int], int] = {
    (i + 1, jump[1] + 1): jump[0] + 1 for d in range(4) for i, jump in enumerate(JUMP[d]) if jump is not None
}


class Move(tuple[int, int, int, int, tuple[int, ...], int]):
    """A legal move: ``(delta, captured, king_delta, zobrist, path, key)`` (see the module doc
    and :func:`move_key`).

    ``str(move)`` is the PDN text: ``11-15`` or ``15x24x31`` (every landing square).
    Two moves are equal when they are the same move by the same piece; moves are only ever
    obtained from a position (``legal_moves``, ``parse_move``), never built by hand.
    """

    __slots__ = ()

    @property
    def path(self) -> tuple[int, ...]:
        """Every square the piece stands on, start first (1–32)."""
        return self[4]

    @property
    def start(self) -> int:
        return self[4][0]

    @property
    def end(self) -> int:
        return self[4][-1]

    @property
    def captured_mask(self) -> int:
        return self[1]

    @property
    def captures(self) -> tuple[int, ...]:
        """The squares of the pieces taken, in the order they are jumped."""
        path = self[4]
        if not self[1]:
            return ()
        return tuple(MIDDLE[pair] for pair in pairwise(path))

    @property
    def is_capture(self) -> bool:
        return self[1] != 0

    @property
    def by_king(self) -> bool:
        """The moving piece is a king (it was one before the move)."""
        return self[2] == self[0]

    @property
    def crowns(self) -> bool:
        """A man reaches the far row with this move and becomes a king."""
        return self[2] != 0 and self[2] != self[0]

    @property
    def irreversible(self) -> bool:
        """A capture or a man's move: no earlier position can come back after it."""
        return self[1] != 0 or self[2] != self[0]

    def __str__(self) -> str:
        return ("x" if self[1] else "-").join(map(str, self[4]))

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def move_key(start: int, end: int, captured: int) -> int:
    """A move's 16-bit key within its position (the search's table, killers and history use
    it): the start and end indices and 6 bits of a hash of the captured mask. Moves with the
    same key and the same effect (a king's two ways round) are interchangeable."""
    return start | end << 5 | ((captured * 0x9E3779B1) & 0xFFFFFFFF) >> 26 << 10


def _quiet_move(colour: int, kind: int, frm: int, to: int) -> Move:
    f, t = 1 << frm, 1 << to
    delta = f | t
    z_own = ZOBRIST[colour]
    if kind == KING:
        return Move((delta, 0, delta, Z_WHITE_TO_MOVE ^ z_own[KING][frm] ^ z_own[KING][to], (frm + 1, to + 1),
                     move_key(frm, to, 0)))
    if t & CROWN_ROW[colour]:
        return Move((delta, 0, t, Z_WHITE_TO_MOVE ^ z_own[MAN][frm] ^ z_own[KING][to], (frm + 1, to + 1),
                     move_key(frm, to, 0)))
    return Move((delta, 0, 0, Z_WHITE_TO_MOVE ^ z_own[MAN][frm] ^ z_own[MAN][to], (frm + 1, to + 1),
                 move_key(frm, to, 0)))


def _quiet_tables(colour: int, kind: int, directions: Iterable[int]) -> tuple[_QuietEntries, _QuietEntries]:
    """((shift, mask, table), ...) for the steps that raise the bit index (down the board)
    and for those that lower it; ``table[target_bit]`` is the move that lands there (in one
    direction a target has one source)."""
    down: list[_QuietEntry] = []
    up: list[_QuietEntry] = []
    for d in directions:
        table: dict[int, Move] = {}
        for i in range(32):
            t = STEP[d][i]
            if t >= 0:
                table[1 << t] = _quiet_move(colour, kind, i, t)
        for shift, mask in STEP_SHIFTS[d]:
            (down if shift > 0 else up).append((abs(shift), mask, table))
    return tuple(down), tuple(up)


# QUIET[colour][kind] = (down entries, up entries)
QUIET = tuple(
    (_quiet_tables(colour, MAN, FORWARD[colour]), _quiet_tables(colour, KING, DIRECTIONS))
    for colour in (BLACK, WHITE)
)


def _jump_entries(directions: Iterable[int]) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per index: ((over_bit, land_bit, land_index, over_index), ...) for those directions."""
    out = []
    for i in range(32):
        entries = []
        for d in directions:
            jump = JUMP[d][i]
            if jump is not None:
                over, land = jump
                entries.append((1 << over, 1 << land, land, over))
        out.append(tuple(entries))
    return tuple(out)


# JUMPS[colour][kind][index]
JUMPS = tuple((_jump_entries(FORWARD[colour]), _jump_entries(range(4))) for colour in (BLACK, WHITE))


def _first_jumps(colour: int, kind: int) -> tuple[_FirstJump, ...]:
    """Per direction: (s1, m1, s2, m2, down, jump_shift) to find all first jumps of a set of
    pieces at once: the squares two steps away over an enemy piece onto an empty square."""
    dirs = FORWARD[colour] if kind == MAN else DIRECTIONS
    out: list[_FirstJump] = []
    for d in dirs:
        (s1, m1), (s2, m2) = STEP_SHIFTS[d]
        down = s1 > 0
        jump = (s1 + s2)  # a step of one parity then one of the other: always 7 or 9
        out.append((abs(s1), m1, abs(s2), m2, down, abs(jump)))
    return tuple(out)


FIRST_JUMPS = tuple((_first_jumps(colour, MAN), _first_jumps(colour, KING)) for colour in (BLACK, WHITE))


def _extend(moves: list[Move], colour: int, start: int, at: int, path: tuple[int, ...], opp: int, empty: int, cap: int,
            zcap: int, king: bool, kings: int, table: _JumpTable, crown: int, zopp: _ZobristColour) -> None:
    """Continue a capture from index ``at``: record the move if nothing more can be taken,
    else follow every further jump (a crowned man stops where it is crowned)."""
    more = False
    for over, land, li, oi in table[at]:
        if over & opp and land & empty:
            more = True
            z = zcap ^ (zopp[KING][oi] if over & kings else zopp[MAN][oi])
            if not king and land & crown:
                moves.append(_capture_move(colour, start, li, path + (li + 1,), cap | over, z, False, True))
            else:
                _extend(moves, colour, start, li, path + (li + 1,), opp ^ over, empty, cap | over, z,
                        king, kings, table, crown, zopp)
    if not more:
        moves.append(_capture_move(colour, start, at, path, cap, zcap, king, False))


def _capture_move(colour: int, start: int, end: int, path: tuple[int, ...], cap: int, zcap: int, king: bool,
                  crowned: bool) -> Move:
    s, e = 1 << start, 1 << end
    delta = s ^ e  # zero when a king comes back to its own square
    z_own = ZOBRIST[colour]
    key = move_key(start, end, cap)
    if king:
        return Move((delta, cap, delta, Z_WHITE_TO_MOVE ^ z_own[KING][start] ^ z_own[KING][end] ^ zcap, path, key))
    if crowned:
        return Move((delta, cap, e, Z_WHITE_TO_MOVE ^ z_own[MAN][start] ^ z_own[KING][end] ^ zcap, path, key))
    return Move((delta, cap, 0, Z_WHITE_TO_MOVE ^ z_own[MAN][start] ^ z_own[MAN][end] ^ zcap, path, key))


def _captures(moves: list[Move], colour: int, own: int, opp: int, kings: int, empty: int) -> None:
    """Append every capture of ``colour`` (full paths) to ``moves``."""
    zopp = ZOBRIST[1 - colour]
    crown = CROWN_ROW[colour]
    for kind, pieces in ((MAN, own & ~kings), (KING, own & kings)):
        if not pieces:
            continue
        table = JUMPS[colour][kind]
        king = kind == KING
        for s1, m1, s2, m2, down, js in FIRST_JUMPS[colour][kind]:
            if down:
                over = (((pieces & m1) << s1) | ((pieces & m2) << s2)) & opp
                land = (((over & m1) << s1) | ((over & m2) << s2)) & empty
            else:
                over = (((pieces & m1) >> s1) | ((pieces & m2) >> s2)) & opp
                land = (((over & m1) >> s1) | ((over & m2) >> s2)) & empty
            while land:
                lb = land & -land
                land ^= lb
                li = lb.bit_length() - 1
                start = li - js if down else li + js
                oi = _MID_INDEX[start][li]
                ob = 1 << oi
                z = zopp[KING][oi] if ob & kings else zopp[MAN][oi]
                path = (start + 1, li + 1)
                if not king and lb & crown:
                    moves.append(_capture_move(colour, start, li, path, ob, z, False, True))
                else:
                    _extend(moves, colour, start, li, path, opp ^ ob, empty | (1 << start), ob, z,
                            king, kings, table, crown, zopp)


# _MID_INDEX[a][b]: index jumped over from index a to index b (-1 if not a jump).
_MID_INDEX = tuple(tuple(MIDDLE.get((a + 1, b + 1), 0) - 1 for b in range(32)) for a in range(32))


def _can_jump(pieces: int, directions: tuple[_FirstJump, ...], opp: int, empty: int) -> bool:
    """Some piece of ``pieces`` can jump in one of ``directions`` (whole-board mask tests)."""
    for s1, m1, s2, m2, down, _ in directions:
        if down:
            over = (((pieces & m1) << s1) | ((pieces & m2) << s2)) & opp
            if (((over & m1) << s1) | ((over & m2) << s2)) & empty:
                return True
        else:
            over = (((pieces & m1) >> s1) | ((pieces & m2) >> s2)) & opp
            if (((over & m1) >> s1) | ((over & m2) >> s2)) & empty:
                return True
    return False


def generate(black: int, white: int, kings: int, turn: int) -> list[Move]:
    """Every legal move of the side ``turn`` (0 Black, 1 White): the captures if there is
    any (compulsory), else the steps. THE move generator: everything else calls this."""
    empty = FULL ^ (black | white)
    if turn == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    men = own & ~kings
    own_kings = own & kings
    first = FIRST_JUMPS[turn]
    if (men and _can_jump(men, first[MAN], opp, empty)) or (own_kings and _can_jump(own_kings, first[KING], opp, empty)):
        moves: list[Move] = []
        _captures(moves, turn, own, opp, kings, empty)
        return moves
    return _steps([], turn, men, own_kings, empty)


def has_capture(black: int, white: int, kings: int, turn: int) -> bool:
    """The side ``turn`` has a capture (so :func:`generate` returns only captures) — the
    generator's own first test, without building any move (the engine's leaves use it)."""
    empty = FULL ^ (black | white)
    if turn == BLACK:
        own, opp = black, white
    else:
        own, opp = white, black
    men = own & ~kings
    own_kings = own & kings
    first = FIRST_JUMPS[turn]
    return bool((men and _can_jump(men, first[MAN], opp, empty))
                or (own_kings and _can_jump(own_kings, first[KING], opp, empty)))


def has_step(black: int, white: int, kings: int, turn: int) -> bool:
    """The side ``turn`` has a non-capturing move (with the generator's own tables)."""
    empty = FULL ^ (black | white)
    own = black if turn == BLACK else white
    men = own & ~kings
    own_kings = own & kings
    (men_down, men_up), (kings_down, kings_up) = QUIET[turn]
    for shift, mask, _ in men_down:
        if ((men & mask) << shift) & empty:
            return True
    for shift, mask, _ in men_up:
        if ((men & mask) >> shift) & empty:
            return True
    if own_kings:
        for shift, mask, _ in kings_down:
            if ((own_kings & mask) << shift) & empty:
                return True
        for shift, mask, _ in kings_up:
            if ((own_kings & mask) >> shift) & empty:
                return True
    return False


def _steps(moves: list[Move], turn: int, men: int, own_kings: int, empty: int) -> list[Move]:
    append = moves.append
    (men_down, men_up), (kings_down, kings_up) = QUIET[turn]
    if men:
        for shift, mask, table in men_down:
            t = ((men & mask) << shift) & empty
            while t:
                x = t & -t
                append(table[x])
                t ^= x
        for shift, mask, table in men_up:
            t = ((men & mask) >> shift) & empty
            while t:
                x = t & -t
                append(table[x])
                t ^= x
    if own_kings:
        for shift, mask, table in kings_down:
            t = ((own_kings & mask) << shift) & empty
            while t:
                x = t & -t
                append(table[x])
                t ^= x
        for shift, mask, table in kings_up:
            t = ((own_kings & mask) >> shift) & empty
            while t:
                x = t & -t
                append(table[x])
                t ^= x
    return moves


def play(black: int, white: int, kings: int, turn: int, move: Move) -> tuple[int, int, int, int]:
    """The masks after ``move`` (legal in that position), without building a position."""
    delta, cap, kdelta = move[0], move[1], move[2]
    if turn == BLACK:
        return black ^ delta, white ^ cap, (kings & ~cap) ^ kdelta, WHITE
    return black ^ cap, white ^ delta, (kings & ~cap) ^ kdelta, BLACK


# -- random playouts for Monte Carlo tree search (the position's Playouts hook) ----------------------
#
# A game played on from a position by uniform random moves, on the bitboards alone: each move
# comes from generate (which ckmoves.h twins move for move) and is the ``z % n``-th of the ``n``
# legal moves in the order of their paths (compared as tuples), ``z`` drawn from splitmix64
# seeded with the playout's seed: the two generators list the moves in different orders, the
# paths put them in one. So the compiled playout in _ckcore.c (used where it is built) and
# python_playout, its twin, play the same game for the same seed (tests/engine/test_mcts.py
# compares them on many seeded positions). The rules are outcome()'s but for threefold
# repetition, which needs the game's history and which random play all but never reaches
# before the 40-move rule: the side to move with no move loses; QUIET_LIMIT plies without a
# capture or a man moved (counted on from ``quiet``) are a draw, and so are ``max_plies``. Here
# and not in a module of its own because it needs generate, and the position needs it.

try:
    from tui_games.engine.checkers import _ckcore  # type: ignore[attr-defined]
except ImportError:  # not built: the Python twin plays
    _ckcore = None

PLAYOUT_COMPILED = _ckcore is not None and hasattr(_ckcore, "playout")


def _path(move: Move) -> tuple[int, ...]:
    return move[4]


def python_playout(black: int, white: int, kings: int, turn: int, quiet: int, seed: int, max_plies: int) -> int:
    """+1 / -1 / 0 for the side to move of the random game (see above)."""
    state = seed & MASK64
    plies = 0
    while True:
        moves = generate(black, white, kings, turn)
        if not moves:
            return -1 if plies % 2 == 0 else 1
        if quiet >= QUIET_LIMIT or plies >= max_plies:
            return 0
        state, z = splitmix64(state)
        move = moves[0] if len(moves) == 1 else sorted(moves, key=_path)[z % len(moves)]
        black, white, kings, turn = play(black, white, kings, turn, move)
        # A capture or a man's move (its king delta is not its whole delta) resets the count.
        quiet = 0 if (move[1] or move[2] != move[0]) else quiet + 1
        plies += 1


def random_playout(black: int, white: int, kings: int, turn: int, quiet: int, seed: int, max_plies: int) -> int:
    """:func:`python_playout`, compiled where ``_ckcore`` is built."""
    if PLAYOUT_COMPILED:
        return int(_ckcore.playout(black, white, kings, turn, quiet, seed & MASK64, max_plies))
    return python_playout(black, white, kings, turn, quiet, seed, max_plies)


# -- the position ------------------------------------------------------------------------------------


class CheckersPosition(Playouts):
    """A checkers position with its history (for undo, repetitions and the PDN record).

    ``turn`` 0 is Black (moves first), 1 White. ``heuristic`` names the evaluation
    :meth:`evaluate` uses: ``"default"`` (the engine's) or ``"material"``.
    """

    __slots__ = (
        "_agreed",
        "_evaluate",
        "_heuristic",
        "_key",
        "_keys",
        "_moves",
        "_quiet",
        "_undo",
        "black",
        "history",
        "kings",
        "start_fen",
        "turn",
        "white",
    )

    def __init__(self, fen: str | None = None, *, heuristic: str = "default") -> None:
        if fen is None:
            black, white, kings, turn = START_BLACK, START_WHITE, 0, BLACK
        else:
            black, white, kings, turn = parse_fen(fen)
        self.black, self.white, self.kings, self.turn = black, white, kings, turn
        self.start_fen = format_fen(black, white, kings, turn)
        # The moves played from the start position, in order.
        self.history: list[Move] = []
        self._key = zobrist_key(black, white, kings, turn)
        # Plies since the last capture or man move (the 40-move rule counts these).
        self._quiet = 0
        # Zobrist key of every position from the start, the current one last.
        self._keys: list[int] = [self._key]
        # Per move played: the quiet count and the kings before it.
        self._undo: list[tuple[int, int]] = []
        self._moves: list[Move] | None = None
        self._agreed = False
        self.heuristic = heuristic

    # -- construction and notation ------------------------------------------------------------------

    @classmethod
    def parse(cls, fen: str, *, heuristic: str = "default") -> CheckersPosition:
        """The position of a FEN (bare or ``[FEN "…"]``, or ``start``). CheckersError names
        the bad part."""
        return cls(fen, heuristic=heuristic)

    from_fen = parse

    def fen(self) -> str:
        """The canonical FEN of the current position."""
        return format_fen(self.black, self.white, self.kings, self.turn)

    format = fen

    def __str__(self) -> str:
        return self.fen()

    def __repr__(self) -> str:
        return f"CheckersPosition({self.fen()!r})"

    @property
    def heuristic(self) -> str:
        return self._heuristic

    @heuristic.setter
    def heuristic(self, name: str) -> None:
        self._evaluate = evaluation.resolve(name)
        self._heuristic = name.strip().lower()

    @property
    def from_start(self) -> bool:
        """The game began from the standard initial position."""
        return self.start_fen == START_FEN_CANONICAL

    # -- moves -----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move (captures only when one exists); empty once the game is over
        (no move, a draw by rule or by agreement). A fresh list each call."""
        if self._agreed:
            return []
        moves = self._generated()
        if moves and (self._quiet >= QUIET_LIMIT or self.repetitions() >= REPETITIONS):
            return []
        return list(moves)

    def _generated(self) -> list[Move]:
        if self._moves is None:
            self._moves = generate(self.black, self.white, self.kings, self.turn)
        return self._moves

    def must_capture(self) -> bool:
        """The side to move has a capture, so it must take (every legal move captures)."""
        moves = self._generated()
        return bool(moves) and moves[0].is_capture

    def moves_from(self, square: int) -> list[Move]:
        """The legal moves of the piece on ``square``."""
        return [m for m in self.legal_moves() if m[4][0] == square]

    def matching_moves(self, squares: Sequence[int]) -> list[Move]:
        """The legal moves whose path begins with ``squares`` — a move entered one square at
        a time: the start, then each landing square. One match whose path equals
        ``squares`` is a complete move; an empty list means the squares fit no move."""
        n = len(squares)
        prefix = tuple(squares)
        return [m for m in self.legal_moves() if m[4][:n] == prefix]

    def next_squares(self, squares: Sequence[int]) -> set[int]:
        """The squares that can follow ``squares`` in some legal move (for highlighting)."""
        n = len(squares)
        return {m[4][n] for m in self.matching_moves(squares) if len(m[4]) > n}

    def movable_squares(self) -> set[int]:
        """The squares of the pieces that have a legal move (all capturers when one must take)."""
        return {m[4][0] for m in self.legal_moves()}

    def find_move(self, squares: Sequence[int]) -> Move | None:
        """The legal move with exactly this path, or None."""
        path = tuple(squares)
        for m in self.legal_moves():
            if m[4] == path:
                return m
        return None

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text`` in PDN (``11-15``, ``15x24x31``, or a capture by
        its two ends ``15x31`` when that fits one capture). CheckersError names the move."""
        squares, capture = parse_move_text(text)
        moves = self.legal_moves()
        where = f"move {text.strip()!r}"
        if not moves:
            raise CheckersError(f"{where}: the game is over ({self.outcome().reason})")  # type: ignore[union-attr]
        fits = [m for m in moves if m[4] == squares]
        if not fits and capture and len(squares) == 2:
            fits = [m for m in moves if m.is_capture and m[4][0] == squares[0] and m[4][-1] == squares[1]]
            results = {(m[0], m[1], m[2]) for m in fits}
            if len(results) > 1:
                options = ", ".join(str(m) for m in fits)
                raise CheckersError(f"{where} is ambiguous: write the full path ({options})")
        if fits:
            return fits[0]
        raise CheckersError(f"{where} is not legal here: {self._why_not(squares, capture, moves)}")

    def _why_not(self, squares: tuple[int, ...], capture: bool, moves: list[Move]) -> str:
        start = squares[0]
        piece = self.piece_at(start)
        side = COLOUR_NAMES[self.turn]
        if piece is None:
            return f"square {start} is empty"
        if (piece.lower() == "b") != (self.turn == BLACK):
            return f"the piece on {start} is not {side}'s"
        if moves[0].is_capture and not capture:
            return "a capture is compulsory (" + ", ".join(str(m) for m in moves) + ")"
        own = [str(m) for m in moves if m[4][0] == start]
        if not own:
            return f"the piece on {start} has no legal move"
        return "the piece on " + str(start) + " can play " + ", ".join(own)

    def push(self, move: Move) -> None:
        """Play ``move``, which must be one of :meth:`legal_moves`."""
        if self._agreed or (self._moves is not None and move not in self._moves) or (
                self._moves is None and move not in self._generated()):
            raise CheckersError(f"cannot play {move} in {self.fen()}: not a legal move here")
        if self.outcome() is not None:
            raise CheckersError(f"cannot play {move} in {self.fen()}: the game is over")
        self._apply(move)

    def _apply(self, move: Move) -> None:
        delta, cap, kdelta, zdelta = move[0], move[1], move[2], move[3]
        self._undo.append((self._quiet, self.kings))
        if self.turn == BLACK:
            self.black ^= delta
            self.white ^= cap
        else:
            self.white ^= delta
            self.black ^= cap
        self.kings = (self.kings & ~cap) ^ kdelta
        self.turn ^= 1
        self._key ^= zdelta
        self._keys.append(self._key)
        self._quiet = 0 if (cap or kdelta != delta) else self._quiet + 1
        self.history.append(move)
        self._moves = None

    def push_text(self, text: str) -> Move:
        """Parse and play a PDN move; returns it."""
        move = self.parse_move(text)
        self.push(move)
        return move

    def pop(self) -> Move:
        """Take back the last move (and any draw agreement made after it)."""
        if not self.history:
            raise CheckersError("no move to take back")
        move = self.history.pop()
        delta, cap, zdelta = move[0], move[1], move[3]
        self.turn ^= 1
        if self.turn == BLACK:
            self.black ^= delta
            self.white ^= cap
        else:
            self.white ^= delta
            self.black ^= cap
        self._key ^= zdelta
        self._keys.pop()
        self._quiet, self.kings = self._undo.pop()
        self._moves = None
        self._agreed = False
        return move

    # -- the game's end ------------------------------------------------------------------------------

    @property
    def quiet_plies(self) -> int:
        """Plies since the last capture or man move (the 40-move rule draws at 80)."""
        return self._quiet

    def repetitions(self) -> int:
        """How many times the current position has occurred (same side to move), counting
        this one. Only positions since the last capture or man move can repeat."""
        keys = self._keys
        key = self._key
        last = len(keys) - 1
        return sum(1 for i in range(last, last - self._quiet - 1, -2) if i >= 0 and keys[i] == key)

    def agree_draw(self) -> None:
        """The players agree a draw: the game ends (undone by :meth:`pop`)."""
        if self.outcome() is not None:
            raise CheckersError("the game is already over")
        self._agreed = True

    @property
    def draw_agreed(self) -> bool:
        return self._agreed

    def outcome(self) -> Outcome | None:
        """None while the game goes on. Otherwise the winner (0 Black, 1 White, None for a
        draw) and the reason: ``"no pieces"`` / ``"no moves"`` (the side to move has none and
        loses), ``"repetition"``, ``"40-move rule"`` or ``"agreement"``."""
        if self._agreed:
            return Outcome(None, "agreement")
        if not self._generated():
            own = self.black if self.turn == BLACK else self.white
            return Outcome(1 - self.turn, "no moves" if own else "no pieces")
        if self._quiet >= QUIET_LIMIT:
            return Outcome(None, "40-move rule")
        if self._quiet >= 4 and self.repetitions() >= REPETITIONS:
            return Outcome(None, "repetition")
        return None

    def playout(self, seed: int, max_plies: int) -> int | None:
        """The winner of a random game from here (:func:`random_playout`: compiled where built,
        the same game as its Python twin for the same seed); the position is not changed."""
        outcome = self.outcome()
        if outcome is not None:
            return outcome.winner
        result = random_playout(self.black, self.white, self.kings, self.turn, self._quiet, seed, max_plies)
        return None if result == 0 else self.turn if result > 0 else 1 - self.turn

    # -- the position protocol (generic search) -------------------------------------------------------

    def evaluate(self) -> int:
        """Heuristic value for the side to move (``heuristic`` names the function)."""
        return self._evaluate(self.black, self.white, self.kings, self.turn)

    def key(self) -> Hashable:
        """The Zobrist key (64 bits), kept up to date move by move."""
        return self._key

    def history_keys(self) -> list[int]:
        """Keys of the positions since the last capture or man move, the current one last
        (what a search needs to see repetitions coming)."""
        return self._keys[len(self._keys) - 1 - self._quiet:]

    def copy(self) -> CheckersPosition:
        new = CheckersPosition.__new__(CheckersPosition)
        new.black, new.white, new.kings, new.turn = self.black, self.white, self.kings, self.turn
        new.start_fen = self.start_fen
        new.history = list(self.history)
        new._key = self._key
        new._quiet = self._quiet
        new._keys = list(self._keys)
        new._undo = list(self._undo)
        new._moves = self._moves
        new._agreed = self._agreed
        new._heuristic = self._heuristic
        new._evaluate = self._evaluate
        return new

    # -- the view for the UI -------------------------------------------------------------------------

    def piece_at(self, square: int) -> str | None:
        """``"b"``/``"w"`` for a man, ``"B"``/``"W"`` for a king, None for an empty square."""
        b = 1 << (square - 1)
        if self.black & b:
            return "B" if self.kings & b else "b"
        if self.white & b:
            return "W" if self.kings & b else "w"
        return None

    def counts(self) -> dict[str, int]:
        """Men and kings of each side: keys ``b``, ``B``, ``w``, ``W`` (as in :meth:`piece_at`)."""
        k = self.kings
        return {"b": (self.black & ~k).bit_count(), "B": (self.black & k).bit_count(),
                "w": (self.white & ~k).bit_count(), "W": (self.white & k).bit_count()}

    def diagram(self) -> str:
        """The board as text, Black at the top: b/w men, B/W kings, '.' empty dark squares."""
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                sq = square_of(row, col)
                cells.append(" " if sq is None else (self.piece_at(sq) or "."))
            lines.append(" ".join(cells))
        return "\n".join(lines)

    @property
    def ply(self) -> int:
        """Moves played since the start position."""
        return len(self.history)


START_FEN_CANONICAL = format_fen(START_BLACK, START_WHITE, 0, BLACK)
