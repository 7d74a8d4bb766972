"""Sudoku Explainer's direct techniques: a single found by looking at a pointing or a hidden set.

The puzzles of the Enjoy Sudoku forum thread "A collection of direct hidden pairs according to
SE" (forum.enjoysudoku.com, t5807) come with Sudoku Explainer's count of each technique; the
stepper must solve them with the same counts (SE counts a full house as a hidden single) and
rate them 2.0. The other positions are ones the stepper reached on shipped puzzles, each
deduction checked by hand and against the SAT solution.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sudoku_marks import GEO, named

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.direct import direct_claiming, direct_hidden_subsets, direct_pointing
from tui_games.engine.sudoku.formats import parse_grid, parse_puzzles
from tui_games.engine.sudoku.grading import grade
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import State

SAMPLES = Path(__file__).parents[2] / "puzzles"
FINDERS = (direct_pointing, direct_claiming, direct_hidden_subsets(2), direct_hidden_subsets(3))


def _position(digits: str, masks: str) -> State:
    return State(GEO, [int(ch) for ch in digits], [int(m) for m in masks.split()])


@pytest.mark.parametrize(("puzzle", "pairs", "singles"), [
    # "17 Direct Hidden Pairs" (Pat)
    (".12......3.....45.6.....78.....98......132......45.....86.....3.74.....6......92.", 17, None),
    # "42 Hidden Single, 15 Direct Hidden Pair" (TTHsieh), both of them
    ("000000000010203040000567000026000830007000400039000610000786000090405020000000000", 15, 42),
    ("000000000010203040000567000026000890007000400093000610000786000030405020000000000", 15, 42),
])
def test_the_forum_direct_hidden_pair_puzzles(puzzle, pairs, singles):
    result = grade(parse_grid(puzzle))
    assert (result.level, result.rating, result.technique) == ("basic", 2.0, "direct hidden pair")
    assert result.counts["direct hidden pair"] == pairs
    if singles is not None:
        assert result.counts["hidden single"] + result.counts["full house"] == singles


def test_direct_pointing():
    # a puzzle of the shipped magictour sample: in box 4, 3 is only in r5c2/r5c3, which takes
    # 3 from r5c6; box 5 then has 3 only at r6c6.
    state = _position(
        "000000413600300000300020000049008000000000052015000000500600007080000900000030000",
        "450 338 194 464 496 368 0 0 0 0 338 203 0 473 345 210 450 400 0 336 201 473 0 377 240 480 432 66 0 0 83 "
        "113 0 101 100 33 192 100 228 329 361 365 229 0 0 194 0 0 330 360 366 228 492 424 0 262 15 0 393 267 135 "
        "142 0 75 0 111 91 89 91 0 46 57 331 354 107 475 0 347 179 170 185")
    step = next(direct_pointing(state))
    assert step.technique == "direct pointing" and not step.eliminations
    assert named(step.placements) == {("r6c6", 3)}
    assert "In box 4, 3 can only go in row 5 (r5c2, r5c3)" in step.explanation
    solution = sat.solve(parse_grid("......41.6..3.....3...2.....49..8..........52.1.......5..6....7.8....9......3....")).solution
    assert solution[5 * 9 + 5] == 3


def test_direct_hidden_triple():
    # in row 2, 1, 3 and 5 fit only in r2c2, r2c3, r2c9; 8, also at r2c9, is left only r2c6
    state = _position(
        "800501400000020090000000000500380100076912000000450000700169024100045300000073000",
        "0 294 326 0 260 0 0 100 102 40 61 93 96 0 136 96 0 245 298 319 351 96 260 136 98 245 247 0 266 266 0 0 "
        "96 0 104 354 12 0 0 0 0 0 144 156 148 262 129 129 0 0 96 354 100 358 0 148 148 0 0 0 144 0 0 0 418 386 "
        "130 0 0 0 224 480 298 442 410 130 0 0 288 177 433")
    steps = [s for s in direct_hidden_subsets(3)(state) if s.units == (1,)]
    assert steps and named(steps[0].placements) == {("r2c6", 8)}
    assert "1, 3 and 5 fit only in r2c2, r2c3, r2c9" in steps[0].explanation
    solution = sat.solve(parse_grid("8..5..4......2..9..........5..3..1...76.........4.........69.241.....3......7....")).solution
    assert solution[1 * 9 + 5] == 8


def test_ratings_and_order():
    stepper = Stepper(parse_grid(".12......3.....45.6.....78.....98......132......45.....86.....3.74.....6......92."))
    ratings = {t.name: t.rating for t in stepper.techniques}
    assert (ratings["direct pointing"], ratings["direct claiming"], ratings["direct hidden pair"],
            ratings["direct hidden triple"]) == (1.7, 1.9, 2.0, 2.5)
    names = [t.name for t in stepper.techniques]
    assert names.index("direct hidden pair") < names.index("naked single") < names.index("direct hidden triple")


def test_direct_steps_are_sound_on_shipped_puzzles():
    grids = parse_puzzles((SAMPLES / "bench_sudoku_norvig_top95.txt").read_text())[:8]
    grids += parse_puzzles((SAMPLES / "bench_sudoku_project_euler_96.txt").read_text())
    seen = set()
    for grid in grids:
        solution = sat.solve(grid).solution
        stepper = Stepper(grid)
        while (step := stepper.next_step()) is not None:
            for finder in FINDERS:
                for found in finder(stepper.state):
                    seen.add(found.technique)
                    assert all(solution[c] == d for c, d in found.placements), found.explanation
            stepper.apply(step)
        assert stepper.solved
    assert {"direct pointing", "direct hidden pair", "direct hidden triple"} <= seen
