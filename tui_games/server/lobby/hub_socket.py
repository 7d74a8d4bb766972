"""The lobby's door for the players' apps: a Unix socket in the server's directory, JSON lines.

Each app gets a secret in its environment (``TUI_GAMES_LOBBY_TOKEN``) that the SSH server
issued for that session and revokes when it ends; the first line an app sends must carry it,
and from then on every request acts as that session's player — an app never says who it is.

Protocol version 1, one JSON object a line, at most MAX_LINE bytes:

- request ``{"id": 7, "op": "move", "game": "3fa9c1", "move": "4"}`` →
  reply ``{"id": 7, "ok": true, "data": {...}}`` or ``{"id": 7, "ok": false, "error": "one line"}``;
- pushes ``{"event": "game", "data": {...}}`` (a game you play or watch changed),
  ``{"event": "offers", "data": [...]}``, ``{"event": "challenge", "data": {...}}`` (to you),
  ``{"event": "online", "data": [...]}``, ``{"event": "chat", "data": {...}}``.

Requests are rate-limited per connection, chat is bounded and stripped of control characters,
and a connection that breaks the protocol is closed.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from tui_games.online.protocol import MAX_LINE, PROTOCOL
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.storage import GameRow, Offer
from tui_games.server.lobby.views import game_data, offer_data, online_view
from tui_games.server.log import event

RATE = 20.0  # requests a second, with bursts up to BURST
BURST = 40
MAX_CHAT = 200
CHAT_EVERY = 1.0  # seconds between one player's chat lines
# A player gone from a live game (no app connected) for this long may be claimed against; a
# correspondence game never is (a move may take days anyway).
CLAIM_SECONDS = 60.0


def clean_chat(text: str) -> str:
    """One line of chat as it may reach other terminals: no control characters or escape
    sequences (a terminal must never receive a client's ESC), at most MAX_CHAT characters."""
    line = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return " ".join(line.split())[:MAX_CHAT]


@dataclass(eq=False)  # each connection is its own: hashed by identity
class _Client:
    player: str
    guest: bool
    writer: asyncio.StreamWriter
    token: str = ""
    watching: set[str] = field(default_factory=set)
    tokens: float = BURST
    refilled: float = field(default_factory=time.monotonic)
    warned: bool = False  # a misbehaving client is logged once
    refused_logged: bool = False  # and its first refused request once
    last_chat: float = 0.0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def send(self, message: dict) -> None:
        if self.writer.is_closing():
            return
        # A reader that stopped reading gets dropped rather than buffered without end.
        transport = self.writer.transport
        if transport.get_write_buffer_size() > 1024 * 1024:
            transport.abort()
            return
        self.writer.write(json.dumps(message).encode() + b"\n")


class HubSocket:
    def __init__(self, lobby: Lobby, path: Path, online: Callable[[], list[tuple[str, str]]] = list,
                 log: Callable[[str], None] = lambda line: None) -> None:
        self.lobby, self.path, self.online, self.log = lobby, path, online, log
        self.tokens: dict[str, tuple[str, bool]] = {}
        self.clients: set[_Client] = set()
        self.started = time.time()
        self.left_at: dict[str, float] = {}  # when a player's last app went
        self._server: asyncio.AbstractServer | None = None
        lobby.on_change = self._changed

    async def start(self) -> None:
        if self.path.exists() or self.path.is_symlink():
            self.path.unlink()
        old = os.umask(0o177)  # the socket is the server account's alone
        try:
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path), limit=MAX_LINE)
        finally:
            os.umask(old)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            for client in list(self.clients):
                client.writer.close()
            await self._server.wait_closed()
        try:
            self.path.unlink()
        except OSError:
            pass

    def issue(self, token: str, player: str, guest: bool) -> None:
        self.tokens[token] = (player, guest)

    def revoke(self, token: str) -> None:
        self.tokens.pop(token, None)
        for client in [c for c in self.clients if c.token == token]:
            client.writer.close()

    # -- a connection ----------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = None
        try:
            hello = await asyncio.wait_for(self._read(reader), 10)
            token = hello.get("token") if isinstance(hello, dict) else None
            if hello is None or hello.get("op") != "hello" or token not in self.tokens:
                writer.write(json.dumps({"ok": False, "error": "not a session of this server"}).encode() + b"\n")
                self.log(event("lobby-refused", reason="no valid session secret"))
                return
            player, guest = self.tokens[token]
            client = _Client(player, guest, writer, token)
            self.clients.add(client)
            client.send({"id": hello.get("id"), "ok": True, "data": {"player": player, "guest": guest,
                                                                      "protocol": PROTOCOL}})
            for row in self.lobby.games(player):
                client.watching.add(row.id)
            self.left_at.pop(player, None)
            self._presence_changed(player)
            self._broadcast_online()
            while True:
                request = await self._read(reader)
                if request is None:
                    return
                if not client.allow():
                    if not client.warned:
                        client.warned = True
                        self.log(event("lobby-flood", user=client.player, limit=f"{RATE:g}/s"))
                    client.send({"id": request.get("id"), "ok": False, "error": "too many requests; slow down"})
                    continue
                client.send(self._answer(client, request))
        except (asyncio.TimeoutError, ConnectionError, ValueError, asyncio.LimitOverrunError) as error:
            # A slow, broken or oversized line: the connection goes (logged once), nothing else.
            if not isinstance(error, ConnectionError):
                self.log(event("lobby-dropped", user=client.player if client else None,
                               reason=f"{type(error).__name__}: {error}"[:120]))
            return
        finally:
            if client is not None:
                self.clients.discard(client)
                if not self.connected(client.player):
                    self.left_at[client.player] = time.time()
                    self._presence_changed(client.player)
                self._broadcast_online()
            writer.close()

    async def _read(self, reader: asyncio.StreamReader) -> dict | None:
        line = await reader.readline()
        if not line:
            return None
        message = json.loads(line)
        if not isinstance(message, dict):
            raise ValueError("not an object")
        return message

    def _answer(self, client: _Client, request: dict) -> dict:
        ident = request.get("id")
        op = request.get("op")
        handler = _OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            if not client.warned:
                client.warned = True
                self.log(event("lobby-unknown", user=client.player, op=str(op)[:30]))
            return {"id": ident, "ok": False, "error": f"unknown request {str(op)[:30]!r}"}
        try:
            return {"id": ident, "ok": True, "data": handler(self, client, request)}
        except LobbyError as error:
            if not client.refused_logged:  # a client probing (others' games, bad moves): once
                client.refused_logged = True
                self.log(event("lobby-refused", user=client.player, op=op, reason=str(error)[:100]))
            return {"id": ident, "ok": False, "error": str(error)}
        except (KeyError, TypeError, ValueError) as error:
            return {"id": ident, "ok": False, "error": f"bad request: {error}"[:200]}

    # -- presence ------------------------------------------------------------------------------

    def connected(self, player: str) -> bool:
        return any(client.player == player for client in self.clients)

    def away(self, player: str) -> float | None:
        """Seconds since ``player``'s last app went (since the server started if never seen), or
        None while one is connected."""
        if self.connected(player):
            return None
        return time.time() - self.left_at.get(player, self.started)

    def game(self, row: GameRow) -> dict:
        """A game as the apps see it: the lobby's view and who of its players is away."""
        data = game_data(self.lobby, row)
        data["away"] = {player: round(seconds, 1) for player in row.players
                        if row.status == "live" and (seconds := self.away(player)) is not None}
        data["claim_after"] = CLAIM_SECONDS
        return data

    def _presence_changed(self, player: str) -> None:
        for row in self.lobby.games(player):
            self._changed("game", row)

    # -- what changes reach whom ---------------------------------------------------------------------

    def _changed(self, kind: str, payload: Any) -> None:
        if kind == "game":
            row: GameRow = payload
            data = self.game(row)
            for client in self.clients:
                if client.player in row.players:
                    client.watching.add(row.id)
                if row.id in client.watching:
                    client.send({"event": "game", "data": data})
        elif kind == "offers":
            offers = self.lobby.offers()
            for client in self.clients:
                mine = [offer_data(o) for o in offers if o.kind == "seek" or client.player in (o.owner, o.target)]
                client.send({"event": "offers", "data": mine})
            new: Offer | None = payload
            if new is not None and new.kind == "challenge":
                for client in self.clients:
                    if client.player == new.target:
                        client.send({"event": "challenge", "data": offer_data(new)})

    def _broadcast_online(self) -> None:
        data = self._online_data()
        for client in self.clients:
            client.send({"event": "online", "data": data})

    def _online_data(self) -> list[dict]:
        return online_view(self.lobby, self.online(), {client.player for client in self.clients})


