"""The big endgame tables as built on disk (`tui-games checkers build-db --pieces 6`), checked
where they are: each test is skipped unless ``TUI_GAMES_CHECKERS_TABLES`` names a data
directory holding ``checkers-db/`` with classes of five or six pieces (CI builds four pieces
in seconds; tests/engine/test_checkers_egdb.py and test_checkers_probe.py cover those).
With a build in progress the classes already written are checked.

Sampled positions of the largest classes: every entry agrees with its moves (a win iff some
move leads to a loss for the opponent, a loss iff every move leads to a win, looked up in
the tables a ply on); where the engine's own search, without the tables, proves a result,
the tables say the same; and the engine with the tables plays won positions out to the win
before the 40-move rule.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest
from checkers_support import tally_proven

from tui_games.data.checkers_db import open_db
from tui_games.engine.checkers.egdb import DRAW, LOSS, WIN, EndgameDB, PieceClass, class_size, position_of
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.notation import format_fen
from tui_games.engine.checkers.position import CheckersPosition, generate, play
from tui_games.engine.search import SearchLimits

ENV = "TUI_GAMES_CHECKERS_TABLES"


@pytest.fixture(scope="module")
def tables() -> EndgameDB:
    home = os.environ.get(ENV)
    if not home:
        pytest.skip(f"{ENV} is not set (a data directory with checkers-db/ of 5-6 pieces)")
    db = open_db(6, Path(home))
    if db.pieces < 4 or not big_classes(db):
        pytest.skip(f"no tables of five or six pieces under {home}")
    return db


def big_classes(db: EndgameDB) -> list[PieceClass]:
    """The stored classes of five and six pieces, six first."""
    return sorted((cls for cls in db.tables if sum(cls) >= 5), key=lambda cls: (-sum(cls), cls))


def sample(db: EndgameDB, cls: PieceClass, count: int, rng: random.Random, value: int | None = None):
    """Up to ``count`` positions of the class (of that value, if given) that are not over."""
    n = class_size(cls)
    out = []
    for _ in range(200 * count):
        if len(out) == count:
            break
        entry = rng.randrange(2 * n)
        masks = position_of(cls, entry % n)
        if masks is None:
            continue
        position = CheckersPosition(format_fen(*masks, entry // n))
        if position.outcome() is None and (value is None or db.probe(position) == value):
            out.append(position)
    return out


def test_sampled_entries_agree_with_their_moves(tables):
    rng = random.Random(11)
    seen = Counter()
    for cls in big_classes(tables)[:12]:
        for position in sample(tables, cls, 25, rng):
            value = tables.probe(position)
            children = []
            for move in generate(position.black, position.white, position.kings, position.turn):
                black, white, kings, turn = play(position.black, position.white, position.kings, position.turn, move)
                children.append(tables.probe_masks(black, white, kings, turn) if black and white else LOSS)
            assert None not in children, position.fen()  # a class's successors are all built before it
            expected = WIN if LOSS in children else DRAW if DRAW in children else LOSS
            assert value == expected, position.fen()
            seen[value] += 1
    assert seen[WIN] and seen[LOSS] and sum(seen.values()) >= 100


def test_the_engine_search_agrees_where_it_proves_a_result(tables):
    """A search without the tables, to a fixed depth, never contradicts them."""
    rng = random.Random(12)
    engine = Engine()
    proven = Counter()
    for cls in big_classes(tables)[:8]:
        for position in sample(tables, cls, 6, rng):
            value = tables.probe(position)
            result = engine.search(position, SearchLimits(depth=12), rng=random.Random(0))
            tally_proven(value, result.score, position.fen(), proven)
    assert proven[WIN] + proven[LOSS] >= 5


def test_won_positions_with_men_are_played_out_to_the_win(tables):
    """Both sides played by the engine with the tables, a fixed depth a move: the side the
    tables say wins does win, before the 40-move rule or a repetition can draw."""
    rng = random.Random(13)
    with_men = [cls for cls in big_classes(tables) if cls[0] + cls[2]]
    games = [pos for cls in with_men[:4] for pos in sample(tables, cls, 1, rng, WIN)]
    assert len(games) >= 2
    for start in games:
        position = start.copy()
        winner = position.turn
        engines = [Engine(table_bits=18, database=tables) for _ in range(2)]
        plies = 0
        while position.outcome() is None and plies < 300:
            position.push(engines[position.turn].search(position, SearchLimits(depth=10),
                                                        rng=random.Random(plies)).move)
            plies += 1
        outcome = position.outcome()
        assert outcome is not None and outcome.winner == winner, (start.fen(), outcome, plies)
