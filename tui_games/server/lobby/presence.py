"""Who is here: a player is present while an app of theirs is open on the lobby or they acted
in the last PRESENT_SECONDS (a request of the app, an ``ssh …`` command), whichever way they
play. Claims (hub.Lobby.claim) are judged by it. A ``watch`` stream is not playing: it keeps
nobody present (a bot that watches and moves by command is present by its commands), or an
idle watcher of his own clockless game could never be claimed against.

With front ends sharing one lobby (storage.py), each writes its players' sessions and last
acts to the database (an act at most every SHARE_EVERY seconds), and a player is present if
any live front end says so: a claim is judged across all of them.

Also each player's request budget for commands: a token bucket per player, so a bot may run
many commands at once but not without end.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Protocol

PRESENT_SECONDS = 60.0
COMMAND_RATE = 30.0  # commands a second for one player (a bot running several at once), in bursts
COMMAND_BURST = 60
SHARE_EVERY = 5.0  # seconds between one player's acts written for the other front ends


class SharedPresence(Protocol):
    """Where front ends keep their players' presence for each other (storage.py)."""

    def set_presence(self, frontend: str, player: str, sessions: int, acted: float) -> None: ...

    def presence(self, player: str, now: float) -> tuple[int, float | None]: ...


class Presence:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.acted: dict[str, float] = {}
        self.open: Counter[str] = Counter()
        self._buckets: dict[str, tuple[float, float]] = {}
        self.shared: SharedPresence | None = None
        self.frontend = ""
        self.on_change: Callable[[str], None] = lambda player: None  # sessions opened or closed here
        self._written: dict[str, float] = {}
        # When presence started (again): the lobby's start after downtime (frontend.py). Nobody
        # has been away for longer than the server has been up.
        self.floor = float("-inf")

    def share(self, shared: SharedPresence, frontend: str, on_change: Callable[[str], None]) -> None:
        """Keep this front end's presence in ``shared``, and consult the others' there."""
        self.shared, self.frontend, self.on_change = shared, frontend, on_change
        for player in set(self.open) | set(self.acted):
            self._write(player)

    def _write(self, player: str) -> None:
        if self.shared is not None:
            now = self.clock()
            self._written[player] = now
            self.shared.set_presence(self.frontend, player, self.open.get(player, 0), self.acted.get(player, now))
            if len(self._written) > 10_000:
                self._written = {p: t for p, t in self._written.items() if now - t < PRESENT_SECONDS}

    def act(self, player: str) -> None:
        now = self.acted[player] = self.clock()
        if self.shared is not None and now - self._written.get(player, -SHARE_EVERY) >= SHARE_EVERY:
            self._write(player)

    def connected(self, player: str, step: int) -> None:
        """A session of ``player`` opened (+1) or closed (-1); closing counts as acting."""
        self.open[player] += step
        if self.open[player] <= 0:
            del self.open[player]
        self.acted[player] = self.clock()
        if self.shared is not None:
            self._write(player)
            self.on_change(player)

    def here(self, player: str) -> bool:
        return self.away_for(player) is None

    def away_for(self, player: str) -> float | None:
        """Seconds since ``player`` last acted, or None while they are present."""
        if self.open.get(player):
            return None
        last = self.acted.get(player)
        if self.shared is not None:
            sessions, acted = self.shared.presence(player, self.clock())
            if sessions > 0:
                return None
            if acted is not None and (last is None or acted > last):
                last = acted
        if last is None or last < self.floor:
            last = self.floor
        if last == float("-inf"):
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
