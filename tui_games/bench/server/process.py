"""The server under benchmark: ``tui-games serve --ssh`` as a subprocess of its own, its
open-file limit held at OPEN_FILES (as under systemd's default), its resident memory read; a
bench's lobby alone in a process of its own."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

try:
    import resource
except ImportError:  # pragma: no cover - not on every platform
    resource = None  # type: ignore[assignment]

OPEN_FILES = 1024


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _limit_open_files() -> None:
    if resource is not None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


class BenchServer:
    def __init__(self, home: Path, options: list[str] | None = None) -> None:
        self.home, self.log = home, home / "server.log"
        self.options = options or []  # more of serve's options
        self.process: asyncio.subprocess.Process | None = None
        self.port = 0

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", "0", "--log", str(self.log), *self.options,
            env={**os.environ, "TUI_GAMES_HOME": str(self.home)}, preexec_fn=_limit_open_files,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        self.port = await listening_port(self.log, 60)  # a busy machine starts slowly

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the bench's server has not started")
        return self.process.pid

    @property
    def rss(self) -> float:
        return rss_mb(self.pid)

    async def stop(self) -> None:
        if self.process and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 15)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()


def pipes(process: asyncio.subprocess.Process) -> tuple[asyncio.StreamWriter, asyncio.StreamReader]:
    """The stdin and stdout of a process started with both piped."""
    if process.stdin is None or process.stdout is None:
        raise RuntimeError("the process was started without its pipes")
    return process.stdin, process.stdout


async def lobby_process(code: str, what: str) -> asyncio.subprocess.Process:
    """``python -c code`` with its stdin and stdout piped, once it has printed "ready": a
    bench's lobby process, which runs until its stdin closes; RuntimeError naming ``what`` if
    it says anything else or nothing within 60 s (the bench's ceiling: a busy machine starts
    slowly)."""
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", code, stdin=asyncio.subprocess.PIPE,
                                                   stdout=asyncio.subprocess.PIPE)
    line = await asyncio.wait_for(pipes(process)[1].readline(), 60)
    if line.strip() != b"ready":
        raise RuntimeError(f"{what} did not start")
    return process


async def listening_port(log: Path, seconds: float) -> int:
    """The port a benched ``serve`` says in its log it listens on, once it does; RuntimeError
    if it has not within ``seconds`` (the bench's own ceiling, not an assert on its speed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = re.search(r"listening address=\S+:(\d+)", log.read_text() if log.exists() else "")
        if found:
            return int(found[1])
        await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")
