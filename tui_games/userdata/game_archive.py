"""``games/``: every finished game, one text file a game (a record of
:mod:`tui_games.engine.records`, written by the caller), oldest dropped first.

One file a game, not one list: a torn or hand-damaged file costs that game only, and adding a
game rewrites nothing else. Each file is written atomically (temporary file, fsync, rename), so
a crash or a full disk leaves the archive as it was. The archive is bounded twice: by
:data:`MAX_GAMES` (a local player's disk has no quota, and a screen lists them all), and under a
server by the player's quota (``serve --quota-mb``), by dropping the oldest games until the new
one fits; a game that does not fit even then is not kept, with one line saying so.

The Lab's games (computer against computer, a run of hundreds at once) are bounded apart, by
:data:`MAX_LAB_GAMES`, and named ``…-lab.txt`` so the bounds need no record read: a Lab run
never pushes out a game the player played. Under the quota the Lab's oldest go first, before
any of the player's, and a Lab game never takes the place of one of the player's.

The names sort by when the game ended (``YYYYmmddTHHMMSSffffff-NN.txt``, UTC, or
``…-NN-lab.txt``), so the oldest is the first name. This module does not read records: the caller hands :meth:`GameArchive.
archived_games` the reader, and an entry it refuses is skipped with one warning.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from tui_games.userdata import player_files
from tui_games.userdata.files import DataFiles, atomic_write_text

ARCHIVE_DIR = "games"
# Games kept at most (the oldest go first); a record is about 1 KB.
MAX_GAMES = 500
# The Lab's games kept at most, apart from the player's (the oldest go first).
MAX_LAB_GAMES = 500
# A record bigger than this is not one of ours (1000 plies with comments are ~30 KB).
MAX_ENTRY_BYTES = 256 * 1024
ARCHIVE_ENTRY = re.compile(r"^\d{8}T\d{12}-\d{2}(-lab)?\.txt$")
LAB_SUFFIX = "-lab.txt"
# The name's stamp and number, the same for either kind of entry.
_STEM = len("YYYYmmddTHHMMSSffffff-NN")

T = TypeVar("T")


def is_lab_entry(name: str) -> bool:
    """Whether an entry's name is one of the Lab's games."""
    return name.endswith(LAB_SUFFIX)


class GameArchive(DataFiles):
    @property
    def archive_dir(self) -> Path:
        return self.root / ARCHIVE_DIR

    def archive_names(self) -> list[str]:
        """The archive's entries, oldest first (other files in the folder are not ours)."""
        try:
            names = os.listdir(self.archive_dir)
        except OSError:
            return []
        return sorted(name for name in names if ARCHIVE_ENTRY.match(name))

    def archive_game(self, text: str, *, when: datetime | None = None, lab: bool = False) -> str | None:
        """Keep ``text`` (one game's record; ``lab``: a game of the Lab's) in the archive; its
        entry's name, or None (with a warning) if the disk or the quota said no."""
        when = (when or datetime.now(timezone.utc)).astimezone(timezone.utc)
        data = text.encode("utf-8")
        if len(data) > MAX_ENTRY_BYTES:
            raise ValueError(f"a game record of {len(data)} bytes is over {MAX_ENTRY_BYTES}")
        with self._locked():
            names = self.archive_names()
            labs = [name for name in names if is_lab_entry(name)]
            own = [name for name in names if not is_lab_entry(name)]
            stamp = when.strftime("%Y%m%dT%H%M%S%f")
            taken = {name[:_STEM] for name in names}
            number = next(n for n in range(100) if f"{stamp}-{n:02d}" not in taken)
            name = f"{stamp}-{number:02d}{LAB_SUFFIX if lab else '.txt'}"
            path = self.archive_dir / name
            # The oldest go first while the quota refuses the new game (before it is written: it
            # must fit), the Lab's before the player's, and never the player's for a Lab game;
            # none at all when dropping every one of them would not make room (the player's
            # other files fill the quota); past the count once it is written (a write that
            # fails costs no old game).
            over = player_files.quota_excess(path, len(data))
            if over is not None:
                excess, refusal = over
                droppable = [(name, self._size(name)) for name in labs + ([] if lab else own)]
                if sum(size for _, size in droppable) < excess:
                    self._warn(f"could not keep the game in {ARCHIVE_DIR}/: {refusal}")
                    return None
                for old, size in droppable:
                    if excess <= 0:
                        break
                    self._drop(old)
                    (labs if is_lab_entry(old) else own).remove(old)
                    excess -= size
            try:
                atomic_write_text(path, text)
            except OSError as exc:
                if player_files.served():
                    self._warn(f"could not keep the game in {ARCHIVE_DIR}/: {exc.strerror or exc}")
                else:
                    self._warn(f"could not keep the game in {self.archive_dir}: {exc.strerror or exc}")
                return None
            kept, most = (labs, MAX_LAB_GAMES) if lab else (own, MAX_GAMES)
            while len(kept) >= most:
                self._drop(kept.pop(0))
            return name

    def _size(self, name: str) -> int:
        try:
            return (self.archive_dir / name).lstat().st_size
        except OSError:
            return 0

    def _drop(self, name: str) -> None:
        try:
            (self.archive_dir / name).unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            self._warn(f"could not remove {ARCHIVE_DIR}/{name}: {exc.strerror or exc}")

    def archived_text(self, name: str) -> str:
        """One entry's text; OSError or ValueError (not UTF-8, too big, not an entry's name)."""
        if not ARCHIVE_ENTRY.match(name):
            raise ValueError(f"{name!r} is not a game of the archive")
        path = self.archive_dir / name
        with open(path, "rb") as handle:
            raw = handle.read(MAX_ENTRY_BYTES + 1)
        if len(raw) > MAX_ENTRY_BYTES:
            raise ValueError(f"over {MAX_ENTRY_BYTES} bytes")
        return raw.decode("utf-8")

    def archived_games(self, read: Callable[[str, str], T]) -> list[T]:
        """Every entry as ``read(name, text)`` makes it, newest first. An entry that cannot be
        read, or that ``read`` refuses (ValueError: a torn file, a hand edit), is skipped with
        one warning naming it; the others are all there."""
        games: list[T] = []
        for name in reversed(self.archive_names()):
            try:
                games.append(read(name, self.archived_text(name)))
            except FileNotFoundError:  # dropped by another session since the listing
                continue
            except (OSError, ValueError) as exc:  # UnicodeDecodeError and RecordError are ValueErrors
                problem = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                self._warn(f"{ARCHIVE_DIR}/{name} is unreadable ({problem}); skipped it")
        return games

    def forget_archived(self, name: str) -> None:
        """Remove one entry (the Games screen's delete)."""
        if not ARCHIVE_ENTRY.match(name):
            raise ValueError(f"{name!r} is not a game of the archive")
        with self._locked():
            self._drop(name)
