"""Sudoku's puzzle of the day: a 9×9 puzzle graded by the stepper, on a ladder over the week
(:data:`WEEK`, Monday easiest), made by the engine's generator from the day's random numbers.

The grades past *extreme* are made by disguising puzzles of the shipped collections, which
this pure package does not read; the week stops at extreme, which digging reaches alone.
Digging rarely stops at *advanced* (a puzzle eased to "advanced or easier" is usually easier:
up to 300 grids, 12 s, on some days), so an advanced day gives :data:`ADVANCED_GRIDS` grids
to it and then, from the same random numbers, takes an *extreme* puzzle (half a second): a
Thursday or Friday is advanced or harder, and the grade says which. The answer is the whole grid; a wrong one is refuted by what makes it wrong, without giving
the solution away: a clue changed, a cell left blank, or a digit written twice in a house
(a complete grid that keeps the clues and repeats no digit is the one solution, which the
generator proved unique).
"""

from __future__ import annotations

import datetime

from tui_games.daily.cache import kept
from tui_games.daily.puzzle import AnswerError, Puzzle, Verdict
from tui_games.daily.seed import day_rng
from tui_games.engine.sudoku.formats import format_pretty
from tui_games.engine.sudoku.generator import DEFAULT_ATTEMPTS, GenerationError, generate
from tui_games.engine.sudoku.grid import Grid, cell_name
from tui_games.engine.sudoku.levels import ADVANCED, BASIC, EXTREME, INTERMEDIATE, TRIVIAL

__all__ = ["SUDOKU", "WEEK", "SudokuDaily"]

SIZE = 9
WEEK = (TRIVIAL, BASIC, INTERMEDIATE, ADVANCED, ADVANCED, EXTREME, EXTREME)
# Grids tried for an advanced puzzle before the day takes an extreme one (see above).
ADVANCED_GRIDS = 60


class SudokuDaily:
    key = "sudoku"

    def make(self, day: datetime.date) -> Puzzle:
        return _cached(day)

    def diagram(self, puzzle: Puzzle) -> str:
        return format_pretty(Grid([0 if ch == "." else int(ch) for ch in puzzle.position], size=SIZE))

    def judge(self, puzzle: Puzzle, answer: str) -> Verdict:
        text = "".join(answer.split())
        cells = SIZE * SIZE
        if len(text) != cells or not all("1" <= ch <= "9" for ch in text):
            raise AnswerError(f"answer: give the whole grid, {cells} digits 1-9 row by row "
                              f"({len(text)} characters given)")
        values = [int(ch) for ch in text]
        clues = [0 if ch == "." else int(ch) for ch in puzzle.position]
        if text == puzzle.solution:
            return Verdict(True, text, f"solved: the one solution of this {puzzle.details['grade']} puzzle",
                           finished=True)
        for cell, clue in enumerate(clues):
            if clue and values[cell] != clue:
                name = cell_name(cell, SIZE)
                return Verdict(False, text, f"{name} is a clue: {clue}, not {values[cell]}", name)
        grid = Grid(values, size=SIZE)
        unit, digit, where = grid.duplicates()[0]
        names = " and ".join(cell_name(c, SIZE) for c in where)
        return Verdict(False, text, f"{digit} is written twice in {grid.geometry.unit_names[unit]}: {names}",
                       cell_name(where[-1], SIZE))


@kept
def _cached(day: datetime.date) -> Puzzle:
    level = WEEK[day.weekday()]
    rng = day_rng(SudokuDaily.key, day)
    try:
        made = generate(level, rng, size=SIZE, max_attempts=ADVANCED_GRIDS if level == ADVANCED else DEFAULT_ATTEMPTS)
    except GenerationError:
        level = EXTREME
        made = generate(level, rng, size=SIZE)
    solution = "".join(map(str, made.solution))
    return Puzzle(SudokuDaily.key, day, made.puzzle.format(), f"solve it (grade {made.grade.describe()})",
                  f"the whole grid, {SIZE * SIZE} digits row by row", None, solution, (),
                  {"grade": level, "technique": made.grade.technique, "rating": made.grade.rating})


SUDOKU = SudokuDaily()
