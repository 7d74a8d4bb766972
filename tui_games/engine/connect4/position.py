"""The Connect-4 position: a 7×6 bitboard with its move history (layout in :mod:`.bits`).

Two masks describe the board, as in Pascal Pons' solver: ``current`` (the discs of the side
to move) and ``mask`` (all discs). Playing swaps the roles: ``current ^= mask`` leaves the
opponent's discs, who are to move next, and ``mask |= mask + BOTTOM_MASK[col]`` drops the
new disc on top of its column. Undoing needs only the column: the top disc of that column is
the highest set bit of the column in ``mask``.

Moves are 0-based columns; the notation (``parse``/``format``) is the standard one of the
solver test sets, the 1-based column digits played from the empty board (``"4453"``).

Variant ``full_board``: a four does not end the game. Play goes on until the board is full
and whoever holds more fours wins (:func:`bits.count_fours`: every four-cell window full of
one side's discs counts, so a line of five is two fours); equal counts are a draw.
"""

from __future__ import annotations

from typing import Iterable

from tui_games.engine.connect4.bits import (
    BOARD,
    BOTTOM,
    BOTTOM_MASK,
    CELLS,
    CENTRE_ORDER,
    COLUMN_MASK,
    COLUMNS,
    ROWS,
    STRIDE,
    TOP_MASK,
    cells,
    completing_cells,
    count_fours,
    four_cells,
    has_four,
    mirror,
)
from tui_games.engine.connect4.heuristics import HEURISTICS, resolve_heuristic
from tui_games.engine.connect4.playout import playout as random_playout
from tui_games.engine.game import DeadDraws, OrderedMoves, Outcome, Playouts, Symmetries

__all__ = ["COLUMNS", "ROWS", "Connect4", "Connect4Error", "FORCED_WIN_SCORE", "MARKS"]

# evaluate() of a position where the side to move can complete a four at once. It outranks
# every heuristic value and stays below search.WIN_BOUND, so it is never taken for a proof.
FORCED_WIN_SCORE = 500_000
MARKS = "XO"


class Connect4Error(ValueError):
    """An illegal move or move string; the message names the position and the problem."""


