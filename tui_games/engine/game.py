"""Types every game shares: outcomes, the position contract the search relies on, and the
optional search hooks a position may declare.

A position meets :class:`Position` structurally (no base class needed). The hooks are
different: a position *declares* each one it offers by naming its protocol among its base
classes (``class Connect4(OrderedMoves, DeadDraws, Symmetries)``), and the search asks
``isinstance(position, OrderedMoves)``, never whether some attribute happens to exist. Every
contract, the adapters' included, is listed in :mod:`tui_games.engine.contracts`; the tests
in ``tests/engine/test_contracts.py`` hold every game of the table to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Protocol, TypeVar, runtime_checkable

Move = TypeVar("Move", bound=Hashable)
# OrderedMoves only hands moves out.
Move_co = TypeVar("Move_co", bound=Hashable, covariant=True)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended. ``winner`` is the player index (0 moves first) or None."""

    winner: int | None
    reason: str

    def value_for(self, player: int) -> int:
        """+1 if ``player`` won, -1 if they lost, 0 for a draw."""
        if self.winner is None:
            return 0
        return 1 if self.winner == player else -1


class Position(Protocol[Move]):
    """What the generic search, the players and the arena need from a game position.

    ``turn`` is the index of the player to move (0 moves first); ``history`` the moves pushed
    since the position was set up, oldest first. ``pop`` takes back the last of them and
    returns it; ``key`` identifies the position (board and side to move) for transposition
    tables, so ``push`` then ``pop`` gives back the same key. ``outcome`` is None while the
    game goes on, and a finished position has no legal moves. ``evaluate`` scores the
    position from the mover's point of view and must stay well inside ``search.WIN``.
    ``copy`` is independent of the original: pushing on one never changes the other.
    """

    turn: int

    @property
    def history(self) -> list[Move]: ...

    def legal_moves(self) -> list[Move]: ...

    def push(self, move: Move) -> None: ...

    def pop(self) -> Move: ...

    def outcome(self) -> Outcome | None: ...

    def evaluate(self) -> int: ...

    def key(self) -> Hashable: ...

    def copy(self) -> Position[Move]: ...


# -- optional hooks of the search: each one a position declares by subclassing it ----------------

# Subclassing a protocol normally gives the subclass a __dict__; the empty __slots__ keep
# the positions that declare a hook as small as they were.


@runtime_checkable
class OrderedMoves(Protocol[Move_co]):
    """The position can put its likeliest good moves first, and may leave out moves that
    cannot change any value (a move that lets the opponent win at once): the ordered
    searches then search these instead of ``legal_moves``."""

    __slots__ = ()

    def ordered_moves(self) -> Iterable[Move_co]: ...


@runtime_checkable
class DeadDraws(Protocol):
    """The position can tell that nobody can win any more, whatever is played: the full
    engine stops there with a draw (its ``evaluate`` of such a position must be 0, so that
    depth-limited values agree)."""

    __slots__ = ()

    def is_dead_draw(self) -> bool: ...


@runtime_checkable
class Symmetries(Protocol[Move]):
    """The position knows which legal moves a symmetry of the board makes equal, so the
    search scores one move per class at the root."""

    __slots__ = ()

    def move_classes(self) -> dict[Move, Move]:
        """Each legal move mapped to the representative of its class."""
        ...

    def equivalent_line(self, line: list[Move], move: Move) -> list[Move]:
        """``line``, which starts with a move of ``move``'s class, carried onto one that
        starts with ``move``."""
        ...


@runtime_checkable
class Playouts(Protocol):
    """The position plays a random game on from itself faster than the generic playout of
    Monte Carlo tree search (:func:`tui_games.engine.mcts.random_playout`): uniform over the
    legal moves, drawn from the game's own generator seeded with ``seed`` (so a compiled
    playout and its Python twin give the same game), a draw after ``max_plies``."""

    __slots__ = ()

    def playout(self, seed: int, max_plies: int) -> int | None:
        """The winner (0 or 1; None a draw) of that game; the position is left unchanged."""
        ...
