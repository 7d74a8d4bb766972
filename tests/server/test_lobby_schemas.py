"""Issue 58: the JSON of every lobby command and stream with --json is described by a published
schema (docs/schemas/*.json, draft 2020-12; the table of docs/schemas.md), and real output
conforms: every command is run here on a real lobby, by the function the SSH server calls
(commands.run), its streams by theirs; the OpenSSH tests of test_lobby_events.py check the
event stream's lines as a bot reads them."""

from __future__ import annotations

import asyncio
import json
import random
from datetime import date

import pytest
from clock_support import HandClock
from lobby_schemas import check, schema_of, schemas, table
from ssh_support import wait_until

from tui_games.daily import puzzle
from tui_games.server.lobby import commands
from tui_games.server.lobby.hub import CLAIM_SECONDS, Lobby
from tui_games.server.lobby.storage import Storage

jsonschema = pytest.importorskip("jsonschema")


def test_each_schema_is_a_draft_2020_12_schema_and_the_table_names_every_command_and_file():
    for name, schema in schemas().items():
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        assert schema["$id"] == f"tui-games/lobby/{name}", name
        jsonschema.Draft202012Validator.check_schema(schema)
    assert set(table()) == set(commands._COMMANDS)  # every command takes --json
    assert set(table().values()) | {"lobby.json"} == set(schemas())


class Run:
    """Commands run as the SSH server runs them; each --json output checked against the schema
    the table names, and the commands so checked remembered."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.checked: set[str] = set()

    def __call__(self, player: str, command: str, **options) -> object:
        result = commands.run(self.lobby, player, command + " --json", **options)
        assert result.status == 0, result.stderr
        [line] = result.out
        value = json.loads(line)
        name = command.split()[0]
        check(schema_of(name), value)
        self.checked.add(name)
        return value


async def test_every_command_s_json_conforms_to_its_schema(tmp_path):
    clock = HandClock()
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage, clock=clock, rng=random.Random(1))
    lobby.presence.clock = clock
    run = Run(lobby)
    try:
        for name in ("alice", "bob", "carol"):
            lobby.seen(name)
        lobby.computers = {"house:connect4-level5": "connect4"}  # as the house's lease says (frontend.py)
        watched: list[str] = []
        events: list[str] = []
        event_stream = asyncio.create_task(commands.events_stream(
            lobby, "alice", commands.WatchClient(events.append), as_json=True))
        await wait_until(lambda: lobby.events.subscribers("alice"), 10, "alice's event stream")

        seek = run("alice", "seek tictactoe --colour first")
        assert run("bob", "offers")[0]["id"] == seek["id"]
        game = run("bob", f"accept {seek['id']}")["game"]
        row = lobby.game(game)
        watch = asyncio.create_task(commands.watch_stream(lobby, "carol", row, commands.WatchClient(watched.append),
                                                          as_json=True))
        await wait_until(lambda: watched, 10, "the watch's first line")
        run("alice", f"move {game} a1")
        run("bob", f"move {game} b2")
        run("bob", f"show {game}")
        assert [g["id"] for g in run("alice", "games")] == [game]
        run("bob", f"draw {game} offer")
        run("alice", f"draw {game} decline")
        lobby.say("carol", "a chat line the watch carries", game)
        run("alice", f"takeback {game} offer")
        run("bob", f"takeback {game} decline")
        run("alice", f"resign {game}")
        await asyncio.wait_for(watch, 10)
        run("alice", f"rematch {game}")  # a challenge to bob...
        again = run("bob", f"rematch {game}")  # ...which his own request accepts: the game
        run("alice", f"abort {again['id']}")
        run("carol", "who", online=lambda: [("alice", "in the app"), ("bob", "in the app")])
        run("carol", "ratings tictactoe")
        run("carol", "history alice")
        run("carol", f"export {game}")
        challenge = run("carol", "challenge alice checkers --casual")
        run("carol", f"decline {challenge['id']}")  # withdrawn
        challenge = run("alice", "challenge carol checkers --casual")
        run("carol", f"decline {challenge['id']}")
        lobby.events.publish("alice", {"event": "tournament-pairing", "data": {"tournament": "t1", "round": 1}})
        # A claim: bob left a clockless game on his move, and has been away for two minutes.
        offer = lobby.seek("alice", "connect4", target="bob", colour="first", rated=False)
        left = lobby.accept("bob", offer.id)
        lobby.move("alice", left.id, "4")
        lobby.move("bob", left.id, "4")
        lobby.move("alice", left.id, "3")
        clock.now += 2 * CLAIM_SECONDS
        lobby.seen("alice")
        run("alice", f"claim {left.id}")
        await wait_until(lambda: any('"game-end"' in line and left.id in line for line in events), 10,
                         "the claim's game-end event")
        # Tournaments: each action's output (a Swiss's standings, an arena's, a berserk).
        swiss = run("alice", "tournament create tictactoe --swiss 3 --clock 5+0")
        for name in ("alice", "bob", "carol"):
            run(name, f"tournament join {swiss['id']}")
        run("carol", f"tournament withdraw {swiss['id']}")
        run("carol", "tournament list")
        run("carol", f"tournament show {swiss['id']}")
        run("alice", f"tournament start {swiss['id']}")
        assert run("carol", f"tournament standings {swiss['id']}")[0]["rank"] == 1
        arena = run("bob", "tournament create connect4 --arena 30m --clock 3+0")
        for name in ("bob", "carol"):
            run(name, f"tournament join {arena['id']}")
        started = run("bob", f"tournament start {arena['id']}")
        paired = next(g["id"] for g in started["games"] if g["result"] is None)
        assert run("carol", f"tournament berserk {paired}")["game"] == paired
        assert "points" in run("bob", f"tournament standings {arena['id']}")[0]
        # The puzzle of the day: a look and an answer (each a stream of one object), the day's board.
        today = commands.run(lobby, "carol", "puzzle tictactoe --json")
        seen: list[str] = []
        await today.stream(commands.WatchClient(seen.append))
        solution = puzzle("tictactoe", date.fromisoformat(json.loads(seen[0])["date"])).solution
        for command in ("puzzle tictactoe --json", f"puzzle tictactoe --answer {solution} --json"):
            lines: list[str] = []
            errors: list[str] = []
            result = commands.run(lobby, "carol", command)
            assert result.status == 0 and result.stream is not None, result.stderr
            status = await result.stream(commands.WatchClient(lines.append, errors.append))
            assert status in (0, 1), errors  # 1: a wrong answer
            assert lines
            for line in lines:
                check("puzzle.json", json.loads(line))
        run("carol", "puzzle leaderboard tictactoe")
    finally:
        event_stream.cancel()
        await asyncio.gather(event_stream, return_exceptions=True)
        storage.close()
    assert run.checked | {"watch", "events"} == set(commands._COMMANDS)
    for line in watched:
        check("watch.json", json.loads(line))
    assert {json.loads(line)["event"] for line in watched} == {"game", "move", "offer", "chat", "end"}
    for line in events:
        check("events.json", json.loads(line))
    assert {json.loads(line)["event"] for line in events} == {
        "seek-taken", "game-start", "game-end", "challenge-accepted", "challenge", "challenge-withdrawn",
        "challenge-declined", "tournament-pairing"}


def test_a_line_that_breaks_its_schema_is_caught():
    """The check can fail: a game without its legal moves, an event of an unknown type."""
    with pytest.raises(AssertionError, match="'legal' is a required property"):
        check("show.json", {"id": "abcdef"})
    with pytest.raises(AssertionError):
        check("events.json", {"event": "hello", "data": {}})