class Connect4(OrderedMoves[int], DeadDraws, Symmetries[int], Playouts):
    """A Connect-4 position with its move history; ``turn`` 0 is the first player."""

    __slots__ = ("current", "mask", "moves", "turn", "history", "full_board", "_outcome",
                 "_heuristic", "_evaluate")

    def __init__(self, full_board: bool = False, *, heuristic: str = "default") -> None:
        self.current = 0
        self.mask = 0
        self.moves = 0
        self.turn = 0
        self.history: list[int] = []
        self.full_board = bool(full_board)
        self._outcome: Outcome | None = None
        self.heuristic = heuristic

    @property
    def heuristic(self) -> str:
        """The name of the evaluation function :meth:`evaluate` uses (see ``HEURISTICS``)."""
        return self._heuristic

    @heuristic.setter
    def heuristic(self, name: str) -> None:
        key = resolve_heuristic(name)
        self._heuristic = key
        self._evaluate = HEURISTICS[key]

    # -- notation ------------------------------------------------------------------------------

    @classmethod
    def parse(cls, moves: str, full_board: bool = False, *, heuristic: str = "default") -> "Connect4":
        """The position after ``moves``, 1-based column digits from the empty board.

        Raises Connect4Error naming the move, the string and the problem, e.g.
        ``move 5 ('8') in '12348': column 8 is not 1-7``.
        """
        text = moves.strip()
        pos = cls(full_board, heuristic=heuristic)
        for i, ch in enumerate(text, 1):
            where = f"move {i} ({ch!r}) in {text!r}"
            if not ("1" <= ch <= str(COLUMNS)):
                if ch.isdigit():
                    raise Connect4Error(f"{where}: column {ch} is not 1-{COLUMNS}")
                raise Connect4Error(f"{where}: {ch!r} is not a column digit 1-{COLUMNS}")
            col = int(ch) - 1
            if pos._outcome is not None:
                raise Connect4Error(f"{where}: the game was already over")
            if pos.mask & TOP_MASK[col]:
                raise Connect4Error(f"{where}: column {ch} is full")
            pos.push(col)
        return pos

    def format(self) -> str:
        """The move string: 1-based column digits from the empty board."""
        return "".join(str(c + 1) for c in self.history)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        variant = ", full_board=True" if self.full_board else ""
        return f"Connect4.parse({self.format()!r}{variant})"

    def diagram(self) -> str:
        """The board as text, top row first: X for the first player, O, and '.'."""
        lines = []
        for row in range(ROWS - 1, -1, -1):
            line = ""
            for col in range(COLUMNS):
                owner = self.cell(row, col)
                line += "." if owner is None else MARKS[owner]
            lines.append(line)
        lines.append("".join(str(c + 1) for c in range(COLUMNS)))
        return "\n".join(lines)

    def move_name(self, col: int) -> str:
        """The name of a move as players and the notation see it: the 1-based column digit."""
        return str(col + 1)

    # -- the position protocol -------------------------------------------------------------------

    def can_play(self, col: int) -> bool:
        """``col`` is on the board, not full, and the game is still on."""
        return self._outcome is None and 0 <= col < COLUMNS and not self.mask & TOP_MASK[col]

    def legal_moves(self) -> list[int]:
        if self._outcome is not None:
            return []
        mask = self.mask
        return [c for c in range(COLUMNS) if not mask & TOP_MASK[c]]

    def push(self, col: int) -> None:
        """Drop a disc of the side to move in ``col`` (0-based)."""
        mask = self.mask
        if self._outcome is not None or not 0 <= col < COLUMNS or mask & TOP_MASK[col]:
            problem = ("the game is over" if self._outcome is not None
                       else f"column {col + 1} is full" if 0 <= col < COLUMNS
                       else f"column index {col} is not 0-{COLUMNS - 1}")
            raise Connect4Error(f"cannot play {col + 1} after {self.format()!r}: {problem}")
        player = self.turn
        self.current ^= mask
        mask |= mask + BOTTOM_MASK[col]
        self.mask = mask
        self.moves += 1
        self.turn = 1 - player
        self.history.append(col)
        if self.full_board:
            if self.moves == CELLS:
                self._outcome = self._count_outcome()
        elif has_four(mask ^ self.current):
            self._outcome = Outcome(player, "four")
        elif self.moves == CELLS:
            self._outcome = Outcome(None, "full")

    def pop(self) -> int:
        """Take back the last move and return its column."""
        col = self.history.pop()
        mask = self.mask
        height = ((mask & COLUMN_MASK[col]) >> (col * STRIDE)).bit_length()
        mask ^= 1 << (col * STRIDE + height - 1)
        self.mask = mask
        # Before the move the mover's discs were ``current``; now ``current`` is the other
        # side's, which is the old mask minus the mover's discs.
        self.current ^= mask
        self.moves -= 1
        self.turn = 1 - self.turn
        # No move is ever played after the end, so the position before any move was running.
        self._outcome = None
        return col

    def outcome(self) -> Outcome | None:
        """None while the game goes on; the winner (or None for a draw) and why: "four" (a
        four ended the game) or "full" (the board filled up)."""
        return self._outcome

    def key(self) -> int:
        """A unique key of the position: ``current + mask`` (Pons). Adding the mask sets, in
        every column, the bit just above the top disc, which encodes the heights, and keeps
        the side to move's discs as they are: distinct positions get distinct keys."""
        return self.current + self.mask

    def playout(self, seed: int, max_plies: int) -> int | None:
        """The winner of a random game from here (:mod:`.playout`: compiled where built, the
        same game as its Python twin for the same seed); the position is not changed."""
        if self._outcome is not None:
            return self._outcome.winner
        result = random_playout(self.current, self.mask, self.moves, seed, max_plies, self.full_board)
        return None if result == 0 else self.turn if result > 0 else 1 - self.turn

    def copy(self) -> "Connect4":
        new = Connect4.__new__(Connect4)
        new.current = self.current
        new.mask = self.mask
        new.moves = self.moves
        new.turn = self.turn
        new.history = list(self.history)
        new.full_board = self.full_board
        new._outcome = self._outcome
        new._heuristic = self._heuristic
        new._evaluate = self._evaluate
        return new

    def evaluate(self) -> int:
        """Heuristic value for the side to move, by the function named in ``heuristic``.

        In the normal game the facts of the next ply come first, whatever the heuristic: a
        side that can complete a four now scores ``FORCED_WIN_SCORE``; one facing two
        immediate threats it cannot both block scores minus half of that; a dead draw (no
        four possible for either side, see :meth:`is_dead_draw`) scores 0. The first rule is
        what keeps :meth:`ordered_moves` from changing any value (see there).
        """
        own, mask = self.current, self.mask
        opp = own ^ mask
        if not self.full_board:
            nxt = (mask + BOTTOM) & BOARD
            if completing_cells(own) & nxt:
                return FORCED_WIN_SCORE
            if not has_four(BOARD & ~opp) and not has_four(BOARD & ~own):
                return 0
            threats = completing_cells(opp) & nxt
            if threats & (threats - 1):
                return -FORCED_WIN_SCORE // 2
        return self._evaluate(own, opp, mask)

    def ordered_moves(self) -> Iterable[int]:
        """The moves worth searching, likeliest best first (the ordered searches use this).

        Normal game, as in Pons' ``possibleNonLosingMoves``: a move that completes a four
        is played alone; a move that leaves the opponent an immediate four is left out (not
        blocking a playable threat, or filling the cell under one of the opponent's threat
        cells) unless every move does that. The rest go by the number of threat cells the
        move gives the mover (Pons' ``moveScore``), centre first among equals.

        Why values never change: a move left out lets the opponent complete a four on the
        next ply. With two or more plies left, that scores a loss at ply + 2, the worst any
        move can score here, since a kept move cannot lose that early; at the horizon (one
        ply left) the child's ``evaluate`` is ``FORCED_WIN_SCORE`` for the opponent, the
        highest value it can return, so the move scores the lowest. Either way the best
        value is among the moves kept. A winning move scores the fastest win, the best there
        is. When every move is left out, all score the same loss and the forced ones are
        returned. The full-board variant keeps every move (a four does not end the game),
        centre first.
        """
        if self._outcome is not None:
            return []
        own, mask = self.current, self.mask
        possible = (mask + BOTTOM) & BOARD
        if self.full_board:
            return [c for c in CENTRE_ORDER if possible & COLUMN_MASK[c]]
        wins = completing_cells(own) & possible
        if wins:
            return [next(c for c in CENTRE_ORDER if wins & COLUMN_MASK[c])]
        opp_wins = completing_cells(own ^ mask)
        forced = possible & opp_wins
        if forced:
            if forced & (forced - 1):
                return [c for c in CENTRE_ORDER if forced & COLUMN_MASK[c]]
            possible = forced
        safe = possible & ~(opp_wins >> 1)
        if not safe:
            return [c for c in CENTRE_ORDER if possible & COLUMN_MASK[c]]
        empty = BOARD & ~mask
        scored = []
        for rank, c in enumerate(CENTRE_ORDER):
            move = safe & COLUMN_MASK[c]
            if move:
                scored.append((-(completing_cells(own | move) & empty).bit_count(), rank, c))
        scored.sort()
        return [c for _, _, c in scored]

    def is_dead_draw(self) -> bool:
        """Neither side can complete a four any more (every window holds discs of both), so
        the game ends in a draw whatever is played. Never in the full-board variant, where
        the fours already made decide."""
        if self.full_board:
            return False
        own, mask = self.current, self.mask
        return not has_four(BOARD & ~(own ^ mask)) and not has_four(BOARD & ~own)

    def move_classes(self) -> dict[int, int]:
        """Each legal move mapped to the representative of its class of equal moves: on a
        board that is its own mirror image, columns c and 6 - c are worth the same."""
        moves = self.legal_moves()
        if not self._symmetric():
            return {c: c for c in moves}
        return {c: min(c, COLUMNS - 1 - c) if c != 3 else 3 for c in moves}

    def equivalent_line(self, line: list[int], move: int) -> list[int]:
        """``line`` mirrored so it starts with ``move`` (used with :meth:`move_classes`)."""
        if line and line[0] == move:
            return list(line)
        return [COLUMNS - 1 - c for c in line]

    def _symmetric(self) -> bool:
        return mirror(self.current) == self.current and mirror(self.mask) == self.mask

    # -- the view for the UI ------------------------------------------------------------------------

    def player_discs(self, player: int) -> int:
        """The bitboard of ``player``'s discs (0 moves first)."""
        return self.current if player == self.turn else self.current ^ self.mask

    def cell(self, row: int, col: int) -> int | None:
        """Who holds the cell at ``row`` (0 = bottom), ``col``: 0, 1 or None if empty."""
        b = 1 << (col * STRIDE + row)
        if not self.mask & b:
            return None
        return self.turn if self.current & b else 1 - self.turn

    def height(self, col: int) -> int:
        """How many discs ``col`` holds (the row the next disc lands on)."""
        return ((self.mask & COLUMN_MASK[col]) >> (col * STRIDE)).bit_length()

    def is_winning_move(self, col: int) -> bool:
        """Playing ``col`` now completes a four for the side to move."""
        if not self.can_play(col):
            return False
        possible = (self.mask + BOTTOM) & BOARD
        return bool(completing_cells(self.current) & possible & COLUMN_MASK[col])

    def count_fours(self, player: int) -> int:
        """The fours ``player`` holds (each full window counts; a line of five is two)."""
        return count_fours(self.player_discs(player))

    def winning_cells(self) -> set[tuple[int, int]]:
        """(row, col) of every cell in a completed four, of both sides (in the normal game
        only the winner can have one)."""
        return set(cells(four_cells(self.current) | four_cells(self.current ^ self.mask)))

    def _count_outcome(self) -> Outcome:
        a, b = self.count_fours(0), self.count_fours(1)
        return Outcome(None if a == b else 0 if a > b else 1, "full")
