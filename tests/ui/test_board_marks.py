"""What the game screens mark, read with a terminal emulator (pyte) on the bytes the app
sends: the last-move cue (an underline) goes under a piece once, not through it (on big
squares, 120×40, it was drawn on every line of the cell, striping the computer's O and a
checkers piece that must capture), and the score tracker is on screen at every size."""

from __future__ import annotations

from collections import defaultdict

import pyte
import pytest
import textual.drivers.headless_driver as headless_driver
from rich.color import ColorSystem

import tui_games.ui.app as app_module
from tui_games.ui.app import TuiGamesApp

SIZES = [(80, 24), (120, 40)]


def recording(monkeypatch, size):
    screen = pyte.Screen(*size)
    stream = pyte.Stream(screen)

    class RecordingDriver(headless_driver.HeadlessDriver):
        @property
        def is_headless(self) -> bool:
            return False

        def write(self, data: str) -> None:
            stream.feed(data)

    monkeypatch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
    monkeypatch.setattr(app_module, "catch_hang_up", lambda *args, **kwargs: None)
    return screen


def underlined_runs(screen: pyte.Screen) -> dict[int, list[int]]:
    """Rows with underlined cells that are not text (the footer's and panels' words are
    printable letters; a board's cells are marks, art and blanks): row -> columns."""
    rows: dict[int, list[int]] = defaultdict(list)
    for y in range(screen.lines):
        for x in range(screen.columns):
            cell = screen.buffer[y][x]
            if cell.underscore:
                rows[y].append(x)
    return rows


def column_groups(rows: dict[int, list[int]]) -> dict[tuple[int, int], list[int]]:
    """Underlined stretches keyed by their columns (first, last): the rows each appears on."""
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for y, xs in rows.items():
        start = prev = xs[0]
        for x in [*xs[1:], None]:
            if x is not None and x == prev + 1:
                prev = x
                continue
            groups[(start, prev)].append(y)
            if x is not None:
                start = prev = x
    return groups


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game, keys", [
    ("tictactoe", ["enter"]),              # the centre: X's mark carries the cue
    ("connect4", ["4"]),
])
async def test_the_last_move_is_underlined_on_one_line(monkeypatch, home, game, keys, size, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    screen = recording(monkeypatch, size)
    app = TuiGamesApp(game, {"opponent": "human"})
    async with app.run_test(size=size) as pilot:
        # Truecolor, as test_repaint draws: a 16-colour render here left its lines cached for it.
        app.console._color_system = ColorSystem.TRUECOLOR
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.2)
        app.refresh(repaint=True)
        await pilot.pause(0.2)
        groups = column_groups(underlined_runs(screen))
        assert groups, "the last move shows no cue"
        for columns, ys in groups.items():
            assert len(ys) == 1, f"the cue at columns {columns} is drawn on rows {ys}"


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
async def test_pieces_that_may_move_are_underlined_once(monkeypatch, home, size):
    screen = recording(monkeypatch, size)
    app = TuiGamesApp("checkers", {"opponent": "human"})
    async with app.run_test(size=size) as pilot:
        # Truecolor, as test_repaint draws: a 16-colour render here left its lines cached for it.
        app.console._color_system = ColorSystem.TRUECOLOR
        await pilot.pause(0.2)
        app.refresh(repaint=True)
        await pilot.pause(0.2)
        groups = column_groups(underlined_runs(screen))
        assert len(groups) >= 4  # black's front row may move
        for columns, ys in groups.items():
            assert len(ys) == 1, f"the underline at columns {columns} is drawn on rows {ys}"


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "120x40"])
@pytest.mark.parametrize("game, options, keys", [
    ("tictactoe", {"opponent": "magic-square"}, ["enter"]),   # a three-line status after its reply
    ("tictactoe", {"opponent": "level3", "rows": 7, "cols": 7, "k": 4}, []),
    ("connect4", {"opponent": "level3"}, []),
    ("checkers", {"opponent": "level3"}, []),
])
async def test_the_score_tracker_is_on_screen(monkeypatch, home, size, game, options, keys):
    # It sat under the status: against magic-square its three-line reason pushed it off an
    # 80×24 screen, and on 7×7 it never showed.
    screen = recording(monkeypatch, size)
    app = TuiGamesApp(game, options)
    async with app.run_test(size=size) as pilot:
        # Truecolor, as test_repaint draws: a 16-colour render here left its lines cached for it.
        app.console._color_system = ColorSystem.TRUECOLOR
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        runner = app.screen.runner
        for _ in range(600):
            if not runner.busy:
                break
            await pilot.pause(0.05)
        await pilot.pause(0.2)
        app.refresh(repaint=True)
        await pilot.pause(0.2)
        shown = "\n".join(screen.display)
        assert "won 0 · drawn 0 · lost 0" in shown, shown
