"""Pilot tests of the Sudoku screen at 80×24: entry by keys, pencil marks, undo/redo, hint,
conflicts, check, solve, resume, new-game dialog errors, best times; the hint in the worker
(cancelled by a move, a new request, a new puzzle, leaving), its panel with the rating and the
folded chain, the chain on the board and in full, every grade, the uniqueness setting."""

from __future__ import annotations

import io
import re
import threading
import time

from rich.console import Console
from textual.widgets import DataTable, Select, Static, Switch
from ui_support import PUZZLE, SIZE, cell, goto, ready, text_of, until

from tui_games.engine.sudoku.levels import LEVELS, SEARCH
from tui_games.engine.sudoku.notation import eureka
from tui_games.engine.sudoku.techniques import Cancelled, Link, Step
from tui_games.games import find_game
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens import sudoku as sudoku_screen
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.scores import ScoresScreen
from tui_games.ui.screens.settings import SettingsScreen
from tui_games.ui.screens.sudoku import HINT_WIDTH, SudokuScreen
from tui_games.ui.screens.sudoku_hint import CHAIN_LINES, ChainView, chain_pieces, fold_chain, wrap_pieces
from tui_games.ui.screens.sudoku_new import GRADES, NewSudokuDialog
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.sudoku_board import SudokuBoard
from tui_games.userdata.store import Store

SOLUTION = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"


def make_app(puzzle: str = PUZZLE) -> TuiGamesApp:
    return TuiGamesApp("sudoku", {"source": "paste", "text": puzzle})


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
        await until(pilot, lambda: screen.pending_hint is not None)  # looked for in the worker
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


async def test_a_bad_pasted_puzzle_is_named_in_the_dialog_and_escape_leaves_no_dead_screen(home):
    app = make_app("12345")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewSudokuDialog))
        dialog = app.screen
        assert "pasted puzzle" in text_of(dialog.query_one("#new-error"))
        await pilot.press("escape")
        # Not an empty grid where no key does anything: back to the menu.
        await until(pilot, lambda: not isinstance(app.screen, (NewSudokuDialog, SudokuScreen)))


async def test_a_puzzle_finished_with_a_hint_is_counted_as_assisted_and_is_no_best_time(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        last = PUZZLE.rindex("0")
        await goto(pilot, screen.board, 0)
        for row in range(9):
            for col in range(9):
                where = row * 9 + col
                if PUZZLE[where] == "0" and where != last:
                    await pilot.press(SOLUTION[where])
                await pilot.press("l")
            await pilot.press("j")
        await pilot.press("i")
        await until(pilot, lambda: screen.pending_hint is not None)
        await pilot.press("i")  # plays it: the last digit
        assert screen.game.is_solved()
        assert Store().records() == {"sudoku": {screen.game.grade: {"best": None, "solved": 0, "assisted": 1}}}
        app.action_scores()
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        table = app.screen.query_one("#records-table", DataTable)
        assert [str(c) for c in table.get_row_at(0)] == ["Sudoku", screen.game.grade, "—", "0", "1"]


async def test_a_new_puzzle_asks_before_dropping_the_one_in_progress_and_no_is_the_default(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await goto(pilot, screen.board, cell(1, 1))
        await pilot.press("4")
        for answer in ("enter", "escape"):  # the focus starts on No
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, NewSudokuDialog))
            await pilot.press("ctrl+s")
            await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
            assert "Drop the puzzle in progress" in text_of(app.screen.query_one(Static))
            await pilot.press(answer)
            await until(pilot, lambda: app.screen is screen)
            assert screen.game.grid.values[cell(1, 1)] == 4
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewSudokuDialog))
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await ready(pilot, screen)
        assert screen.game.grid.values[cell(1, 1)] == 0


# -- the hint in the worker, its panel, the chain on the board and in full ----------------------------


