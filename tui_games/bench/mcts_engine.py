"""What ``bench connect4 --mcts`` asks of an MCTS it measures: ours and OpenSpiel's alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tui_games.engine.connect4.position import Connect4


@dataclass(frozen=True)
class Searched:
    """One search: the column chosen, the playouts made (fewer when the root was proven), the
    searching thread's CPU seconds, and whether the solver proved the root's value."""

    move: int
    playouts: int
    cpu: float
    proven: bool


class MCTSEngine(Protocol):
    """A Monte Carlo tree search the bench can run: a fresh tree each call, seeded."""

    @property
    def label(self) -> str: ...

    def search(self, position: Connect4, playouts: int, seed: int) -> Searched: ...
