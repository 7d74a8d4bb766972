"""A one-line text prompt (a FEN, a file path) that checks its answer before closing."""

from __future__ import annotations

from typing import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from tui_games.ui.widgets.ordered_input import OrderedInput


class InputDialog(ModalScreen[str | None]):
    """Dismisses with the text on Enter/OK once ``check`` (text -> problem or None) passes;
    with None on Escape/Cancel. A problem shows under the field and the dialog stays."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    DEFAULT_CSS = """
    InputDialog { align: center middle; }
    InputDialog #input-dialog {
        width: 72; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    InputDialog #input-prompt { height: auto; color: $text-muted; }
    InputDialog #input-error { height: auto; color: $text-error; }
    InputDialog #input-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    InputDialog #input-buttons Button { margin-left: 1; }
    """

    def __init__(self, title: str, prompt: str, value: str = "", *,
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.prompt = prompt
        self.value = value
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="input-dialog") as dialog:
            dialog.border_title = self.title_text
            yield Static(self.prompt, id="input-prompt")
            yield OrderedInput(self.value, id="input-text", compact=True)
            yield Static("", id="input-error")
            with Horizontal(id="input-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("OK", id="ok", variant="primary", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#ok")
    def action_ok(self) -> None:
        text = self.query_one(Input).value.strip()
        problem = "Type something first." if not text else (self.check(text) if self.check else None)
        if problem:
            self.query_one("#input-error", Static).update(problem)
            return
        self.dismiss(text)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
