"""Unique loops (6, 8, 10+ cells, types 1-4), rated as Sudoku Explainer rates them.

The positions are those the stepper reaches on the issue's puzzle (Sudoku Explainer solves it
with a 6-cell unique loop at 4.6) and on two puzzles of the shipped diabolical sample; each
deduction was checked by hand (every unit the loop meets holds two of its cells, one at an odd
and one at an even place) and against the SAT solution of the puzzle.
"""

from __future__ import annotations

from pathlib import Path

from sudoku_marks import assert_sound, named, pm_state

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.grading import grade
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.unique_loops import loop_rating, unique_loops

SAMPLES = Path(__file__).parents[2] / "puzzles"

ISSUE_PUZZLE = "7..1.......2..4...9..8...3..9..3..8..28...15..1..6..4..4...3..8...4..6.......2..7"
# r7c3, r7c5, r9c5, r9c8, r8c8, r8c3 on 1 and 9; r9c5 and r8c3 have the extra 5.
TYPE2 = """
 7    38   34   | 1    2    59   | 89   6    45
 18   6    2    | 3    59   4    | 89   7    15
 9    5    14   | 8    7    6    | 2    3    14
 4    9    6    | 5    3    1    | 7    8    2
 3    2    8    | 9    4    7    | 1    5    6
 5    1    7    | 2    6    8    | 3    4    9
 6    4    19   | 7    19   3    | 5    2    8
 2    7    159  | 4    8    59   | 6    19   3
 18   38   1359 | 6    159  2    | 4    19   7
"""

TYPE1_PUZZLE = "080010060407000902003000800002060400000807000630000078041000720700453006000000000"
# r1c7, r1c9, r7c9, r7c1, r9c1, r9c7 on 3 and 5; only r1c9 has more.
TYPE1 = """
 29   8    59   | 257  1    4    | 35   6    357
 4    156  7    | 56   3    8    | 9    15   2
 12   156  3    | 2567 9    256  | 8    4    157
 8    7    2    | 3    6    59   | 4    15   159
 19   15   4    | 8    2    7    | 6    3    59
 6    3    59   | 159  4    159  | 2    7    8
 35   4    1    | 69   8    69   | 7    2    35
 7    2    8    | 4    5    3    | 1    9    6
 35   9    6    | 12   7    12   | 35   8    4
"""

TYPE4_PUZZLE = "090000730500700009302009100008504060000010000040602500007400308400007005039000040"
# r1c3, r1c9, r3c9, r3c5, r2c5, r2c3 on 4 and 6; in row 2, 4 fits only in r2c3 and r2c5.
TYPE4 = """
 8    9    46   | 12   25   15   | 7    3    46
 5    16   146  | 7    346  36   | 8    2    9
 3    7    2    | 8    46   9    | 1    5    46
 17   12   8    | 5    37   4    | 9    6    23
 679  26   5    | 39   1    38   | 4    78   23
 79   4    3    | 6    789  2    | 5    78   1
 126  5    7    | 4    269  16   | 3    19   8
 4    8    16   | 39   2369 7    | 26   19   5
 126  3    9    | 12   58   58   | 26   4    7
"""


def _only_step(text: str, puzzle: str):
    state = pm_state(text)
    steps = list(unique_loops(state))
    assert len(steps) == 1
    step = steps[0]
    assert_sound(step, sat.solve(parse_grid(puzzle)).solution)
    return step


def test_type_2_six_cells():
    step = _only_step(TYPE2, ISSUE_PUZZLE)
    assert step.technique == "unique loop" and step.rating == 4.6
    assert named(step.eliminations) == {("r8c6", 5), ("r9c3", 5)}
    assert step.explanation.startswith("Unique loop type 2 on 6 cells")


def test_type_1_six_cells():
    step = _only_step(TYPE1, TYPE1_PUZZLE)
    assert step.rating == 4.6
    assert named(step.eliminations) == {("r1c9", 3), ("r1c9", 5)}
    assert step.explanation.startswith("Unique loop type 1 on 6 cells")


def test_type_4_six_cells():
    step = _only_step(TYPE4, TYPE4_PUZZLE)
    assert step.rating == 4.6
    assert named(step.eliminations) == {("r2c3", 6), ("r2c5", 6)}
    assert "In row 2, 4 fits only in r2c5, r2c3" in step.explanation


def test_ratings_are_sudoku_explainers():
    assert [loop_rating(n) for n in (4, 6, 8, 10, 12)] == [4.5, 4.6, 4.7, 5.0, 5.0]


def test_the_issue_puzzle_grades_4_6_with_a_unique_loop():
    result = grade(parse_grid(ISSUE_PUZZLE))
    assert (result.level, result.rating, result.technique) == ("extreme", 4.6, "unique loop")


def test_no_loop_without_the_uniqueness_assumption():
    stepper = Stepper(parse_grid(ISSUE_PUZZLE), uniqueness=False)
    stepper.run()
    assert not any(s.technique == "unique loop" for s in stepper.steps)


def test_loops_are_sound_on_the_sample():
    grids = parse_puzzles((SAMPLES / "bench_sudoku_sudoku_exchange_diabolical_200.txt").read_text())[:60]
    used = 0
    for grid in grids:
        solution = sat.solve(grid).solution
        stepper = Stepper(grid)
        while (step := stepper.next_step()) is not None:
            if step.technique == "unique loop":
                used += 1
            for found in unique_loops(stepper.state) if step.rating >= 4.6 else ():
                assert_sound(found, solution)
            stepper.apply(step)
        assert stepper.solved
    assert used >= 1
