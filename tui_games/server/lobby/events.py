"""Events addressed to one player: what ``ssh host events --json`` streams to a bot (lichess's
``/api/stream/event``), so that it learns of a challenge or of its game's start without asking.

Anyone publishes with ``lobby.events.publish(player, {"event": TYPE, "data": {...}})``; the
lobby publishes the types it makes itself (hub.py), and tournaments their pairings. An event
travels as a notice of kind ``"event"`` with the open transaction (hub.Lobby.changed): it is
delivered only if the change it tells of is committed, and it reaches the player whichever
front end they are connected to (the other front ends hear it by the feed table or NOTIFY,
like a move, and tell their own subscribers: frontend.py).

The types, and what ``data`` holds as published (the stream, commands.py, turns the references
into what a client reads: docs/schemas/events.json):

- ``challenge``: a challenge to the player was made; ``{"offer": <the Offer's fields>}``;
- ``challenge-withdrawn``: its owner took a challenge to the player back; ``{"offer": ...}``;
- ``challenge-declined``: the player's challenge was declined; ``{"offer": ...}``;
- ``challenge-accepted`` / ``seek-taken``: the player's challenge was accepted, or the player's
  seek (or private game) taken; ``{"offer": ..., "game": GAME_ID, "by": PLAYER}``;
- ``game-start`` / ``game-end``: a game of the player's began or ended; ``{"game": GAME_ID}``
  (the stream sends the game as it is then, with its result at the end);
- ``tournament-pairing``: published by the tournaments; ``{"tournament": ID, ...}``, the rest
  theirs to document (a round, a game's id, an opponent), JSON small enough for one notice.

A subscription holds at most MAX_QUEUED events its reader has not taken: past that it is
dropped with the reason (:attr:`Subscription.dropped`), never buffered without end.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from typing import Any, Callable, Protocol

CHALLENGE, WITHDRAWN, DECLINED = "challenge", "challenge-withdrawn", "challenge-declined"
ACCEPTED, SEEK_TAKEN = "challenge-accepted", "seek-taken"
GAME_START, GAME_END = "game-start", "game-end"
TOURNAMENT_PAIRING = "tournament-pairing"
TYPES = (CHALLENGE, WITHDRAWN, DECLINED, ACCEPTED, SEEK_TAKEN, GAME_START, GAME_END, TOURNAMENT_PAIRING)
MAX_QUEUED = 256  # events a subscriber may leave untaken before it is dropped
MAX_EVENT = 3000  # bytes of an event's JSON: it travels in one notice (storage.MAX_NOTICE)
NOTICE_KIND = "event"
# Put in every subscription when the front ends' notices may have had a gap (hub.Lobby.remote):
# what it missed is unknown, so its stream sends what is waiting again. Never published.
RESYNC = "resync"


class Changes(Protocol):
    """What the bus needs of the lobby (hub.Lobby): publishing a change with the open
    transaction, and hearing every change, this front end's and the others'."""

    def changed(self, kind: str, payload: Any) -> None: ...

    def listen(self, listener: Callable[[str, Any], None]) -> Callable[[], None]: ...


class Subscription:
    """One reader's events, in order. ``await get()`` the next; None once dropped (the reason
    is :attr:`dropped`) or closed."""

    def __init__(self, player: str, bound: int, forget: Callable[["Subscription"], None]) -> None:
        self.player, self.bound = player, bound
        self.dropped: str | None = None
        self._queue: deque[dict] = deque()
        self._ready = asyncio.Event()
        self._forget = forget

    def put(self, event: dict) -> None:
        if self.dropped is not None:
            return
        if len(self._queue) >= self.bound:
            self.drop(f"{self.bound} events were waiting for you to read them")
            return
        self._queue.append(event)
        self._ready.set()

    def drop(self, reason: str) -> None:
        """No more events: ``get`` returns None from now on."""
        if self.dropped is None:
            self.dropped = reason
        self._queue.clear()
        self._ready.set()
        self._forget(self)

    def close(self) -> None:
        self.drop("closed")

    async def get(self) -> dict | None:
        while not self._queue:
            if self.dropped is not None:
                return None
            self._ready.clear()
            await self._ready.wait()
        return self._queue.popleft()


def check(event: dict) -> dict:
    """``event`` as the bus carries it, or ValueError naming what is wrong (a bug of the
    publisher: nothing a client sends becomes an event unchecked)."""
    if not isinstance(event, dict) or set(event) != {"event", "data"}:
        raise ValueError("an event is {'event': TYPE, 'data': {...}}")
    kind, data = event["event"], event["data"]
    if kind not in TYPES:
        raise ValueError(f"{kind!r} is not an event type; the types are {', '.join(TYPES)}")
    if not isinstance(data, dict):
        raise ValueError(f"a {kind} event's data is an object")
    if kind == TOURNAMENT_PAIRING and not isinstance(data.get("tournament"), str):
        raise ValueError("a tournament-pairing event names its tournament (a string)")
    try:
        size = len(json.dumps(event, separators=(",", ":")).encode())
    except (TypeError, ValueError) as error:
        raise ValueError(f"a {kind} event's data is not JSON: {error}") from None
    if size > MAX_EVENT:
        raise ValueError(f"a {kind} event of {size} bytes is too long (at most {MAX_EVENT})")
    return event


class EventBus:
    """The events addressed to players, on this front end: published to every front end,
    delivered to the subscribers here."""

    def __init__(self, lobby: Changes) -> None:
        self.lobby = lobby
        self._subscribers: dict[str, set[Subscription]] = {}
        lobby.listen(self._heard)

    def publish(self, player: str, event: dict) -> None:
        """Tell ``player`` (a lowered name) of ``event``, with the open transaction if any."""
        if not isinstance(player, str) or not player:
            raise ValueError("an event is addressed to a player's name")
        self.lobby.changed(NOTICE_KIND, {"player": player, **check(event)})

    def subscribe(self, player: str, bound: int = MAX_QUEUED) -> Subscription:
        """Every event addressed to ``player`` from now on, until it is closed or dropped."""
        subscription = Subscription(player, bound, self._forget)
        self._subscribers.setdefault(player, set()).add(subscription)
        return subscription

    def subscribers(self, player: str) -> int:
        return len(self._subscribers.get(player, ()))

    def _forget(self, subscription: Subscription) -> None:
        mine = self._subscribers.get(subscription.player)
        if mine is not None:
            mine.discard(subscription)
            if not mine:
                del self._subscribers[subscription.player]

    def _heard(self, kind: str, payload: Any) -> None:
        if kind == RESYNC:
            for everyone in list(self._subscribers.values()):
                for subscription in list(everyone):
                    subscription.put({"event": RESYNC, "data": {}})
            return
        if kind != NOTICE_KIND or not isinstance(payload, dict):
            return
        mine = self._subscribers.get(str(payload.get("player")))
        if not mine:
            return
        try:  # another front end's notice is checked like a publisher's call
            event = check({"event": payload.get("event"), "data": payload.get("data")})
        except ValueError:
            return
        for subscription in list(mine):
            subscription.put(event)
