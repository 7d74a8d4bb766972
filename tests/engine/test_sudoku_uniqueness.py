"""Uniqueness techniques: unique rectangles (types 1-4, hidden) and BUG+1.

The positions are HoDoKu's technique examples (hodoku.sourceforge.net, "show_example"
pages: the pencil-mark grid and the elimination HoDoKu prints), or, where no literal one was
at hand, a position the stepper reached on a puzzle of the shared diabolical set, with the
deduction checked by hand. Every test checks the step against the SAT solution of the
original puzzle; the last tests run the stepper over real puzzles and every shape of grid.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from parallel_support import parallel_map
from sudoku_marks import GEO, assert_sound, finds_checked, named, pm_state

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.generator import generate
from tui_games.engine.sudoku.grid import cell_name
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import State
from tui_games.engine.sudoku.uniqueness import (
    bug_plus_one,
    hidden_unique_rectangles,
    unique_rectangles_type_1,
    unique_rectangles_type_2,
    unique_rectangles_type_3,
    unique_rectangles_type_4,
)

SAMPLES = Path(__file__).parents[2] / "puzzles"
DIABOLICAL = SAMPLES / "bench_sudoku_sudoku_exchange_diabolical_200.txt"  # 200 of the shared diabolical set
UNIQUENESS = {t.name for t in TECHNIQUES if t.uniqueness}
FINDERS = (unique_rectangles_type_1, unique_rectangles_type_2, unique_rectangles_type_3,
           unique_rectangles_type_4, hidden_unique_rectangles, bug_plus_one)


def solution_of(puzzle: str, state: State) -> list[int]:
    """The SAT solution of the original puzzle, checked against the digits of the position."""
    solution = sat.solve(parse_grid(puzzle)).solution
    for c, v in enumerate(state.values):
        assert not v or v == solution[c], f"the grid does not belong to the puzzle at {cell_name(c)}"
        assert v or state.masks[c] >> (solution[c] - 1) & 1, f"the true digit is not a candidate at {cell_name(c)}"
    return solution


# HoDoKu, "Unique Rectangle Type 1" (u101): Uniqueness Test 1: 8/9 in r2c23,r6c23 => r2c2<>8, r2c2<>9
UR1_PUZZLE = ".....896.1..7......675..3..21...78....489...37....4..5.219....4................26"
UR1 = """
 5   34   2  | 134  134   8  | 9    6  7
 1   389  89 | 7    36    69 | 4    5  2
 49  6    7  | 5    24    29 | 3    8  1
 2   1    3  | 6    5     7  | 8    4  9
 6   5    4  | 8    9     1  | 2    7  3
 7   89   89 | 23   23    4  | 6    1  5
 8   2    1  | 9    67    56 | 57   3  4
 3   47   6  | 124  1247  25 | 157  9  8
 49  479  5  | 14   8     3  | 17   2  6
"""


def test_unique_rectangle_type_1():
    state = pm_state(UR1)
    solution = solution_of(UR1_PUZZLE, state)
    steps = list(unique_rectangles_type_1(state))
    assert len(steps) == 1
    step = steps[0]
    assert named(step.eliminations) == {("r2c2", 8), ("r2c2", 9)}
    assert {cell_name(c) for c in step.cells} == {"r2c2", "r2c3", "r6c2", "r6c3"}
    assert step.digits == (8, 9)
    assert "r2c2" in step.explanation and "r6c3" in step.explanation
    assert_sound(step, solution)


# HoDoKu, "Unique Rectangle Type 2" (u202): 6/9 in r6c56,r8c56 => 7 removed from every cell that sees
# both r8c5 and r8c6 (row 8 and box 8).
UR2_PUZZLE = ".79.....6..5..14..6.............8.2..98.1.....1.2...54.......6885.4..2.3..6......"
UR2 = """
 14   7    9   | 38     23458    235   | 135    18    6
 3    28   5   | 6      2789     1     | 4      789   29
 6    248  12  | 3789   2345789  23579 | 13579  1789  1259
 5    6    4   | 379    379      8     | 19     2     19
 2    9    8   | 5      1        4     | 6      3     7
 7    1    3   | 2      69       69    | 8      5     4
 149  234  127 | 1379   23579    23579 | 1579   6     8
 8    5    17  | 4      679      679   | 2      179   3
 19   23   6   | 13789  235789   23579 | 1579   4     159
