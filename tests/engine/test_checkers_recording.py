"""The tree inspector's recorded search in checkers: it runs in the compiled core (the
recorder's top plies traced, everything below searched in C) and finds what an unrecorded
search finds; the Python core, the fallback, records the same tree."""

from __future__ import annotations

import random
import threading

import pytest

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, make_evaluator
from tui_games.engine.checkers.position import CheckersPosition, has_capture
from tui_games.engine.search import SearchLimits, SearchResult
from tui_games.engine.tree import TreeNode, TreeRecorder

compiled = pytest.mark.skipif(not core_module.COMPILED, reason="the C core was not built (no compiler)")

GAME_24 = "W:W13,19,23,24,25,26,27,30,31,32:B1,2,3,6,7,8,12,14,16,20"
POSITIONS = [
    ("start", 7),
    (GAME_24, 8),
    ("B:W18,22,23,25,26,27,29,30,31:B1,2,3,5,6,7,9,11,12", 7),  # a middlegame with exchanges in reach
    ("B:WK5,K14,K23,26:BK10,K19,K27,3", 6),  # kings: many capture paths
    ("W:WK29,K30:BK4,K3", 9),  # kings shuffling: repetitions in the tree
]


def outcome(engine: Engine, fen: str, depth: int, recorder: TreeRecorder | None) -> tuple:
    result = engine.search(CheckersPosition(fen), SearchLimits(depth=depth), recorder=recorder,
                           rng=random.Random(3))
    stats = result.stats
    return (str(result.move), result.score, [str(m) for m in result.pv], stats.depth, stats.nodes, stats.leaves,
            stats.cutoffs, stats.tt_hits, stats.seldepth, [(str(rm.move), rm.score, rm.bound) for rm in result.root_moves])


def shape(node: TreeNode) -> tuple:
    """Everything the inspector shows of a recorded tree."""
    return (str(node.move), node.ply, node.alpha, node.beta, node.value, node.bound, node.kind, str(node.best),
            node.truncated, [str(m) for m in node.pruned], [shape(child) for child in node.children])


@compiled
def test_a_recorded_search_runs_in_the_compiled_core():
    # The tree inspector's search used to run in the Python core (about 30 times slower):
    # now every node it counts is the compiled core's.
    engine = Engine(compiled=True)
    recorder = TreeRecorder(max_plies=4, max_nodes=20_000)
    result = engine.search(CheckersPosition(GAME_24), SearchLimits(depth=10), recorder=recorder)
    assert engine.is_compiled
    core_nodes = engine.core.counters()[0]
    assert core_nodes > 1_000
    # The driver's own root visits (one per pass) are all the rest.
    assert 0 < result.stats.nodes - core_nodes <= 2 * 10
    assert recorder.root is not None and max(node.ply for node in recorder.root.walk()) == 4


@compiled
@pytest.mark.parametrize(("fen", "depth"), POSITIONS)
def test_recording_changes_nothing_in_the_search(fen, depth):
    # The same move, score, line and counters with or without the recorder, in C; and the
    # Python core's recording path (the fallback, which the app used before) agrees node
    # for node and records the very same tree.
    plain = outcome(Engine(compiled=True, table_bits=16), fen, depth, None)
    c_recorder, py_recorder = TreeRecorder(4, 20_000), TreeRecorder(4, 20_000)
    assert outcome(Engine(compiled=True, table_bits=16), fen, depth, c_recorder) == plain
    assert outcome(Engine(compiled=False, table_bits=16), fen, depth, py_recorder) == plain
    assert c_recorder.root is not None and py_recorder.root is not None
    assert c_recorder.depth == py_recorder.depth == depth
    assert shape(c_recorder.root) == shape(py_recorder.root)


