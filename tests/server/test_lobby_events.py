"""Issue 58: the events addressed to one player (server/lobby/events.py), as the lobby
publishes them, on either backend and across front ends; bounded per subscriber."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil

import pytest
from lobby_schemas import check
from ssh_support import key_file, lobby_bot, ssh_command, wait_until

from tui_games.server import ssh as ssh_module
from tui_games.server.lobby import events
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.views import game_data


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
                     ({"event": "game-start"}, "an event is"),
                     ({"event": "game-start", "data": {"game": {1, 2}}}, "is not JSON")):
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


# -- `ssh host events --json`, with the real OpenSSH client --------------------------------------

needs_ssh = pytest.mark.skipif(shutil.which("ssh") is None or os.name != "posix",
                               reason="the OpenSSH client (and POSIX ptys) needed")


def ssh_argv(port: int, user: str, identity, command: str) -> list[str]:
    return ["ssh", "-q", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
            "-o", "IdentityAgent=none", "-i", str(identity), f"{user}@127.0.0.1", command]


@contextlib.asynccontextmanager
async def events_reader(start_server, tmp_path):
    """A server, and robot's ``ssh … events --json`` on it that nobody reads until the test
    does: (server, the ssh process), once the stream is subscribed; killed at the end."""
    server = await start_server(register="open", house="none")
    key, _ = key_file(tmp_path, "robot")
    server.lobby.seen("robot")
    reader = await asyncio.create_subprocess_exec(*ssh_argv(server.port, "robot", key, "events --json"),
                                                  stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                  stderr=asyncio.subprocess.PIPE)
    try:
        await wait_until(lambda: server.lobby.events.subscribers("robot") == 1, 60, "the event stream")
        yield server, reader
    finally:
        if reader.returncode is None:
            reader.kill()
        await reader.communicate()  # (its unread output: wait() would wait for the pipe's end)


def publish_pairings(lobby, first: int, count: int = 50) -> int:
    """``count`` tournament pairings of 2 KB each to robot in one transaction, their rounds
    numbered from ``first``: the number after the last."""
    with lobby.transaction():
        for number in range(first, first + count):
            lobby.events.publish("robot", {"event": "tournament-pairing",
                                           "data": {"tournament": "t1", "round": number, "note": "x" * 2000}})
    return first + count


def commands_of(logs: list[str], user: str) -> list[str]:
    """The commands ``user`` ran, from the server's log (one `command` line each)."""
    return [re.search(r" command=(\S+)", line)[1] for line in logs if line.startswith(f"command user={user} ")]


async def play_other_side(lobby, player: str, game_id: str) -> None:
    """``player``'s moves in ``game_id`` (at random) until it ends, made in the server itself."""
    rng = random.Random(7)
    while (row := lobby.game(game_id)).status == "live":
        if lobby.to_move(row) == player:
            lobby.move(player, game_id, rng.choice(game_data(lobby, row)["legal"]))
        else:
            await wait_until(lambda: lobby.game(game_id).moves != row.moves or lobby.game(game_id).status != "live",
                             60, "the bot's move")


@pytest.mark.e2e
@needs_ssh
async def test_a_bot_on_its_event_stream_accepts_a_challenge_and_plays_it_without_polling(start_server, tmp_path):
    server = await start_server(register="open", house="none")
    key, _ = key_file(tmp_path, "robot")
    async with lobby_bot(server.port, key, "tictactoe", "--wait") as bot:
        await wait_until(lambda: server.lobby.events.subscribers("robot") == 1, 60, "the bot's event stream")
        lobby = server.lobby
        lobby.seen("alice")
        lobby.seek("alice", "tictactoe", target="robot", rated=False)  # made after the bot subscribed
        row = await until_game(lobby, "robot")
        await play_other_side(lobby, "alice", row.id)
        out, err = await asyncio.wait_for(bot.communicate(), 120)
    assert bot.returncode == 0, err.decode()
    row = lobby.game(row.id)
    assert out.decode() == f"game {row.id}: {row.players[row.winner] if row.winner is not None else 'nobody'} " \
                           f"won ({row.reason})\n"
    ran = commands_of(start_server.logs, "robot")
    robot_side = row.players.index("robot")
    robot_moves = sum(1 for ply in range(len(row.moves)) if ply % 2 == robot_side)
    # One stream of events, one accept, one watch, a command a move: nothing asked twice.
    assert sorted(ran) == sorted(["events", "accept", "watch"] + ["move"] * robot_moves), ran