"""


def test_unique_rectangle_type_2():
    state = pm_state(UR2)
    solution = solution_of(UR2_PUZZLE, state)
    step = next(unique_rectangles_type_2(state))
    assert named(step.eliminations) == {(c, 7) for c in ("r7c4", "r7c5", "r7c6", "r8c3", "r8c8", "r9c4", "r9c5",
                                                          "r9c6")}
    assert {cell_name(c) for c in step.cells} == {"r6c5", "r6c6", "r8c5", "r8c6"}
    assert "one of r8c5, r8c6 must be 7" in step.explanation
    assert_sound(step, solution)
    # nothing of type 1 here: no rectangle has three corners with only its two digits
    assert list(unique_rectangles_type_1(state)) == []


# A position the stepper reaches on puzzle 16 of the sudoku-exchange diabolical set: r7c1, r7c3 hold
# only 3 and 4; r5c1 (134) and r5c3 (1348) have the extras 1 and 8, and r5c9 holds 18: with the
# extras they form a naked pair in row 5, so 8 goes from r5c7.
UR3_PUZZLE = "082400003907005000010027000000009062090000050260800000000170020000900704800006130"
UR3 = """
 56   8    2    | 4    9    1    | 56   7    3
 9    34   7    | 36   8    5    | 2    14   16
 456  1    346  | 36   2    7    | 5689 49   689
 7    34   1348 | 5    13   9    | 348  6    2
 134  9    1348 | 7    6    2    | 348  5    18
 2    6    5    | 8    13   4    | 39   19   7
 34   5    34   | 1    7    8    | 69   2    69
 16   2    16   | 9    5    3    | 7    8    4
 8    7    9    | 2    4    6    | 1    3    5
"""


def test_unique_rectangle_type_3():
    state = pm_state(UR3)
    solution = solution_of(UR3_PUZZLE, state)
    step = next(unique_rectangles_type_3(state))
    assert named(step.eliminations) == {("r5c7", 8)}
    assert {cell_name(c) for c in step.cells} == {"r5c1", "r5c3", "r7c1", "r7c3", "r5c9"}
    assert step.rating == 4.6  # a naked pair: Sudoku Explainer's 4.5 + 0.1
    assert "r5c9" in step.explanation and "row 5" in step.explanation
    assert_sound(step, solution)


def test_unique_rectangle_type_3_rates_larger_sets_higher():
    # By hand: floor r4c1, r4c2 = 12, roof r1c1 = 123, r1c2 = 124; with r1c3 = 35 and r1c4 = 45 the extras
    # 3, 4 form a naked triple 3, 4, 5 in row 1 (every other cell holds all nine digits).
    geo = GEO
    masks = [geo.full] * 81
    for name, digits in {"r4c1": "12", "r4c2": "12", "r1c1": "123", "r1c2": "124", "r1c3": "35",
                         "r1c4": "45"}.items():
        row, col = (int(x) for x in name[1:].split("c"))
        masks[(row - 1) * 9 + col - 1] = sum(1 << (int(d) - 1) for d in digits)
    state = State(geo, [0] * 81, masks)
    steps = [s for s in unique_rectangles_type_3(state) if {cell_name(c) for c in s.cells} ==
             {"r1c1", "r1c2", "r4c1", "r4c2", "r1c3", "r1c4"}]
    assert len(steps) == 1
    assert steps[0].rating == 4.7
    assert named(steps[0].eliminations) == {(f"r1c{c}", d) for c in range(5, 10) for d in (3, 4, 5)}


# HoDoKu, "Unique Rectangle Type 4" (u402): 2/8 in r8c38,r9c38; 8 only in r8c8, r9c8 in column 8
# => r8c8<>2, r9c8<>2
UR4_PUZZLE = "..9..7......6....3...5218...14..5..7.83...2...............8.64..6...3..17.......5"
UR4 = """
 8    25    9   | 34     34    7    | 15   1256  26
 145  2457  157 | 6      9     8    | 45   257   3
 346  347   67  | 5      2     1    | 8    79    49
 2    1     4   | 8      36    5    | 39   369   7
 569  8     3   | 149    7     469  | 2    156   46
 569  579   567 | 12349  1346  2469 | 145  1356  8
 135  35    15  | 7      8     29   | 6    4     29
 49   6     28  | 249    5     3    | 7    289   1
 7    49    28  | 1249   146   2469 | 39   2389  5
"""


def test_unique_rectangle_type_4():
    state = pm_state(UR4)
    solution = solution_of(UR4_PUZZLE, state)
    step = next(unique_rectangles_type_4(state))
    assert named(step.eliminations) == {("r8c8", 2), ("r9c8", 2)}
    assert {cell_name(c) for c in step.cells} == {"r8c3", "r9c3", "r8c8", "r9c8"}
    assert "column 8" in step.explanation
    assert step.links and step.links[0].strong
    assert_sound(step, solution)


# HoDoKu, "Hidden Rectangle" (hr02): 4/5 in r2c29,r3c29 => r2c9<>5
HUR_PUZZLE = "....5.2..3..7.....7...9..1.9..1..746............5....9.29...4...6...4....8...23.1"
HUR = """
 68   9    168  | 4    5    136 | 2    378  37
 3    145  2    | 7    8    16  | 56   9    45
 7    45   468  | 2    9    36  | 568  1    345
 9    3    5    | 1    2    8   | 7    4    6
 28   7    148  | 6    34   9   | 158  238  235
 268  14   1468 | 5    34   7   | 18   238  9
 1    2    9    | 3    7    5   | 4    6    8
 5    6    3    | 8    1    4   | 9    27   27
 4    8    7    | 9    6    2   | 3    5    1
