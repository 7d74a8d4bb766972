"""Forcing chains, dynamic forcing chains and nested forcing nets.

Exact steps on positions reached by the stepper on Norvig's top95 and the forum's hardest
puzzles (the pencil marks are written out; the short chains were checked by hand, every
elimination against the SAT solution of the puzzle), then the stepper with every technique
on real puzzles: each step checked against the SAT solution, each puzzle finished by logic
(nested nets never leave a puzzle with one solution stuck), and cancellation.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from parallel_support import parallel_map
from sudoku_marks import assert_sound, named, pm_state

from tui_games.engine.sudoku import forcing, forcing_net, sat
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.forcing import (
    cell_forcing_chains,
    digit_forcing_chains,
    dynamic_forcing_chains,
    dynamic_forcing_chains_plus,
    explainer_nested_forcing_nets,
    nested_forcing_nets,
    unit_forcing_chains,
)
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.grid import Grid, geometry
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Cancelled, State, length_rating

PUZZLES = Path(__file__).parents[2] / "puzzles"


def puzzles(name: str, count: int) -> list[str]:
    """The first ``count`` puzzles of a shared set's sample shipped in puzzles/."""
    stem = name.removesuffix(".txt").removesuffix("_10k")
    path = next(p for p in sorted(PUZZLES.glob(f"bench_sudoku_{stem}*.txt")) if not p.name.endswith("_ratings.txt"))
    lines = [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    return lines[:count]


def solution_of(puzzle: str) -> list[int]:
    result = sat.solve(parse_grid(puzzle))
    assert result.status is sat.Status.UNIQUE
    return result.solution


def first(finder, state: State):
    step = next(iter(finder(state)), None)
    assert step is not None, "the technique should apply"
    for c, d in step.eliminations + step.placements:
        assert state.masks[c] >> (d - 1) & 1, "a step only touches candidates"
    return step


# -- positions -------------------------------------------------------------------------------------

# top95 #4 after the easier techniques. r5c2=4 => r5c8<>4 => r6c8=4 (column 8), and
# r5c2=4 => r5c2<>1 => r5c5=1 (row 5) => r6c6<>1 => r6c6=4: two 4s in row 6.
TOP95_4 = "48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5...."
TOP95_4_PM = """
4      8      7      3      12     12     56     9      56
59     59     3      6      48     48     2      7      1
1      2      6      57     9      57     3      8      4
7      34     5      89     348    489    1      6      2
69     13469  49     2      1346   57     8      34     57
28     1346   28     57     1346   14     57     34     9
58     45     1      48     7      6      9      2      3
3      67     89     1      28     289    4      5      67
26     4679   249    49     5      3      67     1      8
"""

# top95 #65. Whatever r5c3 holds: 3 => r2c3=6 => r9c3<>6 => r9c4=6 (row 9) => r2c4=4
# (column 4) => r2c5=9 (row 2) => not r4c5; 5 => r4c5=5 (box 5); 8 => r5c4=9 => not r4c5.
TOP95_65 = "...36....85.......9.4..8........68.........17..9..45...1.5...6.4....9..2.....3..."
TOP95_65_PM = """
127    27     127    3      6      5      49     489    89
8      5      36     49     49     1      2      7      36
9      36     4      27     27     8      136    35     15
12357  237    12357  179    13579  6      8      2349   49
356    4      358    89     3589   2      369    1      7
12367  78     9      178    1378   4      5      23     36
23     1      238    5      248    7      349    6      489
4      3678   5678   168    18     9      137    358    2
257    9      25678  12468  1248   3      147    458    15
"""

# top95 #59. Whatever r7c1 holds: 2 => r7c8=6 => r3c3=6 (row 3) => r3c1=1 (row 3);
# 5 => r3c1<>5 => r3c1=1; 9 => r1c1=5 => r3c1=1. So r3c1 is 1.
TOP95_59 = ".47.2....8....1....3....9.2.....5...6..81..5.....4.....7....3.4...9...1.4..27.8.."
TOP95_59_PM = """
59     4      7      36     2      69     156    38     1368
8      2569   2569   45     369    1      456    7      36
15     3      156    45     8      7      9      46     2
1237   1289   12348  367    39     5      1246   23468  13689
6      29     2349   8      1      239    247    5      379
12357  12589  123589 367    4      269    126    2368   13689
259    7      259    1      56     8      3      26     4
235    2568   2358   9      356    4      267    1      67
4      16     136    2      7      36     8      9      5
"""

# top95 #54: r1c9=7 removes 7 from r3c7 (box 3); r1c9<>7 leads there too (a dynamic net).
TOP95_54 = "9.4..5...25.6..1..31......8.7...9...4..26......147....7.......2...3..8.6.4.....9."
TOP95_54_PM = """
9      68     4      178    1238   5      2367   2367   37
2      5      78     6      3489   3478   1      34     349
3      1      67     79     249    247    245679 24567  8
68     7      238    158    1358   9      2346   123468 134
4      389    3589   2      6      138    3579   13578  13579
568    2369   1      4      7      38     23569  23568  359
7      3689   35689  1589   14589  1468   345    1345   2
15     29     259    3      12459  1247   8      1457   6
1568   4      23568  578    1258   12678  357    9      135
"""

# top95 #7: a unit forcing chain (the 7s of column 2) ...
TOP95_7 = "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6....."
TOP95_7_UNIT_PM = """
6      4789   2      14789  5      479    1389   179    39
1789   5789   15789  1789   169    3      1689   4      2
13789  4789   13489  14789  1469   2      1689   15679  569
4      3      5679   1579   2      8      169    1569   569
789    1      56789  34579  349    45679  2      3569   48
289    25689  5689   13459  1349   4569   7      13569  48
5      4689   134689 2      7      149    3469   69     369
279    24679  4679   3459   349    459    4569   8      1
139    49     1349   6      8      1459   3459   2      7
"""
# ... and, a few steps later, a dynamic one: r7c3=4 => r7c2=8 => r8c2=6 => r6c2=2 => r2c2=5
# (column 2); r7c3=4 => r9c2=9 => r8c3=7 => r5c1=7 (column 3, row 5) => r2c2=7 (column 1, box 1).
TOP95_7_DYNAMIC_PM = """
6      4789   2      14789  5      479    1389   179    39
1789   5789   15789  1789   169    3      1689   4      2
13789  4789   13489  14789  1469   2      1689   1567   569
4      3      5679   1579   2      8      169    1569   569
789    1      56789  34579  349    45679  2      3569   48
289    2589   5689   13459  1349   4569   7      13569  48
5      4689   13489  2      7      149    3469   69     369
279    24679  479    3459   349    459    4569   8      1
139    49     1349   6      8      1459   3459   2      7
"""

# The first of the forum's hardest (SE 11+), where dynamic chains need pairs and locked
# candidates inside the net ...
HARDEST_1 = "98.7..6..75..6......6..8...5......4...9.8.7.....3....24....1.....7.9.5.3..587.4.."
HARDEST_1_PLUS_PM = """
9      8      1234   7      12345  235    6      1235   145
7      5      1234   129    6      239    12389  12389  1489
123    1234   6      1249   12345  8      1239   123579 1579
5      12367  1238   1269   12     679    1389   4      1689
1236   12346  9      12456  8      2456   7      1356   156
168    1467   148    3      145    45679  189    15689  2
4      2369   238    256    235    1      289    26789  6789
1268   126    7      246    9      246    5      1268   3
1236   12369  5      8      7      236    4      1269   169
"""
# ... and, before that, a nested net.
HARDEST_1_NESTED_PM = """
9      8      1234   7      12345  2345   6      1235   145
7      5      1234   1249   6      2349   12389  12389  1489
123    1234   6      12459  12345  8      1239   123579 14579
5      12367  1238   1269   12     2679   1389   4      1689
1236   12346  9      12456  8      2456   7      1356   156
168    1467   148    3      145    45679  189    15689  2
4      2369   238    256    235    1      289    26789  6789
1268   126    7      246    9      246    5      1268   3
1236   12369  5      8      7      236    4      1269   169
"""


def test_digit_forcing_chain_nishio():
    state = pm_state(TOP95_4_PM)
    step = first(digit_forcing_chains, state)
    assert step.technique == "digit forcing chain" and step.level == "diabolical"
    assert named(step.eliminations) == {("r5c2", 4)} and step.placements == ()
    assert step.explanation == ("If r5c2 were 4, r5c5 would be 1; then r6c6 and r6c8 would both be 4, "
                                "so r5c2 is not 4.")
    assert set(step.chain) == {"(4)r5c2-(4)r5c8=(4)r6c8-(4)r6c6", "(4)r5c2-(1)r5c2=(1)r5c5-(1=4)r6c6"}
    # Sudoku Explainer counts the nodes behind each end, less 2: 4r5c2 on, 4r5c8 off, 4r6c8 on,
    # 4r6c6 off (4), and 4r5c2 on, 1r5c2 off, 1r5c5 on, 1r6c6 off, 4r6c6 on (5): 7, so +0.2.
    assert step.rating == 7.5 + length_rating(4 + 5 - 2) == 7.7
    strong = {(link.cells_a, link.digit_a, link.cells_b, link.digit_b) for link in step.links if link.strong}
    assert ((43,), 4, (52,), 4) in strong  # 4r5c8 off => 4r6c8 on
    assert_sound(step, solution_of(TOP95_4))


def test_cell_forcing_chain():
    state = pm_state(TOP95_65_PM)
    assert next(iter(digit_forcing_chains(state)), None) is None
    step = first(cell_forcing_chains, state)
    assert step.technique == "cell forcing chain"
    assert named(step.eliminations) == {("r4c5", 9)}
    assert step.explanation.startswith("Whatever r5c3 holds (3, 5 or 8), every case leads to r4c5 not being 9")
    assert [line[:7] for line in step.chain] == ["(3)r5c3", "(5)r5c3", "(8)r5c3"]
    assert step.chain[2] == "(8)r5c3-(8=9)r5c4-(9)r4c5"
    assert step.chain[1] == "(5)r5c3-(5)r5c5=(5)r4c5-(9)r4c5"
    assert 8.0 < step.rating < 9.0
    assert_sound(step, solution_of(TOP95_65))


def test_cell_forcing_chain_that_places():
    state = pm_state(TOP95_59_PM)
    step = first(cell_forcing_chains, state)
    assert step.placements == ((18, 1),) and step.eliminations == ()
    assert step.explanation == ("Whatever r7c1 holds (2, 5 or 9), every case leads to r3c1 being 1 (see the "
                                "chains), so r3c1 is 1.")
    assert step.chain == ("(2)r7c1-(2=6)r7c8-(6)r3c8=(6)r3c3-(1)r3c3=(1)r3c1", "(5)r7c1-(5=1)r3c1",
                          "(9)r7c1-(9=5)r1c1-(5=1)r3c1")
    assert_sound(step, solution_of(TOP95_59))


def test_dynamic_double_implication():
    state = pm_state(TOP95_54_PM)
    steps = list(dynamic_forcing_chains(state))
    double = [s for s in steps if s.explanation.startswith("Whether r1c9 is 7 or not")]
    assert double and named(double[0].eliminations) == {("r3c7", 7)}
    assert double[0].chain[0] == "(7)r1c9-(7)r3c7" and double[0].chain[1].startswith("(7=3)r1c9-")
    solution = solution_of(TOP95_54)
    for step in steps:
        assert_sound(step, solution)
    assert [s.rating for s in steps] == sorted(s.rating for s in steps)  # the smallest nets first


def test_unit_forcing_chain():
    state = pm_state(TOP95_7_UNIT_PM)
    assert next(iter(digit_forcing_chains(state)), None) is None
    step = first(unit_forcing_chains, state)
    assert step.technique == "unit forcing chain"
    assert named(step.eliminations) == {("r6c2", 6)}
    assert step.explanation.startswith("Wherever 7 goes in column 2 (r1c2, r2c2, r3c2 or r8c2)")
    assert "(7)r2c2-(5)r2c2=(5)r6c2-(6)r6c2" in step.chain
    assert_sound(step, solution_of(TOP95_7))


def test_dynamic_forcing_chain():
    state = pm_state(TOP95_7_DYNAMIC_PM)
    for static in (digit_forcing_chains, cell_forcing_chains, unit_forcing_chains):
        assert next(iter(static(state)), None) is None
    step = first(dynamic_forcing_chains, state)
    assert step.technique == "dynamic forcing chain"
    assert named(step.eliminations) == {("r7c3", 4)}
    assert step.explanation.startswith("If r7c3 were 4, r7c2 would be 8, ")
    assert step.explanation.endswith("then r2c2 would be both 5 and 7, so r7c3 is not 4.")
    assert step.chain == ("(4)r7c3-(8)r7c3=(8)r7c2-(6)r7c2=(6)r8c2-(2)r8c2=(2)r6c2-(5)r6c2=(5)r2c2-(7)r2c2",
                          "(4)r7c3-(4=9)r9c2-(9=7)r8c3-(7)r5c3=(7)r5c1-(7)r2c1=(7)r2c2")
    # The main lines alone have 10 + 8 nodes (+0.4 after Sudoku Explainer's -2); the net behind
    # the ends is bigger (every parent of a single counts): 17 to 24 nodes, +0.5.
    assert step.rating == 9.0
    assert_sound(step, solution_of(TOP95_7))


def test_dynamic_forcing_chain_plus():
    state = pm_state(HARDEST_1_PLUS_PM)
    assert next(iter(dynamic_forcing_chains(state)), None) is None
    step = first(dynamic_forcing_chains_plus, state)
    assert step.technique == "dynamic forcing chain (+)"
    assert named(step.eliminations) == {("r6c6", 4)}
    assert step.explanation.startswith("If r6c6 were 4, ")
    assert "pointing, box-line reductions and pairs" in step.explanation
    assert 9.0 < step.rating < 10.0
    assert_sound(step, solution_of(HARDEST_1))


def sound_nested_nets(marks: str, puzzle: str) -> list:
    """The grade's nested nets at the position ``marks`` of ``puzzle``, each checked against its
    solution."""
    steps = list(explainer_nested_forcing_nets(pm_state(marks)))
    for s in steps:
        assert_sound(s, solution_of(puzzle))
    return steps


def test_nested_forcing_net_takes_explainers_lowest_level_first():
    """Sukaku Explainer 1.18.1's first step on the forum puzzle HARDEST_1 (rated 11.1) is a
    nested net of level 3, dynamic (+) with multiple forcing chains inside, 10.0 + 1.0 for its
    length: "11.0 Contradiction Forcing Chain: r3c5.2 on ==> r1c9.1 both on & off". The first
    step here is of the same level at the same 11.0, and SE's own step is among them."""
    state = pm_state(HARDEST_1_NESTED_PM)
    assert next(iter(dynamic_forcing_chains_plus(state)), None) is None
    steps = list(explainer_nested_forcing_nets(state))
    step = steps[0]
    assert step.technique == "nested forcing net" and step.level == "nightmare"
    assert step.rating == 11.0
    assert "forcing chains rule" in step.explanation
    assert min(s.rating for s in steps) == 11.0 and all(s.rating >= 10.0 for s in steps)
    assert ("r3c5", 2) in {e for s in steps for e in named(s.eliminations)}
    for s in steps:
        assert_sound(s, solution_of(HARDEST_1))


def test_a_verity_inside_a_net_rests_on_the_cases_the_net_took_away():
    """Sudoku Explainer's cell and unit forcing chains, as an inner rule of a nested net, rest
    on the candidates the net removed from that cell (or the digit's places the net removed
    from that unit) besides those their chains' links rest on (its ``collectRuleParents``
    takes the cell's or region's removed candidates for the chains' starting cases): a verity
    over what is left holds only because of them. We took only the links' parents, so some
    nets counted fewer nodes, and on HARDEST_1 our first step was another 11.0 than SE's;
    now it is SE's own, "11.0 Contradiction Forcing Chain: r3c5.2 on"."""
    steps = list(explainer_nested_forcing_nets(pm_state(HARDEST_1_NESTED_PM)))
    assert steps[0].rating == 11.0 and named(steps[0].eliminations) == {("r3c5", 2)}


def test_nested_forcing_net_level_4(monkeypatch):
    """With no inner static chains (levels 2 and 3 find nothing) the grade's nets of level 4 take
    over at 10.5 + length, with Sudoku Explainer's inner rule (dynamic forcing chains of every
    kind). The hints' nested net looks at level 4 at once, with the first candidate whose (+)
    net fails as its inner rule, and gives the smallest of its first few refutations."""

    monkeypatch.setattr(forcing_net, "_static_rules", lambda net, multiple, masks, places, par, order, resume, state,
                        weights: (0, resume))
    state = pm_state(HARDEST_1_NESTED_PM)
    step = first(explainer_nested_forcing_nets, state)
    hint = first(nested_forcing_nets, pm_state(HARDEST_1_NESTED_PM))
    assert hint.technique == "nested forcing net" and hint.level == "nightmare"
    assert named(hint.eliminations) == {("r2c4", 4)}
    assert hint.explanation.startswith("If r2c4 were 4, r8c6 would be 4, ")
    assert hint.explanation.endswith("then r1c5 would be both 3 and 2, so r2c4 is not 4. Inside the net, r1c5 "
                                     "is not 1, since its own (+) net would end in a contradiction.")
    assert 10.5 < hint.rating <= 12.0  # Sudoku Explainer's nesting level 4, 8.5 + 0.5 x 4, + length
    assert step.technique == "nested forcing net" and "dynamic forcing chains rule" in step.explanation
    assert 10.5 < step.rating <= 12.0
    assert_sound(step, solution_of(HARDEST_1))
    assert_sound(hint, solution_of(HARDEST_1))


# A forum puzzle (1905 11+ list) that Sukaku Explainer 1.18.1 rates 11.0; on its way it takes
# "10.9 Cell Forcing Chains: r7c8 ==> r7c7.1 off", a verity of a nested net of level 3.
FORUM_11_0 = "...4.......7.8...66......5...1.6.3.839.........6.7...1.....7..271..2......26.8..."
FORUM_11_0_VERITY_PM = """
12589  2358   3589   4      1359   6      12789  123789 379
12459  2345   7      12359  8      12359  1249   12349  6
6      2348   3489   7      139    1239   12489  5      349
245    7      1      259    6      2459   3      249    8
3      9      458    1258   145    1245   24567  2467   457
2458   2458   6      2389   7      2349   2459   249    1
4589   6      34589  1359   13459  7      1589   1348   2
7      1      34589  359    2      3459   4689   3468   3459
459    345    2      6      13459  8      14579  13479  34579
"""


def test_nested_net_cell_verity_as_explainer():
    """The grade's nested nets of levels 2 and 3 give cell and unit verities too, as Sudoku
    Explainer's: its step on its way through this puzzle, whatever r7c8 holds r7c7 is not 1,
    at 10.9. Run on this very position, Sukaku Explainer 1.18.1 takes another verity at 10.9
    first, "Cell Forcing Chains: r7c7 ==> r7c8.8 off", now ours too (one of r7c7's cases ends
    in a contradiction: see the next test), at 10.8 (its inner chains are each the smallest
    that removes a candidate, one size step under SE's here), r7c7 not 1 beside it."""
    steps = sound_nested_nets(FORUM_11_0_VERITY_PM, FORUM_11_0)
    step = steps[0]
    assert named(step.eliminations) == {("r7c8", 8)} and abs(step.rating - 10.9) <= 0.1
    assert step.explanation.startswith("Whatever r7c7 holds (1, 5, 8 or 9), every case leads to r7c8 not being 8")
    other = next(s for s in steps if named(s.eliminations) == {("r7c7", 1)})
    assert other.explanation.startswith("Whatever r7c8 holds (1, 3, 4 or 8), every case leads to r7c7 not being 1")
    assert abs(other.rating - 10.9) <= 0.1


# A forum puzzle (the hardest database, its published ER 10.4) in the position where our grade
# took a 10.6 net; Sukaku Explainer 1.18.1 takes "10.2 Contradiction Forcing Chain: r5c2.9 on
# ==> r2c5.8 both on & off" there: level 2 (9.5) + 0.7, its net resting on two inner forcing
# chains, "r2c5.2 off" (r2c5 = 2 removes itself) and "r2c5.2 on" (r2c5 != 2 places it).
FORUM_10_4 = "..6.......3...7..11.7.............9.3....6..5.5.8..2....3..5..6...2...4..4..9.8.."
FORUM_10_4_LEVEL_2_PM = """
24589 289   6     13459 123458 123489 34579 23578 234789
24589 3     24589 4569  24568  7      4569  2568  1
1     289   7     34569 234568 23489  34569 23568 23489
24678 12678 1248  13457 123457 1234   13467 9     3478
3     12789 12489 1479  1247   6      147   178   5
467   5     149   8     1347   1349   2     1367  347
2789  12789 3     147   1478   5      179   127   6
56789 16789 1589  2     13678  138    13579 4     379
2567  4     125   1367  9      13     8     12357 237
"""


def test_nested_net_level_2_takes_forcing_chains_that_place_too():
    """Sudoku Explainer's inner rule at level 2 is its forcing chains, both kinds: a candidate
    whose chain from "on" removes it, and one whose chain from "off" places it (its cell's
    other candidates go); it adds every removal they give at once, each on its smallest chain.
    Its step here is among ours at its 10.2 (the ties come in another order), the least."""
    steps = sound_nested_nets(FORUM_10_4_LEVEL_2_PM, FORUM_10_4)
    assert steps[0].rating == 10.2 and min(s.rating for s in steps) == 10.2
    se = next(s for s in steps if named(s.eliminations) == {("r5c2", 9)})
    assert se.rating == 10.2
    assert se.explanation.startswith("If r5c2 were 9, r2c5 would have to be 8 and could not be, so r5c2 is not 9.")
    assert "r2c5 is not 8 and r2c5 is not 2, since forcing chains would remove them" in se.explanation


FORUM_10_4_B = ".2.4...8......9..2..9.3............5..8..7....4.5..82...46..21.6.21..4...1......8"
FORUM_10_4_B_PM = """
1357   2      13567  4      1567   156    135679 8      13679
134578 35678  13567  78     15678  9      13567  34567  2
14578  5678   9      278    3      12568  1567   4567   1467
12379  3679   1367   2389   124689 12468  13679  34679  5
12359  3569   8      239    12469  7      1369   3469   13469
1379   4      1367   5      169    136    8      2      13679
35789  35789  4      6      5789   358    2      1      379
6      35789  2      1      5789   358    4      3579   379
3579   1      357    2379   2479   2345   3567   35679  8
"""


def test_plus_rules_inside_a_net_one_kind_at_a_time_as_explainer():
    """Inside a (+) net Sudoku Explainer applies, once the singles run out, the first of
    pointing and box-line reduction, hidden pairs and naked pairs that removes something, and
    only that kind (the singles go first again); we applied all three kinds at once, so a net
    reached its contradiction through other parents, sooner. On this forum puzzle (ER 10.4),
    at its fourth step, Sukaku Explainer takes "10.4 Contradiction Forcing Chain: r9c4.7 on
    ==> r7c2.3 both on & off", the puzzle's hardest step; we took 10.2 there (grade 10.2)."""
    steps = sound_nested_nets(FORUM_10_4_B_PM, FORUM_10_4_B)
    assert min(s.rating for s in steps) == 10.4
    se = next(s for s in steps if named(s.eliminations) == {("r9c4", 7)})
    assert se.rating == 10.4


# A forum puzzle (the hardest database, its published ER 11.0) at its fourth step, where our
# grade took 11.3 (the puzzle 11.4); Sukaku Explainer 1.18.1 and SE 1.2.1.3's serate take
# "11.0 Cell Forcing Chains: r3c6 ==> r6c5.4 off" there, the puzzle's hardest step.
FORUM_11_0_B = "1....67...5.....3...8....4.....9...3..5.12...9..6..1...4.7....8.....1...7...6.9.."
FORUM_11_0_B_PM = """
1      239    2349   234589 23458  6      7      2589   259
246    5      24679  12489  2478   4789   268    3      1269
236    23679  8      12359  2357   3579   256    4      12569
2468   12678  12467  458    9      4578   24568  25678  3
3468   3678   5      348    1      2      468    679    4679
9      2378   2347   6      34578  34578  1      2578   2457
2356   4      12369  7      235    359    2356   1256   8
2358   23689  2369   234589 23458  1      23456  2567   24567
7      1238   123    23458  6      3458   9      125    245
"""


def test_a_verity_counts_a_case_that_ends_in_a_contradiction_as_explainer():
    """A case of a cell (or of a digit's places in a unit) whose nested net ends in a
    contradiction is impossible, so it implies anything: Sudoku Explainer's cell and region
    chains keep such a case with what its chain had reached when the contradiction stopped it.
    We dropped the verity there: r3c6 = 9 ends in a contradiction at level 3, so "whatever
    r3c6 holds, r6c5 is not 4" was not seen and the grade took an 11.3 net."""
    steps = sound_nested_nets(FORUM_11_0_B_PM, FORUM_11_0_B)
    step = steps[0]
    assert named(step.eliminations) == {("r6c5", 4)} and abs(step.rating - 11.0) <= 0.1
    assert step.explanation.startswith("Whatever r3c6 holds (3, 5, 7 or 9), every case leads to r6c5 not being 4")


FORCING_KINDS = Path(__file__).parent / "data" / "sudoku_top95_forcing_kinds.txt"


def test_every_kind_of_conclusion():
    """On top95 the stepper meets every kind of verity, cell, unit and double implication, some
    of them placing digits, and dynamic contradictions; each of them sound. (Static
    contradictions are discontinuous nice loops: the AICs, cheaper, find them first.) Taken
    at the positions where the stepper, going from the puzzles (top95's 34, 53, 58 and 59),
    meets each kind first (``data/``): the step there is of that kind."""
    kinds = set()
    top95 = puzzles("norvig_top95.txt", 95)
    for line in FORCING_KINDS.read_text().splitlines():
        k, marks = line.split(" ", 1)
        puzzle = top95[int(k)]
        state = pm_state(marks)
        solution = solution_of(puzzle)
        assert all(solution[c] == v for c, v in enumerate(state.values) if v)
        step = Stepper(Grid(state.values, givens=parse_grid(puzzle).givens), state.masks).next_step()
        assert step is not None and "forcing" in step.technique
        assert_sound(step, solution)
        kinds.add((step.technique, step.explanation.split()[0], bool(step.placements)))
    assert {("dynamic forcing chain", "If", False), ("dynamic forcing chain", "If", True),
            ("cell forcing chain", "Whatever", False), ("unit forcing chain", "Wherever", False),
            ("dynamic forcing chain", "Whatever", False), ("dynamic forcing chain", "Wherever", False),
            ("dynamic forcing chain", "Whether", False)} <= kinds


# -- the stepper -----------------------------------------------------------------------------------


def test_catalogue_order():
    names = [t.name for t in TECHNIQUES]
    order = ["digit forcing chain", "cell forcing chain", "unit forcing chain", "dynamic forcing chain",
             "dynamic forcing chain (+)", "nested forcing net"]
    assert [names.index(n) for n in order] == sorted(names.index(n) for n in order)
    assert names[-1] == "nested forcing net"


def run_all(puzzle: str) -> Stepper:
    solution = solution_of(puzzle)
    stepper = Stepper(parse_grid(puzzle))
    for step in stepper.run():
        assert_sound(step, solution)
        if step.technique in ("digit forcing chain", "cell forcing chain", "unit forcing chain",
                              "dynamic forcing chain", "dynamic forcing chain (+)", "nested forcing net"):
            assert step.chain and step.explanation.endswith(".")
            assert step.links or "levels of branching" in step.chain[0]
    assert stepper.solved, f"{puzzle}: stuck ({stepper.stuck})"
    return stepper


@pytest.mark.parametrize("name,count", [("norvig_top95.txt", 30), ("sudoku_exchange_diabolical_10k.txt", 30),
                                        ("norvig_hardest11.txt", 11)])
def test_stepper_finishes_by_logic(name, count):
    parallel_map(_finished, puzzles(name, count))


def _finished(puzzle: str) -> None:
    run_all(puzzle)  # the stepper itself stays in the worker


NESTED_15 = Path(__file__).parent / "data" / "sudoku_forum_hardest_15_nested.txt"
#: Of those 15, the ones the test finishes from their nested net's position (the quickest).
FINISH_FROM_NESTED = (4, 8, 11)


def test_nested_nets_take_the_hardest():
    """The forum's hardest puzzles (Sudoku Explainer 11 and up), each at the position where
    the hints' stepper, going from the puzzle, needs its nested net: the stepper's step there
    is a nested forcing net, sound, rated 11 and up (the list holds puzzles Sudoku Explainer
    rates 11 and up), and three of them finish by logic from there (nested nets never leave a
    puzzle stuck). Starting from the positions (``data/``, made by that stepper) leaves out
    the easier steps before them, which the other tests here cover: a tenth of the CPU of
    solving all 15 from the start."""
    positions = NESTED_15.read_text().splitlines()
    boards = puzzles("tdoku_forum_hardest_1905_11plus_10k.txt", len(positions))
    assert len(positions) == 15
    for k, (puzzle, marks) in enumerate(zip(boards, positions, strict=True)):
        solution = solution_of(puzzle)
        state = pm_state(marks)
        assert all(solution[c] == v for c, v in enumerate(state.values) if v)  # the puzzle's own position
        stepper = Stepper(Grid(state.values, givens=parse_grid(puzzle).givens), state.masks)
        step = stepper.next_step()
        assert step is not None and step.technique == "nested forcing net", (k, step)
        assert step.rating >= 11.0, (k, step.rating)
        assert step.chain and step.explanation.endswith(".") and step.links
        assert_sound(step, solution)
        if k in FINISH_FROM_NESTED:
            stepper.apply(step)
            for later in stepper.run():
                assert_sound(later, solution)
            assert stepper.solved, f"{puzzle}: stuck ({stepper.stuck})"


def test_cancel_from_another_thread():
    stop = threading.Event()
    stepper = Stepper(parse_grid(puzzles("tdoku_forum_hardest_1905_11plus_10k.txt", 3)[2]), stop=stop)
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(Cancelled):
            stepper.run()
    finally:
        timer.cancel()


X_VARIANT = ".4.3............9....4.5.375.26.............14.....5...9........84...62.......3.."


def test_other_shapes():
    """An X-variant puzzle (diagonals are units) that needs cell, unit and dynamic forcing
    chains finishes soundly; on empty 4x4 and 6x6 grids the finders find nothing."""
    grid = parse_grid(X_VARIANT, diagonal=True)
    solution = sat.solve(grid).solution
    stepper = Stepper(grid)
    used = set()
    for step in stepper.run():
        assert_sound(step, solution)
        used.add(step.technique)
    assert stepper.solved and {"cell forcing chain", "dynamic forcing chain"} <= used
    for size in (4, 6):
        geo = geometry(size)
        state = State(geo, [0] * (size * size), [geo.full] * (size * size))
        for finder in (digit_forcing_chains, cell_forcing_chains, unit_forcing_chains, dynamic_forcing_chains,
                       dynamic_forcing_chains_plus, nested_forcing_nets):
            assert next(iter(finder(state)), None) is None


def test_nested_falls_back_to_a_tree_of_nets(monkeypatch):
    """When no nested net of the first level refutes anything, a tree of (+) nets does: with
    the nested scan disabled, the finder still removes a false candidate."""

    for module in (forcing, forcing_net):  # the finder's and the analysis'
        monkeypatch.setattr(module, "_stronger", lambda net, prop, level, state: prop)
    state = pm_state(HARDEST_1_NESTED_PM)
    step = first(nested_forcing_nets, state)
    assert step.technique == "nested forcing net" and len(step.eliminations) == 1
    assert "every way to go on would end in a contradiction" in step.explanation
    assert step.rating >= 10.0
    assert_sound(step, solution_of(HARDEST_1))


def test_no_nested_net_without_one_solution():
    """On a position with several solutions the nested nets do not search (and give nothing)."""
    grid = parse_grid("." * 9 + HARDEST_1[9:])  # the first row's givens gone
    assert sat.count_solutions(grid) == 2  # (two or more)
    assert next(iter(nested_forcing_nets(State.from_grid(grid))), None) is None


def _reference_chain_removals(net, masks, places, par):  # type: ignore[no-untyped-def]
    """The inner rule of level 2 as it was written first: one static chain built from every
    root, its links found as the chain reaches them (the oracle of the quicker search)."""
    n, units, cell_units, bits = net.n, net.units, net.cell_units, net.bits

    def weak_of(i: int) -> list[int]:
        c, d = divmod(i, n)
        targets = [c * n + e for e in bits[masks[c] & ~(1 << d)]]
        for u, pos in cell_units[c]:
            targets += [units[u][j] * n + d for j in bits[places[u * n + d] & ~pos]]
        return targets

    def strong_of(i: int) -> list[int]:
        c, d = divmod(i, n)
        m = masks[c] & ~(1 << d)
        targets = [c * n + m.bit_length() - 1] if m and not m & (m - 1) else []
        for u, pos in cell_units[c]:
            rest = places[u * n + d] & ~pos
            if rest and not rest & (rest - 1):
                targets.append(units[u][rest.bit_length() - 1] * n + d)
        return targets

    out = []
    for i in forcing_net._open(net, masks, par):
        for root in ((i << 1) | 1, i << 1):
            sub = forcing_net._chain(root, weak_of, strong_of, False)
            if sub.conflict < 0:
                continue
            end = root ^ 1
            parents = forcing_net._strong_parents(net, sub, (end,), masks, places, par)
            if parents:
                size = len(forcing_net._ancestors(sub.par, (end,)))
                gone = [i << 1] if root & 1 else [(i - i % n + e) << 1 for e in bits[masks[i // n] & ~(1 << i % n)]]
                out += [(size, root, nd, parents) for nd in gone]
    return out


def test_level_2_inner_chains_found_as_by_building_every_chain():
    """The inner forcing chains of level 2 are looked for by reachability in the net's graph
    of links (one pass for every root) and only the chains that reach their opposite are
    built: the removals, their chains' sizes and parents are those of building every chain,
    in every (+) net of a forum position's candidates (the grade's ratings rest on them)."""
    state = pm_state(FORUM_10_4_LEVEL_2_PM)
    net = forcing_net._Net(state)
    checked = 0
    for i in net.candidates[::3]:
        prop = forcing_net._dynamic(net, ((i << 1) | 1,), forcing_net._PLUS, list(net.masks), list(net.places), {}, state)
        if prop.masks is None or prop.places is None:
            continue
        ours = forcing_net._chain_removals(net, prop.masks, prop.places, prop.par, state, 0)
        assert ours == _reference_chain_removals(net, prop.masks, prop.places, prop.par)
        checked += bool(ours)
    assert checked >= 10  # positions where the inner rule removes something


def test_the_hints_nested_nets_do_not_use_the_grades_levels_2_and_3(monkeypatch):
    """The hints go to level 4 at once: the inner forcing chains of levels 2 and 3 (seconds a
    step, the grade's) are never looked for, so the hints' speed does not depend on them."""
    def grade_only(*args: object) -> None:
        raise AssertionError("a hint used the grade's inner forcing chains")
    monkeypatch.setattr(forcing_net, "_static_rules", grade_only)
    state = pm_state(FORUM_10_4_LEVEL_2_PM)
    steps = list(nested_forcing_nets(state))
    assert steps and all(s.rating >= 10.5 for s in steps)
    hint_techniques = [t.find for t in TECHNIQUES if t.hints]
    assert nested_forcing_nets in hint_techniques and explainer_nested_forcing_nets not in hint_techniques


def test_a_level_3_net_counts_the_level_2_chains_it_goes_on_from():
    """Sudoku Explainer's net of level 3 tries its inner rules in order at each point, the
    forcing chains of level 2 first, so the candidates they remove rest on them in the level-3
    net too, and the net's size counts each of those chains once (``getNestedComplexity``).
    Ours goes on from the level-2 net of the same assumption: it must keep what the level-2
    chains weigh (it dropped them, and the top of the scale rated low)."""
    state = pm_state(FORUM_10_4_LEVEL_2_PM)
    net = forcing_net._Net(state)
    kept = 0
    for i in net.candidates:
        plus = forcing_net._dynamic(net, ((i << 1) | 1,), forcing_net._PLUS, list(net.masks), list(net.places), {}, state)
        two = forcing_net._stronger(net, plus, forcing_net._NEST_FC, state)
        if two.conflict >= 0 or not two.weights:
            continue
        three = forcing_net._stronger(net, two, forcing_net._NEST_MFC, state)
        assert three.weights.items() >= two.weights.items()
        if three.conflict >= 0:
            ends = (three.conflict, three.conflict | 1)
            behind = {key: size for node, (key, size) in three.weights.items()
                      if node in forcing_net._ancestors(three.par, ends)}
            assert forcing_net._size(three, ends) == len(forcing_net._ancestors(three.par, ends)) + sum(behind.values())
        kept += 1
        if kept == 4:
            break
    assert kept == 4


def test_the_grades_level_4_nets_rest_on_no_static_chain(monkeypatch):
    """Sudoku Explainer's nesting level 4 is a net of its own whose inner rules are locked
    candidates, pairs, X-wings and dynamic forcing chains: no static forcing chain of levels 2
    and 3 removes anything in it. So the grade's level-4 net of an assumption starts from its
    (+) net, not from its level-3 net (whose static removals came free and made it smaller).
    Levels 2 and 3 are made to give no step here, so that the grade goes on to level 4, and
    only the first few level-4 nets are built (the others stay the (+) nets they start from,
    with no step: a full scan of level 4 costs ten times as much and tells nothing more)."""
    real = forcing_net._stronger
    level_4: list[forcing_net._Prop] = []
    static = 0

    def stronger(net, prop, level, state):  # type: ignore[no-untyped-def]
        nonlocal static
        if level == forcing_net._NEST_SE:
            assert not prop.weights  # it goes on from a net with no inner removal: the (+) net
            assert prop.conflict < 0 and prop.masks is not None
            if len(level_4) == 6:
                return prop
        out = real(net, prop, level, state)
        if level < forcing_net._NEST_DFC:
            static += bool(out.weights)
            if out.conflict >= 0:
                return forcing_net._Prop(dict(out.par), list(out.order), -1)  # no step at levels 2 and 3
        else:
            level_4.append(out)
        return out

    for module in (forcing, forcing_net):  # the finder's and the analysis'
        monkeypatch.setattr(module, "_stronger", stronger)
    monkeypatch.setattr(forcing, "_cells", lambda *args, **kwargs: [])
    monkeypatch.setattr(forcing, "_units", lambda *args, **kwargs: [])
    step = first(explainer_nested_forcing_nets, pm_state(FORUM_10_4_LEVEL_2_PM))
    assert step.rating >= 10.5 and len(level_4) == 6 and static
    assert any(out.conflict >= 0 and out.order[0] >> 1 == step.eliminations[0][0] * 9 + step.eliminations[0][1] - 1
               for out in level_4)  # the step is one of those level-4 nets
    assert_sound(step, solution_of(FORUM_10_4))


def _explainer_dynamic(net, root):  # type: ignore[no-untyped-def]
    """Sudoku Explainer's ``doChaining`` for a dynamic net (singles only), written plainly:
    two queues, and a pending "on" node always taken before any "off" one. Returns the parents
    and the off node of its contradiction (-1 for none)."""
    from collections import deque

    n, units, bits = net.n, net.units, net.bits
    masks, places = list(net.masks), list(net.places)
    par = {root: forcing_net.ROOT}
    ons, offs = deque([root] if root & 1 else []), deque([] if root & 1 else [root])
    while ons or offs:
        if ons:
            node = ons.popleft()
            c, d = divmod(node >> 1, n)
            targets = [c * n + e for e in bits[masks[c] & ~(1 << d)]]
            for u, pos in net.cell_units[c]:
                targets += [units[u][j] * n + d for j in bits[places[u * n + d] & ~pos]]
            for j in targets:
                if j << 1 not in par:
                    par[j << 1] = node
                    if (j << 1) | 1 in par:
                        return par, j << 1
                    offs.append(j << 1)
            continue
        node = offs.popleft()
        c, d = divmod(node >> 1, n)
        if not masks[c] >> d & 1:
            continue
        masks[c] &= ~(1 << d)
        found = []
        if masks[c] and not masks[c] & (masks[c] - 1):
            found.append((((c * n + masks[c].bit_length() - 1) << 1) | 1,
                          tuple((c * n + e) << 1 for e in bits[net.masks[c] & ~masks[c]])))
        for u, pos in net.cell_units[c]:
            k = u * n + d
            places[k] &= ~pos
            pl = places[k]
            if pl and not pl & (pl - 1):
                found.append((((units[u][pl.bit_length() - 1] * n + d) << 1) | 1,
                              tuple((units[u][j] * n + d) << 1 for j in bits[net.places[k] & ~pl])))
        for nd, parents in found:
            if nd not in par:
                par[nd] = parents
                if nd ^ 1 in par:
                    return par, nd ^ 1
                ons.append(nd)
    return par, -1


def test_dynamic_nets_take_every_on_before_any_off_as_explainer():
    """Sudoku Explainer's nets (``doChaining``) take every pending "on" node before any "off"
    one. Our one breadth-first queue records the same parents and meets the same contradiction:
    an "on" node only makes "off" nodes, and they join the queue in the same order either way,
    so the offs are taken in the same order. Held here to a plain two-queue version of SE's,
    from "on" and "off" of every candidate of a forum position."""
    state = pm_state(FORUM_10_4_LEVEL_2_PM)
    net = forcing_net._Net(state)
    for i in net.candidates:
        for root in ((i << 1) | 1, i << 1):
            prop = forcing_net._dynamic(net, (root,), forcing_net._SINGLES, list(net.masks), list(net.places), {}, state)
            par, conflict = _explainer_dynamic(net, root)
            assert (prop.par, prop.conflict) == (par, conflict)


# A puzzle of the forum's hardest database (published ER 11.5, line 19 of the shipped sample of
# 60), in the position where the grade's levels 2 and 3 find nothing and it goes to level 4.
FORUM_11_5 = "..34......5...9...6...2.1..2...6...1.4.5...6...6..3.....9...6.7......8.28...7..1."
FORUM_11_5_LEVEL_4_PM = """
179    12789  3      4      158    15678  2579   25789  5689
147    5      12478  13678  138    9      2347   23478  3468
6      789    478    378    2      578    1      345789 34589
2      3789   578    789    6      478    34579  345789 1
1379   4      178    5      189    1278   2379   6      389
1579   1789   6      12789  1489   3      24579  245789 4589
1345   123    9      1238   13458  12458  6      345    7
13457  1367   1457   1369   3459   1456   8      3459   2
8      236    245    2369   7      2456   3459   1      3459
"""


def test_the_grades_level_4_inner_rule_is_explainers_dynamic_forcing_chains():
    """Sudoku Explainer's inner rule at nesting level 4 is its plain dynamic forcing chains, of
    every kind at once (``getAdvancedPotentials``: ``Chaining(multiple, dynamic)`` with no
    nesting of its own): inside the net, a candidate goes when its own net (singles only) from
    "on" ends in a contradiction, when its "off" net does for another of its cell (placing
    that one), when both its nets remove the same one (double implication), or when every
    candidate of a cell, or every place of a digit in a unit, removes it. Ours removed one
    candidate at a time, the first whose own (+) net ended in a contradiction: other nets,
    and 11.8 at this position of a puzzle whose published ER is 11.5, where now the smallest
    level-4 net rates 11.5 (and the grade of the whole puzzle 11.5: docs/games/sudoku.md). Like
    SE's other levels, every false candidate is tried and the smallest net taken (not the first
    few refutations, the hints' shortcut, :data:`~.forcing.NESTED_SAMPLE`)."""
    steps = list(explainer_nested_forcing_nets(pm_state(FORUM_11_5_LEVEL_4_PM)))
    assert len(steps) > forcing.NESTED_SAMPLE
    assert steps[0].rating == min(s.rating for s in steps) == 11.5
    assert "dynamic forcing chains rule" in steps[0].explanation
    assert_sound(steps[0], solution_of(FORUM_11_5))


def test_the_level_4_inner_rule_removes_only_false_candidates_and_every_kind():
    """In the (+) nets of true candidates (a position the solution still fits), every removal
    of the level-4 inner rule is a false candidate, and each kind of dynamic forcing chain
    gives some: contradictions from "on" and from "off", double implications, cell and unit
    verities (told apart by their keys)."""
    state = pm_state(FORUM_11_5_LEVEL_4_PM)
    solution = solution_of(FORUM_11_5)
    net = forcing_net._Net(state)
    n = net.n
    kinds: set[str] = set()
    true = [i for i in net.candidates if solution[i // n] == i % n + 1]
    for i in true:
        plus = forcing_net._dynamic(net, ((i << 1) | 1,), forcing_net._PLUS, list(net.masks), list(net.places), {}, state)
        assert plus.conflict < 0 and plus.masks is not None and plus.places is not None
        found = forcing_net._dynamic_removals(net, plus.masks, plus.places, plus.par, state, 0)
        for _size, key, node, parents in found:
            c, d = divmod(node >> 1, n)
            assert not node & 1 and solution[c] != d + 1
            assert parents and all(p in plus.par for p in parents)
            kinds.add("unit or cell" if key & 1 << 21 else "double" if key & 1 << 22 else
                      "on" if key & 1 else "off")
    assert kinds == {"on", "off", "double", "unit or cell"}
