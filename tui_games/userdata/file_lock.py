"""The one file-lock helper: an exclusive lock on an open file, for the store's read-modify-
writes (``.lock``, the shared leaderboard's lock) and the session lock (``session.lock``).

POSIX: ``flock``. It belongs to the open file, so two threads of one process that each open
the file exclude each other as two processes do, and the kernel lets it go when the holder's
last descriptor closes: at exit, or ``kill -9``, so a lock is never stale.
Windows: ``msvcrt.locking`` on one byte far past anything the file holds (Windows refuses to
read a locked byte range, and the session lock's file holds its holder's details).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:  # POSIX
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
try:  # Windows
    import msvcrt
except ImportError:
    msvcrt = None  # type: ignore[assignment]

__all__ = ["hold", "lock", "unlock"]

_WINDOWS_LOCK_OFFSET = 1 << 20


def lock(fd: int, *, wait: bool = True) -> bool:
    """An exclusive lock on the open file ``fd``: with ``wait``, once whoever holds it lets go
    (True); without, False at once if somebody holds it. OSError for anything else (a file
    system without locks)."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if msvcrt is not None:  # pragma: no cover - Windows
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK if wait else msvcrt.LK_NBLCK, 1)
                return True
            except OSError:  # held: LK_NBLCK at once, LK_LOCK after ~10 s of trying
                if not wait:
                    return False
    raise OSError("no file locking on this system")  # pragma: no cover


def unlock(fd: int) -> None:
    """Let go of the lock on ``fd`` (closing its last descriptor does the same)."""
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    elif msvcrt is not None:  # pragma: no cover - Windows
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


@contextlib.contextmanager
def hold(path: Path) -> Iterator[bool]:
    """Hold an exclusive lock on ``path`` (made if missing) for the ``with`` block; it yields
    False, and runs unlocked, when the file cannot be made or locked: the write that follows
    fails and says so, and nobody else could coordinate through that file either."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)  # as open(path, "a+b"): the umask decides
    except OSError:
        yield False
        return
    locked = False
    try:
        with contextlib.suppress(OSError):
            locked = lock(fd)
        yield locked
    finally:
        if locked:
            with contextlib.suppress(OSError):
                unlock(fd)
        os.close(fd)
