"""``tui-games bench server``: the SSH server under attack, on loopback, bounded in count and time.

A real server (``tui-games serve --ssh`` as a subprocess, its open-file limit held at 1024 as
under systemd's default) with one registered player, then:

- **input flood**: the player's keys as fast as SSH carries them for 30 s (5 s with --quick),
  the resident memory of the server and of the player's app before, at its peak, and after;
- **idle TCP storm**: 1,100 connections from 127.0.0.2 that never say a word, and meanwhile a
  real login from 127.0.0.1 (time to authenticate, time to the menu);
- **unauthenticated storm**: 1,030 connections from 127.0.0.3 that send SSH's greeting and
  stop, and meanwhile the same real login (retrying when turned away, as a person would);
- **idle crowd**: 1,100 silent connections from 250 addresses (127.0.1.1-250), held open, so
  the per-source cap does not help: only eviction of stale connections makes room;
- **steady storm**: 20 addresses (127.0.2.1-20) × 5 connections that say SSH's greeting and
  stop, each opened again the moment it is dropped, for the whole measurement;
- **two classes at once**: the idle crowd and the steady storm together;
- in each storm, a real login from 127.0.0.1, retried when turned away as a person would:
  its tries and the time to the menu (the goal: the first try, under 2 s);
- **wrong keys**: 300 logins with a key that is not the player's, from 127.0.0.4: how many
  were refused by SSH, how many turned away by the penalty, and what the log holds;
- the log's size at the end;
- **seek flood** (seek_flood.py, the lobby in a process of its own): 60 players post 6 seeks
  each (one over the cap) while 32 apps watch: the lobby's CPU, how soon each seek reaches
  every app, and whether every app is still connected;
- **watcher flood, slow watchers, the house under twelve 1+0 games** (hardening.py, a server
  of its own with --register open): issue 50's attacks and their goals.

Nothing leaves 127.0.0.0/8; every socket is closed at the end, and the server is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import socket
import tempfile
import time
from pathlib import Path

from tui_games.bench.server.hardening import bench_hardening
from tui_games.bench.server.process import OPEN_FILES, BenchServer, rss_mb
from tui_games.bench.server.seek_flood import bench_seek_flood
from tui_games.bench.table import Write, write_table
from tui_games.server.identity import Registry

try:
    import asyncssh
except ImportError:  # the bench says which extra it needs
    asyncssh = None  # type: ignore[assignment]

SCREEN = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")


async def _login(port: int, key) -> tuple[float, float, asyncssh.SSHClientConnection, asyncssh.SSHClientProcess]:
    """(seconds to authenticate, seconds to the menu, connection, process) of a real player."""
    started = time.monotonic()
    conn = await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username="player", known_hosts=None, config=None, agent_path=None,
        client_keys=[key]), 60)
    authenticated = time.monotonic() - started
    process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)
    screen = b""
    while b"Sudoku" not in SCREEN.sub(b"", screen):
        screen += await asyncio.wait_for(process.stdout.read(65536), 60)
    return authenticated, time.monotonic() - started, conn, process


def _descendants(pid: int) -> set[int]:
    try:
        children = [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except (OSError, ValueError):
        return set()
    return set(children).union(*(_descendants(child) for child in children))


def _on_a_terminal(pid: int) -> bool:
    try:
        return os.readlink(f"/proc/{pid}/fd/0").startswith("/dev/pts/")
    except OSError:
        return False


async def _flood(server: BenchServer, key, seconds: float) -> list[list[str]]:
    earlier = _descendants(server.pid)
    _, _, conn, process = await _login(server.port, key)
    before = peak = server.rss
    # The player's app: the server's new descendant on a pty (forked from the zygote, or not).
    apps = sorted(pid for pid in _descendants(server.pid) - earlier if _on_a_terminal(pid))
    app = apps[-1] if apps else None
    app_before = app_peak = rss_mb(app) if app else float("nan")
    sent, block = 0, b"jjjjkkkk" * 8192
    deadline = time.monotonic() + seconds

    async def drain_screen() -> None:
        while await process.stdout.read(65536):
            pass

    reader = asyncio.create_task(drain_screen())
    while time.monotonic() < deadline:
        process.stdin.write(block)
        sent += len(block)
        # A drain that times out is the server holding the keys back: exactly what should happen.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.stdin.drain(), 0.5)
        peak = max(peak, server.rss)
        if app:
            app_peak = max(app_peak, rss_mb(app))
    app_after = rss_mb(app) if app else float("nan")
    conn.abort()
    reader.cancel()
    await asyncio.sleep(3)
    after = server.rss
    return [["input flood", f"{seconds:g} s of keys, {sent / 1e6:,.1f} MB offered",
             f"server RSS {before:.0f} MB → peak {peak:.0f} MB → after {after:.0f} MB"],
            ["input flood", "the player's app",
             f"app RSS {app_before:.0f} MB → peak {app_peak:.0f} MB (+{app_peak - app_before:.0f} MB) → "
             f"{app_after:.0f} MB at the end of the flood"]]


def _storm_sockets(count: int, sources: list[str], port: int, greeting: bytes) -> tuple[list[socket.socket], int]:
    sockets, failed = [], 0
    for number in range(count):
        sock = socket.socket()
        try:
            sock.bind((sources[number % len(sources)], 0))
            sock.connect(("127.0.0.1", port))
            if greeting:
                sock.sendall(greeting)
            sock.setblocking(False)
            sockets.append(sock)
        except OSError:
            failed += 1
            sock.close()
    return sockets, failed


def _closed_by_server(sockets: list[socket.socket]) -> int:
    closed = 0
    for sock in sockets:
        try:
            while True:
                data = sock.recv(4096)
                if not data:
                    closed += 1
                    break
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    return closed


async def _storm(server: BenchServer, key, name: str, count: int, sources: list[str],
                 greeting: bytes) -> list[list[str]]:
    sockets, failed = await asyncio.to_thread(_storm_sockets, count, sources, server.port, greeting)
    tries = 0
    try:
        await asyncio.sleep(1.0)
        started = time.monotonic()
        while True:  # as a person would: try again when turned away
            tries += 1
            try:
                authenticated, menu, conn, _ = await _login(server.port, key)
                break
            except (OSError, asyncssh.Error) as error:
                if time.monotonic() - started > 40:
                    raise RuntimeError(f"no real login during the storm: {error}") from None
                await asyncio.sleep(0.2)
        conn.close()
        waited = time.monotonic() - started
        closed = _closed_by_server(sockets)
    finally:
        for sock in sockets:
            sock.close()
    opened = len(sockets)
    where = sources[0] if len(sources) == 1 else f"{len(sources)} sources"
    login = (f"real login: authenticated in {authenticated:.2f} s, menu in {menu:.2f} s"
             if tries == 1 else f"real login: {tries} tries, menu after {waited:.1f} s")
    return [[name, f"{count:,} from {where}: {opened:,} opened, {closed:,} closed by the server", login]] + \
        ([[name, f"{failed:,} could not connect", ""]] if failed else [])


async def _steady(port: int, sources: list[str], each: int, greeting: bytes, stop: asyncio.Event,
                  counts: dict[str, int]) -> None:
    """``each`` connections per source, each opened again as soon as the server drops it."""
    async def one(source: str) -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            except OSError:
                counts["failed"] += 1
                await asyncio.sleep(0.01)
                continue
            counts["opened"] += 1
            try:
                writer.write(greeting)
                waiting = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(reader.read())]
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for task in waiting:
                    task.cancel()
            except OSError:
                pass
            finally:
                writer.close()

    await asyncio.gather(*(one(source) for source in sources for _ in range(each)))


async def _person(port: int, key) -> tuple[int, float, float]:
    """A real login retried when turned away: (tries, seconds to authenticate, to the menu)."""
    started, tries = time.monotonic(), 0
    while True:
        tries += 1
        try:
            authenticated, menu, conn, _ = await _login(port, key)
            conn.close()
            return tries, time.monotonic() - started - menu + authenticated, time.monotonic() - started
        except (OSError, asyncssh.Error) as error:
            if time.monotonic() - started > 40:
                raise RuntimeError(f"no real login during the storm: {error}") from None
            await asyncio.sleep(0.2)


async def _steady_storm(server: BenchServer, key, name: str, *, crowd: bool, steady: bool,
                        warm: float = 5.0) -> list[list[str]]:
    """The idle crowd and/or the steady storm, then a person's login while it goes on."""
    stop, counts = asyncio.Event(), {"opened": 0, "failed": 0}
    sockets: list[socket.socket] = []
    storm = None
    what = []
    try:
        if crowd:
            crowd_sources = [f"127.0.1.{n}" for n in range(1, 251)]
            sockets, failed = await asyncio.to_thread(_storm_sockets, 1100, crowd_sources, server.port, b"")
            what.append(f"1,100 idle from 250 addresses ({len(sockets):,} opened)")
        if steady:
            storm = asyncio.create_task(_steady(server.port, [f"127.0.2.{n}" for n in range(1, 21)], 5,
                                                b"SSH-2.0-storm\r\n", stop, counts))
            what.append("20 × 5 reconnecting")
        await asyncio.sleep(warm)  # the storm is steady: its connections are dropped and come back
        opened = counts["opened"]
        tries, authenticated, menu = await _person(server.port, key)
        during = counts["opened"] - opened
    finally:
        stop.set()
        if storm is not None:
            await asyncio.gather(storm, return_exceptions=True)
        for sock in sockets:
            sock.close()
    storm_rate = f"; the storm opened {counts['opened']:,} connections" if steady else ""
    return [[name, " + ".join(what) + storm_rate,
             f"real login: {tries} {'try' if tries == 1 else 'tries'}, authenticated in {authenticated:.2f} s, "
             f"menu in {menu:.2f} s" + (f" ({during:,} storm connections meanwhile)" if steady else "")]]


