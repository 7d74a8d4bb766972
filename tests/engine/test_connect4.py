"""Connect-4 rules and position: perft, push/pop and notation round trips, wins in every
direction, parse errors, the full-board variant, the UI view, the heuristics against a
plain window-by-window reference, and the generic search agreeing with itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_games.engine.connect4.bits import BOARD, COLUMNS, ROWS
from tui_games.engine.connect4.heuristics import (
    HEURISTICS,
    WINDOW_COUNT,
    census,
    resolve_heuristic,
)
from tui_games.engine.connect4.players import make_player, opponents_for
from tui_games.engine.connect4.position import FORCED_WIN_SCORE, Connect4, Connect4Error
from tui_games.engine.search import (
    ALGORITHMS,
    ALPHABETA,
    MINIMAX,
    ORDERING,
    SearchLimits,
    search,
)

# -- helpers ---------------------------------------------------------------------------------------


def perft(pos: Connect4, depth: int) -> int:
    """Move sequences of ``depth`` plies, none played after the end of the game; the last
    ply is counted without playing it (``legal_moves`` is empty once the game is over)."""
    if depth == 1:
        return len(pos.legal_moves())
    total = 0
    for move in pos.legal_moves():
        pos.push(move)
        total += perft(pos, depth - 1)
        pos.pop()
    return total


def random_position(seed: int, plies: int, full_board: bool = False) -> Connect4:
    rng = random.Random(seed)
    pos = Connect4(full_board)
    for _ in range(plies):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


@st.composite
def positions(draw, max_plies: int = 42, full_board: bool | None = None):
    fb = draw(st.booleans()) if full_board is None else full_board
    return random_position(draw(st.integers(0, 2**32 - 1)), draw(st.integers(0, max_plies)), fb)


# The 69 windows, cell by cell: the reference the bitboard tricks are checked against.
WINDOWS = [
    [(r + i * dr, c + i * dc) for i in range(4)]
    for r in range(ROWS)
    for c in range(COLUMNS)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1))
    if 0 <= r + 3 * dr < ROWS and 0 <= c + 3 * dc < COLUMNS
]


def grid(pos: Connect4) -> dict[tuple[int, int], int | None]:
    return {(r, c): pos.cell(r, c) for r in range(ROWS) for c in range(COLUMNS)}


def reference_fours(pos: Connect4, player: int) -> int:
    g = grid(pos)
    return sum(all(g[cell] == player for cell in w) for w in WINDOWS)


# -- perft -------------------------------------------------------------------------------------------

PERFT = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]


@pytest.mark.parametrize("depth", range(1, 7))
def test_perft(depth):
    assert perft(Connect4(), depth) == PERFT[depth - 1]


@pytest.mark.slow
@pytest.mark.parametrize("depth", [7, 8])
def test_perft_deep(depth):
    # 823,536 < 7^7: the first player can win vertically on ply 7, ending those games.
    assert perft(Connect4(), depth) == PERFT[depth - 1]


# -- push / pop / notation -----------------------------------------------------------------------------


def snapshot(pos: Connect4) -> tuple:
    return (pos.current, pos.mask, pos.moves, pos.turn, list(pos.history), pos.outcome(), pos.key())


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), full_board=st.booleans())
def test_push_pop_round_trip(seed, full_board):
    rng = random.Random(seed)
    pos = Connect4(full_board)
    seen = [snapshot(pos)]
    while pos.legal_moves():
        pos.push(rng.choice(pos.legal_moves()))
        seen.append(snapshot(pos))
        assert pos.mask & ~BOARD == 0 and pos.current & ~pos.mask == 0
        assert sum(pos.height(c) for c in range(COLUMNS)) == pos.moves
    while pos.history:
        seen.pop()
        pos.pop()
        assert snapshot(pos) == seen[-1]
    assert snapshot(pos) == snapshot(Connect4(full_board))


@settings(max_examples=150, deadline=None)
@given(pos=positions())
def test_move_string_round_trip(pos):
    text = pos.format()
    again = Connect4.parse(text, full_board=pos.full_board)
    assert snapshot(again) == snapshot(pos)
    assert again.format() == text == "".join(pos.move_name(c) for c in pos.history)
    assert str(pos) == text and eval(repr(pos), {"Connect4": Connect4}).format() == text


@settings(max_examples=100, deadline=None)
@given(pos=positions())
def test_copy_is_independent(pos):
    twin = pos.copy()
    assert snapshot(twin) == snapshot(pos)
    if twin.legal_moves():
        twin.push(twin.legal_moves()[0])
        assert snapshot(twin) != snapshot(pos)


def test_same_board_same_key_whatever_the_order():
    assert Connect4.parse("1234").key() == Connect4.parse("3214").key()
    assert Connect4.parse("1234").key() != Connect4.parse("1243").key()
    # The same discs with the other side to move cannot occur, but equal masks with swapped
    # colours give different keys.
    assert Connect4.parse("12").key() != Connect4.parse("21").key()


@settings(max_examples=60, deadline=None)
@given(a=positions(max_plies=12, full_board=False), b=positions(max_plies=12, full_board=False))
def test_keys_tell_boards_apart(a, b):
    assert (a.key() == b.key()) == (grid(a) == grid(b) and a.turn == b.turn)


# -- wins ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moves, cells",
    [
        ("1212121", {(0, 0), (1, 0), (2, 0), (3, 0)}),  # vertical
        ("1122334", {(0, 0), (0, 1), (0, 2), (0, 3)}),  # horizontal
        ("12234334454", {(0, 0), (1, 1), (2, 2), (3, 3)}),  # diagonal /
        ("76654554434", {(0, 6), (1, 5), (2, 4), (3, 3)}),  # diagonal \
    ],
)
def test_a_four_wins_in_every_direction(moves, cells):
    before = Connect4.parse(moves[:-1])
    assert before.outcome() is None and before.winning_cells() == set()
    assert before.is_winning_move(int(moves[-1]) - 1)
    pos = Connect4.parse(moves)
    assert pos.outcome().winner == 0 and pos.outcome().reason == "four"
    assert pos.winning_cells() == cells
    assert pos.legal_moves() == [] and pos.ordered_moves() == []
    assert pos.count_fours(0) == 1 and pos.count_fours(1) == 0


def test_second_player_wins_and_a_line_of_five_is_two_fours():
    pos = Connect4.parse("71122334")
    assert pos.outcome().winner == 1 and pos.winning_cells() == {(0, c) for c in range(4)}
    pos = Connect4.parse("11224455", full_board=True)
    pos.push(2)
    assert pos.count_fours(0) == 2 and pos.outcome() is None
    assert pos.winning_cells() == {(0, c) for c in range(5)}


# A random game that filled the board without a four (found once by a seeded playout).
DRAWN_GAME = "441365675334466335442232661515577771217122"


def test_a_full_board_without_four_is_a_draw():
    pos = Connect4.parse(DRAWN_GAME)
    assert pos.outcome().winner is None and pos.outcome().reason == "full"
    assert reference_fours(pos, 0) == reference_fours(pos, 1) == 0
    assert pos.winning_cells() == set() and pos.legal_moves() == []
    pos.pop()
    assert pos.outcome() is None and pos.legal_moves() == [1]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_end_exactly_when_the_reference_says(seed):
    rng = random.Random(seed)
    pos = Connect4()
    while pos.outcome() is None:
        assert reference_fours(pos, 0) == reference_fours(pos, 1) == 0
        pos.push(rng.choice(pos.legal_moves()))
    outcome = pos.outcome()
    if outcome.reason == "four":
        assert reference_fours(pos, outcome.winner) >= 1 and reference_fours(pos, 1 - outcome.winner) == 0
        assert pos.history[-1] in {c for _, c in pos.winning_cells()}
    else:
        assert outcome.winner is None and pos.moves == 42


# -- errors ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moves, message",
    [
        ("12348", "move 5 ('8') in '12348': column 8 is not 1-7"),
        ("40", "move 2 ('0') in '40': column 0 is not 1-7"),
        ("3333333", "move 7 ('3') in '3333333': column 3 is full"),
        ("12121212", "move 8 ('2') in '12121212': the game was already over"),
        ("4x", "move 2 ('x') in '4x': 'x' is not a column digit 1-7"),
        ("4 4", "move 2 (' ') in '4 4': ' ' is not a column digit 1-7"),
    ],
)
def test_parse_errors_name_the_position_and_the_problem(moves, message):
    with pytest.raises(Connect4Error) as info:
        Connect4.parse(moves)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


def test_parse_strips_whitespace_and_accepts_the_empty_game():
    assert Connect4.parse("  44 \n").format() == "44"
    assert Connect4.parse("").moves == 0


def test_push_refuses_illegal_moves():
    pos = Connect4.parse("333333")
    with pytest.raises(Connect4Error, match="column 3 is full"):
        pos.push(2)
    with pytest.raises(Connect4Error, match="not 0-6"):
        pos.push(7)
    done = Connect4.parse("1212121")
    with pytest.raises(Connect4Error, match="the game is over"):
        done.push(3)
    assert not done.can_play(3) and not pos.can_play(2) and pos.can_play(3) and not pos.can_play(-1)


# -- full-board variant --------------------------------------------------------------------------------


def test_full_board_goes_on_after_a_four():
    pos = Connect4.parse("1212121", full_board=True)
    assert pos.outcome() is None and pos.count_fours(0) == 1
    assert pos.winning_cells() == {(r, 0) for r in range(4)}
    assert pos.legal_moves() == [0, 1, 2, 3, 4, 5, 6]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_full_board_counts_fours_and_names_the_winner(seed):
    pos = random_position(seed, 42, full_board=True)
    assert pos.moves == 42
    counts = [reference_fours(pos, p) for p in (0, 1)]
    assert [pos.count_fours(p) for p in (0, 1)] == counts
    outcome = pos.outcome()
    assert outcome.reason == "full"
    assert outcome.winner == (None if counts[0] == counts[1] else 0 if counts[0] > counts[1] else 1)
    cells = {cell for w in WINDOWS for p in (0, 1) if all(pos.cell(*x) == p for x in w) for cell in w}
    assert pos.winning_cells() == cells


def test_full_board_known_game():
    # A column-by-column filling: columns alternate colours bottom-up, so every row is
    # X O X O X O X (player 0 in columns 1, 3, 5, 7 on even rows): no horizontal four, and
    # the diagonals give each side the same number.
    pos = Connect4(full_board=True)
    for col in range(7):
        for _ in range(6):
            pos.push(col)
    assert pos.moves == 42 and pos.outcome() is not None
    assert pos.count_fours(0) == reference_fours(pos, 0) and pos.count_fours(1) == reference_fours(pos, 1)


# -- the UI view -----------------------------------------------------------------------------------------


def test_cells_heights_and_names():
    pos = Connect4.parse("4453")
    assert [pos.height(c) for c in range(7)] == [0, 0, 1, 2, 1, 0, 0]
    assert pos.cell(0, 3) == 0 and pos.cell(1, 3) == 1 and pos.cell(0, 4) == 0 and pos.cell(0, 2) == 1
    assert pos.cell(2, 3) is None and pos.cell(0, 0) is None
    assert pos.move_name(0) == "1" and pos.move_name(6) == "7"
    assert pos.turn == 0 and pos.moves == 4 and pos.history == [3, 3, 4, 2]
    assert pos.diagram().splitlines()[-3:] == ["...O...", "..OXX..", "1234567"]


def test_is_winning_move():
    pos = Connect4.parse("445566")
    assert [c for c in range(7) if pos.is_winning_move(c)] == [2, 6]
    assert not Connect4.parse("4455").is_winning_move(2)


# -- evaluation and move ordering -----------------------------------------------------------------------


def reference_heuristic(pos: Connect4, name: str) -> int:
    """The course heuristics window by window, as heuristics.py documents them."""
    me, you = pos.turn, 1 - pos.turn
    g = grid(pos)
    heights = [pos.height(c) for c in range(COLUMNS)]
    total = 0
    for w in WINDOWS:
        vals = [g[x] for x in w]
        mine, theirs = vals.count(me), vals.count(you)
        for sign, a, b in ((1, mine, theirs), (-1, theirs, mine)):
            if b == 0 and a:
                if name == "simple":
                    total += sign * {1: 0, 2: 2, 3: 3, 4: 4}[a]
                else:
                    if a == 3:
                        empty = next(x for x in w if g[x] is None)
                        total += sign * (17 if heights[empty[1]] == empty[0] else 15)
                    else:
                        total += sign * {1: 2, 2: 4, 4: 40}[a]
            if a == 1 and b == 3:  # the other side's three, blocked by one disc of ours
                total += sign * (1 if name == "simple" else 13)
    return total


@settings(max_examples=150, deadline=None)
@given(pos=positions(), name=st.sampled_from(["simple", "aware"]))
def test_course_heuristics_match_the_window_by_window_reference(pos, name):
    own = pos.player_discs(pos.turn)
    opp = pos.player_discs(1 - pos.turn)
    assert HEURISTICS[name](own, opp, pos.mask) == reference_heuristic(pos, name)


@settings(max_examples=80, deadline=None)
@given(pos=positions())
def test_census_counts_every_window_once(pos):
    own, opp = pos.player_discs(pos.turn), pos.player_discs(1 - pos.turn)
    x1, x2, x3p, x3u, x4, y1, y2, y3p, y3u, y4, xb, yb = census(own, opp, pos.mask)
    g = grid(pos)
    empty = sum(all(g[x] is None for x in w) for w in WINDOWS)
    mixed = sum(any(g[x] == pos.turn for x in w) and any(g[x] == 1 - pos.turn for x in w) for w in WINDOWS)
    assert x1 + x2 + x3p + x3u + x4 + y1 + y2 + y3p + y3u + y4 + empty + mixed == WINDOW_COUNT == 69


def test_heuristic_names():
    assert resolve_heuristic(" Aware ") == "aware"
    with pytest.raises(ValueError, match="choose one of default, simple, aware"):
        resolve_heuristic("clever")
    with pytest.raises(ValueError):
        Connect4(heuristic="clever")
    pos = Connect4.parse("4453", heuristic="simple")
    assert pos.heuristic == "simple" and pos.copy().heuristic == "simple"


def test_evaluate_sees_the_next_ply():
    assert Connect4.parse("445566").evaluate() == FORCED_WIN_SCORE
    # The opponent has two playable threats (columns 3 and 7) and we cannot win at once.
    assert Connect4.parse("4455661").evaluate() == -FORCED_WIN_SCORE // 2
    for name in HEURISTICS:
        assert abs(Connect4.parse("4453", heuristic=name).evaluate()) < FORCED_WIN_SCORE // 2


def test_dead_draw():
    assert not Connect4().is_dead_draw()
    prefixes = [Connect4.parse(DRAWN_GAME[:n]) for n in range(20, 42)]
    randoms = [random_position(seed, 30 + seed % 12) for seed in range(300)]
    found = 0
    for pos in prefixes + randoms:
        if pos.outcome() is not None:
            continue
        g = grid(pos)
        dead = all({g[x] for x in w} >= {0, 1} for w in WINDOWS)
        assert pos.is_dead_draw() == dead, pos.format()
        if dead:
            found += 1
            assert pos.evaluate() == 0
    assert found and Connect4.parse(DRAWN_GAME[:-1]).is_dead_draw()
    assert not Connect4.parse(DRAWN_GAME[:-1], full_board=True).is_dead_draw()


def test_ordered_moves():
    assert Connect4().ordered_moves() == [3, 2, 4, 1, 5, 0, 6]
    assert Connect4(full_board=True).ordered_moves() == [3, 2, 4, 1, 5, 0, 6]
    # A win is played alone (the centre-most of two).
    assert Connect4.parse("445566").ordered_moves() == [2]
    # Two threats of the opponent: every move loses, the blocks are returned.
    assert Connect4.parse("44556").ordered_moves() == [2, 6]
    # One threat (column 7; column 3 is taken): the block is the only move.
    assert Connect4.parse("44536").ordered_moves() == [6]
    assert list(Connect4.parse("1212121").ordered_moves()) == []


def opponent_wins_at_once(pos: Connect4, move: int) -> bool:
    pos.push(move)
    try:
        return pos.outcome() is None and any(pos.is_winning_move(c) for c in pos.legal_moves())
    finally:
        pos.pop()


@settings(max_examples=200, deadline=None)
@given(pos=positions(full_board=False))
def test_ordered_moves_leave_out_exactly_the_moves_that_lose_at_once(pos):
    legal = pos.legal_moves()
    if not legal or any(pos.is_winning_move(c) for c in legal):
        return
    safe = [c for c in legal if not opponent_wins_at_once(pos, c)]
    ordered = list(pos.ordered_moves())
    if safe:
        assert sorted(ordered) == safe
    else:
        assert ordered and set(ordered) <= set(legal)


@settings(max_examples=150, deadline=None)
@given(pos=positions())
def test_ordered_moves_are_legal_and_never_empty_while_the_game_runs(pos):
    ordered = list(pos.ordered_moves())
    legal = pos.legal_moves()
    assert set(ordered) <= set(legal) and len(set(ordered)) == len(ordered)
    assert bool(ordered) == bool(legal)
    if pos.full_board:
        assert sorted(ordered) == legal


def test_move_classes_use_the_mirror():
    assert Connect4().move_classes() == {0: 0, 1: 1, 2: 2, 3: 3, 4: 2, 5: 1, 6: 0}
    assert Connect4.parse("4").move_classes()[6] == 0
    assert Connect4.parse("3").move_classes() == {c: c for c in range(7)}
    assert Connect4().equivalent_line([4, 3], 2) == [2, 3]


# -- the generic search on Connect-4 ----------------------------------------------------------------------

# Minimax at depth 3 is at most 1 + 7 + 49 + 343 nodes: cheap enough for many examples.


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions(), depth=st.integers(1, 3), heuristic=st.sampled_from(sorted(HEURISTICS)))
def test_all_algorithms_agree_at_the_same_depth(pos, depth, heuristic):
    pos.heuristic = heuristic
    results = {a: search(pos, SearchLimits(depth=depth), a, rng=random.Random(0)) for a in ALGORITHMS}
    scores = {a: r.score for a, r in results.items()}
    assert len(set(scores.values())) == 1, (repr(pos), depth, heuristic, scores)
    legal = pos.legal_moves()
    for r in results.values():
        assert (r.move in legal) if legal else r.move is None
    assert results[ALPHABETA].stats.nodes <= results[MINIMAX].stats.nodes
    assert results[ORDERING].stats.nodes <= results[MINIMAX].stats.nodes


# -- players ------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), full_board=st.booleans(),
       spec=st.sampled_from(["level1", "level2", "level3", "random"]),
       heuristic=st.sampled_from(sorted(HEURISTICS)))
def test_heuristic_players_only_play_legal_moves(seed, full_board, spec, heuristic):
    players = [make_player(spec, seed=seed, heuristic=heuristic, full_board=full_board),
               make_player("level2", seed=seed + 1, heuristic=heuristic, full_board=full_board)]
    pos = Connect4(full_board)
    while pos.outcome() is None:
        decision = players[pos.turn].choose(pos)
        assert decision.move in pos.legal_moves(), (pos.format(), decision)
        pos.push(decision.move)
    if full_board:
        assert pos.moves == 42


@pytest.mark.parametrize("level", [1, 2, 4, 6])
def test_levels_take_a_win_and_block_a_threat(level):
    win = Connect4.parse("445566")
    assert make_player(f"level{level}", seed=0).choose(win).move in (2, 6)
    block = Connect4.parse("44536")  # the first player threatens column 7 only
    assert make_player(f"level{level}", seed=0).choose(block).move == 6


def test_level_players_stop_and_describe():
    import threading

    stop = threading.Event()
    stop.set()
    decision = make_player("level12", seed=0).choose(Connect4(), stop=stop)
    assert decision.move in range(7)
    note = make_player("level3", seed=0).choose(Connect4.parse("4453")).note
    assert note.startswith("depth 3")


def test_opponents_for_both_variants():
    normal = opponents_for(Connect4())
    full = opponents_for(Connect4(full_board=True))
    assert [s for s, _ in normal] == [s for s, _ in full] == ["perfect", *[f"level{n}" for n in range(1, 13)], "mcts", "random"]
    assert dict(normal)["perfect"] == "perfect" and dict(full)["perfect"] == "deep search"
    with pytest.raises(ValueError, match="unknown opponent"):
        make_player("level13")
    with pytest.raises(ValueError, match="unknown heuristic"):
        make_player("level3", heuristic="clever")
    assert make_player("Level 3").name == "level 3"
