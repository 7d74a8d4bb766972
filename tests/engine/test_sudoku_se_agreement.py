"""Rating rules that make our ratings agree with Sudoku Explainer's, each on puzzles of the
public-domain sudoku-exchange bank whose rating (in the bank, made with Sukaku Explainer) and
whose steps are known: Sukaku Explainer, run with the bank's technique set, takes the step
named here at the rating given, and so does our stepper.

- XY-cycles (SE's "bidirectional Y-cycles"): loops of bivalue cells, 6.5 + the loop's length
  (4 cells 6.6, 5 cells 6.7, 6 cells 6.8), where an AIC rated them 7.0 and up;
- two strong links on one digit with a grouped node (SE's "grouped skyscraper"): 4.3;
- unique rectangles of types 2 and 4: 4.5, as type 1;
- nishio forcing chains: a candidate followed on its own digit, singles played out, to a
  contradiction: 7.5 + length, where static cell and unit chains rated 8.2 and up;
- the grade asks Sudoku Explainer's producers in its order, the first with a step giving it
  (a three-strong-link fish at 5.7 before a WXYZ-wing at 5.5), and WXYZ-wings easiest first.
"""

from __future__ import annotations

from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.grading import graded_steps
from tui_games.engine.sudoku.grid import cell_name
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Step
from tui_games.engine.sudoku.xy_cycles import xy_cycles


def _steps(puzzle: str) -> tuple[float, str | None, list[Step]]:
    grade, steps = graded_steps(parse_grid(puzzle))
    assert grade.logic
    return grade.rating, grade.technique, steps


def _names(cells) -> set[str]:
    return {cell_name(c) for c in cells}


def test_a_four_cell_xy_cycle_rates_6_6():
    # Line 10 of the shipped diabolical sample, 6.6 in the bank: Sukaku Explainer's hardest
    # step is "Bidirectional Y-Cycle: r5c4,r5c9,r1c9,r1c4" (6.6); an AIC rated 7.1.
    rating, technique, steps = _steps(
        "..5.3.9...........973...46278.....91..9...6..1..8.2..4....1......16478...5..8..7.")
    assert (rating, technique) == (6.6, "XY-cycle")
    cycle = next(step for step in steps if step.technique == "XY-cycle")
    assert _names(cycle.cells) == {"r5c4", "r5c9", "r1c9", "r1c4"}
    # either every cell holds the digit it passes on or every one the digit it receives
    assert set(cycle.eliminations) == {(4 * 9 + 7, 3), (1 * 9 + 3, 4), (3 * 9 + 3, 4)}


def test_xy_cycles_rate_by_their_length():
    # 6.7 and 6.8 in the bank; Sukaku's Y-cycles there have 5 and 6 cells.
    for puzzle, expected, cells in (
        ("570000036600407001004000500000962000100503009040000050000000000400895003730010065", 6.7, 5),
        ("040030050020607030100804007500000003002378500003000800001000700006000300008961400", 6.8, 6),
    ):
        rating, technique, steps = _steps(puzzle)
        assert (rating, technique) == (expected, "XY-cycle")
        top = max((s for s in steps if s.technique == "XY-cycle"), key=lambda s: s.rating)
        assert len(top.cells) == cells


def test_an_xy_cycle_never_removes_a_true_candidate():
    from tui_games.engine.sudoku import sat
    for puzzle in ("..5.3.9...........973...46278.....91..9...6..1..8.2..4....1......16478...5..8..7.",
                   "040030050020607030100804007500000003002378500003000800001000700006000300008961400"):
        grid = parse_grid(puzzle)
        solution = sat.solve(grid).solution
        assert solution is not None
        stepper = Stepper(grid, explainer=True)
        while (step := stepper.next_step()) is not None:
            for found in xy_cycles(stepper.state):
                assert all(solution[c] != d for c, d in found.eliminations)
            stepper.apply(step)


