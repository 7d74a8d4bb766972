"""The exact Connect-4 solver against Pons' test sets (samples in puzzles/bench_connect4_*.txt), the
score convention, weak mode, per-column analysis, the principal variation, cancellation,
and the perfect player built on it."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tui_games.data.connect4_book import default_book
from tui_games.engine.budget import Budget
from tui_games.engine.connect4.players import PerfectPlayer, make_player, solved_note
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import (
    MAX_SCORE,
    MIN_SCORE,
    Solver,
    SolverStopped,
    TranspositionTable,
    plies_to_end,
    to_search_score,
    won_score,
)
from tui_games.engine.search import EXACT, UPPER, WIN
from tui_games.engine.tree import TreeRecorder

DATA = Path(__file__).parents[2] / "puzzles"
# The pure-Python node function, and the compiled one where it is built (see
# tests/engine/test_connect4_compiled.py, which also proves them equal).
# The installed book, opened by the app's side (the engine does no I/O): players get it given.
BOOK = default_book()[0]
MODES = [False] + ([True] if Solver(1).compiled else [])


def load(name: str, count: int | None = None) -> list[tuple[str, int]]:
    lines = (DATA / f"bench_connect4_{name}.txt").read_text().splitlines()[:count]
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


@pytest.fixture(scope="module")
def book_solver() -> Solver:
    book, problem = default_book()
    assert book is not None, problem
    return Solver(1_000_003, book=book)


@pytest.fixture(scope="module")
def solver() -> Solver:
    # One solver for the module: a table carried from test to test only saves work (its
    # entries are exact bounds, valid for every position).
    return Solver(1_000_003)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


# -- the score convention ------------------------------------------------------------------------


def test_readme_examples(solver):
    assert solver.solve(Connect4.parse("4455")).score == 18
    assert solver.solve(Connect4.parse("44455554221")).score == -15


def test_immediate_wins_and_finished_games(solver):
    win = Connect4.parse("445566")
    assert solver.solve(win).score == won_score(6) == 18
    assert solver.analyze(win)[2] == 18 and solver.analyze(win)[6] == 18
    # After the first player's four on its 4th disc the second player has lost to that disc.
    done = Connect4.parse("1212121")
    assert solver.solve(done).score == -18
    assert solver.analyze(done) == [None] * 7
    draw = Connect4.parse("441365675334466335442232661515577771217122")
    assert solver.solve(draw).score == 0
    last = Connect4.parse("44136567533446633544223266151557777121712")
    assert solver.solve(last).score == 0 and solver.analyze(last) == [None, 0, None, None, None, None, None]


def test_plies_and_search_scores():
    assert plies_to_end(18, 4) == 3  # "4455": own 4th disc in three plies
    assert plies_to_end(-15, 11) == 2  # "44455554221": the opponent's 7th disc next move
    assert plies_to_end(0, 10) is None
    assert plies_to_end(1, 40) == 1 and plies_to_end(-1, 40) == 2  # the 21st discs
    assert to_search_score(18, 4) == WIN - 3 and to_search_score(-15, 11) == -(WIN - 2)
    assert to_search_score(0, 20) == 0
    # The mapping keeps the order of scores at any disc count.
    for n in range(41):
        values = [to_search_score(s, n) for s in range(MIN_SCORE, MAX_SCORE + 1)]
        assert values == sorted(values)


def test_the_full_board_variant_is_not_solved(solver):
    with pytest.raises(ValueError, match="full-board"):
        solver.solve(Connect4(full_board=True))


# -- the test sets --------------------------------------------------------------------------------


@pytest.mark.parametrize("name, count", [("Test_L3_R1", 100), ("Test_L2_R1", 100), ("Test_L1_R1", 30),
                                         ("Test_L2_R2", 30)])
def test_exact_scores_on_the_samples(solver, name, count):
    wrong = []
    for moves, score in load(name, count):
        result = solver.solve(Connect4.parse(moves))
        assert result.complete and result.nodes >= 0
        if result.score != score:
            wrong.append((moves, score, result.score))
    assert not wrong


@pytest.mark.slow
@pytest.mark.parametrize("name, count", [("Test_L1_R2", 5)])
def test_exact_scores_on_harder_samples(solver, name, count):
    for moves, score in load(name, count):
        assert solver.solve(Connect4.parse(moves)).score == score, moves


@pytest.mark.parametrize("name, count", [("Test_L3_R1", 40), ("Test_L2_R1", 40), ("Test_L1_R1", 15),
                                         ("Test_L2_R2", 10)])
def test_weak_mode_gives_the_sign(name, count):
    solver = Solver(1_000_003)  # its own table: weak bounds are not what the strong tests look for
    for moves, score in load(name, count):
        result = solver.solve(Connect4.parse(moves), weak=True)
        assert result.weak and result.score == sign(score), moves


def test_node_counts_are_in_line_with_pons():
    # Pons' solver: a mean of 51 nodes on L3_R1 and 450 on L2_R1 over the whole sets.
    solver = Solver(1_000_003)
    means = {}
    for name in ("Test_L3_R1", "Test_L2_R1"):
        nodes = []
        for moves, _ in load(name):
            solver.reset()
            nodes.append(solver.solve(Connect4.parse(moves)).nodes)
        means[name] = sum(nodes) / len(nodes)
    assert means["Test_L3_R1"] < 2 * 51 and means["Test_L2_R1"] < 2 * 450, means


# -- analyze, best moves, principal variation -------------------------------------------------------


# Early positions are left out: after a bad first move their children can take minutes.
LATE_L1_R1 = [case for case in load("Test_L1_R1") if len(case[0]) >= 12][:4]
ANALYZED = load("Test_L2_R1", 8) + LATE_L1_R1 + load("Test_L3_R1", 8)


@pytest.mark.parametrize("moves, score", ANALYZED)
def test_analyze_agrees_with_solving_each_child(solver, moves, score):
    pos = Connect4.parse(moves)
    scores = solver.analyze(pos)
    assert max(s for s in scores if s is not None) == score
    for col, value in enumerate(scores):
        if not pos.can_play(col):
            assert value is None
        elif pos.is_winning_move(col):
            assert value == won_score(pos.moves)
        else:
            child = pos.copy()
            child.push(col)
            assert value == -solver.solve(child).score
    weak = solver.analyze(pos, weak=True)
    assert weak == [None if s is None else sign(s) for s in scores]
    root = solver.root(pos)
    assert root.score == score
    assert root.best == [c for c in (3, 2, 4, 1, 5, 0, 6) if scores[c] == score]
    for col, (value, exact) in root.moves.items():
        assert (value == scores[col]) if exact else (scores[col] < score and value == score - 1)
    assert solver.best_moves(pos) == (score, root.best)


@pytest.mark.parametrize("moves, score", load("Test_L3_R1", 10) + load("Test_L2_R1", 5))
def test_principal_variation_plays_out_the_score(solver, moves, score):
    pos = Connect4.parse(moves)
    result = solver.solve(pos, pv=True)
    assert result.score == score and result.pv == result.stats.pv
    for col in result.pv:
        pos.push(col)
    outcome = pos.outcome()
    start = len(moves)
    if score == 0:
        assert outcome is not None and outcome.winner is None and pos.moves == 42
    else:
        mover = start % 2
        assert outcome.winner == (mover if score > 0 else 1 - mover)
        assert len(result.pv) == plies_to_end(score, start) == result.stats.depth
        assert result.stats.score == to_search_score(score, start)


# -- limits, progress, cancellation --------------------------------------------------------------------

HARD = "4455"  # minutes in Python: only a stop or a deadline ends it


@pytest.mark.parametrize("compiled", MODES)
def test_stop_from_another_thread(compiled):
    solver = Solver(100_003, compiled=compiled)
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    result = solver.solve(Connect4.parse("445"), stop=stop)  # minutes, unless the stop is seen
    timer.cancel()
    assert not result.complete and result.score is None
    assert MIN_SCORE <= result.low <= result.high <= MAX_SCORE
    assert result.nodes > 0


@pytest.mark.parametrize("compiled", MODES)
def test_deadline_and_stop_before_start(compiled):
    solver = Solver(100_003, compiled=compiled)
    # A budget of CPU seconds ends a search that would take minutes (the test would hang).
    result = solver.solve(Connect4.parse("4"), deadline=Budget(0.2))
    assert not result.complete
    stop = threading.Event()
    stop.set()
    assert not solver.solve(Connect4.parse("4"), stop=stop).complete
    with pytest.raises(SolverStopped):
        solver.analyze(Connect4.parse("4"), stop=stop)
    with pytest.raises(SolverStopped):
        solver.analyze(Connect4.parse("4"), deadline=Budget(0.1))
    # A stopped solver still answers afterwards.
    assert solver.solve(Connect4.parse("4455")).score == 18


@pytest.mark.parametrize("compiled", MODES)
def test_progress_reports_growing_node_counts(compiled):
    seen = []
    Solver(100_003, compiled=compiled).solve(Connect4.parse("4"), deadline=Budget(0.6), on_progress=seen.append)
    # Reports come at most ten a second of wall time, for as long as the budget lasts.
    assert len(seen) >= 2
    nodes = [s.nodes for s in seen]
    assert nodes == sorted(nodes) and nodes[0] > 0
    assert all(s.algorithm == "exact solver" and s.seconds > 0 for s in seen)


def test_table_generations():
    table = TranspositionTable(101)
    solver = Solver(101)
    solver.solve(Connect4.parse(load("Test_L2_R1", 1)[0][0]))
    assert any(solver.table.slots)
    key = Connect4.parse("4455").key()
    assert table.bounds(key) == (None, None)
    solver.reset()
    assert solver.table.generation == 1
    for _ in range(TranspositionTable.GENERATIONS):
        solver.reset()
    assert solver.table.generation == 0 and not any(solver.table.slots)
    with pytest.raises(ValueError):
        TranspositionTable(0)


@pytest.mark.parametrize("compiled", MODES)
def test_small_tables_are_still_exact(compiled):
    solver = Solver(7, compiled=compiled)
    for moves, score in load("Test_L2_R1", 10):
        assert solver.solve(Connect4.parse(moves)).score == score


# -- the perfect player -------------------------------------------------------------------------------


def test_perfect_plays_an_optimal_move_and_explains_it():
    moves, score = load("Test_L2_R1", 1)[0]
    pos = Connect4.parse(moves)
    best = Solver(100_003).best_moves(pos)[1]
    recorder = TreeRecorder()
    progress = []
    decision = make_player("perfect", book=BOOK, seed=1, seconds=30).choose(pos, recorder=recorder, on_progress=progress.append)
    assert decision.move in best
    assert decision.note == solved_note(score, pos.moves) and decision.note.startswith("solved: ")
    result = decision.result
    assert result.exact and result.complete and not result.stopped and result.pv[0] == decision.move
    assert result.score == to_search_score(score, pos.moves)
    assert {rm.move for rm in result.root_moves} == set(pos.legal_moves())
    assert {rm.move for rm in result.root_moves if rm.bound == EXACT and rm.score == result.score} == set(best)
    assert recorder.root is not None and len(recorder.root.children) == len(pos.legal_moves())
    assert progress and progress[-1].best_move == decision.move
    assert pos.format() == moves  # the position is untouched


def test_perfect_wins_fastest_and_loses_slowest():
    player = make_player("perfect", book=BOOK, seed=3, seconds=30)
    # Column 3 and 7 both win at once; 4455 wins with the 4th disc on column 3 or 6.
    assert player.choose(Connect4.parse("445566")).move in (2, 6)
    assert player.choose(Connect4.parse("4455")).move in (2, 5)
    decision = player.choose(Connect4.parse("44455554221"))
    assert decision.note == "solved: loss in 2 plies (score -15)"


def test_perfect_is_exact_from_the_first_move():
    player = make_player("perfect", book=BOOK, seed=0, seconds=5)
    decision = player.choose(Connect4())
    # The centre is the only winning first move: the first player's 21st disc (41 plies).
    assert decision.move == 3
    assert decision.note == "solved (book): win in 41 plies (score +1)"
    assert decision.result.exact and decision.result.stats.algorithm == "opening book"
    assert {rm.move: rm.bound for rm in decision.result.root_moves} == {c: EXACT if c == 3 else UPPER
                                                                         for c in range(7)}
    decision = player.choose(Connect4.parse("4453"))
    assert decision.note.startswith("solved (search to book): ")
    assert decision.result.stats.algorithm == "search to the book" and decision.result.stats.nodes > 0


@pytest.mark.parametrize("moves", ["", "4", "12", "443", "4453", "71717", "432165", "4443336", "12345671"])
def test_perfect_plays_the_fastest_win_or_slowest_loss_early(book_solver, moves):
    # Every column's exact score from the search to the book: the player's move is one of
    # the best, and each of the best it might play (seeds) is one.
    pos = Connect4.parse(moves)
    scores = book_solver.analyze(pos)
    best = max(s for s in scores if s is not None)
    chosen = {make_player("perfect", book=BOOK, seed=seed, seconds=30).choose(pos).move for seed in range(3)}
    assert chosen and all(scores[c] == best for c in chosen), (scores, chosen)


def test_the_python_solver_falls_back_to_the_heuristic_search_when_out_of_time_and_says_so():
    # Without the book the empty board is far too deep to solve in half a second of CPU.
    player = make_player("perfect", seed=0, seconds=0.5, book=None, compiled=False)
    decision = player.choose(Connect4())
    assert decision.move in range(7)
    assert decision.note.startswith("not solved in 0.5 s (Python solver): depth ")
    assert decision.result is not None and not decision.result.exact


@pytest.mark.skipif(not Solver(1).compiled, reason="the compiled solver is not built here")
def test_the_compiled_solver_never_falls_back_whatever_budget_it_is_given():
    # 12 discs: the hardest move of perfect play from the empty board (0.6 s of CPU here),
    # far past a budget of a hundredth of a second, which the compiled solver does not take.
    pos = Connect4.parse("444447322226")
    decision = make_player("perfect", book=BOOK, seed=0, seconds=0.01).choose(pos)
    assert decision.note.startswith("solved"), decision.note
    assert decision.result.exact


def test_perfect_honours_stop():
    stop = threading.Event()
    stop.set()
    decision = make_player("perfect", book=BOOK, seed=0, seconds=10).choose(Connect4(), stop=stop)
    assert decision.move in range(7) and decision.note.startswith("stopped")


def test_perfect_in_the_full_board_variant_is_a_deep_search():
    player = make_player("perfect", book=BOOK, seed=0, seconds=0.3, full_board=True)
    assert player.name == "deep search"
    pos = Connect4.parse("1212121", full_board=True)
    decision = player.choose(pos)
    assert decision.move in range(7) and "no exact solver" in decision.note
    assert isinstance(make_player("perfect", book=BOOK), PerfectPlayer)
    assert make_player("perfect", book=BOOK).choose(Connect4.parse("1212121")).move is None
