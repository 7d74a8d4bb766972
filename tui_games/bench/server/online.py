"""``tui-games bench online``: the lobby under load, on loopback.

First the lobby alone: the lobby (SQLite in a temporary directory) and its socket run in a
process of their own, as in the server; 32 players' apps are 32 socket clients in this process, playing 16 games of
Connect-4 at once (random legal moves, seeded), each player moving 200 ms after the move
before. For each move the time is taken from just before the mover's request is written until
the opponent's client holds the new position: the lobby's check of the move by the rules,
the SQLite write and both hops of the socket. The lobby process's CPU time and resident memory
are read from /proc at the end.

Then the same 32 players in one arena (online_arena.py): the tournaments' director pairing as
games end. Then the lobby end to end (online_ssh.py): a move to the opponent's repaint through two apps
over SSH, 16 bots playing by ``ssh … move``, and how fast house players answer a seek.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tui_games.bench.server import online_arena, online_fronts, online_ssh
from tui_games.bench.server.lobby_game import PAUSE, play_game
from tui_games.bench.server.process import lobby_process, pipes
from tui_games.bench.table import Write, write_table
from tui_games.online.client import LobbyClient
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import Storage

PLAYERS = 32


async def serve_lobby(folder: str, players: int) -> None:
    """The lobby process: a hub with a token per player, until stdin closes."""
    storage = Storage(Path(folder) / "lobby.sqlite3")
    hub = HubSocket(Lobby(storage), Path(folder) / "lobby.sock")
    for number in range(players):
        hub.issue(f"token-{number}", f"player{number}", False)
    await hub.start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    await hub.close()
    storage.close()


def _cpu_and_rss(pid: int) -> tuple[float, float]:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
               if line.startswith("VmRSS:")) / 1024
    return cpu, rss


async def _bench(seconds_wanted: float, seed: int) -> tuple[list[float], int, int, float, float, float]:
    with tempfile.TemporaryDirectory(prefix="tui-games-online-") as folder:
        server = await lobby_process("import asyncio; from tui_games.bench.server.online import serve_lobby; "
                                     f"asyncio.run(serve_lobby({folder!r}, {PLAYERS}))", "the lobby")
        server_in, _ = pipes(server)
        arrived: dict[tuple[str, str], asyncio.Event] = {}

        def listener(name: str):
            def on_event(event: dict) -> None:
                if event.get("event") == "game":
                    waiting = arrived.get((name, event["data"]["id"]))
                    if waiting is not None:
                        waiting.set()
            return on_event

        clients = []
        for number in range(PLAYERS):
            client = LobbyClient(str(Path(folder) / "lobby.sock"), f"token-{number}", listener(f"player{number}"))
            await client.connect()
            clients.append(client)
        cpu_before, _ = _cpu_and_rss(server.pid)
        rng = random.Random(seed)
        latencies: list[float] = []
        games = moves = 0
        started = time.perf_counter()
        pairs = [(clients[i], clients[i + 1]) for i in range(0, PLAYERS, 2)]

        async def keep_playing(pair) -> None:
            nonlocal games, moves
            while time.perf_counter() - started < seconds_wanted:
                played = await play_game(pair, arrived, random.Random(rng.random()), latencies)
                moves += played  # after the await: the other games add to it meanwhile
                games += 1

        await asyncio.gather(*(keep_playing(pair) for pair in pairs))
        wall = time.perf_counter() - started
        cpu_after, rss = _cpu_and_rss(server.pid)
        for client in clients:
            await client.close()
        server_in.close()
        await server.wait()
    return latencies, games, moves, wall, cpu_after - cpu_before, rss


def _ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def bench_online(write: Write, *, quick: bool = False, fronts: int | None = None, lobby: str | None = None) -> None:
    if fronts is not None:  # several front ends sharing one lobby (online_fronts.py)
        online_fronts.bench_fronts(write, fronts, lobby, quick=quick)
        return
    if lobby is not None:
        raise ValueError("--lobby goes with --fronts")
    seconds = 10.0 if quick else 60.0
    latencies, games, moves, wall, cpu, rss = asyncio.run(_bench(seconds, seed=1))
    write(f"The lobby with {PLAYERS} players in {PLAYERS // 2} games at once, a move every {PAUSE * 1000:.0f} ms "
          f"per game, {wall:.0f} s: {games} games, {moves} moves")
    write("")
    write_table(write, ["move reaches the opponent", "p50 ms", "p95 ms", "max ms"],
                [["over the socket", f"{statistics.median(latencies) * 1000:.1f}", _ms(latencies, 0.95),
                  f"{max(latencies) * 1000:.1f}"]])
    write("")
    write_table(write, ["lobby process", "CPU s", "CPU share", "RSS MB"],
                [["during the run", f"{cpu:.1f}", f"{cpu / wall:.0%}", f"{rss:.0f}"]])
    # The same players in one arena instead (online_arena.py): the director pairs as games end.
    arena, arena_wall, arena_cpu, arena_games = asyncio.run(online_arena.arena_figures(seconds, _cpu_and_rss))
    write("")
    write(f"The same {online_arena.PLAYERS} players in one Connect-4 arena (5+0), {arena_wall:.0f} s: "
          f"{arena_games} games, {arena.moves} moves")
    write_table(write, ["a 32-player arena running", "count", "p50 ms", "p95 ms", "max ms", "lobby CPU share"],
                [["move reaches the opponent", str(len(arena.latencies)),
                  f"{statistics.median(arena.latencies) * 1000:.1f}", _ms(arena.latencies, 0.95),
                  f"{max(arena.latencies) * 1000:.1f}", f"{arena_cpu / arena_wall:.0%}"],
                 ["a game's end → the player's next game", str(len(arena.repaired)),
                  f"{statistics.median(arena.repaired) * 1000:.1f}" if arena.repaired else "-",
                  _ms(arena.repaired, 0.95) if arena.repaired else "-",
                  f"{max(arena.repaired) * 1000:.1f}" if arena.repaired else "-", ""]], left=(0,))
    why_not = online_ssh.available()
    if why_not:
        write("")
        write(f"End to end over SSH: skipped ({why_not})")
        return
    write("")
    repaints = asyncio.run(online_ssh.repaint_figures(moves=12 if quick else online_ssh.REPAINT_MOVES))
    trips, refused, tried = asyncio.run(online_ssh.bot_figures())
    write_table(write, ["end to end (tui-games serve --ssh, loopback)", "moves", "p50 ms", "p95 ms", "max ms"],
                [["key in one app → opponent's screen says 'your move' (pyte)", str(len(repaints)),
                  f"{statistics.median(repaints) * 1000:.0f}", _ms(repaints, 0.95), f"{max(repaints) * 1000:.0f}"],
                 [f"{online_ssh.BOTS} bots, one address: `ssh … move` round trip (OpenSSH, handshake included)",
                  str(tried), f"{statistics.median(trips) * 1000:.0f}", _ms(trips, 0.95), f"{max(trips) * 1000:.0f}"]],
                left=(0,))
    write(f"bots' moves refused: {refused} of {tried}")
    write("")
    write_table(write, ["house player answers a seek", "house player", "taken after s", "first reply s"],
                asyncio.run(online_ssh.house_figures()), left=(0, 1))
    write("")
    rows = []
    for bots in (0, 20):
        latencies, games, server_cpu, worker_cpu = asyncio.run(online_ssh.humans_figures(bots, moves=6 if quick else 12))
        rows.append([f"8 people in 4 games{f', {bots} bots playing house players' if bots else ', alone'}",
                     str(len(latencies)), f"{statistics.median(latencies) * 1000:.0f}", _ms(latencies, 0.95),
                     f"{max(latencies) * 1000:.0f}", f"{server_cpu:.1f}", f"{worker_cpu:.1f}"])
    write_table(write, ["key → opponent's 'your move' (pyte)", "moves", "p50 ms", "p95 ms", "max ms",
                        "server CPU s", "house CPU s"], rows)
