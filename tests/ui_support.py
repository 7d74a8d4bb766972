"""Helpers the app's pilot tests share: the screen size, waiting for the engine or a
condition, the plain text of a widget, where a cell is on the screen, a tic-tac-toe game played
out by keys, a Lab arena run and a replay of its game, the Lab's comparison filled in, a lobby offer accepted, a Sudoku cursor
walk."""

from __future__ import annotations

import io
import os
import signal
import sys
import threading

from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Input, Select

from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.live_game import LiveGame
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.screens.sudoku import SudokuScreen
from tui_games.ui.screens.tictactoe import TicTacToeScreen
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.ui.widgets.sudoku_board import SudokuBoard
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

SIZE = (80, 24)

async def settle(pilot, screen: TicTacToeScreen, timeout: float = 30.0) -> None:
    """Wait until the engine has finished whatever it was doing."""
    waited = 0.0
    while screen.runner.busy and waited < timeout:
        await pilot.pause(0.05)
        waited += 0.05
    await pilot.pause()
    assert not screen.runner.busy, "the engine did not finish"

def text_of(widget) -> str:
    """The plain text a Static shows, as the terminal would print it."""
    content = widget.content
    if isinstance(content, str):
        content = Text.from_markup(content)
    console = Console(width=max(widget.size.width, 40), file=io.StringIO(), record=True)
    console.print(content)
    return console.export_text()

def lines_of(widget) -> list[str]:
    """The lines a widget that draws itself line by line (a board) shows, as plain text."""
    return ["".join(segment.text for segment in widget.render_line(y)) for y in range(widget.size.height)]

def cell_offset(board: TicTacToeBoard, cell: int) -> tuple[int, int]:
    region = board.cell_region(cell)
    return region.x + region.width // 2, region.y + region.height // 2

async def play_out_by_keys(pilot, screen: TicTacToeScreen) -> None:
    """Play a 3×3 game against the computer to its end: each turn walk the cursor to the first
    free cell by keys, then Enter; last, wait for the engine."""
    board = screen.query_one(TicTacToeBoard)
    for _ in range(5):
        await settle(pilot, screen)
        if screen.position.outcome() is not None:
            break
        target = screen.position.legal_moves()[0]
        while board.cursor // 3 != target // 3:
            await pilot.press("down")
        while board.cursor != target:
            await pilot.press("l")
        await pilot.press("enter")
    await settle(pilot, screen)

async def until(pilot, condition, timeout: float = 30.0) -> None:
    waited = 0.0
    while not condition() and waited < timeout:
        await pilot.pause(0.05)
        waited += 0.05
    assert condition(), "timed out"

async def open_lab(pilot, app) -> LabScreen:
    await pilot.press("l")
    await pilot.pause()
    assert isinstance(app.screen, LabScreen)
    return app.screen

async def open_lab_tournament(pilot, app, game: str) -> LabScreen:
    """The Lab opened from the menu on ``game``'s tournament tab."""
    lab = await open_lab(pilot, app)
    lab.query_one("#lab-game", Select).value = game
    await pilot.pause()
    lab.action_tab("tournament")
    await pilot.pause()
    return lab


async def fill(pilot, lab: LabScreen, game: str, a: str, b: str, games: int) -> None:
    lab.query_one("#lab-game", Select).value = game
    await pilot.pause()
    lab.query_one("#arena-a", Input).value = a
    lab.query_one("#arena-b", Input).value = b
    lab.query_one("#arena-count", Input).value = str(games)
    lab.query_one("#arena-list", DataTable).focus()  # keys go to the screen, not a field
    await pilot.pause()

async def arena_run(pilot, app, game: str, a: str, b: str, games: int) -> LabScreen:
    """The Lab opened from the menu, its arena filled in and run (r) to its end."""
    lab = await open_lab(pilot, app)
    await fill(pilot, lab, game, a, b, games)
    await pilot.press("r")
    await until(pilot, lambda: lab.running is None and lab.result is not None)
    return lab

async def fill_comparison(pilot, lab: LabScreen, position: str, depth: int) -> DataTable:
    """The Lab's comparison tab (c) with a preset position and depth, its table focused (keys go
    to the screen, not a field): the table."""
    await pilot.press("c")
    await pilot.pause()
    lab.query_one("#compare-position", Select).value = position
    await pilot.pause()
    lab.query_one("#compare-depth", Input).value = str(depth)
    table = lab.query_one("#compare-table", DataTable)
    table.focus()
    return table

async def open_replay(pilot, app, lab: LabScreen) -> ReplayScreen:
    """Enter on the first game of the Lab's last run: its replay."""
    table = lab.query_one("#arena-list", DataTable)
    table.focus()
    table.move_cursor(row=0)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
    return app.screen

async def accept_the_offer(pilot, app) -> LiveGame:
    """Once the app is in the lobby, its one offer accepted from the lobby screen (o, Enter):
    the live game it opens."""
    await until(pilot, lambda: app.lobby.connected)
    await pilot.press("o")
    table = app.screen.query_one("#offers", DataTable)
    await until(pilot, lambda: table.row_count == 1)
    table.focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LiveGame))
    return app.screen

# Project Euler's grid 01 and its solution.
PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"

async def ready(pilot, screen: SudokuScreen, timeout: float = 30.0) -> None:
    waited = 0.0
    while (screen.runner.busy or screen.game is None) and waited < timeout:
        await pilot.pause(0.05)
        waited += 0.05
    await pilot.pause()
    assert screen.game is not None and not screen.runner.busy

def cell(row: int, col: int) -> int:
    return (row - 1) * 9 + col - 1

async def goto(pilot, board: SudokuBoard, target: int) -> None:
    """Walk the cursor to ``target`` with the arrow keys."""
    row, col = divmod(board.cursor, 9)
    want_row, want_col = divmod(target, 9)
    keys = ["down" if want_row > row else "up"] * abs(want_row - row)
    keys += ["right" if want_col > col else "left"] * abs(want_col - col)
    await pilot.press(*keys)
    assert board.cursor == target

def square_offset(board: CheckersBoard, square: int) -> tuple[int, int]:
    region = board.index_region(board.display_index(square))
    return region.x + 1, region.y

def column_offset(board: Connect4Board, column: int) -> tuple[int, int]:
    region = board.cell_region(5 * 7 + column)  # the bottom cell of the column
    return region.x + region.width // 2, region.y + 1


def process_state() -> dict[str, object]:
    """What a process-wide preparation (the zygote's rehearsal or standby app) must leave as it
    found it: the environment, the directory, the threads, the hang-up handlers, the streams."""
    return {"environment": dict(os.environ), "cwd": os.getcwd(), "threads": set(threading.enumerate()),
            "handlers": {signum: signal.getsignal(signum) for signum in (signal.SIGHUP, signal.SIGTERM, signal.SIGINT)},
            "streams": (sys.stdout, sys.stderr, sys.stdin)}
