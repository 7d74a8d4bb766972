"""The Puzzle of the day screen at 80×24: opened from the menu, the day's Connect-4 puzzle
played on its board by keys to the win (the defender answering each right move), then (again) wrong with the refutation told and played."""

from __future__ import annotations

import datetime
import json
import time
from pathlib import Path

import json_schema_check
import pytest
from lobby_support import app_hub
from ui_support import SIZE, text_of, until

from tui_games.daily import judge, puzzle
from tui_games.engine.connect4.position import Connect4
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.puzzle import PuzzleScreen
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.sudoku_board import SudokuBoard

DAY = datetime.date(2026, 12, 2)


async def _drop(pilot, board: Connect4Board, column: int) -> None:
    while board.column != column:
        await pilot.press("right" if board.column < column else "left")
    await pilot.press("enter")


async def test_the_menu_opens_todays_puzzle_and_an_answer_is_judged(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, PuzzleScreen) and app.screen.made is not None)
        await pilot.press("escape")
        app.push_screen(PuzzleScreen("connect4", day=DAY))
        screen = app.screen
        await until(pilot, lambda: screen.query(Connect4Board))
        made = puzzle("connect4", DAY)
        head = text_of(screen.query_one("#puzzle-head"))
        assert "Connect-4, 2026-12-02" in head and made.goal in head
        board = screen.query_one(Connect4Board)
        # The whole win played out: each right move answered by the defender on the board.
        mine = made.line[0::2]
        for number, column in enumerate(mine, 1):
            await _drop(pilot, board, int(column) - 1)
            if number < len(mine):
                reply = made.line[2 * number - 1]
                await until(pilot, lambda n=number: board.position.format() == made.position + "".join(made.line[:2 * n]))
                said = " ".join(text_of(screen.query_one("#puzzle-verdict")).split())
                assert said.startswith("Right.") and f"The reply: {reply}. Your move." in said
        await until(pilot, lambda: screen.verdict is not None)
        said = text_of(screen.query_one("#puzzle-verdict"))
        assert said.startswith("Solved.") and "four in a row" in said
        assert board.position.outcome() is not None and board.position.outcome().winner == Connect4.parse(
            made.position).turn

        await pilot.press("r")
        await until(pilot, lambda: screen.query(Connect4Board) and screen.verdict is None and screen.made)
        board = screen.query_one(Connect4Board)
        wrong = next(c for c in board.position.legal_moves() if str(c + 1) != made.solution)
        await _drop(pilot, board, wrong)
        await until(pilot, lambda: screen.verdict is not None)
        verdict = judge(made, str(wrong + 1))
        said = " ".join(text_of(screen.query_one("#puzzle-verdict")).split())
        assert said.startswith("Wrong.") and verdict.why in said
        # The board shows the answer and the reply that refutes it.
        assert board.position.format() == made.position + str(wrong + 1) + verdict.refutation


async def test_a_checkers_answer_is_picked_square_by_square(home):
    """A wrong move posted square by square, then the right one by the keys."""
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(PuzzleScreen("checkers", day=DAY))
        screen = app.screen
        await until(pilot, lambda: screen.query(CheckersBoard))
        made = puzzle("checkers", DAY)
        board = screen.query_one(CheckersBoard)
        wrong = next(m for m in board.position.legal_moves() if str(m) != made.solution)
        for square in wrong.path:
            board.post_message(CheckersBoard.SquareChosen(square))
            await pilot.pause()
        await until(pilot, lambda: screen.verdict is not None)
        said = " ".join(text_of(screen.query_one("#puzzle-verdict")).split())
        assert said.startswith("Wrong.") and judge(made, str(wrong)).why in said
        await pilot.press("r")
        await until(pilot, lambda: screen.query(CheckersBoard) and screen.verdict is None and screen.made)
        board = screen.query_one(CheckersBoard)
        for square in board.position.parse_move(made.solution).path:  # by keys this time: the cursor, Enter
            board.cursor = board.display_index(square)
            await pilot.press("enter")
        await until(pilot, lambda: screen.verdict is not None)
        assert text_of(screen.query_one("#puzzle-verdict")).startswith("Solved.")


