"""One player's app: a process on its own pseudo-terminal, in its own session and process group.

Why a process per player: the engine searches in the app's threads and holds the GIL, so
players sharing a process would share one core's worth of searching and slow each other's
screens; a crash or a runaway search stays inside one session too.

Why a session of its own with the pty as controlling terminal: the kernel then delivers
SIGWINCH to the app when the window size changes (TIOCSWINSZ on the master), and the whole
process group can be hung up and killed at once when the player goes.

On the way out the group gets SIGHUP (the app saves every game in progress and exits, see
``TuiGamesApp.hang_up``), then SIGKILL after a grace period, so nothing is ever left running.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import struct
import termios
from typing import Callable, Sequence

from tui_games.server.child import Child, hang_up_group
from tui_games.server.host import SessionHost, start_app

READ_CHUNK = 65536
# Keys held for an app that is not reading them; past INPUT_HIGH the caller is told to stop
# reading its client (back-pressure), and told again once they are down to INPUT_LOW.
INPUT_HIGH = 64 * 1024
INPUT_LOW = 16 * 1024
# A window bigger than any screen is an attack on the app's memory (a 10000×10000 window made
# a 100 MB first frame): sizes are clamped to this.
MAX_COLUMNS, MAX_ROWS = 500, 200


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """A window size the app may be given: 80×24 for an unknown (0) size, at most 500×200."""
    columns = columns if columns and columns > 0 else 80
    rows = rows if rows and rows > 0 else 24
    return min(columns, MAX_COLUMNS), min(rows, MAX_ROWS)


def set_size(fd: int, columns: int, rows: int) -> None:
    """Tell the pty its window size; the kernel signals the foreground group (SIGWINCH)."""
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


class PtyApp:
    """A command on a fresh pty: feed it keys, get its screen bytes, resize it, hang it up.

    ``on_output(data)`` receives everything the program writes; ``on_output`` may be swapped
    (to a no-op once the player is gone) at any time. ``on_input_pressure(True)`` says the keys
    waiting for the program passed INPUT_HIGH (stop reading the player), ``(False)`` that they
    are down to INPUT_LOW.
    """

    def __init__(self, argv: Sequence[str], env: dict[str, str], columns: int, rows: int,
                 on_output: Callable[[bytes], None], cwd: str | None = None,
                 memory_bytes: int | None = None,
                 on_input_pressure: Callable[[bool], None] | None = None,
                 host: SessionHost | None = None) -> None:
        self.argv, self.env, self.cwd = list(argv), env, cwd
        self.size = clamp_size(columns, rows)
        self.on_output = on_output
        self.on_input_pressure = on_input_pressure
        self._pressed = False
        self.memory_bytes = memory_bytes
        self.host = host  # its zygote, if it has one, starts the app
        self.process: Child | None = None
        self.started_by = ""  # "zygote" or "fresh"
        self.pgid: int | None = None
        self._master: int | None = None
        self._pending = bytearray()  # keys not yet taken by the pty
        self._reading = False
        self._paused = False
        self._eof = asyncio.Event()

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.returncode

    async def start(self) -> None:
        master, slave = os.openpty()
        try:
            set_size(slave, *self.size)
            os.set_blocking(master, False)
            self.process, self.started_by = await start_app(
                self.host, self.argv, self.env, self.cwd or os.getcwd(), (slave, slave, slave), tty=True,
                memory_bytes=self.memory_bytes)
        except BaseException:
            os.close(master)
            raise
        finally:
            # Only the child holds the slave now, so its exit shows as EOF (EIO) on the master.
            os.close(slave)
        self._master = master
        # The child made a session of its own: its pid is the group.
        self.pgid = self.process.pid
        self._watch_output()

    # -- output --------------------------------------------------------------------------------

    def _watch_output(self) -> None:
        if self._master is not None and not self._reading and not self._paused and not self._eof.is_set():
            asyncio.get_running_loop().add_reader(self._master, self._read)
            self._reading = True

    def _unwatch_output(self) -> None:
        if self._reading and self._master is not None:
            asyncio.get_running_loop().remove_reader(self._master)
        self._reading = False

    def _read(self) -> None:
        # A pty gives at most about 4 KB a read, so one frame came as two to four pieces, and
        # each piece became an SSH packet of its own (encrypted, sent, a syscall each): take
        # all that is waiting, up to READ_CHUNK, and pass it on at once.
        master = self._master
        if master is None:  # closed while the loop had the read queued
            return
        pieces: list[bytes] = []
        size = 0
        while size < READ_CHUNK:
            try:
                data = os.read(master, READ_CHUNK - size)
            except BlockingIOError:
                break
            except OSError as error:
                if error.errno != errno.EIO:  # EIO: every slave descriptor is closed
                    raise
                data = b""
            if not data:
                if pieces:  # the end is seen again at the next call, after these bytes
                    break
                self._unwatch_output()
                self._eof.set()
                return
            pieces.append(data)
            size += len(data)
        if pieces:
            self.on_output(pieces[0] if len(pieces) == 1 else b"".join(pieces))

    def pause_output(self) -> None:
        """The client is not keeping up: stop reading, so the pty fills and the app waits."""
        self._paused = True
        self._unwatch_output()

    def resume_output(self) -> None:
        self._paused = False
        self._watch_output()

    # -- input and size ------------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self._master is None or self._eof.is_set():
            return
        self._pending += data
        self._flush_input()

    def _flush_input(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending and self._master is not None:
            try:
                written = os.write(self._master, self._pending)
            except BlockingIOError:
                break
            except OSError:  # the app is gone; its keys go with it
                self._pending.clear()
                break
            del self._pending[:written]
        if self._master is not None:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_writer(self._master)
        if self._pending and self._master is not None:
            loop.add_writer(self._master, self._flush_input)
        self._tell_pressure()

    def _tell_pressure(self) -> None:
        waiting = len(self._pending)
        pressed = waiting > INPUT_HIGH if not self._pressed else waiting > INPUT_LOW
        if pressed != self._pressed:
            self._pressed = pressed
            if self.on_input_pressure is not None:
                self.on_input_pressure(pressed)

    def resize(self, columns: int, rows: int) -> None:
        if columns <= 0 or rows <= 0 or self._master is None:
            return
        self.size = columns, rows = clamp_size(columns, rows)
        with contextlib.suppress(OSError):
            set_size(self._master, columns, rows)

    # -- the end -------------------------------------------------------------------------------

    async def wait(self) -> int:
        """Wait for the app to exit and its last output to be read; returns its exit status."""
        assert self.process is not None
        status = await self.process.wait()
        # The final screen restore may still sit in the pty; take it (briefly: a stray
        # descendant holding the slave must not keep us here).
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._eof.wait(), 1.0)
        self.close()
        return status

    async def hang_up(self, grace: float) -> None:
        """SIGHUP to the group (the app saves and exits), SIGKILL after ``grace`` seconds, and
        SIGKILL to anything left in the group once the app is gone."""
        if self.process is None:
            return
        await hang_up_group(self.process, grace)
        self.close()

    def close(self) -> None:
        if self._master is None:
            return
        self._unwatch_output()
        loop = asyncio.get_running_loop()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(self._master)
        os.close(self._master)
        self._master = None
        self._eof.set()
