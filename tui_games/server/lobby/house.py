"""House players: the project's own engines seated in the lobby as rated players marked as
computers, so that someone who comes alone always gets a game and the rating scale has fixed
anchors.

``serve --ssh --house connect4:perfect,checkers:strong,tictactoe:level5`` seats one player per
entry, named ``house:GAME-SPEC`` (a ``:`` no login name can have, so nobody can log in as
one). Each takes a seek of its game that no person took within SEEK_WAIT seconds, and every
challenge to it at once, in any variant and with any clock.

The engines think in one worker process, started niced, doing one search at a time, each with
a CPU budget from the game's clock (the engine's own budgets count CPU seconds) and a wall-clock
ceiling past which the worker is killed and started again: the lobby's event loop never waits
for a search, and humans' games keep the CPU they need.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
from dataclasses import dataclass
from typing import Any, Callable

from tui_games.games import arena_adapter
from tui_games.server.lobby.hub import HOUSE_PREFIX, Clock, Lobby, LobbyError, lobby_games
from tui_games.server.lobby.storage import GameRow, Offer, StorageUnavailable
from tui_games.server.log import event

DEFAULT_HOUSE = "tictactoe:perfect,connect4:level5,connect4:perfect,checkers:level4,checkers:strong"
SEEK_WAIT = 2.0  # seconds a seek stays for people before a house player takes it
NICE = 15  # the worker's niceness: humans' sessions come first
MOST_SECONDS = 2.0  # CPU seconds a move at most (a clock with little time left gives less)
NO_CLOCK_SECONDS = 1.0


@dataclass(frozen=True)
class Seat:
    game: str
    spec: str

    @property
    def name(self) -> str:
        return f"{HOUSE_PREFIX}{self.game}-{self.spec}"


def parse_house(text: str) -> list[Seat]:
    """``connect4:perfect,checkers:strong`` → seats; ``none`` or "" → none. ValueError names a
    bad entry (an unknown game or engine)."""
    text = text.strip().lower()
    if text in ("", "none"):
        return []
    seats = []
    for entry in text.split(","):
        game, _, spec = entry.strip().partition(":")
        if game not in lobby_games():
            raise ValueError(f"--house: {game!r} is not a lobby game; choose from {', '.join(lobby_games())}")
        names = arena_adapter(game).spec_names({})
        if spec not in names:
            raise ValueError(f"--house: {game} has no engine {spec!r}; choose from {', '.join(names)}")
        if Seat(game, spec) not in seats:
            seats.append(Seat(game, spec))
    return seats


def budget(row: GameRow, side: int) -> float:
    """CPU seconds for a house move in ``row``: a slice of what is left on its clock."""
    clock = Clock.parse(row.clock)
    if clock.kind == "none":
        return NO_CLOCK_SECONDS
    if clock.kind == "corr" or row.played < 2:
        return MOST_SECONDS
    left = row.left[side] or 0.0
    return max(0.05, min(MOST_SECONDS, left / 40 + clock.increment / 2))


# -- the worker process ------------------------------------------------------------------------------

def _think(request: dict) -> str:
    adapter = arena_adapter(request["game"])
    position = adapter.start(request["variant"])
    for text in request["moves"]:
        position.push(adapter.parse_move(position, text))
    player = adapter.make_player(request["spec"], seed=request["seed"], seconds=request["seconds"],
                                 variant=request["variant"])
    return adapter.move_text(position, player.choose(position).move)


def _worker(connection, niceness: int) -> None:
    """The worker's loop: a request in, a move (or the error) out, until the pipe closes."""
    try:
        os.nice(niceness)
    except OSError:
        pass
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        try:
            connection.send((True, _think(request)))
        except Exception as error:  # a bug in one search must not end the house
            connection.send((False, f"{type(error).__name__}: {error}"[:200]))


class EngineWorker:
    """One niced process that searches, one request at a time."""

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self._lock = asyncio.Lock()

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # never fork the server's event loop
        parent, child = context.Pipe()
        self._process = context.Process(target=_worker, args=(child, NICE), daemon=True, name="tui-games-house")
        self._process.start()
        child.close()
        self._connection = parent

    async def think(self, request: dict, ceiling: float) -> str:
        async with self._lock:
            if self._process is None or not self._process.is_alive():
                self._start()
            loop = asyncio.get_running_loop()
            ready = loop.create_future()
            fd = self._connection.fileno()
            self._connection.send(request)
            loop.add_reader(fd, lambda: ready.done() or ready.set_result(None))
            try:
                await asyncio.wait_for(ready, ceiling)
            except asyncio.TimeoutError:
                self.stop()
                raise
            finally:
                if self._connection is not None:
                    loop.remove_reader(fd)
            ok, value = self._connection.recv()
            if not ok:
                raise RuntimeError(value)
            return value

    def stop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._process is not None:
            self._process.kill()
            self._process.join(1)
            self._process = None


