"""The lobby's door for the players' apps: a Unix socket in the server's directory, JSON lines.

Each app gets a secret in its environment (``TUI_GAMES_LOBBY_TOKEN``) that the SSH server
issued for that session and revokes when it ends; the first line an app sends must carry it,
and from then on every request acts as that session's player — an app never says who it is.

Protocol version 1, one JSON object a line, at most MAX_LINE bytes:

- request ``{"id": 7, "op": "move", "game": "3fa9c1", "move": "4"}`` →
  reply ``{"id": 7, "ok": true, "data": {...}}`` or ``{"id": 7, "ok": false, "error": "one line"}``;
- pushes ``{"event": "game", "data": {...}}`` (a game you play or watch changed),
  ``{"event": "offer", "data": {...}}`` (an offer you may see opened) or
  ``{"event": "offer", "data": {"id": ..., "gone": true}}`` (it went), ``{"event": "challenge",
  "data": {...}}`` (to you), ``{"event": "online", "data": [...]}`` (who is online, to the apps
  that follow it: from their ``state`` request, which a lobby screen makes when it opens, to
  their ``leave``, when it closes), ``{"event": "chat", "data": {...}}``, ``{"event":
  "tournament", "data": {...}}`` (a tournament changed: its summary, to the same apps as
  ``online``), and ``{"event": "closing", "data": {"reason": ...}}`` just before the lobby hangs up.
- tournament requests: ``tournaments`` (the list), ``tournament`` (one, with its standings),
  ``tournament-join`` and ``tournament-withdraw`` (each ``{"tournament": ID}``).

The puzzle of the day's requests, ``{"op": "puzzle", "game": "connect4"}`` (today's, in the
server's zone: the first look starts the solve time) and ``{"op": "puzzle_answer", "game":
…, "answer": "4 3", "date": "2026-12-02"}`` (judged and counted, as ``ssh host puzzle GAME
--answer``; with the ``date`` of the puzzle answered, refused once the server's day is another), are answered
once the puzzle is made, in a thread (puzzles.py); the connection's other requests wait.

Pushes are small deltas, coalesced per client: the changes one request makes (or one turn of
the event loop, for a clock's flag or a house player's move) go out together once it is
answered, and a game or an offer that changed twice is sent once, as it is now. A client
that falls MAX_BEHIND bytes behind is told why and dropped (its app reconnects by itself).

Requests are validated by type before use (flat objects of short strings, numbers and
booleans: anything else gets an error reply), rate-limited per connection; chat is bounded and
stripped of control characters; a connection that breaks the protocol is closed.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from tui_games.daily import parse_day
from tui_games.online.protocol import MAX_LINE, PROTOCOL
from tui_games.server.disk import DISK_FULL, is_disk_full
from tui_games.server.lobby import puzzles, tournament_commands
from tui_games.server.lobby.clocks import Clocks
from tui_games.server.lobby.hub import CLAIM_SECONDS, Lobby, LobbyError
from tui_games.server.lobby.storage import GameRow, Offer, StorageUnavailable
from tui_games.server.lobby.views import game_data, offer_data, online_view
from tui_games.server.log import event

RATE = 20.0  # requests a second, with bursts up to BURST
BURST = 40
MAX_CHAT = 200
CHAT_EVERY = 1.0  # seconds between one player's chat lines
MAX_BEHIND = 1024 * 1024  # bytes a client may leave unread before it is dropped
CLOSE_GRACE = 5.0  # seconds a dropped client's last words may take to leave


class BadRequest(ValueError):
    """A request of the wrong shape: answered with an error, the connection stays."""


def _checked(message: Any) -> dict:
    """A request as the handlers may use it: an object whose values are strings, numbers,
    booleans or null (no lists, no nesting)."""
    if not isinstance(message, dict):
        raise BadRequest("a request is a JSON object")
    for key, value in message.items():
        if not isinstance(value, (str, int, float, bool)) and value is not None:
            raise BadRequest(f"{str(key)[:30]!r} must be a string, a number or true/false")
    return message


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
    source: str | None = None  # where its player connects from (the caps per address)
    watching: set[str] = field(default_factory=set)
    tokens: float = BURST
    refilled: float = field(default_factory=time.monotonic)
    warned: bool = False  # a misbehaving client is logged once
    refused_logged: bool = False  # and its first refused request once
    last_chat: float = 0.0
    pending: dict = field(default_factory=dict)  # pushes waiting for the end of this loop turn
    # Whether the app shows who is online (its lobby screen is open): only then is the list
    # pushed to it. Sent to every app, each login cost O(players) sends and parses.
    follows_online: bool = False
    dropped: bool = False

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def send(self, message: dict) -> None:
        if self.dropped or self.writer.is_closing():
            return
        # A reader that stopped reading is told why and dropped rather than buffered without end.
        transport = self.writer.transport
        if transport.get_write_buffer_size() > MAX_BEHIND:
            self.drop("your app fell too far behind the lobby's news (is it stuck?); it reconnects by itself")
            return
        self.writer.write(json.dumps(message).encode() + b"\n")

    def push(self, key: tuple, message: dict) -> None:
        """A push, coalesced: the latest message of each ``key`` goes out at the end of this turn
        of the event loop."""
        if not self.pending:
            asyncio.get_running_loop().call_soon(self.flush)
        self.pending.pop(key, None)  # re-inserted: sent in the order of their last change
        self.pending[key] = message

    def flush(self) -> None:
        pending, self.pending = self.pending, {}
        for message in pending.values():
            self.send(message)

    def drop(self, reason: str) -> None:
        self.dropped = True
        self.writer.write(json.dumps({"event": "closing", "data": {"reason": reason}}).encode() + b"\n")
        self.writer.close()  # the last words go out if the client reads at all...
        transport = self.writer.transport
        asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)  # ...and it goes anyway


class HubSocket:
    def __init__(self, lobby: Lobby, path: Path, online: Callable[[], list[tuple[str, str]]] = list,
                 log: Callable[[str], None] = lambda line: None, run_clocks: bool = True) -> None:
        self.lobby, self.path, self.online, self.log = lobby, path, online, log
        # False: a front end sharing the lobby starts the clocks when it holds their lease (frontend.py).
        self.run_clocks = run_clocks
        self.tokens: dict[str, tuple[str, bool, str | None]] = {}
        self.clients: set[_Client] = set()
        self.clocks = Clocks(lobby)
        self._server: asyncio.AbstractServer | None = None
        self._serving: set[asyncio.Task] = set()
        self._closing = False
        lobby.listen(self._changed)

    async def start(self) -> None:
        if self.path.exists() or self.path.is_symlink():
            self.path.unlink()
        old = os.umask(0o177)  # the socket is the server account's alone
        try:
            self._server = await asyncio.start_unix_server(self._serve, path=str(self.path), limit=MAX_LINE)
        finally:
            os.umask(old)
        if self.run_clocks:
            self.clocks.start()

    async def close(self) -> None:
        """Stop serving; every connection's handler ends before this returns (and before the
        caller closes the database under them: no "closed database" at exit)."""
        self._closing = True
        self.clocks.stop()
        if self._server is not None:
            self._server.close()
            for client in list(self.clients):
                client.writer.close()
            if self._serving:  # each handler sees its connection end and finishes
                await asyncio.wait(list(self._serving), timeout=2.0)
            for task in list(self._serving):
                task.cancel()
            if self._serving:
                await asyncio.gather(*self._serving, return_exceptions=True)
            await self._server.wait_closed()
        try:
            self.path.unlink()
        except OSError:
            pass

    def issue(self, token: str, player: str, guest: bool, source: str | None = None) -> None:
        """Let an app showing ``token`` speak as ``player``, who connects from ``source``."""
        self.tokens[token] = (player, guest, source)
        try:
            self.lobby.seen(player, guest=guest)
        except StorageUnavailable:  # (the database restarting: the app's requests say so, one line each)
            pass

    def revoke(self, token: str) -> None:
        self.tokens.pop(token, None)
        for client in [c for c in self.clients if c.token == token]:
            client.writer.close()

    # -- a connection ----------------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = None
        task = asyncio.current_task()
        if task is not None:
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        try:
            try:
                hello = await asyncio.wait_for(self._read(reader), 10)
            except BadRequest:
                hello = None
            token = hello.get("token") if isinstance(hello, dict) else None
            if hello is None or hello.get("op") != "hello" or not isinstance(token, str) or token not in self.tokens:
                writer.write(json.dumps({"ok": False, "error": "not a session of this server"}).encode() + b"\n")
                self.log(event("lobby-refused", reason="no valid session secret"))
                return
            player, guest, source = self.tokens[token]
            client = _Client(player, guest, writer, token, source)
            self.clients.add(client)
            client.send({"id": hello.get("id"), "ok": True, "data": {"player": player, "guest": guest,
                                                                      "protocol": PROTOCOL}})
            for row in self.lobby.games(player):
                client.watching.add(row.id)
            self.lobby.presence.connected(player, +1)
            self._presence_changed(player)
            self._broadcast_online()
            while True:
                try:
                    request = await self._read(reader)
                except BadRequest as error:
                    client.send({"id": None, "ok": False, "error": f"bad request: {error}"})
                    continue
                if request is None:
                    return
                if not client.allow():
                    if not client.warned:
                        client.warned = True
                        self.log(event("lobby-flood", user=client.player, limit=f"{RATE:g}/s"))
                    client.send({"id": request.get("id"), "ok": False, "error": "too many requests; slow down"})
                    continue
                client.send(await self._answer(client, request))
                # What the request changed goes out now, behind its reply, to everyone it concerns
                # (not a loop turn later, behind every other client's request).
                for other in self.clients:
                    if other.pending:
                        other.flush()
        except asyncio.CancelledError:  # the hub is closing: this connection simply ends
            return
        except (asyncio.TimeoutError, ConnectionError, ValueError, asyncio.LimitOverrunError) as error:
            # A slow, broken or oversized line: the connection goes (logged once), nothing else.
            if not isinstance(error, ConnectionError):
                self.log(event("lobby-dropped", user=client.player if client else None,
                               reason=f"{type(error).__name__}: {error}"[:120]))
            return
        finally:
            if client is not None:
                self.clients.discard(client)
                self.lobby.presence.connected(client.player, -1)
                if not self._closing:  # (when the server goes, nobody is left to tell)
                    if not self.connected(client.player):
                        self._presence_changed(client.player)
                    self._broadcast_online()
            writer.close()

    async def _read(self, reader: asyncio.StreamReader) -> dict | None:
        line = await reader.readline()
        if not line:
            return None
        try:
            message = json.loads(line)
        except RecursionError:  # nested deeper than the parser goes: a shape we never use
            raise BadRequest("nested too deeply") from None
        if not isinstance(message, dict):
            raise ValueError("not an object")
        return _checked(message)

    async def _answer(self, client: _Client, request: dict) -> dict:
        ident = request.get("id")
        op = request.get("op")
        handler = _OPS.get(op) if isinstance(op, str) else None
        if handler is None:
            if not client.warned:
                client.warned = True
                self.log(event("lobby-unknown", user=client.player, op=str(op)[:30]))
            return {"id": ident, "ok": False, "error": f"unknown request {str(op)[:30]!r}"}
        try:
            data = handler(self, client, request)
            if inspect.isawaitable(data):  # (the puzzle's: made and judged in a thread)
                data = await data
            return {"id": ident, "ok": True, "data": data}
        except StorageUnavailable as error:
            self.log(event("lobby-database", state="unreachable", user=client.player, op=op))
            return {"id": ident, "ok": False, "error": str(error)}
        except LobbyError as error:
            if not client.refused_logged:  # a client probing (others' games, bad moves): once
                client.refused_logged = True
                self.log(event("lobby-refused", user=client.player, op=op, reason=str(error)[:100]))
            return {"id": ident, "ok": False, "error": str(error)}
        except (KeyError, TypeError, ValueError) as error:
            return {"id": ident, "ok": False, "error": f"bad request: {error}"[:200]}
        except (sqlite3.Error, OSError) as error:
            if not is_disk_full(error):
                raise
            self.log(event("disk-full", user=client.player, op=op))
            return {"id": ident, "ok": False, "error": DISK_FULL}

    # -- presence ------------------------------------------------------------------------------

    def connected(self, player: str) -> bool:
        return any(client.player == player for client in self.clients)

    def spectators(self, row: GameRow) -> int:
        return len({c.player for c in self.clients if row.id in c.watching and c.player not in row.players})

    def game(self, row: GameRow) -> dict:
        """A game as the apps see it: the lobby's view, who of its players is away (for a claim)
        and how many watch it."""
        data = game_data(self.lobby, row)
        presence = self.lobby.presence
        data["away"] = {player: round(min(seconds, 1e9), 1) for player in row.players
                        if row.status == "live" and (seconds := presence.away_for(player)) is not None}
        data["claim_after"] = CLAIM_SECONDS
        data["spectators"] = self.spectators(row)
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
                # Every app hears of a game that begins or ends (its Watch list is live); the
                # moves between, only those who play or watch it.
                if row.id in client.watching or row.status != "live" or row.played == 0:
                    client.push(("game", row.id), {"event": "game", "data": data})
        elif kind in ("offer", "offer-gone"):
            offer: Offer = payload
            message = {"event": "offer", "data": offer_data(offer) if kind == "offer" else {"id": offer.id,
                                                                                           "gone": True}}
            for client in self.clients:
                if offer.kind == "seek" or client.player in (offer.owner, offer.target):
                    client.push(("offer", offer.id), message)
            if kind == "offer" and offer.kind == "challenge":
                for client in self.clients:
                    if client.player == offer.target:
                        client.push(("challenge", offer.id), {"event": "challenge", "data": offer_data(offer)})
        elif kind == "resync":  # the other front ends' notices may have been missed: what is watched, afresh
            for game_id in sorted({game_id for client in self.clients for game_id in client.watching}):
                if (fresh := self.lobby.storage.game(game_id)) is not None:
                    self._changed("game", fresh)
            for offer in self.lobby.storage.offers():
                self._changed("offer", offer)
        elif kind == "presence":  # another front end's: a player's sessions there opened or closed
            player = str(payload.get("player", ""))
            self._presence_changed(player)
            self._broadcast_online()
        elif kind == "tournament":  # to the apps showing the lobby (its Tournaments tab is live)
            followers = [client for client in self.clients if client.follows_online]
            tournament = self.lobby.storage.tournament(str(payload.get("id", ""))) if followers else None
            if tournament is not None:
                message = {"event": "tournament", "data": tournament_commands.of(self.lobby).summary(tournament)}
                for client in followers:
                    client.push(("tournament", tournament.id), message)
        elif kind == "chat":
            message = {"event": "chat", "data": payload}
            game = payload.get("game")
            players = self.lobby.game(game).players if game is not None else ()
            for other in self.clients:
                if game is None or game in other.watching or other.player in players:
                    other.push(("chat", id(message)), message)

    def _broadcast_online(self) -> None:
        followers = [client for client in self.clients if client.follows_online]
        if not followers:
            return
        message = {"event": "online", "data": self._online_data()}
        for client in followers:
            client.push(("online",), message)

    def _online_data(self) -> list[dict]:
        return online_view(self.lobby, self.online(), {client.player for client in self.clients})


def _text(request: dict, name: str, limit: int = 100) -> str:
    value = request[name]
    if not isinstance(value, str) or len(value) > limit:
        raise ValueError(f"{name} must be a short string")
    return value


def _optional_text(request: dict, name: str, limit: int = 100) -> str | None:
    return _text(request, name, limit) if request.get(name) is not None else None


def _op_who(hub: HubSocket, client: _Client, request: dict) -> list[dict]:
    return hub._online_data()


def _op_state(hub: HubSocket, client: _Client, request: dict) -> dict:
    client.follows_online = True  # the lobby screen asks when it opens: it lists who is online
    lobby = hub.lobby
    live = lobby.games(live=True, player=None)
    return {"games": [hub.game(r) for r in lobby.games(client.player)],
            "live": [hub.game(r) for r in live[:100]],
            "offers": [offer_data(o) for o in lobby.offers(client.player)],
            "online": hub._online_data()}


def _op_leave(hub: HubSocket, client: _Client, request: dict) -> None:
    """The app's lobby screen closed: who is online is no longer pushed to it."""
    client.follows_online = False


