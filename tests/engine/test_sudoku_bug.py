"""BUG types 2, 3 and 4 (bivalue universal grave with several extra candidates), rated as
Sudoku Explainer rates them (5.7, 5.8+, 5.7).

The positions are ones the stepper reached on puzzles of the public-domain sudoku-exchange
bank (its diabolical list, shared sample and shipped sample); each deduction was checked by
hand -- without the BUG candidates every empty cell is bivalue and every digit has two places
in each unit -- and against the SAT solution of the puzzle.
"""

from __future__ import annotations

from sudoku_marks import GEO, assert_sound, named

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.bug import bug_candidates, bug_type, bug_types_2_to_4
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.grid import cell_name
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import State

# Line 128 of the shared 10,000 (sudoku-exchange diabolical): 9 is the BUG candidate of r5c8
# (579) and r7c9 (349).
TYPE2_PUZZLE = "82.....41..4.6.9..3...8...7.8.5.3.6............36.94....62.78....8.3.7...3.....1."
TYPE2 = ("820305641004062900360080527080503160600000300003609400016257800208030700735000210",
         "0 0 320 0 320 0 0 0 0 17 80 0 65 0 0 0 132 132 0 0 257 264 0 9 0 0 0 264 0 66 0 72 0 0 0 258 0 264 3 "
         "192 3 136 0 336 272 17 80 0 0 3 0 0 192 130 264 0 0 0 0 0 0 260 268 0 264 0 9 0 33 0 272 48 0 0 0 384 "
         "264 160 0 0 40")

# Line 179 of the shipped diabolical sample: r2c5 (459) and r2c6 (489), BUG candidates 5 and 4.
TYPES34_PUZZLE = "4..2.6..9.2.....3.9.5.7......74.....51.....26.....14......8.9.2.7.....4.6..9.7..1"
TYPES34 = ("401206709726000130905170260097460513514700826360001497103680972079310640600907301",
           "0 132 0 0 20 0 0 144 0 0 0 0 144 280 392 0 0 24 0 132 0 0 0 12 0 0 136 130 0 0 0 0 130 0 0 0 0 0 0 0 "
           "260 260 0 0 0 0 0 130 144 18 0 0 0 0 0 24 0 0 0 24 0 0 0 130 0 0 0 0 18 0 0 144 0 24 130 0 10 0 0 144 0")


def _state(position: tuple[str, str]) -> State:
    digits, masks = position
    return State(GEO, [int(ch) for ch in digits], [int(m) for m in masks.split()])


def _solution(puzzle: str) -> list[int]:
    return sat.solve(parse_grid(puzzle)).solution


def test_bug_candidates():
    found = bug_candidates(_state(TYPE2))
    assert {cell_name(c): m for c, m in found.items()} == {"r5c8": 1 << 8, "r7c9": 1 << 8}
    found = bug_candidates(_state(TYPES34))
    assert {cell_name(c): m for c, m in found.items()} == {"r2c5": 1 << 4, "r2c6": 1 << 3}


def test_type_2():
    steps = list(bug_types_2_to_4(_state(TYPE2)))
    assert [s.technique for s in steps] == ["BUG type 2"]
    step = steps[0]
    assert step.rating == 5.7
    assert named(step.eliminations) == {("r4c9", 9), ("r5c9", 9), ("r7c8", 9), ("r8c8", 9)}
    assert "One of r5c8, r7c9 is 9" in step.explanation
    assert_sound(step, _solution(TYPE2_PUZZLE))


def test_type_4():
    # without their BUG digits r2c5 is 49 and r2c6 89: 9 is in both and nowhere else in row 2,
    # so one of them is 9 and the other its BUG digit
    step = next(bug_type(4)(_state(TYPES34)))
    assert step.rating == 5.7
    assert named(step.eliminations) == {("r2c5", 4), ("r2c6", 8)}
    assert "In row 2, 9 fits only in r2c5, r2c6" in step.explanation
    assert_sound(step, _solution(TYPES34_PUZZLE))


def test_type_3():
    # one of r2c5, r2c6 is 4 or 5; with r2c9 (45) a naked pair in row 2, so r2c4 loses 5
    step = next(bug_type(3)(_state(TYPES34)))
    assert step.rating == 5.8
    assert named(step.eliminations) == {("r2c4", 5)}
    assert "with r2c9 that makes a naked set on 4 and 5" in step.explanation
    assert_sound(step, _solution(TYPES34_PUZZLE))


def test_no_bug_without_the_pattern():
    state = _state(TYPE2)
    state.masks[0 * 9 + 2] |= 1  # r1c3 gets a 1: column 3 and box 1 hold 1 three times
    assert bug_candidates(state) is None or not list(bug_types_2_to_4(state))


def test_catalogue_and_uniqueness():
    table = {t.name: (t.rating, t.uniqueness, t.explainer) for t in TECHNIQUES}
    assert table["BUG type 2"] == (5.7, True, True)
    assert table["BUG type 4"] == (5.7, True, True)
    assert table["BUG type 3"] == (5.8, True, True)
    stepper = Stepper(parse_grid(TYPE2_PUZZLE), uniqueness=False)
    assert not any(t.name.startswith("BUG") for t in stepper.techniques)
