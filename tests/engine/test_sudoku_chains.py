"""Chains: Eureka notation, the link graph, X-cycles, X-chains, XY-chains and AICs.

Each finder runs on a position from the literature written as a pencil-mark grid (the forum
post or SudokuWiki page is named above it) and the test asserts exactly what the step removes
or places, its Eureka chain, and that the solution of the full puzzle agrees. Then the
stepper, chains included, runs over 40 diabolical puzzles and every step is checked against
the SAT solution; and the finders run on 4x4, 6x6, 16x16 and diagonal grids.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest
from sudoku_marks import GEO, assert_sound, named, pm_state

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.chains import MAX_LINKS, aics, x_chains, x_cycles, xy_chains
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.generator import generate, random_solution
from tui_games.engine.sudoku.grid import Grid, geometry
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.links import AIC, XY, X, build
from tui_games.engine.sudoku.notation import cells_text, eureka, fold, node_text
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Cancelled, Link, State, length_rating

SHIPPED = Path(__file__).parents[2] / "puzzles" / "bench_sudoku_sudoku_exchange_diabolical_200.txt"
FINDERS = (x_cycles, x_chains, xy_chains, aics)


def cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def cells(*names: str) -> tuple[int, ...]:
    return tuple(cell(n) for n in names)


def solution_of(puzzle: str) -> list[int]:
    result = sat.solve(parse_grid(puzzle))
    assert result.status is sat.Status.UNIQUE
    return result.solution


def first(finder, state: State, **where):
    """The first step of ``finder`` whose eliminations include every (cell name, digit) in
    ``where['removes']`` (or placements ``where['places']``)."""
    for step in finder(state):
        if where.get("removes", set()) <= named(step.eliminations) and where.get("places", set()) <= named(
                step.placements):
            return step
    raise AssertionError(f"{finder.__name__} found no step with {where}")


# -- Eureka notation -------------------------------------------------------------------------------


def test_eureka_collapses_the_links_inside_a_cell():
    links = (
        Link(cells("r1c2"), 4, cells("r1c7"), 4, True),
        Link(cells("r1c7"), 4, cells("r3c7"), 4, False),
        Link(cells("r3c7"), 4, cells("r3c7"), 6, True),
        Link(cells("r3c7"), 6, cells("r3c1"), 6, False),
        Link(cells("r3c1"), 6, cells("r5c1"), 6, True),
    )
    assert eureka(links) == "(4)r1c2=(4)r1c7-(4=6)r3c7-(6)r3c1=(6)r5c1"
    # An XY-chain is all cells: (5=1)r3c3-(1=6)r7c3-(6=1)r8c1-(1=5)r8c5 (sudoku9981's example).
    xy = []
    for a, b, digits in (("r3c3", "r7c3", (5, 1, 6)), ("r7c3", "r8c1", (1, 6, 1)), ("r8c1", "r8c5", (6, 1, 5))):
        xy.append(Link(cells(a), digits[0], cells(a), digits[1], True))
        xy.append(Link(cells(a), digits[1], cells(b), digits[1], False))
    xy.append(Link(cells("r8c5"), 1, cells("r8c5"), 5, True))
    assert eureka(xy) == "(5=1)r3c3-(1=6)r7c3-(6=1)r8c1-(1=5)r8c5"
    # A weak link inside a cell, as in Luke's loop on the Enjoy Sudoku forum: (5)r9c8=(5-2)r9c7=(2)r8c7.
    assert eureka((Link(cells("r9c8"), 5, cells("r9c7"), 5, True), Link(cells("r9c7"), 5, cells("r9c7"), 2, False),
                   Link(cells("r9c7"), 2, cells("r8c7"), 2, True))) == "(5)r9c8=(5-2)r9c7=(2)r8c7"
    assert eureka(()) == ""


def test_eureka_grouped_nodes_and_big_grids():
    assert node_text(cells("r1c2", "r1c3"), 4) == "(4)r1c23"
    assert node_text(cells("r1c5", "r2c5"), 4) == "(4)r12c5"
    link = Link(cells("r1c2", "r1c3"), 4, cells("r1c7"), 4, True)
    assert eureka((link,)) == "(4)r1c23=(4)r1c7"
    # 16x16: digits past 9 are letters, rows and columns past 9 are separated by commas.
    assert cells_text((0 * 16 + 9, 0 * 16 + 10), 16) == "r1c10,11"
    assert node_text((15 * 16 + 15,), 16, 16) == "(G)r16c16"


def test_fold_keeps_head_and_tail_and_counts_what_it_leaves_out():
    chain = "(4)r1c2=(4)r1c7-(4=6)r3c7-(6)r3c1=(6)r5c1-(6)r5c9=(6)r9c9-(6=2)r9c4-(2)r1c4=(2)r1c2"
    assert fold(chain, 200) == chain
    short = fold(chain, 40)
    assert len(short) <= 40
    assert short.startswith("(4)r1c2=") and short.endswith("(2)r1c2")
    assert "…" in short and "links…" in short
    assert fold(chain, 10) == "(4)r1c2 …11 links… (2)r1c2"  # never less than one node at each end
    # Whatever the width, the links shown and the number left out add up to the 11 links.
    for width in range(20, len(chain)):
        text = fold(chain, width)
        assert len(text) <= max(width, 26)
        left, _, rest = text.partition(" …")
        middle, _, right = rest.partition("… ")
        shown = sum(part.count("=") + part.count("-") for part in (left, right))
        assert int(middle.split()[0]) + shown == 11, text


# -- the link graph --------------------------------------------------------------------------------


def test_link_graph_strong_weak_and_groups():
    state = pm_state(EXTREME_100)
    graph = build(state, AIC)
    node = graph.index
    r8c79 = node[(2, cells("r8c7", "r8c9"))]  # box 9: the 2s lie in row 8 (a group) and r9c7
    r9c7 = node[(2, cells("r9c7"))]
    assert graph.strong[r8c79] >> r9c7 & 1
    assert graph.weak[r9c7] >> node[(5, cells("r9c7"))] & 1  # two digits of one cell
    bivalue = node[(2, cells("r8c3"))]
    assert graph.strong[bivalue] >> node[(4, cells("r8c3"))] & 1  # r8c3 is 24
    assert graph.weak[bivalue] >> r8c79 & 1  # the group sees r8c3
    x = build(state, X)
    assert all(x.digits[i] == x.digits[j] for i in range(len(x)) for j in range(len(x)) if x.strong[i] >> j & 1)
    assert all(len(c) == 1 for c in x.cells)
    xy = build(state, XY)
    assert all(state.masks[c[0]].bit_count() == 2 for c in xy.cells)


# -- literature positions --------------------------------------------------------------------------

# X-chain, Leren on the Enjoy Sudoku forum ("Can't follow the program's logic")
LEREN = """
56  348 148 | 7   145 14  | 36  2   9
14  2   9   | 3   8   6   | 7   14  5
56  34  7   | 2   145 9   | 36  14  8
8   6   2   | 9   14  7   | 5   3   14
14  5   3   | 14  6   8   | 9   7   2
7   9   14  | 5   2   3   | 8   6   14
3   48  48  | 6   9   2   | 1   5   7
2   1   6   | 8   7   5   | 4   9   3
9   7   5   | 14  3   14  | 2   8   6
"""
SUDOKUWIKI_X_CYCLE = """
59     2      4      | 1      35     58     | 6      7      389
59     6      38     | 238    7      258    | 4      1      389
7      18     138    | 9      6      4      | 58     2      358
2      4      6      | 5      9      1      | 3      8      7
1      3      5      | 4      8      7      | 2      9      6
8      7      9      | 6      2      3      | 1      5      4
4      18     128    | 38     35     9      | 7      6      258
3      5      28     | 7      1      6      | 9      4      28
6      9      7      | 28     4      258    | 58     3      1
"""
SUDOKUWIKI_X_CYCLE_PUZZLE = "024100670060070410700964020246591387135487296879623154400009760350716940697040031"
SUDOKUWIKI_STRONG_STRONG = """
8      19     4      | 5      3      7      | 169    126    12
79     2      3      | 6      1      4      | 79     8      5
6      17     5      | 9      8      2      | 17     3      4
349    346    269    | 1      469    5      | 8      7      29
5      49     12     | 7      49     8      | 3      12     6
179    8      1679   | 2      69     3      | 4      5      19
2      467    167    | 8      5      9      | 16     146    3
49     5      69     | 3      7      1      | 2      469    8
139    39     8      | 4      2      6      | 5      19     7
"""
SUDOKUWIKI_STRONG_STRONG_PUZZLE = "804537000023614085605982034000105870500708306080203450200859003050371208008426507"
JEFF = """
27  3   6   | 5   4   9   | 8   1   27
1   258 58  | 7   6   38  | 4   9   235
4   578 9   | 2   1   38  | 367 56  357
8   4   3   | 9   7   5   | 1   2   6
9   1   2   | 6   3   4   | 5   7   8
6   57  57  | 8   2   1   | 9   3   4
23  28  48  | 1   5   7   | 236 46  9
257 9   457 | 3   8   6   | 27  45  1
357 6   1   | 4   9   2   | 37  8   357
"""
JEFF_PUZZLE = ".3654981.1..76.49.4.921....8439751269126345786..821934...157..9.9.386..1.61492.8."
EXTREME_100 = """
1       2       5       | 367     367     9       | 346     3468    68
38      38      7       | 4       16      5       | 9       2       16
9       4       6       | 2       13      8       | 7       13      5
246     16      124     | 167     5       3467    | 8       13467   9
468     1568    9       | 167     2       3467    | 3456    134567  167
7       156     3       | 9       8       46      | 2456    1456    126
5       367     8       | 367     3679    2       | 1       679     4
2346    9       24      | 5       3467    1       | 26      678     2678
246     167     124     | 8       4679    67      | 256     5679    3
"""
EXTREME_100_PUZZLE = "1....9......4.5.2.9.62..7.5....5.8.9.........7.3.8....5.8..21.4.9.5.1......8....3"


def test_x_chain_leren():
    """Leren on the Enjoy Sudoku forum ("Can't follow the program's logic"): (1) r1c3 = r2c1 -
    r5c1 = r5c4 - r9c4 = (1) r9c6 => -1 r1c6."""
    state = pm_state(LEREN)
    step = first(x_chains, state, removes={("r1c6", 1)})
    assert named(step.eliminations) == {("r1c6", 1)}
    assert step.chain == ("(1)r1c3=(1)r2c1-(1)r5c1=(1)r5c4-(1)r9c4=(1)r9c6",)
    assert step.technique == "X-chain" and step.level == FIENDISH
    # three strong links (box, row, row): Sukaku Explainer's "3 strong-linked fishes", 5.4 + 0.1
    assert step.rating == 5.5
    assert len(step.links) == 5 and [link.strong for link in step.links] == [True, False, True, False, True]
    assert "r1c3 or r9c6 is 1" in step.explanation and "r1c6" in step.explanation
    solution = sat.solve(Grid(state.values)).solution
    for s in x_chains(state):
        assert_sound(s, solution)


def test_x_cycle_continuous_sudokuwiki():
    """SudokuWiki, X-Cycles, figure 4: a loop on 8 whose weak links lie in row 3, box 7 and
    box 9; the other 8s of those units go."""
    state = pm_state(SUDOKUWIKI_X_CYCLE)
    step = next(x_cycles(state))
    assert named(step.eliminations) == {("r3c3", 8), ("r3c9", 8), ("r7c3", 8), ("r7c9", 8)}
    assert step.chain == ("(8)r8c3=(8)r8c9-(8)r9c7=(8)r3c7-(8)r3c2=(8)r7c2-(8)r8c3",)
    assert step.rating == 5.5 and len(step.links) == 6  # three strong links, rows and columns: 5.4 + 0.1
    assert "loop" in step.explanation
    solution = solution_of(SUDOKUWIKI_X_CYCLE_PUZZLE)
    for s in x_cycles(state):
        assert_sound(s, solution)


def test_x_cycle_two_strong_links_place_the_digit():
    """SudokuWiki, X-Cycles part 2, figure 1 (nice loop rule 2): two strong links meet at r9c1
    (J1), so it is 1. SudokuWiki's loop goes r9c1=r7c3 in box 7; the one found goes r9c1=r6c1 in
    column 1, the same length."""
    state = pm_state(SUDOKUWIKI_STRONG_STRONG)
    # Sudoku Explainer's forcing X-chain (6.6 + its nodes less two), not a cycle (6.5)
    step = next(s for s in x_chains(state) if s.placements)
    assert step.technique == "X-chain"
    assert step.placements == ((cell("r9c1"), 1),) and step.eliminations == ()
    assert step.chain == ("(1)r9c1=(1)r6c1-(1)r5c3=(1)r5c8-(1)r9c8=(1)r9c1",)
    assert step.rating == 6.6
    assert "r9c1 is 1" in step.explanation
    # The AIC finder finds SudokuWiki's own loop.
    loop = first(aics, state, places={("r9c1", 1)})
    assert loop.chain == ("(1)r9c1=(1)r9c8-(1)r5c8=(1)r5c3-(1)r7c3=(1)r9c1",)
    solution = solution_of(SUDOKUWIKI_STRONG_STRONG_PUZZLE)
    for finder in FINDERS:
        for s in finder(state):
            assert_sound(s, solution)


def test_xy_chain_jeff():
    """Jeff's exercise on xyz-wings and xy-chains (Enjoy Sudoku forum, 2005)."""
    state = pm_state(JEFF)
    step = next(xy_chains(state))
    assert named(step.eliminations) == {("r2c9", 5), ("r3c2", 5)}
    assert step.chain == ("(5=8)r2c3-(8=4)r7c3-(4=6)r7c8-(6=5)r3c8",)
    assert step.rating == round(7.0 + length_rating(7), 1) == 7.2
    assert step.explanation == ("Either r2c3 or r3c8 is 5 (the chain below), and r2c9, r3c2 see both, "
                                "so 5 is removed from them.")
    solution = solution_of(JEFF_PUZZLE)
    for finder in FINDERS:
        for s in finder(state):
            assert_sound(s, solution)


