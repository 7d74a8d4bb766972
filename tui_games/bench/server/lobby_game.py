"""One Connect-4 game between two lobby clients, each move timed until the opponent's client
hears of it: the unit the online benches (one front end, several) are made of."""

from __future__ import annotations

import asyncio
import random
import time

from tui_games.games import arena_adapter
from tui_games.online.client import LobbyClient

PAUSE = 0.2  # seconds between a move arriving and the reply


async def play_game(clients: tuple[LobbyClient, LobbyClient], arrived: dict, rng: random.Random,
                    latencies: list[float]) -> int:
    """Random legal moves to the end; each move's latency appended to ``latencies``; returns the
    number of moves. ``arrived[(player, game)]`` is the event the caller's push handler sets."""
    adapter = arena_adapter("connect4")
    first, second = clients
    offer = await first.request("seek", game="connect4", colour="first", rated=False)
    game = await second.request("accept", offer=offer["id"])
    position = adapter.start({})
    moves = 0
    while position.outcome() is None:
        mover, other = clients[position.turn], clients[1 - position.turn]
        move = rng.choice(list(position.legal_moves()))
        waiting = arrived.setdefault((other.player, game["id"]), asyncio.Event())
        waiting.clear()
        started = time.perf_counter()
        await mover.request("move", game=game["id"], move=adapter.move_text(position, move))
        await asyncio.wait_for(waiting.wait(), 30)
        latencies.append(time.perf_counter() - started)
        position.push(move)
        moves += 1
        await asyncio.sleep(PAUSE)
    return moves
