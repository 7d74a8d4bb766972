"""Types every game shares: outcomes and the position protocol the search relies on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Protocol, TypeVar

Move = TypeVar("Move", bound=Hashable)


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
    """What the generic search needs from a game position.

    ``turn`` is the index of the player to move (0 or 1); ``evaluate`` scores the position
    from that player's point of view and must stay well inside ``search.WIN``.
    """

    turn: int

    def legal_moves(self) -> list[Move]: ...

    def push(self, move: Move) -> None: ...

    def pop(self) -> Move: ...

    def outcome(self) -> Outcome | None: ...

    def evaluate(self) -> int: ...

    def key(self) -> Hashable: ...

    def copy(self) -> "Position[Move]": ...


class OrderedPosition(Position[Move], Protocol[Move]):
    """A position that can put its likeliest good moves first (optional)."""

    def ordered_moves(self) -> Iterable[Move]: ...
