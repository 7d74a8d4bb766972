"""The shipped puzzles the generator disguises for the grades it cannot reach by removing
clues alone (``puzzles/sudoku_LEVEL.txt``).

Pure: the caller hands in how to read a shipped collection (``tui_games.data.resources.read_puzzles``),
so this engine package names its collections without doing the reading itself.
"""

from __future__ import annotations

from collections.abc import Callable

from tui_games.engine.sudoku.formats import parse_puzzles
from tui_games.engine.sudoku.grid import Grid


def seed_collection(level: str) -> str:
    """The name of the shipped collection of a grade (``sudoku_fiendish.txt``)."""
    return f"sudoku_{level.replace(' ', '_')}.txt"


def seed_puzzles(level: str, read_collection: Callable[[str], str]) -> list[Grid]:
    """The shipped puzzles of grade ``level``, read with ``read_collection(name)``; empty if that
    grade has no collection (``read_collection`` raises FileNotFoundError)."""
    name = seed_collection(level)
    try:
        text = read_collection(name)
    except FileNotFoundError:
        return []
    return parse_puzzles(text, name)
