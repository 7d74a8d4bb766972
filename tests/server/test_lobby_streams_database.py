"""A stream (``events``, ``watch``) whose lobby loses its database while it runs: it ends with
one line on the client's stderr and an exit status, never an exception left in a task (the
SSH session would keep the channel open with no exit status and log a traceback)."""

from __future__ import annotations

import asyncio
import random

import pytest
from ssh_support import wait_until

from tui_games.server.lobby import commands
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import Notice, StorageUnavailable

GONE = "the lobby's database is not reachable (restarting?); try again in a moment"


@pytest.fixture
def lobby(tmp_path):
    storage = open_storage(str(tmp_path / "lobby.sqlite3"))
    made = Lobby(storage, rng=random.Random(3))
    for name in ("alice", "bob"):
        made.seen(name)
    yield made
    storage.close()


def unreachable(*args, **kwargs):
    raise StorageUnavailable(GONE)


async def test_an_events_stream_ends_in_one_line_when_the_database_goes_at_a_resync(lobby, monkeypatch):
    out: list[str] = []
    err: list[str] = []
    stream = asyncio.create_task(commands.events_stream(
        lobby, "bob", commands.WatchClient(out.append, err.append), as_json=False))
    await wait_until(lambda: lobby.events.subscribers("bob"), 10, "bob's stream")
    # A resync is what a gap in the front ends' notices brings, and the stream then reads the
    # waiting challenges again: the database is the likeliest to be away just then.
    monkeypatch.setattr(lobby.storage, "offers", unreachable)
    lobby.remote(Notice("resync", {}, "another front end"))
    status = await asyncio.wait_for(stream, 30)
    assert status == commands.EXIT_DROPPED
    assert len(err) == 1 and err[0].endswith("\n") and "\n" not in err[0][:-1]
    assert GONE in err[0] and err[0].startswith("tui-games: events ended")
    assert lobby.events.subscribers("bob") == 0


async def test_a_watch_ends_in_one_line_when_the_database_goes_at_a_resync(lobby, monkeypatch):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", target="bob", rated=False).id)
    out: list[str] = []
    err: list[str] = []
    watching = asyncio.create_task(commands.watch_stream(
        lobby, "bob", row, commands.WatchClient(out.append, err.append), as_json=False))
    await wait_until(lambda: out, 10, "the game's first line")
    monkeypatch.setattr(lobby.storage, "game", unreachable)
    lobby.remote(Notice("resync", {}, "another front end"))
    status = await asyncio.wait_for(watching, 30)
    assert status == commands.EXIT_IDLE
    assert len(err) == 1 and GONE in err[0] and err[0].startswith("tui-games: watch ended")
