"""Budgets count the searching thread's CPU time under a wall-clock ceiling: a busy machine
makes a search slower, never weaker. The busy machine is a fake wall clock, so nothing here
depends on the load or the speed of the machine running the tests."""

from __future__ import annotations

import time

import pytest

from tui_games.data.connect4_book import installed_book
from tui_games.engine.arena import ArenaConfig, run_arena
from tui_games.engine.budget import WALL_FACTOR, Budget
from tui_games.engine.connect4.arena import Connect4Arena
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.search import SearchLimits, search
from tui_games.engine.tictactoe import TicTacToe


class Clocks:
    """Stand-ins for the thread's CPU clock and the wall clocks, moved by hand."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.cpu = self.wall = 0.0
        monkeypatch.setattr(time, "thread_time", lambda: self.cpu)
        monkeypatch.setattr(time, "monotonic", lambda: self.wall)
        monkeypatch.setattr(time, "perf_counter", lambda: self.wall)


def test_a_budget_counts_cpu_time_and_stops_at_its_wall_ceiling(monkeypatch):
    clocks = Clocks(monkeypatch)
    budget = Budget(2.0)
    assert budget.wall == 2.0 * WALL_FACTOR
    clocks.wall = 7.0  # a busy machine: most of the wall time went to other processes
    clocks.cpu = 1.5
    assert not budget.passed() and budget.cpu_left() == pytest.approx(0.5)
    clocks.cpu = 2.0
    assert budget.passed()
    starved = Budget(2.0, wall=3.0)
    clocks.wall += 3.0  # no CPU at all: the ceiling ends it
    assert starved.passed() and starved.cpu_left() == 0.0


def test_a_share_of_a_budget_counts_from_the_same_start(monkeypatch):
    clocks = Clocks(monkeypatch)
    budget = Budget(10.0)
    clocks.cpu = 5.0
    part = budget.share(0.6)
    assert part.cpu == 6.0 and not part.passed()
    clocks.cpu = 6.0
    assert part.passed() and not budget.passed()


def clock_jumps(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Each read of ``time.<name>`` is an hour after the one before."""
    ticks = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, name, lambda: float(next(ticks)))


@pytest.mark.parametrize("clock", ["thread_time", "monotonic"])
def test_the_generic_search_stops_on_the_cpu_budget_and_on_the_wall_ceiling(monkeypatch, clock):
    clock_jumps(monkeypatch, clock)
    result = search(TicTacToe(4, 4, 4), SearchLimits(seconds=60.0))
    assert result.stopped and result.move is not None


@pytest.mark.parametrize("clock", ["thread_time", "monotonic"])
def test_the_solver_stops_on_the_cpu_budget_and_on_the_wall_ceiling(monkeypatch, clock):
    solver = Solver(100_003, compiled=False)
    clock_jumps(monkeypatch, clock)
    assert not solver.solve(Connect4.parse("4"), deadline=Budget(60.0)).complete


@pytest.mark.skipif(not Solver(1).compiled, reason="the compiled solver is not built here")
def test_perfect_against_perfect_on_a_starved_machine_is_still_perfect(monkeypatch):
    # `arena connect4 --a perfect --b perfect --games 2 --seed 7` with the wall clocks running
    # twenty times the test thread's CPU clock: a search thread with a twentieth of a core.
    # With budgets in wall seconds the perfect player ran out of time in the middle game,
    # guessed, and lost as first player.
    cpu = time.thread_time
    monkeypatch.setattr(time, "perf_counter", lambda: 20 * cpu())
    monkeypatch.setattr(time, "monotonic", lambda: 20 * cpu())
    result = run_arena(Connect4Arena(book=installed_book()), ArenaConfig("connect4", "perfect", "perfect", 2, seed=7))
    for game in result.records:
        assert not [note for note in game.notes if not note.startswith("solved")]
        assert len(game.moves) == 41
        assert game.winner == ("a" if game.a_side == 0 else "b")
