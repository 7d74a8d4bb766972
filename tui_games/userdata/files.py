"""The data directory's files: reading and validating a JSON document (a corrupt one set
aside with one warning), writing one atomically, the directory's lock, and the warnings the UI
shows once. Each document of the directory is a module of this package whose class builds on
:class:`DataFiles`; :class:`tui_games.userdata.store.Store` is all of them together (see its module for
the layout and the reasons).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from tui_games.userdata import file_lock, player_files

LOCK_FILE = ".lock"

T = TypeVar("T")


class CorruptFile(Exception):
    """Raised internally when a file's content cannot be used; never escapes the Store."""


# What _read_json returns for a file that is not there (JSON's null is a corrupt file).
_MISSING = object()


# What _read_json returns for a file that is not there (JSON's null is a corrupt file).
_MISSING = object()


def _parse_int(text: str) -> int | float:
    # Python refuses to read an integer of more than 4,300 digits (ValueError: the whole file
    # would look corrupt); any count or setting that long is out of range anyway, so read it as
    # the float it rounds to (infinity), which every check refuses on its own.
    return int(text) if len(text) <= 100 else float(text)


def _fsync_dir(path: Path) -> None:
    """Make a rename durable (POSIX); a no-op where directories cannot be opened."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once: temp file, fsync, ``os.replace``.

    Raises OSError (after removing the temp file) if anything fails.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


class DataFiles:
    """The files of one data directory, ``root``: what every document's class builds on."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.warnings: list[str] = []
        self._reported: set[str] = set()
        # The UI takes warnings on its thread while an engine worker may be recording a result.
        self._warnings_lock = threading.Lock()
        # Lock depth per thread, so a locked operation may call another one.
        self._local = threading.local()

    # -- warnings ------------------------------------------------------------------------------

    def _warn(self, message: str) -> None:
        # Each distinct message once per Store, however often the same bad file is read.
        with self._warnings_lock:
            if message not in self._reported:
                self._reported.add(message)
                self.warnings.append(message)

    def take_warnings(self) -> list[str]:
        """The messages not yet shown, oldest first; the list is emptied."""
        with self._warnings_lock:
            taken, self.warnings = self.warnings, []
        return taken
    # -- locking -------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the data directory's lock (re-entrant within a thread).

        flock locks belong to an open file, so two threads of one process exclude each other
        as two processes do. Without a usable lock file (read-only directory) we go on unlocked:
        the write that follows will fail and say so.
        """
        depth = getattr(self._local, "depth", 0)
        if depth:
            self._local.depth = depth + 1
            try:
                yield
            finally:
                self._local.depth -= 1
            return
        handle = None
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            handle = open(self.root / LOCK_FILE, "a+b")
        except OSError:
            handle = None
        try:
            if handle is not None:
                file_lock.lock(handle.fileno())
            self._local.depth = 1
            yield
        finally:
            self._local.depth = 0
            if handle is not None:
                with contextlib.suppress(OSError):
                    file_lock.unlock(handle.fileno())
                handle.close()
    # -- reading and writing -------------------------------------------------------------------

    def _read_json(self, path: Path, label: str) -> Any:
        """The parsed content of ``path``; _MISSING if there is none or it cannot be read (with
        a warning).

        Raises CorruptFile for content that is not JSON.
        """
        try:
            raw = path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return _MISSING
        except OSError as exc:
            self._warn(f"could not read {label}: {exc.strerror or exc}")
            return _MISSING
        try:
            return json.loads(raw.decode("utf-8"), parse_int=_parse_int)
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise CorruptFile(str(exc)) from None

    def _load(self, path: Path, label: str, validate: Callable[[Any], T], fallback: Callable[[], T],
              instead: str) -> T:
        """Read and validate ``path``; a corrupt file is set aside (under the lock) and
        ``fallback()`` is returned instead. ``instead`` ends the warning: what we did."""
        try:
            data = self._read_json(path, label)
            return fallback() if data is _MISSING else validate(data)
        except CorruptFile:
            pass
        with self._locked():
            # Another session may have replaced the file since: look again before moving it.
            try:
                data = self._read_json(path, label)
                return fallback() if data is _MISSING else validate(data)
            except CorruptFile:
                self._set_aside(path, label, instead)
                return fallback()

    def _set_aside(self, path: Path, label: str, instead: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.corrupt-{stamp}")
        counter = 1
        while target.exists():
            target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
            counter += 1
        try:
            os.replace(path, target)
        except FileNotFoundError:
            self._warn(f"{label} was corrupt; {instead}")
        except OSError as exc:
            self._warn(f"{label} is corrupt and could not be moved aside ({exc.strerror or exc}); {instead}")
        else:
            self._warn(f"{label} was corrupt; kept it as {target.name} and {instead}")

    def _write_json(self, path: Path, data: Any, label: str) -> bool:
        """Write ``data`` atomically; False (with a warning) if the disk says no."""
        text = json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
        over = player_files.quota_refusal(path, len(text.encode("utf-8")))
        if over:
            self._warn(f"could not save {label}: {over}")
            return False
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            if exc.errno in (errno.ENOSPC, errno.EDQUOT) and player_files.served():
                self._warn(f"could not save {label}: the server's disk is full")  # one line, no server path
            elif player_files.served():  # the server's folders are not the player's to learn
                self._warn(f"could not save {label}: {exc.strerror or exc}")
            else:
                self._warn(f"could not save {label} in {path.parent}: {exc.strerror or exc}")
            return False
        return True
