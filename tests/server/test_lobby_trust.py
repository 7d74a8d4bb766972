"""Online play you can trust (issue 21): the server ends games by itself (flags, aborts), claims
are for absent players only, names are checked, offers are capped, and a malformed request gets
an error reply. Each test reproduces a finding of the issue."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time

import pytest
from clock_support import HandClock
from lobby_support import Events, join

from tui_games.online.client import LobbyClient, LobbyUnavailable
from tui_games.server.lobby import commands
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import (
    CLAIM_SECONDS,
    FIRST_MOVE_SECONDS,
    MAX_OFFERS_PER_PLAYER,
    Lobby,
    LobbyError,
)
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.presence import PRESENT_SECONDS
from tui_games.server.lobby.storage import GameRow, Storage


@pytest.fixture
def lobby(lobby_database):
    storage = open_storage(lobby_database)  # on SQLite and on PostgreSQL (conftest.py)
    made = Lobby(storage, clock=HandClock(), rng=random.Random(3))
    for name in ("alice", "bob", "carol", "eve"):
        made.seen(name)
    yield made
    storage.close()


class Shifted:
    """Real time plus a shift a test may add to (a clock the lobby's timers follow)."""

    def __init__(self) -> None:
        self.shift = 0.0

    def __call__(self) -> float:
        return time.time() + self.shift


@pytest.fixture
async def hub(tmp_path, lobby_database):
    storage = open_storage(lobby_database)  # on SQLite and on PostgreSQL (conftest.py)
    hub = HubSocket(Lobby(storage, clock=Shifted()), tmp_path / "lobby.sock")
    await hub.start()
    yield hub
    await hub.close()
    storage.close()


async def until(condition, timeout: float = 10.0):
    for _ in range(int(timeout / 0.02)):
        if value := condition():
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("the condition never held")


# -- clocks run on the server ----------------------------------------------------------------------

async def test_a_flag_falls_with_no_request_from_anyone(hub):
    """1+0, both first moves made, then nobody sends anything: the side to move loses on time,
    in the database and pushed to both players."""
    alice, alice_events = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    offer = await alice.request("seek", game="connect4", clock="1+0", colour="first")
    game = await bob.request("accept", offer=offer["id"])
    await alice.request("move", game=game["id"], move="4")
    await bob.request("move", game=game["id"], move="4")
    # Alice's minute runs from bob's move: 59 s of it pass at once, then nobody asks anything.
    hub.lobby.clock.shift += 59.0
    hub.clocks.rebuild()
    alice_events.seen.clear()
    ended = await bob_events.wait("game", lambda d: d["status"] == "over", timeout=10)
    assert ended["reason"] == "time" and ended["winner"] == "bob"
    await alice_events.wait("game", lambda d: d["status"] == "over" and d["reason"] == "time")
    row = hub.lobby.storage.game(game["id"])
    assert row.status == "over" and row.left[0] == 0.0
    assert hub.lobby.storage.rating("bob", "connect4")[1] == 1  # rated: the ratings moved
    await alice.close()
    await bob.close()


async def test_the_timers_are_rebuilt_from_the_database_at_start(tmp_path):
    storage = Storage(tmp_path / "lobby.sqlite3")
    now = time.time()
    row = GameRow("abc123", "connect4", {}, ("alice", "bob"), "1+0", True, moves=["4", "4"],
                  left=[0.3, 60.0], last_move=now, created=now)
    storage.add_game(row)
    hub = HubSocket(Lobby(storage), tmp_path / "lobby.sock")
    await hub.start()
    try:
        over = await until(lambda: (r := storage.game("abc123")).status == "over" and r)
        assert over.reason == "time" and over.winner == 1 and over.ended >= now + 0.3
    finally:
        await hub.close()
        storage.close()


def test_clocks_start_after_both_first_moves(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="1+2", colour="first").id)
    lobby.clock.now += 30  # thinking over the first moves costs no clock time
    row = lobby.move("alice", row.id, "4")
    lobby.clock.now += 40
    row = lobby.move("bob", row.id, "4")
    assert row.left == [60.0, 60.0]
    lobby.clock.now += 10
    row = lobby.move("alice", row.id, "5")
    assert row.left[0] == pytest.approx(60 - 10 + 2)


