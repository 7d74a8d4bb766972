"""The SAT solver: solutions of samples of every shared set checked valid and consistent with
the givens, the multi-solution set reported as such, contradictions without a visible
conflict, the encoding's shape, other sizes and the diagonal variant, and Norvig's solver."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.norvig import solve_values

DATA = Path(__file__).parents[2] / "puzzles"
UNIQUE_SETS = [
    "project_euler_96.txt",
    "norvig_top95.txt",
    "norvig_hardest11.txt",
    "tdoku_17_clue_100.txt",
    "magictour_top1465_100.txt",
    "tdoku_forum_hardest_1905_11plus_100.txt",
    "tdoku_forum_hardest_1106_100.txt",
    "sudoku_exchange_diabolical_200.txt",
    "forum_database_er_60.txt",
]
SEVERAL_SET = "serg_benchmark_100.txt"
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
# The first of the forum's hardest list in the samples: propagation fills no cell of it.
HARDEST = (DATA / "bench_sudoku_tdoku_forum_hardest_1106_100.txt").read_text().split()[0]


def load(name: str) -> list[Grid]:
    return parse_puzzles((DATA / f"bench_sudoku_{name}").read_text(), name)


def assert_solves(grid: Grid, solution: list[int]) -> None:
    solved = Grid(solution, size=grid.size, diagonal=grid.diagonal)
    assert solved.is_solved(), "every unit holds every digit once"
    assert grid.agrees_with(solution), "the givens are kept"


@pytest.mark.parametrize("name", UNIQUE_SETS)
def test_every_puzzle_of_the_sample_has_one_valid_solution(name):
    grids = load(name)
    assert len(grids) >= 11
    for grid in grids:
        result = sat.solve(grid)
        assert result.status is sat.Status.UNIQUE and result.unique and result.count == 1, grid
        assert_solves(grid, result.solution)
        first = sat.solve(grid, unique=False)
        assert first.status is sat.Status.SOLVED and first.solution == result.solution


def test_the_forum_database_sample_has_a_published_rating_per_puzzle():
    puzzles = load("forum_database_er_60.txt")
    ratings = [float(r) for r in (DATA / "bench_sudoku_forum_database_er_60_se_ratings.txt").read_text().split()]
    assert len(ratings) == len(puzzles) == 60
    assert all(9.0 <= r <= 11.9 for r in ratings)
    assert min(ratings) < 10.5 and max(ratings) >= 11.6, "spread over the top of the scale"


def test_the_multi_solution_set_is_reported_as_such():
    for grid in load(SEVERAL_SET):
        result = sat.solve(grid)
        assert result.status is sat.Status.SEVERAL and result.count == 2
        assert_solves(grid, result.solution)
    two = sat.solutions(load(SEVERAL_SET)[0], limit=5)
    assert len(two) >= 2 and len({tuple(s) for s in two}) == len(two), "different solutions"
    for solution in two:
        assert_solves(load(SEVERAL_SET)[0], solution)


def test_empty_grid_counts_to_the_limit():
    assert sat.count_solutions(Grid(), limit=3) == 3
    with pytest.raises(ValueError):
        sat.solutions(Grid(), limit=0)


def test_no_solution_found_by_propagation():
    # r1c9 sees 1-8 in its row and 9 in its column: no digit is left, nothing is repeated.
    grid = parse_grid("12345678." + "........9" + "." * 63)
    assert not grid.conflicts()
    result = sat.solve(grid)
    assert result.status is sat.Status.NONE and result.solution is None and result.count == 0
    assert result.stats.variables == 0


def test_no_solution_that_needs_the_sat_solver():
    # A hard unique puzzle with one more given that disagrees with the solution: no unit repeats
    # a digit and propagation does not see it, only the search does.
    grid = parse_grid(HARDEST)
    solution = sat.solve(grid).solution
    for cell in grid.empty_cells():
        for digit in grid.candidates(cell):
            if digit == solution[cell]:
                continue
            trial = grid.copy()
            trial.values[cell] = digit
            trial.givens[cell] = True
            encoding = sat.encode(trial)
            if encoding.contradiction:
                continue
            assert not trial.conflicts()
            result = sat.solve(trial)
            assert result.status is sat.Status.NONE
            assert result.stats.variables > 0, "the SAT solver, not propagation, decided"
            return
    pytest.fail("no such given found")


def test_repeated_digit_is_no_solution():
    grid = parse_grid(TOP95_1)
    grid.set(1, 4)
    assert sat.solve(grid).status is sat.Status.NONE


def test_encoding_covers_only_open_candidates():
    grid = parse_grid(HARDEST)
    encoding = sat.encode(grid)
    stats = encoding.stats
    open_cells = [c for c, v in enumerate(encoding.values) if not v]
    assert stats.variables == len(encoding.var_cell) - 1 > 0
    assert sorted(set(encoding.var_cell[1:])) == open_cells, "variables only for open cells"
    for v in range(1, stats.variables + 1):
        cell, digit = encoding.var_cell[v], encoding.var_digit[v]
        assert digit in grid.candidates(cell), "only candidates get a variable"
    assert stats.clauses == len(encoding.clauses)
    assert stats.literals == sum(len(c) for c in encoding.clauses)
    assert all(1 <= abs(lit) <= stats.variables for c in encoding.clauses for lit in c)
    # Propagation only writes what the solution has.
    solution = sat.solve(grid).solution
    assert grid.agrees_with(solution)
    assert all(v == 0 or v == solution[c] for c, v in enumerate(encoding.values))


def test_a_puzzle_solved_by_propagation_needs_no_clauses():
    grid = parse_grid((DATA / "bench_sudoku_project_euler_96.txt").read_text().split()[0])
    result = sat.solve(grid)
    assert result.unique and result.stats.clauses == 0 and result.stats.propagated == grid.values.count(0)


@pytest.mark.parametrize(("size", "text"), [
    (4, "4.2..........1.4"),
    (6, "...4.6....5..6.5.21.2.6..1....4.5..."),
])
def test_small_sizes(size, text):
    grid = parse_grid(text)
    assert grid.size == size
    result = sat.solve(grid)
    assert result.unique
    assert_solves(grid, result.solution)


def test_sixteen_by_sixteen():
    from tui_games.engine.sudoku.generator import random_solution

    solution = random_solution(7, size=16)
    assert_solves(Grid(size=16), solution)
    puzzle = Grid([v if i % 3 else 0 for i, v in enumerate(solution)], size=16)
    result = sat.solve(puzzle)
    assert result.unique and result.solution == solution


def test_diagonal_variant():
    grid = Grid(diagonal=True)
    solution = sat.solve(grid, unique=False).solution
    assert_solves(grid, solution)
    assert len({solution[i * 10] for i in range(9)}) == 9
    assert len({solution[i * 8 + 8] for i in range(9)}) == 9
    # A puzzle unique only because of the diagonals has several solutions without them.
    from tui_games.engine.sudoku.generator import generate

    made = generate("basic", 3, diagonal=True)
    assert sat.solve(made.puzzle).unique
    assert_solves(made.puzzle, made.solution)


@pytest.mark.parametrize("name", ["norvig_hardest11.txt", "norvig_top95.txt"])
def test_norvig_agrees(name):
    for grid in load(name)[:20]:
        assert solve_values(grid.values) == sat.solve(grid).solution
    assert solve_values([1, 1] + [0] * 79) is None
