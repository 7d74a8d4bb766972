"""Almost locked sets: ALS-XZ (singly and doubly linked), ALS-XY-wing, sue de coq.

The positions are HoDoKu's technique examples (hodoku.sourceforge.net "show_example" pages:
the pencil-mark grid and the elimination HoDoKu prints), or positions the stepper reached on
a puzzle of the shared sudoku-exchange diabolical set, checked by hand. Each test checks the
steps against the SAT solution of the original puzzle; the last tests run the finders at every
position the stepper meets on real puzzles and on every shape of grid.
"""

from __future__ import annotations

import threading
from functools import partial
from itertools import islice
from pathlib import Path

import pytest
from parallel_support import parallel_map
from sudoku_marks import assert_sound, finds_checked, named, pm_state

from tui_games.engine.sudoku import als, sat
from tui_games.engine.sudoku.als import BENT_WINGS, als_xy_wings, als_xz, bent_wing, sue_de_coq
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.generator import generate
from tui_games.engine.sudoku.grid import cell_name
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Cancelled, State

SAMPLES = Path(__file__).parents[2] / "puzzles"
DIABOLICAL = SAMPLES / "bench_sudoku_sudoku_exchange_diabolical_200.txt"
FINDERS = (als_xz, als_xy_wings, sue_de_coq)


def solution_of(puzzle: str, state: State) -> list[int]:
    """The SAT solution of the original puzzle, checked against the digits of the position."""
    solution = sat.solve(parse_grid(puzzle)).solution
    for c, v in enumerate(state.values):
        assert not v or v == solution[c], f"the grid does not belong to the puzzle at {cell_name(c)}"
        assert v or state.masks[c] >> (solution[c] - 1) & 1, f"the true digit is not a candidate at {cell_name(c)}"
    return solution


def cells_of(step) -> set[str]:
    return {cell_name(c) for c in step.cells}


# HoDoKu, "ALS-XZ" (axz02): eliminations 8 from r7c3, r8c3, r9c3.
AXZ_PUZZLE = "..34.7.6.4....59...276....1........591.....8.2..78....6..25.4...4..........1....3"
AXZ = """
 158   9     3     | 4    12    7      | 258    6      28
 4     68    168   | 38   12    5      | 9      237    278
 58    2     7     | 6    39    389    | 358    4      1
 378   3678  468   | 39   3469  123469 | 1236   1239   5
 9     1     46    | 5    346   2346   | 2367   8      2467
 2     356   456   | 7    8     13469  | 136    139    469
 6     378   189   | 2    5     389    | 4      179    789
 1378  4     12589 | 389  3679  3689   | 12678  12579  26789
 78    578   2589  | 1    4679  4689   | 2678   2579   3
"""


def test_als_xz():
    state = pm_state(AXZ)
    solution = solution_of(AXZ_PUZZLE, state)
    steps = list(als_xz(state))
    step = steps[0]
    assert named(step.eliminations) == {("r7c3", 8), ("r8c3", 8), ("r9c3", 8)}
    # A = r7c2, r9c1 {3 7 8}, B = r4c3, r5c3, r6c2, r6c3 {3 4 5 6 8}; X = 3 (only r7c2 and r6c2 hold it,
    # both in column 2), Z = 8: r7c3, r8c3, r9c3 see A's 8s (box 7) and B's (r4c3, column 3)
    assert cells_of(step) == {"r7c2", "r9c1", "r4c3", "r5c3", "r6c2", "r6c3"}
    assert step.chain == ("(8=3)r7c2,r9c1-(3=8)r6c2,r456c3",)
    assert [(link.digit_a, link.digit_b, link.strong) for link in step.links] == [(8, 3, True), (3, 3, False),
                                                                                   (3, 8, True)]
    assert {cell_name(c) for c in step.links[0].cells_a} == {"r7c2", "r9c1"}  # A's 8s: a grouped node
    assert {cell_name(c) for c in step.links[1].cells_a} == {"r7c2"}
    assert {cell_name(c) for c in step.links[1].cells_b} == {"r6c2"}
    assert {cell_name(c) for c in step.links[2].cells_b} == {"r4c3"}
    assert "r7c2, r9c1 (3, 7 and 8)" in step.explanation and "8 is removed from r7c3, r8c3, r9c3" in step.explanation
    for s in steps:
        assert_sound(s, solution)
        assert s.technique == "ALS-XZ" and len(s.chain) == 1 and s.links


