"""The Sudoku board with Killer cages and Jigsaw regions, as it draws them at 80×24: the
lines between cells by what they separate (cage borders dotted, boxes light, regions heavy, an
opening where a cage crosses a box line), each cage's sum at the top of its first cell, the
same read in --ascii; the cursor's cage highlighted and its need on the status line."""

from __future__ import annotations

import io

from rich.console import Console
from textual.app import App, ComposeResult
from ui_support import SIZE, ready, text_of, until

from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.variants import Cage, Variant
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.ascii import ascii_text
from tui_games.ui.screens.sudoku import cage_need
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.sudoku_board import SudokuBoard

# One letter a cage, row by row: "b" crosses the box line between columns 3 and 4 in row 1,
# "f" the one between rows 3 and 4 in column 1.
LABELS = ("aabbccdde" "fagbhcide" "fjgkhlime" "fjnkolpmq" "rrssttuuv"
          "wwxxyyzzv" "AABBCCDDE" "FFGGHHIIE" "JJKKLLMMN")
SOLUTION = [(r * 3 + r // 3 + c) % 9 + 1 for r in range(9) for c in range(9)]
# The boxes, but r3c1 belongs to region 4 and r4c2 to region 1.
REGIONS = ("111222333" "111222333" "411222333" "414555666" "444555666"
           "444555666" "777888999" "777888999" "777888999")


def killer() -> Variant:
    where: dict[str, list[int]] = {}
    for cell, label in enumerate(LABELS):
        where.setdefault(label, []).append(cell)
    return Variant(cages=tuple(Cage(sum(SOLUTION[c] for c in cells), tuple(cells)) for cells in where.values()))


def jigsaw() -> Variant:
    where: dict[str, list[int]] = {}
    for cell, label in enumerate(REGIONS):
        where.setdefault(label, []).append(cell)
    return Variant(regions=tuple(tuple(cells) for _, cells in sorted(where.items())))


class BoardApp(App):
    def __init__(self, grid: Grid) -> None:
        super().__init__()
        self.grid = grid

    def compose(self) -> ComposeResult:
        yield SudokuBoard(self.grid, id="board")


async def board_lines(grid: Grid) -> list[str]:
    app = BoardApp(grid)
    async with app.run_test(size=(80, 24)):
        board = app.query_one(SudokuBoard)
        return [board.render_line(y).text for y in range(len(board.lines))]


KILLER_TOP = [
    "  ┌8───────14─┬────20─────┬17──────18─┐",
    "1 │[ ]    ┆       ┆       │       ┆   │",
    "  │13··   ·15·│   ·10··   │5···   ·   │",
    "2 │   ┆   ┆   │   ┆   ┆   │   ┆   ┆   │",
    "  │   ·11··   │6···   ·10·│   ·14··   │",
    "3 │   ┆   ┆   │   ┆   ┆   │   ┆   ┆   │",
    "  ├─ ─── ──4──┼─ ──6──── ─┼8──── ──1──┤",
]


async def test_cages_are_dotted_with_their_sums_and_open_where_they_cross_a_box_line() -> None:
    lines = await board_lines(Grid([0] * 81, variant=killer()))
    assert lines[:7] == KILLER_TOP
    # The column labels in the bottom line: 9 rows, a line above each and one below, 19 lines
    # (the status line then fits at 80×24), 39 columns.
    assert lines[-1] == "  └─1───2───3─┴─4───5───6─┴─7───8───9─┘"
    assert len(lines) == 19 and {len(line) for line in lines} == {39}


async def test_a_killer_reads_in_ascii_boxes_solid_cages_dotted() -> None:
    lines = [ascii_text(line) for line in await board_lines(Grid([0] * 81, variant=killer()))]
    assert lines[0] == "  +8-------14-+----20-----+17------18-+"
    assert lines[2] == "  |13..   .15.|   .10..   |5...   .   |"
    assert lines[1] == "1 |[ ]    :       :       |       :   |"
    assert all(line.isascii() for line in lines)


async def test_jigsaw_regions_are_drawn_heavy() -> None:
    lines = await board_lines(Grid([0] * 81, variant=jigsaw()))
    assert lines[4:9] == [
        "  ┣━━━┓       ┃           ┃           ┃",
        "3 ┃   ┃       ┃           ┃           ┃",
        "  ┃   ┃   ┏━━━╋━━━━━━━━━━━╋━━━━━━━━━━━┫",
        "4 ┃   ┃   ┃   ┃           ┃           ┃",
        "  ┃   ┗━━━┛   ┃           ┃           ┃",
    ]
    assert ascii_text(lines[6]) == "  |   |   +---+-----------+-----------+"


async def test_the_classic_board_keeps_its_layout() -> None:
    lines = await board_lines(Grid())
    assert lines[1] == "  ┌────────────┬────────────┬────────────┐"
    assert len(lines) == 14


async def test_the_cursors_cage_is_highlighted_and_follows_it() -> None:
    app = BoardApp(Grid([0] * 81, variant=killer()))
    async with app.run_test(size=(80, 24)) as pilot:
        board = app.query_one(SudokuBoard)
        board.focus()
        await pilot.pause()
        cage_style = board._layer("board--cage")
        assert board.cage_cells(0) == {0, 1, 10}

        def styled(cell: int) -> bool:
            return cage_style.bgcolor is not None and board._cell(cell, 0, 0)[1].bgcolor == cage_style.bgcolor

        assert styled(1) and styled(10) and not styled(2)
        board.cursor = 2  # cage "b": r1c3, r1c4, r2c4
        await pilot.pause()
        assert styled(3) and styled(12) and not styled(1)


def test_the_status_gives_the_cursors_cage_need() -> None:
    grid = Grid([0] * 81, variant=killer())
    total = grid.variant.cages[0].total  # cage "a": r1c1, r1c2, r2c2
    assert cage_need(grid, 0) == f" (cage {total}: {total} in 3)"
    grid.values[1] = SOLUTION[1]
    assert cage_need(grid, 10) == f" (cage {total}: {total - SOLUTION[1]} in 2)"
    grid.values[0] = total  # too much for the two cells' sum with r1c2
    assert cage_need(grid, 10) == f" (cage {total}: {total + SOLUTION[1]} placed, too much)"
    assert cage_need(Grid(), 0) == ""


# -- the screen, with a Killer pasted -----------------------------------------------------------

# The Killer of Wikipedia's article (as tests/engine/test_sudoku_killer.py transcribes it).
WIKIPEDIA = ("AABBBCDEFGGHHCCDEFGGIICJKKFLMMINJKOFLPPQNJOORSPTQNUVVRSTTQWUUXXSYZWWaaXXSYZWbbbcc "
             "3,15,22,4,16,15,25,17,9,8,20,6,14,17,17,13,20,12,27,6,20,6,10,14,8,16,15,13,17")
WIKIPEDIA_SOLUTION = "215647398368952174794381652586274931142593867973816425821739546659428713437165289"


async def test_a_pasted_killer_plays_on_the_outlined_board_with_its_cage_need_and_cage_hints(home) -> None:
    app = TuiGamesApp("sudoku", {"source": "paste", "text": WIKIPEDIA})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await ready(pilot, screen)
        game = screen.game
        assert game.grid.variant is not None and len(game.grid.variant.cages) == 29
        board = screen.board
        assert board.outlined and board.region.bottom <= SIZE[1] - 3
        status = screen.query_one("#status")
        assert status.region.bottom <= SIZE[1] - 1  # above the footer
        assert "r1c1 (cage 3: 3 in 2)" in text_of(status)
        await pilot.press("i")
        await until(pilot, lambda: screen.pending_hint is not None)
        step = screen.pending_hint
        assert step.technique == "cage combination"
        assert board.hint_cells == set(step.cells) >= {0, 1}  # the 3-cage at r1c1
        await pilot.press("i")  # played: 3-9 leave r1c1 and r1c2
        assert game.candidates()[0] == game.candidates()[1] == 0b11
        await pilot.press("C")
        panel = screen.query_one(StatsPanel)
        await until(pilot, lambda: "Compare" in str(panel.border_title))
        shown = text_of(panel)
        assert "SAT · pycosat" in shown and "SMT · Z3" in shown and "one solution" in shown
        assert game.solution == [int(d) for d in WIKIPEDIA_SOLUTION]


def test_the_new_puzzle_dialog_reads_killer_and_jigsaw_lines() -> None:
    import random

    from tui_games.ui.screens.sudoku import load_puzzle
    from tui_games.ui.screens.sudoku_new import NewPuzzle, line_variant

    assert line_variant(WIKIPEDIA, "9") == "killer"  # recognised though 9×9 was chosen
    regions = "".join(REGIONS)
    assert line_variant(f"{regions} {'.' * 81}", "9") == "jigsaw"
    assert line_variant("." * 81, "9") is None
    puzzle, solution, _, label = load_puzzle(NewPuzzle("paste", variant="killer", text=WIKIPEDIA), random.Random(1))
    assert puzzle.variant is not None and len(puzzle.variant.cages) == 29 and label == "pasted"
    assert "".join(map(str, solution)) == WIKIPEDIA_SOLUTION
    # A bad line: one line naming the problem (here a cage sum no two digits make).
    bad = WIKIPEDIA.replace("3,15,", "1,17,", 1)
    try:
        load_puzzle(NewPuzzle("paste", variant="killer", text=bad), random.Random(1))
    except ValueError as error:
        assert "\n" not in str(error) and "cage" in str(error)
    else:
        raise AssertionError("a Killer with an impossible sum was accepted")


def test_without_z3_the_compare_panel_says_how_to_install_it(monkeypatch) -> None:
    from tui_games.engine.sudoku import smt
    from tui_games.engine.sudoku.formats import parse_killer
    from tui_games.ui.screens import sudoku_compare

    monkeypatch.setattr(smt, "available", lambda: False)
    rows = sudoku_compare.run_solvers(parse_killer(WIKIPEDIA))
    assert [r.name for r in rows] == ["SAT · pycosat", "SMT · Z3"]
    assert rows[0].answer == "one solution" and rows[1].missing == smt.INSTALL_HINT
    console = Console(width=34, record=True, file=io.StringIO())
    console.print(sudoku_compare.comparison(rows))
    shown = " ".join(console.export_text().split())  # the hint wraps in the panel's width, whole
    assert smt.INSTALL_HINT in shown and "faster here" not in shown
