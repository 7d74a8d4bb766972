"""A keyboard-first dialog of labelled choices (one compact Select each), for new-game options.

An open list stays inside the dialog: Textual lays a Select's list over the whole screen, so at
80×24 a long list (the opponents) ran over the board and the key bar. The dialog makes room
below the choice for up to :data:`LIST_ROWS` rows while its list is open, as far as the
screen allows, and the list scrolls within that room."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, OptionList, Select

LIST_ROWS = 8  # an open list shows at most this many options at once (then it scrolls)
# A Select's list, by its type's name (the class is in a private module of Textual).
SELECT_LIST = "SelectOverlay"


@dataclass
class Choice:
    key: str
    label: str
    options: list[tuple[str, Any]]
    value: Any


class ChoicesDialog(ModalScreen[Any]):
    """Dismisses with {key: value} (or what :meth:`result` makes of it) on Start (Ctrl+S), None on
    Cancel (Escape)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "start", "Start")]

    DEFAULT_CSS = """
    ChoicesDialog { align: center middle; }
    ChoicesDialog #choices-dialog {
        width: 64; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    ChoicesDialog #choices-grid { grid-size: 2; grid-columns: 16 1fr; grid-rows: auto; height: auto; grid-gutter: 0 1; }
    ChoicesDialog #choices-grid Label { height: 1; }
    ChoicesDialog #choices-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    ChoicesDialog #choices-buttons Button { margin-left: 1; }
    """

    def __init__(self, title: str, choices: list[Choice]) -> None:
        super().__init__()
        self.title_text = title
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="choices-dialog") as dialog:
            dialog.border_title = self.title_text
            with Grid(id="choices-grid"):
                for choice in self.choices:
                    yield Label(choice.label)
                    yield Select(choice.options, value=choice.value, allow_blank=False, compact=True, id=choice.key)
            with Horizontal(id="choices-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Start", id="start", variant="primary", compact=True)

    def on_mount(self) -> None:
        for select in self.query(Select):
            self.watch(select, "expanded", self._watcher(select), init=False)
        self.query_one(Select).focus()

    def _watcher(self, select: Select) -> Callable[[bool], None]:
        return lambda expanded: self._list_opened(select, expanded)

    def _list_opened(self, select: Select, expanded: bool) -> None:
        dialog = self.query_one("#choices-dialog")
        if not expanded:
            dialog.styles.padding = (0, 1)
            return
        overlay = select.query_one(SELECT_LIST, OptionList)
        wanted = min(overlay.option_count, LIST_ROWS)
        # Room for the list: the rows under the choice, down to the dialog's border.
        room = dialog.region.bottom - 1 - (select.region.y + 1)
        spare = max(self.size.height - dialog.region.height, 0)
        dialog.styles.padding = (0, 1, min(max(wanted - room, 0), spare), 1)
        self.call_after_refresh(self._fit_list, select)

    def _fit_list(self, select: Select) -> None:
        """Once the dialog has its room: the list no taller than the rows left under the choice."""
        dialog = self.query_one("#choices-dialog")
        room = dialog.region.bottom - 1 - (select.region.y + 1)
        select.query_one(SELECT_LIST, OptionList).styles.max_height = max(room, 1)

    def values(self) -> dict:
        return {choice.key: self.query_one(f"#{choice.key}", Select).value for choice in self.choices}

    def result(self) -> Any:
        """What Start dismisses with (subclasses may build an options object)."""
        return self.values()

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        self.dismiss(self.result())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
