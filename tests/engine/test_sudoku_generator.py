"""The generator: a unique solution and the requested grade for several seeds, every size, the
diagonal variant, 180° symmetry, reproducibility, and the shipped collections."""

from __future__ import annotations

import random

import pytest
from parallel_support import parallel_map

from tui_games.data.resources import puzzle_names, read_puzzles
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import parse_puzzles
from tui_games.engine.sudoku.generator import GenerationError, generate, random_solution
from tui_games.engine.sudoku.grading import grade
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.seeds import seed_puzzles


def check(made, level: str) -> None:
    puzzle = made.puzzle
    assert sat.count_solutions(puzzle, 2) == 1
    assert sat.solve(puzzle).solution == made.solution
    assert grade(puzzle).level == level == made.grade.level
    cells = len(puzzle.values)
    for c, v in enumerate(puzzle.values):
        assert bool(v) == bool(puzzle.values[cells - 1 - c]), "clues come in 180° symmetric pairs"


@pytest.mark.parametrize(("level", "seeds"), [
    ("trivial", (0, 1, 2)),
    ("basic", (0, 1, 2)),
    ("intermediate", (0, 1)),
    ("advanced", (0, 1, 2)),
])
def test_generated_puzzles_have_the_grade_and_one_solution(level, seeds):
    for seed in seeds:
        check(generate(level, seed), level)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_extreme(seed):
    check(generate("extreme", seed), "extreme")


def test_same_seed_same_puzzle():
    a = generate("basic", random.Random(11))
    b = generate("basic", 11)
    assert a.puzzle == b.puzzle and a.solution == b.solution
    assert generate("basic", 12).puzzle != a.puzzle


@pytest.mark.parametrize(("size", "level"), [(4, "trivial"), (6, "basic"), (16, "basic")])
def test_other_sizes(size, level):
    made = generate(level, 1, size=size)
    assert made.puzzle.size == size
    check(made, level)


def test_diagonal_variant():
    made = generate("advanced", 2, diagonal=True)
    assert made.puzzle.diagonal
    check(made, "advanced")
    solved = Grid(made.solution, diagonal=True)
    assert solved.is_solved()


def test_random_solutions_are_valid_and_vary():
    seen = set()
    for seed in range(5):
        solution = random_solution(seed)
        assert Grid(solution).is_solved()
        seen.add(tuple(solution))
    assert len(seen) == 5


@pytest.mark.parametrize("level", ["fiendish", "diabolical", "nightmare"])
def test_grades_past_extreme_disguise_a_seed(level):
    seeds = seed_puzzles(level, read_puzzles)
    made = generate(level, 5, seeds=seeds)
    assert made.grade.level == level and made.attempts >= 1
    assert sat.solve(made.puzzle).solution == made.solution
    assert made.puzzle.format() not in {g.format() for g in seeds}, "a disguise, not the seed itself"
    assert generate(level, 5, seeds=seeds).puzzle == made.puzzle, "the same seed, the same puzzle"


def test_needs_search_is_no_target():
    with pytest.raises(GenerationError, match="always has a logical next step"):
        generate("needs search", 0)


def test_disguise_keeps_the_puzzle():
    from tui_games.engine.sudoku.generator import disguise

    rng = random.Random(3)
    for size, diagonal in ((9, False), (9, True), (6, False), (4, False), (16, False)):
        made = generate("trivial" if size != 9 else "advanced", 1, size=size, diagonal=diagonal)
        seen = set()
        for _ in range(4):
            other = disguise(made.puzzle, rng)
            seen.add(other.format())
            assert sum(map(bool, other.values)) == sum(map(bool, made.puzzle.values))
            assert sat.count_solutions(other, 2) == 1
            assert grade(other).level == made.grade.level
        assert len(seen) > 1


def test_impossible_grade_gives_up():
    with pytest.raises(GenerationError, match="no advanced 4x4 puzzle in 5 attempts"):
        generate("advanced", 0, size=4, max_attempts=5)
    with pytest.raises(ValueError, match="unknown level"):
        generate("hard", 0)


# -- the shipped collections ------------------------------------------------------------------------

COLLECTIONS = {
    "sudoku_trivial.txt": "trivial",
    "sudoku_basic.txt": "basic",
    "sudoku_intermediate.txt": "intermediate",
    "sudoku_advanced.txt": "advanced",
    "sudoku_extreme.txt": "extreme",
    "sudoku_fiendish.txt": "fiendish",
    "sudoku_diabolical.txt": "diabolical",
    "sudoku_nightmare.txt": "nightmare",
}


def test_collections_are_shipped():
    assert set(COLLECTIONS) <= set(puzzle_names())


@pytest.mark.parametrize(("name", "level"), COLLECTIONS.items())
def test_collection_sizes_and_no_duplicates(name, level):
    grids = parse_puzzles(read_puzzles(name), name)
    # Nightmare puzzles are rare: the public-domain bank they come from has about 40 in 10,000.
    assert (20 if level == "nightmare" else 50) <= len(grids) <= 500
    assert len({g.format() for g in grids}) == len(grids), "no duplicates"
    # Every line's grade: test_collection_grades_every_line.


def _level(grid: Grid) -> str:
    return grade(grid).level


@pytest.mark.slow
@pytest.mark.parametrize(("name", "level"), COLLECTIONS.items())
def test_collection_grades_every_line(name, level):
    grids = parse_puzzles(read_puzzles(name), name)
    levels = parallel_map(_level, grids)
    assert [(g.format(), got) for g, got in zip(grids, levels, strict=True) if got != level] == []


def test_generation_stops_when_asked():
    import threading

    from tui_games.engine.sudoku.generator import GenerationStopped

    stop = threading.Event()
    stop.set()
    with pytest.raises(GenerationStopped, match="stopped after 0 attempts"):
        generate("extreme", 1, stop=stop)
