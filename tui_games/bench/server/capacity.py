"""``tui-games bench capacity``: how many players the SSH server seats, and how fast they get in.

A real server (``tui-games serve --ssh`` as a subprocess, niced) with open registration; N
players (100, 20 with --quick, or --players N) log in with asyncssh's client at 4 a second, each
with a key of their own, and from their menu on press a key a second (down, up, down…) until
the last of them has had ten. Run twice: every app a fresh process (``--no-preload``, as before
the zygote), then forked from the pre-started app (only the latter with ``--zygote-only``). For
each:

- **login → menu**: from opening the TCP connection to the menu's text on the player's screen,
  p50 and p95;
- **CPU a login**: the app's own CPU seconds (utime + stime from /proc; for a forked app,
  since the fork) when it has settled, a second after its menu was on the screen, just before
  its first key (what it does once the menu is drawn, its footer, its lobby connection, is
  part of the login too; its CPU at the menu is shown beside it), plus the server's share (its CPU over the run, less what
  the keys cost it, divided by N: SSH handshake, authentication, starting the session),
  plus the zygote's CPU a fork. What a key costs the server is measured once every player is
  at the menu, when the server does nothing else (keys relayed, idle sessions kept): its CPU
  then over the keys pressed then;
- **memory per session** at the menu: PSS (shared pages divided among their sharers; the sum
  over processes is the memory really used) and private (what each session alone costs), the
  median over the apps, and the zygote's own PSS;
- **key → repaint**: from a key sent to the first screen bytes after it, p95 over every key.

Nothing leaves 127.0.0.0/8 (each player has an address of its own there); every client and the server are stopped at the end.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from tui_games.bench.table import Write, write_table

try:
    import asyncssh
except ImportError:  # the bench says which extra it needs
    asyncssh = None  # type: ignore[assignment]

RATE = 4.0  # logins a second
KEYS_EACH = 10  # keys the last player presses before the run ends
MENU = b"Sudoku"
SCREEN = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / TICK


def memory_mb(pid: int) -> tuple[float, float] | None:
    from tui_games.server.child import memory_of

    return memory_of(pid)


def pid_working_in(folder: Path) -> int | None:
    """The app working in ``folder`` (every app works in its player's directory)."""
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(entry / "cwd") == str(folder):
                return int(entry.name)
        except OSError:
            continue
    return None


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Player:
    def __init__(self, number: int, key) -> None:
        self.name, self.key = f"p{number:03d}", key
        # Players come from addresses of their own (127.0.1.1, …), as they would: one address
        # would meet the per-source caps on connections not yet playing.
        self.address = f"127.0.{1 + number // 250}.{1 + number % 250}"
        self.menu: float | None = None  # seconds from connect to the menu
        self.cpu: float | None = None  # the app's CPU seconds at its menu
        self.settled: float | None = None  # ... a second later, before its first key
        self.pid: int | None = None
        self.keys: list[float] = []  # key -> first screen bytes, seconds
        self.error: str | None = None
        self.conn: asyncssh.SSHClientConnection | None = None


async def _play(player: Player, port: int, users: Path, stop: asyncio.Event) -> None:
    began = time.monotonic()
    try:
        player.conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=player.name, known_hosts=None, config=None, agent_path=None,
            client_keys=[player.key], local_addr=(player.address, 0)), 120)
        process = await player.conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
        screen = b""
        while MENU not in SCREEN.sub(b"", screen):
            data = await asyncio.wait_for(process.stdout.read(65536), 120)
            if not data:
                raise ConnectionError(SCREEN.sub(b"", screen).decode(errors="replace")[-120:].strip())
            screen += data
        player.menu = time.monotonic() - began
        player.pid = await asyncio.to_thread(pid_working_in, users / player.name)
        if player.pid is not None:
            player.cpu = cpu_seconds(player.pid)
        # Every chunk of screen is timed as it comes; a key's repaint is the first after it.
        arrived = asyncio.Event()
        last_chunk = [0.0]

        async def read_screen() -> None:
            while await process.stdout.read(65536):
                last_chunk[0] = time.monotonic()
                arrived.set()

        reader = asyncio.create_task(read_screen())
        arrows = (b"\x1b[B", b"\x1b[A")
        try:
            while not stop.is_set():
                await asyncio.sleep(1.0)
                if not player.keys and player.pid is not None and player.settled is None:
                    player.settled = cpu_seconds(player.pid)
                arrived.clear()
                sent = time.monotonic()
                process.stdin.write(arrows[len(player.keys) % 2])
                try:
                    while last_chunk[0] < sent:
                        await asyncio.wait_for(arrived.wait(), 10)
                        arrived.clear()
                except asyncio.TimeoutError:
                    continue
                player.keys.append(last_chunk[0] - sent)
        finally:
            reader.cancel()
    except (OSError, asyncssh.Error, asyncio.TimeoutError, ConnectionError) as error:
        player.error = f"{type(error).__name__}: {error}"[:120]


async def _wait_in_log(log: Path, pattern: str, seconds: float) -> re.Match:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = re.search(pattern, log.read_text() if log.exists() else "")
        if found:
            return found
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the server's log never said {pattern!r}")


