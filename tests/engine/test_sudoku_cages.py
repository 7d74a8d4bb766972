"""Killer Sudoku's cage techniques (engine/sudoku/cages.py) on the literature's cases, with the
eliminations the sources give; and every step sound on whole Killer grids.

Each position holds only the cages the source draws (a Variant may leave cells uncaged), on an
otherwise empty grid, so the step is the source's and nothing else.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tui_games.engine.sudoku import cages as K
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import EXPLAINER_PRODUCERS, TECHNIQUES
from tui_games.engine.sudoku.formats import parse_killer
from tui_games.engine.sudoku.grid import Grid, cell_name
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import State
from tui_games.engine.sudoku.variant_generator import generate_killer
from tui_games.engine.sudoku.variants import Cage, Variant


def cell(name: str) -> int:
    return (int(name[1]) - 1) * 9 + int(name[3]) - 1


def cage(total: int, *names: str) -> Cage:
    return Cage(total, tuple(sorted(cell(x) for x in names)))


def state_of(*cages: Cage, values: dict[str, int] | None = None, marks: dict[str, str] | None = None) -> State:
    grid = Grid([0] * 81, variant=Variant(cages=cages))
    for name, digit in (values or {}).items():
        grid.values[cell(name)] = digit
    state = State.from_grid(grid)
    for name, digits in (marks or {}).items():
        mask = 0
        for d in digits:
            mask |= 1 << (int(d) - 1)
        state.masks[cell(name)] &= mask
    return state


def losses(step) -> dict[str, str]:
    """What each cell loses, as ``{"r1c1": "3456789"}``."""
    out: dict[str, list[int]] = {}
    for c, d in step.eliminations:
        out.setdefault(cell_name(c), []).append(d)
    return {name: "".join(map(str, sorted(ds))) for name, ds in out.items()}


def steps_at(finder, state: State, cells: set[str]) -> list:
    wanted = {cell(x) for x in cells}
    return [s for s in finder(state) if wanted <= set(s.cells)]


# -- cage combinations -----------------------------------------------------------------------------


@pytest.mark.parametrize(("total", "size", "kept"), [
    # The combination table of R. Broughton's "Basic Techniques and Cage Combinations" (SudokuSolver
    # forum, 2009): 3(2) = {12}, 16(2) = {79}, 12(2) = {39/48/57} "no 1,2,6", 13(2) "no 1,2,3",
    # 7(3) = {124}, 24(3) = {789}, 10(3) "no 8,9", 19(3) "no 1", 12(4) "no 7,8,9".
    (3, 2, "12"), (16, 2, "79"), (12, 2, "345789"), (13, 2, "456789"), (7, 3, "124"), (24, 3, "789"),
    (10, 3, "1234567"), (19, 3, "23456789"), (12, 4, "123456"),
])
def test_a_cage_keeps_only_the_digits_of_its_combinations(total: int, size: int, kept: str) -> None:
    names = ["r5c1", "r5c2", "r5c3", "r6c1"][:size]
    state = state_of(cage(total, *names))
    step = next(K.cage_combinations(state))
    gone = "".join(d for d in "123456789" if d not in kept)
    assert losses(step) == dict.fromkeys(names, gone)
    assert set(step.cells) == {cell(x) for x in names}


def test_only_124_make_7_in_three_cells_said_in_one_line() -> None:
    # The issue's own example: only {1,2,4} make 7 in three cells.
    step = next(K.cage_combinations(state_of(cage(7, "r1c1", "r1c2", "r2c1"))))
    assert step.technique == "cage combination"
    assert "only 1+2+4 makes it" in step.explanation
    assert "r1c1, r1c2 and r2c1 lose 356789" in step.explanation
    assert "\n" not in step.explanation


def test_the_candidates_choose_among_the_combinations() -> None:
    # Sudopedia, "Cage combinations", example 3: a 15[3] cage whose cell A holds 3, 4, 5, B holds
    # 7, 8 and C holds 1-6. B = 7 leaves A + C = 8 (3+5 or 5+3), B = 8 leaves 7 (3+4, 4+3, 5+2):
    # C is 2-5, so 1 and 6 go from C; A and B keep theirs.
    state = state_of(cage(15, "r1c1", "r1c2", "r1c3"), marks={"r1c1": "345", "r1c2": "78", "r1c3": "123456"})
    step = next(K.cage_combinations(state))
    assert losses(step) == {"r1c3": "16"}


def test_placed_digits_leave_the_rest_of_the_sum() -> None:
    # A 10(3) cage with 1 placed needs 9 in two cells: 2+7, 3+6 or 4+5 (1 is taken): 8 and 9 go
    # (1 left with the placed digit's peers).
    state = state_of(cage(10, "r1c1", "r1c2", "r1c3"), values={"r1c1": 1})
    step = next(K.cage_combinations(state))
    assert losses(step) == {"r1c2": "89", "r1c3": "89"}
    assert "has 1 placed and needs 9 in 2 cells" in step.explanation


def test_a_combination_that_repeats_a_digit_in_a_unit_goes() -> None:
    # R. Broughton, "Combined Cages" (SudokuSolver forum, 2009): a 3(2) and a 7(2) cage that see
    # each other: the 3(2) is {12}, so the 7(2) is {34} ({16} and {25} clash with the 3(2)).
    state = state_of(cage(3, "r1c1", "r1c2"), cage(7, "r1c3", "r1c4"))
    steps = {s.cells: s for s in K.cage_combinations(state)}
    seven = steps[tuple(sorted({cell("r1c3"), cell("r1c4"), cell("r1c1"), cell("r1c2")}))]
    assert losses(seven) == {"r1c3": "1256789", "r1c4": "1256789"}
    assert "1 and 2 must be in the 3-cage at r1c1" in seven.explanation


# -- the rule of 45 ---------------------------------------------------------------------------------


def test_an_innie_of_a_box() -> None:
    # Sudopedia, "Innie": r3c3 is an innie of nonet 1: 45 - (3 + 12 + 9 + 15) = 6.
    state = state_of(cage(3, "r1c1", "r1c2"), cage(12, "r1c3", "r2c3"), cage(9, "r2c1", "r2c2"),
                     cage(15, "r3c1", "r3c2"), cage(10, "r3c3", "r3c4"))
    step = next(s for s in K.innies_outies(state) if s.placements[0][0] == cell("r3c3"))
    assert step.placements == ((cell("r3c3"), 6),)
    assert step.rating == 2.5
    assert "box 1 holds 45; the cages inside make 3+12+9+15: r3c3 is the one open innie" in step.explanation


def test_an_outie_of_a_box() -> None:
    # Sudopedia, "Outie": r2c6 is an outie of nonet 3: 13 + 15 + 18 - 45 = 1.
    state = state_of(cage(13, "r1c7", "r1c8", "r1c9"), cage(18, "r2c6", "r2c7", "r2c8", "r2c9"),
                     cage(15, "r3c7", "r3c8", "r3c9"))
    step = next(s for s in K.innies_outies(state) if s.units == (20,))  # box 3
    assert step.placements == ((cell("r2c6"), 1),)
    assert "one open outie" in step.explanation


def test_an_outie_of_two_boxes() -> None:
    # Djape, "The Rule of 45 of Killer Sudoku (innies and outies)", 2005: the outie of two boxes
    # is (9+22+11+17+10+3+13+8) - 2*45 = 3. The layout is ours (the source's picture is not
    # text): boxes 1 and 2 covered by those cages, the 8-cage reaching r4c6.
    state = state_of(cage(3, "r1c1", "r2c1"), cage(22, "r1c2", "r1c3", "r1c4"), cage(11, "r3c1", "r3c2"),
                     cage(17, "r2c2", "r2c3", "r3c3"), cage(10, "r1c5", "r1c6"), cage(9, "r2c4", "r3c4"),
                     cage(13, "r2c5", "r3c5"), cage(8, "r2c6", "r3c6", "r4c6"))
    steps = [s for s in K.innies_outies(state) if s.units == (18, 19)]
    assert [s.placements for s in steps] == [((cell("r4c6"), 3),)]
    assert steps[0].rating == 2.6  # two units


def test_a_split_cage() -> None:
    # Sudopedia, "Split cage": 22[3], 9[2] and 8[2] in the left nonet and a 10[4] cage straddling
    # it: the 10[4] splits into 6[2] inside and 4[2] outside; the 4[2] is {13}, so the 6[2] is
    # {24}, not {15} (one cage: no digit twice).
    state = state_of(cage(22, "r1c1", "r2c1", "r3c1"), cage(9, "r2c2", "r3c2"), cage(8, "r2c3", "r3c3"),
                     cage(10, "r1c2", "r1c3", "r1c4", "r1c5"))
    step = next(K.cage_splitting(state))
    assert losses(step) == {"r1c2": "1356789", "r1c3": "1356789", "r1c4": "2456789", "r1c5": "2456789"}
    assert "splitting the 10-cage at r1c2" in step.explanation


def test_three_outies_of_a_row_make_a_hidden_cage() -> None:
    # R. Broughton's SumoCue walkthrough (sudocue.net forum, 2006), step 3: "45 rule on row 9.
    # Excluded cells r8c3 r8c5 r8c7 equal 21 > Only combinations {489} {579} {678} allowed >
    # Removed candidates 123" from each. Our cages: three 22(4)s from row 9 into row 8.
    state = state_of(cage(22, "r9c1", "r9c2", "r9c3", "r8c3"), cage(22, "r9c4", "r9c5", "r9c6", "r8c5"),
                     cage(22, "r9c7", "r9c8", "r9c9", "r8c7"))
    step = next(s for s in K.innie_outie_sums(state) if s.units == (8,))
    assert losses(step) == {"r8c3": "123", "r8c5": "123", "r8c7": "123"}
    assert "make 21 between them" in step.explanation


def test_a_last_cell_of_a_cage() -> None:
    state = state_of(cage(15, "r1c1", "r1c2", "r1c3"), values={"r1c1": 4, "r1c2": 9})
    step = next(K.last_cage_cells(state))
    assert step.placements == ((cell("r1c3"), 2),)


# -- in the catalogue and the stepper --------------------------------------------------------------


def test_the_cage_techniques_sit_among_the_classic_ones() -> None:
    rating = {t.find.__name__: t.rating for t in TECHNIQUES}
    assert rating["full_houses"] < rating["last_cage_cells"] < rating["hidden_singles_in_boxes"]
    assert rating["naked_singles"] < rating["cage_combinations"] < rating["pointing"]
    assert rating["cage_combinations"] < rating["innies_outies"] < rating["cage_splitting"] < rating["x_wing"]
    named = {name for group in EXPLAINER_PRODUCERS for name in group}
    assert {"last_cage_cells", "cage_combinations", "innies_outies", "cage_splitting", "innie_outie_sums"} <= named


def test_a_nine_cell_cage_is_a_unit_for_the_classic_techniques() -> None:
    # A 45-cage snaking over rows 1-2 (not a box or line): a digit with one place in it is a
    # hidden single of the cage.
    names = ["r1c1", "r1c2", "r1c3", "r1c4", "r1c5", "r2c5", "r2c4", "r2c3", "r2c2"]
    grid = Grid([0] * 81, variant=Variant(cages=(cage(45, *names),)))
    stepper = Stepper(grid)
    for name in names[1:]:
        stepper.state.masks[cell(name)] &= ~1  # 1 only at r1c1 within the cage
    step = stepper.next_step()
    assert step is not None and step.technique == "hidden single"
    assert step.placements == ((cell("r1c1"), 1),)
    assert "the 45-cage at r1c1" in step.explanation


def random_killer(seed: int, largest: int) -> tuple[Variant, list[int]]:
    """A whole Killer layout over a random solved grid: cages of 1 to ``largest`` cells grown at
    random, no digit twice (not unique in general: for soundness, not for solving)."""
    rng = random.Random(seed)
    rows = [[(r * 3 + r // 3 + c) % 9 + 1 for c in range(9)] for r in range(9)]
    digits = list(range(1, 10))
    rng.shuffle(digits)
    solution = [digits[v - 1] for row in rows for v in row]
    free = set(range(81))
    out = []
    while free:
        start = rng.choice(sorted(free))
        cells, used = [start], {solution[start]}
        free.discard(start)
        size = rng.randint(1, largest)
        while len(cells) < size:
            near = sorted({x for c in cells for x in (c - 9, c + 9, c - 1 if c % 9 else -1, c + 1 if c % 9 < 8 else -1)
                           if x in free and solution[x] not in used})
            if not near:
                break
            x = rng.choice(near)
            cells.append(x)
            used.add(solution[x])
            free.discard(x)
        out.append(Cage(sum(solution[c] for c in cells), tuple(sorted(cells))))
    return Variant(cages=tuple(out)), solution


@pytest.mark.parametrize("seed", range(6))
def test_every_step_on_a_killer_holds_in_its_solution(seed: int) -> None:
    variant, solution = random_killer(seed, 6)
    stepper = Stepper(Grid([0] * 81, variant=variant), uniqueness=False, max_level="extreme")
    kinds = set()
    for step in iter(stepper.next_step, None):
        assert all(solution[c] == d for c, d in step.placements), step.explanation
        assert all(solution[c] != d for c, d in step.eliminations), step.explanation
        stepper.apply(step)
        kinds.add(step.technique)
    assert kinds & {"cage combination", "last cell of a cage"}


# -- whole Killers, by logic alone -----------------------------------------------------------------

# The Killer of Wikipedia's article, as tests/engine/test_sudoku_killer.py transcribes it.
WIKIPEDIA = ("AABBBCDEFGGHHCCDEFGGIICJKKFLMMINJKOFLPPQNJOORSPTQNUVVRSTTQWUUXXSYZWWaaXXSYZWbbbcc "
             "3,15,22,4,16,15,25,17,9,8,20,6,14,17,17,13,20,12,27,6,20,6,10,14,8,16,15,13,17")
WIKIPEDIA_SOLUTION = "215647398368952174794381652586274931142593867973816425821739546659428713437165289"
REFERENCE = Path(__file__).parents[1] / "data" / "killer_reference.txt"


def solved_by_logic(grid: Grid, solution: list[int]) -> Stepper:
    stepper = Stepper(grid, uniqueness=False)
    for step in iter(stepper.next_step, None):
        assert all(solution[c] == d for c, d in step.placements), step.explanation
        assert all(solution[c] != d for c, d in step.eliminations), step.explanation
        stepper.apply(step)
    assert stepper.stuck == "solved", f"stuck after {len(stepper.steps)} steps: no technique names the next one"
    assert stepper.state.values == solution
    return stepper


def held_out() -> list[tuple[str, str]]:
    """The Wikipedia Killer, then the held-out ones of the tests' independent generator
    (tests/engine/killer_reference.py): (Killer line, solution)."""
    puzzles = [(WIKIPEDIA, WIKIPEDIA_SOLUTION)]
    for line in REFERENCE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            labels, sums, solution = line.split()
            puzzles.append((f"{labels} {sums}", solution))
    return puzzles


def test_there_are_twenty_held_out_killers_or_more() -> None:
    assert len(held_out()) >= 21  # the Wikipedia Killer and the reference file's (21 today)


@pytest.mark.parametrize("index", range(len(held_out())))
def test_the_wikipedia_killer_and_the_held_out_ones_are_finished_by_logic(index: int) -> None:
    text, solution = held_out()[index]
    stepper = solved_by_logic(parse_killer(text), [int(d) for d in solution])
    assert {s.technique for s in stepper.steps} & {"cage combination", "rule of 45"}


@pytest.mark.parametrize("seed", range(4))
def test_every_generated_killer_is_finished_by_logic(seed: int) -> None:
    # The killer generator's puzzles (one solution by its SAT check): basic is the grade it
    # gives in a few attempts; the harder ones it made are the shipped collections' (below).
    made = generate_killer("basic", seed, max_attempts=40)
    solved_by_logic(made.puzzle, made.solution)


@pytest.mark.parametrize("name", sorted(p.name for p in (Path(__file__).parents[2] / "puzzles").glob("killer_*.txt")))
def test_every_shipped_killer_is_finished_by_logic(name: str) -> None:
    lines = [line for line in (Path(__file__).parents[2] / "puzzles" / name).read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines
    for line in lines:
        grid = parse_killer(line)
        solution = sat.solve(grid).solution
        assert solution is not None
        solved_by_logic(grid, solution)