def test_abort_before_both_first_moves_has_no_result(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="5+3", colour="first").id)
    lobby.move("alice", row.id, "4")
    row = lobby.abort("bob", row.id)
    assert row.status == "over" and row.winner is None and row.reason == "aborted"
    assert lobby.storage.rating("alice", "connect4")[1] == 0  # no rating moved
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="5+3", colour="first").id)
    with pytest.raises(LobbyError, match="abort"):
        lobby.resign("alice", row.id)  # a game not begun is aborted, not lost
    lobby.move("alice", row.id, "4")
    lobby.move("bob", row.id, "4")
    with pytest.raises(LobbyError, match="both first moves are made"):
        lobby.abort("alice", row.id)
    assert commands.run(lobby, "carol", f"abort {row.id}").status == 2


def test_a_first_move_never_made_aborts_the_game(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="5+3", colour="first").id)
    lobby.clock.now += FIRST_MOVE_SECONDS + 1
    row = lobby.game(row.id)
    assert row.status == "over" and row.reason == "aborted" and row.winner is None
    assert lobby.storage.rating("alice", "connect4")[1] == 0


def test_a_correspondence_game_flags_at_its_deadline(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="corr:1", colour="first").id)
    lobby.move("alice", row.id, "4")
    lobby.move("bob", row.id, "4")
    deadline = lobby.deadline(lobby.game(row.id))
    assert deadline == pytest.approx(lobby.clock.now + 86400)


# -- presence and claims -------------------------------------------------------------------------------

def test_a_player_moving_by_command_is_present(lobby):
    """eve moves by `ssh … move`; one second later bob's claim is refused (it won "abandoned")."""
    offer = lobby.seek("eve", "connect4", clock="5+3", target="bob", colour="first")
    row = lobby.accept("bob", offer.id)
    assert commands.run(lobby, "eve", f"move {row.id} 4").status == 0
    commands.run(lobby, "bob", f"move {row.id} 4")
    assert commands.run(lobby, "eve", f"move {row.id} 5").status == 0
    lobby.clock.now += 1
    with pytest.raises(LobbyError, match="your move"):
        lobby.claim("bob", row.id)  # bob's own turn: nobody is keeping him waiting
    commands.run(lobby, "bob", f"move {row.id} 5")
    lobby.clock.now += 1
    refused = commands.run(lobby, "bob", f"claim {row.id}")
    assert refused.status == 2 and "claim" in refused.stderr and refused.stderr.count("\n") == 1
    assert lobby.game(row.id).status == "live"


def test_a_claim_needs_an_absent_player_and_a_minute_on_their_clock(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="5+3", colour="first").id)
    lobby.move("alice", row.id, "4")
    lobby.move("bob", row.id, "4")
    with pytest.raises(LobbyError, match=f"after {CLAIM_SECONDS:.0f} s"):
        lobby.claim("bob", row.id)  # alice just moved... her minute has not passed
    lobby.clock.now += CLAIM_SECONDS + 1
    lobby.presence.connected("alice", +1)  # her app is open: she is thinking, not gone
    with pytest.raises(LobbyError, match="alice is here"):
        lobby.claim("bob", row.id)
    lobby.presence.connected("alice", -1)  # her app went: she is gone a minute later
    lobby.clock.now += PRESENT_SECONDS + 1
    won = lobby.claim("bob", row.id)
    assert won.status == "over" and won.winner == 1 and won.reason == "abandoned"


def test_claim_is_a_command(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="5+3", colour="first").id)
    lobby.move("alice", row.id, "4")
    lobby.move("bob", row.id, "4")
    lobby.clock.now += CLAIM_SECONDS + 100
    out = commands.run(lobby, "bob", f"claim {row.id} --json")
    assert out.status == 0 and json.loads(out.stdout)["reason"] == "abandoned"


# -- names, limits, rematches ----------------------------------------------------------------------------

def test_names_in_challenges_are_case_insensitive_and_must_exist(lobby):
    offer = lobby.seek("alice", "connect4", target="Bob")
    assert offer.target == "bob" and [o.id for o in lobby.offers("bob")] == [offer.id]
    with pytest.raises(LobbyError, match="no player"):
        lobby.seek("alice", "connect4", target="nobody")
    out = commands.run(lobby, "alice", "challenge 'bo\x1b[2Jb' connect4")
    assert out.status == 2 and "\x1b" not in out.stderr
    assert len(lobby.offers("alice")) == 1  # neither refused challenge took a slot
    with pytest.raises(LobbyError, match="challenge yourself"):
        lobby.seek("alice", "connect4", target="ALICE")


