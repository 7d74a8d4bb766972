"""Helpers the lobby tests share: a player joined to a hub with a secret of their own, and
the events pushed to them; a hub the app in the test's process finds as alice."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from tui_games.online.client import LOBBY_ENV, LOBBY_TOKEN_ENV, LobbyClient
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import Storage


class Events:
    def __init__(self) -> None:
        self.seen: list[dict] = []

    def __call__(self, event: dict) -> None:
        self.seen.append(event)

    async def wait(self, kind: str, test=lambda data: True, timeout: float = 5.0) -> dict:
        for _ in range(int(timeout / 0.02)):
            for event in self.seen:
                if event["event"] == kind and test(event.get("data")):
                    return event.get("data")
            await asyncio.sleep(0.02)
        raise AssertionError(f"no {kind} event; saw {[e['event'] for e in self.seen]}")

async def join(hub: HubSocket, player: str, guest: bool = False) -> tuple[LobbyClient, Events]:
    token = f"secret-{player}"
    hub.issue(token, player, guest)
    events = Events()
    client = LobbyClient(str(hub.path), token, events)
    await client.connect()
    return client, events


@contextlib.asynccontextmanager
async def app_hub(folder: Path, monkeypatch: pytest.MonkeyPatch, *, clock: Callable[[], float] = time.time,
                  online: Callable[[], list[tuple[str, str]]] = list) -> AsyncIterator[HubSocket]:
    """A lobby on SQLite in ``folder`` and its socket, alice's session issued and named in the
    environment (LOBBY_ENV, LOBBY_TOKEN_ENV) as the server does for the app it starts; closed at
    the end."""
    storage = Storage(folder / "lobby.sqlite3")
    hub = HubSocket(Lobby(storage, clock=clock), folder / "lobby.sock", online=online)
    await hub.start()
    hub.issue("secret-of-alice", "alice", False)
    monkeypatch.setenv(LOBBY_ENV, str(hub.path))
    monkeypatch.setenv(LOBBY_TOKEN_ENV, "secret-of-alice")
    try:
        yield hub
    finally:
        await hub.close()
        storage.close()
