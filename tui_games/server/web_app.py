"""One browser tab's app: textual-serve's ``AppService``, started and ended like an SSH player's.

textual-serve 1.1.3's ``AppService`` runs its command through a shell with a copy of the
server's whole environment, holds everything the app writes to stderr in memory, and stops
the app only by asking it to quit and waiting for as long as that takes. Here, keeping its
packet protocol (``send_bytes``, ``send_meta``, ``on_data``, ``on_meta``):

- the app is ``python -m tui_games`` run directly, with an environment built afresh: the
  server's data directory as ``TUI_GAMES_HOME``, ``TUI_GAMES_SERVED=1`` (so files stay in the
  player's folder and overwrites ask first, see player_files.py) and textual-serve's own driver
  variables; in a session and process group of its own, its address space capped
  (``--memory-mb``), both from the session host (host.py), which forks it from the web
  server's zygote when that is up; on Linux it gets SIGHUP if the server dies, even by
  SIGKILL (zygote.py: the parent-death signal, or the server's lifeline pipe), so no app
  outlives it;
- at most :data:`STDERR_KEPT` bytes of its stderr are kept (the last ones, for the log if it
  fails); a packet from it larger than :data:`MAX_PACKET` ends it;
- :meth:`TabApp.hang_up` sends SIGHUP to the group (the app saves every game in progress and
  exits, as on an SSH hang-up), SIGKILL after a grace period, so it never waits on a stuck app;
- when the app ends by itself the tab's websocket is closed, with a line saying so if it did
  not end normally (textual-serve leaves the page open on a dead app).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Awaitable, Callable

from tui_games.server.child import Child, child_env, hang_up_group, signal_group
from tui_games.server.host import SessionHost, start_app
from tui_games.ui.runtime import textual_compat

# textual-serve's AppService, its private hooks under public names (textual_compat); None
# without textual-serve (web.py turns that into one line naming the extra).
AppService = textual_compat.app_service_class()

STDERR_KEPT = 8192
# A screen of 500×200 cells in truecolor is a few MB at worst; the app never sends more.
MAX_PACKET = 32 * 1024 * 1024
# What textual-serve's driver needs from its environment (the rest of its copy of ours is dropped).
DRIVER_ENV = ("TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM", "TERM_PROGRAM_VERSION",
              "COLUMNS", "ROWS")


def app_env(home: Path, driver_env: dict[str, str]) -> dict[str, str]:
    """The environment of a tab's app: built afresh, never the server's own."""
    return child_env(home, "xterm-256color", {name: driver_env[name] for name in DRIVER_ENV if name in driver_env})


def preload_env() -> dict[str, str]:
    """What a web zygote must have in its environment before it imports Textual (which reads
    its driver, frame rate and colours then): textual-serve's driver variables."""
    env = textual_compat.driver_environment()
    return {name: env[name] for name in DRIVER_ENV if name.startswith("TEXTUAL_") and name in env}


async def _read_pipe(fd: int) -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0))
    return reader


async def _write_pipe(fd: int) -> asyncio.StreamWriter:
    loop = asyncio.get_running_loop()
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, os.fdopen(fd, "wb", 0))
    return asyncio.StreamWriter(transport, protocol, None, loop)


