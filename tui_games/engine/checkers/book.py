"""The opening book: a move for positions of the three-move ballots, from deep searches.

The book ships as ``puzzles/checkers_book.txt`` (read with
``tui_games.data.resources.read_puzzles(BOOK_FILE)``, through ``tui_games.data.checkers_book``; this
module does no file I/O and parses the text it is given). A line is ``FEN MOVE``, then
optionally ``# comment`` (how it was found); ``#`` lines are comments. It was written by
``scripts/checkers_build_book.py``: our own engine's searches, far longer than a move's
budget, from each standard ballot (see its doc and docs/games/checkers.md). Another book of
the same format (``scripts/checkers_book_from_games.py`` writes one from master games) can be
read over it (``OpeningBook.update``; ``--book-file`` of ``checkers play`` and ``engine``).
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.position import CheckersPosition, Move

__all__ = ["BOOK_FILE", "OpeningBook", "book_lines"]

BOOK_FILE = "checkers_book.txt"


def book_lines(text: str) -> Iterator[tuple[str, str, str]]:
    """(FEN, move, comment) of each entry of a book's text; ValueError names a bad line."""
    for _, fen, move, comment in _numbered_lines(text):
        yield fen, move, comment


def _numbered_lines(text: str) -> Iterator[tuple[int, str, str, str]]:
    for number, raw in enumerate(text.splitlines(), 1):
        line, _, comment = raw.partition("#")
        words = line.split()
        if not words:
            continue
        if len(words) != 2:
            raise ValueError(f"book line {number}: expected FEN MOVE, got {line.strip()!r}")
        yield number, words[0], words[1], comment.strip()


class OpeningBook:
    """Position (its FEN) -> the book's move. Entries whose move is not legal in their
    position are refused when the book is read."""

    def __init__(self, entries: dict[str, str] | None = None) -> None:
        self.entries: dict[str, str] = {}
        for fen, move in (entries or {}).items():
            self.add(fen, move)

    def copy(self) -> OpeningBook:
        """Another book with the same entries (already checked: not parsed again)."""
        book = OpeningBook()
        book.entries = dict(self.entries)
        return book

    @classmethod
    def parse(cls, text: str) -> OpeningBook:
        book = cls()
        book.update(text)
        return book

    def update(self, text: str) -> None:
        """Add the entries of a book's text, each replacing this book's move for its position;
        ValueError names the first bad line."""
        for number, fen, move, _ in _numbered_lines(text):
            try:
                self.add(fen, move)
            except ValueError as error:
                raise ValueError(f"book line {number}: {error}") from None

    def add(self, fen: str, move: str) -> None:
        try:
            position = CheckersPosition(fen)
            position.parse_move(move)
        except CheckersError as error:
            raise ValueError(f"book entry {fen} {move}: {error}") from None
        self.entries[position.fen()] = move

    def __len__(self) -> int:
        return len(self.entries)

    def move(self, position: CheckersPosition) -> Move | None:
        """The book's move in ``position``, or None when it has none."""
        text = self.entries.get(position.fen())
        if text is None or position.outcome() is not None:
            return None
        return position.parse_move(text)
