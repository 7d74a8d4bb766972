"""Checkers rules: the board numbering, the one move generator (perft against the published
table and hand-counted positions with kings and long multi-jumps), compulsory capture,
crowning that ends a capture, push/pop, draws by repetition, the 40-move rule and
agreement, and the helpers the screen uses to enter a move square by square."""

from __future__ import annotations

import random

import pytest

from tui_games.engine.checkers.bits import (
    DOWN_LEFT,
    DOWN_RIGHT,
    JUMP,
    STEP,
    UP_LEFT,
    UP_RIGHT,
    distance,
    row_col,
    square_of,
    step_mask,
)
from tui_games.engine.checkers.notation import START_FEN, CheckersError
from tui_games.engine.checkers.perft import divide, perft
from tui_games.engine.checkers.position import (
    QUIET_LIMIT,
    CheckersPosition,
    generate,
    has_capture,
    has_step,
    zobrist_key,
)

PERFT_START = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


def names(position: CheckersPosition) -> list[str]:
    return sorted(str(m) for m in position.legal_moves())


# -- the board ---------------------------------------------------------------------------------------


def test_numbering_is_the_standard_one():
    # Square 1 at the top, in the second column; 5 starts the second row at the left edge.
    assert row_col(1) == (0, 1) and row_col(4) == (0, 7)
    assert row_col(5) == (1, 0) and row_col(29) == (7, 0) and row_col(32) == (7, 6)
    for sq in range(1, 33):
        assert square_of(*row_col(sq)) == sq
    assert square_of(0, 0) is None and square_of(8, 1) is None
    # Neighbours: 9 steps to 13 and 14, 12 only to 16 (edge); 18 has all four.
    i = 9 - 1
    assert {STEP[DOWN_LEFT][i] + 1, STEP[DOWN_RIGHT][i] + 1} == {13, 14}
    assert STEP[DOWN_RIGHT][12 - 1] == -1 and STEP[DOWN_LEFT][12 - 1] + 1 == 16
    assert sorted(STEP[d][18 - 1] + 1 for d in (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT)) == [14, 15, 22, 23]
    # Jumps go two steps in one direction: 10 over 15 to 19.
    assert JUMP[DOWN_RIGHT][10 - 1] == (15 - 1, 19 - 1)
    assert distance(29, 4) == 7 and distance(18, 18) == 0


def test_shift_masks_agree_with_the_tables():
    for d in (UP_LEFT, UP_RIGHT, DOWN_LEFT, DOWN_RIGHT):
        for i in range(32):
            expected = 0 if STEP[d][i] < 0 else 1 << STEP[d][i]
            assert step_mask(1 << i, d) == expected


# -- perft -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", range(1, 9))
def test_perft_from_the_start(depth):
    assert perft(CheckersPosition(), depth) == PERFT_START[depth - 1]


@pytest.mark.slow
def test_perft_from_the_start_depth_9():
    assert perft(CheckersPosition(), 9) == PERFT_START[8]


def test_divide_adds_up():
    rows = divide(CheckersPosition(), 5)
    assert len(rows) == 7
    assert sum(n for _, n in rows) == PERFT_START[4]
    assert {str(m): n for m, n in divide(CheckersPosition(), 3)}["9-13"] == 48


def test_perft_of_two_lone_kings_counted_by_hand():
    # White king in the single corner 29 (one neighbour: 25); Black king on 4 (one: 8).
    # 29-25; 4-8; then the king on 25 has 21, 22, 29, 30; the king on 8 has 3, 4, 11, 12.
    pos = CheckersPosition("W:WK29:BK4")
    assert [perft(pos, d) for d in range(1, 5)] == [1, 1, 4, 16]


def test_a_lone_king_moves_in_four_directions():
    assert names(CheckersPosition("B:W32:BK18")) == ["18-14", "18-15", "18-22", "18-23"]


def test_men_move_forward_only():
    assert names(CheckersPosition("B:W32:B18")) == ["18-22", "18-23"]
    assert names(CheckersPosition("W:W18:B1")) == ["18-14", "18-15"]


