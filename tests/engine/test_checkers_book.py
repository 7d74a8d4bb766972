"""The opening book: read and checked, played by the strong player and the engine mode
without a search, and left alone when it has no move."""

from __future__ import annotations

import pytest

from tui_games.engine.checkers.book import OpeningBook, book_lines
from tui_games.engine.checkers.players import make_player
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.checkers.protocol import EngineSession

AFTER_11_15 = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
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


def test_a_copy_is_a_book_of_its_own():
    book = OpeningBook.parse(TEXT)
    copy = book.copy()
    copy.update(f"{AFTER_11_15} 22-18\n")
    assert copy.entries[AFTER_11_15] == "22-18" and book.entries[AFTER_11_15] == "23-19"


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


def test_the_shipped_book_covers_ballot_positions_with_legal_moves():
    from tui_games.data.resources import puzzle_path, read_puzzles
    from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
    from tui_games.engine.checkers.book import BOOK_FILE

    assert puzzle_path(BOOK_FILE).stat().st_size < 200_000
    text = read_puzzles(BOOK_FILE)
    book = OpeningBook.parse(text)  # every move legal in its position, or ValueError
    ballots = [b.position() for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]
    after_ballot = {p.fen() for p in ballots}
    one_later = set()
    for position in ballots:
        for move in position.legal_moves():
            position.push(move)
            one_later.add(position.fen())
            position.pop()
    assert len(book) >= 100
    assert set(book.entries) <= after_ballot | one_later
    assert len(set(book.entries) & after_ballot) >= 50


def test_the_book_is_searched_with_the_evaluation_of_the_engine_it_serves(monkeypatch):
    from checkers_support import load_script

    from tui_games.engine.checkers import engine

    script = load_script("checkers_build_book")
    made = []

    class Recording(engine.Engine):
        def __init__(self, **kwargs):
            made.append(kwargs.get("evaluation"))
            super().__init__(**kwargs)

    monkeypatch.setattr(script, "Engine", Recording)
    move, note, ranked = script.search(AFTER_11_15, 0.05)
    assert made == [engine.STRONG_EVALUATION] and move in {str(m) for m in ranked}
    # A change to the network sets an interrupted build's searches aside, as one to the search does.
    assert "_net_data.py" in script.ENGINE_SOURCES and "network.py" in script.ENGINE_SOURCES