async def _run(count: int, preload: bool, keys) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="tui-games-capacity-") as folder:
        home = Path(folder)
        log = home / "server.log"
        argv = [sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", "0", "--register", "open",
                "--log", str(log), "--max-sessions", str(count + 5), "--address-share", "100",
                "--idle-minutes", "0", *([] if preload else ["--no-preload"])]
        server = await asyncio.create_subprocess_exec(
            *argv, env={**os.environ, "TUI_GAMES_HOME": str(home)}, preexec_fn=lambda: os.nice(10),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        players = [Player(number, keys[number]) for number in range(count)]
        stop = asyncio.Event()
        tasks: list[asyncio.Task] = []
        try:
            port = int((await _wait_in_log(log, r"listening address=\S+:(\d+)", 60))[1])
            zygote_pid = None
            if preload:
                ready = await _wait_in_log(log, r"zygote-ready pid=(\d+) imported=(\S+)", 180)
                zygote_pid = int(ready[1])
            server_cpu = cpu_seconds(server.pid) or 0.0
            zygote_cpu = cpu_seconds(zygote_pid) if zygote_pid else None
            users = home / "server" / "users"
            started = time.monotonic()
            for number, player in enumerate(players):
                await asyncio.sleep(max(0.0, started + number / RATE - time.monotonic()))
                tasks.append(asyncio.create_task(_play(player, port, users, stop)))
            # Until every player is at the menu (or failed) and the last has pressed its keys.
            while any(p.menu is None and p.error is None for p in players):
                await asyncio.sleep(0.2)
            # From here on the server only relays keys and keeps sessions: its CPU a key then
            # is what keys cost it, and the rest of its CPU over the run is the logins'.
            at_menus = (cpu_seconds(server.pid) or 0.0, sum(len(p.keys) for p in players))
            sizes = [size for p in players if p.pid and (size := memory_mb(p.pid))]
            last = max((p for p in players if p.menu is not None), key=lambda p: p.name, default=None)
            while last is not None and len(last.keys) < KEYS_EACH and last.error is None:
                await asyncio.sleep(0.2)
            stop.set()
            at_end = (cpu_seconds(server.pid) or 0.0, sum(len(p.keys) for p in players))
            server_cpu = at_end[0] - server_cpu
            zygote_now = memory_mb(zygote_pid) if zygote_pid else None
            zygote_cpu_after = cpu_seconds(zygote_pid) if zygote_pid else None
        finally:
            stop.set()
            for player in players:
                if player.conn is not None:
                    player.conn.abort()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if server.returncode is None:
                server.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(server.wait(), 60)
                except asyncio.TimeoutError:
                    server.kill()
                    await server.wait()
    menus = [p.menu for p in players if p.menu is not None]
    cpus = [p.cpu for p in players if p.cpu is not None]
    settled = [p.settled for p in players if p.settled is not None] or cpus
    keys_seen = [k for p in players for k in p.keys]
    failed = [p.error for p in players if p.error]
    zygote, fork = "", 0.0
    if zygote_now:
        fork = ((zygote_cpu_after or 0.0) - (zygote_cpu or 0.0)) / max(1, len(menus))
        zygote = f"; zygote {zygote_now[0]:.0f} MB PSS"
    per_key = (at_end[0] - at_menus[0]) / max(1, at_end[1] - at_menus[1])
    server_login = max(0.0, server_cpu - per_key * len(keys_seen)) / max(1, len(menus))
    return [
        "forked from the zygote" if preload else "fresh process (--no-preload)",
        f"{len(menus)}/{count}" + (f" ({failed[0]})" if failed else ""),
        f"{statistics.median(menus) * 1000:.0f} / {percentile(menus, 0.95) * 1000:.0f} ms" if menus else "-",
        (f"{(statistics.mean(settled) + server_login + fork) * 1000:.0f} ms = {statistics.mean(settled) * 1000:.0f}"
         f" + {server_login * 1000:.1f}" + (f" + {fork * 1000:.1f}" if zygote_now else "") if settled else "-"),
        f"{statistics.mean(cpus) * 1000:.0f} / {statistics.mean(settled) * 1000:.0f} ms" if cpus else "-",
        f"{per_key * 1000:.2f} ms",
        (f"{statistics.median(s[0] for s in sizes):.1f} / {statistics.median(s[1] for s in sizes):.1f} MB"
         if sizes else "-") + zygote,
        f"{percentile(keys_seen, 0.95) * 1000:.1f} ms of {len(keys_seen)}" if keys_seen else "-",
    ]


async def _bench(write: Write, count: int, zygote_only: bool) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(count)]
    load = os.getloadavg()[0]
    rows = [*([] if zygote_only else [await _run(count, False, keys)]), await _run(count, True, keys)]
    write(f"tui-games serve --ssh on 127.0.0.1 (niced), {count} players logging in at {RATE:g} a second, "
          f"then a key a second each; load average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    write("")
    write_table(write, ["apps", "at the menu", "login → menu p50 / p95", "CPU a login = app + server + zygote",
                        "app CPU at menu / settled", "server CPU a key", "PSS / private per session", "key → repaint p95"], rows, left=(0, 1))


def bench_capacity(write: Write, *, quick: bool = False, players: int | None = None,
                   zygote_only: bool = False) -> None:
    if asyncssh is None or not sys.platform.startswith("linux"):
        raise ValueError('the capacity benchmark needs asyncssh on Linux: pip install "tui-games[server]"')
    asyncio.run(_bench(write, players or (20 if quick else 100), zygote_only))
