"""A terminal driver that lets the app exit when its terminal is gone or stuck.

Textual's ``LinuxDriver`` hands every write to a ``WriterThread`` through a queue of 30
items. Two ways that wedges the app for good (seen after tmux was killed, and under an SSH
client that stopped reading):

- the terminal is gone: the writer's ``write`` raises (EIO), the thread dies, the queue fills,
  and the next ``Queue.put`` on the app's thread blocks forever;
- the terminal is alive but nobody reads it: the writer blocks in ``write``, the queue fills,
  and the app's thread blocks in ``Queue.put`` — so the event loop never runs the SIGTERM or
  SIGHUP handler that would save and exit.

:class:`HangUpSafeDriver` keeps the writer thread and the queue, and makes both waits end:

- the writer writes through :class:`TerminalOutput`, which never raises, writes in small
  pieces only when the terminal can take them, and drops everything once the terminal is
  gone (an error, or :meth:`TerminalOutput.give_up`);
- the app's writes wait for room in the queue a tenth of a second at a time and return at once
  when the terminal is gone; closing does not wait for a terminal that is gone.

:func:`catch_hang_up` installs SIGHUP and SIGTERM handlers that work even while the app's
thread is stuck: they run on the main thread between two waits, tell the output the terminal
is gone (SIGHUP) or give it one second to drain (SIGTERM), and ask the app to save and exit;
a last-resort timer ends the process if that has not happened within :data:`EXIT_DEADLINE`.

:class:`BoundedInput` makes the app read keys no faster than it handles them. Textual's input
thread reads whatever the terminal holds and queues an event per key: ``yes | ssh -tt`` grew
an app from 44 MB to its 1 GB cap in seconds. Here the input thread waits while more than
:data:`MAX_PENDING` input events are on their way to (or waiting in) the app and the widget
that has the focus; the keys then wait in the terminal, the server stops reading the player
(sessions.py), and the client's own window fills. Nothing is dropped, so no key a person typed
is lost and no state can be skipped. Both drivers the app runs under get it: the terminal's
(over SSH) and the web's (textual-serve).
"""

from __future__ import annotations

import asyncio
import os
import queue
import select
import signal
import threading
import time
from collections import deque
from collections.abc import Callable

from textual import events
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.web_driver import WebDriver

from tui_games.ui.runtime import textual_compat

# Bytes written at once: a write the terminal cannot take whole blocks until it can, so keep
# each one small and ask select() first.
CHUNK = 1024
POLL = 0.1
# After SIGTERM the terminal may still be there: it gets this long to take the last frames.
DRAIN_SECONDS = 1.0
# After a hang-up signal the process is gone within this many seconds, whatever happens.
EXIT_DEADLINE = 2.8
# Input events on their way to the app, or waiting in its queues, before the reader waits.
MAX_PENDING = 16
# The longest one event waits for room: an app stuck elsewhere (or exiting) still gets its
# keys, one a second at most, and the reader never blocks shutdown for long.
MAX_WAIT = 1.0
ROOM_POLL = 0.005


class BoundedInput:
    """A driver mixin: input events go to the app only when it has room (see the module)."""

    exit_event: threading.Event

    def send_message(self, message) -> None:
        if not isinstance(message, events.InputEvent):
            super().send_message(message)  # type: ignore[misc]
            return
        self._wait_for_room()
        # As Driver.send_message, keeping the future to know when the app has queued it.
        flights: deque = self.__dict__.setdefault("_flights", deque())
        flights.append(textual_compat.post_input(self, message))  # type: ignore[arg-type]

    def _wait_for_room(self) -> None:
        deadline = time.monotonic() + MAX_WAIT
        while self._pending() >= MAX_PENDING and time.monotonic() < deadline and not self.exit_event.is_set():
            time.sleep(ROOM_POLL)

    def _pending(self) -> int:
        """Input events not yet handled: in the app's queue and the focused widget's (read from
        the input thread: a size may be a moment old, which only shifts the wait a little)."""
        app = textual_compat.driver_app(self)  # type: ignore[arg-type]
        try:
            pumps = {app, app.screen, app.focused or app.screen}
        except Exception:  # no screen yet, or the app is closing: nothing to wait for
            return 0
        return sum(pump.message_queue_size for pump in pumps) + self._in_flight()

    def _in_flight(self) -> int:
        """Events handed to the app's loop that it has not queued yet."""
        flights: deque = self.__dict__.setdefault("_flights", deque())
        while flights and flights[0].done():
            flights.popleft()
        return len(flights)