def _op_seek(hub: HubSocket, client: _Client, request: dict) -> dict:
    target = request.get("target")
    offer = hub.lobby.seek(client.player, _text(request, "game"), variant=_optional_text(request, "variant"),
                           clock=_optional_text(request, "clock") or "none",
                           rated=bool(request.get("rated", True)),
                           colour=_optional_text(request, "colour") or "random",
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
    """An offer, or (the opponent had asked for the same rematch) the game it started."""
    made = hub.lobby.rematch(client.player, _text(request, "game"))
    return hub.game(made) if isinstance(made, GameRow) else offer_data(made)


def _op_claim(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.claim(client.player, _text(request, "game")))


def _op_abort(hub: HubSocket, client: _Client, request: dict) -> dict:
    return hub.game(hub.lobby.abort(client.player, _text(request, "game")))


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
    hub._changed("game", row)  # the players see one more spectator
    return hub.game(row)


def _op_unwatch(hub: HubSocket, client: _Client, request: dict) -> None:
    game = _text(request, "game")
    if game in client.watching:
        client.watching.discard(game)
        if (row := hub.lobby.storage.game(game)) is not None:
            hub._changed("game", row)


def _op_chat(hub: HubSocket, client: _Client, request: dict) -> dict:
    text = clean_chat(_text(request, "text", 1000))
    if not text:
        raise LobbyError("say something first")
    now = time.monotonic()
    if now - client.last_chat < CHAT_EVERY:
        raise LobbyError("one line a second, please")
    client.last_chat = now
    return hub.lobby.say(client.player, text, _optional_text(request, "game"))


# -- tournaments (tournament.py) -----------------------------------------------------------------

def _op_tournaments(hub: HubSocket, client: _Client, request: dict) -> list[dict]:
    tournaments = tournament_commands.of(hub.lobby)
    return [tournaments.summary(row) for row in tournaments.listed()]


def _op_tournament(hub: HubSocket, client: _Client, request: dict) -> dict:
    tournaments = tournament_commands.of(hub.lobby)
    return tournaments.data(tournaments.get(_text(request, "tournament", 20)))


def _op_tournament_join(hub: HubSocket, client: _Client, request: dict) -> dict:
    tournaments = tournament_commands.of(hub.lobby)
    return tournaments.data(tournaments.join(client.player, _text(request, "tournament", 20), guest=client.guest,
                                             source=client.source))


def _op_tournament_withdraw(hub: HubSocket, client: _Client, request: dict) -> dict:
    tournaments = tournament_commands.of(hub.lobby)
    return tournaments.data(tournaments.withdraw(client.player, _text(request, "tournament", 20)))


# -- the puzzle of the day (puzzles.py): what ``ssh host puzzle`` does, for the app ----------------

async def _op_puzzle(hub: HubSocket, client: _Client, request: dict) -> dict:
    made, zone = await puzzles.view(hub.lobby, client.player, _text(request, "game"), guest=client.guest)
    return {**made.data(), "zone": zone}


async def _op_puzzle_answer(hub: HubSocket, client: _Client, request: dict) -> dict:
    shown = _optional_text(request, "date", 10)
    if shown is not None:
        # The app answers the puzzle it was shown; past the server's midnight that is no longer
        # the one the lobby judges: refused, counting nothing (not judged against another).
        day = puzzles.server_day(hub.lobby)[0]
        try:
            stale = parse_day(shown) != day
        except ValueError as error:
            raise LobbyError(str(error)) from None
        if stale:
            raise LobbyError(f"the puzzle of {shown} is over; today's ({day.isoformat()}) is another: "
                             "nothing was counted")
    done = await puzzles.attempt(hub.lobby, client.player, _text(request, "game"),
                                 _text(request, "answer", puzzles.MAX_ANSWER), guest=client.guest)
    return {**done.data(), "lines": done.lines()}


_OPS: dict[str, Callable[[HubSocket, _Client, dict], Any]] = {
    "who": _op_who, "state": _op_state, "seek": _op_seek, "accept": _op_accept, "decline": _op_decline,
    "move": _op_move, "resign": _op_resign, "draw": _op_draw, "watch": _op_watch, "unwatch": _op_unwatch,
    "chat": _op_chat, "takeback": _op_takeback, "rematch": _op_rematch, "claim": _op_claim, "abort": _op_abort,
    "ratings": _op_ratings, "history": _op_history, "leave": _op_leave,
    "tournaments": _op_tournaments, "tournament": _op_tournament, "tournament-join": _op_tournament_join,
    "tournament-withdraw": _op_tournament_withdraw,
    "puzzle": _op_puzzle, "puzzle_answer": _op_puzzle_answer,
}