# Puzzle 6 of the diabolical set, once nothing easier than ALSes applies. A = r4c6, r4c9 {5 6 8},
# B = r6c1, r6c4, r6c9 {4 5 6 8}: 5 (r4c6 / r6c4, box 5) and 8 (r4c9 / r6c9, column 9) are both
# restricted common, so both sets are locked: 5 goes from r4c4 (sees the 5s of both), 4 -- B's own
# digit -- from r6c2 (sees r6c1 and r6c4). Singly linked, only r4c4 would go.
DOUBLE_PUZZLE = "300600080069000000800049003000010300073020450001070000500280009000000830020004005"
DOUBLE = """
 3    14   247  | 6    5    127  | 9    8    47
 1247 6    9    | 178  3    1278 | 5    12   47
 8    15   257  | 17   4    9    | 16   126  3
 249  4589 245  | 459  1    56   | 3    7    68
 69   7    3    | 89   2    68   | 4    5    1
 46   458  1    | 45   7    3    | 2    9    68
 5    3    67   | 2    8    17   | 167  4    9
 1479 149  467  | 157  69   157  | 8    3    2
 179  2    8    | 3    69   4    | 167  16   5
"""


def test_als_xz_doubly_linked():
    state = pm_state(DOUBLE)
    solution = solution_of(DOUBLE_PUZZLE, state)
    steps = list(als_xz(state))
    doubles = [s for s in steps if cells_of(s) == {"r4c6", "r4c9", "r6c1", "r6c4", "r6c9"}]
    assert len(doubles) == 1
    step = doubles[0]
    assert named(step.eliminations) == {("r4c4", 5), ("r6c2", 4)}
    assert step.chain == ("(8=5)r4c69-(5=8)r6c149-(8=5)r4c69",)
    assert len(step.links) == 4 and [link.strong for link in step.links] == [True, False, True, False]
    assert "linked twice" in step.explanation
    for s in steps:
        assert_sound(s, solution)


# HoDoKu, "ALS-XY-Wing" (axy01): elimination 3 from r7c7.
AXY_PUZZLE = "4.6....7......1.6.....8....23..........34.......8..95..9.........2.5761.5...2...4"
AXY = """
 4      125   6    | 25   39    359 | 12358  7    12589
 89     258   3589 | 257  379   1   | 4      6    259
 179    1257  359  | 6    8     4   | 1235   239  1259
 2      3     589  | 57   1679  569 | 178    4    167
 16789  1567  589  | 3    4     569 | 1278   28   1267
 167    1467  147  | 8    167   2   | 9      5    3
 678    9     14   | 14   36    368 | 23578  238  2578
 3      48    2    | 49   5     7   | 6      1    89
 5      1678  17   | 19   2     368 | 378    389  4
"""


def test_als_xy_wing():
    state = pm_state(AXY)
    solution = solution_of(AXY_PUZZLE, state)
    steps = list(als_xy_wings(state))
    assert steps
    # the wings of three disjoint sets first, then those whose sets share cells (one of which
    # also removes 2 from r3c8, through r7c8 in both wings)
    overlapping = ["share cells" in s.explanation for s in steps]
    assert overlapping == sorted(overlapping) and True in overlapping
    assert {named(s.eliminations) == {("r7c7", 3)} for s, o in zip(steps, overlapping) if not o} == {True}
    assert {("r3c8", 2), ("r7c7", 3)} in [named(s.eliminations) for s in steps]
    step = steps[0]
    # the pivot r8c9 {8 9}; A = r9c3, r9c4, r9c7, r9c8 {1 3 7 8 9} (8 to the pivot), B = r1c7, r3c7,
    # r1c9, r2c9, r3c9 (9 to the pivot); both hold 3, and r7c7 sees all their 3s
    assert step.chain == ("(3=8)r9c3478-(8=9)r8c9-(9=3)r13c7,r123c9",)
    assert [link.strong for link in step.links] == [True, False, True, False, True]
    assert "r8c9 (8 and 9) holds 8 or 9" in step.explanation
    for s in steps:
        assert_sound(s, solution)
        assert s.technique == "ALS-XY-wing" and s.chain[0].count("-") == 2


