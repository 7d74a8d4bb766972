"""The lobby as the authority: seeks, challenges, moves checked by the rules, clocks, draws,
ratings, exports, and the command interface that scripts and bots use over SSH."""

from __future__ import annotations

import asyncio
import json
import random
import shutil

import pytest
from clock_support import HandClock

from tui_games.cli import main
from tui_games.engine.checkers.pdn import read_pdn_game
from tui_games.games import arena_adapter
from tui_games.server.lobby import commands
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Clock, Lobby, LobbyError
from tui_games.server.lobby.storage import Storage


@pytest.fixture
def lobby(lobby_database):
    storage = open_storage(lobby_database)  # on SQLite and on PostgreSQL (conftest.py)
    made = Lobby(storage, clock=HandClock(), rng=random.Random(3))
    for name in ("alice", "bob", "carol"):  # players who have been here (a challenge names one)
        made.seen(name)
    yield made
    storage.close()


def play(lobby: Lobby, game_id: str, moves: str, separator: str | None = None):
    row = lobby.game(game_id)
    for move in (moves.split(separator) if separator is not None else list(moves)):
        row = lobby.move(lobby.to_move(row), game_id, move)
    return row


def test_a_connect4_game_from_seek_to_rating(lobby):
    offer = lobby.seek("alice", "connect4", clock="none", colour="first")
    assert [o.id for o in lobby.offers("carol")] == [offer.id]  # a seek is for everyone
    row = lobby.accept("bob", offer.id)
    assert row.players == ("alice", "bob") and lobby.offers() == []
    with pytest.raises(LobbyError, match="it is alice's move"):
        lobby.move("bob", row.id, "4")
    with pytest.raises(LobbyError, match="not yours"):
        lobby.move("carol", row.id, "4")
    with pytest.raises(LobbyError, match="'9'"):
        lobby.move("alice", row.id, "9")
    row = play(lobby, row.id, "4455667")  # alice: 4 5 6 7 along the bottom row
    assert row.status == "over" and row.winner == 0 and row.reason
    assert lobby.export(row.id) == "4455667\n"
    with pytest.raises(LobbyError, match="is over"):
        lobby.move("bob", row.id, "1")
    (alice, _), (bob, _) = lobby.storage.rating("alice", "connect4"), lobby.storage.rating("bob", "connect4")
    assert alice.rating > 1500 > bob.rating
    assert [r[0] for r in lobby.ratings("connect4")] == ["alice", "bob"]
    assert [h.id for h in lobby.history("bob")] == [row.id]


def test_challenges_are_only_for_their_target(lobby):
    offer = lobby.seek("alice", "tictactoe", target="bob", variant="4x4, 3 in a row", rated=False)
    assert lobby.offers("carol") == []
    with pytest.raises(LobbyError, match="a challenge to bob, not to you"):
        lobby.accept("carol", offer.id)
    with pytest.raises(LobbyError, match="not yours to decline"):
        lobby.decline("carol", offer.id)
    lobby.decline("bob", offer.id)
    with pytest.raises(LobbyError, match="no offer"):
        lobby.accept("bob", offer.id)
    with pytest.raises(LobbyError, match="challenge yourself"):
        lobby.seek("alice", "tictactoe", target="alice")
    with pytest.raises(LobbyError, match="no variant"):
        lobby.seek("alice", "tictactoe", variant="9x9")
    with pytest.raises(LobbyError, match="not a game to play against someone"):
        lobby.seek("alice", "sudoku")


def test_guests_play_casual_only(lobby):
    with pytest.raises(LobbyError, match="casual"):
        lobby.seek("guest-1a2b", "connect4", guest=True)
    rated = lobby.seek("alice", "connect4")
    with pytest.raises(LobbyError, match="rated"):
        lobby.accept("guest-1a2b", rated.id, guest=True)
    casual = lobby.seek("alice", "connect4", rated=False)
    row = lobby.accept("guest-1a2b", casual.id, guest=True)
    play(lobby, row.id, "44")
    lobby.resign("guest-1a2b", row.id)
    assert lobby.storage.ratings() == []


