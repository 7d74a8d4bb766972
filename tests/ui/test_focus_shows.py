"""Every focusable thing in a dialog shows that it has focus, and a dialog opens on its main
field. A compact list (Select) showed its focus as a 5% tint: in Sudoku's new-puzzle dialog it
took Tabs with nothing visible to find the path field, and Enter on an unseen Cancel closed
the dialog."""

from __future__ import annotations

import pytest
from textual.color import Color
from textual.widgets import Button, Input, Select
from textual.widgets._select import SelectCurrent

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.sudoku_new import NewSudokuDialog
from tui_games.ui.screens.ttt_options import TicTacToeOptionsScreen

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


def look(widget) -> tuple:
    """What a player sees of a widget's focus: its background's brightness and attributes (a
    Select's on its shown value; an Input's shows as its cursor, which only a focused Input
    draws)."""
    if isinstance(widget, Select):
        style = widget.query_one(SelectCurrent).rich_style
    else:
        style = widget.rich_style
    background = Color.from_rich_color(style.bgcolor).brightness if style.bgcolor else 0.0
    return background, bool(style.bold), bool(style.reverse)


def visibly_different(a: tuple, b: tuple) -> bool:
    """Bold or reverse video toggled, or a background a tenth of the scale brighter or darker
    (Textual's 5% tint is not)."""
    return a[1:] != b[1:] or abs(a[0] - b[0]) >= 0.1


async def tab_through(pilot, app, dialog_type):
    """Tab round the dialog: each widget looks different focused from unfocused."""
    assert isinstance(app.screen, dialog_type)
    seen = set()
    for _ in range(12):
        widget = app.focused
        assert widget is not None
        if widget in seen:
            break
        seen.add(widget)
        if not isinstance(widget, Input):
            focused = look(widget)
            await pilot.press("tab")
            await pilot.pause()
            assert app.focused is not widget
            assert visibly_different(look(widget), focused), f"{widget!r} looks the same focused and not"
        else:
            assert widget.has_focus and widget.cursor_blink is False  # a steady cursor shows it
            await pilot.press("tab")
            await pilot.pause()
    assert any(isinstance(w, Select) for w in seen) and any(isinstance(w, Button) for w in seen)


@pytest.mark.parametrize("source", ["generate", "file"])
async def test_the_sudoku_dialog_shows_focus_and_opens_on_its_main_field(home, source):
    app = TuiGamesApp("sudoku", {"source": "paste", "text": PUZZLE})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause(0.5)
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#source", Select).value = source
        await pilot.pause()
        if source == "file":
            # The file's name is what to type next.
            assert app.focused is dialog.query_one("#new-text", Input)
        await tab_through(pilot, app, NewSudokuDialog)


async def test_the_tictactoe_options_show_focus(home):
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await tab_through(pilot, app, TicTacToeOptionsScreen)
