"""Who is here: a player is present while a session of theirs is open on the lobby (an app, a
``watch`` stream) or they acted in the last PRESENT_SECONDS (a request of the app, an ``ssh …``
command), whichever way they play. Claims (hub.Lobby.claim) are judged by it.

Also each player's request budget for commands: a token bucket per player, so a bot may run
many commands at once but not without end.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable

PRESENT_SECONDS = 60.0
COMMAND_RATE = 30.0  # commands a second for one player (a bot running several at once), in bursts
COMMAND_BURST = 60


class Presence:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.acted: dict[str, float] = {}
        self.open: Counter[str] = Counter()
        self._buckets: dict[str, tuple[float, float]] = {}

    def act(self, player: str) -> None:
        self.acted[player] = self.clock()

    def connected(self, player: str, step: int) -> None:
        """A session of ``player`` opened (+1) or closed (-1); closing counts as acting."""
        self.open[player] += step
        if self.open[player] <= 0:
            del self.open[player]
        self.act(player)

    def here(self, player: str) -> bool:
        return self.away_for(player) is None

    def away_for(self, player: str) -> float | None:
        """Seconds since ``player`` last acted, or None while they are present."""
        if self.open.get(player):
            return None
        last = self.acted.get(player)
        if last is None:
            return float("inf")
        gone = self.clock() - last
        return None if gone < PRESENT_SECONDS else gone

    def allow(self, player: str) -> bool:
        """One command of ``player`` within their budget (and counted), or False."""
        now = self.clock()
        tokens, then = self._buckets.get(player, (COMMAND_BURST, now))
        tokens = min(COMMAND_BURST, tokens + max(0.0, now - then) * COMMAND_RATE)
        if tokens < 1:
            self._buckets[player] = (tokens, now)
            return False
        self._buckets[player] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget the full buckets of players long gone
            self._buckets = {p: b for p, b in self._buckets.items() if b[0] < COMMAND_BURST}
        return True
