"""Runs the real app on a pseudo-terminal and measures what a remote player would feel:
bytes sent per keypress, bytes sent while idle, and the delay from a key to the first byte
of the answer while the engine is busy.

Used by ``tui-games bench terminal`` and by a loose regression test. POSIX only (pty).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

from tui_games.data.connect4_book import BOOK_ENV
from tui_games.games import GAMES

RIGHT, LEFT = b"\x1b[C", b"\x1b[D"
# A screen counts as settled when it has been quiet this long.
QUIET = 0.4


@dataclass
class App:
    """The app on a pty: write keys, read what it draws."""

    process: subprocess.Popen
    fd: int
    home: Path
    received: int = 0
    log: list[tuple[float, int]] = field(default_factory=list)

    @classmethod
    def start(cls, args: list[str], *, width: int = 80, height: int = 24, env: dict | None = None,
              settings: str | None = None) -> App:
        home = Path(tempfile.mkdtemp(prefix="tui-games-probe-"))
        if settings is not None:
            (home / "settings.json").write_text(settings)
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        environment = {key: value for key, value in os.environ.items() if key not in ("NO_COLOR", "TEXTUAL")}
        environment.update({"TERM": "xterm-256color", "COLORTERM": "truecolor", "TUI_GAMES_HOME": str(home)})
        environment.update(env or {})
        process = subprocess.Popen([sys.executable, "-m", "tui_games", *args], stdin=slave, stdout=slave,
                                   stderr=slave, env=environment, start_new_session=True, close_fds=True)
        os.close(slave)
        return cls(process, master, home)

    def read(self, timeout: float) -> int:
        """Read what arrives within ``timeout`` seconds; the number of bytes."""
        got = 0
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return got
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return got
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the app is gone
                return got
            if not chunk:
                return got
            got += len(chunk)
            self.received += len(chunk)
            self.log.append((time.monotonic(), len(chunk)))

    def settle(self, limit: float = 20.0, drawn: int = 5000) -> None:
        """Wait until the app has drawn its screen (at least ``drawn`` bytes: the terminal
        set-up alone is a few hundred) and gone quiet."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.read(QUIET) == 0 and self.received >= drawn:
                return
        raise TimeoutError("the app never went quiet")

    def key_bytes(self, key: bytes) -> int:
        """Send a key; the bytes the app answers with until it is quiet again."""
        os.write(self.fd, key)
        total = 0
        while True:
            got = self.read(0.15)
            if not got:
                return total
            total += got

    def answer_delay(self, key: bytes, marker: bytes, limit: float = 2.0) -> float | None:
        """Send a key; seconds until the output shows ``marker`` (None if it never does).

        While the engine thinks the app also sends its progress, so the first byte after a
        key may have nothing to do with it: the marker is what the key itself draws."""
        self.read(0)  # drop what was already waiting
        start = time.monotonic()
        os.write(self.fd, key)
        seen = b""
        while time.monotonic() - start < limit:
            ready, _, _ = select.select([self.fd], [], [], limit)
            if not ready:
                return None
            chunk = os.read(self.fd, 65536)
            seen = seen[-16:] + chunk
            if marker in seen:
                return time.monotonic() - start
        return None

    def wait_for(self, marker: bytes, limit: float = 20.0) -> None:
        seen = b""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.fd], [], [], 0.1)
            if ready:
                seen += os.read(self.fd, 65536)
                if marker in seen:
                    return
        raise TimeoutError(f"the app never showed {marker!r}")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, b"\x11")  # ctrl+q
        try:
            self.process.wait(timeout=3)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        os.close(self.fd)
        shutil.rmtree(self.home, ignore_errors=True)


def screens() -> dict[str, list[str]]:
    """Every game's board, opened straight into a game with a cursor to move (the game
    table's ``probe`` arguments), by title."""
    return {spec.title: list(spec.probe) for spec in GAMES}


@dataclass
class ScreenFigures:
    name: str
    first_draw: int
    key_median: float
    key_max: int
    idle_bytes: int
    idle_seconds: float


def measure_screen(name: str, args: list[str], *, keys: int = 20, idle_seconds: float = 3.0,
                   width: int = 80, height: int = 24) -> ScreenFigures:
    app = App.start(args, width=width, height=height)
    try:
        app.settle()
        first = app.received
        sizes = []
        for i in range(keys):
            # Right then left, over and over: the cursor moves and comes back.
            sizes.append(app.key_bytes(RIGHT if (i // 2) % 2 == 0 else LEFT))
        app.settle()
        idle = app.read(idle_seconds)
    finally:
        app.close()
    return ScreenFigures(name, first, statistics.median(sizes), max(sizes), idle, idle_seconds)


@dataclass
class LatencyFigures:
    samples: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p95(self) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure_latency(keys: int = 40, interval: float = 0.1) -> LatencyFigures:
    """Key to its repaint while the Connect-4 perfect player thinks on the empty board. With
    its opening book that move is instant, so the app runs without the book here: the
    solver's own search from the empty board is far too deep to finish, so it searches the
    whole minute of its budget -- the engine's hot loop at its busiest. The key moves the
    column cursor; its answer is the new column's label, ``[N]``, in the header."""
    settings = '{"connect4": {"seconds": 60.0}}'
    app = App.start(["play", "connect4", "--opponent", "perfect", "--first", "computer"], settings=settings,
                    env={BOOK_ENV: ""})
    samples = []
    column = 4  # the cursor starts in the centre column
    try:
        app.wait_for(b"thinking")
        for i in range(keys):
            step = 1 if (i // 3) % 2 == 0 else -1
            column += step
            delay = app.answer_delay(RIGHT if step > 0 else LEFT, f"[{column}]".encode())
            if delay is not None:
                samples.append(delay)
            time.sleep(interval)
    finally:
        app.close()
    if not samples:
        raise RuntimeError("the app never answered a key")
    return LatencyFigures(samples)
