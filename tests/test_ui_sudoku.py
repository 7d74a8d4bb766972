"""Pilot tests of the Sudoku screen at 80×24: entry by keys, pencil marks, undo/redo, hint,
conflicts, check, solve, resume, new-game dialog errors, best times."""

from __future__ import annotations

from test_ui_tictactoe import SIZE, text_of

from tui_games.store import Store
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.sudoku import SudokuScreen
from tui_games.ui.screens.sudoku_new import NewSudokuDialog
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.sudoku_board import SudokuBoard

# Project Euler's grid 01 and its solution.
PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def make_app(puzzle: str = PUZZLE) -> TuiGamesApp:
    return TuiGamesApp("sudoku", {"source": "paste", "text": puzzle})


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


async def test_a_whole_puzzle_entered_by_keys_is_solved_and_timed(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, SudokuScreen)
        await ready(pilot, screen)
        board = screen.board
        assert screen.game.grade is not None and screen.game.source == "pasted"
        await goto(pilot, board, 0)
        for row in range(9):
            for col in range(9):
                if PUZZLE[row * 9 + col] == "0":
                    await pilot.press(SOLUTION[row * 9 + col])
                await pilot.press("l")
            await pilot.press("j")
        assert screen.game.grid.format() == SOLUTION
        assert screen.game.is_solved()
        assert "Solved in" in text_of(screen.query_one("#status"))
        records = Store().records()["sudoku"]
        assert list(records.values())[0]["solved"] == 1
        assert Store().load_game("sudoku") is None  # nothing left to resume


async def test_givens_refuse_digits_and_conflicts_are_highlighted(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        board = screen.board
        await goto(pilot, board, cell(1, 3))  # a given 3
        await pilot.press("5")
        assert screen.game.grid.values[cell(1, 3)] == 3
        await goto(pilot, board, cell(1, 1))
        await pilot.press("3")  # the given 3 of r1c3 is in the same row
        assert board.conflicts == {cell(1, 1), cell(1, 3)}
        await pilot.press("backspace")
        assert board.conflicts == set() and screen.game.grid.values[cell(1, 1)] == 0


async def test_pencil_marks_and_their_removal_from_peers(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        board, game = screen.board, screen.game
        await goto(pilot, board, cell(1, 1))
        await pilot.press("p", "4", "8")  # pencil mode: digits toggle marks
        assert game.marks[cell(1, 1)] == (1 << 3) | (1 << 7)
        await pilot.press("8")
        assert game.marks[cell(1, 1)] == 1 << 3
        await pilot.press("enter")  # back to digits; Shift+digit still toggles a mark
        await pilot.press("exclamation_mark")
        assert game.marks[cell(1, 1)] == (1 << 3) | 1
        await pilot.press("m")  # every candidate of every empty cell
        assert game.marks[cell(1, 2)] == game.grid.candidate_mask(cell(1, 2))
        assert game.marks[cell(1, 2)] & (1 << 7)  # 8 is a candidate of r1c2
        await goto(pilot, board, cell(1, 1))
        await pilot.press("8")  # placing 8 at r1c1 takes 8 out of its peers' marks
        assert game.grid.values[cell(1, 1)] == 8 and game.marks[cell(1, 1)] == 0
        assert not game.marks[cell(1, 2)] & (1 << 7)
        assert "r1c1" in text_of(screen.query_one("#status"))


async def test_undo_and_redo_are_unlimited(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        board, game = screen.board, screen.game
        await goto(pilot, board, cell(1, 1))
        await pilot.press("4", "right", "8", "right", "right", "9")
        filled = game.grid.format()
        await pilot.press("u", "u", "u")
        assert game.grid.format() == PUZZLE.replace("0", ".")
        await pilot.press("u")  # nothing more to undo: no change, no error
        assert "Nothing to undo" in text_of(screen.query_one("#status"))
        await pilot.press("ctrl+r", "ctrl+r", "ctrl+r")
        assert game.grid.format() == filled


async def test_hint_explains_then_applies(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        game = screen.game
        await pilot.press("i")
        step = screen.pending_hint
        assert step is not None and step.placements
        panel = screen.query_one(StatsPanel)
        assert step.technique in str(panel.border_title)
        assert screen.board.hint_cells == set(step.cells)
        await pilot.press("i")
        for where, digit in step.placements:
            assert game.grid.values[where] == digit == int(SOLUTION[where])
        assert screen.pending_hint is None and screen.board.hint_cells == set()


async def test_hint_asks_to_fix_a_wrong_digit_and_check_finds_it(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await goto(pilot, screen.board, cell(1, 1))
        await pilot.press("5")  # the solution has 4 here
        await pilot.press("i")
        assert screen.pending_hint is None
        assert "r1c1" in text_of(screen.query_one("#status"))
        await pilot.press("c")
        assert screen.board.wrong == {cell(1, 1)}
        assert "1 wrong" in text_of(screen.query_one("#status"))


async def test_solve_fills_the_grid_and_shows_the_encoding(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("S")
        await ready(pilot, screen)
        assert screen.game.grid.format() == SOLUTION
        panel = screen.query_one(StatsPanel)
        assert "SAT" in str(panel.border_title)
        shown = text_of(panel)
        assert "variables" in shown and "clauses" in shown and "literals" in shown
        assert Store().records() == {}  # a revealed solution is no record


async def test_the_game_in_progress_resumes_after_a_restart(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await goto(pilot, screen.board, cell(1, 1))
        await pilot.press("4", "right", "p", "6", "8")
        saved = screen.game.grid.format()
        marks = list(screen.game.marks)
    app = TuiGamesApp("sudoku")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.pause()
        assert screen.game is not None
        assert screen.game.grid.format() == saved and screen.game.marks == marks
        await pilot.press("u")  # the undo history came back too
        assert screen.game.marks[cell(1, 2)] == 1 << 5


async def test_a_bad_pasted_puzzle_is_named_in_the_dialog(home):
    app = make_app("12345")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause(0.05)
            if isinstance(app.screen, NewSudokuDialog):
                break
        dialog = app.screen
        assert isinstance(dialog, NewSudokuDialog)
        assert "pasted puzzle" in text_of(dialog.query_one("#new-error"))
