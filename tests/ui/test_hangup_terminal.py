"""The app exits within three seconds of losing its terminal, after saving, whatever state the
terminal is in: closed under it, or alive but no longer read (its output buffer full and
Textual's writer thread blocked), then SIGTERM or SIGHUP. The real program on a real pty.

Before tui_games.ui.runtime.driver, the stalled terminal wedged the app every time (the signal never
reached the event loop) and a closed one about one time in four (the writer thread died and
its queue filled).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(os.name != "posix", reason="needs a POSIX pty")]

REPO = Path(__file__).resolve().parents[2]
EXIT_WITHIN = 3.0


def start_app(home: Path) -> tuple[subprocess.Popen, int]:
    """``play connect4`` on a new pty that is its controlling terminal; (process, master fd)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor", "TUI_GAMES_HOME": str(home),
           "PYTHONPATH": str(REPO)}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen([sys.executable, "-m", "tui_games", "play", "connect4", "--opponent", "human"],
                               stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True,
                               preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    return process, master


def read_until(fd: int, needle: bytes, timeout: float = 30.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    assert needle in seen, f"the app never showed {needle!r}"
    return seen


def drain(fd: int, seconds: float) -> None:
    """Read what the app writes for ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            try:
                os.read(fd, 65536)
            except OSError:
                return


def saved_history(home: Path) -> list | None:
    try:
        return json.loads((home / "saves" / "connect4.json").read_text())["state"]["history"]
    except (OSError, ValueError, KeyError):
        return None


def play_a_move(master: int, home: Path) -> None:
    read_until(master, b"to move")
    os.write(master, b"4")  # a disc in the middle column: a game worth saving
    deadline = time.monotonic() + 30
    while saved_history(home) != [3] and time.monotonic() < deadline:
        drain(master, 0.1)  # keep the terminal read while the app answers
    assert saved_history(home) == [3], "the move never reached the saved game"
    # From here the test checks the hang-up's own save: the file goes, the move stays.
    (home / "saves" / "connect4.json").unlink()


def assert_gone_and_saved(process: subprocess.Popen, home: Path) -> None:
    try:  # (a wait for the exit, EXIT_WITHIN its ceiling)
        process.wait(timeout=EXIT_WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(f"the app was still running {EXIT_WITHIN:g} s after losing its terminal")
    assert saved_history(home) == [3], "the hang-up did not save the game"


@pytest.mark.parametrize("attempt", range(3))
def test_closing_the_terminal_under_a_repainting_app(tmp_path, attempt):
    process, master = start_app(tmp_path)
    try:
        play_a_move(master, tmp_path)
        for _ in range(30):  # sixty cursor keys: repaints on their way when the terminal goes
            os.write(master, b"\x1b[C\x1b[D")
    finally:
        os.close(master)
    assert_gone_and_saved(process, tmp_path)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_terminal_nobody_reads_then_a_signal(tmp_path, signum):
    process, master = start_app(tmp_path)
    try:
        play_a_move(master, tmp_path)
        # Stop reading and keep the app repainting (keys and resizes) until its writes block:
        # the kernel's buffer fills, then Textual's writer queue.
        flags = fcntl.fcntl(master, fcntl.F_GETFL)
        fcntl.fcntl(master, fcntl.F_SETFL, flags | os.O_NONBLOCK)
        for i in range(400):
            try:
                os.write(master, b"\x1b[C\x1b[D")
                fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24 + i % 3, 80 + i % 5, 0, 0))
                os.killpg(process.pid, signal.SIGWINCH)
            except OSError:
                pass
            time.sleep(0.005)
        time.sleep(0.5)
        assert process.poll() is None
        os.killpg(process.pid, signum)
        assert_gone_and_saved(process, tmp_path)
    finally:
        os.close(master)
