"""Issue 58: the events addressed to one player (server/lobby/events.py), as the lobby
publishes them, on either backend and across front ends; bounded per subscriber."""

from __future__ import annotations

import asyncio
import random

import pytest

from tui_games.server.lobby import events
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Lobby


class Taken:
    """What a subscription has delivered so far, without waiting."""

    def __init__(self, subscription: events.Subscription) -> None:
        self.subscription = subscription

    async def all(self) -> list[tuple[str, dict]]:
        got = []
        while self.subscription._queue:
            event = await self.subscription.get()
            got.append((event["event"], event["data"]))
        return got


@pytest.fixture
def lobby(lobby_database):
    storage = open_storage(lobby_database)
    made = Lobby(storage, rng=random.Random(5))
    for name in ("alice", "bob", "carol"):
        made.seen(name)
    yield made
    storage.close()


async def test_challenges_made_withdrawn_declined_and_accepted_reach_whom_they_concern(lobby):
    alice, bob, carol = (Taken(lobby.events.subscribe(name)) for name in ("alice", "bob", "carol"))
    made = lobby.seek("alice", "tictactoe", target="bob", rated=False)
    lobby.decline("alice", made.id)  # withdrawn by alice
    declined = lobby.seek("alice", "tictactoe", target="bob", rated=False)
    lobby.decline("bob", declined.id)
    accepted = lobby.seek("alice", "connect4", target="bob", rated=False, colour="first")
    row = lobby.accept("bob", accepted.id)
    to_bob = await bob.all()
    assert [(kind, data.get("offer", {}).get("id")) for kind, data in to_bob] == [
        ("challenge", made.id), ("challenge-withdrawn", made.id), ("challenge", declined.id),
        ("challenge", accepted.id), ("game-start", None)]
    assert to_bob[-1][1] == {"game": row.id}
    assert to_bob[0][1]["offer"]["owner"] == "alice" and to_bob[0][1]["offer"]["target"] == "bob"
    to_alice = await alice.all()
    assert [kind for kind, _ in to_alice] == ["challenge-declined", "challenge-accepted", "game-start"]
    assert to_alice[1][1]["game"] == row.id and to_alice[1][1]["by"] == "bob"
    assert await carol.all() == []  # nothing of theirs


async def test_a_seek_taken_and_a_game_ended_are_told_to_both_players(lobby):
    alice, bob = Taken(lobby.events.subscribe("alice")), Taken(lobby.events.subscribe("bob"))
    seek = lobby.seek("alice", "tictactoe", rated=False, colour="first")
    assert await bob.all() == []  # a seek is for anyone: `offers`, not an event
    row = lobby.accept("bob", seek.id)
    for move in ("a1", "b1", "a2", "b2", "a3"):
        lobby.move(lobby.to_move(lobby.game(row.id)), row.id, move)
    assert [kind for kind, _ in await alice.all()] == ["seek-taken", "game-start", "game-end"]
    assert [kind for kind, _ in await bob.all()] == ["game-start", "game-end"]


async def test_an_event_of_a_transaction_that_failed_is_never_delivered(lobby):
    bob = Taken(lobby.events.subscribe("bob"))
    with pytest.raises(RuntimeError):
        with lobby.transaction():
            lobby.seek("alice", "tictactoe", target="bob", rated=False)
            raise RuntimeError("the rest of the change failed")
    assert await bob.all() == [] and not lobby.offers("bob")


async def test_a_subscriber_that_does_not_take_its_events_is_dropped_saying_why(lobby):
    slow = lobby.events.subscribe("bob", bound=3)
    for _ in range(4):
        lobby.decline("alice", lobby.seek("alice", "tictactoe", target="bob", rated=False).id)
    assert slow.dropped == "3 events were waiting for you to read them"
    assert await slow.get() is None and lobby.events.subscribers("bob") == 0


async def test_a_closed_subscription_wakes_its_reader(lobby):
    subscription = lobby.events.subscribe("bob")
    reader = asyncio.create_task(subscription.get())
    await asyncio.sleep(0)
    subscription.close()
    assert await asyncio.wait_for(reader, 5) is None


class Recorder:
    """The lobby's side of the bus (events.Changes), recording what is published."""

    def __init__(self) -> None:
        self.published: list = []

    def changed(self, kind, payload) -> None:
        self.published.append((kind, payload))

    def listen(self, listener):
        return lambda: None


def test_what_others_publish_is_checked():
    lobby = Recorder()
    bus = events.EventBus(lobby)
    for bad, why in (({"event": "hello", "data": {}}, "not an event type"),
                     ({"event": "tournament-pairing", "data": {"round": 1}}, "names its tournament"),
                     ({"event": "game-start", "data": []}, "data is an object"),
                     ({"event": "tournament-pairing", "data": {"tournament": "t" * 4000}}, "too long"),
                     ({"event": "game-start"}, "an event is")):
        with pytest.raises(ValueError, match=why):
            bus.publish("bob", bad)
    assert lobby.published == []
    bus.publish("bob", {"event": "tournament-pairing", "data": {"tournament": "t1", "round": 2, "game": "abc"}})
    assert lobby.published == [("event", {"player": "bob", "event": "tournament-pairing",
                                          "data": {"tournament": "t1", "round": 2, "game": "abc"}})]


async def test_an_event_reaches_its_player_on_another_front_end(lobby_database):
    """Alice challenges bob on one front end; bob's stream is on the other (the feed table on
    SQLite, NOTIFY on PostgreSQL), and so is the tournament's pairing published there."""
    from tui_games.server.lobby.clocks import Clocks
    from tui_games.server.lobby.frontend import FrontEnd

    fronts = []
    for name in ("one", "two"):
        front_lobby = Lobby(open_storage(lobby_database), origin=name)
        frontend = FrontEnd(front_lobby, Clocks(front_lobby))
        await frontend.start()
        fronts.append((front_lobby, frontend))
    (one, _), (two, _) = fronts
    try:
        for name in ("alice", "bob"):
            one.seen(name)
        bob = two.events.subscribe("bob")
        offer = one.seek("alice", "tictactoe", target="bob", rated=False)
        got = await asyncio.wait_for(bob.get(), 20)
        assert got["event"] == "challenge" and got["data"]["offer"]["id"] == offer.id
        one.events.publish("bob", {"event": "tournament-pairing", "data": {"tournament": "t1", "round": 1}})
        got = await asyncio.wait_for(bob.get(), 20)
        assert got == {"event": "tournament-pairing", "data": {"tournament": "t1", "round": 1}}
        assert two.events.subscribers("alice") == 0 and not one.events.subscribers("bob")
    finally:
        for front_lobby, frontend in fronts:
            await frontend.close()
            front_lobby.storage.close()
