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
   The first puzzle easy enough is usually just at the target.
4. **Grade check**: if the grade is not the target, everything is drawn again (a new grid),
   up to ``max_attempts`` times.
5. **Fiendish and past it**: random digging lands there rarely (diabolical and nightmare
   puzzles are one in hundreds to millions of random ones), so for those grades the caller
   passes ``seeds``, puzzles known to have the grade (the shipped collections), and the
   generator disguises one: digits relabelled, rows swapped within their band, bands swapped,
   the same for columns and stacks, and the grid transposed -- the same puzzle to the
   techniques, a different one to the eye (9!·6⁸·2 disguises of each seed). The disguise is
   graded again, so the grade returned is the real one.

Killer and Jigsaw puzzles are made by :mod:`.variant_generator`, with the steps above where
they apply.

Small grids have few hard puzzles: 4×4 ones practically all grade trivial, 6×6 ones rarely
pass basic, so asking for more ends in :class:`GenerationError`. Typical 9×9 cost (2 cores,
CPython 3.11): well under a second for trivial to advanced, about a second for extreme; see
``tui-games bench sudoku``.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grading import Grade, logic_grade, solves_within
from tui_games.engine.sudoku.grid import Grid, geometry
from tui_games.engine.sudoku.levels import BASIC, FIENDISH, LEVELS, SEARCH, level_index
from tui_games.engine.sudoku.variants import Variant

__all__ = ["Generated", "GenerationError", "GenerationStopped", "disguise", "generate", "random_solution"]

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


def random_solution(rng: random.Random | int | None = None, *, size: int = 9, diagonal: bool = False,
                    variant: Variant | None = None) -> list[int]:
    """A random valid full grid (digits, row by row); of a Jigsaw's regions with ``variant``
    (a Killer's cages are ignored: they are drawn around a full grid)."""
    rng = _rng(rng)
    if variant is not None:
        size, diagonal = variant.size, variant.diagonal
        variant = Variant(size, diagonal, regions=variant.regions) if variant.regions is not None else None
    n = size
    geometry(size, diagonal)  # validates the size
    while True:
        grid = Grid(size=size, diagonal=diagonal, variant=variant)
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


def _dig(values: list[int], rng: random.Random, template: Grid, target: str | None) -> list[tuple[int, ...]]:
    """Remove symmetric pairs from ``values`` in place while the puzzle (of ``template``'s
    shape and variant) stays solvable by the stepper up to ``target`` (None: while it has one
    solution); returns the pairs removed."""
    pairs = _symmetric_pairs(len(values))
    rng.shuffle(pairs)
    removed = []
    for pair in pairs:
        saved = [values[c] for c in pair]
        for c in pair:
            values[c] = 0
        grid = template.with_values(values)
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
          template: Grid, target: str) -> None:
    """Put removed pairs back in random order until the stepper up to ``target`` solves it."""
    rng.shuffle(removed)
    while not solves_within(template.with_values(values), target):
        for c in removed.pop():
            values[c] = solution[c]


def _dug_toward(solution: list[int], rng: random.Random, template: Grid, target: str) -> Grid:
    """A puzzle of ``solution`` (on ``template``'s shape and variant) aimed at the grade
    ``target``: dug while the stepper up to ``target`` solves it for the easy grades; for the
    others dug while it has one solution, then eased back until that stepper solves it."""
    values = list(solution)
    if level_index(target) <= level_index(BASIC):
        _dig(values, rng, template, target)
    else:
        removed = _dig(values, rng, template, None)
        _ease(values, solution, removed, rng, template, target)
    return template.with_values(values)


def _permutation_within_blocks(count: int, block: int, rng: random.Random) -> list[int]:
    """A random order of ``count`` lines that keeps blocks of ``block`` together (bands, stacks)."""
    blocks = list(range(count // block))
    rng.shuffle(blocks)
    order = []
    for b in blocks:
        inside = list(range(b * block, (b + 1) * block))
        rng.shuffle(inside)
        order += inside
    return order


def disguise(grid: Grid, rng: random.Random) -> Grid:
    """The same puzzle under a random symmetry of the game: digits relabelled, rows within
    bands and bands, columns within stacks and stacks, and (square boxes) a transposition.
    The diagonal variant keeps its diagonals: only relabelling and transposition."""
    n = grid.size
    geo = grid.geometry
    labels = list(range(1, n + 1))
    rng.shuffle(labels)
    if grid.diagonal:
        rows = cols = list(range(n))
    else:
        rows = _permutation_within_blocks(n, geo.box_rows, rng)
        cols = _permutation_within_blocks(n, geo.box_cols, rng)
    transpose = geo.box_rows == geo.box_cols and rng.random() < 0.5
    values = [0] * (n * n)
    for r in range(n):
        for c in range(n):
            v = grid.values[rows[r] * n + cols[c]]
            cell = c * n + r if transpose else r * n + c
            values[cell] = labels[v - 1] if v else 0
    return Grid(values, size=n, diagonal=grid.diagonal)


def _from_seeds(target: str, seeds: Sequence[Grid], rng: random.Random, max_attempts: int,
                stop: threading.Event | None, start: float) -> Generated:
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop.is_set():
            raise GenerationStopped(f"stopped after {attempt - 1} attempts")
        puzzle = disguise(rng.choice(seeds), rng)
        result = sat.solve(puzzle)
        if result.status is not sat.Status.UNIQUE:
            continue  # a seed that is no puzzle: pass over it
        grade = logic_grade(puzzle, stop=stop)
        if grade.level == target:
            return Generated(puzzle, list(result.solution or []), grade, attempt, time.perf_counter() - start)
    raise GenerationError(f"no {target} puzzle among {max_attempts} disguised seeds")


def generate(level: str, rng: random.Random | int | None = None, *, size: int = 9, diagonal: bool = False,
             max_attempts: int = DEFAULT_ATTEMPTS, stop: threading.Event | None = None,
             seeds: Sequence[Grid] = ()) -> Generated:
    """A puzzle with one solution whose grade is ``level`` (one of :data:`LEVELS`).

    ``rng`` is a ``random.Random`` or a seed. Raises GenerationError after ``max_attempts``
    full grids without the grade (a small grid may have no puzzle of a hard grade at all),
    and GenerationStopped when ``stop`` is set (checked before each attempt). For fiendish
    and harder, ``seeds`` of that grade and shape make it a matter of one disguise (step 5 of
    the module's description); without them the generator digs as for the other grades.
    """
    target = LEVELS[level_index(level)]
    if target == SEARCH:
        raise GenerationError("'needs search' is not a grade the generator makes: with every technique, "
                              "a puzzle with one solution always has a logical next step")
    rng = _rng(rng)
    start = time.perf_counter()
    usable = [g for g in seeds if g.size == size and g.diagonal == diagonal]
    if level_index(target) >= level_index(FIENDISH) and usable:
        return _from_seeds(target, usable, rng, max_attempts, stop, start)
    template = Grid(size=size, diagonal=diagonal)
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop.is_set():
            raise GenerationStopped(f"stopped after {attempt - 1} attempts")
        solution = random_solution(rng, size=size, diagonal=diagonal)
        puzzle = _dug_toward(solution, rng, template, target)
        grade = logic_grade(puzzle)
        if grade.level == target:
            return Generated(puzzle, solution, grade, attempt, time.perf_counter() - start)
    raise GenerationError(f"no {target} {size}x{size} puzzle{' (diagonal)' if diagonal else ''} "
                          f"in {max_attempts} attempts")
