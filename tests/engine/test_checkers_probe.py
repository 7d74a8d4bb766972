"""The search with an endgame database: the compiled core (probing through _egdb's capsule,
in C) and the Python core (probing through EndgameDB) agree node for node; a won position is
played out to the win; a position in the database keeps its result; no database changes
nothing."""

from __future__ import annotations

import random

import pytest

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers.core import DB_LOW, DB_WIN, conversion
from tui_games.engine.checkers.egdb import LOSS, WIN, EndgameDB, class_order
from tui_games.engine.checkers.egdb_build import COMPILED as EGDB_COMPILED
from tui_games.engine.checkers.egdb_build import Builder
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition, play
from tui_games.engine.search import WIN_BOUND, SearchLimits

compiled = pytest.mark.skipif(not (core_module.COMPILED and EGDB_COMPILED), reason="the C extensions were not built")


@pytest.fixture(scope="module")
def db() -> EndgameDB:
    """Every class of up to 4 pieces (3 without the compiled builder: seconds, not minutes)."""
    builder = Builder()
    for cls in class_order(4 if EGDB_COMPILED else 3):
        if cls not in builder.db:
            builder.build(cls)
    return builder.db


def _summary(engine: Engine, fen: str, depth: int) -> tuple:
    result = engine.search(CheckersPosition(fen), SearchLimits(depth=depth), rng=random.Random(0))
    return str(result.move), result.score, [str(m) for m in result.pv], result.stats.nodes


# Five and six pieces (the search reaches the database after captures), and four (the root
# is in it).
POSITIONS = [
    "B:W22,K30,31:B10,K14",
    "W:W21,K28:B6,10,K14,K23",
    "B:W18,27,K32:B9,10,K2",
    "W:WK5:BK27,K32",
    "B:W8,K1:BK31,K30",
]


@compiled
@pytest.mark.parametrize("fen", POSITIONS)
def test_compiled_and_python_cores_agree_with_a_database(db, fen):
    fast = Engine(compiled=True, table_bits=12, database=db)
    slow = Engine(compiled=False, table_bits=12, database=db)
    assert fast.capsule is not None  # the C search probes in C
    assert _summary(fast, fen, 7) == _summary(slow, fen, 7)


def test_a_won_leaf_scores_progress():
    """Among won positions the conversion score prefers fewer pieces, crowned and advanced
    men, and kings close to the loser's pieces; the compiled core's twin agrees."""
    black, white = 1 << 13 | 1 << 21, 1 << 8  # Black men on 14 and 22 against a White man on 9
    base = conversion(black, white, 0, 0)
    assert conversion(black, 0, 0, 0) > base  # a capture
    assert conversion(1 << 17 | 1 << 21, white, 0, 0) > base  # 14 advanced to 18
    # A man on 26 crowns on 30, even with the new king far from the prey.
    assert conversion(1 << 13 | 1 << 29, white, 1 << 29, 0) > conversion(1 << 13 | 1 << 25, white, 0, 0)
    near, far = conversion(1 << 12, white, 1 << 12, 0), conversion(1 << 31, white, 1 << 31, 0)
    assert near > far  # a king on 13 beside 9, against one on 32
    # White's men advance towards square 1: a White man on 9 is further on than one on 21.
    assert conversion(1 << 8, 1 << 31, 0, 1) > conversion(1 << 20, 1 << 31, 0, 1)


def test_a_database_win_scores_between_the_evaluation_and_a_proven_win(db):
    # 3 v 2: Black's capture 14x23 leaves two kings against a man, which the database wins.
    engine = Engine(compiled=False, table_bits=12, database=db)
    result = engine.search(CheckersPosition("B:W18,K30:BK14,K1,K3"), SearchLimits(depth=3), rng=random.Random(0))
    assert DB_LOW <= result.score <= DB_WIN + 1000 < WIN_BOUND


@pytest.mark.parametrize(("fen", "depth"), [
    ("W:WK5:BK27,K32", 6), ("B:WK1:BK31,K30", 6), ("B:W28:BK1,K2", 6), ("W:WK1:BK22,K26,K31", 6),
    # Men on the board: the search once shuffled kings in these (all "won") until a draw by
    # repetition or the 40-move rule, before a won leaf scored progress (core.conversion).
    ("B:W19,21:B13,22", 6), ("B:WK2,21:BK9,20", 10),
])
def test_a_won_position_is_played_out_to_the_win(db, fen, depth):
    """Both sides played by the engine with the database: the winning side wins, under
    the 40-move rule (the loser defends as well as the search can)."""
    pos = CheckersPosition(fen)
    winner = pos.turn if db.probe(pos) == WIN else 1 - pos.turn
    engines = [Engine(table_bits=16, database=db) for _ in range(2)]
    plies = 0
    while pos.outcome() is None and plies < 300:
        result = engines[pos.turn].search(pos, SearchLimits(depth=depth), rng=random.Random(plies))
        pos.push(result.move)
        plies += 1
    outcome = pos.outcome()
    assert outcome is not None and outcome.winner == winner, (fen, outcome, plies)


@pytest.mark.parametrize("fen", ["B:W8,K1:BK31,K30", "W:WK5:BK27,K32", "B:WK1:BK31,K30"])
@pytest.mark.parametrize("depth", [1, 4])
def test_a_root_in_the_database_keeps_its_result(db, fen, depth):
    pos = CheckersPosition(fen)
    value = db.probe(pos)
    engine = Engine(compiled=False, table_bits=12, database=db)
    assert engine.verdict(pos) == {WIN: 1, LOSS: -1}.get(value, 0)
    move = engine.search(pos, SearchLimits(depth=depth), rng=random.Random(1)).move
    child = play(pos.black, pos.white, pos.kings, pos.turn, move)
    after = db.probe_masks(*child) if child[0] and child[1] else LOSS
    if value != LOSS:
        assert after == {WIN: LOSS, LOSS: WIN}.get(value, value)


@pytest.mark.parametrize("compiled_core", [False, pytest.param(True, marks=compiled)])
def test_no_database_changes_nothing(compiled_core):
    fen = "W:W21,K28:B6,10,K14,K23"
    bare = Engine(compiled=compiled_core, table_bits=12)
    empty = Engine(compiled=compiled_core, table_bits=12, database=EndgameDB())
    assert empty.probe_pieces == 0 and empty.verdict(CheckersPosition(fen)) is None
    assert _summary(bare, fen, 7) == _summary(empty, fen, 7)