def test_draw_offers_and_resignation(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "checkers", colour="first").id)
    assert row.opening == 3  # a three-move ballot: White (bob) moves first
    ballot = list(row.moves)
    for _ in range(2):
        position = lobby.position(row)
        move = arena_adapter("checkers").move_text(position, position.legal_moves()[0])
        row = lobby.move(lobby.to_move(row), row.id, move)
    lobby.draw("alice", row.id, "offer")
    with pytest.raises(LobbyError, match="offered a draw already"):
        lobby.draw("alice", row.id, "offer")
    lobby.draw("bob", row.id, "decline")
    assert lobby.game(row.id).draw_offer is None
    lobby.draw("bob", row.id, "offer")
    row = lobby.draw("alice", row.id, "accept")
    assert row.status == "over" and row.winner is None and row.reason == "agreement"
    game = read_pdn_game(lobby.export(row.id))
    assert [str(m) for m in game.moves] == row.moves and row.moves[:3] == ballot
    assert game.tags["Result"] == "1/2-1/2"
    assert game.tags["Black"] == "alice" and game.tags["White"] == "bob"


def test_fischer_clock_flags_and_increments(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="1+2", colour="first").id)
    play(lobby, row.id, "44")  # the clocks start after both first moves
    lobby.clock.now += 10
    row = lobby.move("alice", row.id, "4")
    assert row.left[0] == pytest.approx(60 - 10 + 2)
    lobby.clock.now += 61  # bob's minute runs out while nobody asks
    row = lobby.game(row.id)
    assert row.status == "over" and row.winner == 0 and row.reason == "time"


def test_correspondence_clock_resets_each_move(lobby):
    row = lobby.accept("bob", lobby.seek("alice", "connect4", clock="corr:2", colour="first").id)
    play(lobby, row.id, "44")
    lobby.clock.now += 86400 * 1.5
    row = lobby.move("alice", row.id, "4")
    assert row.left[0] == 2 * 86400
    lobby.clock.now += 86400 * 2.5
    assert lobby.game(row.id).reason == "time"


@pytest.mark.parametrize("text", ["5+", "corr:0", "corr:99", "0+3", "1000+1", "fast", "5+3 ; rm"])
def test_bad_clocks_are_refused(text):
    with pytest.raises(LobbyError):
        Clock.parse(text)


def test_the_state_survives_a_restart(tmp_path):
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage)
    row = lobby.accept("bob", lobby.seek("alice", "connect4", colour="first").id)
    lobby.move("alice", row.id, "4")
    storage.close()
    again = Lobby(Storage(tmp_path / "lobby.sqlite3"))
    assert again.game(row.id).moves == ["4"] and again.to_move(again.game(row.id)) == "bob"
    again.storage.close()


# -- the command interface ------------------------------------------------------------------------

def test_commands_play_a_whole_game_with_json(lobby):
    out = commands.run(lobby, "alice", "seek connect4 --clock 5+3 --colour first --json")
    assert out.status == 0
    offer = json.loads(out.stdout)["id"]
    accepted = json.loads(commands.run(lobby, "bob", f"accept {offer} --json").stdout)
    game = json.loads(commands.run(lobby, "bob", f"show {accepted['game']} --json").stdout)
    assert game["id"] == accepted["game"] and game["to_move"] == "alice" and game["clock"] == "5+3"
    assert game["players"] == {"first": "alice", "second": "bob"} and game["result"] is None
    assert json.loads(commands.run(lobby, "bob", "games --json").stdout)[0]["id"] == game["id"]
    for player, column in zip(["alice", "bob"] * 4, "4455667"):
        assert commands.run(lobby, player, f"move {game['id']} {column}").status == 0
    shown = json.loads(commands.run(lobby, "carol", f"show {game['id']} --json").stdout)
    assert shown["status"] == "over" and shown["winner"] == "alice" and shown["result"] == "first"
    assert commands.run(lobby, "carol", f"export {game['id']}").stdout == "4455667\n"
    ratings = json.loads(commands.run(lobby, "carol", "ratings connect4 --json").stdout)
    assert [r["player"] for r in ratings] == ["alice", "bob"]