def test_two_strong_links_with_a_group_rate_4_3():
    # Sukaku: "4.3 Grouped Skyscraper: r5c1,r5c7,r8c7,r8c2 on value 4", then a WXYZ-wing 5.6
    # (the bank's rating); without it the stepper went another way, to an AIC at 7.1.
    rating, technique, steps = _steps(
        "000209000000010000018070920701000308090000060003000700050127090100080005007564200")
    assert (rating, technique) == (5.6, "WXYZ-wing")
    grouped = next(step for step in steps if step.technique == "grouped turbot fish")
    assert (grouped.rating, grouped.level) == (4.3, "extreme")
    assert set(grouped.eliminations) == {(3 * 9 + 1, 4), (5 * 9 + 1, 4)}  # r4c2, r6c2
    assert any(len(link.cells_a) > 1 or len(link.cells_b) > 1 for link in grouped.links)


def test_unique_rectangles_of_types_2_and_4_rate_4_5():
    rates = {t.name: t.rating for t in TECHNIQUES}
    assert rates["unique rectangle type 2"] == rates["unique rectangle type 4"] == 4.5
    for puzzle, technique, eliminations in (
        # Sukaku: "4.5 Unique Rectangle type 2: r6c4,r6c6,r2c6,r2c4 on 1, 6"
        ("090000070200000008001479500008907400730805019000030000580000062000000000020504090",
         "unique rectangle type 2", {(3, 3), (11, 3)}),
        # Sukaku: "4.5 Unique Rectangle type 4: r7c3,r9c3,r9c9,r7c9 on 6, 9"
        ("050102060000070000601050702002060800060809050900507004040000070005406300000080000",
         "unique rectangle type 4", {(8 * 9 + 2, 9), (8 * 9 + 8, 9)}),
    ):
        _, _, steps = _steps(puzzle)
        step = next(s for s in steps if s.technique == technique)
        assert step.rating == 4.5
        assert set(step.eliminations) == eliminations


def test_nishio_forcing_chains_rate_as_sudoku_explainers():
    # The bank's 8.0 and 7.7 (lines 9 and 108 of the shipped sample), Sukaku's "Nishio Forcing
    # Chain: r6c4.1 on ==> r9c9.1 both on & off" (8.0) and "r1c7.4 on ==> r9c2.4" (7.7); the
    # static cell and unit chains rated them 8.8 and 8.2.
    for puzzle, expected, removed in (
        ("030004000104300000060085000008700904600030005309008200000860070000007309000400050", 8.0, (5 * 9 + 3, 1)),
        ("000000000500834001090106050900427008007968500000000000609000802020090070005000600", 7.7, (6, 4)),
    ):
        rating, technique, steps = _steps(puzzle)
        assert (rating, technique) == (expected, "nishio forcing chain")
        top = next(s for s in steps if s.rating == expected and s.technique == technique)
        assert top.eliminations == (removed,)


def test_the_grade_asks_sudoku_explainers_producers_in_its_order():
    # The bank's 5.7: Sukaku takes "Grouped 3 Strong links" (5.7) while a WXYZ-wing (5.5) is
    # there, as its three-strong-link producer comes first; by rating alone the grade was 5.6.
    puzzle = "003010600600704005005286700004503900708090301000000000000309000007000800400020003"
    rating, technique, steps = _steps(puzzle)
    assert (rating, technique) == (5.7, "X-chain")
    k = next(i for i, s in enumerate(steps) if s.rating == 5.7)
    stepper = Stepper(parse_grid(puzzle), explainer=True)
    for step in steps[:k]:
        stepper.apply(step)
    wings = next(t for t in stepper.techniques if t.name == "WXYZ-wing")
    assert next(iter(wings.find(stepper.state))).rating < 5.7  # a lower rating was there
    assert stepper.next_step() == steps[k]
    assert Stepper(parse_grid(puzzle)).run()  # the hints still go by rating alone


def test_wxyz_wings_come_easiest_first():
    # The bank's 5.5, Sukaku's "WXYZ-Wing 126: r1c2,r4c2,r6c2,r3c1 on value 9"; the first
    # wing our finder met rated 5.6 (its widest cell in the middle of the range).
    rating, technique, steps = _steps(
        "004300090710090030000087005006000004048010760300000900500740000080050071020008400")
    assert (rating, technique) == (5.5, "WXYZ-wing")
    wing = next(s for s in steps if s.technique == "WXYZ-wing")
    assert set(wing.eliminations) == {(2 * 9 + 1, 9), (3 * 9 + 0, 9)}  # r3c2, r4c1