async def _wrong_keys(server: BenchServer, count: int, source: str) -> list[list[str]]:
    wrong = asyncssh.generate_private_key("ssh-ed25519")
    denied = turned_away = 0
    started = time.monotonic()
    for _ in range(count):
        try:
            conn = await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", server.port, username="player", known_hosts=None, config=None, agent_path=None,
                client_keys=[wrong], local_addr=(source, 0)), 30)
            conn.close()
        except asyncssh.PermissionDenied:
            denied += 1
        except (OSError, asyncssh.Error, asyncio.TimeoutError):
            turned_away += 1
    seconds = time.monotonic() - started
    log = server.log.read_text()
    failures = len(re.findall(rf"auth-failed .*from={re.escape(source)}\s", log))
    refusals = len(re.findall(rf"refused from={re.escape(source)}\s.*penalised", log))
    return [["wrong keys", f"{count} logins from {source} in {seconds:.1f} s",
             f"{denied} denied by SSH, {turned_away} turned away by the penalty"],
            ["wrong keys", "log lines", f"{failures} auth-failed, {refusals} penalty refusals (at most 1/s each)"]]


async def _bench(write: Write, quick: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="tui-games-bench-") as folder:
        home = Path(folder)
        key = asyncssh.generate_private_key("ssh-ed25519")
        Registry(home / "server").add_key("player", key)
        server = BenchServer(home)
        await server.start()
        rows: list[list[str]] = []
        try:
            rows += await _flood(server, key, 5.0 if quick else 30.0)
            greeting = b"SSH-2.0-storm\r\n"
            rows += await _storm(server, key, "idle TCP storm", 1100, ["127.0.0.2"], b"")
            rows += await _storm(server, key, "unauthenticated storm", 1030, ["127.0.0.3"], greeting)
            rows += await _steady_storm(server, key, "idle crowd", crowd=True, steady=False)
            rows += await _steady_storm(server, key, "steady storm", crowd=False, steady=True)
            rows += await _steady_storm(server, key, "two classes", crowd=True, steady=True)
            rows += await _wrong_keys(server, 60 if quick else 300, "127.0.0.4")
            size = server.log.stat().st_size
            lines = server.log.read_text().count("\n")
            rows.append(["log", "after everything above", f"{size / 1024:,.1f} KiB, {lines:,} lines"])
        finally:
            await server.stop()
        write(f"tui-games serve --ssh on 127.0.0.1, open-file limit {OPEN_FILES} (soft and hard)")
        write("")
        write_table(write, ["phase", "what", "result"], rows, left=(0, 1, 2))


def bench_server(write: Write, *, quick: bool = False) -> None:
    if asyncssh is None or os.name != "posix":
        raise ValueError('the server benchmark needs asyncssh on a POSIX system: pip install "tui-games[server]"')
    asyncio.run(_bench(write, quick))
    write("")
    bench_seek_flood(write, quick=quick)
    write("")
    bench_hardening(write, quick=quick)