async def until_game(lobby, player: str):
    await wait_until(lambda: lobby.games(player), 60, f"a game of {player}'s")
    return lobby.games(player)[0]


def event_channels(server) -> list:
    return [c.session.chan for c in list(server.connections)
            if c.session is not None and (c.session.command or "").startswith("events") and c.session.chan is not None]


@pytest.mark.e2e
@needs_ssh
async def test_a_reader_that_falls_behind_is_dropped_with_a_line_saying_why(start_server, tmp_path):
    """`ssh … events --json` whose output nobody reads (OpenSSH's own window is 2 MB) while
    the tournaments publish 2 KB pairings: what the server holds for it stays under its bound,
    and the stream ends with a line on stderr; the reader that comes back reads every line
    it was sent, then that line, and its exit status is 1."""
    async with events_reader(start_server, tmp_path) as (server, reader):
        lobby = server.lobby
        sent = 0
        while lobby.events.subscribers("robot"):  # dropped: unsubscribed
            assert sent < 5000, "never dropped"
            sent = publish_pairings(lobby, sent)
            await asyncio.sleep(0)  # the stream writes what it may
        # What the server held for it when it was dropped: its bound, and one event past it.
        [held] = [int(re.search(r" held=(\d+)", line)[1]) for line in start_server.logs
                  if line.startswith("events-behind user=robot")]
        assert ssh_module.WATCH_BEHIND < held <= ssh_module.WATCH_BEHIND + 4096, held
        out, err = await asyncio.wait_for(reader.communicate(), 60)
    lines = [json.loads(line) for line in out.decode().splitlines()]
    for line in lines:
        check("events.json", line)  # as the reader read them
    assert [line["data"]["round"] for line in lines] == list(range(len(lines))) and 1000 < len(lines) < sent
    assert err.decode() == ("tui-games: events ended: you fell behind (the server holds all it may of your unread "
                            "events); connect again: the challenges waiting for you and your live games come first\n")
    assert reader.returncode == 1


@pytest.mark.e2e
@needs_ssh
async def test_a_dropped_reader_that_never_reads_again_loses_its_connection(start_server, tmp_path, monkeypatch):
    """Its last line cannot leave while its window is full: after the goodbye's grace (1 s
    here) the connection is closed, and no longer counts as one of its player's."""
    monkeypatch.setattr(ssh_module, "STREAM_GOODBYE_SECONDS", 1.0)
    async with events_reader(start_server, tmp_path) as (server, _):
        lobby = server.lobby
        assert server.held_by_player["robot"] == 1
        while lobby.events.subscribers("robot"):
            publish_pairings(lobby, 0)
            await asyncio.sleep(0)
        await wait_until(lambda: not server.held_by_player["robot"], 30, "the connection to be closed")
        assert not event_channels(server)


