"""Fish with fins, single-digit patterns, colouring and the W-wing / remote pairs.

Every technique runs first on a position from the literature written as a pencil-mark grid:
HoDoKu's regression library (reglib 1.3, one test case per line: the givens, the candidates
deleted before, the exact eliminations HoDoKu's own finder makes), where each case has
exactly one instance of its technique. The test asserts exactly what the step removes, the
cells its explanation names and, for chains, the Eureka notation. A few positions built by hand
after the pictures on HoDoKu's technique pages follow, then every reglib case of these
techniques in its compact form, each checked against the SAT solution of its puzzle; then
near misses where a finder must find nothing. Last, the stepper runs over real puzzles (every
step checked against the SAT solution) and the finders over 4x4, 6x6, 16x16 and diagonal grids.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from parallel_support import parallel_map
from sudoku_marks import GEO, assert_sound, named, pm_state

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.catalogue import TECHNIQUES
from tui_games.engine.sudoku.colouring import multi_colouring, simple_colouring
from tui_games.engine.sudoku.fish import finned_fish
from tui_games.engine.sudoku.formats import parse_puzzles
from tui_games.engine.sudoku.generator import generate
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.levels import EXTREME, FIENDISH
from tui_games.engine.sudoku.single_digit import empty_rectangles, skyscrapers, turbot_fish, two_string_kites
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Link, State, fish
from tui_games.engine.sudoku.wings import remote_pairs, w_wings

SHIPPED = Path(__file__).parents[2] / "puzzles"
FULL = GEO.full

FINDERS = {
    "jellyfish": fish(4),
    "finned X-wing": finned_fish(2, sashimi=False),
    "sashimi X-wing": finned_fish(2, sashimi=True),
    "finned swordfish": finned_fish(3, sashimi=False),
    "sashimi swordfish": finned_fish(3, sashimi=True),
    "finned jellyfish": finned_fish(4, sashimi=False),
    "sashimi jellyfish": finned_fish(4, sashimi=True),
    "skyscraper": skyscrapers,
    "2-string kite": two_string_kites,
    "turbot fish": turbot_fish,
    "empty rectangle": empty_rectangles,
    "simple colouring": simple_colouring,
    "multi-colouring": multi_colouring,
    "W-wing": w_wings,
    "remote pairs": remote_pairs,
}


def cell(name: str) -> int:
    row, col = name[1:].split("c")
    return (int(row) - 1) * 9 + int(col) - 1


def cells(*names: str) -> list[int]:
    return [cell(n) for n in names]


def bits(*digits: int) -> int:
    out = 0
    for d in digits:
        out |= 1 << (d - 1)
    return out


def steps(finder, state: State, digit: int | None = None) -> list:
    """All the steps a finder yields (for one digit if given); each removes only candidates
    that are there."""
    found = list(finder(state))
    for step in found:
        assert step.eliminations, step
        for c, d in step.eliminations:
            assert state.masks[c] & bits(d), (step.technique, c, d)
    return [s for s in found if digit is None or digit in s.digits]


def only(finder, state: State, digit: int | None = None):
    found = steps(finder, state, digit)
    assert len(found) == 1, [s.explanation for s in found]
    return found[0]


def marks() -> State:
    """An empty grid, every candidate in every cell."""
    return State(GEO, [0] * 81, [FULL] * 81)


def keep(state: State, digit: int, unit: list[int], where: list[int]) -> State:
    """``digit`` stays in ``unit`` only in the cells of ``where``."""
    for c in unit:
        if c not in where:
            state.masks[c] &= ~bits(digit)
    return state


def row(r: int) -> list[int]:
    return list(GEO.units[r - 1])


def col(c: int) -> list[int]:
    return list(GEO.units[9 + c - 1])


def box(b: int) -> list[int]:
    return list(GEO.units[18 + b - 1])


# -- pencil-mark grids from HoDoKu's regression library ------------------------------------------

# HoDoKu reglib :0302:7: (technique 0302)
JELLYFISH = """
+--------------------+-----------------+------------------+
| 2     14567  4567  | 16789 15678 179 | 78    4689 3     |
| 1679  8      467   | 1679  3     179 | 27    5    24679 |
| 5679  567    3     | 4     5678  2   | 1     689  6789  |
+--------------------+-----------------+------------------+
| 3678  367    1     | 2     67    5   | 4     389  789   |
| 35678 234567 45678 | 167   9     147 | 23578 1238 2578  |
| 57    2457   9     | 3     147   8   | 6     12   257   |
+--------------------+-----------------+------------------+
| 1378  137    2     | 5     1478  6   | 9     348  48    |
| 13568 9      568   | 18    2     134 | 358   7    4568  |
| 4     3567   5678  | 789   78    379 | 2358  2368 1     |
+--------------------+-----------------+------------------+
"""

# HoDoKu reglib :0310:3: (technique 0310)
FINNED_X_WING = """
+---------------+------------------+-----------------+
| 1    239 4679 | 24789 2368 34567 | 4589 3578 34789 |
| 237  5   479  | 24789 238  347   | 489  6    1     |
| 367  39  8    | 1     36   34567 | 2    357  3479  |
+---------------+------------------+-----------------+
| 2356 7   156  | 248   2368 9     | 458  1258 48    |
| 256  289 569  | 2478  1    467   | 3    2578 4789  |
| 4    238 19   | 278   5    37    | 89   1278 6     |
+---------------+------------------+-----------------+
| 57   6   57   | 3     9    8     | 1    4    2     |
| 9    4   2    | 5     7    1     | 6    38   38    |
| 8    1   3    | 6     4    2     | 7    9    5     |
+---------------+------------------+-----------------+
"""

# HoDoKu reglib :0320:8: (technique 0320)
SASHIMI_X_WING = """
+------------------+-------------+---------------------+
| 4    123   123   | 5 28   7    | 6      9      18    |
| 1579 179   157   | 3 4689 689  | 1578   14578  2     |
| 2579 6     8     | 1 249  29   | 57     3      45    |
+------------------+-------------+---------------------+
| 6    5     137   | 2 18   4    | 1378   178    9     |
| 1289 129   12    | 7 3    1568 | 4      12568  1568  |
| 1278 12347 12347 | 9 1568 1568 | 123578 125678 13568 |
+------------------+-------------+---------------------+
| 1257 1247  6     | 8 1259 1259 | 12359  1245   1345  |
| 125  124   1245  | 6 1259 3    | 12589  12458  7     |
| 3    8     9     | 4 7    125  | 125    1256   156   |
+------------------+-------------+---------------------+
"""

# HoDoKu reglib :0311:5: (technique 0311)
FINNED_SWORDFISH = """
+-----------+----------+-----------+
| 29 6  259 | 4   1 7  | 25  8  3  |
| 3  1  4   | 9   8 25 | 256 7  56 |
| 8  7  25  | 25  6 3  | 9   1  4  |
+-----------+----------+-----------+
| 7  4  3   | 15  2 9  | 156 56 8  |
| 19 59 8   | 3   4 6  | 15  2  7  |
| 12 25 6   | 158 7 58 | 3   4  9  |
+-----------+----------+-----------+
| 6  29 29  | 7   5 4  | 8   3  1  |
| 4  3  1   | 28  9 28 | 7   56 56 |
| 5  8  7   | 6   3 1  | 4   9  2  |
+-----------+----------+-----------+
"""

# HoDoKu reglib :0321:6: (technique 0321)
SASHIMI_SWORDFISH = """
+-----------------+-----------------+---------------+
| 56    4    8    | 9    1    2     | 7  3    56    |
| 2     59   379  | 6    3578 3578  | 1  4    589   |
| 1567  1569 3679 | 3578 4    3578  | 26 2568 25689 |
+-----------------+-----------------+---------------+
| 9     156  4    | 2    356  356   | 8  7    16    |
| 15678 1568 67   | 4    9    5678  | 3  126  126   |
| 678   3    2    | 78   678  1     | 5  9    4     |
+-----------------+-----------------+---------------+
| 368   689  69   | 3578 2    35678 | 4  158  1578  |
| 4     7    1    | 58   568  9     | 26 2568 3     |
| 368   2    5    | 1    3678 4     | 9  68   78    |
+-----------------+-----------------+---------------+
"""

# HoDoKu reglib :0312:8: (technique 0312)
FINNED_JELLYFISH = """
+------------+-------------+----------------+
| 6   4  1   | 2    5   89 | 7    89   3    |
| 3   8  2   | 6    7   49 | 49   1    5    |
| 59  57 79  | 48   3   1  | 6    248  248  |
+------------+-------------+----------------+
| 258 9  3   | 1    48  6  | 248  2458 7    |
| 4   1  6   | 589  2   7  | 3    589  89   |
| 258 57 78  | 4589 489 3  | 2489 6    1    |
+------------+-------------+----------------+
| 89  2  489 | 7    6   5  | 1    3    48   |
| 7   6  5   | 3    1   48 | 2489 2489 2489 |
| 1   3  48  | 489  489 2  | 5    7    6    |
+------------+-------------+----------------+
"""

# HoDoKu reglib :0322:8: (technique 0322)
SASHIMI_JELLYFISH = """
+---------------+------------+-----------------+
| 5789  5789 3  | 4   1   6  | 2    5789  5789 |
| 2     6    89 | 79  589 3  | 1    5789  4    |
| 1     5789 4  | 279 589 28 | 789  3     6    |
+---------------+------------+-----------------+
| 89    4    6  | 3   7   1  | 5    89    2    |
| 359   2    1  | 8   4   59 | 679  679   379  |
| 3589  3589 7  | 6   2   59 | 4    1     389  |
+---------------+------------+-----------------+
| 6789  789  5  | 29  3   28 | 6789 4     1    |
| 36789 3789 2  | 1   89  4  | 6789 56789 5789 |
| 4     1    89 | 5   6   7  | 3    2     89   |
+---------------+------------+-----------------+
"""

# HoDoKu reglib :0400:1: (technique 0400)
SKYSCRAPER = """
+-----------+----------------+-------------+
| 6   9   7 | 1345 13458 158 | 1458 148 2  |
| 45  58  1 | 9    7     2   | 458  6   3  |
| 245 258 3 | 145  1458  6   | 7    9   18 |
+-----------+----------------+-------------+
| 9   1   2 | 345  3458  58  | 6    38  7  |
| 3   7   4 | 2    6     18  | 9    5   18 |
| 8   6   5 | 7    13    9   | 13   2   4  |
+-----------+----------------+-------------+
| 1   4   8 | 6    9     3   | 2    7   5  |
| 7   35  9 | 15   2     4   | 138  138 6  |
| 25  235 6 | 8    15    7   | 134  134 9  |
+-----------+----------------+-------------+
"""

# HoDoKu reglib :0401:5: (technique 0401)
KITE = """
+-----------+--------------+------------+
| 379 8 1   | 4579 2   345 | 6  37 357  |
| 37  4 2   | 57   6   135 | 15 8  9    |
| 379 5 6   | 8    179 13  | 2  4  137  |
+-----------+--------------+------------+
| 6   9 3   | 1    4   2   | 7  5  8    |
| 4   2 8   | 3    5   7   | 9  1  6    |
| 1   7 5   | 6    8   9   | 3  2  4    |
+-----------+--------------+------------+
| 5   1 47  | 47   3   6   | 8  9  2    |
| 2   3 79  | 579  179 8   | 4  6  157  |
| 8   6 479 | 2    179 145 | 15 37 1357 |
+-----------+--------------+------------+
"""

# HoDoKu reglib :0403:2: (technique 0403)
TURBOT = """
+---------+------------+-----------+
| 2  6 4  | 9   1  3   | 5   8   7 |
| 79 3 1  | 47  8  5   | 46  469 2 |
| 79 5 8  | 247 27 6   | 3   49  1 |
+---------+------------+-----------+
| 4  7 9  | 6   3  12  | 12  5   8 |
| 1  2 6  | 8   5  4   | 7   3   9 |
| 3  8 5  | 27  9  127 | 124 24  6 |
+---------+------------+-----------+
| 5  9 3  | 1   27 8   | 26  267 4 |
| 8  4 27 | 5   6  27  | 9   1   3 |
| 6  1 27 | 3   4  9   | 8   27  5 |
+---------+------------+-----------+
"""

# HoDoKu reglib :0402:9: (technique 0402)
EMPTY_RECTANGLE = """
+-------------+--------------+-----------+
| 7   2  4    | 9   5    6   | 1   3 8   |
| 1   6  8    | 4   2    3   | 5   9 7   |
| 9   3  5    | 7   1    8   | 6   2 4   |
+-------------+--------------+-----------+
| 5   79 2679 | 3   469  249 | 8   1 69  |
| 236 4  269  | 26  8    1   | 7   5 369 |
| 36  8  1    | 56  7    59  | 2   4 369 |
+-------------+--------------+-----------+
| 468 1  3    | 568 469  459 | 49  7 2   |
| 246 79 2679 | 1   3469 249 | 349 8 5   |
| 248 5  29   | 28  349  7   | 349 6 1   |
+-------------+--------------+-----------+
"""

# HoDoKu reglib :0500:1: (technique 0500)
COLOUR_TRAP = """
+-----------+------------+------------+
| 2 3   14  | 7  14 6    | 8   9   5  |
| 5 9   7   | 2  8  14   | 134 134 6  |
| 6 18  148 | 9  3  5    | 124 7   12 |
+-----------+------------+------------+
| 3 128 6   | 14 9  1248 | 5   124 7  |
| 7 5   18  | 3  6  1248 | 124 124 9  |
| 4 12  9   | 5  7  12   | 6   8   3  |
+-----------+------------+------------+
| 8 7   2   | 14 5  3    | 9   6   14 |
| 9 4   5   | 6  12 7    | 123 123 8  |
| 1 6   3   | 8  24 9    | 7   5   24 |
+-----------+------------+------------+
"""

# HoDoKu reglib :0501:1: (technique 0501)
COLOUR_WRAP = """
+-------------+-----------+--------------+
| 5   4   8   | 16 126 3  | 79 279  19   |
| 12  6   7   | 4  12  9  | 8  3    5    |
| 9   123 23  | 8  5   7  | 6  24   14   |
+-------------+-----------+--------------+
| 14  9   46  | 16 3   8  | 2  5    7    |
| 3   12  26  | 5  7   16 | 4  89   89   |
| 8   7   5   | 2  9   4  | 1  6    3    |
+-------------+-----------+--------------+
| 6   8   9   | 7  4   5  | 3  1    2    |
| 247 23  234 | 9  168 16 | 5  478  468  |
| 47  5   1   | 3  68  2  | 79 4789 4689 |
+-------------+-----------+--------------+
"""

# HoDoKu reglib :0502:8: (technique 0502)
MULTI_COLOURS = """
+---------------+--------------------+-----------------+
| 13   236 123  | 3469  49    3469   | 5     8    7    |
| 7    9   38   | 3468  5     2      | 46    46   1    |
| 5    68  4    | 1     78    67     | 9     3    2    |
+---------------+--------------------+-----------------+
| 1348 378 1389 | 45689 4789  145679 | 34678 2    3468 |
| 2    78  6    | 489   3     479    | 1     479  5    |
| 1348 5   1389 | 24689 24789 14679  | 34678 4679 3468 |
+---------------+--------------------+-----------------+
| 9    4   7    | 35    1     8      | 2     56   36   |
| 38   238 2358 | 7     6     345    | 348   1    9    |
| 6    1   2358 | 23459 249   3459   | 3478  457  348  |
+---------------+--------------------+-----------------+
"""

# HoDoKu reglib :0803:14: (technique 0803)
W_WING = """
+----------------+---------+----------------+
| 6    134   123 | 9  5 48 | 12348 7   14   |
| 347  1347  9   | 67 2 48 | 13458 136 145  |
| 247  5     8   | 67 3 1  | 24    269 49   |
+----------------+---------+----------------+
| 1    6     4   | 3  8 9  | 7     5   2    |
| 238  38    23  | 1  7 5  | 9     4   6    |
| 5    9     7   | 2  4 6  | 13    13  8    |
+----------------+---------+----------------+
| 9    2     5   | 4  1 7  | 6     8   3    |
| 3478 13478 13  | 5  6 2  | 14    19  1479 |
| 47   147   6   | 8  9 3  | 1245  12  1457 |
+----------------+---------+----------------+
"""

# HoDoKu reglib :0703:58: (technique 0703)
REMOTE_PAIRS = """
+-------------+-------------+-------------+
| 57  578  1  | 58   4  9   | 2   6  3    |
| 6   3    58 | 2    1  7   | 9   4  58   |
| 9   4    2  | 6    3  58  | 158 7  158  |
+-------------+-------------+-------------+
| 2   6    3  | 4    58 1   | 7   58 9    |
| 8   157  4  | 357  9  35  | 156 2  156  |
| 157 157  9  | 578  6  2   | 158 3  4    |
+-------------+-------------+-------------+
| 135 1258 7  | 1358 58 4   | 568 9  2568 |
| 4   258  58 | 9    7  6   | 3   1  258  |
| 135 9    6  | 1358 2  358 | 4   58 7    |
+-------------+-------------+-------------+
"""


def test_jellyfish():
    found = steps(fish(4), pm_state(JELLYFISH), 7)
    # Rows 3, 4, 6, 7 in columns 1, 2, 5, 9 -- and, the complementary view, columns 3, 4, 6, 7
    # in rows 1, 2, 5, 9: the same nine eliminations.
    assert [s.technique for s in found] == ["jellyfish", "jellyfish"]
    for step in found:
        assert set(named(step.eliminations)) == {(n, 7) for n in (
            "r1c2", "r1c5", "r2c1", "r2c9", "r5c1", "r5c2", "r5c9", "r9c2", "r9c5")}
    assert found[0].explanation.startswith("In rows 3, 4, 6 and 7, 7 fits only in columns 1, 2, 5 and 9")
    assert [t.rating for t in TECHNIQUES if t.name == "jellyfish"] == [5.2]


def test_finned_x_wing():
    step = only(finned_fish(2, sashimi=False), pm_state(FINNED_X_WING))
    assert step.technique == "finned X-wing" and step.level == EXTREME
    assert set(named(step.eliminations)) == {("r1c5", 3), ("r3c5", 3)}
    assert step.explanation == (
        "In rows 2 and 4, 3 fits only in columns 1 and 5 and the fin r2c6 in box 2. Either the fin is 3, or the "
        "X-wing removes 3 from the rest of those columns: both ways 3 goes from the cells of box 2 in those "
        "columns: r1c5, r3c5.")
    assert cell("r2c6") in step.cells and step.units == (1, 3, 9, 13)  # rows 2, 4; columns 1, 5
    assert not steps(finned_fish(2, sashimi=True), pm_state(FINNED_X_WING))


def test_sashimi_x_wing():
    step = only(finned_fish(2, sashimi=True), pm_state(SASHIMI_X_WING))
    assert step.technique == "sashimi X-wing"
    assert set(named(step.eliminations)) == {("r5c9", 8), ("r6c9", 8)}
    assert step.explanation.startswith("In rows 1 and 4, 8 fits only in columns 5 and 9 and the fins r4c7, r4c8 "
                                       "in box 6. Either a fin is 8")


def test_finned_swordfish():
    step = only(finned_fish(3, sashimi=False), pm_state(FINNED_SWORDFISH))
    assert step.technique == "finned swordfish"
    assert set(named(step.eliminations)) == {("r5c7", 5)}
    assert step.explanation.startswith("In rows 1, 3 and 4, 5 fits only in columns 3, 4 and 7 and the fin r4c8")


def test_sashimi_swordfish():
    step = only(finned_fish(3, sashimi=True), pm_state(SASHIMI_SWORDFISH))
    assert step.technique == "sashimi swordfish"
    assert set(named(step.eliminations)) == {("r3c8", 6)}
    assert "the fin r1c9 in box 3" in step.explanation


def test_finned_jellyfish():
    step = only(finned_fish(4, sashimi=False), pm_state(FINNED_JELLYFISH))
    assert step.technique == "finned jellyfish"
    assert set(named(step.eliminations)) == {("r7c9", 8)}
    assert step.explanation.startswith("In rows 1, 3, 5 and 8, 8 fits only in columns 4, 6, 8 and 9 and the fin r8c7")


def test_sashimi_jellyfish():
    step = only(finned_fish(4, sashimi=True), pm_state(SASHIMI_JELLYFISH))
    assert step.technique == "sashimi jellyfish"
    assert set(named(step.eliminations)) == {("r7c1", 8), ("r7c2", 8), ("r8c1", 8), ("r8c2", 8)}
    assert "the fin r9c3 in box 7" in step.explanation


def test_skyscraper():
    # The skyscraper on HoDoKu's page: 1 in column 6 only at r1c6, r5c6, in column 9 only at
    # r3c9, r5c9; the base r5c6-r5c9 shares row 5, so r1c6 or r3c9 is 1.
    step = only(skyscrapers, pm_state(SKYSCRAPER))
    assert step.technique == "skyscraper" and step.level == EXTREME and step.rating == 0.0  # the catalogue's 4.0
    assert set(named(step.eliminations)) == {("r1c7", 1), ("r1c8", 1), ("r3c4", 1), ("r3c5", 1)}
    assert step.chain == ("(1)r1c6=(1)r5c6-(1)r5c9=(1)r3c9",)
    assert step.links == (Link((cell("r1c6"),), 1, (cell("r5c6"),), 1, True),
                          Link((cell("r5c6"),), 1, (cell("r5c9"),), 1, False),
                          Link((cell("r5c9"),), 1, (cell("r3c9"),), 1, True))
    assert step.explanation == (
        "In column 6, 1 is only in r1c6 or r5c6; in column 9, only in r5c9 or r3c9. r5c6 and r5c9 share row 5, "
        "so they are not both 1: r1c6 or r3c9 is 1, and 1 is removed from the cells that see both: r1c7, r1c8, "
        "r3c4, r3c5.")


def test_two_string_kite():
    step = only(two_string_kites, pm_state(KITE))
    assert step.technique == "2-string kite"
    assert set(named(step.eliminations)) == {("r2c4", 5)}
    assert step.chain == ("(5)r8c4=(5)r8c9-(5)r9c7=(5)r2c7",)
    assert "r8c9 and r9c7 share box 9" in step.explanation


def test_turbot_fish():
    step = only(turbot_fish, pm_state(TURBOT))
    assert step.technique == "turbot fish"
    assert set(named(step.eliminations)) == {("r7c7", 2)}
    assert step.chain == ("(2)r4c7=(2)r4c6-(2)r8c6=(2)r7c5",)
    assert step.explanation.startswith("In row 4, 2 is only in r4c7 or r4c6; in box 8, only in r8c6 or r7c5.")


def test_empty_rectangle():
    step = only(empty_rectangles, pm_state(EMPTY_RECTANGLE), 9)
    assert step.technique == "empty rectangle"
    assert set(named(step.eliminations)) == {("r8c6", 9)}
    # The grouped nodes: 9 in row 4 of box 5 (r4c5, r4c6) or else in its column 6 (r6c6).
    assert step.chain == ("(9)r8c2=(9)r4c2-(9)r4c56=(9)r6c6",)
    assert step.links[1] == Link((cell("r4c2"),), 9, tuple(cells("r4c5", "r4c6")), 9, False)
    assert step.explanation == (
        "In box 5, 9 lies only in row 4 and column 6 (an empty rectangle). In column 2, 9 is only in r4c2 or "
        "r8c2: if r8c2 is not 9, r4c2 is, so 9 is not in row 4 of box 5 and must be in column 6 of it (r6c6). "
        "Either way r8c6 cannot be 9.")


def test_simple_colouring_trap():
    step = only(simple_colouring, pm_state(COLOUR_TRAP))
    assert step.technique == "simple colouring" and step.level == FIENDISH
    assert set(named(step.eliminations)) == {("r2c7", 1), ("r2c8", 1), ("r3c2", 1), ("r3c3", 1)}
    assert len(step.cells) == 8 and step.rating == 6.8  # 6.6 + 0.2 for 8 coloured candidates
    assert all(link.strong for link in step.links) and len(step.links) >= 7
    assert "either all of {r1c3, r2c6, r4c4, r7c9, r8c5} are 1 or all of {r1c5, r3c9, r7c4}" in step.explanation
    assert step.explanation.endswith("r2c7, r2c8, r3c2, r3c3 see a cell of each set, so 1 is removed from them.")


def test_simple_colouring_wrap():
    step = only(simple_colouring, pm_state(COLOUR_WRAP))
    assert set(named(step.eliminations)) == {(n, 1) for n in ("r1c4", "r1c9", "r2c5", "r3c2", "r4c1", "r5c6", "r8c5")}
    assert step.rating == 6.9  # 12 coloured candidates
    assert "r1c4 and r1c9 are in the same set and see each other, so that set is not 1" in step.explanation


def test_multi_colouring():
    found = steps(multi_colouring, pm_state(MULTI_COLOURS), 8)
    # Two clusters of 8: {r2c3, r3c5} / {r2c4, r3c2} and {r5c2} / {r5c4}. r2c4 and r3c2 (one
    # colour) see r5c4 and r5c2, both colours of the other cluster: that colour is false
    # (HoDoKu's multi-colors 2). And as a trap (multi-colors 1): each weak link between the
    # clusters makes one of two opposite colours true.
    assert [set(named(s.eliminations)) for s in found] == [
        {("r2c4", 8), ("r3c2", 8)},
        {("r2c4", 8), ("r3c2", 8), ("r4c3", 8), ("r4c5", 8), ("r6c3", 8), ("r6c5", 8)}]
    assert found[0].explanation.endswith("{r2c4, r3c2} sees both sets of the other chain (r5c2, r5c4), one of which "
                                         "is 8, so it is not 8: remove 8 from r2c4, r3c2.")
    weak = [link for link in found[1].links if not link.strong]
    assert {(link.cells_a, link.cells_b) for link in weak} == {((cell("r3c2"),), (cell("r5c2"),)),
                                                               ((cell("r2c4"),), (cell("r5c4"),))}
    assert all(s.technique == "multi-colouring" and s.level == FIENDISH for s in found)


def test_w_wing():
    step = only(w_wings, pm_state(W_WING))
    assert step.technique == "W-wing" and step.level == FIENDISH
    assert set(named(step.eliminations)) == {(n, 4) for n in ("r1c7", "r2c7", "r3c7", "r8c9", "r9c9")}
    assert step.chain == ("(4=1)r1c9-(1)r1c3=(1)r8c3-(1=4)r8c7",)
    assert [link.strong for link in step.links] == [True, False, True, False, True]
    assert step.explanation == (
        "r1c9 and r8c7 both hold only 1 and 4. In column 3, 1 is only in r1c3 or r8c3, which see r1c9 and r8c7: "
        "so r1c9 and r8c7 are not both 1, one of them is 4, and 4 is removed from the cells that see both: r1c7, "
        "r2c7, r3c7, r8c9, r9c9.")


def test_remote_pairs():
    step = only(remote_pairs, pm_state(REMOTE_PAIRS))
    assert step.technique == "remote pairs" and step.rating == 6.6  # 4 cells: no length bonus
    assert set(named(step.eliminations)) == {(n, d) for n in ("r7c7", "r7c9", "r9c4", "r9c6") for d in (5, 8)}
    assert step.chain == ("(5=8)r7c5-(8=5)r4c5-(5=8)r4c8-(8=5)r9c8",)
    assert step.explanation.startswith("r7c5, r4c5, r4c8, r9c8 all hold only 5 and 8, each seeing the next")


# -- positions built by hand after the pictures on HoDoKu's technique pages ------------------------


def test_skyscraper_built():
    state = keep(keep(marks(), 1, col(6), cells("r1c6", "r5c6")), 1, col(9), cells("r3c9", "r5c9"))
    step = only(skyscrapers, state)
    assert set(named(step.eliminations)) == {("r1c7", 1), ("r1c8", 1), ("r3c4", 1), ("r3c5", 1)}
    # Turned a quarter: parallel rows, the base in one column.
    state = keep(keep(marks(), 4, row(2), cells("r2c5", "r2c1")), 4, row(8), cells("r8c4", "r8c1"))
    step = only(skyscrapers, state)
    assert set(named(step.eliminations)) == {("r1c4", 4), ("r3c4", 4), ("r7c5", 4), ("r9c5", 4)}


def test_two_string_kite_built():
    state = keep(keep(marks(), 5, row(2), cells("r2c2", "r2c8")), 5, col(3), cells("r1c3", "r7c3"))
    step = only(two_string_kites, state)
    assert set(named(step.eliminations)) == {("r7c8", 5)}
    assert step.chain == ("(5)r2c8=(5)r2c2-(5)r1c3=(5)r7c3",)
    assert not steps(skyscrapers, state) and not steps(turbot_fish, state)


def test_empty_rectangle_built():
    state = keep(marks(), 3, box(5), cells("r5c4", "r5c5", "r4c6", "r6c6"))
    keep(state, 3, col(2), cells("r5c2", "r8c2"))
    step = only(empty_rectangles, state)
    assert set(named(step.eliminations)) == {("r8c6", 3)}
    assert step.chain == ("(3)r8c2=(3)r5c2-(3)r5c45=(3)r46c6",)
    assert step.units == (GEO.boxes()[4], GEO.columns()[1])


def test_finned_x_wing_built():
    state = keep(keep(marks(), 7, row(2), cells("r2c3", "r2c8", "r2c2")), 7, row(7), cells("r7c3", "r7c8"))
    step = only(finned_fish(2, sashimi=False), state)
    assert set(named(step.eliminations)) == {("r1c3", 7), ("r3c3", 7)}
    assert "the fin r2c2 in box 1" in step.explanation
    # Sashimi: row 7 keeps one cover cell (r7c8) and the fin r7c2, in box 7 with column 3 -- or
    # the other way round, row 2 keeps r2c8 and the fin r2c3, in box 1 with column 2.
    state = keep(keep(marks(), 7, row(2), cells("r2c3", "r2c8")), 7, row(7), cells("r7c8", "r7c2"))
    assert not steps(finned_fish(2, sashimi=False), state)
    found = steps(finned_fish(2, sashimi=True), state)
    assert [set(named(s.eliminations)) for s in found] == [{("r1c2", 7), ("r3c2", 7)}, {("r8c3", 7), ("r9c3", 7)}]
    assert "the fin r7c2 in box 7" in found[1].explanation


def test_w_wing_built():
    state = marks()
    for name in ("r2c2", "r8c8"):
        state.masks[cell(name)] = bits(1, 2)
    keep(state, 1, col(5), cells("r2c5", "r8c5"))
    step = only(w_wings, state)
    assert set(named(step.eliminations)) == {("r2c8", 2), ("r8c2", 2)}
    assert step.chain == ("(2=1)r2c2-(1)r2c5=(1)r8c5-(1=2)r8c8",)


def test_remote_pairs_built():
    state = marks()
    for name in ("r1c1", "r1c5", "r5c5", "r5c9"):
        state.masks[cell(name)] = bits(4, 7)
    step = only(remote_pairs, state)
    assert set(named(step.eliminations)) == {("r1c9", 4), ("r1c9", 7), ("r5c1", 4), ("r5c1", 7)}
    assert step.chain == ("(4=7)r1c1-(7=4)r1c5-(4=7)r5c5-(7=4)r5c9",)
    # Six cells: the length bonus (6.6 + 0.1).
    state = marks()
    for name in ("r1c1", "r1c5", "r5c5", "r5c9", "r9c9", "r9c2"):
        state.masks[cell(name)] = bits(4, 7)
    longest = max(steps(remote_pairs, state), key=lambda s: len(s.cells))
    assert longest.cells == tuple(cells("r1c1", "r1c5", "r5c5", "r5c9", "r9c9", "r9c2"))
    assert longest.rating == 6.7
    assert set(named(longest.eliminations)) == {(n, d) for n in ("r1c2", "r2c2", "r3c2", "r7c1", "r8c1", "r9c1")
                                                for d in (4, 7)}


# -- near misses: the finder must find nothing ------------------------------------------------------


def test_fins_that_see_no_cover_cell_remove_nothing():
    # The fin r2c5 is in box 2, which no cover column (3, 8) crosses.
    state = keep(keep(marks(), 7, row(2), cells("r2c3", "r2c8", "r2c5")), 7, row(7), cells("r7c3", "r7c8"))
    for k in (2, 3, 4):
        assert not steps(finned_fish(k, sashimi=False), state) and not steps(finned_fish(k, sashimi=True), state)
    # Fins in two boxes.
    state = keep(keep(marks(), 7, row(2), cells("r2c3", "r2c8", "r2c2", "r2c9")), 7, row(7), cells("r7c3", "r7c8"))
    assert not steps(finned_fish(2, sashimi=False), state)


def test_an_x_wing_is_no_skyscraper():
    state = keep(keep(marks(), 1, col(6), cells("r1c6", "r5c6")), 1, col(9), cells("r1c9", "r5c9"))
    assert next(iter(fish(2)(state)), None) is not None
    for finder in (skyscrapers, two_string_kites, turbot_fish, simple_colouring):
        assert not steps(finder, state), finder.__name__


def test_a_box_off_the_cross_is_no_empty_rectangle():
    state = keep(marks(), 3, box(5), cells("r5c4", "r5c5", "r4c6", "r6c6", "r4c4"))
    keep(state, 3, col(2), cells("r5c2", "r8c2"))
    assert not steps(empty_rectangles, state)


def test_w_wing_misses():
    state = marks()
    for name in ("r2c2", "r2c8"):  # they see each other: a naked pair, not a W-wing
        state.masks[cell(name)] = bits(1, 2)
    keep(state, 1, col(5), cells("r2c5", "r8c5"))
    assert not steps(w_wings, state)
    state = marks()
    for name in ("r2c2", "r8c8"):
        state.masks[cell(name)] = bits(1, 2)
    keep(state, 1, col(5), cells("r2c5", "r7c5"))  # r7c5 does not see r8c8
    assert not steps(w_wings, state)


def test_remote_pairs_need_an_even_chain():
    state = marks()
    for name in ("r1c1", "r1c5", "r5c5"):
        state.masks[cell(name)] = bits(4, 7)
    assert not steps(remote_pairs, state)


def test_colouring_misses():
    # One cluster r1c1 - r5c1 - r5c7 of 6: no two of a colour meet, no cell sees both colours.
    state = keep(keep(marks(), 6, col(1), cells("r1c1", "r5c1")), 6, row(5), cells("r5c1", "r5c7"))
    assert not steps(simple_colouring, state)
    # Two clusters of 6 with no weak link between them.
    state = keep(keep(marks(), 6, col(1), cells("r1c1", "r5c1")), 6, col(9), cells("r3c9", "r8c9"))
    assert not steps(multi_colouring, state)


def test_the_finders_find_nothing_on_a_blank_slate():
    for name, finder in FINDERS.items():
        assert not steps(finder, marks()), name


# HoDoKu reglib 1.3: :code:digits:givens:deleted candidates:eliminations:...
REGLIB = """
:0500:1:+23.7.+68+955972+8...+6+6..+9+3+5.+7.+3.+6.9.5.7+7+5.+36...+9+4.+9+5+7.+683+872.+5396.+94+5+6.7..+8+1638.+9+7+5.:439:127 128 132 133::
:0500:3:21+4..+6.....+79.+2..4...4.7.....+1+87..32..+26+9.....48.21..642.+7.986+1..91+68...1+86+2+4...9:937 938 387 587 787 588 788 789:319 339 381::
:0500:2:+6+745+93+12+8..+1.87.+45+5+8.14..+7.1+534.9.+8.8.+7........6+8......+6+8+7.+4+5917+15+9682+3+4....5+18+67:327 657 659:294::
:0500:2:+652...+7..8+7+3+9+54+612+41+97+2+6+83+5.3...94569...7....1.....9....+15...6.3...615..+54+68.....:853 154 763 863 272 375 379 779:284::
:0500:5:+27.+8..+6.+44+1.+6.+7.+2+8..+65+4213+7..8+7.9412..+7.+2..+8+3.423+8.+76..6.27.8..+7+219.834.......+2+7.:913 923 551 951 556 971 373 573 991 992 393 593 595 695:569::
:0500:7:13..6..9...8+17936.+6.+9..+3+18.5.+63.24..9.+3.....6..16.5..3+31+5....+4..6493+12...9..5..31:719 749 752 757 758 861 762 876 777 294 896 797:768::
:0500:3:8.+7.9.6.2+95+28+6..4.3.6.+2.+5+9+8+7+8+19+34+25+62+6+4.....9+53+96.2..+4+6.....+4+21+12..+46+98.4.8+21..+65:726 157 757 158 767:326::
:0501:8:+6+5+9...+1+3...+1.3.6+252.+31+65.4+9.+2..9+63+1.+36.7..5+9.+91.+3.4.+6279.6..+2+5+35.+6...9811.2...+4+7+6:814 815 424 826 443 843 849 855 856 863 875 285 896:819 821 824 832 844 853 867 876 892 895::
:0501:7:3+9265.....+86+3.4+5.+2+45...+2+63...+9+52..+6.+2+6.9+4.8+5...51.6+2..6+7+8+43+192+5+5+2+3.+6+9..4+914+2.5+3.6:717 718 818 119 725 128 735 835 139 741 147 768 769 788:719 728 733 734 761 787 795::
:0501:1:+548..+3....+674.+9+8359..8+5+7+6...+9..+382+5+73..57.4..+8+7+52+9+4163689+7+4+5+31+2...+9..+5...+513.2...::114 119 125 132 141 156 185::
:0502:8:......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......::824 832 843 845 863 865::
:0502:2:.9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......::245::
:0502:3:.9..4187678.3..15441.8..329..91...6.1...6.9..674..851.967485231.4..12.95521......::341 353::
:0503:8:......58779..52..15.41..932.......2.2.6.3.1.5.5.......947.182.....76..1961.......::824 832::
:0310:3:1.........5.....61..8+1..2...7...9.......1.3..4...5...6.+6.+398+14+2+9+42+5+71+6..+8+136+4279+5:962:315 335::
:0310:9:.8+3.49+26..7...+2...2....+35.......6....57.3+1+6.26..27+5...+7+6+5+328+14939.1.4.....1..+7...::948 958::
:0310:8:.9+15..3..562+318+9+7+4+3+4....+1..189...6+3.+47+3.....1+2+5+6+1834+9+7+6+1.2+3+7.+499+24+8+65+7+1+3.+3...126.::818::
:0310:8:...+936+581+15+6+2..3+49+8+3941+5+6+72..274+3+19.3..+6.+1.+2..1.+5+2..+36.4.+3...+1...18.+4.6+3..+31.2.+5.::879::
:0310:6:2...8.+4+19......+865..+8...7+2+3+17..2.35+8...+8.1+6+728.+2...+1+9+4.8....+9+315+41.7.2869+236+1+8+5+4+7::631::
:0310:9:..3..+67......91..+3.6...3.597+8.+25+43.+1...+3+1+7.8+22+3+16+89+4+75+6.813+2...+32.4+7...6...+9+6.23.::978::
:0310:9:.+52+6+7.3.+8.3...+5+6+2767..+3+2+5.+1+2+8...61.+5.+6....+2.47+1+452+3+86+9+82+73+149+5+6.9.+2+67+48+3+3+469+58+71+2::933::
:0310:2:.74....1+2.....+14+67....+47.85+4...3587+6..79.62+5+4.6547.+1+3+914+68+5+9+7+2+39.8+7+6.+5+4+1+75...+469+8:311 811 314 322 825 933 242:223::
:0310:2:...18.9..3....975..2.+7+5..+1.7........+45832716+9+2......+74+1...+3..8..326+7...1..4.15...:613 944 964 673 973:279::
:0310:2:5....1.+4+9..9.4.5...84+9+57..66.....+92+4873+2+9+4651+49+2..+5..39+4.5..36...8.3.4.+5...4....8:144 145 764 864 765 865 192 193:275::
:0311:5:.+6.4+1+7.+83+3+1+4+98..+7.8+7..+6+39147+43.29..+8..+8+3+4+6.2+7..6.+7.34+96..+75+4+8+314+3+1.+9.7..58+7631+4+9+2::557::
:0311:5:....4...97+9..124+6....9+6....2...+9.3.....+2....6.784+3...5329+1+8+4+6+5+78+5+7+6291..4+16..38+9+2::555::
:0311:7:+2.3.+186+5.41+6+75+39+8+2.+5+8.+26.1.84.3+6+2.9+5+62.+8.543.5+3.1+4.+8+2+6.+6+52...+4+83.+4+58.26..+8+2+6.45+7.::737::
:0311:4:3+2.+1.+7+6+9+8..862.+713..+6+3+9+8+245+6+8.....7.5.783..+2.2.1.7..8..6..+89.+3....71.86.+8...+639+5.:422 443 546 147 447 456 459 566 467 469 471 482 283 483 583 492 299 499:466::
:0311:4:.3.2+6..+8.86..3.5.+2.+2487..+3+6.+8.39.+2.72..6.8..31.+3+527.+6...+2.863..+3.8.5+2+691.....3.2.:924 128 448 452 157 458 578 491 591 792 193 793:424::
:0311:3:..+7..+62+4+991+4+7+283+6+5.6+2+4.9+8172.+5.4.....41.6.95...+6.8+5+4.147+85...9.+1+296+7+4+583+6+53+8+9...+4:311 315 344 256:346::
:0311:2:+1+234.7.+5.+75+4..6..+3698..+5+724+53+7.....8.+8.753...9....+8+53+781....975+3.+58...4...+95.13+8.:124 125 647 948 657 659 495 695:285 295::
:0311:2:18.53...75.3...+1...461..+8..+8+579....1.6..5..8.3....85+7......231.......4.66...95+728:624 225 625 938 239 939 645 646 951 454 456 473 973 182 183 283 983:222::
:0311:5:.84..61+3.+6.+12.+3...7.+3.1...6+41.+62+73...62.3.47.+3+79.5..6.1...6...3.+3+6..2.+1...73.+168.:519 537 959 581:599::
:0311:6:3....9+75.+7.9.5+1+283.+5...7+9.64.5.+7.+8..12+7+98+4+635..+3.+1.4.75+7.1..+3..93..4.1+7+2.1.7..+5.8:413 813 433 833 664 676 884:691::
:0311:7:3+5+84..+6...17.6..+8.....+58.1773+6.24.5+8+5+81..+62...9.58..6384.6.........4.83....+8.5..6:915 216 916 927 229 929 937 467 176 776 177 281 186 786 197:797::
:0312:8:+64+12+5.7.3+3826+7..+1+5....+31+6...9+3+1.+6..+74+1+6.27+3.......3.61.+2.+7+65+13.+765+31....+13...+2+576:934 938 939 979 986 993:879::
:0312:7:..2.18.+6..+6..+9+4+8+1.+8+14..+597.658+1....+9+1...+59.+8...+9+8...51.354..1.82.+1+583..64+8+69.+1...:752 754 259 762 299:787::
:0312:9:..827463.2+4.8..1.+7+7+6....+4+8+2....87.4.+45+7...+8+2.+8.64.2+7...+7..+4+8.+6...4...5786+8.+7.9.+14:525 133 534 535 343 144 344 944 149 349 949 162 971 373 973 393:962::
:0312:7:...68+2+9.+112+8.59...+9..1..5827...15+39+8..9.3.1463....+6+2......6..2.........3+635.+2.81.:424 432 433 562 764 765 474 774 974 476 776 484 784 984 486 786:718::
:0312:3:+4..+7.6+9.+1+71..9+4.6.+6..5.14+782+7+1965...+5...4.71+2+3+842+1+7.+9.+1..+6.....92.4..1..8..+1...5.:523 275 376 876 383 385 885 389 295 396:388::
:0312:5:.+9+18.7.3..6..+2971+82+78+6+3+1.+4.+8.7.+13.9.1.+6.9..8.+94..+86+1+2.+6......71.+1..+7..+6.+7+89+1623+54:517 519 552 454 554 559 569 272 474 574 484 584:575::
:0312:7:+6.+4.5.9.2.596.+2.+4+8....+94.+56578+2+4+9..3+2+46.1.5..9+1+3.+6.8244..9+8.+2.......648.8.1+42...+5:314 754 756 376 776 178 778 382 783 384 784 789 398:779::
:0312:6:3.+5..8.+97.7+8.95....497...8.85.+9.......6...9+5+8...+8+5..34.1.+5.487..+8.17..2.5.+72+8...1:615 635 636 145 146 151 161 166 487:696::
:0312:7:64....2+8+5.58..+6+93+1+9..8.547+6.6...8.+19+8.+91+63+5+4.1.+45..+86..926+84+1+5..8....69+4+4+16.+5..28:724 341 741 743 245 383 785:745::
:0312:9:.3.....2...9.3.5...4..1..83.1.5.3.6....4.7.....5...3.....6.2.3..8..7..4.7.23481.6:724 729 651 952 653 958 259 859 959 962 264 168 169 769 571 971 977 579 979 181 581 981 183:968::
:0320:8:4..5.769....+3....2.68+1...3.65.2.4..9...+73.4.....9.......+68........+6.3..73894+7....::859 869::
:0320:8:+5...+2.+4..+2...5483.3+4...826+5+1+35789+6+42.7+42+6+15.+36.+2+4+3+5...+456.1.....2.....547..+54...+6::881::
:0320:3:......3+8+99.4..2+561....9.72+4+4619+2+78+53+8+5+93+64+17+2..2...+4+9+6.97.1..4+85....8+9.+7.....+9..+5::371::
:0320:1:5.....34+7+7.+6+5+3+4..132+4.715.+697..456.3.35....+7.6..+3.+7.+5..+6+7..9.+3+52.+3.567..8+5+9+7+13462::151::
:0320:3:.94.3.5+2+7+6..+9+7+281+4.+7..456+3+996.28.+4+7..2+7..4....+4...+7..+2.+1.+4..+79+84867+1+9+2+537.+9.+281+4+6::343::
:0320:6:.5..12.3+8+2+1+867+3+5493.....1+2...........82397+4+5.7.5......+5..+7+2+981+4+829...+3+7+54+7+1+835+96+2::611::
:0320:4:93.4+1.7..+68.9..+13.1........+5.+976.+381+8+63+1+9.2+7.71..83....+9+1...+8.7.5+8.+79.1+3.+76+8.1+952:519 234 536 636 638 439 539 469 569 476:459::
:0320:1:.+8+7+5..96.5+6.+2+978.3..981+6..+7+9+5+6.+7238.7...+6+8+2+95.289+5...+6.+9.+7856..8.56+2...9+672..+9..+8:311 411 419 154 161 178 498:179::
:0320:7:....1+6+4+236.2.......142.8..9+45+3.62+98.+1.94853.+2+82.39..4+52..6.359.......2.47...2...+6:822 784:729::
:0321:6:.+489+127+3.2..6..14.....4....9.42..87....+49.+3...32..15+94....2.+4..+471..9..3.+251.49..:331 373 678 679 699:638::
:0321:6:5+8.74...+39..+3.8....4319+5..+22.7..+9.3+64.8.3.5+79+39...+72.1+8+2.+97361....5....8+1...84..7:613 122 623 664 686 693:622::
:0321:6:+8.3.14.2..+4....8...+1..385.4+7+3184..+52.+25+37+14+8.4.+8.523..3.418.+2....9..+3+1+4+8+18+249.7..:612 712 614 914 919 621 526 628 728 928 629 729 929 631 638 668 968 669 969 572 679 584 684 699:646::
:0321:5:94.+6+8....+1.82+4.93+66.21...+48....61.....1.+2.4.....75+4...7....82.1+219+5+763+8+4.+8..+1+2.97:718 336 342 542 742 747 352 552 952 558 362 662 373 374:572::
:0321:6:..23.4.1.537.9.+2+4.....+2...+3.1...3..2.259.843.8.+36.+2.5.....+3+9...+3..+28.794.9.4.73..:134 136 741 745 947 195 699:671 691::
:0321:5:+6789+51+423.+1.7....69.....1+7.7.64...+1.13..+7..49..+9..23.7..7.....28....4+7.+129+16+8753+4:421 323 523 325 432 233 235 546 846 572 385:564::
:0321:3:64..71+8.2.824...+1.1..+2+8....+5....8.7181.....6523.1..+4+9+8+9+2+8.....7.....298.4..89..26:514 326 626 327 527 733 536 337 537 944 345 953 355 575 576 377 578 783 384 684 585 685 793 596 397:329::
:0321:1:+7......5.+9...8.3.7...7.694..7.+541.+93+39482756+11..69+3.7..872.4.+3+92.9+37....+43....+7..:112 612 613 217 133 269 887 889 195 899:198::
:0321:3:2+81+95.+6+4.+4..+8...59.9564.8.+1+129465.+8.+8+4+7.+9.+5+6+2+5..27819+4+6.8.2947+595+4+7.+6..+8..+2+58+49.6:322:336::
:0322:6:.+489+127+3.2..6..14.....4....9.42..87....+49.+3...32..15+94....2.+4..+471..9..3.+251.49..:331 638 373 678 679 699:637::
:0322:8:..+34+16+2..2+6...+3+1.41.+4....36.463+7+15.+2.+2184......7+62.+41...5.3..41..+2+1.+4...+4+1.5+6732.:536 936 976:871 872 881 882::
:0322:6:.+5+92+87.+1.+218.+4+9+7.54.+7.+5.+2+8+9+58.+7+941.27.+4.+2..5....53..+4+7....6+5.7..459+7..2..7..12+59.:663 166 373 381:657 659 667::
:0322:8:3.+2..57...+5...1.42+49+172.....3...4....25..+7...9+1456+2+8..+2.+9.531..+14.27.39+5+57+3..+9...:647 947 148 648 748 749 358 359:874 894 895::
:0322:6:..+12.5....254+1....6.....1+5+2+2..1+5..7.5.....9.+1.+138...+25...+5..+21.15.+3..79..82.7+1+5.3:411 412 815 419 619 819 826 629 829 833 447 647 849 458 658 685 686:675 676::
:0322:4:.9+7.+68+2+313+6..1.7.8+8+12+3.7.697+26..+1.839.+8+6+7+3+1.+2+1.3+82..+7+6.....+6.+9.+6....5.2..8.+73.615:424 524 426 547 471 472 572 473 474 477 482 487:423::
:0322:3:.2.56+17....1+4372....6+8+2+9+4.19+58.+4......2+9785......5.9......+14..916.2+9+5+8.4....86...:313 344 648 649 364 768 769 571 591:371 372 391 392::
:0302:7:2.......3.8..3..5...34.21....12.54......9......93.86....25.69...9..2..7.4.......1::712 715 721 729 751 752 759 792 795::
:0302:9:.............1.....123.456.+1.........23...78..47.6.12...........318.764..58...23.:444 544 944 445 545 945 546 946 459 566 966:911 914 915 916 919 921 924 926 929 949 971 974 975 976 979::
:0302:9:.............1.....123.456...........27...38..36.5.42...........682.715..74...83.:714 724 445 645 745 845 945 146 646 846 946:911 914 915 916 919 921 924 926 929 941 944 949 971 974 975 976 979::
:0302:5:.4..28.7187.6...2+4.+1.+4.+7..+9..48..26..+21.4+69+3+8.86..24+1.+4...+6...+2.6..+89.4313.27+4.9+6:311 331 176 577 877 781 587:523 527 531 533 537 541 561 564 573 574::
:0302:5:7+6.+12.+9....1..9.6..8+94+6.2+1..+16+9...5.9.+7...+6.1.3.+6+1.7.+9.+72..6.9.+64.7+9+18...+9..3..+76::521 529 556 571 579 591 593 596::
:0302:8:+65+4.+2..7+12..+1.+7+5+46..+1456..+2+1+27+63.4+5...65.12.+7+5.9+27.1+6...+5812...9.+2....+15.1...+5.2.:317 331 332 997 999:822 832 837 852 897 899::
:0302:8:6+3.+97.+1.+5.+91.+65.3.+52.4+3+16....3.+9.+51.9+5.+1..+3.2+14.+3+5.7...+19+7.3.5+6+37+56..9.+1...+51+9.+73:286:829 846 849 875 893::
:0302:5:+2..197.+4..4.+2.+3+17+9+1+79.+4.3+2.8+9.+43+1+7.27.+19.2.+343+2+4+76.+9.1..2.+1+94.+7+41..+7.+29.+9.+7524.+1.:612 613 639 672 689:513 519 523 578::
:0302:7:2.+4+1.358.....2.+3+41+1.+34+856..+7+3+29+54+168..5.1.9..61+98+32+4....15.8+2..3..+24.....263....4:758 759 778 779 782 882 786 788 789 798:722 795::
:0302:4:+8.6+235.+192518.+96....3...2+8+516..+2+8...7+2.391.+68.+3+8.+5..21+5.2..+31.+6+6.7..43523+1.56+28.+7:428 434 734 735 443 447 747 448 948 764:432 467::
:0302:4:.+8+7+5..96.5+6.+2+978.3..981+6..+7+9+5+6.+7238.7+1..+6+8+2+95.289+5...+6.+9.+7856..8.56+2...9+672..+9..+8:311 411 419 471 178 179 488 498:438 468 494::
:0302:3:72+4+5+6.+8.+9+5.1+7.8+6+24.+864.2.+7+5.6.8..+5+4.4.5+92+67.8.+7+8+3+45+96..+4+76+892+5.8.+21..4+9+6+6..+2.+4.87:141 149:335 392 395::
:0400:6:+1+6+328+9754+79.4.38.+1+4+8.+1.....+6397+1+428+584+7+5....3+25+1..+8+47.+5+28.+41.9+7+9+7+4+8.5..23+16+9..+5+4+8::657 658 664 665::
:0400:1:+6+9+7.....+2..19+72.6+3..+3..679.9+12...6.+737+4+2+6.95.+8+65+7.+9.+2414+8+6+93+2+757.9.24..+6..+68.+7..+9::117 118 134 135::
:0400:2:2+3+1...+9+86+84+9.+3.+5+7+15+67918.+3.+1+2+8..3.+9.+4+9+6.8..1.7+53+1.9..+8+6+123+5784+9+385.+9.1.+79+7+4+8.+1.5.::284 286 297 299::
:0400:7:.+956.8+1.33.+1.5+9...+867..+1.+5...+3..+6..1+982.145.+6..6..+5.....45+8...77.+896..1...+91+4+7.2.::724 745 765::
:0400:8:.+9+7.41+5+2.5.67.2+4.1+42+1..+5....4+59....2+1+79+2586436.+2.+1.+9+5.+9+641+2...57+1+3+58+9+2+6+4+25+8.....9::819 839 848::
:0400:8:.92.3+814737.+1+2+4.69...+7.+93+2..+27..+3.+9.4..+9.2.+7.+9+5.4+7+123.+26+9+845+7+1+3.8.39..+52...+21.98.::839 847 857::
:0400:3:.23..49+1+5.5+7.1.4...+4+152.+6+7.+2+85+46+13+9741+98..+2+56+37+6+2+9+5+8+4+1+5+6+4+1..+7.+9+7+3+2+9+561+8+4198.4.5+6.::375 376 399::
:0400:9:.865.........4...8.9+4+8.2.......1....4+1.7....59...+5..1.+8.+9+4.5+163.+4.18+69+5.65+1.9.8.4::916 928::
:0400:5:.1..9+2..+8..+768..2.2+8..+4.......35.+29+7.7+2+4+198.3...2+7..+14+7+2316+4+9+854+58+9+2+71+3+6...+8+3+57+4+2::518 538 567::
:0400:4:..1.+2+8+7+59.8+79.+5+132+9+52173+4+8+6.2.+7..+3+4....+5..27.+7148+3+26+9+5....9.+8+1+7.+7+8.5+1+96319..+87+5+2+4::414::
:0401:3:+156+87+49+3+2.4+762.+18+528....+4+7+6....8.+5+9.73....618+8.5...+32.........+3.7.5...49....487.1::381::
:0401:9:+3617..+2+95842+395+6+7+1.5.+26+14+8+3+1.+8+5+2+6.3+4+625....+1+8.+341..+526+4..+6+1.+8+5+2+58...+2+1672+1+6+8+5+7349::976::
:0401:5:.81.2.+6...+4+2.+6..+89.+568..+24.+6+931+4+27+5+8+4+28+357916+1+7+5+6+8+9+3+245+1..+36+89223...84+6.+8+6.+2.....::524::
:0401:8:+21+67+3+8..98+9+3+65+4..+1+7..+2+19+38613.5+4+6..2+4..172+6..6.+2+8+93.1452.4+6+7...+3+6.+98+5..79..+3+21.6.::897::
:0401:5:.+6+48+3..29+8.3.2+9+4+6.1+29+64..+3.4+9.+276..36.25+139.43..98+4+2.6+9...6.3.2.+3..9+26..24+6+3+58.+9.:147 178 778 188 788 189 789:589::
:0401:4:.+85+97.26+17.+9..183...+1.+8...+9+8947..+153+15+73+49+62+823+6..849+7.+7+2...+3+8..438...+16.18.3.9.+2:225 631 236:494::
:0401:4:4+9+5..86.7+2+13...9+8.+687.....29+4.8.2....3..5..2..+5+24.6..11+7+9.+8.26.+3.8...1..5.41....8:315 335 956 985 395 795 995:436::
:0401:5:.83..7+6+12..28..5+7.6+7.1...9+8..9..+1.65......+9..36....7...9+6..3+8+57..7..92+3+62+3.6+7.14+9:244 444 345 151 851 152 254 454 554 355 855 865:556::
:0401:3:9.567.1..61.5+4...+9.849+3+15+6....8.39.....+2.+9....+987.4...+5+61.+9782.+8+7+9.+26.51..2+1857+96:249 261 165 367 369:328::
:0401:4:.7.5.+6..31+3.7.+9+586.+65.+3...+9..69....7+7.16.39..3...+752+6.....+6+78..24..+91+6.56...+54.9.:234 834 864 278:463::
:0401:9:+192..+5..+8.+4.1..5..37+5.892......+14.25.51.3.84.42.7+5....+2+6459+7+183..7.+61.+5.+5+1....67.:626 628 629 941 644 651 654 663 484 499:959::
:0401:4:7...+6418+2+8+245+7+1+6+93.618..+75+4+6..2....9.1.....6.5....6....8...742.2...+839...796....8:935 343 353 954 955 363 763 367 391:454::
:0402:9:7+2+4+956+1381+6842+3+5+9+7+9+3+5+7+1+8+6+2+45..3..+8+1..4..8+17+5..+81.+7.24..+13....+7+2...1...+85.5...7.6+1::986::
:0402:2:7+2+4+956+1381+6842+3+5+9+7+9+3+5+7+1+8+6+2+45..3..+8+1..4..8+17+5..+81.+7.24..+13....+7+2...1...+85.5...7.6+1::293::
:0402:5:.+9...+83+1.8.193..+6.+4+3.+1.6+8+953+492.+16..7+1.4.9+2.3.+28..39+412..8..+1+3.+9+8+4+3175+26+1.3......:515 745 673 495:576::
:0402:7:..+3+9+6+5+48...4312.9....+8471..+3..+1+842...625+3981...87+2+6+3+5...129+3....9+64715...3+7+6+5+8+9.+1:211 231 479:721::
:0402:5:..+8.+2316..2.8.....1..94628.8...7..9...7...8...9..3+8..1.81265..3.....4+65+8+5643+8..+1+2:711 321 323 727 927 728:559::
:0402:7:.45.+9.8.....+845...3.8.1+6+54+9+4+52.3198......+8...+86795.1...9..6.2.8...18+9....+84...69.:318 319 357 358 359 291 799:719::
:0402:1:.45.+9.8.....+845...3.8.1+6+54+9+4+52.3198......+8...+86795.1...9..6.2.8...18+9....+84...69.:318 319 357 358 359 291 799:129::
:0402:8:92..4....+76....8.+21.82..+9....+2..3..9.17.9.52.6.+97+5+2.+8.+2.+6..54.8..1...+23+5....2..96:614 616 717 718 332 638 738 439 644 645 147 148 448 393:881::
:0402:4:..+3..7+92..+2..+9837.9+7.+2.+3..6.17.3.24.+23+91.4.6..84.2.13.3....+1.+92.519.+2.+8+3.9+23.....:511 611 415 521 621 674 675 477 677 681 691:495::
:0402:2:..+1.+954+76+5..+7+4..1.7.41..9..+4..+6+27381+81+3+9+5+4+62+76273..+5+4+9..6..97.4.7.+4...+9.9+485+7..+6.:322 332 835 336 339 371 375 281 185 885 386 886 389:289::
:0402:9:6+2+7..+5..+13..7+8+152+6+1852+4673+94+3+8+1+7+9+65+2.+61+85.3.+7+57.....+18.564.817+3+813+5.7..4+7...+1+3..5:265:998::
:0402:3:96...+758..4.8.+5.6.8.+5.+62+4+7..+9..8.72...8.7.9+4..74.5..+1..+8.3..+2+57.2.+5.6.3.+351+7+2+8+694:221 151 154 359 185:349::
:0402:2:46..2..1.3..+1.9+4...91......98..41.72+1........72+539+8+164......68+1...8+1.+7.3.1..7..45:336 337 353 554 654 556 656 357 373 376 683 693:293::
:0402:5:46..2..1.3..+1.9+4...91......98..41.72+1........72+539+8+164......68+1+6..8+1.+7.3+81..7..45:525 534 336 337 353 554 654 556 656 357 373 376 293:536::
:0402:3:5+81..7+29+436+7+942+8+5+1+4+295+1+87+6+36.+8+2....9+19..8+6.7+22....+9+6.8+9.2..54+8+7+8.+672.+935+75.8+9.1+26:345 446 365:342::
:0402:7:+4...9518.+5.14..3.9...2+3+1..565..+49+2..+1+42+5..8+9....1+2..543+9+5..2...8+76+9+145..+21435.+9..:822 725 363 774 675 677:778::
:0402:2:9..3...1..415..9.+3.8+3.+9+1..7.+3+897+562....834+7...97+612+3..8....+6+13.+3+65+1.947..1...3..6:815 825 273 491 293:275::
:0402:9:4..+7.5.....1..3..8...81.6..+6259+4+7..3+147+38+256+99..+1+5624+7+3.2.71..+58+5.2..7..+7+1+45.+8.+26:312 313 915 928 338 938:932::
:0403:2:2+64+9+13587.3+1.+8+5..2.+58..6+3.+1+4+7+9+6+3..+5+8+12+6+8+54+739+3+8+5.9...659+3+1.+8..+4+84.5+6.+91+361.3+49+8.5::277::
:0403:1:29+35..+1.+4...+4.3+2+9....+29.3.5..+96.84+3+2826+93+45+1+73...+2+59..+6+8534+9+721+917+8+5264+3+4+3+2...+8+5+9::131::
:0403:4:+2+8.1.3.9..3..9...+1.+9+1...5.+3+35...7+1.26+27..+1.3.14.2+3....8+1+4+3+6+9+2+579+7+2514+3..+5+6+3+72+84+1+9::445::
:0403:2:+5+71+6+38+942.3+8...15+66.+9...8+7+3...+8..+4.7...4..+6.+1+7.4.63+598..+7...+2+8+9....2.+71595+27+8+136+4::224::
:0403:6:9+7+8...+635.6.+37+5+289325+69+8+4+7+1.....1+5.3....+5.894.5.8+3.+71.+5...2.......5.....2+974.31+5.::645::
:0403:1:.....8..7.+2+7.496+8+5.8.5.+7..+3+8+3+4.+9+65+7.7+5.+8349+6....+7.+5+8349+1+3+4+8+2+7562+7+8+6+534+1+9.4.+97+1+3+28::161::
:0403:1:89+3....7+6+7+5+6.+8.3.41+4+26+73+8+5+9+58..2...3+429.367.+56+3......+2+2+1+4+568+9+3+7+3+6+82+975+4+19+75+3+14..8::114::
:0403:1:9+3...8.+4+5..7.4..+38.843.....16+259+7+3+8+4+8+75+4+2+3...+3+4+9+18+6+5724+9+3+7518+26....3.4+5.....+6+4.9+3::182::
:0403:8:.+97+2+5.+4..5..+7.4.29.4+2..1+57.25.+4.......4+5..+29.+7+6+91+238+4+5+1+26.4.+7+53+98+5+37+21+6+4+4+7+36+1+5+982::855::
:0703:58:..+1.+4+9+2+636+3.21+7+9+4.942+63..+7.2634.+17.98.+4.+9..2...+9.+6+2.+34..7..4.9.+4..9+7631..+9+6.+2.+4.7::577 579 594 596 877 879 894 896::7
:0703:18:.+4.2..+6+7.7.+2.6+3+459.+6.4+7.8+2.47+6+9..+23+512+8+5+37+964+5+396+4+2+71+8..4+7..+3+96.+9...+65+4+7+65+7+39+418+2::175 176 183 875 876 881::7
:0703:47:+6+84+3+7+921+5+3+1+98+25.+6.+52+7+4+1+69+8+3.359+8+4+6+2.2.+8+56+13.+9.+9+6+2+37.+5896+1+74+8+5+3+2..36+5+2.9..+5+21+93..6::487 489 491 787 789 791::7
:0703:78:5.+4+2+193.+61+3+6748+259..2+5+36+41...3695..+1+6+5.+4.+1+9+3..+1+9+8.+3+564+3+2.+1+64.9+5..135.+6...6+5+9+8.1.3::741 742 759 841 842 859::7
:0703:27:+172+4+956+3+8+43+582+67+1+9+86+9.+1.+254.+136+8+4+9.+5+6...+5+91+4.9+5+4+17.+8..+3..+941+5...+4+1+5+6+8+39.596.+3.+48+1::259 269 278 759 778::7
:0703:45:+7+9845+2+3+16+6.3+7+81.+9+2.+1+2.+3.87.+3+7.+2+6+5.48+82.1+437+6..6.+89+7.+2+39+8..14+23+71.7.2+8.5.2...+7..+8+1::567::7
:0703:58:.+2+6.9+3.+4+1+9+45+2+8+1+6+37.+3+1+6.42.+9+1+57+3+2+94+6+8+39+4168+7+2+5+68+2+4..+913+4+63.1..9+25+1+89+4+2+37+62+7+9.361.+4::514::7
:0703:23:+2+1+9.+7.+6+58+876+2+1+5+4394+35+9+6+81+27+5+9+46.7+81.3+82+1+5+9+7+4+6+7+618...9+5+9.+8+5.6.+7+1+153+7+8+2+9+64+6.+7.+9158.::375::7
:0703:59:9....7.4145+1.+3+8+7.2+6.+71+4..3.+5+9+63+842+1+7+17+4...+35+8..25+71..+4.4.+7.6+1+2.7+1.+4+2+3.8626.8+1.+4+73:573 973:536 936::7
:0703:46:+58+3...+7.+2+2+71...+5.649+6+75+28+3132+9+5.7+1..+647.8.25+3+8+1+53+2..791.8.7.+9257.....3..+9......1+7:448 484 684 884 485 685 486 686 886 488 494 694 495 396 496 696:695::7
:0703:27:.+3.5+41.98+91+8+3.6+54.+54.+98.3+1+68+53.+691...+7.+8+5..+3+9+4+297+1+36+85.+85.3.+96+1.9.6.+8.5+336.1+95+8..:283 783:287 787::7
:0703:49:.+49+356+7+2.+57..2..3.32...75...+3.+5.268+77+5..+6+3..2.627...+5+3+6+852+7+9+314+41+3+68+5+27+9+2+9+713+48+6+5:824 127:454 954::7
:0703:69:.4+38..21..+1+2....+85.98.+1+243.+2+351...+78+1+8.723+5+4.4+7..+851+2+3+921..+876+43+5+7..+1+8+9+2+864+2+79+35+1::624 924::11
:0703:18:+4.325+6.+9+7+2+56+9.7+4+3.7+9...+3562+93.5..+62.5...+6..+79.6..+29.4+5649..+5+2+13+3..1+9+47.+6.+7.+6329.+4:143 843 145 845 854 864:152 852::11
:0703:56:9+8+36+1+57+241+652749+3+8.4.+3+9+8.+1.+3.+416+2+8.9.2+9+8+3+7+14.8+1.+459+3.+2.+9.+7+4+1.8+3..89234.14+31+5+86+2+97:581:681::11
:0703:67:4....18.......7..4..52.43.9.3945218.2.1938..58547169325..8432.1312679..8.48125..3:612 621 622 625 528 628:712::7
:0703:25:16..493787..36.1.44.3718.6921...4.3...4.......768....19314567826.7.83..58..9..6.3:222 522 223 523 543 552 554 256 556 557 567 296:267::7
:0703:27:.3846.19.196.8.4.3.45193.866823.49.13749.186.9518.6.34863.1954.51964.3.8427538619::228 728::7
:0703:19:9.12....5........8873.6542.41.7......89.21..3.37.5.1..124..7.36798...2..356.428.7:621 124 924 964 974 184:128 189 928::7
:0703:16:32..897..5.9.72138.87.3529675.89.3.289.327..1.325.49872.89.3.7...375.829975248613:413 414 472 181:681::7
:0803:14:6..+9+5..7...+9.2.....58.+31...+1+64+3+8+9+7+52...1+7+59+46597+24+6..892+54+1+76+8+3...5+6+2.....68+93...::417 427 437 489 499::
:0803:36:1+6+9..58.+4+8+54.+1.+9.+2+37+2+48+965+14+97...12.+2.+59+7.+4+86+6.+8.+4.7+9.+7.31..+5+495.+6.9+43+1+7+9+4+1+357+268::315 346 356 366::
:0803:29:.+6.5924.+8.+5416+8.9.+982+7+43+6+5+16+7.3...8+4.....47+6.....7+61.5..7.....6.3.+6.+7...5.6..1...::959 977 987 997::
:0803:26:.5.1.2...+4+73+9+8+52+161..+4.+7+5.95+142+96+378..68+7315+4+3+8+7+54+16+9+28.5.+24..+1..+1.+5+9...7...18..+5::611 672 682 692::
:0803:45:91+5..67+3+2+3+8+7+5+1+2.+9.+6+42+9+73+58+1.317...+2.+2.+6.+3+1.+7...862.+31.+8+63+1+94+25+7..9+2+681+43+1+2+4+35+7+869::447 449 461::
:0803:57:+3+418596+725+7+8+6+32..4+9+6+27+1+4.3..+569.+82.3.89..+3.+6..+3+4..+6..+9+6+1.+2+9+5...+8+2.+467..149.3+81.+2+6::757 767 779::
:0803:14:7+6+2.3.5+84+59+86+2+4137...+7+58...8+2+5+3.+7...4+3+9..5+7.2+67149+2+3+5+8..6.7.+8.5.8+7+5.+6..+3.+5....671::174 176 181::
:0803:79:...1+92576+6+27+4+8+5+93+1951+7+6+3+8+2+4..+2+63.+7+8+5..+5+2.84+6....54.21.+5+398+2+61472..+9..+3+58.1.3+5.+6+9+2:751:755 761 762::
:0803:57:9.8.+4.+6.+3.6+3+9....4+1+5+4+6+3892+7.4+5+1+63..+968+9...4+31+3.1+4+8+9..68+1+72+9+6+34+5+49+23+157+6+8+5+3+68+7419+2::518::
:0803:39:...+71+3.5+2.15+429..3.+2.+5864...87.+5+21.+49....+1...+1.......6+596+2.....2+3+8+1+65+7494+7+13+98+265::938::
:0803:59:+9251+3+4+6+8+7+8..+6+59+43+24+3+67+289+5+1+64..+1.8..15.4+8..+6.+3.+8.6..+14+5..+2+7+6+3+48263+84+1...+78+439+51+26::549::
:0803:36:7+5.2+9...+4+9+2+4.+7...+5..15..79247+5.....+8.92..7.+561...52..+72+4+718+9+563.+1..3+5..95+3+9.+2...1:824 146 664 684 887 888:316 326 336 344 354 364::
:0803:89:5+2+39...67.+91.+7..5+3.745+3.....+6+9.2.+5...+4+26+5...8+78+5+4193+2+6+4+5..+9.+6.+221..6+5...93+6...7.5:816 826 836 138 148 158 176 487 196 896 498:817 827 837 878 888 898::
:0803:34:.2..1......+9.+2+657..6.3..+1+2.+2.........+7...34.259.+74+2.187..5+94....+5.2+789419..+6+3+1...:811 313 413 813 814 916 918 422 433 833 343 643 349 649 949 653 372 373 673:317 318 319 321 322::
"""


# -- every reglib case of these techniques ----------------------------------------------------------

CODES = {
    "0302": "jellyfish", "0310": "finned X-wing", "0311": "finned swordfish", "0312": "finned jellyfish",
    "0320": "sashimi X-wing", "0321": "sashimi swordfish", "0322": "sashimi jellyfish", "0400": "skyscraper",
    "0401": "2-string kite", "0402": "empty rectangle", "0403": "turbot fish", "0500": "simple colouring",
    "0501": "simple colouring", "0502": "multi-colouring", "0503": "multi-colouring", "0703": "remote pairs",
    "0803": "W-wing",
}


def reglib_case(line: str) -> tuple[State, str, tuple[int, ...], set[tuple[int, int]], Grid]:
    """A reglib line ``:code:digits:givens:deleted:eliminations:...``: the position (givens and
    placed digits, ``+`` marking the placed; candidates those no peer holds, less the deleted
    ones, written digit-row-column), the digits of the pattern and the expected eliminations."""
    _, code, digits, givens, deleted, eliminations, *_ = line.split(":")
    values = [0 if ch == "." else int(ch) for ch in givens.replace("+", "")]
    grid = Grid(values)
    masks = grid.candidate_masks()
    for token in deleted.split():
        d, r, c = map(int, token)
        masks[(r - 1) * 9 + c - 1] &= ~bits(d)
    expected = {((int(t[1]) - 1) * 9 + int(t[2]) - 1, int(t[0])) for t in eliminations.split()}
    return State(GEO, list(values), masks), code, tuple(map(int, digits)), expected, grid


@pytest.mark.parametrize("line", REGLIB.strip().splitlines(), ids=lambda line: line[1:line.index(":", 6)])
def test_reglib(line):
    state, code, digits, expected, grid = reglib_case(line)
    name = CODES[code]
    found = [s for s in steps(FINDERS[name], state) if set(digits) <= set(s.digits)]
    assert expected in [set(s.eliminations) for s in found], (name, sorted(named(expected)))
    assert all(s.technique == name for s in found)
    result = sat.solve(grid)
    if result.status is sat.Status.UNIQUE:
        for finder in FINDERS.values():
            for step in finder(state):
                assert_sound(step, result.solution)


# -- real puzzles, other shapes ---------------------------------------------------------------------


def _hard_steps_checked(grid: Grid) -> set[str]:
    """The stepper's steps on one puzzle agree with its solution; the techniques used."""
    solution = sat.solve(grid).solution
    used = set()
    for step in Stepper(grid, uniqueness=False).run():
        used.add(step.technique)
        assert_sound(step, solution)
        if step.technique in FINDERS:
            assert step.rating >= 3.4, f"{grid.format()}: {step}"
    return used


