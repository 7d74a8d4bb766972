"""``tui-games bench connect4 --mcts``: Monte Carlo tree search on Pascal Pons' test sets.

For each position of each set, one search of :data:`PLAYOUTS` playouts (seeded, a fresh tree)
by each engine, and the exact solver's score of every column: the share of positions where the
engine picks a column of the best game-theoretic value (a win where there is one, else a draw,
else the longest loss counts as any loss: the value, not the distance), and the playouts per
CPU second of the searching thread. The engines are ours (:mod:`tui_games.engine.mcts`) and,
when the optional extra is installed, OpenSpiel's Python and C++ MCTS
(:mod:`.connect4_openspiel`) on the same positions, budget and seed; without it one line says
how to install it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import cast

from tui_games.bench.connect4_openspiel import INSTALL_HINT, openspiel_engines
from tui_games.bench.mcts_engine import MCTSEngine, Searched
from tui_games.bench.table import Write, table
from tui_games.engine.connect4.playout import COMPILED
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.mcts import MCTSStats, mcts_search

PLAYOUTS = 10_000
# Positions of each set searched by default (each search is a fraction of a CPU second).
DEFAULT_LIMIT = 10
QUICK_LIMIT = 3
TITLES = ("set", "engine", "count", "best value", "share", "playouts/CPU s", "proven")
WIDTHS = (16, 16, 5, 10, 6, 14, 6)


class _Ours:
    """:func:`tui_games.engine.mcts.mcts_search` as a bench engine."""

    label = "tui-games"

    def search(self, position: Connect4, playouts: int, seed: int) -> Searched:
        start = time.thread_time()
        result = mcts_search(position, playouts=playouts, seed=seed)
        cpu = time.thread_time() - start
        return Searched(result.move, cast(MCTSStats, result.stats).playouts, cpu, result.exact)


OURS: MCTSEngine = _Ours()


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
    write: Write,
    loaded: Sequence[tuple[str, list[tuple[Connect4, int]]]],
    *,
    playouts: int = PLAYOUTS,
    seed: int = 0,
    engines: Sequence[MCTSEngine] | None = None,
) -> None:
    """One row a test set (``loaded``: name, [(position, score)]) and engine, as the module doc
    says; ``engines`` by default ours and OpenSpiel's where it is installed."""
    if engines is None:
        engines = [OURS, *openspiel_engines()]
    write(
        f"Monte Carlo tree search (UCT, C = sqrt 2 on rewards 0..1, random playouts, MCTS-Solver) at "
        f"{playouts:,} playouts, seed {seed}: the share of positions where its column has the solver's best value"
    )
    write(f"(win > draw > loss), and its playouts per CPU second ({'compiled' if COMPILED else 'Python'} playouts)")
    if not any(engine.label.startswith("OpenSpiel") for engine in engines):
        write(INSTALL_HINT)
    write("")
    row = table(write, TITLES, WIDTHS, left=(0, 1))
    solver = Solver()
    for name, cases in loaded:
        for engine in engines:
            good = proven = done = 0
            cpu = 0.0
            count = 0
            for position, _ in cases:
                if position.outcome() is not None:
                    continue
                count += 1
                found = engine.search(position, playouts, seed)
                cpu += found.cpu
                done += found.playouts
                proven += found.proven
                good += best_value_pick(solver, position, found.move)
            row(
                [
                    name,
                    engine.label,
                    str(count),
                    str(good),
                    f"{good / count:.0%}" if count else "-",
                    f"{done / cpu:,.0f}" if cpu > 0 else "-",
                    str(proven),
                ]
            )
