"""Checkers notation: FEN parse/format (bare, in a tag, ranges, kings, errors), PDN move
text, whole PDN games read and written (tags, comments, variations, results, set-up
positions), round trips over random legal games (hypothesis), and the ballot list."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import (
    BALLOTS_FILE,
    Ballot,
    choose_ballots,
    parse_ballots,
)
from tui_games.engine.checkers.notation import (
    START_FEN,
    CheckersError,
    format_fen,
    parse_fen,
    parse_move_text,
)
from tui_games.engine.checkers.pdn import read_pdn, read_pdn_game, result_for, write_pdn
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.game import Outcome

# -- FEN ------------------------------------------------------------------------------------------


def test_start_fen():
    pos = CheckersPosition()
    assert pos.fen() == START_FEN == "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert CheckersPosition("start").fen() == START_FEN
    assert pos.from_start


@pytest.mark.parametrize("text", [
    "W:W18,K22:B3,K9",
    "W:B3,K9:W18,K22",  # either colour list first
    '[FEN "W:W18,K22:B3,K9"]',
    ' [FEN "W:B3,K9:W18,K22"] ',
    "w:w18,k22:b3,k9.",  # case and a final full stop
    "W:W 18, K22 :B3,K9",
])
def test_fen_forms(text):
    assert CheckersPosition(text).fen() == "W:W18,K22:B3,K9"


def test_fen_ranges_and_empty_lists():
    assert parse_fen("B:W21-32:B1-12") == parse_fen(START_FEN)
    black, white, kings, turn = parse_fen("W:WK29-32:B")
    assert white.bit_count() == 4 and kings == white and black == 0 and turn == 1
    assert format_fen(black, white, kings, turn) == "W:WK29,K30,K31,K32:B"


@pytest.mark.parametrize("text, fragment", [
    ("", "empty"),
    ("X:W21:B1", "side to move 'X'"),
    ("B:W21:X1", "'X1' does not start with W or B"),
    ("B:W21,33:B1", "square 33 is not 1-32"),
    ("B:W21,2:B1,2", "square 2 is listed twice"),
    ("B:W21:W22", "White list appears twice"),
    ("B:W21,abc:B1", "'abc' is not a square"),
    ("B:W21:B1:W3", "fields"),
    ("B:W12-9:B1", "runs backwards"),
    ("B:W1:B5", "White man on 1 stands on its crowning row"),
    ("B:W5:B30", "Black man on 30"),
    ('[FEN "B:W21:B0"]', "square 0"),
])
def test_fen_errors_name_the_bad_part(text, fragment):
    with pytest.raises(CheckersError) as info:
        CheckersPosition(text)
    message = str(info.value)
    assert fragment in message and "\n" not in message
    assert message.startswith("bad FEN")


def test_move_text():
    assert parse_move_text("11-15") == ((11, 15), False)
    assert parse_move_text("15x24x31") == ((15, 24, 31), True)
    assert parse_move_text("15X24:31!") == ((15, 24, 31), True)
    for bad in ("11", "11-15-19", "a-b", "11-15x19", "0-4", "11--15", ""):
        with pytest.raises(CheckersError):
            parse_move_text(bad)


# -- random legal games ----------------------------------------------------------------------------


def random_game(choices: list[int], start: str | None = None) -> CheckersPosition:
    pos = CheckersPosition(start)
    for c in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(moves[c % len(moves)])
    return pos


GAMES = st.lists(st.integers(min_value=0, max_value=1000), max_size=120)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES)
def test_fen_round_trip_over_random_games(choices):
    pos = random_game(choices)
    again = CheckersPosition(pos.fen())
    assert (again.black, again.white, again.kings, again.turn) == (pos.black, pos.white, pos.kings, pos.turn)
    assert again.key() == pos.key()
    assert again.fen() == pos.fen()
    # Every legal move reads back from its own text.
    for move in pos.legal_moves():
        assert pos.parse_move(str(move)) == move


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GAMES, st.booleans())
def test_pdn_round_trip_over_random_games(choices, from_setup):
    start = None
    if from_setup:
        # A set-up position: some plies into another random game, White possibly to move.
        start = random_game(choices[:7]).fen()
    pos = random_game(choices, start)
    text = write_pdn(pos, event="test", white="W", black="B", date="2026.01.02")
    game = read_pdn_game(text)
    assert game.moves == pos.history
    assert game.start_fen == pos.start_fen
    assert game.result == result_for(pos.outcome())
    replay = game.position()
    assert replay.fen() == pos.fen() and replay.outcome() == pos.outcome()
    assert game.tags["GameType"] == "21" and game.tags["Event"] == "test"
    assert ("FEN" in game.tags) == (not pos.from_start)


# -- PDN games -------------------------------------------------------------------------------------------


def test_write_pdn_layout():
    pos = CheckersPosition()
    for text in ("11-15", "23-19", "8-11", "22-17"):
        pos.push_text(text)
    text = write_pdn(pos, event="Club night", date="2026.05.01", white="Ann", black="Bob")
    lines = text.splitlines()
    assert lines[:6] == ['[Event "Club night"]', '[Date "2026.05.01"]', '[White "Ann"]', '[Black "Bob"]',
                         '[Result "*"]', '[GameType "21"]']
    assert "SetUp" not in text and "FEN" not in text
    assert lines[-1] == "1. 11-15 23-19 2. 8-11 22-17 *"


def test_write_pdn_from_a_setup_with_white_to_move():
    pos = CheckersPosition("W:W18,K22:B3,K9")
    pos.push_text("18-14")
    pos.push_text("9x18x25")  # the king takes 14 and 22
    text = write_pdn(pos)
    assert '[SetUp "1"]' in text and '[FEN "W:W18,K22:B3,K9"]' in text
    assert text.splitlines()[-1] == "1... 18-14 2. 9x18x25 1-0"
    assert read_pdn_game(text).position().fen() == pos.fen()


def test_results():
    assert result_for(None) == "*"
    assert result_for(Outcome(0, "no moves")) == "1-0"
    assert result_for(Outcome(1, "no pieces")) == "0-1"
    assert result_for(Outcome(None, "repetition")) == "1/2-1/2"
    won = CheckersPosition("B:W18:B14")
    won.push_text("14x23")
    assert won.outcome().winner == 0
    assert write_pdn(won).splitlines()[-1] == "1. 14x23 1-0"
    with pytest.raises(CheckersError):
        write_pdn(won, result="3-0")


def test_read_liberal_pdn():
    text = """