@pytest.mark.parametrize("line, problem", [
    ("", "no command given"),
    ("ls /", "'ls' is not a command"),
    ("move", "the following arguments are required"),
    ("move nope 4", "there is no game 'nope'"),
    ("seek chess", "not a game to play against someone"),
    ("seek connect4 --clock 99999+1", "not a clock"),
    ("draw x maybe", "invalid choice"),
    ("show 'unclosed", "cannot read the command"),
    ("x" * 2000, "at most 1000 characters"),
    ("show \x1b[2J", "there is no game"),
])
def test_bad_commands_are_one_line_and_exit_2(lobby, line, problem):
    out = commands.run(lobby, "alice", line)
    assert out.status == 2 and out.stdout == "" and out.stderr.count("\n") == 1
    assert problem in out.stderr and "\x1b" not in out.stderr


# -- over SSH, with the real client ------------------------------------------------------------------

@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")
async def test_a_game_over_ssh_commands(start_server, tmp_path):
    from ssh_support import key_file

    server = await start_server(register="open")
    files = {name: key_file(tmp_path, name)[0] for name in ("alice", "bob")}

    async def ssh(user: str, command: str) -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            "ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "StrictHostKeyChecking=no",
            "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
            "-o", "LogLevel=ERROR", "-i", str(files[user]), f"{user}@127.0.0.1", command,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 30)
        return process.returncode, out.decode(), err.decode()

    status, out, _ = await ssh("alice", "seek connect4 --colour first --json")
    assert status == 0
    offer = json.loads(out)["id"]
    status, out, _ = await ssh("bob", f"accept {offer} --json")
    game = json.loads(out)["game"]
    status, _, err = await ssh("bob", f"move {game} 4")
    assert status == 2 and "it is alice's move" in err and err.count("\n") == 1
    for user, column in zip(["alice", "bob"] * 4, "4455667"):
        status, out, err = await ssh(user, f"move {game} {column}")
        assert status == 0, err
    status, out, _ = await ssh("bob", f"show {game}")
    assert "alice won" in out
    status, out, _ = await ssh("bob", "history --json")
    assert json.loads(out)[0]["winner"] == "alice"


def test_takeback_and_rematch_by_command(lobby):
    offer = json.loads(commands.run(lobby, "alice", "seek tictactoe --casual --colour first --json").stdout)
    game = json.loads(commands.run(lobby, "bob", f"accept {offer['id']} --json").stdout)["game"]
    assert commands.run(lobby, "alice", f"move {game} b2").status == 0
    assert commands.run(lobby, "bob", f"takeback {game} offer").status == 2  # bob has no move yet
    assert commands.run(lobby, "bob", f"move {game} a1").status == 0
    assert commands.run(lobby, "bob", f"takeback {game} offer").status == 0
    out = commands.run(lobby, "bob", f"takeback {game} accept")
    assert out.status == 2 and "no takeback request to accept" in out.stderr
    shown = json.loads(commands.run(lobby, "alice", f"takeback {game} accept --json").stdout)
    assert shown["moves"] == ["b2"] and shown["to_move"] == "bob"
    assert commands.run(lobby, "alice", f"rematch {game}").status == 2  # still being played
    commands.run(lobby, "bob", f"move {game} c3")
    commands.run(lobby, "bob", f"resign {game}")
    rematch = json.loads(commands.run(lobby, "bob", f"rematch {game} --json").stdout)
    assert rematch["target"] == "alice" and rematch["colour"] == "first" and not rematch["rated"]


def test_a_private_game_is_for_whoever_has_the_code(lobby):
    out = commands.run(lobby, "alice", "seek connect4 --private --casual --json")
    code = json.loads(out.stdout)["id"]
    assert len(code) == 8
    assert json.loads(commands.run(lobby, "carol", "offers --json").stdout) == []  # listed to no one
    assert [o["id"] for o in json.loads(commands.run(lobby, "alice", "offers --json").stdout)] == [code]
    game = json.loads(commands.run(lobby, "bob", f"accept {code} --json").stdout)
    assert set(game["players"].values()) == {"alice", "bob"}
    with pytest.raises(LobbyError, match="give no player"):
        lobby.seek("alice", "connect4", private=True, target="bob")


