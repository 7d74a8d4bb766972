"""House players: the project's own engines seated in the lobby as rated players marked as
computers, so that someone who comes alone always gets a game and the rating scale has fixed
anchors.

``serve --ssh --house connect4:perfect,checkers:strong,tictactoe:level5`` seats one player per
entry, named ``house:GAME-SPEC`` (a ``:`` no login name can have, so nobody can log in as
one). Each takes a seek of its game that no person took within SEEK_WAIT seconds, and every
challenge to it at once, in any variant and with any clock.

The engines think in worker processes, started niced, one a core at most (WORKERS), each
doing one search at a time with a CPU budget from the game's clock (the engine's own budgets
count CPU seconds) and a wall-clock ceiling past which the worker is killed and started again:
the lobby's event loop never waits for a search, and humans' games keep the CPU they need.

A house player never loses to its own queue:

- its clock is charged only its own thinking (the search's CPU seconds, Lobby.move's ``thought``),
  never the time its move waited for a worker, and its flag falls only COMPUTER_GRACE (hub.py)
  after its time is up (a worker that died);
- the searches waiting go most urgent first: the one due soonest, a game's move being due
  RESPONSE_SECONDS after the opponent's, or sooner if the house has less than that left;
- a waiting move starts in time whatever the other searches' budgets and the machine's load:
  when it falls due with every worker busy, the search that has run longest is told to hurry
  (a signal to its worker) and plays its best move so far;
- a search that fails (a worker killed past its wall-clock ceiling, or dead) is tried again,
  RETRIES times for one position, rather than left to the clock;
- the house takes at most TIMED_PER_WORKER timed games a worker at once (``who`` and
  docs/serving.md say so): a timed challenge past that is declined at once with the reason in
  the log, never accepted and then lost on time; clockless games it takes up to the lobby's
  limit of MAX_LIVE_GAMES_PER_PLAYER games a player.

Its places are not squattable: a game before both first moves aborts after a minute (hub.py),
and an opponent who has left a clockless game on their move for HOUSE_PATIENCE is claimed
against (the claim's usual rules: absent, on their move).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
import random
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from tui_games.games import arena_adapter
from tui_games.server.lobby.hub import (
    HOUSE_PREFIX,
    MAX_LIVE_GAMES_PER_PLAYER,
    Clock,
    Lobby,
    LobbyError,
    lobby_games,
)
from tui_games.server.lobby.storage import GameRow, Offer, StorageUnavailable
from tui_games.server.log import event

# connect4:mcts: Monte Carlo tree search (engine/mcts.py) beside the alpha-beta levels, its
# budget the same CPU seconds a move as theirs.
DEFAULT_HOUSE = "tictactoe:perfect,connect4:level5,connect4:mcts,connect4:perfect,checkers:level4,checkers:strong"
SEEK_WAIT = 2.0  # seconds a seek stays for people before a house player takes it
NICE = 15  # the worker's niceness: humans' sessions come first
MOST_SECONDS = 2.0  # CPU seconds a move at most (a clock with little time left gives less)
NO_CLOCK_SECONDS = 1.0
MIN_BUDGET = 0.5  # CPU seconds a move at least: the strong checkers player takes no less
WORKERS = max(1, os.cpu_count() or 1)  # search processes: one a core
TIMED_PER_WORKER = 3  # timed games the house takes at once, per worker
RESPONSE_SECONDS = 3.0  # a house move is due this long after the opponent's (sooner if its clock says)
# A search runs at least this long (wall seconds) before a more urgent move may hurry it, and a
# waiting move is due in HURRY_AHEAD seconds or less when it does: the queue is looked at every
# HURRY_LOOK seconds.
MIN_SEARCH_SECONDS = 0.3
HURRY_AHEAD = 1.0
HURRY_LOOK = 0.1
START_SECONDS = 120.0  # a fresh worker's start (its imports), however busy the machine
RETRIES = 2  # a failed search of one position is tried again this many times
HOUSE_PATIENCE = 600.0  # seconds an opponent may leave a clockless game on their move
CLAIM_LOOK = 30.0  # seconds between looks for games to claim


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
    return max(MIN_BUDGET, min(MOST_SECONDS, left / 40 + clock.increment / 2))


def timed(clock_text: str) -> bool:
    """Whether a game with this clock can be lost on time in minutes (a correspondence
    game's days are not)."""
    return Clock.parse(clock_text).kind == "fischer"


def house_limit_text(seats: int = 1) -> str:
    """The house's own limit, as ``who`` and the docs say it."""
    return (f"at most {MAX_LIVE_GAMES_PER_PLAYER} games, {TIMED_PER_WORKER * WORKERS} of them timed "
            f"({TIMED_PER_WORKER} a core)")


# -- the worker process ------------------------------------------------------------------------------

# The worker's search in progress is told to hurry by this signal: it plays its best move so
# far at once (every search can be stopped; the stop is checked as it searches).
HURRY_SIGNAL = signal.SIGUSR1
_hurry = threading.Event()
READY = "ready"


def _think(request: dict) -> str:
    adapter = arena_adapter(request["game"])
    position = adapter.start(request["variant"])
    for text in request["moves"]:
        position.push(adapter.parse_move(position, text))
    player = adapter.make_player(request["spec"], seed=request["seed"], seconds=request["seconds"],
                                 variant=request["variant"])
    return adapter.move_text(position, player.choose(position, stop=_hurry).move)


def _worker(connection, niceness: int) -> None:
    """The worker's loop: a request in, a move (or the error) out, until the pipe closes."""
    try:
        os.nice(niceness)
    except OSError:
        pass
    signal.signal(HURRY_SIGNAL, lambda signum, frame: _hurry.set())
    connection.send(READY)  # from now on a hurry is heard, not the signal's default (the end)
    while True:
        try:
            request = connection.recv()
        except (EOFError, OSError):
            return
        _hurry.clear()  # a hurry meant for the last search (it came as it ended) is not this one's
        started = time.process_time()
        try:
            move = _think(request)
        except Exception as error:  # a bug in one search must not end the house
            connection.send((False, f"{type(error).__name__}: {error}"[:200], 0.0))
        else:
            connection.send((True, move, time.process_time() - started))


class SearchWorker(Protocol):
    """What the house needs of a worker: a search, told to hurry, or stopped."""

    spent: float | None  # CPU seconds of the last search (its thinking), if known

    async def think(self, request: dict, ceiling: float) -> str: ...

    def hurry(self) -> bool: ...

    def stop(self) -> None: ...


class EngineWorker:
    """One niced process that searches, one request at a time."""

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self._lock = asyncio.Lock()
        self.spent: float | None = None  # CPU seconds of the last search (its thinking)
        self._searching = False  # a search is in progress (a hurry reaches it)
        self.hurried = 0  # searches told to hurry

    def _start(self) -> None:
        context = multiprocessing.get_context("spawn")  # never fork the server's event loop
        parent, child = context.Pipe()
        self._process = context.Process(target=_worker, args=(child, NICE), daemon=True, name="tui-games-house")
        self._process.start()
        child.close()
        self._connection = parent

    async def think(self, request: dict, ceiling: float) -> str:
        """The move the worker's search chooses for ``request``; asyncio.TimeoutError past
        ``ceiling`` wall seconds (the worker is ended), RuntimeError if the search failed or
        the worker died."""
        async with self._lock:
            try:
                if self._process is None or not self._process.is_alive():
                    self._start()
                    # A fresh worker imports the engines first: not this search's time.
                    if await self._answer(START_SECONDS) != READY:
                        raise RuntimeError("the worker did not start")
                assert self._connection is not None
                self._connection.send(request)
                self._searching = True
                try:
                    ok, value, self.spent = await self._answer(ceiling)
                finally:
                    self._searching = False
            except (EOFError, OSError) as error:
                self.stop()
                raise RuntimeError(f"the worker died: {error or type(error).__name__}") from None
            except asyncio.TimeoutError:
                self.stop()
                raise
            if not ok:
                raise RuntimeError(value)
            return value

    async def _answer(self, ceiling: float) -> Any:
        """The worker's next message, waited for without blocking the event loop."""
        assert self._connection is not None
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = self._connection.fileno()
        loop.add_reader(fd, lambda: None if ready.done() else ready.set_result(None))
        try:
            await asyncio.wait_for(ready, ceiling)
        finally:
            loop.remove_reader(fd)
        return self._connection.recv()

    def hurry(self) -> bool:
        """Tell the search in progress to play its best move so far now; False if idle."""
        if not self._searching or self._process is None or self._process.pid is None:
            return False
        try:
            os.kill(self._process.pid, HURRY_SIGNAL)
        except OSError:
            return False
        self.hurried += 1
        return True

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
        self.workers: list[SearchWorker] = [EngineWorker() for _ in range(WORKERS)]
        # The workers searching now: when each search began (the lobby's clock), and whether
        # it has been hurried.
        self._busy: dict[int, tuple[float, bool]] = {}
        # Searches that failed, per (game, ply): tried again up to RETRIES times.
        self._failures: dict[tuple[str, int], int] = {}
        self.rng = random.Random()
        # Games where a house player is to move: (due, seconds left, order, game id), soonest first.
        self._waiting: list[tuple[float, float, int, str]] = []
        self._order = itertools.count()
        self._wake = asyncio.Event()
        self._queued: set[str] = set()
        self._taking: set[str] = set()  # offers a seat is about to take (each once)
        self._tasks: set[asyncio.Task] = set()
        self._stop_listening: Callable[[], None] | None = None

    @property
    def most_timed(self) -> int:
        return TIMED_PER_WORKER * len(self.workers)

    def start(self) -> None:
        if not self.seats:
            return
        for seat in self.seats:
            self.lobby.seen(seat.name, computer=True)
            self.lobby.computers[seat.name] = seat.game
            self.lobby.presence.connected(seat.name, +1)  # always here: never claimed against
        self._stop_listening = self.lobby.listen(self._changed)
        for worker in self.workers:
            self._spawn(self._play(worker))
        self._spawn(self._hurrying())
        self._spawn(self._claiming())
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
        for worker in self.workers:
            worker.stop()

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
                    due, left = self._due(row, row.players.index(to_move))
                    heapq.heappush(self._waiting, (due, left, next(self._order), row.id))
                    self._wake.set()

    def _due(self, row: GameRow, side: int) -> tuple[float, float]:
        """(when the house's move in ``row`` is due, the seconds its clock has): a move is due
        RESPONSE_SECONDS after the opponent's, or sooner if the clock has less left."""
        left = row.left[side]
        if not timed(row.clock) or row.played < 2 or left is None:
            return row.last_move + RESPONSE_SECONDS, float("inf")
        return row.last_move + min(left, RESPONSE_SECONDS), left

    async def _take(self, offer: Offer, seat: Seat, wait: float) -> None:
        try:
            await self._take_now(offer, seat, wait)
        finally:
            self._taking.discard(offer.id)

    def timed_games(self) -> int:
        """The house's live timed games, all its seats together (they share the workers)."""
        return sum(1 for seat in self.seats for row in self.lobby.storage.games(player=seat.name, status="live")
                   if timed(row.clock))

    async def _take_now(self, offer: Offer, seat: Seat, wait: float) -> None:
        if wait:
            await asyncio.sleep(wait)  # people first
        try:
            if self.lobby.storage.offer(offer.id) is None:
                return
            if timed(offer.clock) and self.timed_games() >= self.most_timed:
                reason = (f"{seat.name} is playing {self.most_timed} timed games, as many as it can serve in "
                          f"time ({TIMED_PER_WORKER} a core); try later, or a game without a clock")
                if offer.kind == "challenge":  # told now, never accepted and then lost on time
                    self.lobby.decline(seat.name, offer.id)
                self.log(event("house-declined", user=seat.name, offer=offer.id, reason=reason))
                return
            self.lobby.accept(seat.name, offer.id)
        except (LobbyError, StorageUnavailable) as error:
            self.log(event("house-declined", user=seat.name, offer=offer.id, reason=str(error)[:100]))

    async def _next(self) -> str:
        while not self._waiting:
            self._wake.clear()
            await self._wake.wait()
        game_id = heapq.heappop(self._waiting)[3]
        self._queued.discard(game_id)
        return game_id

    async def _play(self, worker: SearchWorker) -> None:
        """The most urgent game where a house player is to move, one search at a time for
        this worker; its clock is charged the search's time only."""
        while True:
            game_id = await self._next()
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
            started = self.lobby.clock()
            self._busy[id(worker)] = (started, False)
            try:
                move = await worker.think(request, ceiling=seconds * 5 + 15)
                # Its thinking: the search's CPU seconds (a busy machine's slower wall clock,
                # the worker's own start, are not its thinking), at most the time it took.
                thought = self.lobby.clock() - started
                spent = worker.spent
                self.lobby.move(player, game_id, move, thought=thought if spent is None else min(thought, spent))
                self._failures.pop((game_id, len(row.moves)), None)
            except (asyncio.TimeoutError, RuntimeError, LobbyError, StorageUnavailable) as error:
                self.log(event("house-move-failed", user=player, game=game_id, reason=f"{error}"[:120] or "timeout"))
                self._try_again(game_id, len(row.moves))
            finally:
                self._busy.pop(id(worker), None)

    def _try_again(self, game_id: str, ply: int) -> None:
        """A failed search (a worker that died or ran past its ceiling) is not the house's
        last word on the move: it is queued again, RETRIES times at most for one position."""
        key = (game_id, ply)
        self._failures[key] = self._failures.get(key, 0) + 1
        if self._failures[key] > RETRIES:
            del self._failures[key]  # given up: the game's clock (or a claim) decides
            return
        try:
            row = self.lobby.storage.game(game_id)
        except StorageUnavailable:
            return
        if row is not None and len(row.moves) == ply:
            self._changed("game", row)

    async def _hurrying(self) -> None:
        while True:
            await asyncio.sleep(HURRY_LOOK)
            self.hurry_if_due()

    def hurry_if_due(self) -> bool:
        """Every worker busy and a waiting move due within HURRY_AHEAD seconds: the search
        that has run longest (at least MIN_SEARCH_SECONDS) plays its best move so far, so the
        waiting one starts in time, whatever the searches' budgets and the machine's load."""
        now = self.lobby.clock()
        if not self._waiting or self._waiting[0][0] - HURRY_AHEAD > now or len(self._busy) < len(self.workers):
            return False  # nothing due yet, or a worker is free to take it
        searching = []
        for worker in self.workers:
            busy = self._busy.get(id(worker))
            if busy is not None and not busy[1]:
                searching.append((busy[0], worker))
        if not searching:
            return False  # each has been hurried already: its move is on its way
        began, longest = min(searching, key=lambda item: item[0])
        if now - began < MIN_SEARCH_SECONDS:
            return False
        self._busy[id(longest)] = (began, True)
        return longest.hurry()

    # -- places nobody may squat ---------------------------------------------------------------------------

    async def _claiming(self) -> None:
        while True:
            await asyncio.sleep(CLAIM_LOOK)
            await self.claim_absent()

    async def claim_absent(self) -> None:
        """Claim every clockless game whose opponent has left it on their move for
        HOUSE_PATIENCE and is not here (the lobby's claim decides the rest)."""
        now = self.lobby.clock()
        for seat in self.seats:
            try:
                rows = self.lobby.storage.games(player=seat.name, status="live")
            except StorageUnavailable:
                return
            for row in rows:
                if Clock.parse(row.clock).kind != "none" or self.lobby.to_move(row) == seat.name \
                        or now - row.last_move < HOUSE_PATIENCE:
                    continue
                try:
                    self.lobby.claim(seat.name, row.id)
                except (LobbyError, StorageUnavailable):
                    continue
                self.log(event("house-claimed", user=seat.name, game=row.id,
                               reason=f"the opponent left it on their move for {HOUSE_PATIENCE / 60:g} minutes"))
