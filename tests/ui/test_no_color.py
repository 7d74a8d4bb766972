"""``NO_COLOR``: the app sends no colour at all, not greys. Textual turns colours into greys
(its Monochrome filter), which a 256-colour terminal receives as ``38;5;245``; the README
promises none. Read on the bytes the app writes, in every game and the menu."""

from __future__ import annotations

import re

import pytest
import textual.drivers.headless_driver as headless_driver
from rich.color import ColorSystem

import tui_games.ui.app as app_module
from tui_games.ui.app import TuiGamesApp

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SGR = re.compile(r"\x1b\[([0-9;:]*)m")
# SGR parameters that set a colour (39/49 put the terminal's own default back: no colour).
COLOUR_PARAMETERS = {*range(30, 39), *range(40, 49), *range(90, 98), *range(100, 108)}


def colours_in(data: str) -> list[str]:
    """The SGR sequences of ``data`` that set a colour (38;5;N and 38;2;R;G;B included)."""
    found = []
    for match in SGR.finditer(data):
        parameters = [int(p) for p in re.split("[;:]", match.group(1)) if p.isdigit()]
        # The numbers after 38/48 are the colour's own: only the first of each run matters.
        i = 0
        while i < len(parameters):
            p = parameters[i]
            if p in COLOUR_PARAMETERS:
                found.append(match.group(0))
                break
            i += 1
    return found


@pytest.fixture
def written(monkeypatch, home):
    """Everything the app writes to its terminal."""
    chunks: list[str] = []

    class RecordingDriver(headless_driver.HeadlessDriver):
        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            chunks.append(data)

    monkeypatch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
    monkeypatch.setattr(app_module, "catch_hang_up", lambda *args, **kwargs: None)
    monkeypatch.setenv("NO_COLOR", "1")
    return chunks


@pytest.mark.parametrize("game, options, keys", [
    (None, {}, ["down", "down"]),
    ("tictactoe", {"opponent": "human"}, ["enter", "right", "enter", "t", "s"]),
    ("connect4", {"opponent": "human"}, ["4", "4", "5"]),
    ("checkers", {"opponent": "human"}, ["down", "enter"]),
    ("sudoku", {"source": "paste", "text": PUZZLE}, ["right", "4", "p", "1"]),
], ids=["menu", "tictactoe", "connect4", "checkers", "sudoku"])
@pytest.mark.parametrize("colours", [ColorSystem.EIGHT_BIT, ColorSystem.TRUECOLOR], ids=["256", "truecolor"])
async def test_no_color_sends_no_colour(written, game, options, keys, colours):
    app = TuiGamesApp(game, options) if game else TuiGamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        app.console._color_system = colours
        app.refresh(repaint=True)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        data = "".join(written)
        assert "\x1b[" in data and "Tic-tac-toe" in data or game  # it did draw
        assert colours_in(data) == [], sorted(set(colours_in(data)))[:5]
        # What still tells things apart without colour: bold, reverse or underline somewhere.
        assert re.search(r"\x1b\[[0-9;]*\b(1|4|7)\b[0-9;]*m", data)


async def test_no_color_shows_focus_without_colour(written):
    # A focused list showed its focus by its border's colour alone: in NO_COLOR, nothing.
    from textual.widgets import Select
    from textual.widgets._select import SelectCurrent

    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        focused = app.focused
        assert isinstance(focused, Select)
        assert focused.query_one(SelectCurrent).rich_style.reverse
        await pilot.press("tab")
        await pilot.pause()
        assert app.focused is not focused and isinstance(app.focused, Select)
        assert app.focused.query_one(SelectCurrent).rich_style.reverse
        assert not focused.query_one(SelectCurrent).rich_style.reverse


def test_a_highlight_becomes_reverse_video_and_shades_do_not():
    from rich.style import Style

    from tui_games.ui.no_color import colourless

    black = 0.0
    assert colourless(Style(color="red", bgcolor="rgb(100,100,100)"), black) == Style(
        color="default", bgcolor="default", reverse=True)
    assert colourless(Style(bold=True, bgcolor="rgb(10,10,10)"), black) == Style(
        bold=True, color="default", bgcolor="default")
    # Already reversed and standing out: shown plain, the way the colours showed it.
    assert not colourless(Style(reverse=True, bgcolor="rgb(200,200,200)"), black).reverse
