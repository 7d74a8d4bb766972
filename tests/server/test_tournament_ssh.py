"""Tournaments played over SSH with the real OpenSSH client: a Swiss of four (two of them house
players) run to the end, an arena of four bots by command, and hostile input refused in one line."""

from __future__ import annotations

import asyncio
import json
import random
import shutil

import pytest

from tui_games.server.lobby import house as house_module
from tui_games.server.lobby.tournament import TournamentLimits

pytestmark = [pytest.mark.e2e,
              pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")]

HOUSE = ("house:tictactoe-perfect", "house:tictactoe-magic-square")


async def run(server, tmp_path, user: str, command: str) -> tuple[int, str, str]:
    from ssh_support import key_file, ssh_command

    key, _ = key_file(tmp_path, user)
    status, out, err = await ssh_command(server.port, user, key, command)
    return status, out.decode(), err.decode()


async def ok_json(server, tmp_path, user: str, command: str):
    status, out, err = await run(server, tmp_path, user, command)
    assert status == 0, err
    return json.loads(out)


async def until(condition, timeout: float = 180.0, what: str = "the condition"):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if value := await condition():
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def bot(server, tmp_path, user: str, tournament: str, rng: random.Random | None, berserk: bool = False) -> int:
    """Plays every game of ``user`` until the tournament is over: the first legal move (or a
    random one); berserk in its first game if asked. Returns the moves it made."""
    made = 0
    went_berserk = False
    while True:
        games = await ok_json(server, tmp_path, user, "games --json")
        mine = [g for g in games if g["to_move"] == user]
        for g in mine:
            if berserk and not went_berserk:
                data = await ok_json(server, tmp_path, user, f"tournament berserk {g['id']} --json")
                assert data["left"] == 30.0  # half of 1+0
                went_berserk = True
            move = rng.choice(g["legal"]) if rng else g["legal"][0]
            status, _, err = await run(server, tmp_path, user, f"move {g['id']} {move}")
            made += status == 0
        if not mine:
            show = await ok_json(server, tmp_path, user, f"tournament show {tournament} --json")
            if show["status"] == "over" and not games:
                return made
            await asyncio.sleep(0.1)


def swiss_by_hand(games: list[dict], byes: dict, players: list[str]) -> dict[str, tuple[float, float]]:
    """Score and Buchholz of each player, from the games' results (no bye in a field of four)."""
    score = dict.fromkeys(players, 0.0)
    for g in games:
        score[g["first"]] += g["result"]
        score[g["second"]] += 1 - g["result"]
    assert not byes
    buchholz = dict.fromkeys(players, 0.0)
    for g in games:
        buchholz[g["first"]] += score[g["second"]]
        buchholz[g["second"]] += score[g["first"]]
    return {p: (score[p], buchholz[p]) for p in players}


async def test_a_swiss_of_four_with_two_house_players_runs_to_the_end(start_server, tmp_path, monkeypatch):
    monkeypatch.setattr(house_module, "NICE", 0)  # (these tests are about the tournament, not priorities)
    server = await start_server(house="tictactoe:perfect,tictactoe:magic-square")
    await until(lambda: asyncio.sleep(0, all(name in server.lobby.computers for name in HOUSE)),
                what="the house players seated")
    created = await ok_json(server, tmp_path, "ann", "tournament create tictactoe --swiss 3 --clock 1+0 "
                                                     "--name 'Friday Swiss' --json")
    tid = created["id"]
    assert created["status"] == "open" and created["rounds"] == 3
    await ok_json(server, tmp_path, "ann", f"tournament join {tid} --json")
    await ok_json(server, tmp_path, "bob", f"tournament join {tid} --json")
    status, _, err = await run(server, tmp_path, "bob", f"tournament join {tid} --house {HOUSE[0]}")
    assert status == 2 and err.count("\n") == 1 and "only ann" in err
    for seat in HOUSE:
        await ok_json(server, tmp_path, "ann", f"tournament join {tid} --house {seat} --json")
    listed = await ok_json(server, tmp_path, "bob", "tournament list --json")
    assert [(t["id"], t["players"]) for t in listed] == [(tid, 4)]
    started = await ok_json(server, tmp_path, "ann", f"tournament start {tid} --json")
    assert started["status"] == "running" and started["round"] == 1
    made = await asyncio.gather(bot(server, tmp_path, "ann", tid, None), bot(server, tmp_path, "bob", tid, None))
    assert all(made)
    final = await ok_json(server, tmp_path, "bob", f"tournament show {tid} --json")
    assert final["status"] == "over" and final["reason"] == "every round is played" and final["round"] == 3
    names = ["ann", "bob", *HOUSE]
    games = final["games"]
    assert len(games) == 6 and sorted(g["round"] for g in games) == [1, 1, 2, 2, 3, 3]
    assert len({frozenset((g["first"], g["second"])) for g in games}) == 6  # each met each once
    for g in games:  # each result is the game's own, as the lobby ended it
        shown = await ok_json(server, tmp_path, "ann", f"show {g['id']} --json")
        assert shown["status"] == "over" and shown["reason"] != "aborted"
        assert g["result"] == {"first": 1.0, "second": 0.0, "draw": 0.5}[shown["result"]]
    expected = swiss_by_hand(games, final["byes"], names)
    standings = await ok_json(server, tmp_path, "ann", f"tournament standings {tid} --json")
    assert {s["player"]: (s["score"], s["buchholz"]) for s in standings} == expected
    order = [s["player"] for s in standings]
    assert order == sorted(order, key=lambda p: (-expected[p][0], -expected[p][1],
                                                 -next(s["buchholz_cut1"] for s in standings if s["player"] == p),
                                                 -next(s["sonneborn_berger"] for s in standings if s["player"] == p),
                                                 order.index(p)))
    perfect = next(s for s in standings if s["player"] == HOUSE[0])
    assert not any(r.startswith("-") for r in perfect["results"])  # the perfect player never loses
    assert sum(s["score"] for s in standings) == 6  # a point a game
    # The crosstable is kept; the games were rated as usual.
    assert server.lobby.storage.tournament(tid).crosstable == standings
    ratings = await ok_json(server, tmp_path, "ann", "ratings tictactoe --json")
    assert {r["player"]: r["games"] for r in ratings}["ann"] == 3
    text = await run(server, tmp_path, "ann", f"tournament standings {tid}")
    assert text[0] == 0 and text[1].splitlines()[0].startswith(" 1. ")


async def test_an_arena_of_four_bots_by_command(start_server, tmp_path):
    server = await start_server(house="none", tournament_limits=TournamentLimits(min_arena_seconds=1))
    bots = ["b1", "b2", "b3", "b4"]
    created = await ok_json(server, tmp_path, "b1", "tournament create connect4 --arena 20s --clock 1+0 --json")
    tid = created["id"]
    for name in bots:
        await ok_json(server, tmp_path, name, f"tournament join {tid} --json")
    await ok_json(server, tmp_path, "b1", f"tournament start {tid} --json")
    rngs = [random.Random(seed) for seed in range(4)]
    await asyncio.gather(*(bot(server, tmp_path, name, tid, rng, berserk=name == "b1")
                           for name, rng in zip(bots, rngs)))
    final = await ok_json(server, tmp_path, "b2", f"tournament show {tid} --json")
    assert final["status"] == "over" and final["reason"] == "its time is up"
    row = server.lobby.storage.tournament(tid)
    games = row.data["games"]
    assert len(games) >= 4  # paired again as they finished
    # Nobody played two games at once; the games of each bot follow one another.
    for name in bots:
        rows = [server.lobby.storage.game(g["id"]) for g in games if name in (g["first"], g["second"])]
        spans = sorted((r.created, r.ended or float("inf")) for r in rows)
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    # Points by lichess's rules, from the results by hand.
    points = dict.fromkeys(bots, 0)
    streak = dict.fromkeys(bots, 0)
    for g in games:
        if g["result"] is None or g.get("late"):
            continue
        for side, name in enumerate((g["first"], g["second"])):
            mine = g["result"] if side == 0 else 1 - g["result"]
            base = {1.0: 2, 0.5: 1, 0.0: 0}[mine] * (2 if streak[name] >= 2 else 1)
            if mine == 1.0 and name in g["berserk"] and g["plies"][side] >= 7:
                base += 1
            points[name] += base
            streak[name] = streak[name] + 1 if mine == 1.0 else 0
    assert {s["player"]: s["points"] for s in final["standings"]} == points
    assert "b1" in games[0]["berserk"] or any("b1" in g["berserk"] for g in games)


async def test_hostile_tournament_commands_are_refused_in_one_line(start_server, tmp_path):
    server = await start_server(house="none")
    for command, message in [
        ("tournament create connect4 --arena 99h --clock 3+2", "an arena lasts"),
        ("tournament create connect4 --swiss 500 --clock 3+2", "rounds"),
        ("tournament create connect4 --swiss 3 --clock none", "with a clock"),
        ("tournament create connect4 --swiss 3 --clock 3+2 --name " + "x" * 300, "printable"),
        ("tournament create connect4 --swiss 3 --clock 3+2 --name '\x1b[2J'", "printable"),
        ("tournament create connect4 --arena 30m --swiss 3 --clock 3+2", "not allowed with"),
        ("tournament show " + "t" * 900, "no tournament"),
        ("tournament join nothere", "no tournament"),
        ("tournament berserk abcdef", "not a tournament game"),
        ("tournament fly", "invalid choice"),
    ]:
        status, out, err = await run(server, tmp_path, "eve", command)
        assert status == 2 and out == "" and err.count("\n") == 1, (command, err)
        assert message in err and "\x1b" not in err, (command, err)
    for _ in range(2):
        await ok_json(server, tmp_path, "eve", "tournament create connect4 --swiss 3 --clock 3+2 --json")
    status, _, err = await run(server, tmp_path, "eve", "tournament create connect4 --swiss 3 --clock 3+2")
    assert status == 2 and "2 tournaments open or running already" in err


async def test_a_creator_withdraws_house_players_only(start_server, tmp_path):
    # `--house NAME` is the creator's for the house's seats: it withdrew any human as well.
    server = await start_server(house="none")
    made = await ok_json(server, tmp_path, "ann", "tournament create connect4 --swiss 3 --clock 3+2 --json")
    tid = made["id"]
    await ok_json(server, tmp_path, "bob", f"tournament join {tid} --json")
    status, out, err = await run(server, tmp_path, "ann", f"tournament withdraw {tid} --house bob")
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert "'bob' is not a house player's name" in err
    shown = await ok_json(server, tmp_path, "ann", f"tournament show {tid} --json")
    assert [p["name"] for p in shown["players"]] == ["bob"]


async def test_the_operators_schedule_starts_at_its_time_and_runs(start_server, tmp_path, monkeypatch):
    import datetime

    monkeypatch.setattr(house_module, "NICE", 0)
    starts = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=4)
    path = tmp_path / "tournaments.toml"
    path.write_text(f"""
[[tournament]]
name = "House derby"
game = "tictactoe"
swiss = 1
clock = "1+0"
starts = "{starts.isoformat()}"
house = ["{HOUSE[0]}", "{HOUSE[1]}"]
""")
    server = await start_server(house="tictactoe:perfect,tictactoe:magic-square", tournament_file=path)
    listed = await ok_json(server, tmp_path, "ann", "tournament list --json")
    assert [(t["name"], t["status"], t["creator"], t["players"]) for t in listed] == [
        ("House derby", "open", "server", 2)]
    tid = listed[0]["id"]

    async def over():
        show = await ok_json(server, tmp_path, "ann", f"tournament show {tid} --json")
        return show if show["status"] == "over" else None

    final = await until(over, what="the scheduled tournament to start at its time and end")
    assert final["reason"] == "every round is played"
    assert len(final["games"]) == 1 and final["games"][0]["result"] is not None
    paired = server.lobby.storage.game(final["games"][0]["id"]).created
    assert paired >= starts.timestamp()  # not before its time (it was open, not running, when listed)
