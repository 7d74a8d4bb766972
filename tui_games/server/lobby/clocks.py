"""The lobby's clocks run on the server: one timer per live game that can end by itself (a
flag, a correspondence deadline, a first move not made), so that a game ends at that instant
with no request from anyone, and both players and the spectators are told at once.

The timers are rebuilt from the database when the lobby starts, and re-armed on every change
of a game (a move, a takeback): each fires at :meth:`Lobby.deadline`, measured on the lobby's
own clock.
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import GameRow, StorageUnavailable

MOST_GAMES = 100_000  # live games whose timers are rebuilt at start
LATE_RETRY = 0.05  # a timer that fired a hair early (float rounding) tries again this soon
UNREACHABLE_RETRY = 1.0  # a timer that found the database gone tries again this soon


class Clocks:
    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self._stop_listening: Callable[[], None] | None = None

    def start(self) -> None:
        self._stop_listening = self.lobby.listen(self._changed)
        self.rebuild()

    def stop(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()

    def rebuild(self) -> None:
        """Every live game's timer afresh from the database (at start, or after the clock moved)."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        for row in self.lobby.storage.games(status="live", limit=MOST_GAMES):
            self.arm(row)

    def arm(self, row: GameRow) -> None:
        old = self.timers.pop(row.id, None)
        if old is not None:
            old.cancel()
        deadline = self.lobby.deadline(row)
        if deadline is None:
            return
        delay = max(0.0, deadline - self.lobby.clock())
        self.timers[row.id] = asyncio.get_running_loop().call_later(delay, self._fire, row.id)

    def _fire(self, game_id: str) -> None:
        self.timers.pop(game_id, None)
        try:
            row = self.lobby.expire(game_id)  # ends it (and tells everyone) if the time is up
        except StorageUnavailable:  # (the database restarting): the flag falls when it is back
            self.timers[game_id] = asyncio.get_running_loop().call_later(UNREACHABLE_RETRY, self._fire, game_id)
            return
        if row is not None and row.status == "live" and game_id not in self.timers:
            deadline = self.lobby.deadline(row)
            if deadline is not None:
                delay = max(LATE_RETRY, deadline - self.lobby.clock())
                self.timers[game_id] = asyncio.get_running_loop().call_later(delay, self._fire, game_id)

    def _changed(self, kind: str, payload: Any) -> None:
        if kind == "game":
            self.arm(payload)
