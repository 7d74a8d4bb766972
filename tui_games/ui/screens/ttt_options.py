"""Tic-tac-toe's game options and the dialog that chooses them: board, k, variant, opponent,
who starts, your mark."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.widgets import Select

from tui_games.bots import bot_choices, is_bot_spec
from tui_games.engine.mcts_spec import mcts_choices, spec_family
from tui_games.engine.tictactoe import MAX_SIZE, MIN_SIZE, TicTacToe
from tui_games.engine.tictactoe.players import opponents_for
from tui_games.ui.screens.choices import Choice, ChoicesDialog

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


@dataclass
class GameOptions:
    rows: int = 3
    cols: int = 3
    k: int = 3
    misere: bool = False
    opponent: str = "perfect"  # a player spec, or "human" for two people at one keyboard
    first: str = "human"  # "human" or "computer" (with two humans: who has the first mark)
    human_mark: str = "X"

    @classmethod
    def from_settings(cls, values: dict) -> "GameOptions":
        known = {k: v for k, v in values.items() if k in cls.__dataclass_fields__}
        return cls(**known).fitted()

    def fitted(self) -> "GameOptions":
        """The options made consistent: sizes in range, k no longer than the board, an
        opponent that plays this board (the classic players only know 3×3), valid choices."""
        rows = min(max(int(self.rows), MIN_SIZE), MAX_SIZE)
        cols = min(max(int(self.cols), MIN_SIZE), MAX_SIZE)
        k = min(max(int(self.k), MIN_SIZE), rows, cols)
        board = TicTacToe(rows, cols, k, bool(self.misere))
        allowed = {spec for spec, _ in opponents_for(board)} | {"human"}
        return GameOptions(rows, cols, k, bool(self.misere),
                           self.opponent if spec_family(self.opponent) in allowed or is_bot_spec(self.opponent) else "perfect",
                           self.first if self.first in ("human", "computer") else "human",
                           self.human_mark if self.human_mark in ("X", "O") else "X")

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    def describe(self) -> str:
        variant = " misère" if self.misere else ""
        return f"{self.rows}×{self.cols}, {self.k} in a row{variant}"


def _k_choices(rows: int, cols: int) -> list[tuple[str, int]]:
    return [(str(k), k) for k in range(MIN_SIZE, min(rows, cols) + 1)]


def _opponents(o: GameOptions) -> list[tuple[str, str]]:
    probe = TicTacToe(o.rows, o.cols, min(o.k, o.rows, o.cols), o.misere)
    return ([("another person (same keyboard)", "human")] + [(label, spec) for spec, label in opponents_for(probe)]
            + mcts_choices(o.opponent) + bot_choices(o.opponent))


class TicTacToeOptionsScreen(ChoicesDialog):
    """Start dismisses with a GameOptions."""

    def __init__(self, options: GameOptions) -> None:
        o = options
        super().__init__("New tic-tac-toe game", [
            Choice("rows", "Rows", [(str(n), n) for n in SIZES], o.rows),
            Choice("cols", "Columns", [(str(n), n) for n in SIZES], o.cols),
            Choice("k", "In a row (k)", _k_choices(o.rows, o.cols), o.k),
            Choice("misere", "Variant", [("normal: k in a row wins", False),
                                         ("reverse (misère): k in a row loses", True)], o.misere),
            Choice("opponent", "Opponent", _opponents(o), o.opponent),
            Choice("first", "Who starts", [("you", "human"), ("the computer", "computer")], o.first),
            Choice("human_mark", "Your mark", [("X", "X"), ("O", "O")], o.human_mark),
        ])

    def _current(self) -> GameOptions:
        return GameOptions(**self.values())

    @on(Select.Changed, "#rows, #cols, #misere")
    def _refresh_dependent(self) -> None:
        """k and the list of opponents depend on the board and the variant."""
        o = self._current()
        o.k = min(o.k, o.rows, o.cols)
        opponent = self.query_one("#opponent", Select)
        options = _opponents(o)
        current = opponent.value if opponent.value in [spec for _, spec in options] else "perfect"
        with self.prevent(Select.Changed):
            k_select = self.query_one("#k", Select)
            k_select.set_options(_k_choices(o.rows, o.cols))
            k_select.value = o.k
            opponent.set_options(options)
            opponent.value = current

    def result(self) -> GameOptions:
        return self._current()