# -- the players in the lobby ----------------------------------------------------------------------------

class House:
    def __init__(self, lobby: Lobby, seats: list[Seat], log: Callable[[str], None] = lambda line: None) -> None:
        self.lobby, self.seats, self.log = lobby, seats, log
        self.by_name = {seat.name: seat for seat in seats}
        self.worker = EngineWorker()
        self.rng = random.Random()
        self._queue: asyncio.Queue[str] = asyncio.Queue()  # games where a house player is to move
        self._queued: set[str] = set()
        self._taking: set[str] = set()  # offers a seat is about to take (each once)
        self._tasks: set[asyncio.Task] = set()
        self._stop_listening: Callable[[], None] | None = None

    def start(self) -> None:
        if not self.seats:
            return
        for seat in self.seats:
            self.lobby.seen(seat.name, computer=True)
            self.lobby.computers[seat.name] = seat.game
            self.lobby.presence.connected(seat.name, +1)  # always here: never claimed against
        self._stop_listening = self.lobby.listen(self._changed)
        self._spawn(self._play())
        self._look_again()

    def _look_again(self) -> None:
        """Every live game and open offer, as if each had just changed (at start, and when
        changes on other front ends may have been missed)."""
        for row in self.lobby.storage.games(status="live", limit=100_000):
            self._changed("game", row)
        for offer in self.lobby.storage.offers():
            self._changed("offer", offer)

    async def close(self) -> None:
        if self._stop_listening is not None:
            self._stop_listening()
            self._stop_listening = None
        for seat in self.seats:
            if self.lobby.computers.pop(seat.name, None) is not None:
                self.lobby.presence.connected(seat.name, -1)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self.worker.stop()

    def _spawn(self, coroutine) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- what the house hears ----------------------------------------------------------------------------

    def _changed(self, kind: str, payload: Any) -> None:
        if kind == "resync":
            try:
                self._look_again()
            except StorageUnavailable:
                pass
        elif kind == "offer":
            offer: Offer = payload
            if offer.id in self._taking:
                return
            if offer.kind == "challenge" and offer.target in self.by_name:
                self._taking.add(offer.id)
                self._spawn(self._take(offer, self.by_name[offer.target], 0.0))
            elif offer.kind == "seek" and offer.owner not in self.by_name:
                seats = [seat for seat in self.seats if seat.game == offer.game]
                if seats:
                    self._taking.add(offer.id)
                    self._spawn(self._take(offer, self.rng.choice(seats), SEEK_WAIT))
        elif kind == "game":
            row: GameRow = payload
            if row.status == "live" and any(name in self.by_name for name in row.players):
                to_move = self.lobby.to_move(row)
                if to_move in self.by_name and row.id not in self._queued:
                    self._queued.add(row.id)
                    self._queue.put_nowait(row.id)

    async def _take(self, offer: Offer, seat: Seat, wait: float) -> None:
        try:
            await self._take_now(offer, seat, wait)
        finally:
            self._taking.discard(offer.id)

    async def _take_now(self, offer: Offer, seat: Seat, wait: float) -> None:
        if wait:
            await asyncio.sleep(wait)  # people first
        try:
            if self.lobby.storage.offer(offer.id) is None:
                return
            self.lobby.accept(seat.name, offer.id)
        except (LobbyError, StorageUnavailable) as error:
            self.log(event("house-declined", user=seat.name, offer=offer.id, reason=str(error)[:100]))

    async def _play(self) -> None:
        """Each game where a house player is to move, in turn: one search at a time."""
        while True:
            game_id = await self._queue.get()
            self._queued.discard(game_id)
            try:
                row = self.lobby.storage.game(game_id)
            except StorageUnavailable:
                continue  # its next change (or the house's next start) queues it again
            if row is None or row.status != "live":
                continue
            player = self.lobby.to_move(row)
            seat = self.by_name.get(player or "")
            if seat is None:
                continue
            side = row.players.index(player)
            seconds = budget(row, side)
            request = {"game": row.game, "variant": row.variant, "moves": row.moves, "spec": seat.spec,
                       "seconds": seconds, "seed": self.rng.randrange(2**31)}
            try:
                move = await self.worker.think(request, ceiling=seconds * 5 + 15)
                self.lobby.move(player, game_id, move)
            except (asyncio.TimeoutError, RuntimeError, LobbyError, StorageUnavailable) as error:
                self.log(event("house-move-failed", user=player, game=game_id, reason=f"{error}"[:120] or "timeout"))
