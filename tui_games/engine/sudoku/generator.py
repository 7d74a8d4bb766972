"""Generating puzzles of a requested grade, reproducibly from a seed.

1. **A random full grid**: a random permutation in the first row and a few more random
   candidates scattered over the grid, completed by the SAT solver (a partial grid it cannot
   complete is simply drawn again), then its digits relabelled by a random permutation.
   Everything random comes from one ``random.Random``, so a seed gives the same puzzles.
2. **Clues removed in 180°-symmetric pairs** (cell ``i`` with cell ``N-1-i``; the centre
   alone), in random order. For the two easiest levels a removal stays while the puzzle is
   still solvable by the stepper limited to the target level -- the techniques are sound, so
   this proves the solution unique *and* the grade at most the target, without a SAT call.
   Puzzles dug that way almost always grade exactly the target.
3. For the harder levels that hits the target rarely (a puzzle minimal for "advanced or
   easier" is usually easier), so they go the other way: dig while the SAT solver still
   finds one solution, which usually leaves a puzzle harder than the target, then **put
   removed pairs back**, in random order, until the stepper limited to the target solves it.
   The first puzzle easy enough is usually just at the target. "Needs search" stops after
   the digging.
4. **Grade check**: if the grade is not the target, everything is drawn again (a new grid),
   up to ``max_attempts`` times.

Small grids have few hard puzzles: 4×4 ones practically all grade trivial, 6×6 ones rarely
pass basic, so asking for more ends in :class:`GenerationError`. Typical 9×9 cost (2 cores,
CPython 3.11): well under a second for trivial to advanced, about a second for extreme; see
``tui-games bench sudoku``.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grading import Grade, logic_grade, solves_within
from tui_games.engine.sudoku.grid import Grid, geometry
from tui_games.engine.sudoku.levels import BASIC, LEVELS, SEARCH, level_index

__all__ = ["Generated", "GenerationError", "GenerationStopped", "generate", "random_solution"]

DEFAULT_ATTEMPTS = 500


class GenerationError(RuntimeError):
    """No puzzle of the requested grade within the attempts allowed."""


class GenerationStopped(GenerationError):
    """The caller asked to stop (a new puzzle was asked for, or the screen closed)."""


@dataclass(frozen=True)
class Generated:
    """A generated puzzle, its solution (digits), its grade, and what it cost."""

    puzzle: Grid
    solution: list[int]
    grade: Grade
    attempts: int
    seconds: float


def _rng(rng: random.Random | int | None) -> random.Random:
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def random_solution(rng: random.Random | int | None = None, *, size: int = 9, diagonal: bool = False) -> list[int]:
    """A random valid full grid (digits, row by row)."""
    rng = _rng(rng)
    n = size
    geometry(size, diagonal)  # validates the size
    while True:
        grid = Grid(size=size, diagonal=diagonal)
        first = list(range(1, n + 1))
        rng.shuffle(first)
        grid.values[:n] = first
        others = list(range(n, n * n))
        rng.shuffle(others)
        for cell in others[:n]:
            candidates = grid.candidates(cell)
            if candidates:
                grid.values[cell] = rng.choice(candidates)
        result = sat.solve(grid, unique=False)
        if result.solution is not None:
            relabel = list(range(1, n + 1))
            rng.shuffle(relabel)
            return [relabel[v - 1] for v in result.solution]


def _symmetric_pairs(cells: int) -> list[tuple[int, ...]]:
    return [(c, cells - 1 - c) if c != cells - 1 - c else (c,) for c in range((cells + 1) // 2)]


def _dig(values: list[int], rng: random.Random, size: int, diagonal: bool, target: str | None) -> list[tuple[int, ...]]:
    """Remove symmetric pairs from ``values`` in place while the puzzle stays solvable by the
    stepper up to ``target`` (None: while it has one solution); returns the pairs removed."""
    pairs = _symmetric_pairs(len(values))
    rng.shuffle(pairs)
    removed = []
    for pair in pairs:
        saved = [values[c] for c in pair]
        for c in pair:
            values[c] = 0
        grid = Grid(values, size=size, diagonal=diagonal)
        if target is None:
            keep = sat.count_solutions(grid, 2) == 1
        else:
            keep = solves_within(grid, target)
        if keep:
            removed.append(pair)
        else:
            for c, v in zip(pair, saved):
                values[c] = v
    return removed


def _ease(values: list[int], solution: list[int], removed: list[tuple[int, ...]], rng: random.Random,
          size: int, diagonal: bool, target: str) -> None:
    """Put removed pairs back in random order until the stepper up to ``target`` solves it."""
    rng.shuffle(removed)
    while not solves_within(Grid(values, size=size, diagonal=diagonal), target):
        for c in removed.pop():
            values[c] = solution[c]


def generate(level: str, rng: random.Random | int | None = None, *, size: int = 9, diagonal: bool = False,
             max_attempts: int = DEFAULT_ATTEMPTS, stop: threading.Event | None = None) -> Generated:
    """A puzzle with one solution whose grade is ``level`` (one of :data:`LEVELS`).

    ``rng`` is a ``random.Random`` or a seed. Raises GenerationError after ``max_attempts``
    full grids without the grade (a small grid may have no puzzle of a hard grade at all),
    and GenerationStopped when ``stop`` is set (checked before each attempt).
    """
    target = LEVELS[level_index(level)]
    rng = _rng(rng)
    start = time.perf_counter()
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop.is_set():
            raise GenerationStopped(f"stopped after {attempt - 1} attempts")
        solution = random_solution(rng, size=size, diagonal=diagonal)
        values = list(solution)
        if level_index(target) <= level_index(BASIC):
            _dig(values, rng, size, diagonal, target)
        else:
            removed = _dig(values, rng, size, diagonal, None)
            if target != SEARCH:
                _ease(values, solution, removed, rng, size, diagonal, target)
        puzzle = Grid(values, size=size, diagonal=diagonal)
        grade = logic_grade(puzzle)
        if grade.level == target:
            return Generated(puzzle, solution, grade, attempt, time.perf_counter() - start)
    raise GenerationError(f"no {target} {size}x{size} puzzle{' (diagonal)' if diagonal else ''} "
                          f"in {max_attempts} attempts")