def test_aic_grouped_nice_loop_extreme_100():
    """Luke's "Extreme 100" on the Enjoy Sudoku forum: a continuous nice loop through r9c7,
    r9c8, r9c5, r8c5 and r8c3 gives r8c1<>24 and r9c8<>7 (hobiwan's version) and, as ttt notes,
    r9c78<>6; with the group r8c79 its in-cell weak links also clear r9c5 of 6 and 7."""
    state = pm_state(EXTREME_100)
    step = first(aics, state, removes={("r8c1", 2), ("r8c1", 4), ("r9c8", 7)})
    assert named(step.eliminations) == {("r8c1", 2), ("r8c1", 4), ("r9c5", 6), ("r9c5", 7), ("r9c7", 6),
                                        ("r9c8", 6), ("r9c8", 7)}
    assert step.chain == ("(2)r8c79=(2-5)r9c7=(5-9)r9c8=(9-4)r9c5=(4)r8c5-(4=2)r8c3-(2)r8c79",)
    # Sudoku Explainer counts a loop's nodes less two: 10 links, length 8, +0.2
    assert len(step.links) == 10 and step.rating == 7.2
    assert step.links[-1] == Link(cells("r8c3"), 2, cells("r8c7", "r8c9"), 2, False)  # the loop closes
    # The first AIC is the shortest: type 2, different digits at the ends.
    shortest = next(aics(state))
    assert shortest.chain == ("(7)r8c89=(7-4)r8c5=(4-9)r9c5=(9)r9c8",)
    assert named(shortest.eliminations) == {("r9c8", 7)}
    assert shortest.explanation == ("Either 7 is in r8c89 or r9c8 is 9 (the chain below), and both rule out "
                                    "7 from r9c8, so it goes.")
    solution = solution_of(EXTREME_100_PUZZLE)
    for finder in FINDERS:
        for s in finder(state):
            assert_sound(s, solution)


