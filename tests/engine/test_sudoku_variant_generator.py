"""The Killer and Jigsaw generator: random regions and cages that are valid layouts, puzzles
unique by the SAT check, the grade asked for, the same puzzle from the same seed, steps of the
interim Killer grade that agree with the solution, and the shipped collections."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tui_games.engine.sudoku import sat, variant_generator
from tui_games.engine.sudoku.formats import format_variant_line
from tui_games.engine.sudoku.formats import read_puzzles as read_lines
from tui_games.engine.sudoku.grading import logic_grade
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.stepper import apply_step, next_step
from tui_games.engine.sudoku.variant_generator import (
    finished_by_logic,
    generate_jigsaw,
    generate_killer,
    killer_grade,
    random_cages,
    random_regions,
    unique_jigsaw,
    unique_killer,
)
from tui_games.engine.sudoku.variants import Variant


def test_random_regions_are_a_jigsaw_layout_and_not_the_boxes() -> None:
    for seed in range(5):
        regions = random_regions(seed)
        variant = Variant(regions=regions)  # checked: nine connected regions of nine cells
        boxes = Grid().geometry.units[18:27]
        assert sum(r in boxes for r in regions) < 9 and variant.kind == "jigsaw"


def test_random_cages_cover_the_grid_with_their_solution_sums() -> None:
    rng = random.Random(3)
    solution = sat.solve(Grid(), unique=False).solution
    cages = random_cages(solution, rng, (2, 4))
    variant = Variant(cages=cages)  # checked: connected, sums possible, adding up to 405
    assert sorted(c for cage in cages for c in cage.cells) == list(range(81))
    assert all(len({solution[c] for c in cage.cells}) == len(cage.cells) <= 4 for cage in cages)
    assert Grid(solution, variant=variant).is_solved()


@pytest.mark.parametrize("make", [unique_killer, unique_jigsaw])
def test_made_puzzles_are_unique_by_the_sat_check(make) -> None:
    rng = random.Random(11)
    for _ in range(3):
        puzzle, solution = make(rng)
        result = sat.solve(puzzle)
        assert result.unique and result.solution == solution


def test_the_same_seed_makes_the_same_killer() -> None:
    a = generate_killer("basic", 5)
    b = generate_killer("basic", 5)
    assert format_variant_line(a.puzzle) == format_variant_line(b.puzzle)


@pytest.mark.parametrize("level", ["basic", "advanced"])  # the others: the collections' test
def test_generated_killers_have_the_grade_and_one_solution(level: str) -> None:
    made = generate_killer(level, 2)
    assert made.grade.level == level == killer_grade(made.puzzle).level
    result = sat.solve(made.puzzle)
    assert result.unique and result.solution == made.solution
    assert not any(made.puzzle.values), "no givens: the cages are the puzzle"
    assert finished_by_logic(made.puzzle)


def test_a_killer_the_stepper_cannot_finish_is_drawn_again(monkeypatch) -> None:
    tried: list[str] = []

    def not_the_first(grid: Grid, stop: object = None) -> bool:
        tried.append(format_variant_line(grid))
        return len(tried) > 1

    monkeypatch.setattr(variant_generator, "finished_by_logic", not_the_first)
    made = generate_killer("basic", 2)
    assert len(tried) == 2 and made.attempts >= 2
    assert format_variant_line(made.puzzle) == tried[1] != tried[0]


@pytest.mark.parametrize("level", ["basic", "intermediate"])
def test_generated_jigsaws_have_the_grade_and_one_solution(level: str) -> None:
    made = generate_jigsaw(level, 4)
    assert made.grade.level == level == logic_grade(made.puzzle).level
    assert made.puzzle.kind == "jigsaw"
    result = sat.solve(made.puzzle)
    assert result.unique and result.solution == made.solution


def test_the_interim_killer_grade_takes_only_true_steps() -> None:
    # Every step the classic techniques take on a Killer (cage mates as peers) agrees with the
    # solution: no placement differs from it, no elimination removes its digit.
    rng = random.Random(21)
    for _ in range(4):
        puzzle, solution = unique_killer(rng, (2, 3))
        current = puzzle.with_values(puzzle.values)
        masks = current.candidate_masks()
        assert all(m >> (solution[c] - 1) & 1 for c, m in enumerate(masks) if not current.values[c])
        while (step := next_step(current, masks, uniqueness=False)) is not None:
            assert all(solution[c] == d for c, d in step.placements), step.technique
            assert all(solution[c] != d for c, d in step.eliminations), step.technique
            masks = apply_step(current, step, masks)
            sat.prune_cages(current.values, masks, current.geometry)
            assert all(m >> (solution[c] - 1) & 1 for c, m in enumerate(masks) if not current.values[c])


# Read from the checkout: the installed package's puzzles may be another tree's.
PUZZLES = Path(__file__).parents[2] / "puzzles"
COLLECTIONS = sorted(p.name for p in PUZZLES.glob("*.txt") if p.name.split("_")[0] in ("killer", "jigsaw"))


def test_the_variant_collections_are_shipped() -> None:
    kinds = {name.split("_")[0] for name in COLLECTIONS}
    assert kinds == {"killer", "jigsaw"}
    killers = {name.removesuffix(".txt").split("_", 1)[1] for name in COLLECTIONS if name.startswith("killer_")}
    assert killers >= {"basic", "intermediate", "advanced", "extreme"}


@pytest.mark.parametrize("name", COLLECTIONS)
def test_every_collected_puzzle_is_unique_and_of_its_grade(name: str) -> None:
    variant, level = name.removesuffix(".txt").split("_", 1)
    entries = read_lines((PUZZLES / name).read_text(), name, variant=variant)
    assert (10 if variant == "killer" else 1) <= len(entries) <= 100
    lines = [format_variant_line(e.grid) for e in entries if e.grid is not None]
    assert len(lines) == len(entries) == len(set(lines)), "every line reads, no duplicates"
    for entry in entries[:5]:  # the grade of a sample: the whole file is slow
        grid = entry.grid
        assert sat.solve(grid).unique
        graded = killer_grade(grid) if variant == "killer" else logic_grade(grid)
        assert graded.level == level.replace("_", " "), entry.line


def test_a_layout_no_full_grid_fills_is_drawn_again() -> None:
    # Some random region layouts have no solution at all: the generator used to draw full
    # grids of such a layout for ever.
    seed = next(s for s in range(200)
                if sat.solve(Grid(variant=Variant(regions=random_regions(s))), unique=False).solution is None)
    puzzle, solution = unique_jigsaw(random.Random(seed))
    assert sat.solve(puzzle).solution == solution