def test_long_multi_jump_with_two_branches():
    # The man on 6 takes 10 (landing on 15), then either 18 and 26 or 19 and 27, both
    # ending on 31, where it is crowned.
    pos = CheckersPosition("B:W10,18,19,26,27:B6")
    moves = pos.legal_moves()
    assert sorted(str(m) for m in moves) == ["6x15x22x31", "6x15x24x31"]
    by_path = {str(m): m for m in moves}
    assert by_path["6x15x22x31"].captures == (10, 18, 26)
    assert by_path["6x15x24x31"].captures == (10, 19, 27)
    assert all(m.crowns for m in moves)
    pos.push(by_path["6x15x22x31"])
    assert pos.piece_at(31) == "B" and pos.piece_at(6) is None
    assert [pos.piece_at(s) for s in (10, 18, 26)] == [None, None, None]
    assert pos.fen() == "W:W19,27:BK31"
    # White's men on 19 and 27 step up: 19-15, 19-16, 27-23, 27-24 — or must they take?
    # 27 is next to the new king on 31 but men only capture forward (up): no capture.
    assert perft(pos, 1) == 4


def test_king_circular_capture_is_two_moves():
    # A king on 10 with men on 14, 15, 22, 23 around it goes round clockwise or
    # anticlockwise: the same pieces, the same landing square (its own), two moves.
    pos = CheckersPosition("B:W14,15,22,23:BK10")
    assert names(pos) == ["10x17x26x19x10", "10x19x26x17x10"]
    assert perft(pos, 1) == 2
    assert perft(pos, 2) == 0  # White has nothing left
    move = pos.legal_moves()[0]
    assert move.start == move.end == 10 and sorted(move.captures) == [14, 15, 22, 23]
    pos.push(move)
    assert pos.fen() == "W:W:BK10"
    assert pos.outcome().winner == 0 and pos.outcome().reason == "no pieces"
    pos.pop()
    assert pos.fen() == "B:W14,15,22,23:BK10"


def test_perft_with_kings_and_captures_counted_by_hand():
    # Black: king 18 and man 1; White: men 22 and 27.
    # Black must take: the king on 18 jumps 22 (to 25). From 25 nothing more (26, 29, 30 ...
    # hold no white piece next to an empty square). One move.
    pos = CheckersPosition("B:W22,27:B1,K18")
    assert names(pos) == ["18x25"]
    pos.push(pos.legal_moves()[0])
    # White: the man on 27 steps to 23 or 24 (no capture: 25 is behind, men take forward).
    assert names(pos) == ["27-23", "27-24"]
    assert perft(CheckersPosition("B:W22,27:B1,K18"), 2) == 2
    # Depth 3 by hand: after 27-23 Black has king 25 -> 21, 22, 29, 30 and man 1 -> 5, 6
    # (no capture: 23 is not next to a black piece) = 6; after 27-24 the same 6.
    assert perft(CheckersPosition("B:W22,27:B1,K18"), 3) == 12


# -- compulsory capture and crowning ---------------------------------------------------------------------


def test_capture_is_compulsory():
    pos = CheckersPosition("B:W18:B1,14")
    assert names(pos) == ["14x23"]
    assert pos.must_capture()
    with pytest.raises(CheckersError, match="compulsory"):
        pos.parse_move("1-5")


def test_any_capture_may_be_chosen_not_only_the_longest():
    # The man on 4 can take one piece (8, landing on 11, where nothing more is in reach);
    # the man on 6 can take three (10, then 18 and 26 or 19 and 27). All three are legal.
    pos = CheckersPosition("B:W8,10,18,19,26,27:B4,6")
    assert names(pos) == ["4x11", "6x15x22x31", "6x15x24x31"]
    pos.push(pos.parse_move("4x11"))
    assert pos.piece_at(11) == "b" and pos.piece_at(8) is None