@pytest.fixture
async def hub(tmp_path, home, monkeypatch):
    """A lobby whose clock stands at noon of DAY (UTC), the app's session issued for alice."""
    noon = datetime.datetime(2026, 12, 2, 12, tzinfo=datetime.timezone.utc).timestamp()
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    async with app_hub(tmp_path, monkeypatch, clock=lambda: noon) as hub:
        yield hub
    monkeypatch.delenv("TZ")
    time.tzset()


async def test_under_a_lobby_the_answer_played_out_is_counted_there(hub):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connected)
        await pilot.press("p")
        screen = app.screen
        await until(pilot, lambda: isinstance(screen, PuzzleScreen) and screen.query(Connect4Board))
        assert screen.day == DAY and screen.counted
        assert "counted in the lobby" in text_of(screen.query_one("#puzzle-head"))
        made = puzzle("connect4", DAY)
        board = screen.query_one(Connect4Board)
        for number, column in enumerate(made.line[0::2], 1):
            await _drop(pilot, board, int(column) - 1)
            await until(pilot, lambda n=number: screen.verdict is not None or board.position.format() ==
                        made.position + "".join(made.line[:2 * n]))
        await until(pilot, lambda: screen.recorded is not None)
        schema = json.loads((Path(__file__).resolve().parents[2] / "docs/schemas/puzzle.json").read_text())
        assert json_schema_check.errors(screen.recorded, schema) == []
        assert screen.recorded["verdict"]["correct"] and screen.recorded["streak"] == 1
        assert "streak 1 day" in " ".join(text_of(screen.query_one("#puzzle-verdict")).split())
        row = hub.lobby.storage.puzzle_days("connect4", DAY.isoformat())[0]
        assert row.player == "alice" and row.solved is not None and row.attempts == 1
        # Solved once: another go is refused by the lobby (and said so), nothing counted.
        await pilot.press("r")
        await until(pilot, lambda: screen.query(Connect4Board) and screen.made is not None and screen.verdict is None)
        await _drop(pilot, screen.query_one(Connect4Board), int(made.solution) - 1)
        wrong_or_more = made.line[2::2]
        board = screen.query_one(Connect4Board)
        for column in wrong_or_more:
            await until(pilot, lambda: board.position.turn == Connect4.parse(made.position).turn)
            await _drop(pilot, board, int(column) - 1)
        await until(pilot, lambda: screen.recorded is not None)
        assert "solved today's connect4 puzzle already" in screen.recorded["error"]
        assert hub.lobby.storage.puzzle_days("connect4", DAY.isoformat())[0].attempts == 1


async def test_a_full_sudoku_grid_waits_for_enter_so_a_typo_costs_no_attempt(hub):
    """Under the lobby, the grid is not judged the moment it is full: a typo in the last cell
    is marked, Enter does not send a grid that repeats a digit, and the corrected grid goes on
    Enter as the one attempt of the day, right."""
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby is not None and app.lobby.connected)
        app.push_screen(PuzzleScreen("sudoku"))
        screen = app.screen
        await until(pilot, lambda: screen.query(SudokuBoard) and screen.made is not None)
        assert screen.counted and screen.day == DAY
        assert "Judge the grid" in [shown[2] for shown in screen.query_one(KeysFooter).shown()]
        made = puzzle("sudoku", DAY)
        board = screen.query_one(SudokuBoard)
        blanks = [cell for cell, ch in enumerate(made.position) if ch == "."]
        *first, last = blanks
        for cell in first:
            screen.entered.values[cell] = int(made.solution[cell])
        board.cursor = last
        typo = next(d for d in "123456789" if d != made.solution[last])
        await pilot.press(typo)
        assert screen.entered.is_complete() and last in board.conflicts
        assert screen.verdict is None and screen.recorded is None
        assert "enter" in text_of(screen.query_one("#puzzle-verdict"))
        await pilot.press("enter")
        said = " ".join(text_of(screen.query_one("#puzzle-verdict")).split())
        assert screen.verdict is None and "repeat" in said
        await pilot.press(made.solution[last])
        assert screen.verdict is None and not board.conflicts
        await pilot.press("enter")
        await until(pilot, lambda: screen.recorded is not None)
        assert text_of(screen.query_one("#puzzle-verdict")).startswith("Solved.")
        assert screen.recorded["verdict"]["correct"]
        row = hub.lobby.storage.puzzle_days("sudoku", DAY.isoformat())[0]
        assert row.player == "alice" and row.solved is not None and row.attempts == 1
