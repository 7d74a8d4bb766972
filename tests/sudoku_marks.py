"""Pencil-mark grids for technique tests, the way solvers print them (HoDoKu's "PM grid").

81 whitespace-separated tokens, row by row: the candidates of a cell (``1478``), or one digit
for a filled cell. Box drawing (``|``, ``+``, ``-``, ``.``, ``:``, ``'``, ``*``) is ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import islice

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grid import Grid, cell_name, geometry
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import State, Step

GEO = geometry(9)


def pm_state(text: str) -> State:
    tokens = re.findall(r"[1-9]+", text)
    if len(tokens) != 81:
        raise ValueError(f"a pencil-mark grid needs 81 cells, got {len(tokens)}")
    values, masks = [0] * 81, [0] * 81
    for cell, token in enumerate(tokens):
        if len(token) == 1:
            values[cell] = int(token)
        else:
            for ch in token:
                masks[cell] |= 1 << (int(ch) - 1)
    return State(GEO, values, masks)


def named(pairs) -> set[tuple[str, int]]:
    """``{(cell, digit)}`` with cells named: ``{("r1c2", 7)}``."""
    return {(cell_name(c), d) for c, d in pairs}


def assert_sound(step: Step, solution: list[int]) -> None:
    """No placement the solution contradicts, no elimination of a solution digit."""
    for cell, digit in step.placements:
        assert solution[cell] == digit, f"{step.technique} places {digit} at {cell_name(cell)}"
    for cell, digit in step.eliminations:
        assert solution[cell] != digit, f"{step.technique} removes the true {digit} from {cell_name(cell)}"


def finds_checked(grid: Grid, *, finders: tuple[Callable[[State], Iterable[Step]], ...],
                  limit: int | None = None) -> set[str]:
    """Step through the puzzle ``grid``; at every step whatever each finder sees (its first
    ``limit`` finds) agrees with the solution, as does the step taken. The techniques the
    finders found. (A module-level function: parallel_map sends it to its workers.)"""
    solution = sat.solve(grid).solution
    stepper = Stepper(grid)
    used = set()
    while (step := stepper.next_step()) is not None:
        for finder in finders:
            for found in islice(finder(stepper.state), limit):
                assert_sound(found, solution)
                used.add(found.technique)
        assert_sound(step, solution)
        stepper.apply(step)
    return used
