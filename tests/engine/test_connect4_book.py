"""The 12-ply opening book of bitbully-databases, read by tui_games.engine.connect4.book:
the format facts the reader relies on, the conversion to Pons' scores (against Pons' own
scores and against our solver), mirror images, and missing or damaged files."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tui_games.data.connect4_book import BOOK_ENV, default_book, installed_book_path, open_book
from tui_games.engine.connect4 import book as book_module
from tui_games.engine.connect4.book import (
    EXPECTED_RECORDS,
    RECORD,
    BookError,
    OpeningBook,
    book_key,
    to_score,
)
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().splitlines()
    return [(moves, int(score)) for moves, score in (line.split() for line in lines if not line.startswith("#"))]


@pytest.fixture(scope="module")
def book() -> OpeningBook:
    found, problem = default_book()
    assert found is not None, problem
    return found


def mirrored(moves: str) -> str:
    return "".join(str(8 - int(c)) for c in moves)


def test_the_file_is_the_one_the_reader_knows(book):
    assert book.count == EXPECTED_RECORDS
    assert installed_book_path().stat().st_size == EXPECTED_RECORDS * RECORD
    # Keys sorted as signed integers; the values are exactly the ones to_score knows.
    rng = random.Random(1)
    indexes = sorted(rng.sample(range(book.count), 2000))
    keys = [book_module._KEY.unpack_from(book.data, i * RECORD)[0] for i in indexes]
    assert keys == sorted(keys) and min(keys) < 0 < max(keys)
    assert all(to_score(book._value_at(i)) is not None for i in indexes)


def test_value_conversion():
    assert to_score(0) == 0
    assert to_score(71) == 1 and to_score(97) == 14  # a win with the 21st disc, with the 8th
    assert to_score(-70) == -1 and to_score(-98) == -15
    assert to_score(72) is None and to_score(-71) is None and to_score(5) is None


def test_key_encoding_matches_the_packages_own():
    bitbully = pytest.importorskip("bitbully_databases")
    # The package's documented example board (X wins, value 71), bottom row last.
    board = [[0] * 7, [0, 0, 0, 1, 0, 0, 0], [0, 1, 0, 2, 0, 0, 0], [0, 2, 0, 1, 0, 2, 0],
             [0, 1, 0, 2, 0, 1, 0], [0, 2, 0, 1, 0, 2, 0]]
    pos = Connect4.parse("422446622446")
    ref = bitbully.BitBullyDatabases
    assert book_key(pos.current, pos.mask) == ref._to_huffman(board)
    assert book_key(pos.current, pos.mask, mirror=True) == ref._to_huffman(ref._mirror_horiz(board))


def test_pons_scores_of_every_12_disc_position_in_his_test_sets(book):
    cases = load("connect4_pons_12_discs.txt")
    assert len(cases) == 353
    wrong = [(m, s, book.score(p.current, p.mask)) for m, s in cases
             for p in [Connect4.parse(m)] if book.score(p.current, p.mask) != s]
    assert not wrong


def test_our_solvers_scores_of_random_12_disc_positions(book):
    # Scored by scripts/connect4_book_sample.py with the solver alone (no book).
    cases = load("connect4_12_discs.txt")
    assert len(cases) == 200
    assert {s > 0 for _, s in cases} == {True, False} and any(s == 0 for _, s in cases)
    for moves, score in cases:
        pos = Connect4.parse(moves)
        assert book.score(pos.current, pos.mask) == score, moves
        # The mirror image has the same score, whichever of the two the file stores.
        image = Connect4.parse(mirrored(moves))
        assert book.score(image.current, image.mask) == score, mirrored(moves)


@pytest.mark.slow
def test_the_sample_file_is_what_the_solver_says():
    # The oracle file is made by a script: solve it again (all of it with the compiled
    # solver; a seeded share in pure Python, which takes about 3 s a position).
    solver = Solver()
    cases = load("connect4_12_discs.txt")
    if not solver.compiled:
        cases = random.Random(15).sample(cases, 8)
    for moves, score in cases:
        assert solver.solve(Connect4.parse(moves)).score == score, moves


def test_positions_the_book_leaves_out(book):
    # The side to move can win at once: not stored, so None (the solver knows these itself).
    rng = random.Random(5)
    absent = 0
    while absent < 20:
        pos = Connect4()
        while pos.moves < 12 and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is None and any(pos.is_winning_move(c) for c in pos.legal_moves()):
            assert book.score(pos.current, pos.mask) is None, pos.format()
            absent += 1


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(BookError) as caught:
        open_book(tmp_path / "nothing.dat")
    message = str(caught.value)
    assert "\n" not in message and "nothing.dat" in message and "cannot read" in message


def test_a_file_of_the_wrong_size_is_refused(tmp_path):
    short = tmp_path / "short.dat"
    short.write_bytes(b"\0" * 5000)
    with pytest.raises(BookError, match="5,000 bytes, expected 21,004,495"):
        open_book(short)


def test_a_damaged_file_is_refused(tmp_path, book):
    # The right size with the records shuffled out of order, then with a value changed.
    damaged = tmp_path / "damaged.dat"
    shutil.copyfile(Path(book.source), damaged)
    data = bytearray(damaged.read_bytes())
    data[: 5 * 1000] = bytes(reversed(data[: 5 * 1000]))
    damaged.write_bytes(bytes(data))
    with pytest.raises(BookError, match="is damaged"):
        open_book(damaged)
    good = Path(book.source).read_bytes()
    pos = Connect4.parse("422446622446")
    data = bytearray(good)
    offset = _record_of(book, pos)
    assert data[offset + 4] == 71
    data[offset + 4] = 73  # the documented position's value changed from 71
    damaged.write_bytes(bytes(data))
    with pytest.raises(BookError, match="documented value"):
        open_book(damaged)


def _record_of(book: OpeningBook, pos: Connect4) -> int:
    key = book_key(pos.current, pos.mask)
    lo, hi = book._bucket(key >> book_module.BUCKET_SHIFT)
    index = book._lower_bound(key, lo, hi)
    return index * RECORD


def test_the_environment_can_name_another_file_or_none(monkeypatch, tmp_path):
    default_book.cache_clear()
    try:
        monkeypatch.setenv(BOOK_ENV, "")
        assert default_book() == (None, f"no opening book ({BOOK_ENV} is empty)")
        default_book.cache_clear()
        monkeypatch.setenv(BOOK_ENV, str(tmp_path / "gone.dat"))
        found, problem = default_book()
        assert found is None and "gone.dat" in problem and "\n" not in problem
    finally:
        default_book.cache_clear()


# -- the search to the book's frontier ------------------------------------------------------------


@pytest.fixture(scope="module")
def booked(book) -> Solver:
    return Solver(1_000_003, book=book)


def test_the_empty_board_from_the_book(booked):
    scores, stats = booked.analyze_run(Connect4())
    assert scores == [-2, -1, 0, 1, 0, -1, -2]
    assert stats.algorithm == "opening book" and stats.nodes == 0
    result = booked.solve(Connect4())
    assert result.score == 1 and result.stats.algorithm == "opening book"


def test_the_shallow_table_is_the_search_to_the_frontier(book):
    # Every position with at most four discs is in the derived table, mirror images
    # folded; a seeded share of it is searched again without the table.
    assert book.shallow_discs == 4 and len(book.shallow_scores) == 719
    frontier = Solver(1_000_003, book=open_book(Path(book.source), shallow=False))
    rng = random.Random(4)
    for _ in range(12):
        pos = Connect4()
        for _ in range(rng.randrange(5)):
            pos.push(rng.choice(pos.legal_moves()))
        known = book.exact(pos.current, pos.mask, pos.moves)
        result = frontier.solve(pos)
        assert known == result.score, pos.format()
        assert result.stats.algorithm == "search to the book" or pos.moves == 0


def pons_samples(limit: int = 12) -> list[tuple[str, int]]:
    cases = []
    for name in ("Test_L1_R1", "Test_L1_R2", "Test_L1_R3"):
        path = Path(__file__).parents[2] / "puzzles" / f"bench_connect4_{name}.txt"
        cases += [(m, int(s)) for m, s in (line.split() for line in path.read_text().splitlines())
                  if len(m) <= limit]
    return cases


def test_search_to_the_book_gives_pons_scores_on_the_samples(booked):
    cases = pons_samples()
    assert len(cases) == 236 and min(len(m) for m, _ in cases) == 2
    wrong = [(m, s) for m, s in cases if booked.solve(Connect4.parse(m)).score != s]
    assert not wrong


@pytest.mark.slow
def test_search_to_the_book_gives_pons_scores_on_every_early_position(booked):
    # All 1,963 positions with 1 to 11 discs of his three "beginning" sets.
    cases = load("connect4_pons_1_to_11_discs.txt")
    assert len(cases) == 1963
    wrong = [(m, s) for m, s in cases if booked.solve(Connect4.parse(m)).score != s]
    assert not wrong


@pytest.mark.parametrize("moves", ["4", "44", "4453", "2252", "1234567", "44444432", "12345671234", "32164625"])
def test_analysis_agrees_with_the_score_and_the_children(booked, moves):
    pos = Connect4.parse(moves)
    scores = booked.analyze(pos)
    assert max(s for s in scores if s is not None) == booked.solve(pos).score
    for col, score in enumerate(scores):
        if pos.is_winning_move(col):
            assert score == (43 - pos.moves) // 2
        elif pos.can_play(col):
            child = pos.copy()
            child.push(col)
            assert score == -booked.solve(child).score
    root = booked.root(pos)
    assert root.best == [c for c in (3, 2, 4, 1, 5, 0, 6) if scores[c] == root.score]


@pytest.mark.slow
@pytest.mark.parametrize("moves", ["12345671234", "43443555216"])
def test_analysis_with_the_book_is_the_solvers(booked, moves):
    # 11 discs: every child has 12, which the book answers at once and the solver alone
    # takes a second or more to prove.
    pos = Connect4.parse(moves)
    assert booked.analyze(pos) == Solver(1_000_003).analyze(pos)


def test_the_principal_variation_through_the_book(booked, book):
    # From four discs the line runs to the book's 12-disc frontier, where the book holds
    # the same score for the same side to move (the first player's, with an even count).
    for moves in ("4453", "2252", "71"):
        pos = Connect4.parse(moves)
        score = booked.solve(pos).score
        line = booked.principal_variation(pos, score)
        for col in line:
            pos.push(col)
        if pos.outcome() is None:
            assert pos.moves == 12
            sign = 1 if len(moves) % 2 == 0 else -1
            assert book.score(pos.current, pos.mask) == sign * score, (moves, line)
        else:
            assert (pos.outcome().winner == len(moves) % 2) == (score > 0)


def test_the_source_names_what_answered(booked):
    twelve = Connect4.parse("422446622446")
    booked.reset()
    result = booked.solve(twelve)
    assert result.score == 1 and result.nodes == 0 and result.stats.algorithm == "opening book"
    # Its value is in the book, but which columns keep it is proven past the book.
    root = booked.root(twelve)
    assert root.score == 1 and root.stats.nodes > 0 and root.stats.algorithm == "exact solver"
    # Eleven discs: every column leads to a 12-disc position, each looked up.
    _, stats = booked.analyze_run(Connect4.parse("42244662244"))
    assert stats.nodes == 0 and stats.algorithm == "opening book"
    _, stats = booked.analyze_run(Connect4.parse("4224466"))
    assert stats.nodes > 0 and stats.algorithm == "search to the book"