def test_open_offers_are_capped_per_player(lobby):
    for _ in range(MAX_OFFERS_PER_PLAYER):
        lobby.seek("alice", "connect4")
    out = commands.run(lobby, "alice", "seek connect4")
    assert MAX_OFFERS_PER_PLAYER == 5 and out.status == 2 and "open offers" in out.stderr
    assert out.stderr.count("\n") == 1


def test_guests_may_not_seek_by_command(lobby):
    out = commands.run(lobby, "guest-00ff00ff00ff00ff", "seek connect4 --casual", guest=True)
    assert out.status == 2 and "guest" in out.stderr and lobby.offers() == []


def test_crossing_rematches_become_one_game(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", colour="first").id)
    lobby.move("alice", row.id, "4")
    lobby.move("bob", row.id, "4")
    lobby.resign("bob", row.id)
    lobby.rematch("alice", row.id)
    started = lobby.rematch("bob", row.id)  # bob asks too: that is an agreement
    assert isinstance(started, GameRow) and started.players == ("bob", "alice")
    assert lobby.offers() == [] and len(lobby.games("alice")) == 1


def test_guest_names_are_64_bit_and_never_reused(lobby):
    name = lobby.new_guest_name()
    assert name.startswith("guest-") and len(name) == len("guest-") + 16
    lobby.seen(name, guest=True)
    lobby.rng = random.Random(1)
    taken = set()
    for _ in range(3):
        taken.add(lobby.new_guest_name())
    assert name not in taken


def test_checkers_seeks_start_from_a_three_move_ballot(lobby):
    from tui_games.data.resources import read_puzzles
    from tui_games.engine.checkers.ballots import parse_ballots

    ballots = {tuple(b.moves) for b in parse_ballots(read_puzzles("checkers_ballots.txt")) if b.standard}
    row = lobby.accept("bob", lobby.seek("alice", "checkers", colour="first").id)
    assert tuple(row.moves) in ballots and row.opening == 3
    assert lobby.to_move(row) == "bob"  # White moves after the ballot's three moves
    with pytest.raises(LobbyError, match="no move to take back"):
        lobby.takeback("alice", row.id, "offer")  # the ballot's moves are nobody's


# -- the socket: malformed requests, deltas, slow clients, spectators --------------------------------------

@pytest.mark.parametrize("request_", [
    {"op": "seek", "game": "connect4", "variant": 123},
    {"op": "seek", "game": ["connect4"]},
    {"op": "move", "game": {"a": 1}, "move": "4"},
    {"op": "chat", "text": [[[[["hi"]]]]]},
])
async def test_malformed_requests_get_an_error_reply(hub, request_):
    alice, _ = await join(hub, "alice")
    request_ = dict(request_)  # (the parameter is shared by each backend's run)
    with pytest.raises(LobbyUnavailable, match="bad request"):
        await alice.request(request_.pop("op"), **request_)
    assert await alice.request("who") == []  # still served
    await alice.close()


async def test_a_token_as_a_list_or_deep_nesting_is_refused_with_a_reply(hub):
    for line in (json.dumps({"op": "hello", "token": ["a"], "id": 1}).encode(),
                 b'{"op": "hello", "id": 1, "token": ' + b"[" * 5000 + b"]" * 5000 + b"}"):
        reader, writer = await asyncio.open_unix_connection(str(hub.path), limit=2**20)
        writer.write(line + b"\n")
        reply = json.loads(await asyncio.wait_for(reader.readline(), 5))
        assert reply["ok"] is False
        writer.close()
    bob, _ = await join(hub, "bob")
    deep = await bob.request("who")
    assert deep == []
    await bob.close()


async def test_offers_are_pushed_as_deltas(hub):
    alice, _ = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    first = await alice.request("seek", game="connect4")
    await bob_events.wait("offer", lambda d: d["id"] == first["id"])
    second = await alice.request("seek", game="tictactoe")
    pushed = await bob_events.wait("offer", lambda d: d["id"] == second["id"])
    assert pushed["game"] == "tictactoe"  # the new offer alone, not every seek again
    await alice.request("decline", offer=first["id"])
    gone = await bob_events.wait("offer", lambda d: d.get("gone"))
    assert gone == {"id": first["id"], "gone": True}
    assert not [e for e in bob_events.seen if e["event"] == "offers"]
    await alice.close()
    await bob.close()


async def test_a_slow_client_is_told_why_before_it_is_dropped(hub, monkeypatch):
    from tui_games.server.lobby import hub_socket

    monkeypatch.setattr(hub_socket, "MAX_BEHIND", 2000)
    hub.issue("secret-slow", "slow", False)
    reader, writer = await asyncio.open_unix_connection(str(hub.path))
    writer.write(json.dumps({"op": "hello", "token": "secret-slow", "id": 1}).encode() + b"\n")
    await reader.readline()
    writer.transport.pause_reading()  # reads nothing more
    slow = next(c for c in hub.clients if c.player == "slow")
    # A small socket buffer, so that what the slow app leaves unread piles up in the lobby.
    slow.writer.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1024)
    for name in ("alice", "bob", "carol", "dave", "erin", "frank"):
        seeker, _ = await join(hub, name)
        for _ in range(5):
            await seeker.request("seek", game="connect4")
        await seeker.close()
    await until(lambda: slow.dropped)
    writer.transport.resume_reading()  # what it reads now ends with why it was dropped
    lines = [json.loads(line) for line in (await asyncio.wait_for(reader.read(), 5)).splitlines()]
    assert lines and lines[-1]["event"] == "closing" and "behind" in lines[-1]["data"]["reason"]
    writer.close()


