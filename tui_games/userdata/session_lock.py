"""Which app session of a data directory may write its saved games: the one holding
``session.lock``.

Two apps can share one data directory: two SSH logins of one player, two browser tabs of
``serve --web``, two local terminals. Scores, records, arena runs and settings are
read-modify-writes under the store's lock, so both sessions' changes survive; a saved game is
a whole document, and two sessions writing it would silently keep the last writer's (a Sudoku
digit written in one tab was lost when the other tab saved). So only one session at a time
writes saved games: the one that holds an exclusive ``flock`` on ``session.lock`` for its life.
The others open them read-only and may ask to take over.

Why ``flock``: the kernel lets it go when the holder's last descriptor closes, which happens
when the process exits or is killed (``kill -9`` included), so a lock is never stale and
there is no pid to check or lease to expire. The holder writes its pid and start time into the
file, for the notice the other sessions show; nothing relies on them.

Taking over: the asking session creates ``session.takeover`` and holds a ``flock`` on it while
it waits; the holder looks for that file twice a second (one ``stat``, no redraw), saves its
games, lets ``session.lock`` go and becomes read-only; the asker then takes ``session.lock``
and removes the request. A request file whose ``flock`` anyone can take is left over from an
asker that died, and is ignored and removed. We chose a file the holder watches rather than a
signal to its pid because it needs nothing the two sessions do not already share — the data
directory: no permission to signal another process (a server's sessions, a web server's
tabs), no pid namespace in common, no handler in a particular thread (apps under a test
harness or a non-main thread install none), no race with a pid being reused, and a killed asker
leaves no request anyone obeys. It costs up to half a second of latency.

This module knows nothing of Textual or of the store's files; the store owns a SessionLock and
the app drives the take-over (tui_games.ui.app).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from tui_games.userdata.file_lock import lock

LOCK_NAME = "session.lock"
REQUEST_NAME = "session.takeover"
# The holder's details are small; a file bigger than this is not ours to parse.
MAX_INFO_BYTES = 4096


@dataclass(frozen=True)
class Holder:
    """What the session holding the lock wrote about itself (for the notice)."""

    pid: int | None = None
    host: str = ""
    since: str = ""  # local time, HH:MM

    def running(self) -> bool:
        """Whether the holder still seems to run, for the notice only: its pid is there and
        alive on this machine (a session of another machine is taken to run). A dead pid (the
        holder ended, or was killed) says no; a pid reused since says yes."""
        if self.pid is None:
            return False
        if self.host and self.host != socket.gethostname():
            return True
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except OSError:  # PermissionError: alive, someone else's
            return True
        return True

    def describe(self) -> str:
        """``pid 1234 since 09:12`` (``on HOST`` when it is another machine); "" if unknown."""
        parts = []
        if self.pid is not None:
            parts.append(f"pid {self.pid}")
        if self.host and self.host != socket.gethostname():
            parts.append(f"on {self.host}")
        if self.since:
            parts.append(f"since {self.since}")
        return " ".join(parts)


def _try_lock(fd: int) -> bool:
    """An exclusive lock on ``fd`` if nobody has one; False if somebody does. OSError for
    anything else (no locking on this file system)."""
    return lock(fd, wait=False)


# The holder truncates and writes the file it opens: never through a symlink planted in the
# data directory (it could point at any file the account can write).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _open(path: Path) -> int:
    # os.open's descriptors are not inherited by programs the app starts (PEP 446), so a child
    # cannot keep the lock alive after the app is gone.
    return os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)


class SessionLock:
    """The session lock of the data directory ``root``.

    ``acquire()`` takes it if it is free. ``held`` says whether this session has it;
    ``unavailable`` holds the reason when the directory offers no lock at all (a read-only
    directory, a file system without locks): then nobody can coordinate and the session writes
    as it always did.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._fd: int | None = None
        self._request_fd: int | None = None
        self.unavailable = ""

    @property
    def path(self) -> Path:
        return self.root / LOCK_NAME

    @property
    def request_path(self) -> Path:
        return self.root / REQUEST_NAME

    @property
    def held(self) -> bool:
        return self._fd is not None

    # -- holding --------------------------------------------------------------------------------

    def acquire(self) -> bool:
        """Take the lock if nobody holds it; True if this session holds it now (or no lock can
        be had here at all: see ``unavailable``)."""
        if self._fd is not None:
            return True
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            fd = _open(self.path)
        except OSError as exc:
            self.unavailable = f"could not open {LOCK_NAME}: {exc.strerror or exc}"
            return True
        try:
            locked = _try_lock(fd)
        except OSError as exc:
            os.close(fd)
            self.unavailable = f"could not lock {LOCK_NAME}: {exc.strerror or exc}"
            return True
        if not locked:
            os.close(fd)
            return False
        self._fd = fd
        self.unavailable = ""
        info = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.strftime("%H:%M")}
        with contextlib.suppress(OSError):  # the details are for people; the lock is what counts
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(info) + "\n").encode(), 0)
        return True

    def release(self) -> None:
        """Let the lock go (the kernel does the same when the process ends)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            # The details stay: the next holder writes its own, and until then a dead pid says
            # to the others that this session has ended (Holder.running).
            os.close(fd)

    def holder(self) -> Holder:
        """Who holds the lock, as it wrote; an empty Holder if that cannot be read."""
        try:
            with open(self.path, "rb") as handle:
                data = json.loads(handle.read(MAX_INFO_BYTES).decode("utf-8"))
        except (OSError, ValueError):
            return Holder()
        if not isinstance(data, dict):
            return Holder()
        pid = data.get("pid")
        host, since = data.get("host"), data.get("since")
        return Holder(pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
                      host[:64] if isinstance(host, str) else "", since[:5] if isinstance(since, str) else "")

    # -- taking over: the session that asks ----------------------------------------------------

    def request_takeover(self) -> bool:
        """Ask the holder to hand over: make the request and hold it while waiting. False if
        another session is asking already (or the request cannot be made)."""
        if self._request_fd is not None:
            return True
        for _ in range(3):
            try:
                fd = _open(self.request_path)
            except OSError:
                return False
            try:
                locked = _try_lock(fd)
            except OSError:
                os.close(fd)
                return False
            if not locked:
                os.close(fd)
                return False
            # The file we locked may have been removed (by the asker before us) between our open
            # and our lock: then the holder cannot see it. Check it is still the one at the path.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.request_path))
            except OSError:
                same = False
            if same:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, 0)
                    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
                self._request_fd = fd
                return True
            os.close(fd)
        return False

    def end_request(self) -> None:
        """Withdraw the request (taken over, or given up): remove the file, then unlock it."""
        fd, self._request_fd = self._request_fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.request_path)
        os.close(fd)

    @property
    def requesting(self) -> bool:
        return self._request_fd is not None

    # -- taking over: the session that holds --------------------------------------------------

    def takeover_requested(self) -> bool:
        """Whether another session is waiting for this one to hand over. A left-over request
        (its asker is gone: anyone can lock it) is removed and does not count."""
        if self._fd is None or self._request_fd is not None:
            return False
        if not os.path.exists(self.request_path):  # the common case: one stat
            return False
        try:
            fd = os.open(self.request_path, os.O_RDWR | _NOFOLLOW)
        except OSError:
            return False
        try:
            if _try_lock(fd):
                with contextlib.suppress(OSError):
                    if os.path.samestat(os.fstat(fd), os.stat(self.request_path)):
                        os.unlink(self.request_path)
                return False
            return True
        except OSError:
            return False
        finally:
            os.close(fd)

    def close(self) -> None:
        self.end_request()
        self.release()


__all__ = ["LOCK_NAME", "REQUEST_NAME", "Holder", "SessionLock"]
