"""One front end of a lobby that several may share (docs/serving.md, "Several front ends").

A front end is one ``serve --ssh`` process: its own SSH port, its own players' apps and their
Unix socket (hub_socket.py). What it shares with the others is the lobby's database
(storage.py); this is the rest of the sharing:

- **notices**: the other front ends' changes (a move, an offer, a chat line, a player's
  sessions) reach this one's listeners, so its apps, its ``watch`` streams, its clocks and its
  house players hear of them as of its own;
- **a heartbeat**: a row that says this front end is alive (its players' presence counts while
  it beats), and the lobby's own (``lobby_beat``): when any front end last beat. A front end
  that starts when none has beaten for DOWN_SECONDS finds the lobby was down, and gives the
  time back (storage.resume): every live game's clocks resume with the time each side had
  when the server stopped (nobody is flagged by an outage), presence starts again from zero
  for everyone (nobody is claimed against for being away while the server was), and a claim
  counts only the time the server was up. A front end dying while others run is not downtime:
  the others' clocks ran; its players count as present until its heartbeat ran out;
- **leases**: one front end at a time runs the lobby's clocks (the timers that end a game at
  its flag) and one the house players. A lease is renewed every TICK and lasts LEASE_SECONDS:
  when its holder dies, another takes it over within that time, rebuilds every live game's
  timer from the database and ends at once the games whose time ran out meanwhile. A front end
  that stops cleanly gives its leases back at once.

Sharing is harmless alone: with one front end it holds both leases and hears only itself.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
from typing import Any, Callable

from tui_games.server.lobby.clocks import Clocks
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import StorageUnavailable
from tui_games.server.log import event

TICK = 1.0  # seconds between heartbeats (and lease renewals)
LEASE_SECONDS = 5.0  # a dead holder's lease is taken over after this
ALIVE_SECONDS = 5.0  # a front end without a heartbeat for this long is dead: its sessions no longer count
CLOCKS, HOUSE = "clocks", "house"
LISTEN_SECONDS = 10.0  # at start, to wait for the database's notices to be listened to
DOWN_SECONDS = 2 * TICK  # no front end beating for longer than this: the lobby was down
FORGET_SECONDS = 3600.0  # a front end dead this long is forgotten (its row, its players' presence)


def frontend_id() -> str:
    """This process's name among the front ends: host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{secrets.token_hex(3)}"


class FrontEnd:
    def __init__(self, lobby: Lobby, clocks: Clocks, house: Any = None,
                 log: Callable[[str], None] = lambda line: None, director: Any = None) -> None:
        self.lobby, self.clocks, self.house, self.log = lobby, clocks, house, log
        self.director = director  # tournaments (tournament.py): they run with the clocks
        self.id = lobby.origin
        self.storage = lobby.storage
        self.held: set[str] = set()
        self._tasks: list[asyncio.Task] = []
        self._house_running = False
        self._listening = asyncio.Event()

    async def start(self) -> None:
        """Share the lobby: listening to the others first (nothing they do from then on is
        missed), then the heartbeat and the leases."""
        self.lobby.presence.share(self.storage, self.id, self._presence_changed)
        self.storage.forget_frontends(self.lobby.clock() - FORGET_SECONDS)
        relay = asyncio.create_task(self._relay())
        try:
            await asyncio.wait_for(self._listening.wait(), LISTEN_SECONDS)
        except asyncio.TimeoutError:  # (the database is slow to answer: its resync catches up later)
            self.log(event("lobby-database", state="not listening yet", after=f"{LISTEN_SECONDS:g}s"))
        # Before the first beat (and so before the clocks start): the downtime, if there was one.
        down, resumed = self.storage.resume(self.lobby.clock(), DOWN_SECONDS)
        self.lobby.presence.floor = resumed
        if down:
            self.log(event("resumed", down=f"{down:.0f}s", frontend=self.id,
                           reason="the lobby was down: the clocks resume as they were, presence from zero"))
        await self._beat()
        self._tasks = [asyncio.create_task(self._keep()), relay]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        if CLOCKS in self.held:
            self.clocks.stop()
            if self.director is not None:
                self.director.stop()
        if self._house_running:
            await self.house.close()
            self._house_running = False
        try:  # the others take over at once, not after LEASE_SECONDS
            for name in self.held:
                self.storage.release_lease(name, self.id)
            self.storage.heartbeat(self.id, 0.0)
        except (StorageUnavailable, OSError):
            pass
        self.held.clear()

    # -- heartbeat and leases ------------------------------------------------------------------------

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._beat()
            except StorageUnavailable as error:
                self.log(event("lobby-database", state="unreachable", error=str(error)[:160]))
                await self._lose(CLOCKS)
                await self._lose(HOUSE)

    async def _beat(self) -> None:
        now = self.lobby.clock()
        self.storage.heartbeat(self.id, now + ALIVE_SECONDS)
        self.storage.beat(now)
        self.storage.alone(self.storage.others_alive(self.id, now) == 0)
        await self._hold(CLOCKS, now)
        if self.house is not None and self.house.seats:
            await self._hold(HOUSE, now, {seat.name: seat.game for seat in self.house.seats})
        if HOUSE not in self.held:  # the house players seated by another front end, for who and the views
            lease = self.storage.lease(HOUSE, now)
            self.lobby.computers = {str(k): str(v) for k, v in (lease[1] if lease else {}).items()}

    async def _hold(self, name: str, now: float, data: dict | None = None) -> None:
        if self.storage.take_lease(name, self.id, LEASE_SECONDS, now, data):
            if name not in self.held:
                self.held.add(name)
                if self._tasks:  # (at start, the "listening" line says it; later, it is a takeover)
                    self.log(event("lease", took=name, frontend=self.id))
                if name == CLOCKS:
                    self.clocks.start()  # every live game's timer, from the database
                    if self.director is not None:
                        self.director.start()
                elif name == HOUSE and self.house is not None:
                    self.house.start()
                    self._house_running = True
        else:
            await self._lose(name)

    async def _lose(self, name: str) -> None:
        if name not in self.held:
            return
        self.held.discard(name)
        self.log(event("lease", lost=name, frontend=self.id))
        if name == CLOCKS:
            self.clocks.stop()
            if self.director is not None:
                self.director.stop()
        elif name == HOUSE and self._house_running:
            await self.house.close()
            self._house_running = False

    # -- the others' changes -------------------------------------------------------------------------

    async def _relay(self) -> None:
        async for notice in self.storage.notices():
            if notice.kind == "resync":  # listening (again): a change made meanwhile may have been missed
                self._listening.set()
                if CLOCKS in self.held:
                    self.clocks.rebuild()
            try:
                self.lobby.remote(notice)
            except StorageUnavailable:
                continue
            except Exception as error:  # a listener's bug must not end the relay
                self.log(event("lobby-relay-error", kind=notice.kind, error=f"{type(error).__name__}: {error}"[:160]))

    def _presence_changed(self, player: str) -> None:
        self.lobby.publish("presence", {"player": player})
