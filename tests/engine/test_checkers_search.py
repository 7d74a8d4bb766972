"""The checkers search's use of its budget and the shape of its late move reductions (the
node function's, both cores alike: test_checkers_core.py compares them node for node)."""

from __future__ import annotations

import time
import types

import pytest

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers import engine as engine_module
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits

GAME_24 = "W:W13,19,23,24,25,26,27,30,31,32:B1,2,3,6,7,8,12,14,16,20"


class TickingClock:
    """A CPU clock that advances one millisecond a reading: the search's budget becomes a
    count of its looks at the clock, the same on any machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def thread_time(self) -> float:
        self.now += 0.001
        return self.now


@pytest.mark.parametrize("budget", [0.3, 1.0, 2.0])
def test_a_timed_search_deepens_until_its_budget_runs_out(monkeypatch, budget):
    # Each move has its own budget: an iteration that may not finish is still begun (its
    # first moves can find a better move), so the search ends when the budget is spent
    # (mostly stopped inside an iteration; at times the clock runs out as one ends).
    clock = TickingClock()
    monkeypatch.setattr(engine_module, "time",
                        types.SimpleNamespace(thread_time=clock.thread_time, perf_counter=time.perf_counter))
    monkeypatch.setattr(engine_module, "CHECK_EVERY", 64)  # the clock read in proportion to the nodes
    pos = CheckersPosition(GAME_24)
    # (a wall-clock ceiling of a thousand times the budget stays out of the way)
    result = Engine(wall_factor=1000.0).search(pos, SearchLimits(seconds=budget))
    assert result.stats.seconds >= budget
    assert result.move in pos.legal_moves() and result.stats.depth >= 1


def test_late_move_reductions_grow_with_depth_and_spare_killers():
    reduction = core_module._reduction
    # Off the PV, for a move with history: as before up to depth 10 ...
    assert [reduction(4, 3, False, 1, False), reduction(6, 5, False, 1, False),
            reduction(9, 8, False, 1, False)] == [1, 2, 3]
    # ... one ply more from the fifth move at depth 11+, another from the seventh at 15+.
    assert reduction(11, 4, False, 1, False) == 2 and reduction(11, 8, False, 1, False) == 4
    assert reduction(15, 6, False, 1, False) == 4 and reduction(15, 8, False, 1, False) == 5
    # One less for a killer, on the PV, never below none; one more without history.
    assert reduction(15, 8, False, 1, True) == 4 and reduction(4, 3, False, 1, True) == 0
    assert reduction(15, 8, True, 1, False) == 4 and reduction(15, 8, False, 0, False) == 6