class SlowStepper:
    """Stands in for the stepper: each call waits (in the worker thread) until it is told to
    stop or :meth:`release` hands it ``step``; records every call's stop event and options."""

    def __init__(self, step: Step | None = None, *, wait: bool = True) -> None:
        self.step = step
        self.wait = wait
        self.calls: list[dict] = []
        self.stops: list[threading.Event] = []
        self.released = threading.Event()

    def __call__(self, grid, candidates=None, *, stop=None, uniqueness=True, max_level=None):
        self.calls.append({"grid": grid, "candidates": candidates, "uniqueness": uniqueness})
        self.stops.append(stop)
        if self.wait:
            deadline = time.monotonic() + 20
            while not self.released.is_set() and time.monotonic() < deadline:
                if stop is not None and stop.is_set():
                    raise Cancelled("stopped")
                time.sleep(0.005)
        return self.step

    def release(self) -> None:
        self.released.set()


# An alternating chain through empty cells of PUZZLE: 4 strong in r1c1=r1c2, weak to r2c2, ... (not
# a sound deduction: the UI only draws and writes out what the stepper says).
CHAIN_LINKS = [
    Link((cell(1, 1),), 4, (cell(1, 2),), 4, True),
    Link((cell(1, 2),), 4, (cell(2, 2),), 4, False),
    Link((cell(2, 2),), 4, (cell(2, 2),), 6, True),   # inside r2c2: (4=6)r2c2
    Link((cell(2, 2),), 6, (cell(2, 3),), 6, False),
    Link((cell(2, 3),), 6, (cell(5, 3),), 6, True),
    Link((cell(5, 3),), 6, (cell(5, 4),), 6, False),
    Link((cell(5, 4),), 6, (cell(5, 5),), 6, True),
    Link((cell(5, 5),), 6, (cell(5, 6),), 6, False),
    Link((cell(5, 6),), 6, (cell(6, 5),), 6, True),
    Link((cell(6, 5),), 6, (cell(4, 5),), 6, False),
    Link((cell(4, 5),), 6, (cell(4, 8),), 6, True),
    Link((cell(4, 8),), 6, (cell(9, 8),), 6, False),
    Link((cell(9, 8),), 6, (cell(9, 6),), 6, True),
]


def chain_step(links=CHAIN_LINKS, chains=None) -> Step:
    cells = tuple(dict.fromkeys(c for link in links for c in (*link.cells_a, *link.cells_b)))
    return Step("AIC", "fiendish", cells, (4, 6),
                "Either r1c1 is 4 or r9c6 is 6; r1c9 sees both, so it is neither.",
                eliminations=((cell(1, 9), 4),), rating=6.8, links=tuple(links),
                chain=tuple(chains) if chains else (eureka(list(links)),))


def board_cell_text(board: SudokuBoard, where: int) -> str:
    row, col = divmod(where, 9)
    line = board.render_line(board.cell_y[row] + board.cell_h // 2).text
    x = board.cell_x[col]
    return line[x:x + board.cell_w]


async def test_the_hint_thinks_in_the_worker_and_a_move_or_new_request_stops_it(home, monkeypatch):
    slow = SlowStepper()
    monkeypatch.setattr(sudoku_screen, "next_step", slow)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        board, panel = screen.board, screen.query_one(StatsPanel)
        await goto(pilot, board, cell(1, 1))
        await pilot.press("i")
        await until(pilot, lambda: len(slow.stops) == 1)
        assert screen.hint_running and "thinking…" in text_of(panel)
        # The screen stays live while the search runs: the cursor moves, marks are written.
        await pilot.press("right")
        assert board.cursor == cell(1, 2) and screen.hint_running
        await pilot.press("i")  # asking again stops the first search and starts another
        await until(pilot, lambda: len(slow.stops) == 2)
        assert slow.stops[0].is_set() and not slow.stops[1].is_set() and screen.hint_running
        await pilot.press("8")  # a move: the position the search was given is gone
        assert slow.stops[1].is_set() and not screen.hint_running
        assert screen.game.grid.values[cell(1, 2)] == 8
        assert "Stopped looking" in text_of(panel) and screen.pending_hint is None
        # A new puzzle stops it too ...
        await pilot.press("i")
        await until(pilot, lambda: len(slow.stops) == 3)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewSudokuDialog))
        await pilot.press("ctrl+s")  # the pasted puzzle again, over the one in progress
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        assert slow.stops[2].is_set()
        await ready(pilot, screen)
        # ... and so does leaving the screen.
        await pilot.press("i")
        await until(pilot, lambda: len(slow.stops) == 4)
        await pilot.press("escape")
        assert slow.stops[3].is_set()


