"""The generic search, exercised on tic-tac-toe: known tree sizes, agreement between the
algorithms, limits, cancellation, progress reports and the tree recorder."""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_games.engine.search import (
    ALGORITHMS,
    ALPHABETA,
    CHECK_EVERY,
    EXACT,
    LOWER,
    MINIMAX,
    ORDERING,
    TT,
    SearchLimits,
    resolve_algorithm,
    search,
)
from tui_games.engine.tictactoe import TicTacToe
from tui_games.engine.tree import TreeRecorder

# Minimax's node count at depth d is about empties^d; keep each example well under a second.
MAX_MINIMAX_NODES = 40_000


def tree_size(empties: int, depth: int) -> int:
    total, width = 1, 1
    for i in range(min(depth, empties)):
        width *= empties - i
        total += width
    return total


@st.composite
def positions(draw, max_marks: int | None = None):
    """A running game on a 3×3..5×5 board, reached by random legal moves."""
    rows = draw(st.integers(3, 5))
    cols = draw(st.integers(3, 5))
    k = draw(st.integers(3, min(rows, cols)))
    pos = TicTacToe(rows, cols, k, draw(st.booleans()), symmetry=draw(st.booleans()))
    limit = rows * cols if max_marks is None else max_marks
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    for _ in range(draw(st.integers(0, limit))):
        moves = pos.legal_moves()
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos


def run(pos, algorithm, depth=None, seed=0, **kw):
    return search(pos, SearchLimits(depth=depth), algorithm, rng=random.Random(seed), **kw)


# -- known numbers ---------------------------------------------------------------------------------


def test_minimax_visits_the_whole_3x3_game_tree():
    result = run(TicTacToe(3, 3, 3), MINIMAX)
    # The full tic-tac-toe game tree: 549,946 positions, 255,168 finished games.
    assert result.stats.nodes == 549_946
    assert result.stats.leaves == 255_168
    assert result.stats.depth == 9
    assert result.score == 0 and result.exact and result.value == 0


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_proves_3x3_is_a_draw(algorithm):
    result = run(TicTacToe(3, 3, 3), algorithm, depth=9)
    assert result.exact and result.value == 0 and not result.stopped
    assert set(result.best_moves) == set(range(9))  # every opening draws


def test_algorithm_names_and_aliases():
    assert resolve_algorithm("TT") == TT
    assert resolve_algorithm(" ab ") == ALPHABETA
    with pytest.raises(ValueError, match="minimax"):
        resolve_algorithm("mcts")


# -- agreement between algorithms ------------------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=positions(), data=st.data())
def test_all_algorithms_agree_at_the_same_depth(pos, data):
    empties = pos.empties
    depth = data.draw(st.integers(1, 4).filter(lambda d: tree_size(empties, d) <= MAX_MINIMAX_NODES))
    results = {a: run(pos, a, depth) for a in ALGORITHMS}
    scores = {a: r.score for a, r in results.items()}
    assert len(set(scores.values())) == 1, (repr(pos), depth, scores)
    legal = pos.legal_moves()
    for r in results.values():
        assert r.move in legal if legal else r.move is None
    # Pruning only ever skips nodes minimax would visit (both search one iteration here).
    minimax_nodes = results[MINIMAX].stats.nodes
    assert results[ALPHABETA].stats.nodes <= minimax_nodes
    assert results[ORDERING].stats.nodes <= minimax_nodes


@settings(max_examples=25, deadline=None)
@given(pos=positions(max_marks=3), depth=st.integers(1, 2))
def test_symmetry_pruning_keeps_every_root_score(pos, depth):
    plain, sym = pos.copy(), pos.copy()
    plain.symmetry, sym.symmetry = False, True
    a = run(plain, TT, depth, exact_root=True)
    b = run(sym, TT, depth, exact_root=True)
    assert {rm.move: rm.score for rm in a.root_moves} == {rm.move: rm.score for rm in b.root_moves}


# -- cancellation and limits -----------------------------------------------------------------------


def test_stop_from_another_thread_ends_a_long_search():
    pos = TicTacToe(5, 5, 4)
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    try:
        result = search(pos, SearchLimits(), TT, stop=stop)  # hours, unless the stop is seen
    finally:
        timer.cancel()
    assert result.stopped and not result.complete
    assert result.move in pos.legal_moves()
    assert pos.empties == 25  # the caller's position is untouched


