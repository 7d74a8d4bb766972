"""Part of ``tui-games bench server``: the attacks of issue 50 on a real server, on loopback.

``tui-games serve --ssh --register open`` as a subprocess (storms.py's), then:

- **watcher flood**: one player opens 300 ``watch GAME --json`` connections on a clockless game,
  40 at a time (100 with --quick); meanwhile a real login (``who``) from another address: its
  tries and its time (the goal: the first try, under 2 s), and how many watchers were let in;
- **slow watchers**: 50 watchers (five players) with an 8 KB window that read nothing after
  their first line, while two players offer and decline draws 500 times (100 with --quick):
  the server's resident memory before, at its peak and after (the goal: under +25 MB);
- **house under twelve 1+0 games** (not with --quick: minutes of CPU): twelve players challenge
  ``house:checkers-strong`` to rated 1+0 games and move at random by command, while bob plays a
  clockless Connect-4 game against ``house:connect4-level5``: the games the house lost on time
  (the goal: 0), how many it declined up front, and the wait for bob's first reply (the goal:
  under 3 s).
"""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from tui_games.bench.server.process import BenchServer
from tui_games.bench.table import Write, write_table

try:
    import asyncssh
except ImportError:  # storms.bench_server says which extra it needs
    asyncssh = None  # type: ignore[assignment]