[Event "Liberal"]
[Black "B"]
[White "W"]
[Result "1-1"]
{ a comment before the moves [not a tag] }
1.11-15 {the Old Faithful} 23-19 ; a comment to the end of the line
2. 8-11 (2. 9-14 22-17) 22-17 $1
3... 9-13!? 4. 17-14 10x17 5.21x14 1-1
"""
    # 3... is read as a move number whatever it says; the moves themselves decide.
    game = read_pdn_game(text)
    assert [str(m) for m in game.moves] == ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17",
                                              "21x14"]
    assert game.result == "1/2-1/2"
    assert game.tags["Event"] == "Liberal"


def test_read_short_capture_and_several_games():
    first = CheckersPosition("B:W10,19,27:B6")
    first.push_text("6x15x24x31")
    text = write_pdn(first, event="one").replace("6x15x24x31", "6x31")
    second = CheckersPosition()
    second.push_text("9-14")
    text += "\n" + write_pdn(second, event="two")
    games = read_pdn(text)
    assert [g.tags["Event"] for g in games] == ["one", "two"]
    assert str(games[0].moves[0]) == "6x15x24x31"
    assert games[0].result == "1-0"


@pytest.mark.parametrize("text, fragment", [
    ("1. 11-15 22-18 2. 15-19", "move 2: move '15-19' is not legal here"),
    ("1. 11-15 24-19 2. 15x24 28x19 3. 9-14 hello", "'hello' is not a move"),
    ("1. 11-15 * 23-19", "comes after the result"),
    ('[FEN "B:W21:Q1"]\n1. 1-5', "bad FEN"),
    ("1. 11-15 23-19 2. 15-11", "move 2: move '15-11' is not legal here"),
])
def test_pdn_errors_name_the_move(text, fragment):
    with pytest.raises(CheckersError) as info:
        read_pdn(text)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_pdn_error_in_a_later_game_names_it():
    good = write_pdn(CheckersPosition(), event="ok")
    with pytest.raises(CheckersError, match=r"PDN game 2 \(line \d+\), move 1"):
        read_pdn(good + '\n[Event "bad"]\n1. 12-17 *\n')
    with pytest.raises(CheckersError, match="no game"):
        read_pdn("   \n")


# -- ballots -----------------------------------------------------------------------------------------


def test_shipped_ballots():
    ballots = parse_ballots(read_puzzles(BALLOTS_FILE))
    assert len(ballots) == 174
    assert sum(b.standard for b in ballots) == 157
    first = ballots[0]
    assert first == Ballot(1, ("9-13", "21-17", "5-9"), True)
    assert str(first) == "ballot 001 (9-13 21-17 5-9)"
    pos = first.position()
    assert pos.ply == 3 and pos.turn == 1
    drawn = choose_ballots(ballots, 10, seed=1)
    assert drawn == choose_ballots(ballots, 10, seed=1)
    assert len({b.number for b in drawn}) == 10 and all(b.standard for b in drawn)
    with pytest.raises(ValueError):
        choose_ballots(ballots, 200)


def test_ballot_errors():
    with pytest.raises(CheckersError, match="line 2"):
        parse_ballots("# header\n001 9-13 21-17 standard\n")
    with pytest.raises(CheckersError, match="line 1: move '9-14'"):
        parse_ballots("001 9-13 21-17 9-14 standard\n")


def test_random_games_replay_through_pdn_text():
    rng = random.Random(3)
    for _ in range(5):
        pos = CheckersPosition()
        while pos.outcome() is None and pos.ply < 300:
            pos.push(rng.choice(pos.legal_moves()))
        game = read_pdn_game(write_pdn(pos))
        assert game.position().fen() == pos.fen()
        assert game.result == result_for(pos.outcome())
