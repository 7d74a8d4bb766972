"""House players: the project's engines seated in the lobby answer seeks and challenges of their
game and play them to the end from a niced worker process; the bot example of the docs plays a
whole game against one with the real OpenSSH client."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from tui_games.games import arena_adapter
from tui_games.server.lobby import house as house_module
from tui_games.server.lobby.house import EngineWorker, House, _think, parse_house
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import Storage

BOT = Path(__file__).resolve().parents[2] / "examples" / "lobby_bot.py"


@pytest.fixture
async def house_hub(tmp_path, monkeypatch):
    # The worker is niced so that people's sessions come first (tested below); beside eight
    # CPU-bound processes of normal priority that leaves it about 1% of a core, and its first
    # move took the minute after which a game is aborted. These tests are about seeks and moves.
    monkeypatch.setattr(house_module, "NICE", 0)
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage)
    hub = HubSocket(lobby, tmp_path / "lobby.sock")
    await hub.start()
    house = House(lobby, parse_house("tictactoe:perfect,connect4:level3,checkers:level2"))
    house.start()
    yield lobby, house
    await house.close()
    await hub.close()
    storage.close()


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="POSIX priorities")
async def test_the_engines_think_in_a_niced_process():
    worker = EngineWorker()
    try:
        move = await worker.think({"game": "connect4", "variant": {}, "moves": [], "spec": "level1",
                                   "seconds": 0.1, "seed": 1}, ceiling=120)
        assert move.isdigit()
        own, its = os.getpriority(os.PRIO_PROCESS, 0), os.getpriority(os.PRIO_PROCESS, worker._process.pid)
        assert its == min(19, own + house_module.NICE) and (its > own or own == 19)
    finally:
        worker.stop()


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the memory from /proc")
def test_the_worker_does_not_grow_with_its_moves():
    """The worker makes a player for each move; the perfect Connect-4 player's solver has a
    32 MB table, and every one of them stayed (the compiled search's cycle was invisible to
    the collector): the worker grew 32 MB a move."""
    import gc

    def rss_mb() -> float:
        status = Path("/proc/self/status").read_text()
        return int(status.split("VmRSS:")[1].split()[0]) / 1024

    moves: list[str] = []
    for seed in range(6):
        moves.append(_think({"game": "connect4", "variant": {}, "moves": moves, "spec": "perfect",
                             "seconds": 0.2, "seed": seed}))
        gc.collect()
        if seed == 0:
            first = rss_mb()
    assert rss_mb() - first < 48, f"{first:.0f} → {rss_mb():.0f} MB over five moves"


async def until(condition, timeout: float = 60.0):
    for _ in range(int(timeout / 0.05)):
        if value := condition():
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("the condition never held")


def test_the_house_option_is_checked():
    assert [seat.name for seat in parse_house("connect4:perfect, checkers:strong")] == [
        "house:connect4-perfect", "house:checkers-strong"]
    assert parse_house("none") == []
    with pytest.raises(ValueError, match="not a lobby game"):
        parse_house("sudoku:perfect")
    with pytest.raises(ValueError, match="no engine"):
        parse_house("connect4:godlike")


async def test_a_seek_of_each_game_is_taken_and_played_to_the_end(house_hub):
    lobby, house = house_hub
    lobby.seen("alice")
    assert lobby.is_computer("house:connect4-level3")
    rng = random.Random(4)
    for game in ("tictactoe", "connect4", "checkers"):
        offer = lobby.seek("alice", game, rated=True)
        row = await until(lambda: next(iter(lobby.games("alice")), None))
        assert row.players[1 - row.players.index("alice")] == f"house:{game}-" + {
            "tictactoe": "perfect", "connect4": "level3", "checkers": "level2"}[game]
        assert lobby.storage.offer(offer.id) is None
        # alice plays at random; the house answers each move until the game ends.
        while (row := lobby.game(row.id)).status == "live":
            if lobby.to_move(row) == "alice":
                position = lobby.position(row)
                lobby.move("alice", row.id, arena_adapter(game).move_text(
                    position, rng.choice(position.legal_moves())))
            else:
                await until(lambda game=row.id, before=row.moves: lobby.game(game).moves != before
                            or lobby.game(game).status != "live")
        assert row.reason != "aborted"
    assert {p for p, g, r, n in lobby.ratings() if n} >= {"alice", "house:tictactoe-perfect"}


async def test_a_challenge_to_a_house_player_is_taken_at_once_and_it_is_never_claimed(house_hub):
    lobby, house = house_hub
    lobby.seen("bob")
    lobby.seek("bob", "tictactoe", target="HOUSE:tictactoe-perfect", rated=False, colour="second")
    row = await until(lambda: next(iter(lobby.games("bob")), None), timeout=30)
    await until(lambda: len(lobby.game(row.id).moves) == 1)  # the house moved first
    assert lobby.presence.here("house:tictactoe-perfect")
    with pytest.raises(LobbyError):
        lobby.claim("bob", row.id)


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")
async def test_the_bot_example_plays_a_game_against_a_house_player(start_server, tmp_path):
    from ssh_support import key_file

    server = await start_server(register="open", house="tictactoe:level5")
    key, _ = key_file(tmp_path, "robot")
    env = {**os.environ, "TUI_GAMES_SSH": f"-F /dev/null -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                                          f"-o IdentitiesOnly=yes -o LogLevel=ERROR -i {key}"}
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(BOT), "robot@127.0.0.1", str(server.port), "tictactoe", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(bot.communicate(), 120)
    assert bot.returncode == 0, err.decode()
    line = out.decode().strip()
    assert line.startswith("game ") and " won (" in line
    row = server.lobby.history("robot")[0]
    assert row.status == "over" and "house:tictactoe-level5" in row.players and row.reason != "aborted"


def test_the_bot_in_the_docs_is_the_example_that_is_tested():
    docs = (BOT.parents[1] / "docs" / "serving.md").read_text()
    shown = docs.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown.strip() and shown.strip() in BOT.read_text()
