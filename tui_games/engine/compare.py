"""The algorithm comparison: one position, every search configuration, depths 1..D.

What each row of the table means (all are :func:`search.search` on the same position, with
the same seeded tie-break, so the counts repeat exactly):

``minimax``      plain minimax (negamax form) to depth d: every position of the tree.
``alpha-beta``   the same tree, pruned: moves in the position's own order.
``+ ordering``   alpha-beta with move ordering (the game's likely-best-first order, killer
                 and history moves, symmetric moves searched once where the game knows them).
``+ TT``         alpha-beta + ordering + transposition table, one search at depth d.
``+ deepening``  the same with iterative deepening: depths 1, 2, … d one after the other,
                 sharing the table; the counts are the sum over all the iterations.

The players' ``alphabeta+ordering+tt`` deepens 1..4 and then jumps to d: the same as the
last row up to depth 5.

The game screens' compare (``c``), the Lab's Compare tab and ``bench GAME --sweep`` all run
these rows through :func:`search_cell`, so one position at one depth gives the same counts
in all three (3×3 empty board, depth 9: minimax 549,946, alpha-beta 31,697, + ordering 3,999).

All of them must find the same root value at each depth (they search the same tree, only
less of it); the tests check that, and that no single-depth alpha-beta expands more states
than minimax. The deepening row may: it searches the shallow depths again.

``MCTS``         with ``mcts=True``, after each depth: Monte Carlo tree search
                 (:mod:`.mcts`, seeded, a fresh tree) with as many playouts as + deepening
                 expanded states, an equal budget. Its value is a share of playouts (or a
                 proof), not a minimax value, so it takes no part in the agreement; where the
                 sweep solved the position (a + deepening search with the game's value), or
                 the game's exact judge knows it (Connect-4's solver), ``best`` says whether
                 its move keeps that value.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from tui_games.engine.analysis import Judge
from tui_games.engine.mcts import MCTS_ALGORITHM, mcts_search
from tui_games.engine.search import (
    ALPHABETA,
    MINIMAX,
    ORDERING,
    TT,
    SearchLimits,
    game_value,
    search,
)
from tui_games.engine.search import score_words as search_score_words

__all__ = [
    "CONFIGS",
    "DEEPENING_NOTE",
    "MCTS_CONFIG",
    "Config",
    "GameValues",
    "SweepCell",
    "best_mark",
    "cell_value_words",
    "keeps_value",
    "mcts_cell",
    "score_words",
    "search_cell",
    "sweep",
]


@dataclass(frozen=True)
class Config:
    key: str
    label: str
    algorithm: str
    # Passed to the search: False one search at the depth, True every depth up to it. (Left
    # to itself, a search under a node budget deepens: the counts would not compare.)
    deepen: bool


CONFIGS = (
    Config("minimax", "minimax", MINIMAX, False),
    Config("alphabeta", "alpha-beta", ALPHABETA, False),
    Config("ordering", "+ ordering", ORDERING, False),
    Config("tt", "+ TT", TT, False),
    Config("deepening", "+ deepening", TT, True),
)

# Not a search.search algorithm: the sweep runs it through mcts_cell, at + deepening's budget.
MCTS_CONFIG = Config("mcts", "MCTS", MCTS_ALGORITHM, False)

# What the deepening row's counts are, said wherever that row is shown.
DEEPENING_NOTE = "+ deepening: sum of depths 1..{depth}"

# A search whose size, guessed from the depth before, passes the node budget is skipped.
DEFAULT_NODE_LIMIT = 1_000_000


@dataclass
class SweepCell:
    """One search of the sweep: a configuration at a depth."""

    config: Config
    depth: int
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    seconds: float = 0.0
    # The root value from the side to move (None when skipped or stopped).
    score: int | None = None
    move: Any = None
    # The search ran into the node budget, or was not run because it would have.
    stopped: bool = False
    skipped: bool = False
    # The value is the game's, not a horizon estimate: no line reached the depth limit.
    exact: bool = False
    # MCTS only: its move keeps the game's value (None where the sweep did not solve it).
    best: bool | None = None

    @property
    def done(self) -> bool:
        return not (self.stopped or self.skipped)


def score_words(score: int | None, exact: bool = False) -> str:
    """:func:`search.score_words`, with ``-`` for a configuration that gave no value."""
    return "-" if score is None else search_score_words(score, exact)


def cell_value_words(cell: SweepCell) -> str:
    """A cell's value in words: an unproven MCTS value as its best move's share of wins
    (``wins 61%``), any other as :func:`score_words`."""
    if cell.config is MCTS_CONFIG and not cell.exact and cell.score is not None:
        return f"wins {(cell.score / 1000 + 1) / 2:.0%}"
    return score_words(cell.score, cell.exact)


def best_mark(cell: SweepCell) -> str:
    """``✓`` an MCTS move that keeps the game's value, ``✗`` one that does not, else empty."""
    return "" if cell.best is None else "✓" if cell.best else "✗"


