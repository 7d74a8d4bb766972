"""m,n,k tic-tac-toe: the text format, impossible boards, the rules and known game values."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_games.engine.search import TT, SearchLimits, search
from tui_games.engine.tictactoe import BoardError, O, TicTacToe, X


def solve(pos: TicTacToe):
    pos = pos.copy()
    pos.symmetry = True
    result = search(pos, SearchLimits(depth=pos.empties), TT, rng=random.Random(0))
    assert result.exact
    return result


# -- text format -----------------------------------------------------------------------------------


@st.composite
def played(draw):
    rows, cols = draw(st.integers(3, 7)), draw(st.integers(3, 7))
    k = draw(st.integers(3, min(rows, cols)))
    pos = TicTacToe(rows, cols, k, draw(st.booleans()))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, rows * cols))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


@settings(max_examples=200, deadline=None)
@given(pos=played())
def test_parse_format_round_trip(pos):
    text = pos.format()
    again = TicTacToe.parse(text, k=pos.k, misere=pos.misere)
    assert again.format() == text
    assert again.bits == pos.bits and again.turn == pos.turn
    assert again.outcome() == pos.outcome()
    assert again.legal_moves() == pos.legal_moves()


def test_parse_accepts_lower_case_and_defaults_k_to_the_shorter_side():
    pos = TicTacToe.parse("x..o/..../....")
    assert (pos.rows, pos.cols, pos.k) == (3, 4, 3)
    assert pos.format() == "X..O/..../...."
    assert pos.turn == X


@pytest.mark.parametrize(
    "board, message",
    [
        ("", "empty board"),
        ("X../../...", "row 2 has 2 cells, row 1 has 3"),
        ("X?./.../...", "row 1, column 2: '?' is not X, O or '.'"),
        ("XXX/.../...", "impossible board: 3 X and 0 O"),
        ("OO./.../...", "impossible board: 0 X and 2 O"),
        ("XXX/OOO/...", "both X and O have a line"),
        ("X./../..", "outside 3x3 to 7x7"),
        ("......../......../......../......../......../......../......../........", "outside 3x3 to 7x7"),
    ],
)
def test_bad_boards_say_what_is_wrong(board, message):
    with pytest.raises(BoardError, match=message.replace("?", r"\?").replace(".", r"\.")):
        TicTacToe.parse(board)


def test_bad_k_and_side_to_move():
    with pytest.raises(BoardError, match="k=4 must be from 3 to 3"):
        TicTacToe.parse(".../.../...", k=4)
    with pytest.raises(BoardError, match="X cannot be to move with 1 X and 0 O"):
        TicTacToe.parse("X../.../...", to_move="X")
    with pytest.raises(BoardError, match="not X or O"):
        TicTacToe.parse(".../.../...", to_move="Z")
    assert TicTacToe.parse(".../.../...", to_move="o").turn == O


# -- rules -----------------------------------------------------------------------------------------


def play(pos: TicTacToe, *moves: int) -> TicTacToe:
    for m in moves:
        pos.push(m)
    return pos


@pytest.mark.parametrize(
    "moves, line",
    [
        ((0, 3, 1, 4, 2), "row"),
        ((0, 1, 3, 2, 6), "column"),
        ((0, 1, 4, 2, 8), "diagonal"),
        ((2, 0, 4, 1, 6), "anti-diagonal"),
    ],
)
def test_a_line_wins_and_in_misere_it_loses(moves, line):
    normal = play(TicTacToe(3, 3, 3), *moves)
    assert normal.outcome().winner == X, line
    misere = play(TicTacToe(3, 3, 3, misere=True), *moves)
    assert misere.outcome().winner == O, line
    assert normal.legal_moves() == [] and misere.legal_moves() == []
    assert normal.winning_line() != 0


def test_k_in_a_row_on_a_bigger_board():
    pos = TicTacToe(5, 5, 4)
    play(pos, 0, 5, 1, 6, 2, 7)
    assert pos.outcome() is None
    pos.push(3)  # a1..d1
    assert pos.outcome().winner == X
    assert pos.legal_moves() == []


def test_full_board_without_a_line_is_a_draw():
    pos = TicTacToe.parse("XOX/XOO/OX.")
    assert pos.turn == X
    pos.push(8)
    assert pos.outcome().winner is None and pos.legal_moves() == []


def test_pop_restores_the_running_game_and_a_parsed_finished_one():
    pos = TicTacToe.parse("XX./OO./...")
    pos.push(2)
    assert pos.outcome().winner == X
    pos.pop()
    assert pos.outcome() is None and pos.format() == "XX./OO./..."
    done = TicTacToe.parse("XXX/OO./...")
    assert done.outcome().winner == X and done.legal_moves() == []


def test_move_names():
    pos = TicTacToe(3, 4, 3)
    assert pos.move_name(0) == "a1" and pos.move_name(7) == "d2"
    assert pos.parse_move("d2") == 7 == pos.parse_move("1,3")
    with pytest.raises(BoardError):
        pos.parse_move("z9")


# -- game values -----------------------------------------------------------------------------------


def test_3x3_is_a_draw():
    result = solve(TicTacToe(3, 3, 3))
    assert result.value == 0


def test_3x3_misere_is_a_draw():
    result = solve(TicTacToe(3, 3, 3, misere=True))
    assert result.value == 0


def test_4x4_three_in_a_row_is_a_first_player_win():
    result = solve(TicTacToe(4, 4, 3))
    assert result.value == 1


@pytest.mark.slow
def test_4x4_four_in_a_row_is_a_draw():
    result = solve(TicTacToe(4, 4, 4))
    assert result.value == 0


def test_dead_draw_is_seen():
    pos = TicTacToe.parse("XOX/XOO/OX.")
    assert pos.is_dead_draw()
    assert not TicTacToe(3, 3, 3).is_dead_draw()
