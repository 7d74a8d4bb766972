"""Generating Killer and Jigsaw puzzles of a requested grade, reproducibly from a seed.

**Jigsaw** (:func:`generate_jigsaw`), per attempt:

1. **Random regions** (:func:`random_regions`): the nine boxes, then many random trades of a
   cell between two touching regions (a cell of A at B's edge goes to B, a cell of B at A's
   edge to A), each kept only when both regions stay one connected piece; drawn again when
   the SAT solver finds no full grid for them (some layouts have none).
2. **A random full grid** of those regions, completed by the SAT solver as for the classic
   generator (:func:`.generator.random_solution`).
3. **Clues removed** exactly as the classic generator does (symmetric pairs, the stepper
   limited to the target for the easy grades, SAT uniqueness and easing for the others):
   the regions are the boxes of the Jigsaw's geometry, so the stepper needs nothing new.
4. **Checked**: one solution by the SAT solver, and the grade is the target, else a new
   attempt.

**Killer** (:func:`generate_killer`), per attempt:

1. **A random full grid** (classic), then **random cages** over it (:func:`random_cages`):
   from a random uncovered cell, a cage grows into random neighbours whose digits it does not
   hold yet, up to a size drawn from the grade's range (:data:`CAGE_SIZES`); its sum is
   what its digits make. No givens: the cages are the puzzle.
2. **Unique by the SAT check**: while ``sat.solutions`` finds two grids, a cell where they
   differ is picked and its cage is split in two connected parts (the part holding the cell
   as small as the cage allows), which rules that second grid out or narrows it; it ends,
   at worst, in one-cell cages, which are givens.
3. **Graded** by :func:`killer_grade`, and **finished by logic**: the stepper alone (the hint
   system, no SAT propagation) solves it (:func:`finished_by_logic`); an attempt off the
   target grade, or that the stepper leaves stuck, is drawn again. So every generated Killer
   is one the hints walk through to the end.

**Grading Killers.** :func:`killer_grade` is the one place a Killer's grade comes from: the
stepper's techniques, the cage ones of engine/sudoku/cages.py among them (uniqueness ones left
out: a deadly pattern's swap may break a cage's sum), with each cage's digit combinations
pruning the candidates before every step (what the SAT encoder's propagation does,
:func:`.sat.prune_cages`: the combination arithmetic a Killer player does at a glance). The
level is the hardest step used, at least *basic* once the combinations removed a candidate.
The shipped collections are made and graded by ``scripts/sudoku_variant_collections.py``.
The cage sizes by grade (:data:`CAGE_SIZES`) are where each grade is least rare: small cages
have few combinations, so the hard grades come from cages of four to six cells.
"""

from __future__ import annotations

import random
import threading
import time

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.generator import (
    Generated,
    GenerationError,
    GenerationStopped,
    _dig,
    _dug_toward,
    _rng,
    random_solution,
)
from tui_games.engine.sudoku.grading import Grade, logic_grade, top_level
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.levels import BASIC, LEVELS, SEARCH, level_index
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Cancelled
from tui_games.engine.sudoku.variants import Cage, Variant

__all__ = [
    "CAGE_SIZES", "DEFAULT_ATTEMPTS", "finished_by_logic", "generate_jigsaw", "generate_killer", "killer_grade",
    "random_cages",
    "random_regions", "unique_jigsaw", "unique_killer",
]

DEFAULT_ATTEMPTS = 200
TRADES = 120
# The sizes a Killer's cages are drawn from, by grade: small cages have few combinations.
# Measured with killer_grade (2026-12-03), in a hundred Killers: cages of 2-5 cells (40 of
# them) grade basic 70, intermediate 15, advanced 10, extreme 2.5; of 4-6 (223), basic 46,
# intermediate 18, advanced 22, extreme 2.7, fiendish 0.4; of 3-6 (230), basic 46,
# intermediate 25, advanced 13, extreme 2.2, fiendish 1.3; of 3-7 (100), extreme 2, fiendish
# 2. About one in ten of the wider layouts leaves the stepper stuck. Each grade is drawn from
# the layouts where it is least rare, and kept when it grades right.
CAGE_SIZES = {"trivial": (1, 2), "basic": (2, 3), "intermediate": (2, 3), "advanced": (4, 6), "extreme": (4, 6),
              "fiendish": (3, 7)}
WIDEST = (2, 5)
CAGE_SPLITS = 200


def _neighbours(cell: int) -> list[int]:
    row, col = divmod(cell, 9)
    return [r * 9 + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < 9 and 0 <= c < 9]


def _connected(cells: set[int]) -> bool:
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for other in _neighbours(todo.pop()):
            if other in cells and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(cells)