def test_stepper_is_sound_on_hard_puzzles():
    """Every step of the stepper on hard puzzles agrees with the SAT solution; the techniques of
    this file take part."""
    grids = parse_puzzles((SHIPPED / "bench_sudoku_magictour_top1465_100.txt").read_text())[:40]
    grids += parse_puzzles((SHIPPED / "bench_sudoku_sudoku_exchange_diabolical_200.txt").read_text())[:80]
    used = set().union(*parallel_map(_hard_steps_checked, grids))
    # No "empty rectangle": at the same 4.3 the grouped turbot fish, listed first as in SE, finds
    # those eliminations (an empty rectangle is one); its own tests are the literature's above.
    assert {"finned X-wing", "sashimi X-wing", "finned swordfish", "W-wing", "2-string kite",
            "grouped turbot fish"} <= used, used


@pytest.mark.parametrize(("size", "diagonal", "level"), [(4, False, "trivial"), (6, False, "basic"), (9, True, "basic"), (9, True, "extreme"),
                                                         (16, False, "basic"), (16, True, "trivial")])
def test_other_shapes(size, diagonal, level):
    """At every position the stepper meets on a generated puzzle, from the first, every finder
    runs and whatever it finds agrees with the solution."""
    made = generate(level, 7, size=size, diagonal=diagonal)
    stepper = Stepper(made.puzzle, uniqueness=False)
    while True:
        for finder in FINDERS.values():
            for step in finder(stepper.state):
                assert_sound(step, made.solution)
        step = stepper.next_step()
        if step is None:
            break
        stepper.apply(step)
    assert stepper.solved


def test_catalogue():
    table = {t.name: (t.level, t.rating) for t in TECHNIQUES}
    assert {name: table[name] for name in FINDERS} == {
        "jellyfish": (EXTREME, 5.2), "finned X-wing": (EXTREME, 3.4), "sashimi X-wing": (EXTREME, 3.5),
        "finned swordfish": (EXTREME, 4.0), "sashimi swordfish": (EXTREME, 4.1), "finned jellyfish": (EXTREME, 5.4),
        "sashimi jellyfish": (EXTREME, 5.5), "skyscraper": (EXTREME, 4.0), "2-string kite": (EXTREME, 4.1),
        "turbot fish": (EXTREME, 4.2), "empty rectangle": (EXTREME, 4.3), "simple colouring": (FIENDISH, 6.6),
        "multi-colouring": (FIENDISH, 6.8), "W-wing": (FIENDISH, 6.8), "remote pairs": (FIENDISH, 6.6)}
    assert not any(t.uniqueness for t in TECHNIQUES if t.name in FINDERS)
