"""The lobby end to end, as players and bots meet it: ``tui-games bench online`` runs these after
the socket figures.

- **move → opponent's repaint**: a real server (``tui-games serve --ssh`` as a subprocess), two
  players' apps over SSH at 80×24, each terminal decoded with pyte; the time from a key
  pressed in one app until the other's screen says "your move".
- **bots**: 16 players on one address, each game played by the real OpenSSH client running
  ``ssh … move`` per move (a new connection each time, the handshake included): the round trip
  of each move and how many were refused.
- **house players**: a seek of each game in a lobby with the default house players: the time
  until one takes it and until its first move; and the humans' figure above for 8 players in 4
  games, alone and while 20 bots play house players (their engines in the niced worker).

Everything stays on 127.0.0.1, bounded in count and time, and is stopped at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from tui_games.bench.server.process import BenchServer
from tui_games.games import arena_adapter

try:
    import asyncssh
    import pyte
except ImportError:  # bench_online says which extra is missing
    asyncssh = pyte = None  # type: ignore[assignment]

SIZE = (80, 24)
BOTS = 16
BOT_PLIES = 16  # moves of each bot game (or fewer if it ends)
REPAINT_MOVES = 24


def _server(home: Path, house: str = "none") -> BenchServer:
    """``tui-games serve --ssh`` in a subprocess, open registration, these house players."""
    return BenchServer(home, ["--register", "open", "--house", house])


class Terminal:
    """A player's app over SSH, its screen kept by pyte."""

    def __init__(self, conn, process) -> None:
        self.conn, self.process = conn, process
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self._reading = asyncio.create_task(self._read())

    @classmethod
    async def login(cls, port: int, user: str, key) -> "Terminal":
        conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, config=None,
                                      agent_path=None, client_keys=[key])
        process = await conn.create_process(term_type="xterm-256color", term_size=SIZE, encoding=None)
        return cls(conn, process)

    async def _read(self) -> None:
        while chunk := await self.process.stdout.read(65536):
            self.stream.feed(chunk)
            self.changed.set()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait(self, needle: str, timeout: float = 60.0) -> float:
        """Until ``needle`` is on the screen; returns perf_counter() when it was seen."""
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{needle!r} never showed")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass
        return time.perf_counter()

    def keys(self, text: str) -> None:
        self.process.stdin.write(text.encode())

    async def close(self) -> None:
        self.process.stdin.write_eof()
        self.conn.close()
        self._reading.cancel()


async def command(port: int, user: str, key, line: str, tries: int = 20) -> str:
    """A command over SSH; a login turned away (a busy server) is tried again, as a bot would."""
    for _ in range(tries):
        try:
            async with asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, config=None,
                                        agent_path=None, client_keys=[key]) as conn:
                result = await conn.run(line)
        except (OSError, asyncssh.Error):
            await asyncio.sleep(0.2)
            continue
        if result.exit_status != 0:
            raise RuntimeError(f"{line}: {str(result.stderr).strip()}")
        return str(result.stdout)
    raise RuntimeError(f"{line}: the server turned every login away")


async def _open_game(terminal: Terminal, names: str) -> None:
    """From the menu to the player's game (the first of "Your games")."""
    await terminal.wait("Sudoku")
    terminal.keys("o")
    await terminal.wait("You are")
    terminal.keys("\x1b[C")  # → the "Your games" tab
    await terminal.wait(names)
    terminal.keys("\r")
    await terminal.wait(names.split(" v ")[0] + " (")


async def _human_pair(port: int, pair: tuple[str, str], keys: dict, moves: int, rng: random.Random,
                      latencies: list[float]) -> None:
    first, second = pair
    offer = json.loads(await command(port, first, keys[first], "seek connect4 --casual --colour first --json"))["id"]
    await command(port, second, keys[second], f"accept {offer}")
    terminals = {}
    try:
        for user in pair:
            terminals[user] = await Terminal.login(port, user, keys[user])
            await _open_game(terminals[user], f"{first} v {second}")
        adapter = arena_adapter("connect4")
        position = adapter.start({})
        await terminals[first].wait("your move")
        for _ in range(moves):
            mover, other = pair[position.turn], terminals[pair[1 - position.turn]]
            move = rng.choice(list(position.legal_moves()))
            await asyncio.sleep(0.5)  # a person's pause
            started = time.perf_counter()
            terminals[mover].keys(adapter.move_text(position, move))
            position.push(move)
            if position.outcome() is not None:
                break
            latencies.append(await other.wait("your move") - started)
            await terminals[mover].wait("to move")
    finally:
        for terminal in terminals.values():
            await terminal.close()