def random_regions(rng: random.Random | int | None = None, trades: int = TRADES) -> tuple[tuple[int, ...], ...]:
    """Nine connected regions of nine cells covering the grid: the boxes after ``trades``
    random trades of cells between touching regions (step 1 of the module's description)."""
    rng = _rng(rng)
    owner = [(c // 27) * 3 + (c % 9) // 3 for c in range(81)]
    regions = [{c for c in range(81) if owner[c] == r} for r in range(9)]
    done = tries = 0
    while done < trades and tries < 50 * trades:
        tries += 1
        a = rng.randrange(81)
        outside = [b for b in _neighbours(a) if owner[b] != owner[a]]
        if not outside:
            continue
        home, away = owner[a], owner[rng.choice(outside)]
        back = [b for b in regions[away] if any(owner[x] == home for x in _neighbours(b))]
        b = rng.choice(back)
        if b == a:
            continue
        new_home = regions[home] - {a} | {b}
        new_away = regions[away] - {b} | {a}
        if _connected(new_home) and _connected(new_away):
            regions[home], regions[away] = new_home, new_away
            owner[a], owner[b] = away, home
            done += 1
    return tuple(tuple(sorted(r)) for r in regions)


def random_cages(solution: list[int], rng: random.Random | int | None = None,
                 sizes: tuple[int, int] = WIDEST) -> tuple[Cage, ...]:
    """Random connected cages covering the grid, no digit of ``solution`` twice in one, each
    of a size drawn from ``sizes`` where the digits around allow it (step 1 of the module's
    description); the sums are ``solution``'s."""
    rng = _rng(rng)
    owner = [-1] * 81
    cages: list[list[int]] = []
    order = list(range(81))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        want = rng.randint(*sizes)
        cells = [start]
        owner[start] = len(cages)
        held = {solution[start]}
        while len(cells) < want:
            frontier = sorted({o for c in cells for o in _neighbours(c)
                               if owner[o] < 0 and solution[o] not in held})
            if not frontier:
                break
            pick = rng.choice(frontier)
            owner[pick] = len(cages)
            cells.append(pick)
            held.add(solution[pick])
        cages.append(sorted(cells))
    return tuple(Cage(sum(solution[c] for c in cells), tuple(cells)) for cells in cages)


def _split(cage: Cage, cell: int, solution: list[int], rng: random.Random) -> tuple[Cage, ...]:
    """``cage`` in two connected parts, ``cell`` in the smaller: alone when no pair with it
    leaves the rest connected."""
    cells = set(cage.cells)
    if len(cells) == 1:
        return (cage,)
    options = []
    for size in range(1, len(cells)):
        for part in _parts_with(cell, cells, size):
            rest = cells - part
            if _connected(rest):
                options.append(part)
        if options and size >= 2:
            break
    bigger = [p for p in options if len(p) >= 2]
    part = rng.choice(bigger or options)
    rest = cells - part
    return tuple(Cage(sum(solution[c] for c in piece), tuple(sorted(piece))) for piece in (part, rest))


def _parts_with(cell: int, cells: set[int], size: int) -> list[set[int]]:
    """The connected subsets of ``cells`` of ``size`` cells holding ``cell`` (cages are small)."""
    found: list[set[int]] = []
    seen: set[frozenset[int]] = set()

    def grow(part: set[int]) -> None:
        key = frozenset(part)
        if key in seen:
            return
        seen.add(key)
        if len(part) == size:
            found.append(set(part))
            return
        for c in sorted(part):
            for o in _neighbours(c):
                if o in cells and o not in part:
                    grow(part | {o})

    grow({cell})
    return found


def _unique_cages(cages: tuple[Cage, ...], solution: list[int], rng: random.Random) -> Grid:
    """Split cages until the SAT solver finds one solution (step 2 of the module's description)."""
    for _ in range(CAGE_SPLITS):
        grid = Grid(variant=Variant(cages=cages))
        found = sat.solutions(grid, 2)
        if len(found) == 1:
            return grid
        other = found[1] if found[0] == solution else found[0]
        differ = [c for c in range(81) if other[c] != solution[c]]
        cell = rng.choice(differ)
        index = next(i for i, cage in enumerate(cages) if cell in cage.cells)
        cages = cages[:index] + _split(cages[index], cell, solution, rng) + cages[index + 1:]
    raise GenerationError("a Killer's cages still allow two grids after every split")


def unique_killer(rng: random.Random | int | None = None, sizes: tuple[int, int] = WIDEST) -> tuple[Grid, list[int]]:
    """A Killer with one solution (by the SAT check), ungraded, and its solution: steps 1-2 of
    the module's description (what the benchmark solves by the thousand)."""
    rng = _rng(rng)
    while True:
        solution = random_solution(rng)
        puzzle = _unique_cages(random_cages(solution, rng, sizes), solution, rng)
        if len(puzzle.variant.cages) <= 62:  # type: ignore[union-attr]  # a Killer: cages
            return puzzle, solution


def _solvable_layout(rng: random.Random) -> Grid:
    """An empty Jigsaw of random regions that some full grid fills: not every layout has one
    (then the random full grid of step 2 would be drawn for ever)."""
    while True:
        template = Grid(variant=Variant(regions=random_regions(rng)))
        if sat.solve(template, unique=False).solution is not None:
            return template


def unique_jigsaw(rng: random.Random | int | None = None) -> tuple[Grid, list[int]]:
    """A Jigsaw with one solution (dug while the SAT solver finds one), ungraded, and its solution."""
    rng = _rng(rng)
    template = _solvable_layout(rng)
    solution = random_solution(rng, variant=template.variant)
    values = list(solution)
    _dig(values, rng, template, None)
    return template.with_values(values), solution


def killer_grade(grid: Grid, max_level: str | None = None, *, stop: threading.Event | None = None) -> Grade:
    """A Killer's grade (see the module docstring for what it is)."""
    stepper = Stepper(grid, max_level=max_level, uniqueness=False, stop=stop)
    state = stepper.state
    pruned = False
    while True:
        if stop is not None and stop.is_set():
            raise Cancelled()
        changed = sat.prune_cages(state.values, state.masks, state.geo)
        if changed is None:
            break  # a contradiction: only an unsound step could bring one, and the grade says stuck
        pruned = pruned or changed
        step = stepper.next_step()
        if step is None:
            break
        stepper.apply(step)
    steps = stepper.steps
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    if pruned:
        counts["cage combinations"] = 1
    top = max(steps, key=lambda s: s.rating, default=None)
    technique = top.technique if top is not None else ("cage combinations" if pruned else None)
    rating = top.rating if top is not None else 0.0
    if not stepper.solved:
        return Grade(SEARCH, technique, len(steps), counts, rating=rating)
    level = top_level(steps)
    if pruned and level_index(level) < level_index(BASIC):
        level = BASIC
    return Grade(level, technique, len(steps), counts, rating=rating)


def finished_by_logic(grid: Grid, *, stop: threading.Event | None = None) -> bool:
    """Whether the stepper alone (every technique but the uniqueness ones, as the hints take
    them on a Killer) solves ``grid`` to the end."""
    stepper = Stepper(grid, uniqueness=False, stop=stop)
    stepper.run()
    if stop is not None and stop.is_set():
        raise Cancelled()
    return stepper.solved


def _target(level: str) -> str:
    target = LEVELS[level_index(level)]
    if target == SEARCH:
        raise GenerationError("'needs search' is not a grade the generator makes")
    return target


def generate_killer(level: str, rng: random.Random | int | None = None, *,
                    max_attempts: int = DEFAULT_ATTEMPTS, stop: threading.Event | None = None) -> Generated:
    """A 9×9 Killer with one solution whose grade (:func:`killer_grade`) is ``level``, which
    the stepper finishes by logic (:func:`finished_by_logic`)."""
    target = _target(level)
    sizes = CAGE_SIZES.get(target, WIDEST)
    rng = _rng(rng)
    start = time.perf_counter()
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop.is_set():
            raise GenerationStopped(f"stopped after {attempt - 1} attempts")
        puzzle, solution = unique_killer(rng, sizes)
        grade = killer_grade(puzzle, stop=stop)
        if grade.level == target and finished_by_logic(puzzle, stop=stop):
            return Generated(puzzle, solution, grade, attempt, time.perf_counter() - start)
    raise GenerationError(f"no {target} Killer in {max_attempts} attempts")


def generate_jigsaw(level: str, rng: random.Random | int | None = None, *,
                    max_attempts: int = DEFAULT_ATTEMPTS, stop: threading.Event | None = None) -> Generated:
    """A 9×9 Jigsaw with one solution whose grade (the stepper's, regions as boxes) is ``level``."""
    target = _target(level)
    rng = _rng(rng)
    start = time.perf_counter()
    for attempt in range(1, max_attempts + 1):
        if stop is not None and stop.is_set():
            raise GenerationStopped(f"stopped after {attempt - 1} attempts")
        template = _solvable_layout(rng)
        solution = random_solution(rng, variant=template.variant)
        puzzle = _dug_toward(solution, rng, template, target)
        check = sat.solve(puzzle)
        if check.status is not sat.Status.UNIQUE or check.solution != solution:
            continue
        grade = logic_grade(puzzle, stop=stop)
        if grade.level == target:
            return Generated(puzzle, solution, grade, attempt, time.perf_counter() - start)
    raise GenerationError(f"no {target} Jigsaw in {max_attempts} attempts")