@pytest.mark.e2e
async def test_a_whole_checkers_game_by_ssh_commands_checked_against_the_cli(start_server, capsys):
    """Every move of a game played with `ssh host move …` alone is one that
    `tui-games checkers moves` lists for the position, and the lobby refuses one it does not."""
    asyncssh = pytest.importorskip("asyncssh")
    from ssh_support import key_for

    server = await start_server(register="open")

    async def ssh(user: str, command: str) -> tuple[int, str, str]:
        async with asyncssh.connect("127.0.0.1", server.port, username=user, known_hosts=None, config=None,
                                    agent_path=None, client_keys=[key_for(user)]) as conn:
            result = await conn.run(command)
            return result.exit_status, result.stdout, result.stderr

    def legal(moves: list[str]) -> dict:
        capsys.readouterr()
        assert main(["checkers", "moves", "start", *moves, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    status, out, _ = await ssh("alice", "seek checkers --casual --colour first --json")
    game = json.loads((await ssh("bob", f"accept {json.loads(out)['id']} --json"))[1])["game"]
    moves: list[str] = json.loads((await ssh("bob", f"show {game} --json"))[1])["moves"]
    assert len(moves) == 3  # the game starts from a three-move ballot
    rng = random.Random(5)
    while True:
        position = legal(moves)
        if position["game_over"] or len(moves) >= 120:
            break
        mover = ("alice", "bob")[len(moves) % 2]
        if len(moves) % 17 == 3:  # now and then a move the CLI does not list: refused, nothing changed
            # (the ballot is drawn at random, so 1-5 is sometimes legal: take a step that is not)
            wrong = next(m for m in ("1-5", "5-1", "32-28", "28-32") if m not in position["moves"])
            status, _, err = await ssh(mover, f"move {game} {wrong}")
            assert status == 2 and wrong in err
        captures = [m for m in position["moves"] if "x" in m]
        move = rng.choice(captures or position["moves"])
        status, out, err = await ssh(mover, f"move {game} {move} --json")
        assert status == 0, err
        moves.append(move)
        assert json.loads(out)["moves"] == moves
    shown = json.loads((await ssh("carol", f"show {game} --json"))[1])
    assert shown["moves"] == moves
    if position["game_over"]:
        assert shown["result"] in ("first", "second", "draw")
    else:
        await ssh("alice", f"resign {game}")
    exported = (await ssh("carol", f"export {game}"))[1]
    assert [str(m) for m in read_pdn_game(exported).moves] == moves


def test_an_older_database_is_migrated_in_place(tmp_path):
    import sqlite3

    old = sqlite3.connect(tmp_path / "lobby.sqlite3")
    old.executescript("""
        CREATE TABLE ratings (player TEXT, game TEXT, rating REAL, rd REAL, volatility REAL, games INTEGER,
                              PRIMARY KEY (player, game));
        CREATE TABLE offers (id TEXT PRIMARY KEY, kind TEXT, owner TEXT, target TEXT, game TEXT, variant TEXT,
                             clock TEXT, rated INTEGER, colour TEXT, created REAL);
        CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT, variant TEXT, first TEXT, second TEXT, clock TEXT,
                            rated INTEGER, moves TEXT DEFAULT '[]', status TEXT DEFAULT 'live', winner INTEGER,
                            reason TEXT, draw_offer TEXT, left_first REAL, left_second REAL, last_move REAL,
                            created REAL, ended REAL);
        INSERT INTO games (id, game, variant, first, second, clock, rated, moves, last_move, created)
            VALUES ('abc123', 'connect4', '{"full_board": false}', 'alice', 'bob', 'none', 1, '["4", "4"]', 0, 0);
        INSERT INTO ratings VALUES ('alice', 'connect4', 1600, 80, 0.06, 12);
        PRAGMA user_version=1;
    """)
    old.close()
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage)
    row = lobby.game("abc123")
    assert row.moves == ["4", "4"] and row.takeback_offer is None and row.assist is False and row.opening == 0
    assert row.berserk == 0 and storage.tournaments() == []  # schema 7: berserk sides, tournaments
    assert lobby.storage.rating("alice", "connect4")[0].rating == 1600
    lobby.move("alice", "abc123", "4")
    storage.close()


def test_engine_help_is_offered_only_with_casual_games(lobby):
    with pytest.raises(LobbyError, match="casual games only"):
        lobby.seek("alice", "connect4", assist=True)
    offer = lobby.seek("alice", "connect4", rated=False, assist=True)
    row = lobby.accept("bob", offer.id)
    assert row.assist and lobby.game(row.id).assist
    play(lobby, row.id, "44")
    rematch = lobby.rematch("bob", lobby.resign("alice", row.id).id)
    assert rematch.assist and not rematch.rated