def test_crowning_ends_the_capture():
    # The man on 23 takes 26 and lands on 30, the crowning row; as a king it could go on
    # over 25 to 21, but its move ends where it is crowned.
    pos = CheckersPosition("B:W25,26:B23")
    assert names(pos) == ["23x30"]
    move = pos.legal_moves()[0]
    assert move.crowns and move.path == (23, 30)
    pos.push(move)
    assert pos.piece_at(30) == "B"
    # A king already crowned does go on: the same jump by a king continues over 25.
    king = CheckersPosition("B:W25,26:BK23")
    assert names(king) == ["23x30x21"]


def test_a_step_onto_the_far_row_crowns():
    pos = CheckersPosition("B:W5:B27")
    assert names(pos) == ["27-31", "27-32"]
    pos.push(pos.parse_move("27-32"))
    assert pos.piece_at(32) == "B" and pos.counts() == {"b": 0, "B": 1, "w": 1, "W": 0}
    pos.pop()
    assert pos.piece_at(27) == "b" and pos.piece_at(32) is None


def test_white_men_crown_on_row_one():
    pos = CheckersPosition("W:W6:B28")
    assert names(pos) == ["6-1", "6-2"]
    pos.push(pos.legal_moves()[0])
    assert pos.kings.bit_count() == 1


# -- push / pop / keys --------------------------------------------------------------------------------


def test_push_pop_restores_everything_over_random_games():
    rng = random.Random(11)
    for _ in range(30):
        pos = CheckersPosition()
        snapshots = []
        while pos.outcome() is None and pos.ply < 150:
            snapshots.append((pos.fen(), pos.key(), pos.quiet_plies))
            move = rng.choice(pos.legal_moves())
            pos.push(move)
            assert pos.key() == zobrist_key(pos.black, pos.white, pos.kings, pos.turn)
            assert not (pos.black & pos.white)
        while snapshots:
            pos.pop()
            assert (pos.fen(), pos.key(), pos.quiet_plies) == snapshots.pop()
        assert pos.fen() == START_FEN


def test_illegal_pushes_are_refused():
    pos = CheckersPosition()
    other = CheckersPosition("W:W21,22:B1")
    with pytest.raises(CheckersError):
        pos.push(other.legal_moves()[0])
    with pytest.raises(CheckersError):
        pos.pop()


def test_generate_equals_legal_moves():
    pos = CheckersPosition()
    assert generate(pos.black, pos.white, pos.kings, pos.turn) == pos.legal_moves()


# -- the end of the game ----------------------------------------------------------------------------------


def test_no_legal_move_loses():
    # White's only man on 29 is blocked by Black's on 25 with 22 behind it.
    blocked = CheckersPosition("W:W29:B25,22")
    assert blocked.legal_moves() == []
    outcome = blocked.outcome()
    assert outcome.winner == 0 and outcome.reason == "no moves"
    assert CheckersPosition("W:W:B1").outcome().reason == "no pieces"


def test_threefold_repetition_is_a_draw():
    pos = CheckersPosition("W:WK29:BK4")
    cycle = ["29-25", "4-8", "25-29", "8-4"]
    for text in cycle:
        pos.push_text(text)
    assert pos.repetitions() == 2 and pos.outcome() is None
    for text in cycle[:3]:
        pos.push_text(text)
    assert pos.outcome() is None
    pos.push_text(cycle[3])
    assert pos.repetitions() == 3
    assert pos.outcome().winner is None and pos.outcome().reason == "repetition"
    assert pos.legal_moves() == []
    pos.pop()
    assert pos.outcome() is None


def _king_shuffle(seed: int) -> CheckersPosition | None:
    """80 plies of king moves that keep Black's kings on 1-8 and White's on 25-32 (they
    never meet), each to a position not seen before (random, seeded); None if stuck."""
    rng = random.Random(seed)
    pos = CheckersPosition("B:WK29,K30,K31:BK1,K2,K3")
    seen = {pos.key()}
    for ply in range(QUIET_LIMIT):
        assert pos.outcome() is None, ply
        home = range(1, 9) if pos.turn == 0 else range(25, 33)
        fresh = []
        for move in pos.legal_moves():
            if move.end in home:
                pos.push(move)
                if pos.key() not in seen:
                    fresh.append(move)
                pos.pop()
        if not fresh:
            return None
        pos.push(rng.choice(fresh))
        seen.add(pos.key())
    return pos