async def _house_bot(port: int, name: str, key, game: str, stop: asyncio.Event, rng: random.Random) -> int:
    """Seek ``game`` (a house player takes it) and play at random until ``stop``; games played."""
    played = 0
    while not stop.is_set():
        await command(port, name, key, f"seek {game} --casual")
        while not (games := json.loads(await command(port, name, key, "games --json"))):
            await asyncio.sleep(0.5)
        game_id = games[0]["id"]
        async with asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, config=None,
                                    agent_path=None, client_keys=[key]) as conn:
            watch = await conn.create_process(f"watch {game_id} --json")
            async for line in watch.stdout:
                event = json.loads(line)
                data = event["data"]
                if event["event"] == "end" or stop.is_set():
                    break
                if data["to_move"] == name and data["legal"] and event["event"] in ("game", "move"):
                    await command(port, name, key, f"move {game_id} {rng.choice(data['legal'])}")
        played += 1
        if stop.is_set():
            break
    return played


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _house_workers(server_pid: int) -> list[int]:
    """The house players' worker processes of the server (spawned by multiprocessing)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == server_pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return found


async def humans_figures(house_games: int, humans: int = 8, moves: int = 12,
                         seed: int = 3) -> tuple[list[float], int, float, float]:
    """Key → opponent's "your move" for ``humans`` players in pairs, while ``house_games`` bots
    play the house players; (latencies, bot games finished, the server's CPU seconds and the
    house worker's, while the people played)."""
    from tui_games.server.lobby.house import DEFAULT_HOUSE

    with tempfile.TemporaryDirectory(prefix="tui-games-house-load-") as folder:
        server = _server(Path(folder), DEFAULT_HOUSE if house_games else "none")
        await server.start()
        people = [f"human{n}" for n in range(humans)]
        bots = [f"bot{n}" for n in range(house_games)]
        keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in people + bots}
        stop = asyncio.Event()
        rng = random.Random(seed)
        latencies: list[float] = []
        bot_tasks = [asyncio.create_task(_house_bot(server.port, name, keys[name], ("connect4", "checkers")[n % 2],
                                                    stop, random.Random(rng.random())))
                     for n, name in enumerate(bots)]
        try:
            if bots:  # the house games under way before the people begin
                await asyncio.sleep(10)
            pid = server.pid
            workers = _house_workers(pid)
            before = _cpu_seconds(pid), sum(_cpu_seconds(w) for w in workers)
            await asyncio.gather(*(_human_pair(server.port, (people[i], people[i + 1]), keys, moves,
                                               random.Random(rng.random()), latencies)
                                   for i in range(0, humans, 2)))
            server_cpu = _cpu_seconds(pid) - before[0]
            worker_cpu = sum(_cpu_seconds(w) for w in workers) - before[1]
        finally:
            stop.set()
            done = await asyncio.gather(*bot_tasks, return_exceptions=True)
            await server.stop()
    return latencies, sum(n for n in done if isinstance(n, int)), server_cpu, worker_cpu


async def repaint_figures(seed: int = 1, moves: int = REPAINT_MOVES) -> list[float]:
    """Seconds from a key in one app to "your move" on the opponent's screen, per move."""
    with tempfile.TemporaryDirectory(prefix="tui-games-e2e-") as folder:
        server = _server(Path(folder))
        await server.start()
        keys = {user: asyncssh.generate_private_key("ssh-ed25519") for user in ("alice", "bob")}
        terminals: dict[str, Terminal] = {}
        try:
            offer = json.loads(await command(server.port, "alice", keys["alice"],
                                             "seek connect4 --casual --colour first --json"))["id"]
            await command(server.port, "bob", keys["bob"], f"accept {offer}")
            for user in ("alice", "bob"):
                terminals[user] = term = await Terminal.login(server.port, user, keys[user])
                await term.wait("Sudoku")
                term.keys("o")
                await term.wait("You are")
                term.keys("\x1b[C")  # → the "Your games" tab
                await term.wait("alice v bob")
                term.keys("\r")
                await term.wait("alice (")
            adapter = arena_adapter("connect4")
            position = adapter.start({})
            rng = random.Random(seed)
            latencies = []
            await terminals["alice"].wait("your move")
            for _ in range(moves):
                if position.outcome() is not None:
                    break
                mover = ("alice", "bob")[position.turn]
                other = terminals[("alice", "bob")[1 - position.turn]]
                move = rng.choice(list(position.legal_moves()))
                started = time.perf_counter()
                terminals[mover].keys(adapter.move_text(position, move))
                position.push(move)
                if position.outcome() is not None:
                    break
                latencies.append(await other.wait("your move") - started)
                await terminals[mover].wait("to move")
        finally:
            for term in terminals.values():
                await term.close()
            await server.stop()
    return latencies


