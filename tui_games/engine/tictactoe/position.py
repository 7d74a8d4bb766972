"""m,n,k tic-tac-toe: boards from 3×3 to 7×7, k in a row, normal or misère ("reverse").

A board is two bitmasks, one per player, bit ``r * cols + c`` for the cell at row r,
column c. Every k-cell window is precomputed as a mask, and each cell knows the windows
through it, so the win test after a move looks only at those.

Text format: rows of ``X``, ``O`` and ``.`` joined by ``/`` (``X.O/.X./...``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable

from tui_games.engine.game import DeadDraws, OrderedMoves, Outcome, Symmetries

X, O = 0, 1
MARKS = "XO"
MIN_SIZE, MAX_SIZE = 3, 7
COLUMN_LETTERS = "abcdefg"
SYMMETRY_MARKS = 4
# Heuristic scores for "can complete a line now" / "faces two threats"; they stay below
# search.WIN_BOUND so they are never mistaken for proven results.
FORCED_WIN_SCORE = 500_000


class BoardError(ValueError):
    """A board that cannot be parsed or is impossible; the message names what and where."""


@dataclass(frozen=True)
class Geometry:
    """Everything about an m×n board with k in a row that never changes during a game."""

    rows: int
    cols: int
    k: int
    windows: tuple[int, ...]
    windows_through: tuple[tuple[int, ...], ...]
    centre_order: tuple[int, ...]
    symmetries: tuple[tuple[int, ...], ...]
    full: int


@lru_cache(maxsize=None)
def geometry(rows: int, cols: int, k: int) -> Geometry:
    if not (MIN_SIZE <= rows <= MAX_SIZE and MIN_SIZE <= cols <= MAX_SIZE):
        raise BoardError(f"board {rows}x{cols} is outside {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}")
    if not MIN_SIZE <= k <= min(rows, cols):
        raise BoardError(f"k={k} must be from {MIN_SIZE} to {min(rows, cols)} on a {rows}x{cols} board")
    windows = []
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    mask = 0
                    for i in range(k):
                        mask |= 1 << ((r + dr * i) * cols + c + dc * i)
                    windows.append(mask)
    cells = rows * cols
    through = tuple(tuple(w for w in windows if w >> cell & 1) for cell in range(cells))
    mid_r, mid_c = (rows - 1) / 2, (cols - 1) / 2
    # Centre first, then outwards; corners last among equals since they sit in fewer lines.
    centre_order = tuple(
        sorted(range(cells), key=lambda i: (abs(i // cols - mid_r) + abs(i % cols - mid_c), -len(through[i]), i))
    )
    maps: list[Callable[[int, int], tuple[int, int]]] = [lambda r, c: (r, c), lambda r, c: (r, cols - 1 - c), lambda r, c: (rows - 1 - r, c),
            lambda r, c: (rows - 1 - r, cols - 1 - c)]
    if rows == cols:
        n = rows - 1
        maps += [lambda r, c: (c, r), lambda r, c: (n - c, n - r), lambda r, c: (c, n - r), lambda r, c: (n - c, r)]
    symmetries = tuple(tuple(m(i // cols, i % cols)[0] * cols + m(i // cols, i % cols)[1] for i in range(cells))
                       for m in maps)
    return Geometry(rows, cols, k, tuple(windows), through, centre_order, symmetries, (1 << cells) - 1)


# Heuristic weights by how many marks one player has in an otherwise empty window.
def _weights(k: int) -> tuple[int, ...]:
    return tuple(0 if n == 0 else 4 ** n for n in range(k + 1))


class TicTacToe(OrderedMoves[int], DeadDraws, Symmetries[int]):
    """A tic-tac-toe position with its move history.

    ``symmetry=True`` lets the ordered searches skip moves that a symmetry of the board
    makes equal to one already searched (``move_classes``), while the board holds at most
    ``SYMMETRY_MARKS`` marks; deeper, boards are rarely symmetric and the test would cost
    more than it saves. (Canonical transposition keys over all eight images were tried too:
    they halved the node rate and scrambled the principal variation read from the table.)
    """

    __slots__ = ("geo", "rows", "cols", "k", "misere", "bits", "turn", "history",
                 "_outcome", "_initial_outcome", "symmetry", "_weights")

    def __init__(self, rows: int = 3, cols: int = 3, k: int = 3, misere: bool = False, *, symmetry: bool = False) -> None:
        self.geo = geometry(rows, cols, k)
        self.rows, self.cols, self.k, self.misere = rows, cols, k, misere
        self.bits = [0, 0]
        self.turn = X
        self.history: list[int] = []
        self._outcome: Outcome | None = None
        self._initial_outcome: Outcome | None = None
        self.symmetry = symmetry
        self._weights = _weights(k)

    # -- text ----------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, k: int | None = None, misere: bool = False, to_move: str | None = None,
              *, symmetry: bool = False) -> "TicTacToe":
        """A board from ``X.O/.X./...``; ``k`` defaults to the shorter side of the board.

        Raises BoardError naming the row and column or the problem.
        """
        text = text.strip()
        if not text:
            raise BoardError("empty board: give rows of X, O and . joined by '/'")
        rows = text.split("/")
        cols = len(rows[0])
        for i, row in enumerate(rows, 1):
            if len(row) != cols:
                raise BoardError(f"row {i} has {len(row)} cells, row 1 has {cols}")
            for j, ch in enumerate(row, 1):
                if ch.upper() not in "XO.":
                    raise BoardError(f"row {i}, column {j}: {ch!r} is not X, O or '.'")
        if k is None:
            k = min(len(rows), cols)
        pos = cls(len(rows), cols, k, misere, symmetry=symmetry)
        counts = [0, 0]
        for r, row in enumerate(rows):
            for c, ch in enumerate(row.upper()):
                if ch != ".":
                    player = MARKS.index(ch)
                    pos.bits[player] |= 1 << (r * cols + c)
                    counts[player] += 1
        x, o = counts
        if abs(x - o) > 1:
            raise BoardError(f"impossible board: {x} X and {o} O (the counts differ by at most one)")
        natural = O if x > o else X if o > x else None
        if to_move is not None:
            want = to_move.strip().upper()
            if want not in ("X", "O"):
                raise BoardError(f"side to move {to_move!r} is not X or O")
            wanted = MARKS.index(want)
            if natural is not None and wanted != natural:
                raise BoardError(f"{want} cannot be to move with {x} X and {o} O on the board")
            pos.turn = wanted
        else:
            pos.turn = natural if natural is not None else X
        pos._outcome = pos._initial_outcome = pos._judge_static()
        return pos

    def format(self) -> str:
        out = []
        for r in range(self.rows):
            out.append("".join(self.mark_at(r * self.cols + c) for c in range(self.cols)))
        return "/".join(out)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        variant = ", misere" if self.misere else ""
        return f"TicTacToe({self.format()!r}, k={self.k}{variant}, to_move={MARKS[self.turn]})"

    def mark_at(self, cell: int) -> str:
        if self.bits[X] >> cell & 1:
            return "X"
        if self.bits[O] >> cell & 1:
            return "O"
        return "."

    def move_name(self, cell: int) -> str:
        """``b2``: column letter, row number from the top, as the board's edges show them."""
        return f"{COLUMN_LETTERS[cell % self.cols]}{cell // self.cols + 1}"

    def parse_move(self, text: str) -> int:
        """A move from ``b2`` or ``row,col`` (0-based); BoardError if it is not a legal move."""
        t = text.strip().lower()
        try:
            if "," in t:
                r, c = (int(p) for p in t.split(","))
            else:
                c, r = COLUMN_LETTERS.index(t[0]), int(t[1:]) - 1
        except (ValueError, IndexError):
            raise BoardError(f"move {text!r} is not like b2 or 1,1") from None
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise BoardError(f"move {text!r} is off the {self.rows}x{self.cols} board")
        cell = r * self.cols + c
        if cell not in self.legal_moves():
            raise BoardError(f"move {text!r}: that cell is taken or the game is over")
        return cell

    # -- the position protocol -------------------------------------------------------------

    def legal_moves(self) -> list[int]:
        if self._outcome is not None:
            return []
        free = ~(self.bits[X] | self.bits[O]) & self.geo.full
        moves = []
        while free:
            low = free & -free
            moves.append(low.bit_length() - 1)
            free ^= low
        return moves

    def ordered_moves(self) -> Iterable[int]:
        """The moves worth searching, likeliest best first.

        Normal play: an immediate win if there is one; else, if the opponent threatens to
        complete a line, only the blocking cells (any other move loses at once); else every
        move from the centre outwards. Misère: moves that would complete one's own line are
        left out unless nothing else is possible. Leaving those moves out never changes a
        value — they can only score worse or equal (see ``evaluate``) — so the ordered
        searches agree with plain minimax while searching far fewer nodes.
        """
        if self._outcome is not None:
            return []
        taken = self.bits[X] | self.bits[O]
        order = [c for c in self.geo.centre_order if not taken >> c & 1]
        wins, threats = self._finishing_cells()
        if self.misere:
            safe = [c for c in order if not wins >> c & 1]
            return safe or order
        if wins:
            return [(wins & -wins).bit_length() - 1]
        if threats:
            return [c for c in order if threats >> c & 1]
        if self.symmetry and (taken.bit_count() <= SYMMETRY_MARKS):
            classes = self.move_classes()
            return [c for c in order if classes[c] == c]
        return order

    def _finishing_cells(self) -> tuple[int, int]:
        """Masks of the empty cells that would complete a window for the side to move, and
        for the opponent."""
        me, you = self.bits[self.turn], self.bits[1 - self.turn]
        need = self.k - 1
        wins = threats = 0
        for w in self.geo.windows:
            a = me & w
            b = you & w
            if not b:
                if a.bit_count() == need:
                    wins |= w & ~a
            elif not a and b.bit_count() == need:
                threats |= w & ~b
        return wins, threats

    def push(self, cell: int) -> None:
        player = self.turn
        self.bits[player] |= 1 << cell
        self.history.append(cell)
        self.turn = 1 - player
        mine = self.bits[player]
        for w in self.geo.windows_through[cell]:
            if mine & w == w:
                self._outcome = Outcome(1 - player if self.misere else player, "line")
                return
        if (self.bits[X] | self.bits[O]) == self.geo.full:
            self._outcome = Outcome(None, "full")

    def pop(self) -> int:
        cell = self.history.pop()
        player = 1 - self.turn
        self.bits[player] &= ~(1 << cell)
        self.turn = player
        self._outcome = None if self.history else self._initial_outcome
        return cell

    def outcome(self) -> Outcome | None:
        return self._outcome

    def key(self) -> int:
        cells = self.rows * self.cols
        return self.bits[X] | self.bits[O] << cells | self.turn << 2 * cells

    def move_classes(self) -> dict[int, int]:
        """Each legal move mapped to the representative of its class of equal moves: moves
        that a symmetry of the board (one leaving every mark in place) carries into each
        other have equal values, so a search need only look at one per class. Only computed
        early in the game, where symmetric boards occur; later every move is its own class.
        """
        moves = self.legal_moves()
        groups = self._stabilizer()
        if len(groups) <= 1:
            return {m: m for m in moves}
        rank = {c: i for i, c in enumerate(self.geo.centre_order)}
        rep = {}
        for m in moves:
            rep[m] = min((perm[m] for perm in groups), key=rank.__getitem__)
        return rep

    def equivalent_line(self, line: list[int], move: int) -> list[int]:
        """``line``, starting with a move of the same class as ``move``, carried by a symmetry
        of this board onto one that starts with ``move``: an equally good line."""
        if line and line[0] == move:
            # Its own class (with symmetry off, every move's): the identity, which the
            # stabilizer holds only while symmetries are looked for.
            return list(line)
        for perm in self._stabilizer():
            if perm[line[0]] == move:
                return [perm[m] for m in line]
        raise ValueError(f"{self.move_name(move)} is not equivalent to {self.move_name(line[0])}")

    def _stabilizer(self) -> list[tuple[int, ...]]:
        if not self.symmetry or (self.bits[X] | self.bits[O]).bit_count() > SYMMETRY_MARKS:
            return []
        found = []
        marks = [(c, p) for p in (X, O) for c in self.cells_of(self.bits[p])]
        for perm in self.geo.symmetries:
            if all(self.bits[p] >> perm[c] & 1 for c, p in marks):
                found.append(perm)
        return found

    def is_dead_draw(self) -> bool:
        """No window is left that one player alone occupies or that is empty: whoever plays
        what, nobody can complete a line, so the game is a draw (in misère too)."""
        x, o = self.bits
        for w in self.geo.windows:
            if not (x & w and o & w):
                return False
        return True

    def copy(self) -> "TicTacToe":
        new = TicTacToe.__new__(TicTacToe)
        for name in self.__slots__:
            setattr(new, name, getattr(self, name))
        new.bits = list(self.bits)
        new.history = list(self.history)
        return new

    def evaluate(self) -> int:
        """Heuristic from the side to move. A move that completes a line on the next ply
        dominates (it decides the game); otherwise open windows count: 4^n for n own marks
        in a window the opponent has not entered, minus the same for the opponent.
        In misère a completed line loses, so every sign flips."""
        me, you = self.bits[self.turn], self.bits[1 - self.turn]
        need = self.k - 1
        weights = self._weights
        score = 0
        my_finish = your_finish = 0
        for w in self.geo.windows:
            a = me & w
            b = you & w
            if a and not b:
                n = a.bit_count()
                if n == need:
                    my_finish |= w & ~a
                score += weights[n]
            elif b and not a:
                n = b.bit_count()
                if n == need:
                    your_finish |= w & ~b
                score -= weights[n]
            elif not a and not b and need == 0:
                my_finish |= w
        if not self.misere:
            if my_finish:
                return FORCED_WIN_SCORE
            if your_finish & (your_finish - 1):
                # Two separate threats cannot both be blocked.
                return -FORCED_WIN_SCORE // 2
            return score
        return -score

    # -- helpers ---------------------------------------------------------------------------

    def _judge_static(self) -> Outcome | None:
        """The outcome of a parsed board, which has no last move to look at."""
        lines = [[w for w in self.geo.windows if self.bits[p] & w == w] for p in (X, O)]
        if lines[X] and lines[O]:
            raise BoardError("impossible board: both X and O have a line")
        for p in (X, O):
            if lines[p]:
                return Outcome(1 - p if self.misere else p, "line")
        if (self.bits[X] | self.bits[O]) == self.geo.full:
            return Outcome(None, "full")
        return None

    @property
    def empties(self) -> int:
        return self.rows * self.cols - (self.bits[X] | self.bits[O]).bit_count()

    def winning_line(self) -> int:
        """The mask of a completed window, or 0 (for highlighting the end of a game)."""
        for p in (X, O):
            for w in self.geo.windows:
                if self.bits[p] & w == w:
                    return w
        return 0

    def cells_of(self, mask: int) -> list[int]:
        return [i for i in range(self.rows * self.cols) if mask >> i & 1]