# Positions where a search stopped before its first iteration once returned no move: the
# stop unwinds the recursion without pops and the fallback read the half-pushed board.
STOPPED_EARLY = [".X..X/...../.OO../...../...X.", "...../...../...../.XX../.O...", "O..../.X.../...../.X.X./....O"]


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("board", STOPPED_EARLY)
@pytest.mark.parametrize("misere", [False, True])
def test_stop_before_start_still_returns_a_legal_move(algorithm, board, misere):
    pos = TicTacToe.parse(board, k=4, misere=misere)
    stop = threading.Event()
    stop.set()
    for seed in range(3):
        result = search(pos, SearchLimits(), algorithm, stop=stop, rng=random.Random(seed))
        assert result.stopped
        assert result.move in pos.legal_moves()
        assert pos.format() == board


def test_node_limit_is_checked_every_few_thousand_nodes():
    result = search(TicTacToe(5, 5, 4), SearchLimits(nodes=5_000), ALPHABETA)
    assert result.stopped
    assert 5_000 <= result.stats.nodes <= 5_000 + CHECK_EVERY


def test_seconds_limit():
    # 0.3 s of this thread's CPU time (tests/engine/test_budget.py checks the clocks): the
    # search would take hours otherwise, and the wall time it took is at least that.
    result = search(TicTacToe(5, 5, 4), SearchLimits(seconds=0.3), TT)
    assert result.stopped and result.stats.seconds >= 0.3
    assert result.move in range(25)


def test_progress_reports_growing_node_counts():
    reports = []
    search(TicTacToe(4, 4, 4), SearchLimits(seconds=0.6), ALPHABETA, on_progress=reports.append)
    counts = [s.nodes for s in reports]
    assert len(counts) >= 3
    assert counts == sorted(counts) and counts[-1] > counts[0]


# -- the tree recorder -----------------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_recorder_respects_its_ply_budget(algorithm):
    recorder = TreeRecorder(max_plies=2, max_nodes=10_000)
    pos = TicTacToe.parse("X../.../...")
    run(pos, algorithm, depth=8, recorder=recorder)
    nodes = list(recorder.root.walk())
    assert max(n.ply for n in nodes) == 2
    assert any(n.truncated for n in nodes if n.ply == 2)
    assert recorder.depth == 8 and not recorder.partial


def test_recorder_respects_its_node_budget():
    recorder = TreeRecorder(max_plies=9, max_nodes=500)
    run(TicTacToe.parse("X../.O./..."), MINIMAX, recorder=recorder)
    assert len(list(recorder.root.walk())) == 500


def test_recorder_keeps_pruned_siblings_of_a_cutoff():
    pos = TicTacToe(3, 3, 3)
    recorder = TreeRecorder(max_plies=3)
    run(pos, ALPHABETA, depth=9, recorder=recorder)
    cut = [n for n in recorder.root.walk() if n.pruned]
    assert cut, "alpha-beta on 3x3 must cut somewhere in the first plies"
    for node in cut:
        assert node.bound == LOWER
        # Pruned moves are legal there and were never searched.
        path = path_to(recorder.root, node)
        for move in path:
            pos.push(move)
        legal = set(pos.legal_moves())
        for _ in path:
            pos.pop()
        searched = {c.move for c in node.children}
        assert set(node.pruned) <= legal and not set(node.pruned) & searched


def path_to(root, target):
    if root is target:
        return []
    for child in root.children:
        rest = path_to(child, target)
        if rest is not None:
            return [child.move, *rest]
    return None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_root_children_carry_the_root_move_scores(algorithm):
    pos = TicTacToe.parse("X../.O./...")
    recorder = TreeRecorder(max_plies=2)
    result = run(pos, algorithm, depth=pos.empties, recorder=recorder)
    scores = {rm.move: rm.score for rm in result.root_moves}
    children = recorder.root.children
    assert {c.move for c in children} == set(scores)
    for child in children:
        assert child.value_for_root() == scores[child.move] == -child.value
    assert recorder.root.value == result.score


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_recording_does_not_change_the_search(algorithm):
    pos = TicTacToe.parse("X..../.O.../...../...X./.....", k=4)
    plain = run(pos, algorithm, depth=3, seed=5)
    recorded = run(pos, algorithm, depth=3, seed=5, recorder=TreeRecorder(max_plies=3, max_nodes=2_000))
    assert (plain.move, plain.score, plain.pv) == (recorded.move, recorded.score, recorded.pv)
    assert plain.root_moves == recorded.root_moves
    assert plain.stats.nodes == recorded.stats.nodes
    assert plain.stats.leaves == recorded.stats.leaves


def test_exact_root_scores_every_move():
    pos = TicTacToe.parse("XX./OO./...")
    result = run(pos, TT, depth=pos.empties, exact_root=True)
    assert all(rm.bound == EXACT for rm in result.root_moves)
    assert result.move == 2 and result.best_moves == [2]
