"""``serve --tournament FILE`` (server/lobby/tournament_file.py): the operator's schedule is
checked with one line per mistake, and each tournament is made once across restarts."""

from __future__ import annotations

import pytest

from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import Storage
from tui_games.server.lobby.tournament import Tournaments
from tui_games.server.lobby.tournament_file import read_tournament_file, schedule

GOOD = """
[[tournament]]
name = "Friday arena"
game = "connect4"
arena = "30m"
clock = "3+2"
starts = "2030-01-04T18:00:00Z"
house = ["house:connect4-perfect"]

[[tournament]]
name = "Swiss"
game = "tictactoe"
swiss = 3
clock = "1+0"
starts = 2030-01-05T18:00:00+01:00
"""


def test_a_good_file_is_read_and_scheduled_once(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    entries = read_tournament_file(path, house=["house:connect4-perfect"])
    assert [(e.name, e.kind, e.length, e.clock) for e in entries] == [
        ("Friday arena", "arena", "30m", "3+2"), ("Swiss", "swiss", "3", "1+0")]
    assert entries[1].starts == 1893862800.0  # 17:00 UTC
    storage = Storage(tmp_path / "lobby.sqlite3")
    try:
        tournaments = Tournaments(Lobby(storage))
        made = schedule(tournaments, entries)
        assert len(made) == 2
        assert schedule(tournaments, entries) == []  # a restart makes none again
        arena = tournaments.get(made[0])
        assert arena.creator == "server" and [p["name"] for p in arena.data["players"]] == ["house:connect4-perfect"]
    finally:
        storage.close()


@pytest.mark.parametrize(("text", "message"), [
    ("[[tournament]]\nname = 'x'\n", "'game' is missing"),
    ("not toml [", "is not TOML"),
    ("[other]\n", "unknown table 'other'"),
    (GOOD.replace('arena = "30m"', 'arena = "30m"\nswiss = 3'), "give one of 'arena'"),
    (GOOD.replace('"3+2"', '"none"'), "clock"),
    (GOOD.replace('"30m"', '"30 minutes"'), "not a duration"),
    (GOOD.replace('swiss = 3', 'swiss = 99'), "1 to 15"),
    (GOOD.replace('"connect4"', '"chess"'), "not a game"),
    (GOOD.replace('"2030-01-04T18:00:00Z"', '"tomorrow"'), "not a time"),
    (GOOD.replace('"2030-01-04T18:00:00Z"', '"2030-01-04T18:00:00"'), "with its zone"),
    (GOOD.replace('house:connect4-perfect', 'house:connect4-level1'), "not a house player the server seats"),
    (GOOD.replace('name = "Swiss"', 'name = "' + "n" * 41 + '"'), "1 to 40"),
    (GOOD.replace('name = "Swiss"', 'colour = "red"\nname = "Swiss"'), "unknown key 'colour'"),
])
def test_each_mistake_is_one_line_naming_the_file_and_the_tournament(tmp_path, text, message):
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        read_tournament_file(path, house=["house:connect4-perfect"])
    line = str(error.value)
    assert "\n" not in line and line.startswith(f"--tournament: {path}") and message in line, line


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(ValueError, match="cannot read"):
        read_tournament_file(tmp_path / "nothere.toml")


async def test_the_server_refuses_to_start_with_a_bad_file(start_server, tmp_path):
    from tui_games.server import ServerError

    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace('"3+2"', '"none"').replace('house = ["house:connect4-perfect"]', ''))
    with pytest.raises(ServerError, match="tournament 1 .Friday arena.: 'clock'"):
        await start_server(house="none", tournament_file=path)


def test_two_front_ends_starting_together_make_each_tournament_once(tmp_path, lobby_database):
    # Each front end read the tournaments made so far and then made the rest: one that read
    # before the other made them made them again. Here front end B runs its whole schedule just
    # after A has read what there is, outside any transaction (the moment a race gives B).
    from tui_games.server.lobby.backends import open_storage

    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    entries = read_tournament_file(path, house=["house:connect4-perfect"])
    storage_a, storage_b = open_storage(lobby_database), open_storage(lobby_database)
    try:
        front_a, front_b = Tournaments(Lobby(storage_a)), Tournaments(Lobby(storage_b))
        real_live = front_a.live
        raced = []

        def live():
            rows = real_live()
            if not raced and not front_a.lobby.in_transaction:  # read outside A's transaction
                raced.append(schedule(front_b, entries))
            return rows

        front_a.live = live  # type: ignore[method-assign]
        made = schedule(front_a, entries) + [tid for ids in raced for tid in ids]
        assert len(made) == 2, made
        assert sorted(row.data["scheduled"] for row in front_b.live()) == sorted(e.key for e in entries)
    finally:
        storage_a.close()
        storage_b.close()
