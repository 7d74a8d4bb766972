"""Human techniques, the stepper and grading.

Each technique runs on a hand-made position where it applies -- a real grid for the singles,
pencil marks (candidate masks) for the rest -- and the test asserts its exact placement or
eliminations. The stepper then runs on a few hundred real puzzles and every placement and
elimination it makes is checked against the SAT solution.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from parallel_support import parallel_map

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.grading import grade, logic_grade, solves_within
from tui_games.engine.sudoku.grid import Grid, geometry
from tui_games.engine.sudoku.levels import LEVELS, level_index
from tui_games.engine.sudoku.stepper import Stepper, apply_step, next_step
from tui_games.engine.sudoku.techniques import (
    State,
    Step,
    box_line_reduction,
    fish,
    full_houses,
    hidden_singles_in_boxes,
    hidden_singles_in_lines,
    hidden_subsets,
    naked_singles,
    naked_subsets,
    pointing,
    xy_wings,
    xyz_wings,
)

DATA = Path(__file__).parents[2] / "puzzles"
GEO = geometry(9)
FULL = GEO.full
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def cell(name: str) -> int:
    """``r5c3`` -> its index."""
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def cells(*names: str) -> list[int]:
    return [cell(n) for n in names]


def row(r: int) -> list[int]:
    return list(GEO.units[r - 1])


def col(c: int) -> list[int]:
    return list(GEO.units[9 + c - 1])


def box(b: int) -> list[int]:
    return list(GEO.units[18 + b - 1])


def bits(*digits: int) -> int:
    out = 0
    for d in digits:
        out |= 1 << (d - 1)
    return out


def marks(**cells_digits: str) -> State:
    """An empty grid whose every cell has all nine candidates but those given: ``r5c5="12"``."""
    masks = [FULL] * 81
    for name, digits in cells_digits.items():
        masks[cell(name)] = bits(*map(int, digits))
    return State(GEO, [0] * 81, masks)


def without(state: State, digit: int, where: list[int], keep: list[int]) -> State:
    """Remove ``digit`` from the cells of ``where`` not in ``keep``."""
    for c in where:
        if c not in keep:
            state.masks[c] &= ~bits(digit)
    return state


def first(finder, state: State):
    step = next(iter(finder(state)), None)
    assert step is not None, "the technique should apply"
    # Whatever a step eliminates was a candidate, whatever it places too.
    for c, d in step.eliminations:
        assert state.masks[c] & bits(d)
    for c, d in step.placements:
        assert state.masks[c] & bits(d)
    return step


def elim(cells_: list[int], *digits: int) -> set[tuple[int, int]]:
    return {(c, d) for c in cells_ for d in digits}


# -- singles ----------------------------------------------------------------------------------------


def test_full_house():
    grid = parse_grid("12345678." + "." * 72)
    step = first(full_houses, State.from_grid(grid))
    assert step.technique == "full house" and step.level == "trivial"
    assert step.placements == ((8, 9),)
    assert step.explanation == "r1c9 is the last empty cell in row 1, so it is 9."


def test_hidden_single_in_a_box():
    values = [0] * 81
    for name in ("r2c4", "r3c7", "r4c1", "r5c2"):
        values[cell(name)] = 1  # 1 is barred from rows 2, 3 and columns 1, 2 of box 1
    step = first(hidden_singles_in_boxes, State.from_grid(Grid(values)))
    assert step.technique == "hidden single" and step.level == "trivial"
    assert step.placements == ((cell("r1c3"), 1),)
    assert step.explanation == "In box 1, 1 fits only in r1c3, so r1c3 is 1."


def test_hidden_single_in_a_row():
    state = without(marks(), 5, row(1), keep=[cell("r1c7")])
    step = first(hidden_singles_in_lines, state)
    assert step.level == "basic"
    assert step.placements == ((cell("r1c7"), 5),)
    assert step.explanation == "In row 1, 5 fits only in r1c7, so r1c7 is 5."


def test_naked_single():
    step = first(naked_singles, marks(r5c5="7"))
    assert step.technique == "naked single" and step.level == "basic"
    assert step.placements == ((cell("r5c5"), 7),)
    assert "7 is the only candidate left in r5c5" in step.explanation


# -- intersections ----------------------------------------------------------------------------------


def test_pointing():
    state = without(marks(), 3, box(1), keep=cells("r2c1", "r2c2"))
    step = first(pointing, state)
    assert step.technique == "pointing" and step.level == "intermediate"
    assert set(step.eliminations) == elim(cells("r2c4", "r2c5", "r2c6", "r2c7", "r2c8", "r2c9"), 3)
    assert step.cells == tuple(cells("r2c1", "r2c2"))
    assert step.explanation.startswith("In box 1, 3 can only go in row 2 (r2c1, r2c2)")


def test_box_line_reduction():
    state = without(marks(), 4, row(1), keep=cells("r1c1", "r1c2"))
    step = first(box_line_reduction, state)
    assert step.technique == "box-line reduction"
    assert set(step.eliminations) == elim(cells("r2c1", "r2c2", "r2c3", "r3c1", "r3c2", "r3c3"), 4)
    assert step.explanation.startswith("In row 1, 4 can only go in box 1 (r1c1, r1c2)")


# -- subsets ----------------------------------------------------------------------------------------


def test_naked_pair():
    step = first(naked_subsets(2), marks(r5c1="26", r5c5="26"))
    assert step.technique == "naked pair" and step.level == "advanced"
    others = [c for c in row(5) if c not in cells("r5c1", "r5c5")]
    assert set(step.eliminations) == elim(others, 2, 6)
    assert step.explanation.startswith("In row 5, r5c1, r5c5 hold only 2 and 6 between them")


def test_naked_triple():
    step = first(naked_subsets(3), marks(r4c4="12", r5c5="23", r6c6="13"))
    assert step.technique == "naked triple"
    others = [c for c in box(5) if c not in cells("r4c4", "r5c5", "r6c6")]
    assert set(step.eliminations) == elim(others, 1, 2, 3)


def test_naked_quad():
    step = first(naked_subsets(4), marks(r1c1="12", r1c2="23", r1c3="34", r1c4="14"))
    assert step.technique == "naked quad"
    assert set(step.eliminations) == elim(row(1)[4:], 1, 2, 3, 4)


def test_hidden_pair():
    state = marks()
    for digit in (1, 9):
        without(state, digit, col(3), keep=cells("r2c3", "r8c3"))
    step = first(hidden_subsets(2), state)
    assert step.technique == "hidden pair" and step.level == "advanced"
    assert set(step.eliminations) == elim(cells("r2c3", "r8c3"), *range(2, 9))
    assert step.explanation.startswith("In column 3, 1 and 9 fit only in r2c3, r8c3")


def test_hidden_triple():
    state = marks()
    for digit in (4, 5, 7):
        without(state, digit, row(9), keep=cells("r9c1", "r9c5", "r9c9"))
    step = first(hidden_subsets(3), state)
    assert step.technique == "hidden triple"
    assert set(step.eliminations) == elim(cells("r9c1", "r9c5", "r9c9"), 1, 2, 3, 6, 8, 9)


def test_hidden_quad():
    state = marks()
    for digit in (1, 2, 3, 4):
        without(state, digit, col(9), keep=cells("r1c9", "r4c9", "r6c9", "r9c9"))
    step = first(hidden_subsets(4), state)
    assert step.technique == "hidden quad"
    assert set(step.eliminations) == elim(cells("r1c9", "r4c9", "r6c9", "r9c9"), *range(5, 10))


# -- fish and wings ---------------------------------------------------------------------------------


def test_x_wing():
    state = marks()
    without(state, 7, row(2), keep=cells("r2c3", "r2c8"))
    without(state, 7, row(7), keep=cells("r7c3", "r7c8"))
    step = first(fish(2), state)
    assert step.technique == "X-wing" and step.level == "extreme"
    targets = [c for c in col(3) + col(8) if c not in cells("r2c3", "r2c8", "r7c3", "r7c8")]
    assert set(step.eliminations) == elim(targets, 7)
    assert step.explanation.startswith("In rows 2 and 7, 7 fits only in columns 3 and 8")


def test_x_wing_by_columns():
    state = marks()
    without(state, 2, col(1), keep=cells("r4c1", "r6c1"))
    without(state, 2, col(9), keep=cells("r4c9", "r6c9"))
    step = first(fish(2), state)
    targets = [c for c in row(4) + row(6) if c not in cells("r4c1", "r6c1", "r4c9", "r6c9")]
    assert set(step.eliminations) == elim(targets, 2)
    assert step.explanation.startswith("In columns 1 and 9, 2 fits only in rows 4 and 6")


def test_swordfish():
    state = marks()
    without(state, 4, row(1), keep=cells("r1c1", "r1c5"))
    without(state, 4, row(5), keep=cells("r5c5", "r5c9"))
    without(state, 4, row(9), keep=cells("r9c1", "r9c9"))
    step = first(fish(3), state)
    assert step.technique == "swordfish"
    targets = [c for c in col(1) + col(5) + col(9) if c // 9 not in (0, 4, 8)]
    assert len(targets) == 18
    assert set(step.eliminations) == elim(targets, 4)


def test_xy_wing():
    state = marks(r5c5="12", r5c1="13", r1c5="23")
    step = first(xy_wings, state)
    assert step.technique == "XY-wing" and step.level == "extreme"
    assert step.eliminations == ((cell("r1c1"), 3),)
    assert step.explanation.startswith("r5c5 is 1 or 2: if 1, r5c1 is 3; if 2, r1c5 is 3")
    assert step.explanation.endswith("the cells that see both r5c1 and r1c5: r1c1.")
    assert len(list(xy_wings(state))) == 1


def test_xyz_wing():
    state = marks(r5c5="123", r4c4="13", r5c8="23")
    step = first(xyz_wings, state)
    assert step.technique == "XYZ-wing"
    assert set(step.eliminations) == elim(cells("r5c4", "r5c6"), 3)
    assert step.explanation.startswith("Whatever r5c5 holds (1, 2 or 3), one of r5c5, r4c4 (1 or 3) and r5c8 (2 or 3) is 3")


def test_techniques_find_nothing_on_a_blank_slate():
    state = marks()
    for technique in TECHNIQUES:
        if technique.name != "hidden single":
            assert next(iter(technique.find(state)), None) is None, technique.name


# -- the stepper ------------------------------------------------------------------------------------


def sample_puzzles() -> list[Grid]:
    """The shipped samples, less the hard ones test_sudoku_patterns already steps through (the
    diabolical 200's first 80, magictour's first 40: two thirds of this test's CPU)."""
    grids = []
    for name, first in (("sudoku_exchange_diabolical_200.txt", 80), ("tdoku_17_clue_100.txt", 0),
                        ("project_euler_96.txt", 0), ("magictour_top1465_100.txt", 40)):
        grids += parse_puzzles((DATA / f"bench_sudoku_{name}").read_text(), name)[first:]
    return grids


def _steps_checked(grid: Grid) -> set[str]:
    """Every step of the stepper on a puzzle agrees with its solution; the techniques used."""
    text = grid.format()  # names the puzzle in a failure
    solution = sat.solve(grid).solution
    stepper = Stepper(grid)
    used = set()
    for step in stepper.run():
        used.add(step.technique)
        for c, d in step.placements:
            assert solution[c] == d, f"{text}: {step}"
        for c, d in step.eliminations:
            assert solution[c] != d, f"{text}: {step}"
    assert all(v == 0 or v == solution[c] for c, v in enumerate(stepper.state.values)), text
    assert all(solution[c] == 0 or stepper.state.masks[c] & bits(solution[c]) or stepper.state.values[c]
               for c in range(81)), f"{text}: the solution's digit is never lost"
    if stepper.solved:
        assert stepper.grid().values == solution, text
    return used


def test_stepper_never_makes_a_wrong_step():
    grids = sample_puzzles()
    assert len(grids) >= 300
    used = set().union(*parallel_map(_steps_checked, grids))
    # The samples exercise most techniques in real positions, not only in hand-made ones.
    assert {"full house", "hidden single", "naked single", "pointing", "box-line reduction", "naked pair",
            "hidden pair", "naked triple", "X-wing"} <= used, used


def test_hint_and_apply_step():
    grid = parse_grid(TOP95_1)
    step = next_step(grid)
    assert step.technique == "hidden single" and step.placements == ((cell("r6c2"), 4),)
    assert step.changes() == "place 4 at r6c2"
    masks = apply_step(grid, step)
    assert grid[cell("r6c2")] == 4 and not grid.givens[cell("r6c2")]
    assert masks[cell("r6c2")] == 0 and not masks[cell("r6c1")] & bits(4)
    # Pencil marks narrow the candidates: with 4 crossed out of r6c2 the hint changes (and
    # column 2 has no place left for 4, so the position is a contradiction: no step).
    pencil = parse_grid(TOP95_1).candidate_masks()
    pencil[cell("r6c2")] &= ~bits(4)
    stepper = Stepper(parse_grid(TOP95_1), pencil)
    assert stepper.next_step() is None and stepper.stuck == "4 has no place left in column 2"


def test_stepper_stops_on_a_contradiction():
    grid = parse_grid("12345678." + "........9" + "." * 63)
    stepper = Stepper(grid)
    assert stepper.next_step() is None
    assert stepper.stuck == "r1c9 has no candidate left"
    solved = Stepper(parse_grid("417369825632158947958724316825437169791586432346912758289643571573291684164875293"))
    assert solved.next_step() is None and solved.stuck == "solved"


def test_step_changes_text():
    state = marks(r5c1="26", r5c5="26")
    step = first(naked_subsets(2), state)
    # Digits leaving the same cells are named together (a cage combination removes many).
    assert step.changes() == "remove 2 and 6 from r5c2, r5c3, r5c4, r5c6, r5c7, r5c8, r5c9"
    step = Step("pointing", "intermediate", (0,), (2, 6), "", eliminations=((1, 2), (2, 2), (1, 6)))
    assert step.changes() == "remove 2 from r1c2, r1c3; remove 6 from r1c2"


def test_max_level_limits_the_stepper():
    grid = parse_grid(TOP95_1)
    assert logic_grade(grid).level == "intermediate"
    assert not solves_within(grid, "basic")
    assert solves_within(grid, "intermediate")
    with pytest.raises(ValueError, match="choose one of trivial, basic"):
        Stepper(grid, max_level="hard")


# -- grading ----------------------------------------------------------------------------------------


def test_levels():
    assert LEVELS == ("trivial", "basic", "intermediate", "advanced", "extreme", "fiendish", "diabolical",
                      "nightmare", "needs search")
    assert level_index("Needs-Search") == 8 and level_index("needs_search") == 8
    for technique in TECHNIQUES:
        assert technique.level in LEVELS[:-1]


def test_grade_is_the_least_level_that_solves():
    grids = parse_puzzles((DATA / "bench_sudoku_project_euler_96.txt").read_text())[:25]
    grids += parse_puzzles((DATA / "bench_sudoku_tdoku_17_clue_100.txt").read_text())[:30]
    seen = set()
    for grid in grids:
        result = grade(grid)
        seen.add(result.level)
        index = level_index(result.level)
        if index < 5:
            assert solves_within(grid, result.level)
            assert TECHNIQUES[[t.name for t in TECHNIQUES].index(result.technique)].level in LEVELS[:index + 1]
        else:
            assert not solves_within(grid, "extreme")
        if index > 0:
            assert not solves_within(grid, LEVELS[index - 1])
        assert result.steps == sum(result.counts.values())
    assert {"trivial", "basic", "intermediate"} <= seen


def test_grade_of_a_bad_puzzle():
    several = parse_puzzles((DATA / "bench_sudoku_serg_benchmark_100.txt").read_text())[0]
    result = grade(several)
    assert result.level is None and result.status is sat.Status.SEVERAL
    assert result.describe() == "several solutions"
    assert grade(parse_grid("12345678." + "........9" + "." * 63)).describe() == "no solution"


def test_grade_describe():
    assert grade(parse_grid(TOP95_1)).describe() == "intermediate 2.6: pointing"
    hard = parse_puzzles((DATA / "bench_sudoku_sudoku_exchange_diabolical_200.txt").read_text())[0]
    assert logic_grade(hard, "extreme").describe().startswith("needs search: stuck after ")
    assert grade(hard).describe().startswith("fiendish ")  # chains finish it