# HoDoKu, "Sue de Coq (extended variant)" (sdc04): r4c8, r6c8 {3 5 7 8} where box 6 meets column 8;
# r8c8 {3 5} in the column, r4c7 {7 9} and r5c9 {8 9} in the box.
SDC_PUZZLE = "..4....9765.....2191...73.42.1.3....5.32.6...............6........1746..7...9..1."
SDC = """
 3  2     4   | 8  6    1   | 5     9      7
 6  5     7   | 9  4    3   | 8     2      1
 9  1     8   | 5  2    7   | 3     6      4
 2  6789  1   | 4  3    589 | 79    578    5689
 5  789   3   | 2  18   6   | 1479  478    89
 4  689   69  | 7  158  589 | 129   358    235689
 1  349   259 | 6  58   258 | 2479  34578  23589
 8  39    259 | 1  7    4   | 6     35     2359
 7  46    256 | 3  9    258 | 24    1      258
"""


def test_sue_de_coq_extended():
    state = pm_state(SDC)
    solution = solution_of(SDC_PUZZLE, state)
    steps = list(sue_de_coq(state))
    hodoku = [s for s in steps if cells_of(s) == {"r4c8", "r6c8", "r8c8", "r4c7", "r5c9"}]
    assert len(hodoku) == 1
    assert named(hodoku[0].eliminations) == {
        ("r7c8", 3), ("r7c8", 5), ("r5c7", 7), ("r5c8", 7), ("r4c9", 8), ("r5c8", 8), ("r6c9", 8), ("r4c9", 9),
        ("r5c7", 9), ("r6c7", 9), ("r6c9", 9)}
    assert "column 8" in hodoku[0].explanation and "box 6" in hodoku[0].explanation
    for s in steps:
        assert_sound(s, solution)


# Puzzle 6 of the diabolical set again, a little later: r6c1, r6c2 {4 5 6 8} where box 4 meets row 6,
# r6c9 {6 8} in the row and r4c3 {4 5} in the box: the basic form. 5 goes from r4c2.
SDC_BASIC = """
 3   14  24  | 6   5   12  | 9   8   7
 7   6   9   | 18  3   128 | 5   12  4
 8   15  25  | 7   4   9   | 16  126 3
 2   589 45  | 49  1   56  | 3   7   68
 69  7   3   | 89  2   68  | 4   5   1
 46  58  1   | 45  7   3   | 2   9   68
 5   3   67  | 2   8   17  | 16  4   9
 149 49  67  | 15  69  157 | 8   3   2
 19  2   8   | 3   69  4   | 7   16  5
"""


def test_sue_de_coq_basic():
    state = pm_state(SDC_BASIC)
    solution = solution_of(DOUBLE_PUZZLE, state)
    step = next(sue_de_coq(state))
    assert cells_of(step) == {"r6c1", "r6c2", "r6c9", "r4c3"}
    assert named(step.eliminations) == {("r4c2", 5)}
    assert step.units == (state.geo.boxes()[3], state.geo.rows()[5])
    assert_sound(step, solution)


def test_catalogue_levels_and_order():
    names = [t.name for t in TECHNIQUES]
    assert names.index("sue de coq") < names.index("ALS-XZ") < names.index("ALS-XY-wing")
    ratings = {t.name: (t.level, t.rating) for t in TECHNIQUES}
    assert ratings["ALS-XZ"] == ("fiendish", 7.0)
    assert ratings["ALS-XY-wing"] == ("fiendish", 7.2)
    assert ratings["sue de coq"] == ("fiendish", 7.0)


def test_finders_stop_when_asked():
    state = pm_state(AXY)
    state.stop = threading.Event()
    state.stop.set()
    als._cached[0] = None
    for finder in FINDERS:
        with pytest.raises(Cancelled):
            list(finder(state))