def test_forty_move_rule():
    # 40 moves by each side with no capture and no man moved, no position twice: a draw.
    pos = next(p for p in map(_king_shuffle, range(100)) if p is not None)
    assert pos.quiet_plies == QUIET_LIMIT
    assert pos.outcome().winner is None and pos.outcome().reason == "40-move rule"
    assert pos.legal_moves() == []
    pos.pop()
    assert pos.outcome() is None


def test_a_man_move_or_capture_resets_the_count():
    pos = CheckersPosition("B:WK29,24:BK1,9")
    pos.push_text("1-6")
    pos.push_text("29-25")
    assert pos.quiet_plies == 2
    pos.push_text("9-13")  # a man moved
    assert pos.quiet_plies == 0
    pos.push_text("25-22")
    pos.push_text("6-10")
    assert pos.quiet_plies == 2
    pos.pop()
    pos.pop()
    pos.pop()
    assert pos.quiet_plies == 2


def test_draw_by_agreement():
    pos = CheckersPosition()
    pos.push_text("11-15")
    pos.agree_draw()
    assert pos.outcome().reason == "agreement" and pos.outcome().winner is None
    assert pos.legal_moves() == [] and pos.draw_agreed
    with pytest.raises(CheckersError):
        pos.agree_draw()
    pos.pop()  # taking back a move takes back the agreement
    assert pos.outcome() is None and not pos.draw_agreed


# -- what the screen uses --------------------------------------------------------------------------


def test_entering_a_multi_jump_square_by_square():
    pos = CheckersPosition("B:W10,18,19,26,27:B6,1")
    assert pos.movable_squares() == {6}  # the capture is compulsory: 1 cannot move
    assert pos.moves_from(1) == []
    assert len(pos.moves_from(6)) == 2
    assert pos.next_squares([6]) == {15}
    assert pos.next_squares([6, 15]) == {22, 24}
    assert len(pos.matching_moves([6, 15])) == 2
    only = pos.matching_moves([6, 15, 24])
    assert [str(m) for m in only] == ["6x15x24x31"]
    assert pos.next_squares([6, 15, 24]) == {31}
    assert pos.find_move([6, 15, 24, 31]) == only[0]
    assert pos.find_move([6, 15]) is None
    assert pos.matching_moves([6, 14]) == []


def test_parse_move_forms_and_errors():
    pos = CheckersPosition("B:W10,18,19,26,27:B6")
    assert str(pos.parse_move("6x15x24x31")) == "6x15x24x31"
    with pytest.raises(CheckersError, match="ambiguous"):
        pos.parse_move("6x31")  # two captures from 6 to 31 take different pieces
    assert str(CheckersPosition("B:W18:B14").parse_move("14x23")) == "14x23"
    start = CheckersPosition()
    assert str(start.parse_move(" 11-15 ")) == "11-15"
    with pytest.raises(CheckersError, match="square 20 is empty"):
        start.parse_move("20-24")
    with pytest.raises(CheckersError, match="not Black's"):
        start.parse_move("22-18")
    with pytest.raises(CheckersError, match="can play 11-15, 11-16"):
        start.parse_move("11-14")
    with pytest.raises(CheckersError, match="bad move"):
        start.parse_move("11-")
    with pytest.raises(CheckersError, match="square 40"):
        start.parse_move("11-40")


def test_move_properties():
    pos = CheckersPosition()
    move = pos.parse_move("11-15")
    assert move.path == (11, 15) and move.start == 11 and move.end == 15
    assert not move.is_capture and move.captures == () and not move.crowns and not move.by_king
    assert move.irreversible
    assert repr(move) == "Move('11-15')" and hash(move) == hash(pos.parse_move("11-15"))
    king = CheckersPosition("B:W32:BK18").parse_move("18-14")
    assert king.by_king and not king.irreversible


