"""Grading: a puzzle is as hard as the hardest technique the stepper needs to solve it.

The stepper always takes the easiest step available (see :mod:`.stepper`), so the hardest
technique it uses is one no easier route avoids. Its level is the grade, from
:data:`~.techniques.LEVELS`:

- **trivial** -- full houses and hidden singles in boxes only;
- **basic** -- hidden singles in rows and columns, naked singles;
- **intermediate** -- pointing, box-line reduction;
- **advanced** -- naked and hidden pairs, triples and quads;
- **extreme** -- X-wing, swordfish, XY-wing, XYZ-wing;
- **needs search** -- the stepper gets stuck: trial and error (or a technique it does not
  know) is needed.

This follows Simon Tatham's *Solo* (Trivial / Basic / Intermediate / Advanced / Extreme /
Unreasonable), whose levels are drawn at the same places: box-only positional elimination,
then all singles, then intersections, then sets, then fish and forcing chains (our XY- and
XYZ-wings are its shortest forcing chains). A puzzle without a unique solution has no grade.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import TECHNIQUE_RANK
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.levels import INTERMEDIATE, LEVELS, SEARCH, level_index
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Step

__all__ = ["Grade", "grade", "graded_steps", "hardest", "logic_grade", "solves_within", "top_level"]


@dataclass(frozen=True)
class Grade:
    """A puzzle's grade. ``level`` is one of :data:`LEVELS`, or None when the puzzle has no
    unique solution (``status`` says which); ``technique`` is the hardest technique used
    (for "needs search", the hardest used before the stepper got stuck; None if none was);
    ``rating`` the hardest step's rating on Sudoku Explainer's scale; ``steps`` how many steps
    the stepper took; ``counts`` how often each technique served. ``logic`` is False only
    when the techniques could not finish the puzzle."""

    level: str | None
    technique: str | None
    steps: int
    counts: dict[str, int] = field(default_factory=dict)
    status: sat.Status = sat.Status.UNIQUE
    rating: float = 0.0

    @property
    def logic(self) -> bool:
        return self.level is not None and self.level != SEARCH

    def describe(self) -> str:
        """``advanced 4.0: hidden triple``, ``needs search: stuck after pointing``, ``several solutions``."""
        if self.level is None:
            return self.status.value
        if self.level == SEARCH:
            return f"{self.level}: stuck after {self.technique}" if self.technique else f"{self.level}: stuck at once"
        return f"{self.level} {self.rating:.1f}: {self.technique}"


def hardest(steps: Sequence[Step]) -> Step | None:
    """The step that sets a puzzle's rating: the highest-rated, then the higher level, then the
    technique listed later. Its rating is the puzzle's, so ``extreme 5.0: naked quad`` names
    the step the 5.0 comes from."""
    best = None
    best_key: tuple[float, int, int] = (-1.0, -1, -1)
    for step in steps:
        key = (step.rating, level_index(step.level), TECHNIQUE_RANK[step.technique])
        if key > best_key:
            best, best_key = step, key
    return best


def top_level(steps: Sequence[Step]) -> str:
    """The highest level among ``steps`` (trivial for none)."""
    return max((step.level for step in steps), key=level_index, default=LEVELS[0])


def logic_grade(grid: Grid, max_level: str | None = None, *, uniqueness: bool = True,
                stop: threading.Event | None = None) -> Grade:
    """Grade by the stepper alone, trusting that the puzzle has one solution; with
    ``max_level``, techniques above it are not tried (the generator's check)."""
    return graded_steps(grid, max_level, uniqueness=uniqueness, stop=stop)[0]


def graded_steps(grid: Grid, max_level: str | None = None, *, uniqueness: bool = True,
                 stop: threading.Event | None = None) -> tuple[Grade, list[Step]]:
    """The grade and the steps its rating comes from. With Sudoku Explainer's techniques, the
    rating is that of the hardest step the stepper takes going by rating (SE's choice); the
    level is the least level that solves the puzzle, from a second pass going by level first
    (a puzzle that takes an X-wing, 3.2, before a hidden pair, 3.4, in the first pass still
    grades advanced). Up to intermediate both orders agree, and the second pass is skipped."""
    stepper = Stepper(grid, max_level=max_level, uniqueness=uniqueness, explainer=True, stop=stop)
    steps = stepper.run()
    counts: dict[str, int] = {}
    for step in steps:
        counts[step.technique] = counts.get(step.technique, 0) + 1
    top = hardest(steps)
    technique = top.technique if top is not None else None
    rating = top.rating if top is not None else 0.0
    if not stepper.solved:
        return Grade(SEARCH, technique, len(steps), counts, rating=rating), steps
    level = top_level(steps)
    if level_index(level) > level_index(INTERMEDIATE):
        leveller = Stepper(grid, max_level=max_level, uniqueness=uniqueness, explainer=True, by_level=True,
                           stop=stop)
        level = _least_level(grid, leveller, max_level is None) or level
    return Grade(level, technique, len(steps), counts, rating=rating), steps


def _least_level(grid: Grid, leveller: Stepper, every_level: bool) -> str | None:
    """The highest level of the steps the by-level ``leveller`` takes to solve ``grid``, or
    None if it gets stuck. With ``every_level`` (no level left out) its nested nets always
    find a step on a puzzle with one solution: once it takes a step of its highest level and
    the SAT solver says the puzzle has one solution, that level is the answer, and the rest of
    the run (on the forum's hardest, tens of nested nets: half the grade's CPU) is skipped."""
    highest = max(level_index(t.level) for t in leveller.techniques)
    while True:
        step = leveller.next_step()
        if step is None:
            break
        leveller.apply(step)
        if every_level and level_index(step.level) == highest:
            if sat.solve(grid).status is sat.Status.UNIQUE:
                return step.level
            every_level = False
    return top_level(leveller.steps) if leveller.solved else None


def grade(grid: Grid, *, uniqueness: bool = True, stop: threading.Event | None = None) -> Grade:
    """The grade of a puzzle, after checking with the SAT solver that it has one solution."""
    result = sat.solve(grid)
    if result.status is not sat.Status.UNIQUE:
        return Grade(None, None, 0, {}, result.status)
    return logic_grade(grid, uniqueness=uniqueness, stop=stop)


def solves_within(grid: Grid, level: str) -> bool:
    """Whether the stepper limited to ``level`` and easier solves ``grid``. The techniques
    are sound, so a yes also proves the solution unique."""
    stepper = Stepper(grid, max_level=level, explainer=True)
    stepper.run()
    return stepper.solved
