"""The difficulty levels of the grader, easiest first.

The first five follow Simon Tatham's *Solo*; past *extreme* come *fiendish* (chains: X- and
XY-chains, nice loops, ALS), *diabolical* (forcing chains: a candidate, a cell or a unit's
places followed through singles) and *nightmare* (dynamic forcing chains, which follow the
consequences of the consequences, and nested forcing nets; Sudoku Explainer 8.5 and up). "needs search" is left for a stepper that was limited or stopped before
it finished: with every technique allowed, a puzzle with one solution always has a next step.

A module of its own so that the command line can name the levels without importing the
techniques (see :mod:`.techniques` for what each level stands for).
"""

from __future__ import annotations

TRIVIAL, BASIC, INTERMEDIATE, ADVANCED, EXTREME, FIENDISH, DIABOLICAL, NIGHTMARE, SEARCH = (
    "trivial", "basic", "intermediate", "advanced", "extreme", "fiendish", "diabolical", "nightmare",
    "needs search")
LEVELS = (TRIVIAL, BASIC, INTERMEDIATE, ADVANCED, EXTREME, FIENDISH, DIABOLICAL, NIGHTMARE, SEARCH)


def level_index(level: str) -> int:
    """The rank of a level in :data:`LEVELS` (0 for trivial); ValueError names the levels."""
    key = level.strip().lower().replace("-", " ").replace("_", " ")
    if key in LEVELS:
        return LEVELS.index(key)
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
