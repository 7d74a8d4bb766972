"""The compiled node function (tui_games/engine/connect4/_c4solve.c) against the pure-Python
one it translates: the same score and the same node count on every shipped sample of Pons'
test sets, the same analyses, weak answers and lines, the same book lookups; and the
pure-Python fallback when the extension is not there.

The extension is built by ``pip install .`` where a C compiler exists (and in a checkout by
``python setup.py build_ext --inplace``); .ci/run fails if it was not built, so these tests
do not skip there."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from tui_games.data.connect4_book import default_book
from tui_games.engine.connect4 import solver as solver_module
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver, SolverStopped

c4solve = pytest.importorskip("tui_games.engine.connect4._c4solve",
                              reason="the compiled solver is not built here (python setup.py build_ext --inplace)")

SAMPLES = Path(__file__).parents[2] / "puzzles"


def load(name: str) -> list[tuple[str, int]]:
    lines = (SAMPLES / f"bench_connect4_{name}.txt").read_text().splitlines()
    return [(moves, int(score)) for moves, score in (line.split() for line in lines)]


@pytest.fixture(scope="module")
def book():
    found, problem = default_book()
    assert found is not None, problem
    return found


def both(book, table: int = 1_000_003) -> tuple[Solver, Solver]:
    return Solver(table, book=book, compiled=True), Solver(table, book=book, compiled=False)


def solve_all(solver: Solver, cases: list[tuple[str, int]]) -> list[tuple[int, int]]:
    out = []
    for moves, _ in cases:
        solver.reset()  # node counts that do not depend on the order
        result = solver.solve(Connect4.parse(moves))
        out.append((result.score, result.nodes))
    return out


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1", "Test_L1_R3"])
def test_same_scores_and_node_counts_on_the_samples(book, name):
    cases = load(name)
    fast, slow = both(book)
    compiled = solve_all(fast, cases)
    assert compiled == solve_all(slow, cases)
    assert [score for score, _ in compiled] == [score for _, score in cases]
    assert sum(nodes for _, nodes in compiled) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name", ["Test_L2_R2", "Test_L1_R2"])
def test_same_scores_and_node_counts_on_the_harder_samples(book, name):
    # About 12 s and 22 s in pure Python.
    cases = load(name)
    fast, slow = both(book)
    compiled = solve_all(fast, cases)
    assert compiled == solve_all(slow, cases)
    assert [score for score, _ in compiled] == [score for _, score in cases]


def test_same_scores_without_the_book():
    cases = load("Test_L2_R1")[:40]
    fast, slow = Solver(100_003, compiled=True), Solver(100_003, compiled=False)
    assert solve_all(fast, cases) == solve_all(slow, cases)


@pytest.mark.parametrize("moves", ["4453", "12345671234", "52753311433677442422121", "2252576253462244111563365343671"])
def test_same_analysis_root_weak_and_line(book, moves):
    pos = Connect4.parse(moves)
    fast, slow = both(book)
    a, stats_a = fast.analyze_run(pos)
    b, stats_b = slow.analyze_run(pos)
    assert a == b and stats_a.nodes == stats_b.nodes and stats_a.algorithm == stats_b.algorithm
    root_a, root_b = fast.root(pos), slow.root(pos)
    assert (root_a.score, root_a.best, root_a.moves) == (root_b.score, root_b.best, root_b.moves)
    weak_a, weak_b = fast.solve(pos, weak=True), slow.solve(pos, weak=True)
    assert (weak_a.score, weak_a.nodes) == (weak_b.score, weak_b.nodes)
    assert fast.principal_variation(pos) == slow.principal_variation(pos)


def test_the_compiled_book_lookup_is_the_readers(book):
    rng = random.Random(12)
    seen = {"stored": 0, "absent": 0}
    while min(seen.values()) < 50:
        pos = Connect4()
        while pos.moves < 12 and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is not None:
            continue
        expected = book.score(pos.current, pos.mask)
        assert c4solve.book_score(book.data, pos.current, pos.mask, 12) == expected, pos.format()
        seen["absent" if expected is None else "stored"] += 1


def test_stop_and_errors_cross_the_compiled_search():
    solver = Solver(100_003, compiled=True)
    stop = threading.Event()
    # Stopped from another thread once the search is past a million nodes (told by its
    # progress), not after a time: a busy machine searches fewer nodes in a given time.
    past = threading.Event()
    stopper = threading.Thread(target=lambda: (past.wait(300), stop.set()))
    stopper.start()

    def progress(stats):
        if stats.nodes > 1_000_000:
            past.set()

    # Without the book, three discs are far beyond any time limit even in C.
    try:
        result = solver.solve(Connect4.parse("445"), stop=stop, on_progress=progress)
    finally:
        past.set()
        stopper.join()
    assert not result.complete and result.nodes > 1_000_000
    with pytest.raises(SolverStopped):
        solver.analyze(Connect4.parse("4"), stop=stop)

    class Boom(Exception):
        pass

    def progress(stats):
        raise Boom("from the progress callback")

    with pytest.raises(Boom):
        solver.solve(Connect4.parse("44"), on_progress=progress)
    # The solver is still sound afterwards.
    assert solver.solve(Connect4.parse("52753311433677442422121")).score == 8


def test_the_pure_python_fallback(monkeypatch):
    monkeypatch.setattr(solver_module, "_c4solve", None)
    assert Solver(1009).compiled is False
    with pytest.raises(ValueError, match="not built"):
        Solver(1009, compiled=True)
    assert Solver(1009).solve(Connect4.parse("4455")).score == 18


def test_the_search_object_checks_its_arguments():
    with pytest.raises(ValueError, match="size"):
        c4solve.Search(bytearray(16), 3, 0, None, -1, lambda *a: None, 1023)
    with pytest.raises(TypeError, match="callable"):
        c4solve.Search(bytearray(16), 2, 0, None, -1, None, 1023)
    with pytest.raises(BufferError):
        c4solve.Search(b"\0" * 16, 2, 0, None, -1, lambda *a: None, 1023)  # read-only table
    search = c4solve.Search(bytearray(16), 2, 0, None, -1, lambda *a: None, 1023)
    with pytest.raises(ValueError, match="0-42"):
        search.negamax(0, 0, 0, 0, 43, -1, 1)


def test_a_solver_that_searched_is_freed_with_its_table():
    # The compiled search keeps its run's check (a method of the run, which holds the search):
    # without the collector seeing that cycle, every solver that ever solved stayed in memory
    # with its 32 MB table, and the house worker, which makes a player a move, grew by as much
    # a move of its perfect Connect-4 player.
    import gc
    import weakref

    solver = Solver(table_size=1021, compiled=True)
    solver.solve(Connect4.parse("44444433333"))
    gone = weakref.ref(solver)
    del solver
    gc.collect()
    assert gone() is None
    # Nor does it wait for a collection, which a long-lived app runs rarely (every finished
    # game's 32 MB table stayed until one): nothing the search keeps leads back to the run.
    gc.disable()
    try:
        solver = Solver(table_size=1021, compiled=True)
        solver.solve(Connect4.parse("44444433333"))
        solver.analyze(Connect4.parse("4444443333"))
        gone = weakref.ref(solver)
        del solver
        assert gone() is None
    finally:
        gc.enable()