# -- properties ------------------------------------------------------------------------------------


def test_steps_come_shortest_first_within_the_cap():
    state = pm_state(EXTREME_100)
    for finder in FINDERS:
        ratings = [s.rating for s in finder(state)]
        assert ratings == sorted(ratings)
        for s in finder(state):
            assert 3 <= len(s.links) <= MAX_LINKS
            assert len(s.chain) == 1 and "\n" not in s.chain[0]
            assert s.chain[0] == eureka(s.links)


def test_finders_leave_the_state_alone_and_stop_when_asked():
    state = pm_state(EXTREME_100)
    before = (list(state.values), list(state.masks))
    for finder in FINDERS:
        list(finder(state))
    assert (state.values, state.masks) == before
    stop = threading.Event()
    stop.set()
    state.stop = stop
    for finder in FINDERS:
        with pytest.raises(Cancelled):
            list(finder(state))


def test_catalogue_has_the_chains_after_the_wings():
    names = [t.name for t in TECHNIQUES]
    assert names.index("XYZ-wing") < names.index("X-chain") < names.index("X-cycle") < names.index(
        "XY-chain") < names.index("AIC")
    rated = {(t.name, t.level, t.rating) for t in TECHNIQUES}
    assert {("X-chain", FIENDISH, 5.4), ("X-chain", FIENDISH, 5.8), ("X-cycle", FIENDISH, 6.5),
            ("X-chain", FIENDISH, 6.6), ("XY-chain", FIENDISH, 7.0), ("AIC", FIENDISH, 7.0)} <= rated