class TabApp(AppService if AppService is not None else object):  # type: ignore[misc]
    """A tab's app process (see the module docstring). ``on_end(status, reason)`` is called
    once when the app has gone by itself: its exit status, and None after a normal quit or a
    line for the player."""

    # The task relaying the app's output: textual-serve's, through the compat class's property.
    task: asyncio.Task[None] | None

    def __init__(self, *, argv: list[str], home: Path, memory_bytes: int | None,
                 on_end: Callable[[int | None, str | None], Awaitable[None]],
                 host: SessionHost | None = None, **kwargs) -> None:
        super().__init__(command=" ".join(argv), **kwargs)
        self.argv, self.home, self.memory_bytes, self.host = argv, home, memory_bytes, host
        self.child: Child | None = None
        self.started_by = ""  # "zygote" or "fresh"
        self._stdout: asyncio.StreamReader | None = None
        self._stderr: asyncio.StreamReader | None = None
        self.on_end = on_end
        self.stderr_tail = bytearray()
        self.started = False  # the app said it is a Textual app (its first line)
        self._hanging_up = False

    @property
    def pid(self) -> int | None:
        return None if self.child is None else self.child.pid

    @property
    def returncode(self) -> int | None:
        return None if self.child is None else self.child.returncode

    def environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return app_env(self.home, super().environment(width, height))

    async def open_app_process(self, width: int = 80, height: int = 24):
        self.home.mkdir(parents=True, exist_ok=True)
        stdin, to_app = os.pipe()
        from_app, stdout = os.pipe()
        errors, stderr = os.pipe()
        try:
            # A group of its own: the hang-up reaches everything the app started.
            self.child, self.started_by = await start_app(
                self.host, self.argv, self.environment(width, height), str(self.home),
                (stdin, stdout, stderr), tty=False, memory_bytes=self.memory_bytes, hang_up_with=os.getpid())
        except BaseException:
            for fd in (to_app, from_app, errors):
                os.close(fd)
            raise
        finally:
            for fd in (stdin, stdout, stderr):
                os.close(fd)
        self._stdout, self._stderr = await _read_pipe(from_app), await _read_pipe(errors)
        self.set_stdin(await _write_pipe(to_app))
        return self.child

    async def run(self) -> None:
        """Read the app's packets until it ends, then tell ``on_end``."""
        process = self.child
        assert process is not None and self._stdout is not None and self._stderr is not None
        stderr_task = asyncio.create_task(self._keep_stderr(self._stderr))
        try:
            reason = await self._read_packets(self._stdout)
        except (asyncio.IncompleteReadError, ConnectionError):
            reason = None  # the app's output ended, or the page's websocket did: no reason to give
        except Exception as error:  # a packet that is not what the driver sends
            self._signal_group(signal.SIGKILL)
            self.stderr_tail += f"\n{type(error).__name__}: {error}".encode()[:200]
            reason = "the game ended unexpectedly; your last save is kept"
        finally:
            await self._wait_briefly(process)
            stderr_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await stderr_task
        if self._hanging_up or process.returncode is None:
            return  # hung up, or the page went first (the tab hangs the app up)
        status = process.returncode
        if reason is None and not self.started:
            reason = "the server could not start a game; try again later"
        elif reason is None and status not in (0, None):
            reason = "the game ended unexpectedly; your last save is kept"
        await self.on_end(status, reason)

    async def _read_packets(self, stdout: asyncio.StreamReader) -> str | None:
        # The driver's first line says this is a Textual app (textual-serve reads up to ten).
        for _ in range(10):
            line = await stdout.readline()
            if not line:
                return None
            if line == b"__GANGLION__\n":
                self.started = True
                break
        if not self.started:
            return None
        handlers = {b"D": self.on_data, b"M": self.on_meta, b"P": self.on_packed}
        while True:
            kind = await stdout.readexactly(1)
            size = int.from_bytes(await stdout.readexactly(4), "big")
            if size > MAX_PACKET:
                self._signal_group(signal.SIGKILL)
                return "the game sent more than the page can take; it was stopped"
            payload = await stdout.readexactly(size)
            handler = handlers.get(kind)
            if handler is not None:
                await handler(payload)

    async def _keep_stderr(self, stderr: asyncio.StreamReader) -> None:
        while data := await stderr.read(4096):
            self.stderr_tail += data
            del self.stderr_tail[:-STDERR_KEPT]

    @staticmethod
    async def _wait_briefly(process) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(process.wait(), 2.0)

    async def hang_up(self, grace: float) -> None:
        """SIGHUP to the app's group (it saves and exits), SIGKILL after ``grace`` seconds, and
        SIGKILL to anything left in the group once the app is gone."""
        self._hanging_up = True
        process = self.child
        if process is None:
            return
        with contextlib.suppress(Exception):
            await self.cancel_downloads()
        await hang_up_group(process, grace)
        if self.task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self.task, 2.0)
            self.task = None

    async def stop(self) -> None:
        """textual-serve's stop asks the app to quit and waits as long as that takes: here it
        is a hang-up with the default grace."""
        await self.hang_up(3.0)

    def _signal_group(self, signum: int) -> None:
        signal_group(self.pid, signum)

    def stderr_text(self) -> str:
        return bytes(self.stderr_tail).decode("utf-8", "replace")