class _Players:
    """Each bench player's own key (under --register open, a name's first key owns it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.keys: dict[str, Any] = {}

    def key(self, name: str):
        if name not in self.keys:
            self.keys[name] = asyncssh.generate_private_key("ssh-ed25519")
        return self.keys[name]

    async def connect(self, name: str, source: str = "127.0.0.1"):
        return await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", self.port, username=name, known_hosts=None, config=None, agent_path=None,
            client_keys=[self.key(name)], local_addr=(source, 0)), 60)

    async def run(self, name: str, command: str, source: str = "127.0.0.1") -> tuple[int, str, str]:
        conn = await self.connect(name, source)
        try:
            result = await asyncio.wait_for(conn.run(command), 60)
        finally:
            conn.close()
        return result.exit_status or 0, str(result.stdout or ""), str(result.stderr or "")

    async def json(self, name: str, command: str) -> Any:
        status, out, err = await self.run(name, command + " --json")
        if status != 0:
            raise RuntimeError(f"{name}: {command}: {err.strip()}")
        return json.loads(out)

    async def game(self, first: str, second: str, game: str = "tictactoe", extra: str = "--casual") -> str:
        offer = await self.json(first, f"seek {game} {extra} --colour first")
        return (await self.json(second, f"accept {offer['id']}"))["game"]


async def _watcher_flood(server: BenchServer, players: _Players, count: int) -> list[list[str]]:
    game = await players.game("alice", "bob")
    opened: list[Any] = []
    let_in = refused = failed = 0
    started = time.monotonic()

    async def watch() -> None:
        nonlocal let_in, refused, failed
        try:
            conn = await players.connect("alice")
        except (OSError, asyncssh.Error, asyncio.TimeoutError):
            failed += 1
            return
        opened.append(conn)
        process = await conn.create_process(f"watch {game} --json")
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        if line:
            let_in += 1
        else:
            refused += 1

    try:
        for start in range(0, count, 40):
            await asyncio.gather(*(watch() for _ in range(min(40, count - start))), return_exceptions=True)
        flood_seconds = time.monotonic() - started
        tries, login_started = 0, time.monotonic()
        while True:
            tries += 1
            try:
                status, _, _ = await players.run("carol", "who", source="127.0.0.2")
                if status == 0:
                    break
            except (OSError, asyncssh.Error, asyncio.TimeoutError):
                pass
            if time.monotonic() - login_started > 60:
                break
            await asyncio.sleep(0.2)  # turned away: again, as a person would
        login = time.monotonic() - login_started
    finally:
        for conn in opened:
            conn.abort()
    return [["watcher flood", f"{count} watch connections of one player, 40 at a time, in {flood_seconds:.1f} s",
             f"{let_in} let in, {refused} told why and closed, {failed} not connected"],
            ["watcher flood", "a real login from 127.0.0.2 meanwhile",
             f"{tries} {'try' if tries == 1 else 'tries'}, `who` answered in {login:.2f} s"]]


async def _slow_watchers(server: BenchServer, players: _Players, events: int) -> list[list[str]]:
    game = await players.game("dora", "erin")
    status, _, err = await players.run("dora", f"move {game} a1")
    before = server.rss
    slow: list[Any] = []
    try:
        for number in range(50):
            conn = await players.connect(f"slow{number // 10}")
            slow.append(conn)
            process = await conn.create_process(f"watch {game} --json", window=8192, max_pktsize=8192)
            await asyncio.wait_for(process.stdout.readline(), 60)  # then it reads nothing
        watching = peak = server.rss
        started = time.monotonic()
        for _ in range(events // 2):
            await players.run("erin", f"draw {game} offer")
            await players.run("dora", f"draw {game} decline")
            peak = max(peak, server.rss)
        seconds = time.monotonic() - started
    finally:
        for conn in slow:
            conn.abort()
    await asyncio.sleep(3)
    after = server.rss
    return [["slow watchers", f"50 watchers reading nothing (8 KB window), {events} events in {seconds:.1f} s",
             f"server RSS {before:.0f} MB → {watching:.0f} MB with them → peak {peak:.0f} MB "
             f"(+{peak - watching:.1f} MB over the events) → {after:.0f} MB after"]]


async def _random_mover(players: _Players, name: str, game: str, rng: random.Random) -> dict:
    """Play ``game`` as ``name`` at random by command, waiting for each turn on a watch."""
    conn = await players.connect(name)
    try:
        process = await conn.create_process(f"watch {game} --json")
        while line := await asyncio.wait_for(process.stdout.readline(), 300):
            data = json.loads(line)["data"]
            if data["status"] != "live":
                return data
            if data["to_move"] == name and data["legal"]:
                await players.run(name, f"move {game} {rng.choice(data['legal'])}")
        return await players.json(name, f"show {game}")
    finally:
        conn.close()


async def _house_games(server: BenchServer, players: _Players, count: int,
                       house: str = "house:checkers-strong") -> list[list[str]]:
    rng = random.Random(50)
    games: dict[str, str] = {}
    for number in range(count):
        name = f"rated{number}"
        await players.json(name, f"challenge {house} checkers --clock 1+0")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(games) < count:
        for number in range(count):
            name = f"rated{number}"
            if name not in games:
                mine = await players.json(name, "games")
                if mine:
                    games[name] = mine[0]["id"]
        await asyncio.sleep(1)
    declined = count - len(games)
    movers = [asyncio.create_task(_random_mover(players, name, game, rng)) for name, game in games.items()]
    # Bob's unrelated game meanwhile: the wait for the house's first reply.
    offer = await players.json("bob", "challenge house:connect4-level5 connect4 --casual --colour first")
    bob_game = None
    while bob_game is None:
        mine = await players.json("bob", "games")
        bob_game = mine[0]["id"] if mine else None
        if offer and bob_game is None:
            await asyncio.sleep(0.2)
    await players.run("bob", f"move {bob_game} 4")
    asked = time.monotonic()
    while len((await players.json("bob", f"show {bob_game}"))["moves"]) < 2:
        await asyncio.sleep(0.1)
    reply = time.monotonic() - asked
    results = await asyncio.gather(*movers, return_exceptions=True)
    ended = [r for r in results if isinstance(r, dict)]
    lost_on_time = sum(1 for r in ended if r.get("reason") == "time" and r.get("winner", "").startswith("rated"))
    won = sum(1 for r in ended if str(r.get("winner", "")).startswith("house:"))
    return [["house, twelve 1+0", f"{count} rated 1+0 checkers challenges to {house}",
             f"{len(games)} taken, {declined} declined up front; of the games the house won {won}, "
             f"lost {lost_on_time} on time"],
            ["house, twelve 1+0", "bob's clockless Connect-4 game against house:connect4-level5 meanwhile",
             f"first reply after {reply:.2f} s"]]


async def _bench(write: Write, quick: bool, house: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="tui-games-bench-") as folder:
        home = Path(folder)
        # Every player of the bench comes from 127.0.0.1 and registers at its first command:
        # the house part's dozen and more would meet --registrations-per-hour, which is not
        # what this bench measures (tests/server/test_server_hardening.py attacks that).
        server = BenchServer(home, ["--register", "open", "--registrations-per-hour", "0", "--house",
                                "checkers:strong,connect4:level5" if house else "none"])
        await server.start()
        players = _Players(server.port)
        rows: list[list[str]] = []
        try:
            rows += await _watcher_flood(server, players, 100 if quick else 300)
            rows += await _slow_watchers(server, players, 100 if quick else 500)
            if house:
                rows += await _house_games(server, players, 12)
        finally:
            await server.stop()
        write("tui-games serve --ssh --register open on 127.0.0.1 (issue 50's attacks)")
        write("")
        write_table(write, ["phase", "what", "result"], rows, left=(0, 1, 2))


def bench_hardening(write: Write, *, quick: bool = False, house: bool | None = None) -> None:
    """The three parts (the house's not with ``quick``, unless ``house`` says)."""
    asyncio.run(_bench(write, quick, not quick if house is None else house))
