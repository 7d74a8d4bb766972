"""A small library of positions worth searching, per game, for the algorithm comparison.

Each entry is text in the game's own notation (tic-tac-toe rows, Connect-4 column digits,
checkers FEN) with the variant it belongs to; :func:`library_position` builds it through the
arena registry. The first entry of each game is what ``tui-games bench GAME --sweep`` uses
when no position is named.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tui_games.engine.arena_games import arena_game

__all__ = ["LIBRARY", "LibraryPosition", "find_position", "library_position"]


@dataclass(frozen=True)
class LibraryPosition:
    key: str
    text: str
    note: str
    variant: dict = field(default_factory=dict)
    # The deepest sweep that is still quick here (every configuration, pure Python).
    depth: int = 6


_3X3 = {"rows": 3, "cols": 3, "k": 3, "misere": False}

LIBRARY: dict[str, tuple[LibraryPosition, ...]] = {
    "tictactoe": (
        LibraryPosition("empty", ".../.../...", "the empty 3x3 board: minimax to depth 9 is the whole "
                        "game tree", _3X3, 9),
        LibraryPosition("corners", "X../.O./..X", "opposite corners: O must answer on an edge "
                        "(a corner loses to a fork)", _3X3, 6),
        LibraryPosition("fork", "X.O/.../...", "O took the far corner of X's row: X forks and wins", _3X3, 7),
        LibraryPosition("misere", ".../.../...", "misère 3x3: a draw, but only the centre keeps it",
                        {**_3X3, "misere": True}, 9),
        LibraryPosition("4x4-k3", "..../.X../..O./....", "4x4, three in a row: X wins in 3 plies",
                        {"rows": 4, "cols": 4, "k": 3, "misere": False}, 7),
    ),
    "connect4": (
        LibraryPosition("empty", "", "the empty board: the course reports' states-per-depth table",
                        {"full_board": False}, 6),
        LibraryPosition("4455", "4455", "both players stacked the middle: the first player wins "
                        "(solver score +18)", {"full_board": False}, 6),
        LibraryPosition("middlegame", "52753311433677442422121", "Test_L2_R1: the side to move wins "
                        "with its 3rd disc from here (score +8)", {"full_board": False}, 8),
        LibraryPosition("late-draw", "2737772244262123677516643354", "Test_L2_R1: a late position, "
                        "a draw with best play", {"full_board": False}, 8),
    ),
    "checkers": (
        LibraryPosition("start", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                        "the standard starting position", {}, 6),
        LibraryPosition("ballot-133", "W:W19,23,25,26,27,29,30,31,32:B1,2,3,4,8,11,12,14,20",
                        "a middlegame from ballot 133 (11-16 21-17 7-11) after ten engine moves", {}, 6),
        LibraryPosition("ending", "W:WK19,K26,31:BK3,K7,12", "an ending: two kings and a man "
                        "each, White to move", {}, 7),
    ),
}


def find_position(game: str, key: str) -> LibraryPosition | None:
    """The library entry ``key`` of ``game`` (any case), or None."""
    want = key.strip().lower()
    for entry in LIBRARY.get(game, ()):
        if entry.key == want:
            return entry
    return None


def library_position(game: str, entry: LibraryPosition) -> Any:
    """A fresh position for ``entry``."""
    return arena_game(game).start(entry.variant, entry.text or None)