@compiled
def test_the_recorded_root_children_carry_the_searched_scores():
    engine = Engine(compiled=True)
    recorder = TreeRecorder(max_plies=3, max_nodes=20_000)
    result = engine.search(CheckersPosition(GAME_24), SearchLimits(depth=9), recorder=recorder)
    root = recorder.root
    assert root is not None and root.value == result.score and root.best == result.move
    scores = {rm.move: (rm.score, rm.bound) for rm in result.root_moves}
    assert {child.move for child in root.children} == set(scores)
    for child in root.children:
        # The child's value is from the side to move there: the root's score is its negation.
        assert (-child.value, child.value_for_root()) == (scores[child.move][0], scores[child.move][0])
    # Below the root: the traced nodes hold values, and the plies past the recorder's are
    # searched (not recorded: truncated).
    assert all(node.value is not None for node in root.walk())
    assert any(node.truncated for node in root.walk() if node.ply == 3)


@compiled
def test_the_node_budget_of_the_recorder_holds_and_the_search_goes_on():
    recorder = TreeRecorder(max_plies=6, max_nodes=300)
    result = Engine(compiled=True).search(CheckersPosition(GAME_24), SearchLimits(depth=10), recorder=recorder)
    assert recorder.count <= 300 and result.stats.depth == 10
    assert recorder.root is not None and recorder.root.value == result.score


@compiled
def test_a_recorded_search_stops_when_asked():
    pos = CheckersPosition(GAME_24)
    stop = threading.Event()
    recorder = TreeRecorder()
    seen = []

    def progress(stats):
        seen.append(stats.nodes)
        stop.set()

    result = Engine(compiled=True).search(pos, SearchLimits(depth=40), stop=stop, on_progress=progress,
                                          recorder=recorder)
    assert result.stopped and result.move in pos.legal_moves()
    assert seen and recorder.root is not None  # the last finished iteration's tree (or the partial one)


@compiled
def test_a_tracer_that_fails_stops_the_search_with_its_error():
    class Broken:
        def enter(self, *args):
            raise LookupError("tracer broke")

    pos = CheckersPosition()
    c = core_module.make_core(10, compiled=True)
    c.begin(pos.history_keys(), None, 1024, tracer=Broken())
    move = pos.legal_moves()[0]
    after = pos.copy()
    after.push(move)
    with pytest.raises(LookupError, match="tracer broke"):
        c.node(after.black, after.white, after.kings, after.turn, after.key(), 4, -1000, 1000, 1, 0, TreeNode(move, 1, 0, 0))
    with pytest.raises(RuntimeError, match="tracer"):
        c.begin(pos.history_keys(), None, 1024)
        c.node(after.black, after.white, after.kings, after.turn, after.key(), 4, -1000, 1000, 1, 0, object())
    # Untraced, the core searches on.
    assert isinstance(c.node(after.black, after.white, after.kings, after.turn, after.key(), 4, -1000, 1000, 1, 0), int)


def stopped_on_a_new_move(compiled_core: bool) -> tuple[SearchResult, TreeRecorder]:
    """A search stopped (by its node budget, as a clock would stop it) in an iteration whose
    later move beat the first, which it answers: found by trying budgets, the move compared
    with the last finished iteration's (a search to that depth alone)."""
    # Several middlegames: which budget meets such a case moves with the evaluation's weights.
    for fen in STOP_CANDIDATES:
        pos = CheckersPosition(fen)
        for budget in range(5_000, 400_000, 7_000):
            recorder = TreeRecorder()
            result = Engine(compiled=compiled_core, table_bits=16).search(pos, SearchLimits(nodes=budget),
                                                                         recorder=recorder, rng=random.Random(0))
            if not result.stopped or not result.stats.depth:
                continue
            finished = Engine(compiled=compiled_core, table_bits=16).search(
                pos, SearchLimits(depth=result.stats.depth), rng=random.Random(0))
            if (finished.move, finished.score) != (result.move, result.score):
                return result, recorder
    raise AssertionError("no budget stopped a search on a new move")


