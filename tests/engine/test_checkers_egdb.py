"""The checkers endgame databases: the class index against counts computed independently
(and the published ones), the compiled builder against its pure-Python twin, every sampled
entry against its own moves (a win iff some move leads to a loss for the opponent, a loss
iff all lead to wins), the colour symmetry, and the engine's own search on sampled positions."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from math import comb

import pytest
from checkers_support import tally_proven

from tui_games.engine.checkers.bits import FULL, row_col, square_of
from tui_games.engine.checkers.egdb import (
    DRAW,
    INVALID,
    LOSS,
    NEGATE,
    WIN,
    EndgameDB,
    class_order,
    class_size,
    classes_with,
    index_of,
    position_count,
    position_of,
    twin,
    value_at,
)
from tui_games.engine.checkers.egdb_build import COMPILED, Builder, build_class_python
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.notation import format_fen
from tui_games.engine.checkers.position import CheckersPosition, generate, play
from tui_games.engine.search import SearchLimits

# Positions of exactly N pieces (either side to move counted once; one side may have none),
# as published with Chinook's databases (Schaeffer et al., "Solving Checkers", 2005).
PUBLISHED = {1: 120, 2: 6_972, 3: 261_224, 4: 7_092_774, 5: 148_688_232, 6: 2_503_611_964}

needs_c = pytest.mark.skipif(not COMPILED, reason="the compiled builder (_egdb) is not built")


def all_classes(n: int) -> list[tuple[int, int, int, int]]:
    """Every class of n pieces, one side possibly empty (as the published counts have it)."""
    return [(bm, b - bm, wm, n - b - wm) for b in range(n + 1) for bm in range(b + 1) for wm in range(n - b + 1)]


@pytest.fixture(scope="module")
def db() -> EndgameDB:
    """Every class of up to 4 pieces (3 without the compiled builder)."""
    builder = Builder()
    for cls in class_order(4 if COMPILED else 3):
        if cls not in builder.db:  # its colour twin answers for it
            builder.build(cls)
    return builder.db


def every_class(db: EndgameDB) -> list[tuple[int, int, int, int]]:
    """The classes the tables cover, colour twins included."""
    return [cls for cls in class_order(4) if cls in db]


def flipped(black: int, white: int, kings: int) -> tuple[int, int, int]:
    """The board turned round with the colours swapped."""
    def turn(mask: int) -> int:
        return int(f"{mask:032b}"[::-1], 2)
    return turn(white), turn(black), turn(kings)


def sample(cls, count: int, rng: random.Random):
    """Up to ``count`` (black, white, kings, turn) positions of the class."""
    n = class_size(cls)
    out = []
    for entry in rng.sample(range(2 * n), min(count, 2 * n)):
        pos = position_of(cls, entry % n)
        if pos is not None:
            out.append((*pos, entry // n))
    return out


# -- the index --------------------------------------------------------------------------------------


@pytest.mark.parametrize("pieces", sorted(PUBLISHED))
def test_position_counts_match_the_published_ones(pieces):
    assert sum(position_count(cls) for cls in all_classes(pieces)) == PUBLISHED[pieces]


def brute_count(cls) -> int:
    """Positions of a class with one side to move, by placing pieces square by square."""
    bm, bk, wm, wk = cls
    black_men = [s for s in range(1, 33) if s <= 28]
    white_men = [s for s in range(1, 33) if s >= 5]
    free = 32 - bm - wm
    kings_ways = comb(free, bk) * comb(free - bk, wk)
    return sum(kings_ways for b in combinations(black_men, bm)
               for _ in combinations([s for s in white_men if s not in b], wm))


@pytest.mark.parametrize("cls", [(2, 0, 2, 0), (1, 1, 2, 0), (3, 0, 1, 1), (0, 2, 0, 2), (2, 1, 1, 1)])
def test_position_count_agrees_with_placing_the_pieces(cls):
    assert position_count(cls) == brute_count(cls)


@pytest.mark.parametrize("cls", classes_with(2) + classes_with(3))
def test_every_position_has_one_index(cls):
    seen = Counter()
    for i in range(class_size(cls)):
        pos = position_of(cls, i)
        if pos is not None:
            assert index_of(*pos) == i
            seen[pos] += 1
    assert len(seen) == position_count(cls)
    assert max(seen.values()) == 1


def test_index_of_random_positions_round_trips():
    rng = random.Random(7)
    for _ in range(2000):
        squares = rng.sample(range(32), rng.randint(2, 6))
        black = white = kings = 0
        for s in squares:
            bit = 1 << s
            colour = rng.randrange(2)
            row = s // 4
            king = rng.randrange(2) or (colour == 0 and row == 7) or (colour == 1 and row == 0)
            if colour == 0:
                black |= bit
            else:
                white |= bit
            if king:
                kings |= bit
        if not black or not white:
            continue
        bm, bk, wm, wk = ((black & ~kings).bit_count(), (black & kings).bit_count(),
                          (white & ~kings).bit_count(), (white & kings).bit_count())
        assert position_of((bm, bk, wm, wk), index_of(black, white, kings)) == (black, white, kings)


def test_class_order_puts_every_dependency_first():
    order = class_order(5)
    where = {cls: i for i, cls in enumerate(order)}
    for cls, i in where.items():
        bm, bk, wm, wk = cls
        crowned = [(bm - 1, bk + 1, wm, wk)] if bm else []
        crowned += [(bm, bk, wm - 1, wk + 1)] if wm else []
        for dep in crowned:
            assert where[dep] < i
        for dep in where:
            if sum(dep) < sum(cls):
                assert where[dep] < i


# -- the builders -----------------------------------------------------------------------------------


@needs_c
def test_compiled_and_python_builders_agree_on_small_classes(db):
    python = Builder(compiled=False)
    for cls in class_order(3):
        if cls in db.tables:
            assert python.build(cls) == db.tables[cls], cls
    # A four-piece class (one man against three: captures, crownings, men stepping back).
    python_db = EndgameDB(db.tables, compiled=False)
    assert build_class_python(python_db, (1, 0, 3, 0)) == db.tables[(1, 0, 3, 0)]


@needs_c
def test_compiled_and_python_probes_agree(db):
    rng = random.Random(4)
    for cls in every_class(db):
        for black, white, kings, turn in sample(cls, 50, rng):
            value = db.probe_python(black, white, kings, turn)
            assert value in (WIN, LOSS, DRAW)
            assert db.probe_masks(black, white, kings, turn) == value
    for masks in [(1, 1, 0, 0), (1 << 31, 1, 0, 0), (1, 2, 0, 0), (0, 2, 0, 0), (1 << 40, 1, 0, 0)]:
        assert db.probe_masks(*masks) == db.probe_python(*masks)
    assert type(db.capsule()).__name__ == "PyCapsule"


def test_python_builder_refuses_a_class_without_its_dependencies():
    with pytest.raises(LookupError):
        build_class_python(EndgameDB(compiled=False), (0, 1, 0, 2))


# -- the values -------------------------------------------------------------------------------------


def value_from_moves(db: EndgameDB, black: int, white: int, kings: int, turn: int) -> int:
    moves = generate(black, white, kings, turn)
    children = [db.probe_masks(*play(black, white, kings, turn, m)) for m in moves]
    assert None not in children
    if LOSS in children:
        return WIN
    if DRAW in children:
        return DRAW
    return LOSS


def test_every_sampled_entry_agrees_with_its_moves(db):
    rng = random.Random(1)
    checked = Counter()
    for cls in every_class(db):
        for black, white, kings, turn in sample(cls, 150, rng):
            value = db.probe_masks(black, white, kings, turn)
            assert value == value_from_moves(db, black, white, kings, turn), format_fen(black, white, kings, turn)
            checked[value] += 1
    assert checked[WIN] > 1000 and checked[LOSS] > 1000 and checked[DRAW] > 1000


@needs_c
def test_a_colour_twin_built_from_its_own_moves_agrees_with_probes_through_its_twin(db):
    """Only one class of each twin pair is stored; built from its own moves, the other one
    holds, entry for entry, what the probe answers by turning the board round."""
    for cls in every_class(db):
        if cls in db.tables:
            continue
        assert twin(cls) in db.tables
        table = db.compiled_tables.build(cls)
        n = class_size(cls)
        for entry in range(0, 2 * n, 7):
            pos = position_of(cls, entry % n)
            if pos is not None:
                expected = value_at(table, entry)
                assert db.probe_masks(*pos, entry // n) == expected
                assert db.probe_python(*pos, entry // n) == expected


def test_values_do_not_depend_on_the_colours(db):
    rng = random.Random(2)
    for cls in every_class(db):
        for black, white, kings, turn in sample(cls, 100, rng):
            assert db.probe_masks(black, white, kings, turn) == db.probe_masks(*flipped(black, white, kings), 1 - turn)


@pytest.mark.parametrize("cls", [(0, 2, 0, 1), (1, 0, 1, 1), (0, 1, 2, 0)])
def test_forward_iteration_gives_the_same_table(db, cls):
    """An independent computation of a class: only forward moves (THE move generator),
    re-valued pass after pass until nothing changes, the rest drawn."""
    n = class_size(cls)
    children = {}
    for entry in range(2 * n):
        pos = position_of(cls, entry % n)
        if pos is not None:
            turn = entry // n
            children[entry] = [play(*pos, turn, m) for m in generate(*pos, turn)]
    value = {}
    changed = True
    while changed:
        changed = False
        for entry, kids in children.items():
            if entry in value:
                continue
            seen = []
            for black, white, kings, turn in kids:
                if (black, white, kings) and class_of_masks(black, white, kings) == cls:
                    seen.append(value.get(turn * n + index_of(black, white, kings)))
                else:
                    seen.append(db.probe_masks(black, white, kings, turn))
            if LOSS in seen:
                value[entry] = WIN
            elif all(v == WIN for v in seen):
                value[entry] = LOSS
            else:
                continue
            changed = True
    for entry in children:
        assert db.probe_masks(*position_of(cls, entry % n), entry // n) == value.get(entry, DRAW), entry


def class_of_masks(black: int, white: int, kings: int) -> tuple[int, int, int, int]:
    return ((black & ~kings).bit_count(), (black & kings).bit_count(),
            (white & ~kings).bit_count(), (white & kings).bit_count())


def test_probe_outside_the_tables(db):
    assert db.probe(CheckersPosition()) is None
    assert db.probe(CheckersPosition("B:W:B1")) == WIN
    assert db.probe(CheckersPosition("W:W:B1")) == LOSS
    assert db.probe_masks(1, 1, 0, 0) is None  # two pieces on one square
    assert db.probe_masks(1 << 40, 1, 0, 0) is None
    assert db.pieces == (4 if COMPILED else 3)
    assert NEGATE[WIN] == LOSS and NEGATE[DRAW] == DRAW and INVALID == 0


def test_the_engine_search_agrees_where_it_proves_a_result(db):
    """Where the engine's own search proves a win or a loss, the database says the same;
    it never proves one in a database draw, and it proves many of the database's wins."""
    rng = random.Random(3)
    engine = Engine()
    proven = Counter()
    classes = [cls for cls in every_class(db) if sum(cls) == 3] + [(0, 2, 0, 2), (1, 1, 1, 1), (2, 0, 1, 1)]
    for cls in classes:
        for black, white, kings, turn in sample(cls, 12, rng):
            value = db.probe_masks(black, white, kings, turn)
            position = CheckersPosition(format_fen(black, white, kings, turn))
            if position.outcome() is not None:
                continue
            result = engine.search(position, SearchLimits(depth=8))
            tally_proven(value, result.score, position.fen(), proven)
    assert proven[WIN] >= 20 and proven[LOSS] >= 5


