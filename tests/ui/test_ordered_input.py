"""Keys that arrive in one burst (one read from the terminal, one SSH packet) are applied in
the order they were typed: editing keys do not overtake or trail the characters around them
(Textualize/textual#6605)."""

from __future__ import annotations

from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Input

from tui_games.ui.widgets.ordered_input import OrderedInput


class Form(App):
    def __init__(self, field: type[Input]) -> None:
        super().__init__()
        self.field = field
        self.submitted: list[str] = []

    def compose(self) -> ComposeResult:
        yield self.field("checkers-20261123.pdn")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.submitted.append(event.value)


def burst(app: App, keys: list[str]) -> None:
    """Post every key at once, as the driver does for one read of the terminal."""
    for key in keys:
        character = key if len(key) == 1 else {"backspace": "\x7f", "ctrl+u": "\x15", "enter": "\r"}.get(key)
        app.post_message(events.Key(key, character))


async def typed(field: type[Input], keys: list[str]) -> tuple[str, list[str]]:
    app = Form(field)
    async with app.run_test() as pilot:
        await pilot.pause()
        burst(app, keys)
        await pilot.pause()
        await pilot.pause()
        return app.query_one(Input).value, app.submitted


async def test_backspaces_and_ctrl_u_in_a_burst_keep_their_place():
    keys = ["ctrl+u", *"abc", "backspace", "backspace", *"xyz", "left", "left", "backspace", "enter"]
    value, submitted = await typed(OrderedInput, keys)
    assert value == "ayz" and submitted == ["ayz"]  # a x y z, two lefts: the backspace takes the x


async def test_the_stock_input_gets_them_wrong():
    """The upstream behaviour this works around: if this starts passing, Textual has the fix
    and OrderedInput can go."""
    keys = ["ctrl+u", *"abc", "backspace", "backspace", *"xyz", "enter"]
    value, submitted = await typed(Input, keys)
    assert submitted != ["axyz"]
