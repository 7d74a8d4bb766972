"""The checkers endgame databases on disk: building them class by class, resumably, and
opening them for the engine (which does no file I/O itself: it gets an ``EndgameDB``).

Layout, under the data directory (``$TUI_GAMES_HOME`` or the platform's)::

    checkers-db/
        2101.wld        one file per piece class: Black men, Black kings, White men,
        …               White kings; a 16-byte header, then the packed table (egdb.py).
                        A class's colour twin (0121 here) has no file: it is probed
                        through this one
        2101.wld.part   a class being written (renamed into place when complete)
        session.lock    held (flock) by the build running here, so two never mix

A file is written only once its class is complete, and a class is only built once every
class it depends on is on disk, so an interrupted build, run again, skips the finished
classes and goes on from the first missing one.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from tui_games.data.checkers_book import shared_book
from tui_games.engine.checkers.arena import CheckersArena
from tui_games.engine.checkers.egdb import (
    EndgameDB,
    Masks,
    PieceClass,
    class_order,
    class_size,
    stored_class,
    table_bytes,
    value_note,
)
from tui_games.engine.checkers.egdb_build import Builder
from tui_games.userdata.session_lock import SessionLock
from tui_games.userdata.store import data_dir

__all__ = ["DB_DIRNAME", "MAX_BUILD_PIECES", "BuildBusy", "BuildStep", "build", "checkers_arena", "database_note", "db_dir",
           "open_db", "shared_db", "stored_classes"]

DB_DIRNAME = "checkers-db"
MAGIC = b"TGCKWLD1"
HEADER = 16
# Six pieces take 0.7 GB of tables and a quarter of an hour of CPU; seven would take
# about 9 GB and the builder's index is 32-bit.
MAX_BUILD_PIECES = 6


def db_dir(home: Path | None = None) -> Path:
    return (home if home is not None else data_dir()) / DB_DIRNAME


def _name(cls: PieceClass) -> str:
    return "".join(map(str, cls)) + ".wld"


def _header(cls: PieceClass) -> bytes:
    return MAGIC + bytes(cls) + bytes(HEADER - len(MAGIC) - 4)


def _read(path: Path, cls: PieceClass) -> memoryview | None:
    """The table in a class's file (memory-mapped), or None when the file is missing, short
    or not this class's."""
    try:
        with path.open("rb") as f:
            if f.read(HEADER) != _header(cls) or os.fstat(f.fileno()).st_size != HEADER + table_bytes(cls):
                return None
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None
    return memoryview(mapped)[HEADER:]


def _write(path: Path, cls: PieceClass, table: bytes | bytearray) -> None:
    part = path.with_name(path.name + ".part")
    with part.open("wb") as f:
        f.write(_header(cls))
        f.write(table)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, path)


def stored_classes(pieces: int) -> list[PieceClass]:
    """The classes of 2..``pieces`` pieces that have a file, in build order."""
    return [cls for cls in class_order(pieces) if stored_class(cls) == cls]


def open_db(pieces: int = MAX_BUILD_PIECES, home: Path | None = None) -> EndgameDB:
    """The classes of up to ``pieces`` pieces found on disk (possibly none)."""
    directory = db_dir(home)
    tables = {}
    if directory.is_dir():
        for cls in stored_classes(pieces):
            table = _read(directory / _name(cls), cls)
            if table is not None:
                tables[cls] = table
    return EndgameDB(tables)


_shared: dict[Path, tuple[int, EndgameDB]] = {}


def shared_db(home: Path | None = None) -> EndgameDB:
    """The tables on disk, opened once per process (memory-mapped: pages are read as probes
    touch them) and again when the directory changes (a build finished a class since).
    What the app, the CLI and the arena hand to the engine."""
    directory = db_dir(home)
    try:
        stamp = directory.stat().st_mtime_ns
    except OSError:
        stamp = -1
    held = _shared.get(directory)
    if held is None or held[0] != stamp:
        held = _shared[directory] = (stamp, open_db(home=home))
    return held[1]


def checkers_arena() -> CheckersArena:
    """The checkers adapter of the arena, the Lab and the lobby's house players, its
    ``strong`` player probing the tables on disk and playing the shipped opening book (the
    engine package opens no files)."""
    return CheckersArena(database=shared_db(), book=shared_book())


def database_note(position: Masks, db: EndgameDB | None = None) -> str | None:
    """``"database: win for Black"`` (the side to move's value) for a stats panel, or None
    when the position is not in the tables."""
    value = (db if db is not None else shared_db()).probe(position)
    return None if value is None else value_note(value, position.turn)


class BuildBusy(Exception):
    """Another build holds the database directory."""


@dataclass(frozen=True)
class BuildStep:
    """What the builder is at: the class ``cls`` being built, ``done``/``total`` in index
    entries over the classes still to build."""

    cls: PieceClass
    done: int
    total: int


def build(pieces: int, *, home: Path | None = None, compiled: bool | None = None,
          progress: Callable[[BuildStep], None] | None = None) -> Iterator[tuple[PieceClass, bool]]:
    """Build every stored class (:func:`stored_classes`) of 2..``pieces`` pieces not yet
    on disk; yields (class, built) as each class is found or finished. ``progress`` hears about the class being built."""
    directory = db_dir(home)
    directory.mkdir(parents=True, exist_ok=True)
    lock = SessionLock(directory)
    if not lock.acquire():
        raise BuildBusy(f"another build is writing {directory} ({lock.holder().describe()})")
    try:
        yield from _build(directory, pieces, compiled, progress)
    finally:
        lock.release()


def _build(directory: Path, pieces: int, compiled: bool | None,
           progress: Callable[[BuildStep], None] | None) -> Iterator[tuple[PieceClass, bool]]:
    for stale in directory.glob("*.part"):
        with suppress(OSError):
            stale.unlink()
    builder = Builder(compiled)
    order = stored_classes(pieces)
    on_disk = {cls: _read(directory / _name(cls), cls) for cls in order}
    total = sum(2 * class_size(cls) for cls in order if on_disk[cls] is None)
    done = 0
    for cls in order:
        table = on_disk[cls]
        if table is not None:
            builder.add(cls, table)
            yield cls, False
            continue
        entries = 2 * class_size(cls)

        def tick(part: int, whole: int, cls: PieceClass = cls, base: int = done, entries: int = entries) -> None:
            if progress is not None:
                progress(BuildStep(cls, base + entries * part // max(whole, 1), total))

        path = directory / _name(cls)
        _write(path, cls, builder.build(cls, tick))
        # Held from the file from now on: the page cache, not this process, keeps it.
        builder.add(cls, _read(path, cls) or builder.db.tables[cls])
        done += entries
        yield cls, True
