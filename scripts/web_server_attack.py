"""The web server (`tui-games serve --web`) attacked on loopback, as a table.

    python scripts/web_server_attack.py [--flood-seconds 20] [--tabs 4] [--refused 2000]

Runs the real command in a child process with its own data directory, then:

- **input flood**: one tab sends the keys ``jjjjkkkk`` as fast as the websocket carries them
  (32 KB messages) for ``--flood-seconds``: the server's resident memory before, at its peak
  and after (back-pressure keeps it flat; the app takes keys as fast as it reads them);
- **foreign origins**: ``--refused`` websocket handshakes from ``https://evil.example``, all
  refused: how long they take and how many log lines they cost (at most one a second);
- **SIGTERM** with ``--tabs`` tabs open at the menu: seconds until the server has exited,
  every app hung up (CPU time of this script beside it; the machine may be shared).

Needs the server extra (textual-serve brings aiohttp, whose client this uses).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from tui_games.bench.table import machine_line, write_table

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def start_server(home: Path) -> tuple[asyncio.subprocess.Process, int]:
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_games", "serve", "--web", "--port", "0", "--max-sessions", "64",
        stderr=asyncio.subprocess.PIPE, env={**os.environ, "TUI_GAMES_HOME": str(home),
                                             "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    line = (await asyncio.wait_for(server.stderr.readline(), 60)).decode()
    match = re.search(r"listening address=127\.0\.0\.1:(\d+)", line)
    if not match:
        raise SystemExit(f"the server did not start: {line}")
    return server, int(match[1])


async def open_tab(session: aiohttp.ClientSession, port: int):
    websocket = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width=80&height=24",
                                         origin=f"http://127.0.0.1:{port}")
    seen = b""
    while b"Sudoku" not in seen:
        message = await asyncio.wait_for(websocket.receive(), 60)
        if message.type is not aiohttp.WSMsgType.BINARY:
            raise SystemExit(f"the tab closed: {message}")
        seen += message.data
    return websocket


async def flood(server, port: int, seconds: float) -> list[list[str]]:
    async with aiohttp.ClientSession() as session:
        websocket = await open_tab(session, port)

        async def drain() -> None:
            async for _ in websocket:
                pass

        reader = asyncio.create_task(drain())
        before = peak = rss_mb(server.pid)
        keys = '["stdin", "' + "jjjjkkkk" * 4000 + '"]'
        sent, started = 0, time.monotonic()
        while time.monotonic() - started < seconds:
            try:
                await asyncio.wait_for(websocket.send_str(keys), max(0.1, seconds - (time.monotonic() - started)))
            except asyncio.TimeoutError:
                break
            sent += len(keys)
            peak = max(peak, rss_mb(server.pid))
        after = rss_mb(server.pid)
        reader.cancel()
    return [["input flood", f"{seconds:g} s, {sent / 1e6:,.1f} MB of keys taken",
             f"{before:,.0f} MB", f"{peak:,.0f} MB", f"{after:,.0f} MB"]]


async def foreign(server, port: int, count: int) -> list[list[str]]:
    refused, started = 0, time.monotonic()
    async with aiohttp.ClientSession() as session:
        for _ in range(count):
            try:
                await session.ws_connect(f"http://127.0.0.1:{port}/ws", origin="https://evil.example")
            except aiohttp.WSServerHandshakeError as error:
                refused += error.status == 403
    return [["foreign origins", f"{refused:,} of {count:,} refused (403) in {time.monotonic() - started:.1f} s",
             "", f"{rss_mb(server.pid):,.0f} MB", ""]]


async def sigterm(server, port: int, tabs: int) -> tuple[list[list[str]], str]:
    async with aiohttp.ClientSession() as session:
        sockets = [await open_tab(session, port) for _ in range(tabs)]
        started, cpu = time.monotonic(), time.process_time()
        server.send_signal(signal.SIGTERM)
        status = await asyncio.wait_for(server.wait(), 60)
        wall = time.monotonic() - started
        for websocket in sockets:
            await websocket.close()
    log = (await server.stderr.read()).decode()
    hung_up = len(re.findall(r"hangup .*reason=\"the server is shutting down\"", log))
    return [["SIGTERM", f"{tabs} tabs open: exit {status} in {wall:.2f} s, {hung_up} hung up",
             "", "", f"cpu {time.process_time() - cpu:.2f} s"]], log


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="tui-games-web-attack-") as home:
        server, port = await start_server(Path(home))
        try:
            rows = await flood(server, port, args.flood_seconds)
            rows += await foreign(server, port, args.refused)
            more, log = await sigterm(server, port, args.tabs)
            rows += more
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()
    print(machine_line())
    write_table(print, ["attack", "what", "server RSS before", "peak", "after"], rows, left=(0, 1))
    refused_lines = len(re.findall(r" refused from=", log))
    print(f"log: {refused_lines} 'refused' lines for {args.refused} refusals")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood-seconds", type=float, default=20.0)
    parser.add_argument("--tabs", type=int, default=4)
    parser.add_argument("--refused", type=int, default=2000)
    asyncio.run(main(parser.parse_args()))
