"""The human stepper: always the easiest next step, the way a person would solve.

:class:`Stepper` holds a :class:`~.techniques.State` and, at each call of
:meth:`Stepper.next_step`, tries the techniques of :data:`~.catalogue.TECHNIQUES` in order
and returns the easiest step: the lowest-rated one, whatever level its technique belongs to
(Sudoku Explainer's choice: no step is taken while a lower-rated one exists). A
chain's rating grows with its length, so a long X-chain (7.1) loses to a short AIC (7.0)
listed after it; the search stops at the first technique whose base rating cannot beat the
step in hand. So every harder technique is used only when nothing easier applies, which is
what makes "the hardest technique used" a grade.

The grade's stepper (``explainer=True``) follows Sudoku Explainer itself instead, as its fork
Sukaku Explainer rated the shared bank: its producers in its order
(:data:`~.catalogue.EXPLAINER_PRODUCERS`), the first with a step giving it. That order is by
rating but for a few places (a 5.7 three-strong-link fish before a 5.5 WXYZ-wing, unique
loops before a naked quad), and following it makes the highest rating Sudoku Explainer's.

For the screen: :func:`next_step` (the hint) and :func:`apply_step` work on a
:class:`~.grid.Grid` plus optional pencil marks (candidate masks per cell). A position with
a wrong digit is not the stepper's business -- compare with the SAT solution first -- but
an outright contradiction (a cell with no candidate, a digit with no place, a repeated
digit) stops it: :meth:`Stepper.next_step` returns None and :attr:`Stepper.stuck` says why.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence

from tui_games.engine.sudoku.cages import cage_geometry
from tui_games.engine.sudoku.catalogue import EXPLAINER_PRODUCERS, TECHNIQUES
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.levels import LEVELS, level_index
from tui_games.engine.sudoku.techniques import (
    State,
    Step,
    Technique,
)

__all__ = ["Stepper", "apply_step", "next_step"]


class Stepper:
    """Steps through a puzzle with the techniques up to ``max_level`` (default: all);
    ``uniqueness=False`` leaves out the techniques that assume a unique solution;
    ``explainer=True`` keeps only the techniques Sudoku Explainer knows (what a puzzle's grade
    and rating use); ``by_level=True`` takes the easiest level first, then the lowest rating
    within it (what the grade's level uses: the least level that solves the puzzle). Setting
    ``stop`` makes a running :meth:`next_step` raise :class:`~.techniques.Cancelled`."""

    def __init__(self, grid: Grid, candidates: Sequence[int] | None = None, *,
                 max_level: str | None = None, uniqueness: bool = True, explainer: bool = False,
                 by_level: bool = False, stop: threading.Event | None = None) -> None:
        self.state = State.from_grid(grid, candidates)
        # A Killer's 9-cell cages are units for the classic techniques (:mod:`.cages`).
        self.state.geo = cage_geometry(self.state.geo)
        self.state.stop = stop
        self.givens = list(grid.givens)
        top = level_index(max_level) if max_level is not None else len(LEVELS) - 1
        self.techniques: tuple[Technique, ...] = tuple(
            t for t in TECHNIQUES if level_index(t.level) <= top and (uniqueness or not t.uniqueness)
            and ((t.explainer or by_level and t.levels) if explainer else t.hints))
        if by_level:
            self.techniques = tuple(sorted(self.techniques, key=lambda t: level_index(t.level)))
        self.by_level = by_level
        #: With ``explainer`` (and not ``by_level``): the techniques grouped as Sudoku Explainer's
        #: producers, in its order; the first group with a step gives the step.
        self.producers: tuple[tuple[Technique, ...], ...] = ()
        if explainer and not by_level:
            self.producers = _producers(self.techniques)
        self.steps: list[Step] = []
        #: Why :meth:`next_step` last returned None: "solved", a contradiction, or "stuck".
        self.stuck: str | None = None

    @property
    def solved(self) -> bool:
        return self.state.solved()

    def next_step(self) -> Step | None:
        """The easiest step available, or None (see :attr:`stuck`)."""
        state = self.state
        if state.solved():
            self.stuck = "solved"
            return None
        problem = state.contradiction()
        if problem is not None:
            self.stuck = problem
            return None
        if self.producers:
            for group in self.producers:
                found = self._easiest(group)
                if found is not None:
                    self.stuck = None
                    return found
            self.stuck = "stuck"
            return None
        best: Step | None = None
        for technique in self.techniques:
            if best is not None and (technique.rating >= best.rating
                                     or self.by_level and technique.level != best.level):
                break  # nothing from here on is easier than the step in hand
            step = _first_step(technique, state)
            if step is not None and (best is None or step.rating < best.rating):
                best = step
        self.stuck = None if best is not None else "stuck"
        return best

    def _easiest(self, group: tuple[Technique, ...]) -> Step | None:
        best: Step | None = None
        for technique in group:
            step = _first_step(technique, self.state)
            if step is not None and (best is None or step.rating < best.rating):
                best = step
        return best

    def apply(self, step: Step) -> None:
        self.state.apply(step)
        self.steps.append(step)

    def run(self, limit: int | None = None) -> list[Step]:
        """Step until solved, stuck or ``limit`` steps; returns the steps taken by this call."""
        taken: list[Step] = []
        while limit is None or len(taken) < limit:
            step = self.next_step()
            if step is None:
                break
            self.apply(step)
            taken.append(step)
        return taken

    def grid(self) -> Grid:
        """The position reached, with the original givens."""
        geo = self.state.geo
        return Grid(self.state.values, size=geo.size, diagonal=geo.diagonal, givens=self.givens, variant=geo.variant)

    @property
    def candidates(self) -> list[int]:
        """Candidate masks of every cell in the position reached (0 for a filled cell)."""
        return list(self.state.masks)


def _producers(techniques: tuple[Technique, ...]) -> tuple[tuple[Technique, ...], ...]:
    """``techniques`` grouped and ordered as :data:`~.catalogue.EXPLAINER_PRODUCERS`; any not
    named there follow, one group each, by rating."""
    by_name = {t.find.__name__: t for t in techniques}
    groups = [tuple(by_name.pop(name) for name in names if name in by_name) for names in EXPLAINER_PRODUCERS]
    groups = [g for g in groups if g]
    groups += [(t,) for t in techniques if t.find.__name__ in by_name]
    return tuple(groups)


def next_step(grid: Grid, candidates: Sequence[int] | None = None, *, max_level: str | None = None,
              uniqueness: bool = True, stop: threading.Event | None = None) -> Step | None:
    """The hint: the easiest step in ``grid`` (with pencil marks ``candidates`` if given), or
    None when the grid is solved, contradictory, or needs more than the techniques."""
    return Stepper(grid, candidates, max_level=max_level, uniqueness=uniqueness, stop=stop).next_step()


def apply_step(grid: Grid, step: Step, candidates: Sequence[int] | None = None) -> list[int]:
    """Write the step's placements into ``grid`` and return the candidate masks after it
    (``candidates`` narrowed by the step's eliminations and placements)."""
    state = State.from_grid(grid, candidates)
    state.apply(step)
    for cell, digit in step.placements:
        grid.set(cell, digit)
    return state.masks


def _first_step(technique: Technique, state: State) -> Step | None:
    """The technique's first step, rated at the technique's base where it gives no rating itself."""
    step = next(iter(technique.find(state)), None)
    if step is not None and not step.rating:
        step = dataclasses.replace(step, rating=technique.rating)
    return step
