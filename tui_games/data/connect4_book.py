"""Connect-4's opening book on disk: found, mapped and handed to the engine.

The engine (:mod:`tui_games.engine.connect4.book`) does no I/O; this module finds the file of
``bitbully-databases`` (or the one ``TUI_GAMES_CONNECT4_BOOK`` names), maps it read-only and
gives the bytes to :meth:`OpeningBook.from_buffer`, once per process. The command line, the
app's Connect-4 screen, the arena adapter and the benchmarks take their book from here and
pass it to the players and solvers.
"""

from __future__ import annotations

import mmap
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from tui_games.engine.connect4.book import BookError, OpeningBook

if TYPE_CHECKING:
    from tui_games.engine.connect4.arena import Connect4Arena

BOOK_PACKAGE = "bitbully_databases"
BOOK_FILE = "assets/book_12ply_distances.dat"
# Set to a path to read another copy of the file, or to nothing to play without a book.
BOOK_ENV = "TUI_GAMES_CONNECT4_BOOK"


def installed_book_path() -> Path:
    """Where ``bitbully-databases`` keeps the 12-ply book with distances (BookError if the
    package is not installed or not unpacked on disk)."""
    try:
        root = resources.files(BOOK_PACKAGE)
    except ModuleNotFoundError:
        raise BookError(f"the opening book is missing: the package {BOOK_PACKAGE.replace('_', '-')} "
                        "is not installed") from None
    path = root.joinpath(BOOK_FILE)
    if not isinstance(path, Path):
        raise BookError(f"the opening book of {BOOK_PACKAGE.replace('_', '-')} is not a file on disk ({path})")
    return path


def open_book(path: str | os.PathLike[str], *, shallow: bool = True) -> OpeningBook:
    """The book in the file at ``path``, mapped read-only (only the pages lookups touch are
    read); BookError (one line naming the file) if it cannot be the book."""
    path = Path(path)
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            # The size is checked before mapping: an empty file cannot be mapped at all.
            data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    except OSError as error:
        raise BookError(f"cannot read opening book {str(path)!r}: {error.strerror or error}") from None
    try:
        return OpeningBook.from_buffer(data, str(path), shallow=shallow)
    except BookError:
        if isinstance(data, mmap.mmap):
            data.close()
        raise


def close_book(book: OpeningBook) -> None:
    """Unmap a book from :func:`open_book` (one no longer looked up)."""
    if isinstance(book.data, mmap.mmap):
        book.data.close()


@lru_cache(maxsize=1)
def default_book() -> tuple[OpeningBook | None, str | None]:
    """The book this process uses, opened once: ``(book, None)``, or ``(None, problem)``
    with a one-line reason when there is none (then the solver searches without it).
    ``TUI_GAMES_CONNECT4_BOOK`` names another file, or is empty to go without."""
    override = os.environ.get(BOOK_ENV)
    if override is not None and not override.strip():
        return None, f"no opening book ({BOOK_ENV} is empty)"
    try:
        return open_book(Path(override) if override else installed_book_path()), None
    except BookError as error:
        return None, str(error)


def installed_book() -> OpeningBook | None:
    """The book to give the perfect player and the solver (None: they search without one)."""
    return default_book()[0]


def connect4_arena() -> Connect4Arena:
    """The arena adapter of Connect-4 (games.py's factory), its perfect players with the book."""
    from tui_games.engine.connect4.arena import Connect4Arena

    return Connect4Arena(book=installed_book())