def _text(request: dict, name: str, limit: int = 100) -> str:
    value = request[name]
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{name} must be a short string")
    return value


def _op_who(hub: HubSocket, client: _Client, request: dict) -> list[dict]:
    return hub._online_data()


def _op_state(hub: HubSocket, client: _Client, request: dict) -> dict:
    lobby = hub.lobby
    live = lobby.games(live=True, player=None)
    return {"games": [hub.game(r) for r in lobby.games(client.player)],
            "live": [hub.game(r) for r in live[:100]],
            "offers": [offer_data(o) for o in lobby.offers(client.player)],
            "online": hub._online_data()}


def _op_seek(hub: HubSocket, client: _Client, request: dict) -> dict:
    target = request.get("target")
    offer = hub.lobby.seek(client.player, _text(request, "game"), variant=request.get("variant"),
                           clock=_text(request, "clock") if "clock" in request else "none",
                           rated=bool(request.get("rated", True)), colour=request.get("colour", "random"),
                           guest=client.guest, target=_text(request, "target") if target else None,
                           private=bool(request.get("private", False)), assist=bool(request.get("assist", False)))
    return offer_data(offer)


def _op_accept(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.accept(client.player, _text(request, "offer"), guest=client.guest))


def _op_decline(hub: HubSocket, client: _Client, request: dict) -> dict:
    return offer_data(hub.lobby.decline(client.player, _text(request, "offer")))


