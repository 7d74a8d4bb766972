"""Helpers the lobby tests share: a player joined to a hub with a secret of their own, and
the events pushed to them."""

from __future__ import annotations

import asyncio

from tui_games.online.client import LobbyClient
from tui_games.server.lobby.hub_socket import HubSocket


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
