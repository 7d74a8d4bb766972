"""The app's side of the lobby socket (``tui_games.server.lobby.hub_socket``): requests with replies, pushed events.

Plain asyncio, no Textual: the app runs it on its own event loop. A player's app finds the
socket and its secret in ``TUI_GAMES_LOBBY`` and ``TUI_GAMES_LOBBY_TOKEN``, which only the SSH
server sets; without them there is no lobby (a local app).

With ``reconnect`` a connection the lobby dropped (a slow app, a restart of the hub) is made
again by itself, a few times with growing pauses: listeners hear ``closing`` (the lobby's
reason, if it gave one), then ``reconnected`` (ask for the state again) or ``closed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
from typing import Any, Callable

from tui_games.online.protocol import LOBBY_ENV, LOBBY_TOKEN_ENV, MAX_LINE

__all__ = ["LOBBY_ENV", "LOBBY_TOKEN_ENV", "LobbyClient", "LobbyUnavailable"]

RECONNECT_PAUSES = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)  # seconds before each new try


class LobbyUnavailable(Exception):
    """The lobby refused a request or cannot be reached: the message is one line."""


class LobbyClient:
    def __init__(self, path: str, token: str, on_event: Callable[[dict], None], *, reconnect: bool = False) -> None:
        self.path, self.token, self.on_event = path, token, on_event
        self.reconnect = reconnect
        self._closing = False
        self._reconnecting: asyncio.Task | None = None
        self.player: str | None = None
        self.guest = False
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._pending: dict[int, asyncio.Future] = {}
        self._ids = itertools.count(1)
        self._listening: asyncio.Task | None = None

    @classmethod
    def from_env(cls, on_event: Callable[[dict], None]) -> "LobbyClient | None":
        path, token = os.environ.get(LOBBY_ENV), os.environ.get(LOBBY_TOKEN_ENV)
        return cls(path, token, on_event, reconnect=True) if path and token else None

    @property
    def connected(self) -> bool:
        return self._writer is not None and not self._writer.is_closing()

    async def connect(self) -> None:
        try:
            self._reader, self._writer = await asyncio.open_unix_connection(self.path, limit=MAX_LINE * 64)
        except OSError as error:
            raise LobbyUnavailable(f"the lobby is not reachable: {error.strerror or error}") from None
        self._listening = asyncio.create_task(self._listen())
        hello = await self.request("hello", token=self.token)
        self.player, self.guest = hello["player"], hello["guest"]

    async def request(self, op: str, **args: Any) -> Any:
        writer = self._writer
        if not self.connected or writer is None:
            raise LobbyUnavailable("not connected to the lobby")
        ident = next(self._ids)
        future = asyncio.get_running_loop().create_future()
        self._pending[ident] = future
        writer.write(json.dumps({"id": ident, "op": op, **args}).encode() + b"\n")
        try:
            reply = await asyncio.wait_for(future, 15)
        except asyncio.TimeoutError:
            raise LobbyUnavailable("the lobby did not answer") from None
        finally:
            self._pending.pop(ident, None)
        if not reply.get("ok"):
            raise LobbyUnavailable(str(reply.get("error", "refused"))[:300])
        return reply.get("data")

    async def _listen(self) -> None:
        reader = self._reader
        assert reader is not None  # (started by connect, once connected)
        try:
            while line := await reader.readline():
                message = json.loads(line)
                if "event" in message:
                    self.on_event(message)
                elif (future := self._pending.get(message.get("id"))) is not None and not future.done():
                    future.set_result(message)
                elif message.get("ok") is False:  # the hello was refused
                    for future in self._pending.values():
                        if not future.done():
                            future.set_result(message)
        except (ConnectionError, ValueError, asyncio.LimitOverrunError):
            pass
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_result({"ok": False, "error": "the lobby closed the connection"})
            if self._writer is not None:
                self._writer.close()
            # When a try of _reconnect is what failed, that task goes on trying, or says "closed".
            if self._reconnecting is None or self._reconnecting.done():
                if self.reconnect and not self._closing and self.player is not None:
                    self._reconnecting = asyncio.create_task(self._reconnect())
                else:
                    self.on_event({"event": "closed"})

    async def _reconnect(self) -> None:
        for pause in RECONNECT_PAUSES:
            await asyncio.sleep(pause)
            if self._closing:
                return
            try:
                await self.connect()
            except LobbyUnavailable as error:
                if "not a session" in str(error):  # the session ended: its secret is no more
                    break
                continue
            self.on_event({"event": "reconnected"})
            return
        self.on_event({"event": "closed"})

    async def close(self) -> None:
        self._closing = True
        if self._writer is not None:
            self._writer.close()
        for task in (self._listening, self._reconnecting):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