"""


def test_hidden_unique_rectangle():
    state = pm_state(HUR)
    solution = solution_of(HUR_PUZZLE, state)
    steps = list(hidden_unique_rectangles(state))
    assert len(steps) == 1
    step = steps[0]
    assert named(step.eliminations) == {("r2c9", 5)}
    assert {cell_name(c) for c in step.cells} == {"r2c2", "r2c9", "r3c2", "r3c9"}
    assert "r3c2 holds only 4 and 5" in step.explanation
    assert len(step.links) == 2 and all(link.strong for link in step.links)
    assert_sound(step, solution)


# A position the stepper reaches on puzzle 19 of the diabolical set: every empty cell is bivalue but
# r5c3 (157); 1 has three places in row 5, column 3 and box 4, so r5c3 is 1.
BUG_PUZZLE = "650000020008107036020000000000700809000030000906008000000000010310504900070000064"
BUG = """
 6   5   17  | 48  9   3   | 47  2   18
 4   9   8   | 1   2   7   | 5   3   6
 17  2   3   | 6   48  5   | 47  9   18
 2   3   15  | 7   14  6   | 8   45  9
 17  8   157 | 49  3   19  | 6   45  2
 9   4   6   | 2   5   8   | 1   7   3
 8   6   4   | 39  7   29  | 23  1   5
 3   1   2   | 5   6   4   | 9   8   7
 5   7   9   | 38  18  12  | 23  6   4
"""


def test_bug_plus_one():
    state = pm_state(BUG)
    solution = solution_of(BUG_PUZZLE, state)
    steps = list(bug_plus_one(state))
    assert len(steps) == 1
    assert named(steps[0].placements) == {("r5c3", 1)}
    assert steps[0].eliminations == ()
    assert "r5c3" in steps[0].explanation
    assert_sound(steps[0], solution)


def test_bug_plus_one_needs_the_whole_pattern():
    state = pm_state(BUG)
    # a second trivalue cell: no BUG+1
    state.masks[0 * 9 + 2] |= 1 << 8  # r1c3: 1, 7, 9
    assert list(bug_plus_one(state)) == []
    # all bivalue but one, yet a digit with three places elsewhere: not a BUG+1 either
    state = pm_state(BUG)
    state.masks[4 * 9 + 2] = 0b1010001  # r5c3: 1, 5, 7 -> keep, but break row 1's 4s
    state.masks[0 * 9 + 2] = 0b1001000  # r1c3: 4, 7 (4 now three times in row 1)
    assert list(bug_plus_one(state)) == []


def test_rectangles_skip_filled_cells_and_single_boxes():
    # three corners 12 and a fourth filled with 1: no rectangle
    state = pm_state(UR1)
    geo = state.geo
    for f in (unique_rectangles_type_1, unique_rectangles_type_2, unique_rectangles_type_3,
              unique_rectangles_type_4, hidden_unique_rectangles):
        assert all(0 not in s.cells for s in f(state))
    # four cells of one box (two rows, two columns, one box): not a deadly pattern
    masks = [0] * 81
    values = [0] * 81
    for c in range(81):
        masks[c] = geo.full
    for c in (0, 1, 9):
        masks[c] = 0b11
    masks[10] = 0b111
    assert list(unique_rectangles_type_1(State(geo, values, masks))) == []


def test_uniqueness_false_leaves_the_techniques_out():
    grids = parse_puzzles(DIABOLICAL.read_text())[:40]
    seen_with = set()
    for grid in grids:
        solution = sat.solve(grid).solution
        with_u = Stepper(grid)
        seen_with |= {s.technique for s in with_u.run()}
        stepper = Stepper(grid, uniqueness=False)
        assert not any(t.uniqueness for t in stepper.techniques)
        for step in stepper.run():
            assert step.technique not in UNIQUENESS
            assert_sound(step, solution)
        # what the uniqueness techniques finished, the others finish too (chains, ALSes)
        assert stepper.solved or not with_u.solved
    assert seen_with & UNIQUENESS  # they do come up when allowed


@pytest.mark.parametrize("path, count", [(DIABOLICAL, 40), (SAMPLES / "bench_sudoku_norvig_top95.txt", 95)])
def test_every_step_is_sound_on_real_puzzles(path, count):
    # every step the uniqueness finders see is sound, not only the one taken
    used = set().union(*parallel_map(partial(finds_checked, finders=FINDERS), parse_puzzles(path.read_text())[:count]))
    assert len(used) >= 3


@pytest.mark.parametrize("size, diagonal, level", [(4, False, "trivial"), (6, False, "basic"),
                                                   (9, True, "extreme"), (16, False, "basic")])
def test_other_shapes(size, diagonal, level):
    made = generate(level, 5, size=size, diagonal=diagonal)
    stepper = Stepper(made.puzzle)
    while (step := stepper.next_step()) is not None:
        for finder in FINDERS:
            for found in finder(stepper.state):
                assert_sound(found, made.solution)
        stepper.apply(step)
    assert stepper.solved