# -- real puzzles ----------------------------------------------------------------------------------


def diabolical(count: int) -> list[Grid]:
    path = SHIPPED
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return [parse_grid(line) for line in lines[:count]]


def test_stepper_with_chains_never_makes_a_wrong_step():
    used: dict[str, int] = {}
    for grid in diabolical(40):
        solution = sat.solve(grid).solution
        stepper = Stepper(grid)
        # without the Franken and mutant fish, which take some of these single-digit steps first
        stepper.techniques = tuple(t for t in stepper.techniques if not {"Franken", "mutant"} & set(t.name.split()))
        for step in stepper.run():
            used[step.technique] = used.get(step.technique, 0) + 1
            assert_sound(step, solution)
            if step.level == FIENDISH and step.technique in {"X-cycle", "X-chain", "XY-chain", "AIC"}:
                assert step.links and step.chain and step.rating >= 4.0
    assert {"X-chain", "AIC"} <= set(used), used


@pytest.mark.parametrize("size,diagonal", [(4, False), (6, False), (9, True), (16, False)])
def test_other_shapes(size, diagonal):
    """On partly emptied grids of every shape, nothing breaks and nothing true is removed
    (a sound deduction holds in every solution, so also in the one the grid came from)."""
    rng = random.Random(size * 10 + diagonal)
    geo = geometry(size, diagonal)
    found = 0
    for _ in range(3 if size == 16 else 6):
        solution = random_solution(rng, size=size, diagonal=diagonal)
        values = [v if rng.random() < 0.4 else 0 for v in solution]
        state = State.from_grid(Grid(values, size=size, diagonal=diagonal))
        # Knock out some candidates the solution does not need, to make chains appear.
        for c in range(geo.cells):
            for d in range(1, size + 1):
                if state.masks[c] >> (d - 1) & 1 and d != solution[c] and rng.random() < 0.3:
                    state.masks[c] &= ~(1 << (d - 1))
        for finder in FINDERS:
            for step in finder(state):
                found += 1
                assert_sound(step, solution)
                assert all(0 <= c < geo.cells for c, _ in step.eliminations + step.placements)
    assert found or size == 4
    assert geo is not GEO or size == 9


def test_a_generated_diagonal_fiendish_puzzle():
    """The generator's fiendish X-variant puzzle: Sudoku Explainer's techniques need a fiendish
    one (a chain or a large wing), and the stepper finishes it soundly."""
    generated = generate(FIENDISH, 3, diagonal=True, max_attempts=20)
    assert generated.grade.level == FIENDISH
    explainer = Stepper(generated.puzzle, explainer=True)
    assert any(s.level == FIENDISH for s in explainer.run())
    stepper = Stepper(generated.puzzle)
    steps = stepper.run()
    assert stepper.solved
    for step in steps:
        assert_sound(step, generated.solution)