async def test_the_client_reconnects_by_itself(hub):
    events = Events()
    hub.issue("secret-alice", "alice", False)
    alice = LobbyClient(str(hub.path), "secret-alice", events, reconnect=True)
    await alice.connect()
    for client in list(hub.clients):
        client.writer.close()
    await events.wait("reconnected")
    assert await alice.request("who") == []
    await alice.close()


async def test_a_game_shows_how_many_watch_it(hub):
    alice, _ = await join(hub, "alice")
    bob, bob_events = await join(hub, "bob")
    carol, _ = await join(hub, "carol")
    offer = await alice.request("seek", game="connect4", colour="first")
    game = await bob.request("accept", offer=offer["id"])
    watched = await carol.request("watch", game=game["id"])
    assert watched["spectators"] == 1
    await bob_events.wait("game", lambda d: d.get("spectators") == 1)
    for client in (alice, bob, carol):
        await client.close()


# -- commands for bots ----------------------------------------------------------------------------------

def test_commands_are_rate_limited_per_player(lobby):
    refused = [commands.run(lobby, "alice", "who") for _ in range(200)]
    bad = [r for r in refused if r.status != 0]
    assert bad and all("too many commands" in r.stderr and r.stderr.count("\n") == 1 for r in bad)
    assert commands.run(lobby, "bob", "who").status == 0  # another player is not held back


async def test_watch_json_streams_a_game_until_its_end(hub):
    lobby = hub.lobby
    for name in ("alice", "bob"):
        lobby.seen(name)
    row = lobby.accept("bob", lobby.seek("alice", "tictactoe", colour="first", rated=False).id)
    lines: list[dict] = []
    result = commands.run(lobby, "bob", f"watch {row.id} --json")
    assert result.stream is not None
    streaming = asyncio.create_task(result.stream(lambda text: lines.extend(json.loads(t) for t in text.splitlines())))
    await until(lambda: lines)
    for player, cell in (("alice", "a1"), ("bob", "b2"), ("alice", "a2"), ("bob", "c3"), ("alice", "a3")):
        lobby.move(player, row.id, cell)
    status = await asyncio.wait_for(streaming, 5)
    kinds = [line["event"] for line in lines]
    assert status == 0 and kinds[0] == "game" and kinds[-1] == "end" and kinds.count("move") == 4
    assert lines[-1]["data"]["winner"] == "alice" and len(lines[-1]["data"]["moves"]) == 5
    assert lines[1]["data"]["to_move"] == "bob"


def test_a_player_with_two_sessions_is_listed_once(lobby):
    from tui_games.server.lobby.views import online_view

    people = online_view(lobby, [("bob", "in the app"), ("bob", "in the app"), ("carol", "in the app")])
    assert [p["name"] for p in people] == ["bob", "carol"]


async def test_closing_the_hub_with_apps_connected_leaves_no_traceback(tmp_path, caplog):
    """`bench online` printed a "closed database" traceback per app at exit: each connection's
    handler ran after the database had closed."""
    storage = Storage(tmp_path / "lobby.sqlite3")
    hub = HubSocket(Lobby(storage), tmp_path / "lobby.sock")
    await hub.start()
    clients = [await join(hub, name) for name in ("alice", "bob", "carol")]
    offer = await clients[0][0].request("seek", game="connect4", colour="first")
    await clients[1][0].request("accept", offer=offer["id"])
    await hub.close()
    storage.close()
    for client, _ in clients:
        await client.close()
    # Every connection's handler has run to its end (where the traceback came from).
    await until(lambda: not [t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()])
    assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]
