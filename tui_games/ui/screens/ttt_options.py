"""New-game options for tic-tac-toe: board, k, variant, opponent, who starts, your mark."""

from __future__ import annotations

from textual import on
from textual.widgets import Select

from tui_games.engine.tictactoe import MAX_SIZE, MIN_SIZE, TicTacToe
from tui_games.engine.tictactoe_players import opponents_for
from tui_games.ui.screens.choices import Choice, ChoicesDialog
from tui_games.ui.screens.tictactoe import GameOptions

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


def _k_choices(rows: int, cols: int) -> list[tuple[str, int]]:
    return [(str(k), k) for k in range(MIN_SIZE, min(rows, cols) + 1)]


def _opponents(o: GameOptions) -> list[tuple[str, str]]:
    probe = TicTacToe(o.rows, o.cols, min(o.k, o.rows, o.cols), o.misere)
    return [("another person (same keyboard)", "human")] + [(label, spec) for spec, label in opponents_for(probe)]


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
