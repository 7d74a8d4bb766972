"""``tui-games bench online``'s arena: the lobby while a 32-player arena runs.

The lobby (SQLite in a temporary directory), its socket and the tournaments' director run in
a process of their own, as in the server; 32 players' apps are socket clients here, all in one
Connect-4 arena (5+0). Each is paired by the director as its last game ends and plays random
legal moves, each PAUSE after the move before, as the plain bench's players do. Measured: each
move from the mover's request until the opponent's client holds it (what the plain bench
measures, now with the director listening to every change and pairing), how long a player
waits from the end of a game until its next begins when someone is free, and the lobby
process's CPU.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from tui_games.bench.server.lobby_game import PAUSE
from tui_games.bench.server.process import lobby_process, pipes
from tui_games.online.client import LobbyClient

PLAYERS = 32


async def serve_arena(folder: str, players: int, seconds: float) -> None:
    """The lobby process: a hub, the players, one arena; it starts on a line of stdin and
    the process ends when stdin closes."""
    from tui_games.server.lobby import tournament_commands
    from tui_games.server.lobby.hub import Lobby
    from tui_games.server.lobby.hub_socket import HubSocket
    from tui_games.server.lobby.storage import Storage
    from tui_games.server.lobby.tournament import Director, TournamentLimits

    storage = Storage(Path(folder) / "lobby.sqlite3")
    lobby = Lobby(storage)
    hub = HubSocket(lobby, Path(folder) / "lobby.sock")
    tournaments = tournament_commands.attach(lobby, TournamentLimits(min_arena_seconds=1, players=players))
    for number in range(players):
        hub.issue(f"token-{number}", f"player{number}", False)
        lobby.seen(f"player{number}")
    row = tournaments.create("player0", "connect4", kind="arena", length=f"{int(seconds)}s", clock="5+0",
                             starts_in="1h")
    for number in range(players):
        tournaments.join(f"player{number}", row.id)
    director = Director(tournaments)
    await hub.start()
    director.start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)
    tournaments.start("player0", row.id)
    await loop.run_in_executor(None, sys.stdin.read)
    director.stop()
    await hub.close()
    storage.close()


class ArenaPlayer:
    """One app: plays whatever game it is paired into."""

    def __init__(self, number: int, folder: str, bench: "ArenaBench") -> None:
        self.name = f"player{number}"
        self.bench = bench
        self.rng = random.Random(number)
        self.client = LobbyClient(str(Path(folder) / "lobby.sock"), f"token-{number}", self._heard)
        self.moved: set[tuple[str, int]] = set()
        self.ended_at: float | None = None

    def _heard(self, event: dict) -> None:
        if event.get("event") != "game" or self.name not in event["data"]["names"]:
            return
        data = event["data"]
        ply = len(data["moves"])
        mover = data["names"][(ply - 1) % 2] if ply else None
        if mover is not None and mover != self.name:  # the opponent's client holds the move
            sent = self.bench.sent.pop((data["id"], ply), None)
            if sent is not None:
                self.bench.latencies.append(time.perf_counter() - sent)
        if data["status"] != "live":
            self.ended_at = time.perf_counter()
            return
        if ply == 0 and self.ended_at is not None:
            self.bench.repaired.append(time.perf_counter() - self.ended_at)
            self.ended_at = None
        if data["to_move"] == self.name and (data["id"], ply) not in self.moved:
            self.moved.add((data["id"], ply))
            asyncio.get_running_loop().create_task(self._move(data))

    async def _move(self, data: dict) -> None:
        await asyncio.sleep(PAUSE)
        self.bench.sent[(data["id"], len(data["moves"]) + 1)] = time.perf_counter()
        try:
            await self.client.request("move", game=data["id"], move=self.rng.choice(data["legal"]))
        except Exception as error:  # counted, and the first reason kept for the table
            self.bench.refused += 1
            self.bench.reasons.setdefault(str(error)[:80], 0)
            self.bench.reasons[str(error)[:80]] += 1
        else:
            self.bench.moves += 1


class ArenaBench:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.repaired: list[float] = []
        self.sent: dict[tuple[str, int], float] = {}
        self.moves = 0
        self.refused = 0
        self.reasons: dict[str, int] = {}


async def arena_figures(seconds: float, cpu_of: Callable[[int], tuple[float, float]]
                        ) -> tuple[ArenaBench, float, float, int]:
    """(the bench's figures, wall seconds, the lobby process's CPU seconds, games played);
    ``cpu_of(pid)``: a process's (CPU seconds, resident MB), as online.py reads them."""
    bench = ArenaBench()
    with tempfile.TemporaryDirectory(prefix="tui-games-arena-") as folder:
        server = await lobby_process("import asyncio; from tui_games.bench.server.online_arena import serve_arena; "
                                     f"asyncio.run(serve_arena({folder!r}, {PLAYERS}, {seconds!r}))", "the arena's lobby")
        server_in, _ = pipes(server)
        players = [ArenaPlayer(number, folder, bench) for number in range(PLAYERS)]
        for player in players:
            await player.client.connect()
        cpu_before, _ = cpu_of(server.pid)
        started = time.perf_counter()
        server_in.write(b"start\n")
        await server_in.drain()
        await asyncio.sleep(seconds)  # the arena's own length: the bench measures what happens in it
        wall = time.perf_counter() - started
        cpu_after, _ = cpu_of(server.pid)
        games = sum(1 for p in players for key in p.moved if key[1] == 0)
        for player in players:
            await player.client.close()
        server_in.close()
        await server.wait()
    return bench, wall, cpu_after - cpu_before, games
