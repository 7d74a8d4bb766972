"""Game reviews (tui_games.engine.analysis) against outside truth: on Connect-4 games labelled
by an independent solver (BitBully), ``??`` falls on exactly the plies whose move loses the
game-theoretic value; on tic-tac-toe the same against the tests' brute-force solver; in
checkers endgames against the endgame tables; and the marking rules themselves."""

from __future__ import annotations

import random

import pytest
import ttt_oracle

from tui_games.engine.analysis import BLUNDER, INACCURACY, MISTAKE, Thresholds, Verdict, mark_move, review_game
from tui_games.engine.search import WIN
from tui_games.engine.tictactoe import TicTacToe
from tui_games.games import arena_adapter


def random_game(game, start, rng: random.Random, best_share: float, best_move) -> list:
    """A game played to its end: the best move (per ``best_move``) with ``best_share``
    probability, else a random one, so that there are blunders to find and good moves too."""
    position = start.copy()
    moves = []
    while position.outcome() is None:
        legal = list(position.legal_moves())
        move = best_move(position) if rng.random() < best_share else rng.choice(legal)
        moves.append(move)
        position.push(move)
    return moves


def value_drops(start, moves, value_of) -> set[int]:
    """The plies (1-based) whose move lowers the mover's game-theoretic value, by ``value_of``
    (position -> +1/0/-1 for its side to move; a finished game by its outcome)."""
    position = start.copy()
    drops = set()
    for ply, move in enumerate(moves, 1):
        before = value_of(position)
        position.push(move)
        outcome = position.outcome()
        after = -(outcome.value_for(position.turn) if outcome is not None else value_of(position))
        if after < before:
            drops.add(ply)
    return drops


def blunders(review) -> set[int]:
    return {m.ply for m in review.moves if m.mark == BLUNDER}


@pytest.mark.parametrize("seed", range(12))
def test_connect4_blunders_are_where_an_independent_solver_says_the_value_was_lost(seed):
    bitbully = pytest.importorskip("bitbully")
    solver = bitbully.BitBully()

    def value_of(position) -> int:
        # BitBully numbers columns from 0; its score is Pons' (sign: the result).
        board = bitbully.Board("".join(str(int(c) - 1) for c in position.format()))
        best = max(solver.score_all_moves(board).values())
        return (best > 0) - (best < 0)

    game = arena_adapter("connect4")
    start = game.start({})
    rng = random.Random(seed)
    judge = game.judge({})

    def best(position):
        return judge.verdict(position).best[0]

    moves = random_game(game, start, rng, 0.8, best)
    review = review_game(start, moves, game.judge({}), move_text=game.move_text)
    expected = value_drops(start, moves, value_of)
    assert blunders(review) == expected
    assert all(m.exact for m in review.moves)
    # Marks are only ever ?? or (a kept win made much longer) ?: never a heuristic ?!.
    assert {m.mark for m in review.moves} <= {None, BLUNDER, MISTAKE}


@pytest.mark.parametrize("size, seed", [((3, 3), seed) for seed in range(20)] + [((3, 4), seed) for seed in range(4)])
def test_tictactoe_blunders_are_where_brute_force_says_the_value_was_lost(seed, size):
    rows, cols = size
    start = TicTacToe(rows, cols, 3, misere=seed % 3 == 0)
    game = arena_adapter("tictactoe")
    rng = random.Random(seed)
    memo: dict = {}

    def best(position):
        results = ttt_oracle.move_results(position, memo)
        return max(results, key=lambda m: ttt_oracle.rank(*results[m])[0])

    moves = random_game(game, start, rng, 0.6, best)
    review = review_game(start, moves, game.judge(game.variant_of(start)), move_text=game.move_text)
    expected = value_drops(start, moves, lambda position: ttt_oracle.solve(position, memo)[0])
    assert blunders(review) == expected
    for m in review.moves:
        assert m.exact


def test_a_kept_win_made_much_longer_is_a_mistake_and_a_little_longer_is_nothing():
    t = Thresholds(10, 20, 30)
    fast = Verdict(WIN - 3, True)
    # After the move the opponent is to move; the mover's score counts from there.
    assert mark_move(fast, WIN - 10, True, t) == MISTAKE     # 11 plies for a win in 3
    assert mark_move(fast, WIN - 4, True, t) is None         # 5 plies: close enough
    assert mark_move(fast, 0, True, t) == BLUNDER            # a win thrown to a draw
    assert mark_move(Verdict(0, True), -(WIN - 8), True, t) == BLUNDER   # a draw to a loss
    assert mark_move(Verdict(-(WIN - 8), True), -(WIN - 2), True, t) is None  # lost anyway


def test_heuristic_marks_follow_the_thresholds():
    t = Thresholds(10, 20, 30)
    before = Verdict(50, False)
    assert mark_move(before, 45, False, t) is None
    assert mark_move(before, 40, False, t) == INACCURACY
    assert mark_move(before, 30, False, t) == MISTAKE
    assert mark_move(before, 20, False, t) == BLUNDER
    # One side proven, the other not: judged by the evaluation, a proven win counting as +cap.
    assert mark_move(Verdict(WIN - 5, True), 95, False, t) is None  # a win vs +95: both at the cap
    assert mark_move(Verdict(WIN - 5, True), 0, False, t) == BLUNDER


@pytest.fixture(scope="module")
def tables():
    from tui_games.engine.checkers.egdb import class_order
    from tui_games.engine.checkers.egdb_build import COMPILED, Builder

    builder = Builder()
    for cls in class_order(4 if COMPILED else 3):
        if cls not in builder.db:
            builder.build(cls)
    return builder.db


@pytest.mark.parametrize("fen", ["W:WK19,K26:BK3,12", "B:WK19,26:BK3,K7", "W:W19,23:BK3,K7"])
def test_checkers_endgame_blunders_are_where_the_tables_say(tables, fen):
    from tui_games.engine.checkers.analysis import CheckersJudge
    from tui_games.engine.checkers.position import CheckersPosition

    start = CheckersPosition(fen)
    if (start.black | start.white).bit_count() > tables.pieces:
        pytest.skip("the tables built here do not cover it")
    judge = CheckersJudge(seconds=0.05, database=tables)
    rng = random.Random(len(fen))
    game = arena_adapter("checkers")

    def value_of(position) -> int:
        return judge.engine.verdict(position)

    moves = []
    position = start.copy()
    while position.outcome() is None and len(moves) < 16:
        move = rng.choice(list(position.legal_moves()))
        moves.append(move)
        position.push(move)
    review = review_game(start, moves, judge, move_text=game.move_text)
    assert blunders(review) == value_drops(start, moves, value_of)
    assert all(m.exact for m in review.moves)
