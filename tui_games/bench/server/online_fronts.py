"""``tui-games bench online --fronts N [--lobby postgresql://…]``: one lobby shared by N front ends.

Each front end is a process of its own, as ``serve --ssh`` runs it: the lobby on the shared
database, its own socket, the sharing of lobby/frontend.py (notices, heartbeat, leases). 64
players' apps are socket clients in this process, playing 32 games of Connect-4 at once (random
legal moves, seeded, 200 ms between a move arriving and the reply). Half the games are between
two players on one front end, half between players on two; for each move the time is taken from
just before the mover's request is written until the opponent's client holds the new position
(for a game across front ends: the check and write on the mover's front end, the notice through
the database, the opponent's front end reading the game and pushing it). The same players on
one front end are the baseline.

Without ``--lobby`` the front ends share a SQLite file in a temporary directory (one machine);
with it, the PostgreSQL database named (its tables are made if missing; the bench's games stay
in it, between players named bench-N).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tui_games.bench.server.lobby_game import PAUSE, play_game
from tui_games.bench.server.process import lobby_process, pipes
from tui_games.bench.table import Write, write_table
from tui_games.online.client import LobbyClient
from tui_games.server.lobby.storage import redact

PLAYERS = 64


async def serve_front(database: str, folder: str, index: int, names: list[str]) -> None:
    """One front end's process: a hub on the shared lobby with a token per player, until stdin closes."""
    from tui_games.server.lobby.backends import open_storage
    from tui_games.server.lobby.frontend import FrontEnd
    from tui_games.server.lobby.hub import Lobby
    from tui_games.server.lobby.hub_socket import HubSocket

    storage = open_storage(database)
    lobby = Lobby(storage, origin=f"bench-front-{index}")
    hub = HubSocket(lobby, Path(folder) / f"front{index}.sock", run_clocks=False)
    for name in names:
        hub.issue(f"token-{name}", name, False)
    await hub.start()
    frontend = FrontEnd(lobby, hub.clocks)
    await frontend.start()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    await frontend.close()
    await hub.close()
    storage.close()


async def _run(database: str, fronts: int, seconds: float, seed: int) -> dict[str, list[float]]:
    """Latencies of games within one front end ("within") and across two ("across")."""
    run = random.Random(seed).getrandbits(32)
    names = [f"bench-{run:08x}-{number}" for number in range(PLAYERS)]
    # Pairs (2k, 2k+1). With several front ends, even pairs sit on one front end, odd ones across.
    where = {}
    for pair in range(PLAYERS // 2):
        a, b = names[2 * pair], names[2 * pair + 1]
        if fronts == 1:
            where[a] = where[b] = 0
        elif pair % 2 == 0:
            where[a] = where[b] = (pair // 2) % fronts
        else:
            where[a], where[b] = (pair // 2) % fronts, (pair // 2 + 1) % fronts
    with tempfile.TemporaryDirectory(prefix="tui-games-fronts-") as folder:
        if not database:
            database = str(Path(folder) / "lobby.sqlite3")
        processes = []
        for index in range(fronts):
            mine = [name for name in names if where[name] == index]
            processes.append(await lobby_process(
                "import asyncio; from tui_games.bench.server.online_fronts import serve_front; "
                f"asyncio.run(serve_front({database!r}, {folder!r}, {index}, {mine!r}))", f"front end {index}"))
        arrived: dict[tuple[str, str], asyncio.Event] = {}

        def listener(name: str):
            def on_event(event: dict) -> None:
                if event.get("event") == "game":
                    waiting = arrived.get((name, event["data"]["id"]))
                    if waiting is not None:
                        waiting.set()
            return on_event

        clients = {}
        for name in names:
            client = LobbyClient(str(Path(folder) / f"front{where[name]}.sock"), f"token-{name}", listener(name))
            await client.connect()
            clients[name] = client
        rng = random.Random(seed)
        latencies: dict[str, list[float]] = {"within": [], "across": []}
        started = time.perf_counter()

        async def keep_playing(a: str, b: str) -> None:
            kind = "within" if where[a] == where[b] else "across"
            while time.perf_counter() - started < seconds:
                await play_game((clients[a], clients[b]), arrived, random.Random(rng.random()), latencies[kind])

        await asyncio.gather(*(keep_playing(names[i], names[i + 1]) for i in range(0, PLAYERS, 2)))
        for client in clients.values():
            await client.close()
        for process in processes:
            pipes(process)[0].close()
            await process.wait()
    return latencies


def _ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def bench_fronts(write: Write, fronts: int, lobby: str | None, *, quick: bool = False) -> None:
    seconds = 10.0 if quick else 30.0
    backend = redact(lobby) if lobby else "one SQLite file shared on this machine"
    write(f"{PLAYERS} players in {PLAYERS // 2} Connect-4 games at once, a move every {PAUSE * 1000:.0f} ms per "
          f"game, {seconds:.0f} s a run; the lobby: {backend}")
    write("")
    rows = []
    for count in sorted({1, fronts}):
        latencies = asyncio.run(_run(lobby or "", count, seconds, seed=1))
        for kind in ("within", "across"):
            values = latencies[kind]
            if not values:
                continue
            label = ("one front end" if count == 1 else
                     f"{count} front ends, both players on one" if kind == "within" else
                     f"{count} front ends, the players on two")
            rows.append([label, str(len(values)), f"{statistics.median(values) * 1000:.1f}", _ms(values, 0.95),
                         f"{max(values) * 1000:.1f}"])
    write_table(write, ["move → the opponent's app has it", "moves", "p50 ms", "p95 ms", "max ms"], rows,
                left=(0,))