async def bot_figures(seed: int = 2) -> tuple[list[float], int, int]:
    """(round trips of `ssh … move` in s, refused, moves tried) for BOTS players on one address
    playing BOTS // 2 games at once, every move a fresh run of the OpenSSH client."""
    with tempfile.TemporaryDirectory(prefix="tui-games-bots-") as folder:
        home = Path(folder)
        server = _server(home)
        await server.start()
        names = [f"bot{n}" for n in range(BOTS)]
        keyfiles = {}
        for name in names:
            key = asyncssh.generate_private_key("ssh-ed25519")
            keyfiles[name] = home / f"{name}.key"
            keyfiles[name].write_bytes(key.export_private_key())
            keyfiles[name].chmod(0o600)
        base = ["ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
                "-o", "LogLevel=ERROR", "-q"]
        trips: list[float] = []
        refused = tried = 0

        async def ssh(name: str, line: str) -> tuple[int, str]:
            process = await asyncio.create_subprocess_exec(
                *base, "-i", str(keyfiles[name]), f"{name}@127.0.0.1", line,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, _ = await asyncio.wait_for(process.communicate(), 60)
            return process.returncode or 0, out.decode()

        async def game(first: str, second: str, rng: random.Random) -> None:
            nonlocal refused, tried
            status, out = await ssh(first, "seek connect4 --casual --colour first --json")
            while status != 0:  # a refused login: try again, as a bot would
                status, out = await ssh(first, "seek connect4 --casual --colour first --json")
            offer = json.loads(out)["id"]
            status, out = await ssh(second, f"accept {offer} --json")
            while status == 255:
                status, out = await ssh(second, f"accept {offer} --json")
            game_id = json.loads(out)["game"]
            adapter = arena_adapter("connect4")
            position = adapter.start({})
            for _ in range(BOT_PLIES):
                if position.outcome() is not None:
                    break
                move = rng.choice(list(position.legal_moves()))
                mover = (first, second)[position.turn]
                while True:
                    tried += 1
                    started = time.perf_counter()
                    status, _ = await ssh(mover, f"move {game_id} {adapter.move_text(position, move)}")
                    trips.append(time.perf_counter() - started)
                    if status == 0:
                        break
                    refused += 1
                    if refused > 2000:
                        raise RuntimeError("the server refuses the bots: stopped")
                position.push(move)

        rng = random.Random(seed)
        try:
            await asyncio.gather(*(game(names[i], names[i + 1], random.Random(rng.random()))
                                   for i in range(0, BOTS, 2)))
        finally:
            await server.stop()
    return trips, refused, tried


async def house_figures() -> list[list[str]]:
    """Per game: seconds until a house player takes a seek, and its first reply (from its turn)."""
    from tui_games.server.lobby.house import DEFAULT_HOUSE, House, parse_house
    from tui_games.server.lobby.hub import Lobby
    from tui_games.server.lobby.hub_socket import HubSocket
    from tui_games.server.lobby.storage import Storage

    rows = []
    with tempfile.TemporaryDirectory(prefix="tui-games-house-") as folder:
        storage = Storage(Path(folder) / "lobby.sqlite3")
        lobby = Lobby(storage)
        hub = HubSocket(lobby, Path(folder) / "lobby.sock")
        await hub.start()
        house = House(lobby, parse_house(DEFAULT_HOUSE))
        house.start()
        try:
            for game in ("tictactoe", "connect4", "checkers"):
                player = f"seeker-{game}"
                lobby.seen(player)
                started = time.perf_counter()
                lobby.seek(player, game, colour="second", rated=False)
                while not (rows_now := lobby.games(player)):
                    await asyncio.sleep(0.01)
                taken = time.perf_counter() - started
                row = rows_now[0]
                if lobby.to_move(row) == player:  # (after a checkers ballot, White: the seeker)
                    position = lobby.position(row)
                    move = arena_adapter(game).move_text(position, position.legal_moves()[0])
                    row = lobby.move(player, row.id, move)
                turn_came = time.perf_counter()
                while lobby.to_move(lobby.game(row.id)) != player:
                    await asyncio.sleep(0.01)
                replied = time.perf_counter() - turn_came
                opponent = next(name for name in row.players if name != player)
                rows.append([game, opponent, f"{taken:.2f}", f"{replied:.2f}"])
                row = lobby.game(row.id)
                (lobby.abort if row.played < 2 else lobby.resign)(player, row.id)
        finally:
            await house.close()
            await hub.close()
            storage.close()
    return rows


def available() -> str | None:
    """Why these figures cannot be taken here, or None."""
    if asyncssh is None or pyte is None:
        return 'needs asyncssh and pyte: pip install "tui-games[server,test]"'
    if shutil.which("ssh") is None:
        return "needs the OpenSSH client (ssh)"
    return None
