"""The lobby socket between the server and the players' apps: a session secret decides who you
are, changes are pushed to players and spectators, chat reaches no terminal raw, and a client
that floods or breaks the protocol is refused or dropped."""

from __future__ import annotations

import asyncio
import json

import pytest
from lobby_support import Events, join

from tui_games.online.client import LobbyClient, LobbyUnavailable
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import BURST, MAX_LINE, HubSocket


@pytest.fixture
async def hub(tmp_path, lobby_database):
    storage = open_storage(lobby_database)  # on SQLite and on PostgreSQL (conftest.py)
    hub = HubSocket(Lobby(storage), tmp_path / "lobby.sock", online=lambda: [("alice", "in the app")])
    await hub.start()
    yield hub
    await hub.close()
    storage.close()


async def test_a_game_between_two_apps_and_a_spectator(hub):
    alice, alice_events = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    carol, carol_events = await join(hub, "carol")
    assert alice.player == "alice" and (hub.path.stat().st_mode & 0o777) == 0o600
    offer = await alice.request("seek", game="connect4", clock="5+3", colour="first")
    await bob_events.wait("offer", lambda data: data["id"] == offer["id"])
    game = await bob.request("accept", offer=offer["id"])
    await alice_events.wait("game", lambda data: data["id"] == game["id"] and data["to_move"] == "alice")
    await carol.request("watch", game=game["id"])
    with pytest.raises(LobbyUnavailable, match="it is alice's move"):
        await bob.request("move", game=game["id"], move="4")
    await alice.request("move", game=game["id"], move="4")
    await bob_events.wait("game", lambda data: data["moves"] == ["4"])
    await carol_events.wait("game", lambda data: data["moves"] == ["4"])
    # A spectator cannot move, in any notation.
    with pytest.raises(LobbyUnavailable, match="not yours"):
        await carol.request("move", game=game["id"], move="5")
    # Chat in a game reaches its players and spectators, cleaned.
    said = await carol.request("chat", game=game["id"], text="nice\x1b[2J move\x07 " + "x" * 500)
    assert "\x1b" not in said["text"] and len(said["text"]) <= 200
    heard = await alice_events.wait("chat", lambda data: data["from"] == "carol")
    assert heard["text"].startswith("nice [2J move")
    with pytest.raises(LobbyUnavailable, match="one line a second"):
        await carol.request("chat", game=game["id"], text="again")
    for client in (alice, bob, carol):
        await client.close()


async def test_a_challenge_reaches_its_target_only(hub):
    alice, _ = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    carol, carol_events = await join(hub, "carol")
    offer = await alice.request("seek", game="checkers", target="bob", rated=False)
    challenge = await bob_events.wait("challenge")
    assert challenge["id"] == offer["id"] and challenge["owner"] == "alice"
    # Carol's answer comes after anything the hub sent her for this seek (one ordered socket,
    # and the hub had sent bob his before): then she has seen no challenge.
    state = await carol.request("state")
    assert not [e for e in carol_events.seen if e["event"] == "challenge"]
    assert state["offers"] == []  # someone else's challenge is not listed either
    for client in (alice, bob, carol):
        await client.close()


async def test_who_is_online_goes_only_to_the_apps_showing_the_lobby(hub):
    # Issue 27: every login sent the whole online list to every app (O(players) sends and
    # parses a login, O(players²) bytes), though only a lobby screen shows it.
    alice, alice_events = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    await alice.request("state")  # alice's lobby screen is open: she follows who is online
    alice_events.seen.clear()
    carol, _ = await join(hub, "carol")
    await alice_events.wait("online")
    await bob.request("history")  # its answer comes after anything pushed to bob before it
    assert not [e for e in bob_events.seen if e["event"] == "online"]
    await alice.request("leave")  # her lobby screen closed
    alice_events.seen.clear()
    dave, _ = await join(hub, "dave")
    await carol.close()
    await alice.request("history")
    assert not [e for e in alice_events.seen if e["event"] == "online"]
    for client in (alice, bob, dave):
        await client.close()


async def test_a_wrong_secret_is_refused_and_a_revoked_one_ends_the_connection(hub):
    with pytest.raises(LobbyUnavailable, match="not a session of this server"):
        await LobbyClient(str(hub.path), "guess", Events()).connect()
    alice, events = await join(hub, "alice")
    hub.revoke("secret-alice")
    await events.wait("closed", lambda data: True)
    with pytest.raises(LobbyUnavailable):
        await alice.request("state")


async def test_floods_and_garbage_are_bounded(hub):
    alice, _ = await join(hub, "alice")
    results = await asyncio.gather(*(alice.request("who") for _ in range(BURST + 30)), return_exceptions=True)
    refused = [r for r in results if isinstance(r, LobbyUnavailable)]
    assert refused and all("slow down" in str(r) for r in refused)
    await alice.close()
    # An oversized line or one that is not JSON closes the connection; the hub goes on.
    for garbage in (b"x" * (MAX_LINE * 2) + b"\n", b"not json\n", b"[1, 2]\n"):
        reader, writer = await asyncio.open_unix_connection(str(hub.path))
        hub.issue("secret-mallory", "mallory", False)
        writer.write(json.dumps({"op": "hello", "token": "secret-mallory", "id": 1}).encode() + b"\n" + garbage)
        await writer.drain()
        await reader.readline()  # the hello's reply
        rest = await asyncio.wait_for(reader.read(), 5)  # returns only at the end of the connection
        assert b'"ok"' not in rest  # no answer to the garbage: the connection was closed
        writer.close()
    bob, _ = await join(hub, "bob")
    assert await bob.request("who") == [{"name": "alice", "status": "in the app"}]
    await bob.close()


async def test_a_player_who_left_can_be_claimed_against_after_a_while(hub, monkeypatch):
    from tui_games.server.lobby import hub as lobby_hub
    from tui_games.server.lobby import presence

    alice, alice_events = await join(hub, "alice")
    bob, _ = await join(hub, "bob")
    offer = await alice.request("seek", game="connect4", clock="5+3", colour="first")
    game = await bob.request("accept", offer=offer["id"])
    for player, column in ((alice, "4"), (bob, "4"), (alice, "5")):
        await player.request("move", game=game["id"], move=column)
    with pytest.raises(LobbyUnavailable, match="after 60 s"):
        await alice.request("claim", game=game["id"])
    monkeypatch.setattr(lobby_hub, "CLAIM_SECONDS", 0.0)
    with pytest.raises(LobbyUnavailable, match="bob is here"):
        await alice.request("claim", game=game["id"])
    monkeypatch.setattr(presence, "PRESENT_SECONDS", 0.0)  # gone as soon as his app goes
    await bob.close()
    left = await alice_events.wait("game", lambda data: "bob" in data.get("away", {}))
    assert left["away"]["bob"] < 5
    won = await alice.request("claim", game=game["id"])
    assert won["status"] == "over" and won["winner"] == "alice" and won["reason"] == "abandoned"
    # Back again, bob finds the game over; a rematch swaps the sides.
    bob, bob_events = await join(hub, "bob")
    history = await bob.request("history")
    assert history[0]["id"] == game["id"] and history[0]["winner"] == "alice"
    rematch = await bob.request("rematch", game=game["id"])
    assert rematch["target"] == "alice" and rematch["colour"] == "first"
    ratings = await bob.request("ratings", game="connect4")
    assert [r["player"] for r in ratings] == ["alice", "bob"]
    await alice.close()
    await bob.close()
