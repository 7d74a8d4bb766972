"""The stepper's choice and the rating on Sudoku Explainer's scale.

No step is taken while a lower-rated one exists (SE's rule: its producers run in order of
difficulty and the first hint wins), whatever the level each technique belongs to; and the
rating a grade prints is the rating of the technique it names.
"""

from __future__ import annotations

from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.grading import logic_grade
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.levels import NIGHTMARE, level_index
from tui_games.engine.sudoku.stepper import Stepper

# Positions the stepper reached on two puzzles of the shipped diabolical sample (lines 2 and
# 176) where it took a naked quad (5.0) though a unique rectangle (4.6) or an XY-wing (4.2)
# was there: digits, then the candidate masks of every cell.
QUAD_BEFORE_UR = (
    "679832154000057000528400700092300610350000079086000400800004962967283541240009387",
    "0 0 0 0 0 0 0 0 0 9 5 13 288 0 0 130 258 160 0 0 0 0 289 33 0 260 36 72 0 0 0 72 144 0 0 144 0 0 9 "
    "33 43 161 130 0 0 65 0 0 321 323 17 0 6 20 0 5 21 81 65 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 17 49 33 0 0 0 0",
)
QUAD_BEFORE_XY_WING = (
    "873629145409080002260000089184796523097000408032408900940030050308000204720000001",
    "0 0 0 0 0 0 0 0 0 0 17 0 21 0 65 100 100 0 0 0 17 21 72 77 68 0 0 0 0 0 0 0 0 0 0 0 48 0 0 6 17 6 0 "
    "33 0 48 0 0 0 17 0 0 97 96 0 0 33 131 0 67 224 0 96 0 17 0 257 96 80 0 352 0 0 0 48 384 40 24 132 "
    "260 0",
)


def _stepper(position: tuple[str, str]) -> Stepper:
    digits, masks = position
    return Stepper(Grid([int(ch) for ch in digits]), [int(m) for m in masks.split()])


def test_techniques_are_tried_in_order_of_rating():
    ratings = [t.rating for t in TECHNIQUES]
    assert ratings == sorted(ratings)


def test_no_quad_while_an_easier_step_exists():
    for position, most in ((QUAD_BEFORE_UR, 4.6), (QUAD_BEFORE_XY_WING, 4.2)):
        stepper = _stepper(position)
        step = stepper.next_step()
        assert step is not None
        assert "quad" not in step.technique
        assert step.rating <= most
        # and nothing the stepper could have taken is rated lower
        for technique in stepper.techniques:
            if technique.rating < step.rating:
                assert next(iter(technique.find(stepper.state)), None) is None, technique.name


def test_the_grade_names_the_step_its_rating_comes_from():
    grid = Grid([int(ch) for ch in QUAD_BEFORE_XY_WING[0]])
    grade = logic_grade(grid)
    stepper = Stepper(grid, explainer=True)  # the grade uses Sudoku Explainer's techniques
    stepper.run()
    top = max(stepper.steps, key=lambda s: s.rating)
    assert grade.rating == top.rating
    assert grade.describe().endswith(f"{grade.rating:.1f}: {grade.technique}")
    assert any(s.technique == grade.technique and s.rating == grade.rating for s in stepper.steps)


def test_the_grade_uses_sudoku_explainers_techniques_the_hints_every_one():
    # Line 62 of the shipped diabolical sample, which Sukaku Explainer rates 7.1: with every
    # technique the stepper needs no more than a finned swordfish and an XY-wing (4.2), but
    # Sudoku Explainer knows no finned fish, so the grade takes the AIC it needs instead.
    puzzle = parse_grid("5..2.9..4....6.....7.....6.38.5.7.4171..9..8249.1.8.75..7...5..9.......6...4.2...")
    result = logic_grade(puzzle)
    assert (result.level, result.rating, result.technique) == ("fiendish", 7.1, "AIC")
    hints = Stepper(puzzle)
    hints.run()
    assert hints.solved and max(s.rating for s in hints.steps) == 4.2
    assert "finned swordfish" in {s.technique for s in hints.steps}
    explainer = {t.name for t in Stepper(puzzle, explainer=True).techniques}
    assert "finned swordfish" not in explainer and "XY-wing" in explainer


def test_the_grades_level_stops_the_leveller_at_its_highest_level():
    """The grade's level comes from a second pass going by level; once that pass takes a step
    of its highest level (a nested or dynamic net) on a puzzle with one solution, the level is
    known and the pass stops there: the level is the one the whole pass gives."""
    grid = parse_grid("6.2.5.........4.3..........43...8....1....2........7..5..27...........81...6.....")  # top95
    grade = logic_grade(grid)
    whole = Stepper(grid, explainer=True, by_level=True)
    whole.run()
    assert whole.solved
    assert grade.level == max((s.level for s in whole.steps), key=level_index) == NIGHTMARE
