"""The opening book: read and checked, played by the strong player and the engine mode
without a search, and left alone when it has no move."""

from __future__ import annotations

import random

import pytest

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers.book import OpeningBook, book_lines
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.players import make_player
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.checkers.protocol import EngineSession
from tui_games.engine.search import SearchLimits

AFTER_11_15 = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
# The book's moves against a search of this depth: at most MARGIN (hundredths of a man) worse.
DEPTH, MARGIN = 12, 40
TEXT = f"""# a test book
{AFTER_11_15} 23-19  # made up for the test
"""


def test_the_book_reads_its_lines_and_refuses_bad_ones():
    book = OpeningBook.parse(TEXT)
    assert len(book) == 1 and list(book_lines(TEXT)) == [(AFTER_11_15, "23-19", "made up for the test")]
    after = CheckersPosition()
    after.push_text("11-15")
    assert str(book.move(after)) == "23-19"
    assert book.move(CheckersPosition()) is None
    with pytest.raises(ValueError, match="line 1"):
        OpeningBook.parse("B:W21:B1\n")
    with pytest.raises(ValueError, match="11-16"):
        OpeningBook.parse(f"{AFTER_11_15} 11-16\n")  # not White's move


def test_the_strong_player_plays_the_book_and_the_levels_do_not():
    book = OpeningBook.parse(TEXT)
    position = CheckersPosition(AFTER_11_15)
    decision = make_player("strong", seed=1, seconds=0.5, book=book).choose(position)
    assert str(decision.move) == "23-19" and decision.note == "opening book" and decision.result is None
    level = make_player("level2", seed=1, book=book).choose(position)
    assert level.result is not None  # searched


def test_the_engine_mode_answers_from_the_book():
    session = EngineSession(seed=1, book=OpeningBook.parse(TEXT))
    assert session.handle("new") == "ok" and session.handle("move 11-15") == "ok"
    assert session.handle("go 0.5") == "bestmove 23-19 eval 0 depth 0 seldepth 0 nodes 0 cpu 0.000 book"
    assert session.handle("move 23-19") == "ok"
    assert session.handle("go depth 2").startswith("bestmove ") and not session.handle("go depth 2").endswith("book")


def past_forced(position: CheckersPosition) -> CheckersPosition:
    """The first position from ``position`` on with a choice of moves (as the book's
    builder plays forced moves through)."""
    position = position.copy()
    while position.outcome() is None and len(position.legal_moves()) == 1:
        position.push(position.legal_moves()[0])
    return position


def test_the_shipped_book_covers_ballot_positions_with_legal_moves():
    from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
    from tui_games.engine.checkers.book import BOOK_FILE
    from tui_games.resources import puzzle_path, read_puzzles

    assert puzzle_path(BOOK_FILE).stat().st_size < 200_000
    text = read_puzzles(BOOK_FILE)
    book = OpeningBook.parse(text)  # every move legal in its position, or ValueError
    ballots = [past_forced(b.position()) for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]
    after_ballot = {p.fen() for p in ballots}
    one_later = set()
    for position in ballots:
        for move in position.legal_moves():
            after = position.copy()
            after.push(move)
            one_later.add(past_forced(after).fen())
    assert len(book) >= 100
    assert set(book.entries) <= after_ballot | one_later
    assert len(set(book.entries) & after_ballot) >= 150  # every standard ballot, but for a lost race


@pytest.mark.skipif(not core_module.COMPILED, reason="the compiled core is not built (the Python core is too slow here)")
def test_the_shipped_books_moves_hold_up_to_a_search():
    """A sample of the shipped book's moves, each against a fixed-depth search of today's
    engine: the move scores within MARGIN of the search's best (the book searched deeper,
    so small differences either way are expected). After a change of the evaluation this
    fails until the book is rebuilt (`scripts/checkers_build_book.py`, one command)."""
    from tui_games.checkers_book import shared_book

    book = shared_book()
    entries = sorted(book.entries.items())
    random.Random(7).shuffle(entries)
    worst = []
    for fen, text in entries[:16]:
        position = CheckersPosition(fen)
        best = Engine().search(position, SearchLimits(depth=DEPTH), rng=random.Random(0))
        move = position.parse_move(text)
        if best.move == move:
            continue
        position.push(move)
        booked = -Engine().search(position, SearchLimits(depth=DEPTH - 1), rng=random.Random(0)).score
        worst.append((best.score - booked, fen, text, str(best.move)))
    assert max(worst, default=(0,))[0] <= MARGIN, max(worst)
