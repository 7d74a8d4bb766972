"""Aligned pair and triplet exclusion (Sudoku Explainer 6.2 and 7.5).

Positions the stepper reached on puzzles of the public-domain sudoku-exchange bank (lines 2
and 5 of the shared diabolical sample); the pair was checked by hand, both against the SAT
solution.
"""

from __future__ import annotations

from pathlib import Path

from sudoku_marks import GEO, assert_sound, named

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.aligned import aligned_exclusion
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.techniques import State

PUZZLES = Path(__file__).parents[2] / "puzzles"

PAIR_PUZZLE = "..7...5......8....9...7...1.251.893...3...6....9...2.....5.3...7.......6.1.2.7.4."
PAIR = ("007001500001080003900070001625148937003000600009006200090503002702804006010207040",
        "6 168 0 296 6 0 0 416 384 18 56 0 296 0 274 72 354 0 0 52 136 36 0 18 136 34 0 0 0 0 0 0 0 0 0 0 137 200 "
        "0 320 18 258 0 145 152 137 200 0 68 20 0 0 145 152 136 0 40 0 33 0 65 192 0 0 20 0 0 257 0 5 272 0 20 0 "
        "160 0 288 0 132 0 272")
TRIPLET_PUZZLE = ".5..3..7...7...8..6.42.75.9..........7.5.6.4.5.28.97.3..6...2....5.9.4..72.....96"
TRIPLET = ("050030670007065800604207539060000000073526048502809763006000200005692407720050396",
           "387 0 385 265 0 136 0 0 11 263 260 0 265 0 0 0 3 11 0 129 0 0 129 0 0 0 0 393 0 384 68 72 5 257 18 18 "
           "257 0 0 0 0 0 257 0 0 0 9 0 0 9 0 0 0 0 264 264 0 68 192 5 0 145 17 5 132 0 0 0 0 0 129 0 0 0 129 9 0 "
           "136 0 0 0")


def _state(position: tuple[str, str]) -> State:
    digits, masks = position
    return State(GEO, [int(ch) for ch in digits], [int(m) for m in masks.split()])


def test_aligned_pair_exclusion():
    # r3c4 (36) and r3c6 (25), cells 21 and 23: 3+2 would empty r1c5 (23), 6+2 would empty r3c8 (26), so r3c6
    # is not 2
    steps = [s for s in aligned_exclusion(2)(_state(PAIR)) if set(s.cells[:2]) == {21, 23}]
    assert steps
    step = steps[0]
    assert step.technique == "aligned pair exclusion" and step.level == "fiendish"
    assert named(step.eliminations) == {("r3c6", 2)}
    assert "r1c5" in step.explanation and "r3c8" in step.explanation
    assert_sound(step, sat.solve(parse_grid(PAIR_PUZZLE)).solution)
    for other in aligned_exclusion(2)(_state(PAIR)):
        assert_sound(other, sat.solve(parse_grid(PAIR_PUZZLE)).solution)


def test_aligned_triplet_exclusion():
    solution = sat.solve(parse_grid(TRIPLET_PUZZLE)).solution
    steps = list(aligned_exclusion(3)(_state(TRIPLET)))
    assert steps
    assert any(named(s.eliminations) == {("r1c1", 1), ("r2c1", 1)} for s in steps)
    for step in steps:
        assert step.technique == "aligned triplet exclusion"
        assert_sound(step, solution)


def test_ratings():
    table = {t.name: (t.level, t.rating, t.explainer) for t in TECHNIQUES}
    assert table["aligned pair exclusion"] == ("fiendish", 6.2, True)
    assert table["aligned triplet exclusion"] == ("diabolical", 7.5, True)
    names = [t.name for t in TECHNIQUES]
    assert names.index("aligned triplet exclusion") < names.index("digit forcing chain")


def test_the_base_cells_looked_at_are_every_combination_sharing_enough_excluders():
    """The combinations of base cells are extended only from prefixes that share enough
    excluders; they are those of every combination, in the same order, on positions of the
    forum's hardest (where SE's grade asks for aligned exclusions at almost every step)."""
    from itertools import combinations

    from tui_games.engine.sudoku.aligned import _aligned, _base_cells
    from tui_games.engine.sudoku.stepper import Stepper

    puzzle = (PUZZLES / "bench_sudoku_forum_database_er_60.txt").read_text().split()[1]
    stepper = Stepper(parse_grid(puzzle), explainer=True)
    looked = 0
    for _ in range(12):
        for k in (2, 3):
            bases = _base_cells(stepper.state, k)
            every = []
            for combo in combinations(sorted(bases), k):
                common = frozenset.intersection(*(bases[c] for c in combo))
                if len(common) >= k:
                    every.append((combo, common))
            assert list(_aligned(bases, k)) == every
            looked += len(every)
        step = stepper.next_step()
        if step is None:
            break
        stepper.apply(step)
    assert looked > 100