def test_finders_leave_the_state_alone():
    state = pm_state(AXZ)
    before = (list(state.values), list(state.masks))
    for finder in FINDERS:
        list(finder(state))
    assert (state.values, state.masks) == before


def test_every_step_is_sound_on_real_puzzles():
    found = parallel_map(partial(finds_checked, finders=FINDERS, limit=10), parse_puzzles(DIABOLICAL.read_text())[:40])
    assert set().union(*found) == {"ALS-XZ", "ALS-XY-wing", "sue de coq"}


@pytest.mark.parametrize("size, diagonal, level", [(4, False, "trivial"), (6, False, "basic"),
                                                   (9, True, "extreme"), (16, False, "basic")])
def test_other_shapes(size, diagonal, level):
    made = generate(level, 7, size=size, diagonal=diagonal)
    stepper = Stepper(made.puzzle)
    while (step := stepper.next_step()) is not None:
        for finder in FINDERS:
            for found in islice(finder(stepper.state), 10):
                assert_sound(found, made.solution)
        stepper.apply(step)
    assert stepper.solved


# -- bent wings: ALS-XZ with a bivalue cell, as Sukaku Explainer names and rates them -------------
# Positions the stepper reached on the shipped sudoku-exchange diabolical sample (lines 1 and 14).

WXYZ_POSITION = """
    8    9    146  12   25   156  7    3    46
    5    16   146  7    346  136  8    2    9
    3    7    2    8    46   9    1    5    46
    17   12   8    5    37   4    9    6    23
    679  26   5    39   1    38   4    78   23
    79   4    3    6    789  2    5    78   1
    126  5    7    4    269  16   3    19   8
    4    8    16   39   2369 7    26   19   5
    126  3    9    12   58   58   26   4    7
"""
VWXYZ_POSITION = """
    8    9    146  12   2456 156  7    3    246
    5    16   146  7    2346 136  48   28   9
    3    7    2    8    46   9    1    5    46
    179  12   8    5    37   4    29   6    23
    679  26   5    39   1    38   48   278  234
    79   4    3    6    789  2    5    789  1
    126  5    7    4    269  16   3    19   8
    4    8    16   39   2369 7    269  129  5
    126  3    9    12   58   58   26   4    7
"""
UVWXYZ_POSITION = """
    6     7     239   14    123   8     2345  2459  2345
    38    238   4     6     9     5     1237  278   123
    89    5     1     7     23    34    234   89    6
    4     38    378   5     6     2     37    1     9
    359   69    35679 8     4     1     23567 257   23
    2     1     56    3     7     9     456   45    8
    7     28    258   14    138   34    9     6     15
    13    46    36    9     5     7     8     24    124
    1589  49    589   2     18    6     145   3     7
"""


@pytest.mark.parametrize(("size", "grid", "puzzle", "chain", "removed", "rating"), [
    (3, WXYZ_POSITION, "090000730500700009302009100008504060000010000040602500007400308400007005039000040", "(1=6)r7c6-(6=1)r1c456", {("r2c6", 1)}, 5.6),
    (4, VWXYZ_POSITION, "090000730500700009302009100008504060000010000040602500007400308400007005039000040", "(8=3)r5c6-(3=8)r2c2367", {("r5c7", 8)}, 6.4),
    (5, UVWXYZ_POSITION, "670008000004090000051000006400560019000040000210079008700000960000050800000200037", "(6=5)r6c3-(5=6)r789c2,r79c3", {("r5c2", 6), ("r8c3", 6)}, 6.6),
])
def test_bent_wings(size, grid, puzzle, chain, removed, rating):
    state = pm_state(grid)
    step = next(iter(bent_wing(size)(state)))
    assert step.technique == BENT_WINGS[size][0] and step.rating == rating
    assert step.chain == (chain,) and named(step.eliminations) == removed
    solution = sat.solve(parse_grid(puzzle)).solution
    for found in bent_wing(size)(state):
        assert_sound(found, solution)
        assert len(found.cells) == size + 1, "a bivalue cell and an ALS of `size` cells"
