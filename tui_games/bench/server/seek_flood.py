"""The lobby under a seek flood (part of ``tui-games bench server``), on loopback.

The lobby and its socket run in a process of their own, as in the server. 32 players' apps
watch it (socket clients in this process, as in ``bench online``) while 60 other players each
post seeks as fast as they can: 5 each, the lobby's cap of open offers per player, and one
more each that the cap must refuse. For each seek the time runs from just before its request
is written until the last of the 32 watching apps holds it (the lobby pushes each new offer
to every app as a small delta). The lobby process's CPU time is read from /proc around the
flood, and every watching app must still be connected at the end (a slow app used to be cut
off when every change pushed every seek to everyone).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from tui_games.bench.server.online import _cpu_and_rss, _ms
from tui_games.bench.server.process import lobby_process, pipes
from tui_games.bench.table import Write, write_table
from tui_games.online.client import LobbyClient, LobbyUnavailable

WATCHERS = 32
SEEKERS = 60
PER_SEEKER = 5  # the lobby's cap of open offers per player (lobby/hub.py)


async def _flood(seekers: int) -> tuple[list[float], int, int, int, float, float, int]:
    players = WATCHERS + seekers
    with tempfile.TemporaryDirectory(prefix="tui-games-seeks-") as folder:
        server = await lobby_process("import asyncio; from tui_games.bench.server.online import serve_lobby; "
                                     f"asyncio.run(serve_lobby({folder!r}, {players}))", "the lobby")
        server_in, _ = pipes(server)
        holders: dict[str, int] = {}  # offer id -> how many watching apps hold it
        complete: dict[str, float] = {}  # offer id -> when the last watching app got it
        everyone = asyncio.Event()
        wanted = seekers * PER_SEEKER

        def on_event(event: dict) -> None:
            data = event.get("data")
            if event.get("event") != "offer" or not isinstance(data, dict) or data.get("gone"):
                return
            holders[data["id"]] = holders.get(data["id"], 0) + 1
            if holders[data["id"]] == WATCHERS:
                complete[data["id"]] = time.perf_counter()
                if len(complete) == wanted:
                    everyone.set()

        socket = str(Path(folder) / "lobby.sock")
        watchers = [LobbyClient(socket, f"token-{n}", on_event) for n in range(WATCHERS)]
        posters = [LobbyClient(socket, f"token-{WATCHERS + n}", lambda event: None) for n in range(seekers)]
        for client in watchers + posters:
            await client.connect()
        sent: dict[str, float] = {}
        refused = 0

        async def post(client: LobbyClient) -> None:
            nonlocal refused
            for _ in range(PER_SEEKER + 1):
                started = time.perf_counter()
                try:
                    offer = await client.request("seek", game="connect4", rated=False)
                except LobbyUnavailable:
                    refused += 1
                    continue
                sent[offer["id"]] = started

        cpu_before, _ = _cpu_and_rss(server.pid)
        began = time.perf_counter()
        await asyncio.gather(*(post(client) for client in posters))
        waiting = asyncio.create_task(everyone.wait())
        await asyncio.wait({waiting}, timeout=120)  # offers that never reached every app show below
        waiting.cancel()
        wall = time.perf_counter() - began
        cpu_after, rss = _cpu_and_rss(server.pid)
        connected = sum(client.connected for client in watchers)
        latencies = [complete[key] - sent[key] for key in sent if key in complete]
        for client in watchers + posters:
            await client.close()
        server_in.close()
        await server.wait()
    return latencies, len(sent), refused, connected, wall, cpu_after - cpu_before, int(rss)


def bench_seek_flood(write: Write, *, quick: bool = False) -> None:
    seekers = 12 if quick else SEEKERS
    latencies, posted, refused, connected, wall, cpu, rss = asyncio.run(_flood(seekers))
    write(f"The lobby under a seek flood: {seekers} players post {PER_SEEKER + 1} seeks each as fast as they can "
          f"(the cap is {PER_SEEKER} open offers a player) while {WATCHERS} apps watch the lobby")
    write("")
    write_table(write, ["seeks posted", "refused by the cap", "reached all apps", "p50 ms", "p95 ms", "max ms",
                        "apps still connected", "lobby CPU s", "wall s", "lobby RSS MB"],
                [[str(posted), str(refused), str(len(latencies)),
                  f"{statistics.median(latencies) * 1000:.1f}" if latencies else "-",
                  _ms(latencies, 0.95) if latencies else "-",
                  f"{max(latencies) * 1000:.1f}" if latencies else "-",
                  f"{connected} of {WATCHERS}", f"{cpu:.2f}", f"{wall:.1f}", str(rss)]])
