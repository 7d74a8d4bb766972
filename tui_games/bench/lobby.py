"""``tui-games bench lobby``: how fast a move reaches the opponent, on loopback.

The lobby (SQLite in a temporary directory) and its socket run in this process, as in the
server; two players' apps are two socket clients. Player A moves; the time is taken from just
before A's request is written until B's client has the pushed game in hand — the lobby's
check of the move by the rules (a full replay of the game), the SQLite write, and both hops
of the socket. Games of Connect-4 are played out move by move (random legal moves, seeded),
and a spectator watches every game, so each move is also pushed to a third client. Moves come
every 60 ms, under the socket's limit of 20 requests a second per connection.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

from tui_games.bench.table import Write, write_table
from tui_games.games import arena_adapter
from tui_games.server.lobby.client import LobbyClient
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import Storage


async def _play(games: int, seed: int) -> tuple[list[float], list[float], int]:
    rng = random.Random(seed)
    adapter = arena_adapter("connect4")
    with tempfile.TemporaryDirectory(prefix="tui-games-lobby-") as folder:
        storage = Storage(Path(folder) / "lobby.sqlite3")
        hub = HubSocket(Lobby(storage), Path(folder) / "lobby.sock")
        await hub.start()
        arrived: dict[str, asyncio.Event] = {}
        seen_by: dict[str, int] = {}

        def listener(name: str):
            def on_event(event: dict) -> None:
                if event.get("event") == "game":
                    seen_by[name] = len(event["data"]["moves"])
                    if name in arrived:
                        arrived[name].set()
            return on_event

        clients = {}
        for name in ("alice", "bob", "carol"):
            hub.issue(f"token-{name}", name, False)
            clients[name] = LobbyClient(str(hub.path), f"token-{name}", listener(name))
            await clients[name].connect()
        to_opponent, to_spectator, moves = [], [], 0
        try:
            for _ in range(games):
                offer = await clients["alice"].request("seek", game="connect4", colour="first", rated=False)
                game = await clients["bob"].request("accept", offer=offer["id"])
                await clients["carol"].request("watch", game=game["id"])
                position = adapter.start({})
                players = ("alice", "bob")
                while position.outcome() is None:
                    mover, other = players[position.turn], players[1 - position.turn]
                    move = rng.choice(list(position.legal_moves()))
                    text = adapter.move_text(position, move)
                    arrived = {other: asyncio.Event(), "carol": asyncio.Event()}
                    started = time.perf_counter()
                    await clients[mover].request("move", game=game["id"], move=text)
                    await asyncio.wait_for(arrived[other].wait(), 10)
                    to_opponent.append(time.perf_counter() - started)
                    await asyncio.wait_for(arrived["carol"].wait(), 10)
                    to_spectator.append(time.perf_counter() - started)
                    position.push(move)
                    moves += 1
                    # Well under the socket's request limit (20 a second per connection).
                    await asyncio.sleep(0.06)
        finally:
            for client in clients.values():
                await client.close()
            await hub.close()
            storage.close()
    return to_opponent, to_spectator, moves


def _ms(values: list[float], q: float) -> str:
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.1f}"


def bench_lobby(write: Write, *, quick: bool = False) -> None:
    games = 5 if quick else 30
    to_opponent, to_spectator, moves = asyncio.run(_play(games, seed=1))
    write(f"A move, from the mover's request to the other clients' screens-to-be: {games} games of "
          f"Connect-4, {moves} moves, on loopback")
    write("")
    rows = []
    for label, values in (("to the opponent", to_opponent), ("to a spectator", to_spectator)):
        rows.append([label, f"{statistics.median(values) * 1000:.1f}", _ms(values, 0.95), _ms(values, 0.99),
                     f"{max(values) * 1000:.1f}"])
    write_table(write, ["move reaches", "p50 ms", "p95 ms", "p99 ms", "max ms"], rows)