def search_cell(position: Any, config: Config, depth: int, *, node_limit: int | None = DEFAULT_NODE_LIMIT,
                seconds: float | None = None, stop: threading.Event | None = None,
                on_progress: Callable[[Any], None] | None = None, seed: int = 0) -> SweepCell:
    """One row of the comparison: ``config`` searched on ``position`` (not changed) to
    ``depth``, with the same seeded tie-break every time. ``seconds`` (CPU, as every budget)
    and ``node_limit`` stop it; the cell says so (``stopped``)."""
    cell = SweepCell(config, depth)
    limits = SearchLimits(depth=depth, nodes=node_limit, seconds=seconds)
    result = search(position, limits, config.algorithm, stop=stop, rng=random.Random(seed),
                    deepen=config.deepen, on_progress=on_progress)
    s = result.stats
    cell.nodes, cell.leaves, cell.cutoffs, cell.tt_hits = s.nodes, s.leaves, s.cutoffs, s.tt_hits
    cell.seconds = s.seconds
    cell.stopped = result.stopped
    if not result.stopped:
        cell.score, cell.move, cell.exact = result.score, result.move, result.exact
    return cell


def mcts_cell(position: Any, budget: SweepCell, *, stop: threading.Event | None = None,
              seed: int = 0) -> SweepCell:
    """MCTS on ``position`` with as many playouts as ``budget`` (a finished cell) expanded
    states: ``nodes`` its playouts (fewer when it proved the root), ``score`` its best move's
    share of wins as ±1000 or its proof, ``exact`` proven."""
    cell = SweepCell(MCTS_CONFIG, budget.depth)
    result = mcts_search(position, playouts=max(1, budget.nodes), seed=seed, stop=stop)
    s = result.stats
    cell.nodes = cell.leaves = s.nodes
    cell.seconds = s.seconds
    cell.stopped = result.stopped
    if not result.stopped:
        cell.score, cell.move, cell.exact = result.score, result.move, result.exact
    return cell


def keeps_value(position: Any, move: Any, solved: SweepCell) -> bool:
    """Whether ``move`` keeps the game's value that ``solved`` (an exact search of
    ``position``) found: the position after it, searched as deep, has the same value."""
    child = position.copy()
    child.push(move)
    after = search(child, SearchLimits(depth=solved.depth), TT, rng=random.Random(0))
    return after.exact and game_value(-after.score) == game_value(solved.score or 0)


def _solved(cells: list[SweepCell]) -> SweepCell | None:
    """The deepest + deepening search that found the game's value."""
    return next((c for c in reversed(cells) if c.config.key == "deepening" and c.done and c.exact), None)


class GameValues:
    """The game's value of a position and of each move from it, by the game's judge (its exact
    solver, :mod:`.analysis`): for a sweep that does not reach the end of the game (Connect-4
    from the empty board). A verdict that is not exact, or stopped, knows nothing."""

    def __init__(self, position: Any, judge: Judge, stop: threading.Event | None) -> None:
        self.position, self.judge, self.stop = position, judge, stop
        self.moves: dict[Any, int | None] = {}
        self.root = self._value(position)

    def _value(self, position: Any) -> int | None:
        """+1, 0, -1 for the side to move of ``position``, or None."""
        outcome = position.outcome()
        if outcome is not None:
            return int(outcome.value_for(position.turn))
        try:
            verdict = self.judge.verdict(position, self.stop)
        except Exception:
            if self.stop is not None and self.stop.is_set():
                return None  # the solver stopped with the sweep
            raise
        return game_value(verdict.score) if verdict.exact else None

    def keeps(self, move: Any) -> bool | None:
        if self.root is None:
            return None
        if move not in self.moves:
            child = self.position.copy()
            child.push(move)
            after = self._value(child)
            self.moves[move] = None if after is None else -after
        value = self.moves[move]
        return None if value is None else value == self.root