STOP_CANDIDATES = (
    "B:W17,21,22,23,24,26,27,28,30,31,32:B1,2,3,4,5,6,8,9,10,11,12",
    "B:W18,22,23,25,26,27,29,30,31:B1,2,3,5,6,7,9,11,12",
    "W:W13,19,23,24,25,26,27,30,31,32:B1,2,3,6,7,8,12,14,16,20",
    "B:W19,21,22,24,25,26,27,28,29,31,32:B1,2,3,4,5,6,7,9,10,11,12",
)


@compiled
def test_a_move_found_by_a_stopped_iteration_is_the_one_its_tree_shows():
    # The search answers the stopped iteration's move; the inspector showed the tree of the
    # iteration before, which chose another move with another score. (The driver keeps the
    # tree, whichever the core: the compiled one finds the case in a fraction of the time.)
    result, recorder = stopped_on_a_new_move(True)
    assert not result.complete
    root = recorder.root
    assert root is not None and recorder.partial and recorder.depth == result.stats.depth + 1
    assert (root.best, root.value, root.bound) == (result.move, result.score, "lower")
    searched = {child.move: child for child in root.children}
    assert result.move in searched and -searched[result.move].value == result.score
    scores = {rm.move: rm.score for rm in result.root_moves}
    # A child known exactly gives its move's score; one left at a bound (its re-search was
    # stopped) keeps the score of the iteration before in the list.
    exact = [child for child in root.children if child.value is not None and child.bound == "exact"]
    assert exact and all(-child.value == scores[child.move] for child in exact)


def recorded_game_24(compiled_core: bool, depth: int, max_nodes: int) -> list[tuple[TreeNode, CheckersPosition]]:
    """Every node of a search of the game-24 position recorded to its full depth, each with
    the position it stands for (its path's moves played)."""
    start = CheckersPosition(GAME_24)
    recorder = TreeRecorder(max_plies=depth, max_nodes=max_nodes)
    Engine(compiled=compiled_core).search(start, SearchLimits(depth=depth), recorder=recorder, rng=random.Random(0))
    assert recorder.root is not None
    found, stack = [], [(recorder.root, start)]
    while stack:
        node, pos = stack.pop()
        found.append((node, pos))
        for child in node.children:
            after = pos.copy()
            after.push(child.move)
            stack.append((child, after))
    return found


@pytest.mark.parametrize("compiled_core", [False, pytest.param(True, marks=compiled)])
def test_a_quiet_move_at_the_last_ply_that_threatens_a_capture_is_answered(compiled_core):
    # Issue 24: a move at the horizon that sets up a capture was scored by the evaluation,
    # blind to the capture; it now gets one ply more, so the opponent's answer is searched.
    threats = others = 0
    for node, pos in recorded_game_24(compiled_core, 3, 50_000):
        if node.ply != 3 or node.move.captured_mask or node.kind in ("tt", "end"):
            continue
        if has_capture(pos.black, pos.white, pos.kings, pos.turn ^ 1):  # the side that moved
            threats += 1
            assert node.kind != "horizon" and (node.children or node.truncated), str(node.move)
        else:
            others += node.kind == "horizon"
    assert threats and others


@pytest.mark.parametrize("compiled_core", [False, pytest.param(True, marks=compiled)])
def test_probcut_is_tried_only_where_the_evaluation_clears_its_bound(compiled_core):
    # The shallow search costs nodes wherever it is tried: it is tried only where the static
    # evaluation already clears beta by the margin, so it can be tried from depth 3 up.
    evaluate = make_evaluator(DEFAULT_WEIGHTS)
    cuts = [(node, pos) for node, pos in recorded_game_24(compiled_core, 8, 200_000) if node.kind == "probcut"]
    assert len(cuts) > 20
    for node, pos in cuts:
        assert evaluate(pos.black, pos.white, pos.kings, pos.turn) >= node.beta + core_module.PC_MARGIN
    # Cuts from ply 5 on, where three plies or fewer were left: the old rule tried none below 5.
    assert any(node.ply >= 5 for node, _ in cuts)
