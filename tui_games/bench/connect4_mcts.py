"""``tui-games bench connect4 --mcts``: Monte Carlo tree search on Pascal Pons' test sets.

For each position of each set, one search of :data:`PLAYOUTS` playouts (seeded, a fresh tree)
and the exact solver's score of every column: the share of positions where MCTS picks a
column of the best game-theoretic value (a win where there is one, else a draw, else the
longest loss counts as any loss: the value, not the distance), and the playouts per CPU
second of the searching thread. OpenSpiel's MCTS is not installed here, so there is no row for
it; :func:`mcts_rows` is what such a row would be compared with.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import cast

from tui_games.bench.table import Write, table
from tui_games.engine.connect4.playout import COMPILED
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.mcts import MCTSStats, mcts_search

PLAYOUTS = 10_000
# Positions of each set searched by default (each search is a fraction of a CPU second).
DEFAULT_LIMIT = 10
QUICK_LIMIT = 3
TITLES = ("set", "count", "best value", "share", "playouts/CPU s", "proven")
WIDTHS = (16, 5, 10, 6, 14, 6)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def best_value_pick(solver: Solver, position: Connect4, move: int) -> bool:
    """Whether column ``move`` has the best game-theoretic value (win, draw, loss) there."""
    solver.reset()
    scores = solver.analyze(position)
    values = [_sign(s) for s in scores if s is not None]
    chosen = scores[move]
    return chosen is not None and _sign(chosen) == max(values)


def mcts_rows(
    write: Write, loaded: Sequence[tuple[str, list[tuple[Connect4, int]]]], *, playouts: int = PLAYOUTS, seed: int = 0
) -> None:
    """One row a test set (``loaded``: name, [(position, score)]), as the module doc says."""
    write(
        f"Monte Carlo tree search (UCT, C = sqrt 2, random playouts, MCTS-Solver) at {playouts:,} playouts, "
        f"seed {seed}: the share of positions where its column has the solver's best value"
    )
    write(
        f"(win > draw > loss), and its playouts per CPU second ({'compiled' if COMPILED else 'Python'} playouts; "
        "OpenSpiel's MCTS is not installed here, so no row compares with it)"
    )
    write("")
    row = table(write, TITLES, WIDTHS)
    solver = Solver()
    for name, cases in loaded:
        good = proven = done = 0
        cpu = 0.0
        for position, _ in cases:
            if position.outcome() is not None:
                continue
            start = time.thread_time()
            result = mcts_search(position, playouts=playouts, seed=seed)
            cpu += time.thread_time() - start
            done += cast(MCTSStats, result.stats).playouts
            proven += result.exact
            good += best_value_pick(solver, position, result.move)
        count = len(cases)
        row(
            [
                name,
                str(count),
                str(good),
                f"{good / count:.0%}" if count else "-",
                f"{done / cpu:,.0f}" if cpu > 0 else "-",
                str(proven),
            ]
        )