class TerminalOutput:
    """The file the writer thread writes to: the terminal's descriptor, written with
    ``os.write`` in pieces it can take, and silent once the terminal is gone."""

    def __init__(self, file) -> None:
        self._file = file
        self._fd = file.fileno()
        self.gone = threading.Event()

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return True

    def give_up(self) -> None:
        """Drop every write from now on (the terminal is gone, or is not worth waiting for)."""
        self.gone.set()

    def write(self, text: str) -> int:
        data = memoryview(text.encode("utf-8", "replace"))
        while data and not self.gone.is_set():
            try:
                _, ready, _ = select.select([], [self._fd], [], POLL)
                if ready:
                    data = data[os.write(self._fd, data[:CHUNK]):]
            except InterruptedError:
                continue
            except (OSError, ValueError):  # EIO, EPIPE, EBADF: the terminal is gone
                self.give_up()
        return len(text)

    def flush(self) -> None:
        """Nothing to flush: every write goes straight to the descriptor."""


class HangUpSafeDriver(BoundedInput, LinuxDriver):
    """``LinuxDriver`` whose writes never wait for a terminal that is gone and whose input waits
    for the app (see the module)."""

    def __init__(self, app, **kwargs) -> None:
        super().__init__(app, **kwargs)
        self.output = TerminalOutput(textual_compat.driver_file(self))
        textual_compat.set_driver_file(self, self.output)

    def write(self, data: str) -> None:
        writer = textual_compat.writer_thread(self)
        assert writer is not None, "Driver must be in application mode"
        # Waiting on the writer thread's queue in short steps is the one change that matters
        # here (the hang-up tests fail without it).
        writes = textual_compat.writer_queue(writer)
        while not self.output.gone.is_set():
            try:
                writes.put(data, timeout=POLL)
                return
            except queue.Full:
                continue

    def close(self) -> None:
        writer = textual_compat.writer_thread(self)
        if writer is None or self.output.gone.is_set():
            return  # a daemon thread: it ends with the process
        while not self.output.gone.is_set():
            try:
                textual_compat.writer_queue(writer).put(None, timeout=POLL)
                break
            except queue.Full:
                continue
        writer.join(timeout=DRAIN_SECONDS)


def catch_hang_up(hang_up: Callable[[], None], output: Callable[[], TerminalOutput | None]) -> None:
    """On SIGHUP or SIGTERM: stop waiting for the terminal, call ``hang_up`` on the app's loop
    (it saves and exits), and make sure the process ends within :data:`EXIT_DEADLINE`.

    ``output`` returns the driver's :class:`TerminalOutput` (None before the driver exists).
    Call from the main thread, with the app's loop running."""
    loop = asyncio.get_running_loop()
    fired = threading.Event()

    def handler(signum: int, frame) -> None:
        terminal = output()
        if terminal is not None:
            if signum == signal.SIGHUP:
                terminal.give_up()
            else:
                drained = threading.Timer(DRAIN_SECONDS, terminal.give_up)
                drained.daemon = True
                drained.start()
        if fired.is_set():
            return
        fired.set()
        # The process goes, even if the app cannot get to its own exit (its saves are on disk
        # after every change; the hang-up save is the last one).
        deadline = threading.Timer(EXIT_DEADLINE, os._exit, (0,))
        deadline.daemon = True
        deadline.start()
        try:
            loop.call_soon_threadsafe(hang_up)
        except RuntimeError:  # the loop has closed: the app is on its way out already
            pass

    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, handler)


class BoundedWebDriver(BoundedInput, WebDriver):
    """The web's driver (textual-serve) with its input waiting for the app."""


__all__ = ["DRAIN_SECONDS", "EXIT_DEADLINE", "BoundedWebDriver", "HangUpSafeDriver", "TerminalOutput",
           "catch_hang_up"]
