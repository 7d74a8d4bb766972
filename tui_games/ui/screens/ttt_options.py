"""New-game options for tic-tac-toe: board, k, variant, opponent, who starts, your mark."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Select

from tui_games.engine.tictactoe import MAX_SIZE, MIN_SIZE, TicTacToe
from tui_games.engine.tictactoe_players import opponents_for
from tui_games.ui.screens.tictactoe import GameOptions

SIZES = range(MIN_SIZE, MAX_SIZE + 1)


class TicTacToeOptionsScreen(ModalScreen[GameOptions | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "start", "Start")]

    DEFAULT_CSS = """
    TicTacToeOptionsScreen { align: center middle; }
    #options-dialog {
        width: 60; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    #options-grid { grid-size: 2; grid-columns: 16 1fr; grid-rows: auto; height: auto; grid-gutter: 0 1; }
    #options-grid Label { padding: 0 0; height: 1; }
    #options-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    #options-buttons Button { margin-left: 1; }
    """

    def __init__(self, options: GameOptions) -> None:
        super().__init__()
        self.options = options

    def compose(self) -> ComposeResult:
        o = self.options
        with Vertical(id="options-dialog") as dialog:
            dialog.border_title = "New tic-tac-toe game"
            with Grid(id="options-grid"):
                yield Label("Rows")
                yield Select([(str(n), n) for n in SIZES], value=o.rows, allow_blank=False, compact=True, id="rows")
                yield Label("Columns")
                yield Select([(str(n), n) for n in SIZES], value=o.cols, allow_blank=False, compact=True, id="cols")
                yield Label("In a row (k)")
                yield Select(self._k_choices(o.rows, o.cols), value=o.k, allow_blank=False, compact=True, id="k")
                yield Label("Variant")
                yield Select([("normal: k in a row wins", False), ("reverse (misère): k in a row loses", True)],
                             value=o.misere, allow_blank=False, compact=True, id="misere")
                yield Label("Opponent")
                yield Select(self._opponents(o), value=o.opponent, allow_blank=False, compact=True, id="opponent")
                yield Label("Who starts")
                yield Select([("you", "human"), ("the computer", "computer")], value=o.first,
                             allow_blank=False, compact=True, id="first")
                yield Label("Your mark")
                yield Select([("X", "X"), ("O", "O")], value=o.human_mark, allow_blank=False, compact=True,
                             id="human_mark")
            with Horizontal(id="options-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Start", id="start", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one("#rows", Select).focus()

    @staticmethod
    def _k_choices(rows: int, cols: int) -> list[tuple[str, int]]:
        return [(str(k), k) for k in range(MIN_SIZE, min(rows, cols) + 1)]

    def _opponents(self, o: GameOptions) -> list[tuple[str, str]]:
        probe = TicTacToe(o.rows, o.cols, min(o.k, o.rows, o.cols), o.misere)
        return [("another person (same keyboard)", "human")] + [(label, spec) for spec, label in opponents_for(probe)]

    def _current(self) -> GameOptions:
        values = {name: self.query_one(f"#{name}", Select).value
                  for name in ("rows", "cols", "k", "misere", "opponent", "first", "human_mark")}
        return GameOptions(**values)

    @on(Select.Changed, "#rows, #cols, #misere")
    def _refresh_dependent(self) -> None:
        """k and the list of opponents depend on the board and the variant."""
        o = self._current()
        o.k = min(o.k, o.rows, o.cols)
        opponent = self.query_one("#opponent", Select)
        options = self._opponents(o)
        current = opponent.value if opponent.value in [spec for _, spec in options] else "perfect"
        with self.prevent(Select.Changed):
            k_select = self.query_one("#k", Select)
            k_select.set_options(self._k_choices(o.rows, o.cols))
            k_select.value = o.k
            opponent.set_options(options)
            opponent.value = current

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        self.dismiss(self._current())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
