"""Repaints are right: what the app sends a terminal, decoded by a terminal emulator (pyte),
is what Textual itself renders for the same state — characters and styles, cell by cell,
after every key and click, in truecolor and in 16 colours.

The app sends partial updates (only what changed, cropped by tui_games.ui.runtime.partial_updates);
a widget that forgets to repaint a cell leaves the old look on the player's screen while
every full render (and every pilot test that reads widgets) looks right. Before the fix the
tic-tac-toe and Connect-4 boards left the last-move underline on earlier moves this way.
"""

from __future__ import annotations

import pyte
import pytest
import textual.drivers.headless_driver as headless_driver
from rich.color import ColorSystem
from ui_support import cell_offset, column_offset, square_offset

import tui_games.ui.app as app_module
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

SIZE = WIDTH, HEIGHT = (80, 24)
PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
COLOURS = {"truecolor": ColorSystem.TRUECOLOR, "16 colours": ColorSystem.STANDARD}


class Terminal:
    """A terminal emulator fed with everything the app writes."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(WIDTH, HEIGHT)
        self.stream = pyte.Stream(self.screen)

    def feed(self, data: str) -> None:
        self.stream.feed(data)


def cells(screen: pyte.Screen) -> list[list[tuple]]:
    """Every cell: its character and the styles a player sees."""
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.strikethrough, c.reverse)
             for c in (screen.buffer[y][x] for x in range(screen.columns))] for y in range(screen.lines)]


@pytest.fixture
def terminal(monkeypatch, home):
    """The app's output goes to a Terminal: run_test's headless driver, made to write."""
    terminal = Terminal()

    class RecordingDriver(headless_driver.HeadlessDriver):
        @property
        def is_headless(self) -> bool:
            return False  # the app only writes to a driver that is not headless

        def write(self, data: str) -> None:
            terminal.feed(data)

    monkeypatch.setattr(headless_driver, "HeadlessDriver", RecordingDriver)
    # Not headless, the app would catch SIGHUP/SIGTERM for the whole test process.
    monkeypatch.setattr(app_module, "catch_hang_up", lambda *args, **kwargs: None)
    return terminal


def textual_render(app: TuiGamesApp) -> pyte.Screen:
    """The app's screen as Textual renders all of it at once, through the same emulator."""
    reference = Terminal()
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    reference.feed(update.render_segments(app.console))
    return reference.screen


def differences(terminal: Terminal, app: TuiGamesApp) -> list[str]:
    sent, rendered = cells(terminal.screen), cells(textual_render(app))
    return [f"row {y} col {x}: terminal {sent[y][x]} != Textual {rendered[y][x]}"
            for y in range(HEIGHT) for x in range(WIDTH) if sent[y][x] != rendered[y][x]]


async def drive(app: TuiGamesApp, terminal: Terminal, colours: ColorSystem, steps) -> None:
    """Run ``steps`` (keys, or callables taking the pilot) and compare after each."""
    async with app.run_test(size=SIZE) as pilot:
        app.console._color_system = colours
        app.refresh(repaint=True)
        await pilot.pause(0.2)
        for number, step in enumerate(steps):
            if callable(step):
                await step(pilot)
            else:
                await pilot.press(step)
            await pilot.pause(0.1)
            wrong = differences(terminal, app)
            assert not wrong, f"after step {number} ({step!r}), {len(wrong)} cells differ:\n" + "\n".join(wrong[:8])


def click_cell(cell: int):
    async def click(pilot) -> None:
        board = pilot.app.screen.query_one(TicTacToeBoard)
        await pilot.click(TicTacToeBoard, offset=cell_offset(board, cell))
    return click


def click_column(column: int):
    async def click(pilot) -> None:
        board = pilot.app.screen.query_one(Connect4Board)
        await pilot.click(Connect4Board, offset=column_offset(board, column))
    return click


def click_square(square: int):
    async def click(pilot) -> None:
        board = pilot.app.screen.query_one(CheckersBoard)
        await pilot.click(CheckersBoard, offset=square_offset(board, square))
    return click


GAMES = {
    "tic-tac-toe": ("tictactoe", {"opponent": "human"},
                    ["enter", "right", "enter", click_cell(0), "down", "down", "enter", "left", "enter", "u", "u",
                     "t", "s", "s", "n"]),
    "Connect-4": ("connect4", {"opponent": "human"},
                  ["4", "4", "5", "right", "enter", "3", click_column(0), "left", "left", "enter", "u", "u", "n"]),
    "checkers": ("checkers", {"opponent": "human"},
                 [click_square(11), click_square(15), "enter", "down", "enter", "up", "right", "enter", "down", "left",
                  "enter", "escape", "f", "numbersign", "u", "f"]),
    "Sudoku": ("sudoku", {"source": "paste", "text": PUZZLE},
               ["right", "4", "5", "p", "1", "2", "enter", "down", "m", "i", "i", "u", "ctrl+r", "c", "x", "space",
                "space"]),
}


@pytest.mark.parametrize("colours", list(COLOURS), ids=list(COLOURS))
@pytest.mark.parametrize("name", list(GAMES))
async def test_the_terminal_shows_what_textual_renders(name, colours, terminal):
    game, options, steps = GAMES[name]
    await drive(TuiGamesApp(game, options), terminal, COLOURS[colours], steps)


async def test_the_menu_and_the_panels(terminal):
    app = TuiGamesApp()
    steps = ["down", "down", "up", "1", "enter", "i", "c", "c", "t", "tab", "down", "escape", "question_mark",
             "escape", "escape", "l"]
    await drive(app, terminal, ColorSystem.TRUECOLOR, steps)


@pytest.mark.parametrize("game, options, moves, board_type, mark_class", [
    ("tictactoe", {"opponent": "human"}, ["enter"], TicTacToeBoard, "board--x"),
    ("tictactoe", {"opponent": "human"}, ["enter", "right", "enter"], TicTacToeBoard, "board--o"),
    ("connect4", {"opponent": "human"}, ["4"], Connect4Board, "board--first"),
    ("connect4", {"opponent": "human"}, ["4", "5"], Connect4Board, "board--second"),
])
async def test_the_last_move_keeps_its_colour(game, options, moves, board_type, mark_class, terminal):
    """The last-move cue adds an underline; the mark under it keeps its player's colour."""
    app = TuiGamesApp(game, options)
    async with app.run_test(size=SIZE) as pilot:
        app.console._color_system = ColorSystem.TRUECOLOR
        await pilot.press(*moves)
        await pilot.pause(0.2)
        board = app.screen.query_one(board_type)
        colour = board.get_component_rich_style(mark_class).color.get_truecolor()
        want = "".join(f"{part:02x}" for part in colour)
        underlined = [c for row in terminal.screen.buffer.values() for c in row.values()
                      if c.underscore and c.data in "XO●○"]
        assert underlined, "the last move is not underlined"
        assert {c.fg for c in underlined} == {want}, f"the underlined mark is drawn {underlined[0].fg}, not {want}"
