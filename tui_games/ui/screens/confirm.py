"""A yes/no question (overwrite a file?) that answers False unless the player says yes."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmDialog(ModalScreen[bool]):
    """Dismisses with True on y / Yes, False on n / No / Escape."""

    BINDINGS = [Binding("escape,n", "no", "No"), Binding("y", "yes", "Yes")]

    DEFAULT_CSS = """
    ConfirmDialog { align: center middle; }
    ConfirmDialog #confirm { width: 60; height: auto; border: round $warning; padding: 0 1; background: $surface; }
    ConfirmDialog #confirm-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    ConfirmDialog #confirm-buttons Button { margin-left: 1; }
    """

    def __init__(self, title: str, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.title_text, self.question, self.yes = title, question, yes

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm") as box:
            box.border_title = self.title_text
            yield Static(self.question)
            with Horizontal(id="confirm-buttons"):
                yield Button("No", id="no", compact=True)
                yield Button(self.yes, id="yes", variant="warning", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)