async def test_the_hint_the_worker_found_is_shown_and_the_uniqueness_setting_reaches_it(home, monkeypatch):
    Store().update_settings("sudoku", uniqueness=False)
    step = Step("hidden single", "basic", (cell(1, 1),), (4,), "In row 1, 4 fits only in r1c1, so r1c1 is 4.",
                placements=((cell(1, 1), 4),), rating=1.5)
    slow = SlowStepper(step)
    monkeypatch.setattr(sudoku_screen, "next_step", slow)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("i")
        await until(pilot, lambda: len(slow.stops) == 1)
        assert screen.pending_hint is None
        slow.release()
        await until(pilot, lambda: screen.pending_hint is step)
        assert slow.calls[0]["uniqueness"] is False
        # The worker had its own copy of the grid, not the one the player edits.
        assert slow.calls[0]["grid"] is not screen.game.grid
        panel = screen.query_one(StatsPanel)
        assert str(panel.border_title) == "Hint · hidden single · 1.5"
        assert "basic · rating 1.5" in text_of(panel) and "place 4 at r1c1" in text_of(panel)
        assert not screen.check_action("chain", ())  # no chain: no Chain key in the footer
        await pilot.press("i")
        assert screen.game.grid.values[cell(1, 1)] == 4


async def test_a_real_hint_carries_its_rating(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("i")
        await until(pilot, lambda: screen.pending_hint is not None)
        step = screen.pending_hint
        assert step.rating >= 1.0
        assert str(screen.query_one(StatsPanel).border_title) == f"Hint · {step.technique} · {step.rating:.1f}"


# sudoku-exchange's diabolical #4 (puzzles/bench_sudoku_sudoku_exchange_diabolical_200.txt): after
# 14 easier steps the stepper's next one is an AIC through a group of cells and a bivalue cell.
DIABOLICAL = "..1.37....628..71..7...6.951.8....7.4.......1.2....4.861.7...8..83..154....98.1.."


async def test_a_real_chain_hint_is_drawn_and_sound(home):
    app = make_app(DIABOLICAL)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        game = screen.game
        step = None
        for _ in range(40):  # i shows the next step, i again plays it, until a chain comes
            await pilot.press("i")
            await until(pilot, lambda: screen.pending_hint is not None)
            step = screen.pending_hint
            if step.links:
                break
            await pilot.press("i")
        assert step is not None and step.links and step.chain
        assert all(game.solution[c] != d for c, d in step.eliminations)  # sound
        assert all(game.solution[c] == d for c, d in step.placements)
        panel = screen.query_one(StatsPanel)
        assert str(panel.border_title) == f"Hint · {step.technique} · {step.rating:.1f}"
        shown = text_of(panel).replace("\n", "")
        assert step.chain[0] in shown or "links…" in shown
        board = screen.board
        ends = {c for link in step.links for c in (*link.cells_a, *link.cells_b)}
        assert set(board.chain) == ends
        for where in ends:
            text = board_cell_text(board, where)
            assert any(symbol in text for symbol in "=->"), (where, text)
        assert screen.check_action("chain", ())


async def test_a_chain_is_folded_in_the_panel_drawn_on_the_board_and_shown_whole(home, monkeypatch):
    step = chain_step(chains=[eureka(CHAIN_LINKS * 2)])  # 26 links written: too long for the panel
    monkeypatch.setattr(sudoku_screen, "next_step", SlowStepper(step, wait=False))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("i")
        await until(pilot, lambda: screen.pending_hint is step)
        panel = screen.query_one(StatsPanel)
        assert str(panel.border_title) == "Hint · AIC · 6.8"
        shown = text_of(panel)
        assert "fiendish · rating 6.8" in shown and "remove 4 from r1c9" in shown
        assert "(4)r1c1=(4)r1c2" in shown and "…" in shown and "=(6)r9c6" in shown
        assert re.search(r"…\d+ links…", shown) and "v shows it all" in shown
        # The chain's lines fit the panel at 80 columns, so none is wrapped in the middle of a link.
        assert panel.content_region.width >= HINT_WIDTH
        chain_lines = [line for line in shown.splitlines() if line and line[0] in "(=-" or "…" in line]
        assert 1 <= len(chain_lines) <= CHAIN_LINES and all(len(line) <= HINT_WIDTH for line in chain_lines)
        assert screen.check_action("chain", ())
        # On the board: each candidate with the symbol of the link reaching it.
        board = screen.board
        assert board_cell_text(board, cell(1, 1)) == " >4 "  # where the chain starts
        assert board_cell_text(board, cell(1, 2)) == " =4 "  # reached by a strong link
        assert board_cell_text(board, cell(2, 2)) == "-4=6"  # weak into 4, strong 4=6 inside
        assert board_cell_text(board, cell(2, 3)) == " -6 "
        assert board_cell_text(board, cell(9, 6)) == " =6 "
        assert cell(1, 9) in board.targets and board_cell_text(board, cell(1, 9)) == " ×4 "  # what goes
        # v shows the chain whole, every link numbered; Escape closes it.
        await pilot.press("v")
        view = app.screen
        assert isinstance(view, ChainView)
        whole = text_of(view.query_one("#chain-text"))
        assert "".join(whole.split("chain\n", 1)[1].split("\n\n")[0].split("\n")) == step.chain[0]
        assert f"{len(CHAIN_LINKS):>3}. (6)r9c8 = (6)r9c6" in whole
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("i")  # plays it: the elimination becomes pencil marks
        assert not screen.game.marks[cell(1, 9)] & (1 << 3) and screen.game.marks[cell(1, 9)]
        assert board.chain == {} and not screen.check_action("chain", ())


async def test_a_forcing_chain_shows_a_few_branches_and_counts_the_rest(home, monkeypatch):
    branches = [eureka(CHAIN_LINKS[i:i + 4]) for i in range(0, 12, 2)]
    step = chain_step(chains=branches)
    monkeypatch.setattr(sudoku_screen, "next_step", SlowStepper(step, wait=False))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("i")
        await until(pilot, lambda: screen.pending_hint is step)
        shown = text_of(screen.query_one(StatsPanel))
        assert "+3 chains" in shown
        chain_lines = [line for line in shown.splitlines() if line and line[0] in "(=-"]
        assert len(chain_lines) == 3 and all(len(line) <= HINT_WIDTH for line in chain_lines)
        await pilot.press("v")
        whole = text_of(app.screen.query_one("#chain-text"))
        assert all(f"chain {n} of 6" in whole for n in range(1, 7))


async def test_marks_that_leave_out_the_solution_are_named_before_a_hint(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await goto(pilot, screen.board, cell(1, 1))
        await pilot.press("p", "5", "7")  # the solution has 4 here
        await pilot.press("i")
        assert not screen.hint_running and screen.pending_hint is None
        assert "r1c1" in text_of(screen.query_one("#status"))


def test_the_panel_folds_a_chain_between_links_and_says_how_many_are_left_out():
    chain = eureka(CHAIN_LINKS)
    pieces = chain_pieces(chain)
    assert "".join(pieces) == chain and len(pieces) == len(CHAIN_LINKS)  # the link inside r2c2 is one node
    assert fold_chain(chain, 200, 1) == [chain]
    assert wrap_pieces(pieces, 200) == [chain]
    for width, lines in ((32, 3), (32, 2), (40, 1), (76, 1)):
        folded = fold_chain(chain, width, lines)
        assert 1 <= len(folded) <= lines and all(len(line) <= width for line in folded)
        text = " ".join(folded)
        head, count, tail = re.fullmatch(r"(.*?) ?…(\d+) links… ?(.*)", text).groups()
        head, tail = head.replace(" ", ""), tail.replace(" ", "")
        assert chain.startswith(head) and chain.endswith(tail) and head and tail
        # Every line starts with a node or a link symbol: no node is cut in two.
        assert all(line[0] in "(=-…" for line in folded)
        shown = sum(text.count("=") + text.count("-") for text in (head, tail))  # inside cells too
        assert int(count) == len(CHAIN_LINKS) - shown > 0


async def test_every_grade_is_offered_kept_in_settings_and_listed_in_scores(home):
    assert GRADES == [level for level in LEVELS if level != SEARCH]
    assert {"fiendish", "diabolical", "nightmare"} <= set(GRADES)
    rule = find_game("sudoku").setting_rules["grade"]
    assert all(rule.check(grade) == grade for grade in GRADES)
    Store().record_time("sudoku", "nightmare", 754.0)
    Store().record_time("sudoku", "basic", 300.0)
    Store().record_time("sudoku", "extreme", 500.0)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, NewSudokuDialog))
        offered = [value for _, value in app.screen.query_one("#grade", Select)._options]
        assert offered == GRADES
        await pilot.press("escape")
        app.action_scores()
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        table = app.screen.query_one("#records-table", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert ["Sudoku", "nightmare", "12:34", "1", "0"] in rows
        assert [row[1] for row in rows] == ["basic", "extreme", "nightmare"], "easiest grade first"


async def test_the_uniqueness_setting_is_a_switch_in_settings(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        switch = app.screen.query_one("#sudoku--uniqueness", Switch)
        assert switch.value is True
        switch.value = False
        await pilot.pause()
        assert Store().load_settings()["sudoku"]["uniqueness"] is False


async def test_many_pencil_marks_in_a_small_cell_read_as_marks_not_a_count(home):
    # Issue 23, finding 12: "(4)" for four marks read as the candidate 4.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        board = screen.board
        assert not board.large
        await goto(pilot, board, cell(1, 1))
        await pilot.press("p", "1", "2", "5", "7", "p")
        text = board._marks_text(screen.game.marks[cell(1, 1)], 0, False)
        assert text == " 12…" and len(text) == len(board._marks_text(1, 0, False))  # as wide as "1"


async def test_the_sat_panel_fits_its_column(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        await pilot.press("S")
        await ready(pilot, screen)
        panel = screen.query_one(StatsPanel)
        console = Console(width=panel.content_size.width, file=io.StringIO(), record=True)
        console.print(panel.content)
        shown = console.export_text()
        assert re.search(r"by propagation +\d+ cells", shown) and "…" not in shown, shown


def _footer_keys(screen) -> dict[str, object]:
    from textual.widgets._footer import FooterKey

    return {key.key: key for key in screen.query(FooterKey)}


async def test_redo_is_in_the_footer_when_there_is_something_to_redo_and_every_key_fits(home):
    # Ctrl+R was in neither the footer nor the README: a player who undid too far had no way
    # to know the moves could come back.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        assert "ctrl+r" not in _footer_keys(screen)  # nothing to redo yet
        await goto(pilot, screen.board, PUZZLE.index("0"))
        await pilot.press("4", "u")
        await until(pilot, lambda: "ctrl+r" in _footer_keys(screen))
        # A hint with a chain adds v: the footer still holds every key inside 80 columns.
        chained = Step("AIC", "tough", (cell(1, 1),), (4,), "a chain", eliminations=((cell(1, 1), 4),),
                       rating=7.1, chain=("(4)r1c1=r1c2",))
        screen.pending_hint = chained
        screen.refresh_bindings()
        await until(pilot, lambda: "v" in _footer_keys(screen) and "ctrl+r" in _footer_keys(screen))
        await pilot.pause()
        for key, widget in _footer_keys(screen).items():
            assert widget.region.right <= SIZE[0], f"{key} is cut at {widget.region}"
        await pilot.press("ctrl+r")
        assert screen.game.grid.values[PUZZLE.index("0")] == 4


def test_the_readme_keys_table_names_sudokus_own_keys():
    # The table gave o (options) for every game; Sudoku's dialog is on n and its redo on Ctrl+R.
    from pathlib import Path

    readme = (Path(__file__).parents[2] / "README.md").read_text()
    table = [line for line in readme.splitlines() if line.startswith("| `u` / `n` / `o`")]
    bound = {binding.action: binding.key for binding in SudokuScreen.BINDINGS}
    assert bound["redo"] == "ctrl+r" and bound["new_game"] == "n" and "options" not in bound
    assert len(table) == 1 and "Ctrl+R" in table[0] and "Sudoku" in table[0] and "`n` opens" in table[0]
