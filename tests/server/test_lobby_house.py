"""House players: the project's engines seated in the lobby answer seeks and challenges of their
game and play them to the end from a niced worker process; the bot example of the docs plays a
whole game against one with the real OpenSSH client."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
from pathlib import Path

import pytest
from clock_support import HandClock

from tui_games.games import arena_adapter
from tui_games.server.lobby import house as house_module
from tui_games.server.lobby.house import EngineWorker, House, _think, parse_house
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import GameRow, Storage

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
        assert worker.spent is not None and 0 <= worker.spent < 120  # its CPU seconds: what its clock is charged
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


def test_the_mcts_house_player_counts_its_budget_in_cpu_seconds(monkeypatch):
    from tui_games.engine import mcts as mcts_module

    budgets: list[float] = []

    class Spy(mcts_module.Budget):
        __slots__ = ()

        def __init__(self, cpu: float, wall: float | None = None) -> None:
            budgets.append(cpu)
            super().__init__(cpu, wall)

    monkeypatch.setattr(mcts_module, "Budget", Spy)
    move = _think({"game": "connect4", "variant": {}, "moves": ["4", "4"], "spec": "mcts",
                   "seconds": 0.3, "seed": 1})
    # The house's seconds reach the search as a CPU budget (engine.budget.Budget), as every engine's.
    assert budgets == [0.3] and move in list("1234567")


async def test_connect4_mcts_sits_in_the_default_house_and_plays_a_challenge_to_the_end(tmp_path, monkeypatch):
    from tui_games.server.lobby.house import DEFAULT_HOUSE

    assert "house:connect4-mcts" in [seat.name for seat in parse_house(DEFAULT_HOUSE)]
    monkeypatch.setattr(house_module, "NICE", 0)
    monkeypatch.setattr(house_module, "NO_CLOCK_SECONDS", 0.05)  # a quick game: 50 ms of CPU a move
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage)
    house = House(lobby, parse_house("connect4:mcts"))
    house.start()
    try:
        lobby.seen("carol")
        lobby.seek("carol", "connect4", target="house:connect4-mcts", rated=False, colour="first")
        row = await until(lambda: next(iter(lobby.games("carol")), None), timeout=30)
        rng = random.Random(5)
        while (row := lobby.game(row.id)).status == "live":
            if lobby.to_move(row) == "carol":
                position = lobby.position(row)
                lobby.move("carol", row.id, arena_adapter("connect4").move_text(
                    position, rng.choice(position.legal_moves())))
            else:
                await until(lambda game=row.id, before=row.moves: lobby.game(game).moves != before
                            or lobby.game(game).status != "live")
        assert row.reason != "aborted" and len(row.moves) >= 7
    finally:
        await house.close()
        storage.close()


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
    from ssh_support import key_file, lobby_bot

    server = await start_server(register="open", house="tictactoe:level5")
    key, _ = key_file(tmp_path, "robot")
    async with lobby_bot(server.port, key, "tictactoe") as bot:
        out, err = await asyncio.wait_for(bot.communicate(), 120)
    assert bot.returncode == 0, err.decode()
    line = out.decode().strip()
    assert line.startswith("game ") and " won (" in line
    row = server.lobby.history("robot")[0]
    assert row.status == "over" and "house:tictactoe-level5" in row.players and row.reason != "aborted"
    # Its events and the game's watch, a seek and its moves: no `games` asked again and again.
    ran = [line.split(" command=")[1].split()[0] for line in start_server.logs if line.startswith("command user=robot ")]
    assert sorted(set(ran)) == ["events", "move", "seek", "watch"] and ran.count("events") == ran.count("watch") == 1


def test_the_bot_in_the_docs_is_the_example_that_is_tested():
    docs = (BOT.parents[1] / "docs" / "serving.md").read_text()
    shown = docs.split("```python\n", 1)[1].split("```", 1)[0]
    assert shown.strip() and shown.strip() in BOT.read_text()


# -- issue 50, findings 3 and 4: the house never loses to its own queue, and is not squatted ---------

class HeldWorker:
    """A worker whose searches answer only when the test says, each after the fake clock
    moved on by what the test says it thought: the order searches were asked for, too."""

    def __init__(self, clock: HandClock, asked: list) -> None:
        self.clock, self.asked = clock, asked
        self.answers: asyncio.Queue = asyncio.Queue()
        self.spent: float | None = None
        self.hurried = 0

    async def think(self, request: dict, ceiling: float) -> str:
        self.asked.append(request)
        answer = await self.answers.get()
        if isinstance(answer, Exception):  # the worker died, or its search failed
            raise answer
        thought, move = answer
        self.clock.now += thought
        return move

    def hurry(self) -> bool:
        self.hurried += 1
        return True

    def stop(self) -> None:
        pass


@pytest.fixture
async def held_house(tmp_path, monkeypatch):
    """A house of one seat and one worker whose searches the test answers, on a fake clock."""
    clock = HandClock(1_000_000.0)
    storage = Storage(tmp_path / "lobby.sqlite3")
    lobby = Lobby(storage, clock=clock)
    asked: list = []
    monkeypatch.setattr(house_module, "WORKERS", 1)
    house = House(lobby, parse_house("connect4:level1"))
    house.workers = [HeldWorker(clock, asked)]
    house.start()
    yield lobby, house, clock, asked
    await house.close()
    storage.close()


async def started_game(lobby, player: str, clock_text: str) -> GameRow:
    """A game of ``player`` against the house, both first moves made, the house to move."""
    lobby.seen(player)
    lobby.seek(player, "connect4", target="house:connect4-level1", clock=clock_text, colour="first")
    row = await until(lambda: next(iter(lobby.games(player)), None), timeout=30)
    lobby.move(player, row.id, "1")
    return row


async def test_a_house_move_waiting_in_the_queue_is_not_charged_to_its_clock(held_house):
    """Two 1+0 games; the house thinks 30 s in the first while the second waits: the second
    is charged only its own thinking (0.5 s), not the 30 s it waited (it lost every rated
    1+0 game that way)."""
    lobby, house, clock, asked = held_house
    first = await started_game(lobby, "alice", "1+0")
    second = await started_game(lobby, "bob", "1+0")
    worker = house.workers[0]
    await until(lambda: len(asked) == 1)
    await worker.answers.put((0.0, "1"))  # both first moves: no clock yet
    await until(lambda: len(asked) == 2)
    await worker.answers.put((0.0, "1"))
    for row, player in ((first, "alice"), (second, "bob")):
        await until(lambda row=row: len(lobby.game(row.id).moves) == 2)
        lobby.move(player, row.id, "2")
    await until(lambda: len(asked) == 3)
    await worker.answers.put((30.0, "2"))  # the first game's search takes 30 s, the second waits
    await until(lambda: len(asked) == 4)
    await worker.answers.put((0.5, "2"))
    await until(lambda: len(lobby.game(second.id).moves) == 4)
    assert lobby.game(first.id).left[1] == pytest.approx(30.0)
    assert lobby.game(second.id).left[1] == pytest.approx(59.5)
    assert lobby.game(second.id).status == "live"


async def test_the_most_urgent_house_clock_is_searched_first(held_house):
    lobby, house, clock, asked = held_house
    rows = [await started_game(lobby, player, "5+0") for player in ("alice", "bob", "carol")]
    worker = house.workers[0]
    for count in range(3):  # the house's first moves
        await until(lambda count=count: len(asked) == count + 1)
        await worker.answers.put((0.0, "1"))
    for row in rows:
        await until(lambda row=row: len(lobby.game(row.id).moves) == 2)
    # Carol's game: the house has 2 s left on its clock; the others 300 s.
    row = lobby.game(rows[2].id)
    row.left[1] = 2.0
    lobby.storage.save_game(row)
    lobby.move("alice", rows[0].id, "2")  # searched at once (the worker is free)
    await until(lambda: len(asked) == 4)
    lobby.move("bob", rows[1].id, "2")
    lobby.move("carol", rows[2].id, "2")  # later, but more urgent
    await worker.answers.put((0.1, "2"))
    await until(lambda: len(asked) == 5)
    assert asked[-1]["moves"] == lobby.game(rows[2].id).moves
    assert asked[-1]["seconds"] >= house_module.MIN_BUDGET


async def test_a_long_search_is_hurried_when_another_move_falls_due(held_house):
    """One worker thinking in alice's game while bob's move waits: once bob's is due (within
    HURRY_AHEAD) the running search is told to play its best so far, once; not before the
    search has had MIN_SEARCH_SECONDS, and not while a worker is free."""
    lobby, house, clock, asked = held_house
    first = await started_game(lobby, "alice", "none")
    worker = house.workers[0]
    await until(lambda: len(asked) == 1)
    assert not house.hurry_if_due()  # nothing waits
    await started_game(lobby, "bob", "none")
    await until(lambda: house._waiting)
    clock.now += house_module.MIN_SEARCH_SECONDS / 2
    assert not house.hurry_if_due()  # bob's move is not due yet, and alice's search is young
    clock.now += house_module.RESPONSE_SECONDS
    assert house.hurry_if_due() and worker.hurried == 1
    assert not house.hurry_if_due() and worker.hurried == 1  # told once; its move is on its way
    await worker.answers.put((0.0, "1"))
    await until(lambda: len(lobby.game(first.id).moves) == 2)
    await until(lambda: len(asked) == 2)  # bob's search starts
    await worker.answers.put((0.0, "1"))


async def test_a_failed_search_is_tried_again_not_left_to_the_clock(held_house):
    lobby, house, clock, asked = held_house
    lines: list[str] = []
    house.log = lines.append
    row = await started_game(lobby, "alice", "5+0")
    worker = house.workers[0]
    await until(lambda: len(asked) == 1)
    await worker.answers.put(RuntimeError("the worker died: EOFError"))
    await until(lambda: len(asked) == 2)
    assert asked[1]["moves"] == asked[0]["moves"]
    assert any("house-move-failed" in line for line in lines)
    await worker.answers.put((0.0, "1"))
    await until(lambda: len(lobby.game(row.id).moves) == 2)
    # A position whose search keeps failing is given up after RETRIES more tries.
    lobby.move("alice", row.id, "2")
    for tries in range(house_module.RETRIES + 1):
        await until(lambda tries=tries: len(asked) == 3 + tries)
        await worker.answers.put(RuntimeError("a bug"))
    await until(lambda: sum("house-move-failed" in line for line in lines) == house_module.RETRIES + 2)
    assert len(asked) == 3 + house_module.RETRIES and not house._waiting


async def test_a_real_worker_told_to_hurry_plays_its_best_move_so_far():
    """The strong checkers player with ten CPU seconds: hurried once it is searching, it
    answers with a legal move having spent far less than its budget."""
    worker = EngineWorker()
    request = {"game": "checkers", "variant": {}, "moves": [], "spec": "strong", "seconds": 10.0, "seed": 1}
    try:
        await worker.think({**request, "seconds": 0.5}, ceiling=300)  # started, the engine loaded
        search = asyncio.ensure_future(worker.think(request, ceiling=300))
        await until(lambda: worker._searching)
        assert worker.hurry()
        move = await search
        adapter = arena_adapter("checkers")
        position = adapter.start({})
        assert adapter.parse_move(position, move) in position.legal_moves()
        assert worker.spent is not None and worker.spent < 10.0
        assert not worker.hurry()  # idle: nothing to hurry
    finally:
        worker.stop()


async def test_a_house_that_cannot_serve_another_timed_game_declines_it_up_front(held_house):
    lobby, house, clock, asked = held_house
    lines: list[str] = []
    house.log = lines.append
    most = house_module.TIMED_PER_WORKER * 1
    for number in range(most):
        lobby.seen(f"p{number}")
        lobby.seek(f"p{number}", "connect4", target="house:connect4-level1", clock="1+0")
        await until(lambda number=number: lobby.games(f"p{number}"))
    lobby.seen("late")
    offer = lobby.seek("late", "connect4", target="house:connect4-level1", clock="1+0")
    await until(lambda: lobby.storage.offer(offer.id) is None)
    assert not lobby.games("late")
    assert any("house-declined" in line and f"{most} timed games" in line for line in lines), lines
    # A clockless game it still takes.
    lobby.seek("late", "connect4", target="house:connect4-level1")
    await until(lambda: lobby.games("late"))


async def test_the_house_claims_an_opponent_who_left_a_clockless_game(held_house):
    lobby, house, clock, asked = held_house
    row = await started_game(lobby, "squat", "none")
    await until(lambda: len(asked) == 1)
    await house.workers[0].answers.put((0.0, "1"))
    await until(lambda: len(lobby.game(row.id).moves) == 2)
    clock.now += house_module.HOUSE_PATIENCE + 1
    await house.claim_absent()
    ended = lobby.game(row.id)
    assert ended.status == "over" and ended.reason == "abandoned" and ended.players[ended.winner].startswith("house:")


@pytest.mark.e2e
@pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")
async def test_over_ssh_the_house_states_its_limit_and_declines_a_timed_game_past_it(start_server, tmp_path,
                                                                                     monkeypatch):
    from ssh_support import key_file, ssh_command, wait_until

    monkeypatch.setattr(house_module, "WORKERS", 1)
    server = await start_server(register="open", house="connect4:level1")
    most = house_module.TIMED_PER_WORKER
    status, out, err = await ssh_command(server.port, "watcher", key_file(tmp_path, "watcher")[0], "who")
    assert status == 0 and f"house:connect4-level1  a computer: challenge it to connect4; at most 30 games, " \
                           f"{most} of them timed ({most} a core)" in out.decode(), out
    for number in range(most + 1):
        identity = key_file(tmp_path, f"timed{number}")[0]
        status, out, err = await ssh_command(server.port, f"timed{number}", identity,
                                             "challenge house:connect4-level1 connect4 --clock 1+0 --casual")
        assert status == 0, err
        if number < most:
            await wait_until(lambda number=number: server.lobby.games(f"timed{number}"), 30, "the house to take it")
    await wait_until(lambda: any("house-declined user=house:connect4-level1" in line and "timed games" in line
                                 for line in start_server.logs), 30, "the house to decline")
    identity = key_file(tmp_path, f"timed{most}")[0]
    status, out, err = await ssh_command(server.port, f"timed{most}", identity, "games")
    assert status == 0 and "no games and no offers" in out.decode()