def _judge(position: Any, cells: list[SweepCell], values: GameValues | None = None) -> None:
    solved = _solved(cells)
    for cell in cells:
        if cell.config is MCTS_CONFIG and cell.done and cell.best is None and cell.move is not None:
            if solved is not None:
                cell.best = keeps_value(position, cell.move, solved)
            elif values is not None:
                cell.best = values.keeps(cell.move)


def _growth(previous: list[SweepCell], position: Any) -> float:
    """How much bigger the next depth's search is likely to be than the last one."""
    done = [c.nodes for c in previous if c.done and c.nodes]
    if len(done) >= 2 and done[-2] > 0:
        return max(1.0, done[-1] / done[-2])
    return float(max(2, len(position.legal_moves())))


def sweep(position: Any, depths: Iterable[int], *, configs: tuple[Config, ...] = CONFIGS,
          node_limit: int | None = DEFAULT_NODE_LIMIT, stop: threading.Event | None = None,
          on_cell: Callable[[SweepCell], None] | None = None, seed: int = 0,
          mcts: bool = False, judge: Judge | None = None) -> list[SweepCell]:
    """Search ``position`` (not changed) with every configuration at every depth, depth by
    depth. ``on_cell(cell)`` after each search; ``stop`` ends the sweep (the cell being
    searched is dropped). A configuration whose next search would pass ``node_limit`` (guessed
    from its growth so far) is skipped from there on; one that hits the limit is marked.
    ``mcts``: an MCTS cell after each depth whose + deepening search finished (see the module
    doc), its ``best`` judged as soon as a depth solves the position (the earlier ones too,
    before the sweep returns), or, with ``judge`` (the game's, :meth:`GameAdapter.judge`)
    where no depth does, by the game's exact value of each move it picks."""
    cells: list[SweepCell] = []
    values: GameValues | None = None
    if mcts and judge is not None and position.outcome() is None:
        values = GameValues(position, judge, stop)
    history: dict[str, list[SweepCell]] = {c.key: [] for c in configs}
    for depth in depths:
        for config in configs:
            if stop is not None and stop.is_set():
                return cells
            cell = SweepCell(config, depth)
            previous = history[config.key]
            if previous and not previous[-1].done:
                cell.skipped = True
            elif (node_limit is not None and previous
                  and previous[-1].nodes * _growth(previous, position) > node_limit):
                cell.skipped = True
            else:
                cell = search_cell(position, config, depth, node_limit=node_limit, stop=stop, seed=seed)
                if stop is not None and stop.is_set():
                    return cells
            previous.append(cell)
            cells.append(cell)
            if on_cell is not None:
                on_cell(cell)
        deepening = history.get("deepening")
        if mcts and deepening and deepening[-1].depth == depth and deepening[-1].done:
            if stop is not None and stop.is_set():
                return cells
            cell = mcts_cell(position, deepening[-1], stop=stop, seed=seed)
            if stop is not None and stop.is_set():
                return cells
            cells.append(cell)
            _judge(position, cells, values)
            if on_cell is not None:
                on_cell(cell)
    if stop is None or not stop.is_set():
        _judge(position, cells, values)
    return cells


def values_agree(cells: list[SweepCell]) -> dict[int, bool]:
    """Per depth: every configuration that finished found the same root value."""
    by_depth: dict[int, set[int | None]] = {}
    for cell in cells:
        if cell.done and cell.config is not MCTS_CONFIG:
            by_depth.setdefault(cell.depth, set()).add(cell.score)
    return {depth: len(scores) <= 1 for depth, scores in by_depth.items()}