def test_square_helpers_used_by_the_tests_agree_with_the_board():
    # flipped() turns square s into 33 - s: the board's point symmetry.
    for s in range(1, 33):
        row, col = row_col(s)
        assert square_of(7 - row, 7 - col) == 33 - s
    assert flipped(1, 0, 0) == (0, 1 << 31, 0)
    assert FULL == (1 << 32) - 1


@needs_c
def test_the_capsule_probe_answers_as_probe_masks(db):
    """The C-level probe a compiled search calls, reached here through ctypes."""
    import ctypes

    probe_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32,
                                  ctypes.c_uint32, ctypes.c_int)

    class Api(ctypes.Structure):
        _fields_ = [("probe", probe_type), ("self", ctypes.c_void_p)]

    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    capsule = db.capsule()
    api = Api.from_address(get_pointer(capsule, b"tui_games.engine.checkers._egdb.probe"))
    rng = random.Random(5)
    for cls in [(0, 2, 0, 2), (1, 1, 1, 1), (2, 0, 1, 0)]:
        for black, white, kings, turn in sample(cls, 100, rng):
            assert api.probe(api.self, black, white, kings, turn) == db.probe_masks(black, white, kings, turn)
    assert api.probe(api.self, 0xFFF, 0xFFF00000, 0, 0) == INVALID  # twelve a side: not covered