async def test_the_stream_begins_with_the_challenges_waiting_and_the_live_games(lobby):
    """A bot that connects late sees what was addressed to it before: the challenges to it and
    its live games; then the events as they come. Text without --json."""
    from tui_games.server.lobby.commands import WatchClient, events_stream

    waiting = lobby.seek("alice", "tictactoe", target="bob", rated=False)
    row = lobby.accept("bob", lobby.seek("carol", "connect4", target="bob", rated=False).id)
    lobby.seek("bob", "tictactoe", target="alice", rated=False)  # bob's own: not addressed to him
    for as_json in (True, False):
        lines: list[str] = []
        stream = asyncio.create_task(events_stream(lobby, "bob", WatchClient(lines.append), as_json=as_json))
        await wait_until(lambda lines=lines: len(lines) == 2, 10, "what was waiting")
        if as_json:
            first, second = (json.loads(line) for line in lines)
            check("events.json", first)
            check("events.json", second)
            assert first["event"] == "challenge" and first["data"]["id"] == waiting.id
            assert second["event"] == "game-start" and second["data"]["id"] == row.id
            assert second["data"]["players"] == {"first": row.players[0], "second": row.players[1]}
        else:
            lobby.decline("alice", waiting.id)
            await wait_until(lambda lines=lines: len(lines) == 3, 10, "the withdrawal")
            assert lines[0].startswith(f"challenge: {waiting.id}  challenge to bob by alice: tictactoe")
            assert lines[1].startswith(f"game-start: {row.id}  connect4")
            assert lines[2].startswith(f"challenge-withdrawn: {waiting.id}")
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)
        assert lobby.events.subscribers("bob") == 0  # the stream's end unsubscribes
    # A tournament's data as text reaches a terminal: no escape sequence gets through.
    lines = []
    stream = asyncio.create_task(events_stream(lobby, "dave", WatchClient(lines.append), as_json=False))
    await wait_until(lambda: lobby.events.subscribers("dave"), 10, "dave's stream")
    lobby.events.publish("dave", {"event": "tournament-pairing", "data": {"tournament": "t1", "name": "\x1b[2Jx"}})
    await wait_until(lambda: lines, 10, "the pairing")
    assert lines == ["tournament-pairing: tournament=t1 name=?[2Jx\n"]
    stream.cancel()
    await asyncio.gather(stream, return_exceptions=True)


@pytest.mark.e2e
@needs_ssh
async def test_a_challenge_made_on_one_front_end_reaches_a_bot_on_another(start_server, postgres, tmp_path):
    """Two front ends sharing a PostgreSQL lobby: alice challenges with OpenSSH on the first,
    the bot follows its events and plays on the second, hearing her moves made on the first."""
    database = postgres.new_database()
    first = await start_server(lobby=database, root=tmp_path / "one", house="none")
    second = await start_server(lobby=database, root=tmp_path / "two", house="none")
    alice_key, _ = key_file(tmp_path, "alice")
    robot_key, _ = key_file(tmp_path, "robot")
    status, _, err = await ssh_command(second.port, "robot", robot_key, "who")  # robot registers its key
    assert status == 0, err
    async with lobby_bot(second.port, robot_key, "connect4", "--wait") as bot:
        await wait_until(lambda: second.lobby.events.subscribers("robot") == 1, 60, "the bot's event stream")
        status, out, err = await ssh_command(first.port, "alice", alice_key, "challenge robot connect4 --casual --json")
        assert status == 0, err
        row = await until_game(first.lobby, "robot")
        await play_other_side(first.lobby, "alice", row.id)
        out, err = await asyncio.wait_for(bot.communicate(), 120)
    assert bot.returncode == 0, err.decode()
    assert out.decode().startswith(f"game {row.id}: ")
    assert sorted(set(commands_of(start_server.logs, "robot"))) == ["accept", "events", "move", "watch", "who"]


async def test_after_a_gap_in_the_notices_the_stream_sends_what_is_waiting_again(lobby):
    """A resync (the database's notices were not listened to for a while: frontend.py) may
    have lost events; the stream cannot know which, so it sends the waiting ones again."""
    from tui_games.server.lobby.commands import WatchClient, events_stream
    from tui_games.server.lobby.storage import Notice

    waiting = lobby.seek("alice", "tictactoe", target="bob", rated=False)
    lines: list[str] = []
    stream = asyncio.create_task(events_stream(lobby, "bob", WatchClient(lines.append), as_json=True))
    try:
        await wait_until(lambda: len(lines) == 1, 10, "the waiting challenge")
        lobby.remote(Notice("resync", {}, "another front end"))
        await wait_until(lambda: len(lines) == 2, 10, "the challenge again")
        assert lines[0] == lines[1] and json.loads(lines[1])["data"]["id"] == waiting.id
    finally:
        stream.cancel()
        await asyncio.gather(stream, return_exceptions=True)


def test_a_guest_is_told_that_its_events_would_end_with_the_command(lobby):
    from tui_games.server.lobby import commands

    result = commands.run(lobby, "guest-0123456789abcdef", "events --json", guest=True)
    assert result.status == 2 and result.stream is None
    assert result.stderr == "tui-games: a guest's events end with the command; log in with a key to follow yours\n"