def _op_move(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.move(client.player, _text(request, "game"), _text(request, "move")))


def _op_resign(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.resign(client.player, _text(request, "game")))


def _op_draw(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.draw(client.player, _text(request, "game"), _text(request, "action")))


def _op_takeback(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.takeback(client.player, _text(request, "game"), _text(request, "action")))


def _op_rematch(hub: HubSocket, client: _Client, request: dict) -> dict:
    return offer_data(hub.lobby.rematch(client.player, _text(request, "game")))


def _op_claim(hub: HubSocket, client: _Client, request: dict) -> dict:
    row = hub.lobby.game(_text(request, "game"))
    if client.player not in row.players:
        raise LobbyError(f"game {row.id} is not yours")
    opponent = row.players[1 - row.players.index(client.player)]
    away = hub.away(opponent)
    if row.clock.startswith("corr:"):
        raise LobbyError("a correspondence game waits: its clock decides")
    if away is None or away < CLAIM_SECONDS:
        raise LobbyError(f"{opponent} is {'here' if away is None else f'away for {away:.0f} s'}; "
                         f"you may claim the win after {CLAIM_SECONDS:.0f} s away")
    return hub.game(hub.lobby.claim(client.player, row.id))


def _op_ratings(hub: HubSocket, client: _Client, request: dict) -> list[dict]:
    game = request.get("game")
    rows = hub.lobby.ratings(_text(request, "game") if game else None)
    return [{"player": p, "game": g, "rating": round(r.rating, 1), "rd": round(r.rd, 1), "games": n}
            for p, g, r, n in rows[:500]]


def _op_history(hub: HubSocket, client: _Client, request: dict) -> list[dict]:
    player = _text(request, "player") if request.get("player") else client.player
    return [hub.game(row) for row in hub.lobby.history(player)]


def _op_watch(hub: HubSocket, client: _Client, request: dict) -> dict:
    row = hub.lobby.game(_text(request, "game"))
    if len(client.watching) >= 50:
        raise LobbyError("you are watching 50 games already")
    client.watching.add(row.id)
    return hub.game(row)


def _op_unwatch(hub: HubSocket, client: _Client, request: dict) -> None:
    client.watching.discard(_text(request, "game"))


def _op_chat(hub: HubSocket, client: _Client, request: dict) -> dict:
    text = clean_chat(_text(request, "text", 1000))
    if not text:
        raise LobbyError("say something first")
    now = time.monotonic()
    if now - client.last_chat < CHAT_EVERY:
        raise LobbyError("one line a second, please")
    client.last_chat = now
    game = request.get("game")
    if game is not None:
        row = hub.lobby.game(_text(request, "game"))
        game = row.id
    message = {"event": "chat", "data": {"from": client.player, "game": game, "text": text}}
    for other in hub.clients:
        if game is None or game in other.watching or other.player in hub.lobby.game(game).players:
            other.send(message)
    return message["data"]


_OPS: dict[str, Callable[[HubSocket, _Client, dict], Any]] = {
    "who": _op_who, "state": _op_state, "seek": _op_seek, "accept": _op_accept, "decline": _op_decline,
    "move": _op_move, "resign": _op_resign, "draw": _op_draw, "watch": _op_watch, "unwatch": _op_unwatch,
    "chat": _op_chat, "takeback": _op_takeback, "rematch": _op_rematch, "claim": _op_claim,
    "ratings": _op_ratings, "history": _op_history,
}
