"""What every screen owes any terminal: ASCII-only output when asked, the ansi themes."""

from __future__ import annotations

import pytest
from ui_support import SIZE

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.ascii import AsciiFilter, ascii_text
from tui_games.userdata.store import Store


def screen_text(app) -> str:
    """The screen as the terminal receives it: every line through the app's filters."""
    lines = []
    for strip in app.screen._compositor.render_strips():
        segments = list(strip)
        for line_filter in app.get_line_filters():
            segments = line_filter.apply(segments, app.screen.styles.background)
        lines.append("".join(segment.text for segment in segments))
    return "\n".join(lines)


def test_ascii_text_keeps_every_width():
    drawn = "╭─ Search ─╮ ● ○ ◆ ◇ ★ ✂ ≤ ≥ ∞ · … × ▼ ▶ ┆┄ ⭘ 80×24"
    plain = ascii_text(drawn)
    assert plain.isascii() and len(plain) == len(drawn)
    assert plain.startswith("+- Search -+ @ o # % * x <=>=~")  # "≤ " reads "<=", not strict


@pytest.mark.parametrize("game, options", [
    ("tictactoe", {"opponent": "human"}),
    ("connect4", {"opponent": "human"}),
    ("checkers", {"opponent": "human"}),
    ("sudoku", {"source": "paste", "text": "0" * 2 + "3020600900305001001806400008102900700000008006708200002609500800203009005010300"}),
    (None, None),
])
async def test_ascii_mode_sends_only_ascii(home, game, options):
    app = TuiGamesApp(game, options, ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        if game:
            await pilot.press("t")  # the tree inspector too (a no-op for Sudoku)
            await pilot.pause()
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        assert any(isinstance(f, AsciiFilter) for f in app.get_line_filters())


async def test_the_ascii_setting_and_the_flag(home):
    Store().update_settings("ui", ascii=True)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE):
        assert app.ascii
    app = TuiGamesApp(ascii=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.ascii and not any(isinstance(f, AsciiFilter) for f in app.get_line_filters())
        assert not screen_text(app).isascii()  # the menu's border is drawn with box lines


async def test_an_ansi_theme_uses_the_terminals_own_colours(home):
    Store().update_settings("ui", theme="ansi-dark")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE):
        assert app.theme == "ansi-dark" and app.ansi_color


async def test_text_fields_do_not_blink(home):
    from textual.widgets import Input

    app = TuiGamesApp("checkers", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")  # the save dialog: a text field with the focus
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert field.has_focus and not field.cursor_blink


def test_partial_updates_send_only_the_changed_span():
    from rich.console import Console
    from rich.segment import Segment
    from textual._compositor import ChopsUpdate
    from textual.strip import Strip

    from tui_games.ui.runtime import partial_updates

    assert partial_updates.install()  # this Textual's compositor is the shape it expects
    line = Strip([Segment("abcdefghij")])
    update = ChopsUpdate([{0: line}], [(0, 3, 6)], [[10]])
    text = update.render_segments(Console(color_system=None, legacy_windows=False))
    assert "def" in text and "abc" not in text and "ghij" not in text
    assert "\x1b[1;4H" in text  # the cursor goes to the span's start (row 1, column 4)
