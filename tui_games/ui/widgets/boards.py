"""Each game's board and side names as its own screen draws them, for the screens that show a
game's positions without playing them (the Lab's replay).

A Connect-4 game in the Lab is drawn with Connect-4's discs (● and ○, or X and O as the disc
setting says), a checkers game on the checkers board, as the player saw them while playing;
the engine's side names (``GameAdapter.side_names``) stay the words of files and the command
line. A game with no board widget (Sudoku, a game added without one) shows its diagram.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from textual.widget import Widget
from textual.widgets import Static

from tui_games.ui.widgets.c4_board import DISCS, Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

__all__ = ["DiagramBoard", "StepBoard", "board_widget", "side_labels"]

Settings = Mapping[str, Any]


class StepBoard(Protocol):
    """What step mode and the replay need of a board widget: show a position, fit a size."""

    def set_position(self, position: Any) -> None: ...

    def fit(self, width: int, height: int) -> None: ...


class DiagramBoard(Static):
    """A board for a game without a board widget of its own: the position's diagram."""

    def __init__(self, position: Any, *, id: str | None = None) -> None:
        super().__init__(position.diagram(), id=id)

    def set_position(self, position: Any) -> None:
        self.update(position.diagram())

    def fit(self, width: int, height: int) -> None:
        """A diagram is the size of its text: nothing to fit."""


def _discs(settings: Settings) -> str:
    return str(settings.get("ui", {}).get("discs", "shapes"))


def side_labels(game: str, settings: Settings, engine_names: tuple[str, str]) -> tuple[str, str]:
    """The two sides as ``game``'s screen names them; ``engine_names`` for a game whose
    screen uses the engine's words (tic-tac-toe's X and O, checkers' Black and White)."""
    if game == "connect4":
        first, second = DISCS.get(_discs(settings), DISCS["shapes"])
        return first, second
    return engine_names


def board_widget(game: str, position: Any, settings: Settings, *, id: str | None = None) -> Widget:
    """A read-only board of ``game`` showing ``position``, drawn as that game's screen draws it
    (the disc and piece settings); it takes no focus, so the keys stay with its screen."""
    board: Widget
    if game == "connect4":
        board = Connect4Board(position, discs=_discs(settings), id=id)
    elif game == "checkers":
        section = settings.get("checkers", {})
        board = CheckersBoard(position, pieces=section.get("pieces", "letters"),
                              numbers=bool(section.get("numbers", False)), id=id)
    elif game == "tictactoe":
        board = TicTacToeBoard(position, id=id)
    else:
        board = DiagramBoard(position, id=id)
    board.can_focus = False
    return board
