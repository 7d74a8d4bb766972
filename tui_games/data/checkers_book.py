"""The shipped checkers opening book, read once per process for the engine (which reads no
files itself: it is handed an ``OpeningBook``)."""

from __future__ import annotations

from functools import cache

from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.book import BOOK_FILE, OpeningBook

__all__ = ["shared_book"]


@cache
def shared_book() -> OpeningBook:
    """The book of ``puzzles/checkers_book.txt`` (empty if the file is missing)."""
    try:
        text = read_puzzles(BOOK_FILE)
    except OSError:
        return OpeningBook()
    return OpeningBook.parse(text)