def test_diagram_and_counts():
    pos = CheckersPosition("B:W21,K30:B1,K9")
    lines = pos.diagram().splitlines()
    assert len(lines) == 8
    assert lines[0].split() == ["b", ".", ".", "."]
    assert pos.counts() == {"b": 1, "B": 1, "w": 1, "W": 1}
    assert pos.piece_at(30) == "W" and pos.piece_at(21) == "w" and pos.piece_at(2) is None


# -- an independent oracle --------------------------------------------------------------------------


def reference_moves(pos: CheckersPosition) -> set[str]:
    """The legal moves by the book, on (row, col) coordinates with no bit tricks: what the
    generator must agree with on any position."""
    board = {sq: pos.piece_at(sq) for sq in range(1, 33)}
    mine = "b" if pos.turn == 0 else "w"
    forward = 1 if pos.turn == 0 else -1
    crown_row = 7 if pos.turn == 0 else 0

    def dirs(piece: str) -> list[tuple[int, int]]:
        if piece.isupper():
            return [(-1, -1), (-1, 1), (1, -1), (1, 1)]
        return [(forward, -1), (forward, 1)]

    def at(row: int, col: int) -> int | None:
        return square_of(row, col)

    captures: set[str] = set()

    def jump(start: int, sq: int, piece: str, taken: frozenset, path: list[int]) -> None:
        row, col = row_col(sq)
        extended = False
        for dr, dc in dirs(piece):
            over, land = at(row + dr, col + dc), at(row + 2 * dr, col + 2 * dc)
            if over is None or land is None or over in taken:
                continue
            victim = board[over]
            if victim is None or victim.lower() == mine:
                continue
            if board[land] is not None and land != start:
                continue
            extended = True
            if piece.islower() and row_col(land)[0] == crown_row:
                captures.add("x".join(map(str, [*path, land])))
            else:
                jump(start, land, piece, taken | {over}, [*path, land])
        if not extended and len(path) > 1:
            captures.add("x".join(map(str, path)))

    steps: set[str] = set()
    for sq, piece in board.items():
        if piece is None or piece.lower() != mine:
            continue
        jump(sq, sq, piece, frozenset(), [sq])
        row, col = row_col(sq)
        for dr, dc in dirs(piece):
            to = at(row + dr, col + dc)
            if to is not None and board[to] is None:
                steps.add(f"{sq}-{to}")
    return captures or steps


def random_setup(rng: random.Random) -> CheckersPosition:
    squares = rng.sample(range(1, 33), rng.randrange(2, 18))
    black, white = [], []
    for i, sq in enumerate(squares):
        colour = black if i % 2 == 0 else white
        crowning = (sq > 28) if colour is black else (sq < 5)
        king = crowning or rng.random() < 0.35
        colour.append(f"K{sq}" if king else str(sq))
    return CheckersPosition(f"{rng.choice('BW')}:W{','.join(white)}:B{','.join(black)}")


def test_generator_agrees_with_the_reference_on_random_positions():
    rng = random.Random(2024)
    multi = 0
    for _ in range(1500):
        pos = random_setup(rng)
        moves = pos.legal_moves()
        assert sorted(str(m) for m in moves) == sorted(reference_moves(pos)), pos.fen()
        assert len({str(m) for m in moves}) == len(moves)
        # The engine's leaf tests agree with the generator.
        masks = (pos.black, pos.white, pos.kings, pos.turn)
        assert has_capture(*masks) == (bool(moves) and moves[0].is_capture)
        if not has_capture(*masks):
            assert has_step(*masks) == bool(moves)
        multi += sum(len(m.path) > 2 for m in moves)
        for move in moves:  # every move plays and takes back cleanly
            before = (pos.black, pos.white, pos.kings, pos.key())
            pos.push(move)
            assert pos.black.bit_count() + pos.white.bit_count() == before[0].bit_count() + before[1].bit_count() \
                - len(move.captures)
            pos.pop()
            assert (pos.black, pos.white, pos.kings, pos.key()) == before
    assert multi > 50  # the sample has its share of multi-jumps
