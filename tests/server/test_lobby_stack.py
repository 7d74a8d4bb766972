"""The lobby's factory (server/lobby/stack.py): the parts a front end runs, built in order,
stopped in reverse, and nothing left open when one of them cannot start."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest

from tui_games.server.lobby.stack import LobbyStartError, open_lobby_storage, start_lobby


async def test_a_lobby_starts_and_closes_its_parts_in_order(tmp_path):
    storage = open_lobby_storage(str(tmp_path / "lobby.sqlite3"))
    stack = await start_lobby(storage, tmp_path, online=list, house="connect4:level2", log=lambda line: None)
    assert stack.hub.path.exists() and stack.hub.path.parent == tmp_path
    assert [seat.name for seat in stack.house.seats] == ["house:connect4-level2"]
    await stack.close()
    assert not stack.hub.path.exists()
    with pytest.raises(sqlite3.ProgrammingError):  # the database is closed last
        storage.db.execute("SELECT 1")


async def test_a_folder_too_deep_for_a_socket_gets_a_short_one(tmp_path):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    storage = open_lobby_storage(str(deep / "lobby.sqlite3"))
    stack = await start_lobby(storage, deep, online=list, house="none", log=lambda line: None)
    try:
        assert len(str(stack.hub.path)) <= 107 and deep not in stack.hub.path.parents
    finally:
        await stack.close()
    assert not stack.hub.path.parent.exists()  # the short folder goes with the socket


async def test_a_short_folder_goes_when_the_lobby_cannot_start(tmp_path, monkeypatch):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    (deep / "tournaments.toml").write_text("this is not a tournament file\n")
    storage = open_lobby_storage(str(deep / "lobby.sqlite3"))
    made = []
    real = tempfile.mkdtemp

    def mkdtemp(*args, **kwargs):
        made.append(Path(real(*args, **kwargs)))
        return str(made[-1])

    monkeypatch.setattr(tempfile, "mkdtemp", mkdtemp)
    with pytest.raises(LobbyStartError):
        await start_lobby(storage, deep, online=list, house="none", log=lambda line: None,
                          tournament_file=deep / "tournaments.toml")
    assert len(made) == 1 and not made[0].exists()


async def test_a_bad_house_is_one_line_and_leaves_nothing_open(tmp_path):
    storage = open_lobby_storage(str(tmp_path / "lobby.sqlite3"))
    with pytest.raises(LobbyStartError, match=r"^--house: 'chess' is not a lobby game"):
        await start_lobby(storage, tmp_path, online=list, house="chess:strong", log=lambda line: None)
    assert not list(tmp_path.glob("*.sock"))
    with pytest.raises(sqlite3.ProgrammingError):
        storage.db.execute("SELECT 1")


def test_a_database_that_cannot_be_opened_is_one_line(tmp_path):
    (tmp_path / "lobby.sqlite3").write_bytes(b"not a database" * 100)
    with pytest.raises(LobbyStartError, match="cannot open the lobby's database"):
        open_lobby_storage(str(tmp_path / "lobby.sqlite3"))
