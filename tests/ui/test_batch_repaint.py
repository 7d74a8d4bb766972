"""A dialog opened while Textual holds back repaints (a batch of updates) reaches the terminal
once the batch ends, without a resize or another key (issue 56, finding 4).

Textual suspends drawing while a batch of updates is under way: a footer recomposing its keys
(after the bindings change), a Markdown mounting its blocks (the help), a recomposed widget. A
repaint the screen is asked for meanwhile waits for the screen's next idle, which comes only
with the screen's next message; the batch's end wakes the app, not the screen
(tui_games.ui.runtime.batch_repaint). A dialog whose whole first frame fell inside a batch stayed undrawn until the
next key reached it ("a second w showed the PDN dialog with w typed in it") or a resize.

Each test holds a batch (Textual's public ``batch_update``, as those widgets do) around the key
that opens the dialog, then compares what the terminal shows (pyte, fed with every byte the app
writes) with what Textual renders.
"""

from __future__ import annotations

import asyncio

import pyte
import pytest
import textual.drivers.headless_driver as headless_driver
from test_repaint import PUZZLE, cells

import tui_games.ui.app as app_module
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.runtime import textual_compat
from tui_games.ui.screens.help import HelpScreen
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.screens.sudoku_new import NewSudokuDialog

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
# How long a test waits for the dialog to reach the terminal before it fails: drawn, it takes a
# few turns of the loop; undrawn, it stays so until a toast expires (6 s) or a key comes.
WAIT_SECONDS = 4.0


class Terminal:
    """A terminal emulator of a size, fed with everything the app writes."""

    def __init__(self, width: int, height: int) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.Stream(self.screen)

    def feed(self, data: str) -> None:
        self.stream.feed(data)


@pytest.fixture
def terminals(monkeypatch, home):
    """Every app's output goes to a pyte terminal of its size (run_test's driver, made to write)."""
    made: list[Terminal] = []

    class RecordingDriver(headless_driver.HeadlessDriver):
        def __init__(self, app, *, size, **kwargs) -> None:
            super().__init__(app, size=size, **kwargs)
            self.terminal = Terminal(*size)
            made.append(self.terminal)

        @property
        def is_headless(self) -> bool:
            return False  # the app only writes to a driver that is not headless

        def write(self, data: str) -> None:
            self.terminal.feed(data)

    monkeypatch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
    monkeypatch.setattr(app_module, "catch_hang_up", lambda *args, **kwargs: None)
    return made


def textual_cells(app: TuiGamesApp, size: tuple[int, int]) -> list[list[tuple]]:
    reference = Terminal(*size)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    reference.feed(update.render_segments(app.console))
    return cells(reference.screen)


def differences(terminal: Terminal, app: TuiGamesApp, size: tuple[int, int]) -> list[str]:
    sent, rendered = cells(terminal.screen), textual_cells(app, size)
    return [f"row {y} col {x}: terminal {sent[y][x][0]!r} != Textual {rendered[y][x][0]!r}"
            for y in range(size[1]) for x in range(size[0]) if sent[y][x] != rendered[y][x]]


async def until(condition, seconds: float = WAIT_SECONDS) -> None:
    """Wait until ``condition()`` holds, looking every few milliseconds; at most ``seconds``
    (only a failing test waits that long)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(0.02)


def text(terminal: Terminal) -> str:
    return "\n".join(terminal.screen.display)


async def load_a_bad_file(pilot, tmp_path) -> None:
    """Sudoku's "a file" with a file that is no puzzle: the error toast stays on the screen."""
    bad = tmp_path / "bad.txt"
    bad.write_text("not a sudoku\n")
    await pilot.press("n")
    dialog = pilot.app.screen
    assert isinstance(dialog, NewSudokuDialog)
    dialog.query_one("#source").value = "file"
    await pilot.pause()
    dialog.query_one("#new-text").value = str(bad)
    await pilot.press("enter")
    await pilot.app.workers.wait_for_complete()
    for _ in range(100):
        if pilot.app._notifications:
            break
        await pilot.pause(0.05)
    assert pilot.app._notifications, "the failed load said nothing"


CASES = {
    # Checkers: w opens the PDN dialog.
    "checkers w": ("checkers", {"opponent": "human"}, None, "w", InputDialog, "Save the game as PDN"),
    # Sudoku after a failed file load (its error toast shown): n opens the new-puzzle dialog.
    "sudoku toast n": ("sudoku", {"source": "paste", "text": PUZZLE}, load_a_bad_file, "n", NewSudokuDialog,
                       "New Sudoku"),
    # ... and ? the help.
    "sudoku toast ?": ("sudoku", {"source": "paste", "text": PUZZLE}, load_a_bad_file, "question_mark",
                       HelpScreen, "How to play Sudoku"),
}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("case", list(CASES))
async def test_a_dialog_opened_during_a_batch_of_updates_is_drawn(case, size, terminals, tmp_path):
    game, options, before, key, dialog_class, shown = CASES[case]
    app = TuiGamesApp(game, options, ascii=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await pilot.pause()
        if before is not None:
            await before(pilot, tmp_path)
        terminal = terminals[-1]
        with app.batch_update():
            await pilot.press(key)
            assert isinstance(app.screen, dialog_class)
            await pilot.pause()  # the dialog is mounted, laid out and focused: all inside the batch
        # Not the pilot's pause from here on: it pokes every widget and paints the screen itself,
        # which is what a player's app does not get.
        await until(lambda: shown in text(terminal) and not differences(terminal, app, SIZES[size]))
        assert shown in text(terminal), f"the {dialog_class.__name__} was not drawn:\n{text(terminal)}"
        wrong = differences(terminal, app, SIZES[size])
        assert not wrong, f"{len(wrong)} cells differ:\n" + "\n".join(wrong[:8])


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_move_made_during_a_batch_of_updates_is_drawn(size, terminals):
    """No frame is thrown away here (the screen waits for the batch's end to draw), so it is the
    screen's own waiting repaint that must be woken."""
    app = TuiGamesApp("sudoku", {"source": "paste", "text": PUZZLE}, ascii=True)
    async with app.run_test(size=SIZES[size]) as pilot:
        await pilot.pause()
        terminal = terminals[-1]
        before = text(terminal)
        with app.batch_update():
            await pilot.press("4")
        await until(lambda: text(terminal) != before and not differences(terminal, app, SIZES[size]))
        wrong = differences(terminal, app, SIZES[size])
        assert not wrong, f"{len(wrong)} cells differ:\n" + "\n".join(wrong[:8])


async def test_a_resize_during_a_batch_of_updates_is_drawn(terminals):
    """The new layout's frame is rendered during the batch and thrown away: what the resize asked
    for is drawn once the batch ends."""
    app = TuiGamesApp("checkers", {"opponent": "human"}, ascii=True)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await pilot.pause()
        terminal = terminals[-1]
        size = SIZES["120x40"]
        terminal.screen.resize(size[1], size[0])
        with app.batch_update():
            await pilot.resize_terminal(*size)
            await until(lambda: textual_compat.compositor_size(app.screen) == size)  # laid out anew
            await pilot.pause()
        await until(lambda: not differences(terminal, app, size))
        wrong = differences(terminal, app, size)
        assert not wrong, f"{len(wrong)} cells differ:\n" + "\n".join(wrong[:8])
