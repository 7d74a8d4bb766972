"""The difficulty levels of the grader, easiest first (the names follow Simon Tatham's *Solo*).

A module of its own so that the command line can name the levels without importing the
techniques (see :mod:`.techniques` for what each level stands for).
"""

from __future__ import annotations

TRIVIAL, BASIC, INTERMEDIATE, ADVANCED, EXTREME, SEARCH = (
    "trivial", "basic", "intermediate", "advanced", "extreme", "needs search")
LEVELS = (TRIVIAL, BASIC, INTERMEDIATE, ADVANCED, EXTREME, SEARCH)


def level_index(level: str) -> int:
    """The rank of a level in :data:`LEVELS` (0 for trivial); ValueError names the levels."""
    key = level.strip().lower().replace("-", " ").replace("_", " ")
    if key in LEVELS:
        return LEVELS.index(key)
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
