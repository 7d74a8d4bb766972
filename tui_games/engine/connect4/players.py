"""Connect-4 opponents: the perfect player (exact solver), depth-limited levels, random.

Use :func:`make_player` with a spec string (``perfect``, ``level1`` … ``level12``,
``random``) and :func:`opponents_for` to list what a position's variant allows.

``perfect`` in the normal game asks the exact solver for the score and every column that
keeps it and picks one of those at random (seeded). The score convention prefers the
fastest win and the slowest loss by itself. The solver has the 12-ply opening book (see
:mod:`.book`), so from the first move every answer is proven. Budgets are CPU seconds of
the searching thread under a wall-clock ceiling (:mod:`tui_games.engine.budget`), so a busy
machine makes a move slower, never weaker. The compiled solver gets at least
:data:`COMPILED_SOLVER_CPU` seconds, far above the most any position has needed, so it
never guesses. Only the pure-Python solver can run out of time (a hard middle-game
position): then the player spends the rest of its budget on an iterative-deepening
heuristic search and plays its best move, and its note says so. In the full-board variant
there is no exact solver: ``perfect`` is that deep heuristic search.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time

from tui_games.engine.budget import Budget
from tui_games.engine.connect4.bits import CELLS
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.heuristics import resolve_heuristic
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import (
    FROM_BOOK,
    TO_BOOK,
    Solver,
    SolverStopped,
    plies_to_end,
    to_search_score,
)
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import (
    Decision,
    Player,
    ProgressCallback,
    RandomPlayer,
    SearchPlayer,
    describe_result,
    lookup_spec,
)
from tui_games.engine.search import (
    EXACT,
    INF,
    LOWER,
    TT,
    UPPER,
    RootMove,
    SearchLimits,
    SearchResult,
    resolve_algorithm,
    search,
)
from tui_games.engine.tree import TreeRecorder

LEVELS = range(1, 13)
# The perfect player's budget per move when none is given, in CPU seconds.
DEFAULT_SECONDS = 5.0
# The least CPU budget the compiled solver gets: the slowest move measured takes about 1.2 s
# (``tui-games bench connect4``, docs/games/connect4.md), so with it the player never guesses.
COMPILED_SOLVER_CPU = 30.0
# Share of the budget the pure-Python solver gets before the heuristic search takes over.
SOLVER_SHARE = 0.6
# Plies of the expected line the perfect player works out for the stats panel.
PV_PLIES = 12


def _plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


# How a note names where a proven value came from (the solver's own is left unsaid).
SOURCE_WORDS = {FROM_BOOK: "book", TO_BOOK: "search to book"}


def solved_note(score: int, moves: int, source: str = "") -> str:
    """``solved: win in 5 plies (score +14)`` for the side to move; with the source of the
    value when it was the book, e.g. ``solved (book): draw (score 0)`` (short: the status
    line under the board is narrow)."""
    plies = plies_to_end(score, moves)
    how = f"solved ({SOURCE_WORDS[source]})" if source in SOURCE_WORDS else "solved"
    if plies is None:
        return f"{how}: draw (score 0)"
    word = "win" if score > 0 else "loss"
    return f"{how}: {word} in {_plies(plies)} (score {score:+d})"


class _HeuristicSearch(SearchPlayer):
    """A SearchPlayer that searches a copy of the position with its own heuristic."""

    def __init__(self, name: str, limits: SearchLimits, algorithm: str, heuristic: str, *,
                 seed: int | None, keep_table: bool = False) -> None:
        super().__init__(name, limits, algorithm, seed=seed, keep_table=keep_table)
        self.heuristic = resolve_heuristic(heuristic)

    def prepare(self, position: Connect4) -> tuple[Connect4, SearchLimits]:
        pos = position.copy()
        pos.heuristic = self.heuristic
        return pos, self.limits


class LevelPlayer(_HeuristicSearch):
    """Searches ``level`` plies ahead and judges the horizon with the chosen heuristic."""

    def __init__(self, level: int, *, seed: int | None = None, seconds: float | None = None,
                 heuristic: str = "default", algorithm: str = TT) -> None:
        if level not in LEVELS:
            raise ValueError(f"level {level} is not from {LEVELS[0]} to {LEVELS[-1]}")
        super().__init__(f"level {level}", SearchLimits(depth=level, seconds=seconds), algorithm, heuristic,
                         seed=seed)
        self.level = level


class PerfectPlayer(Player):
    """Exact solver first, heuristic deepening when the solver runs out of time.

    One solver (and its table) is kept for the player's life: table entries hold exact
    bounds, valid in every game, so each move starts with most of the work done.
    """

    name = "perfect"

    def __init__(self, *, seed: int | None = None, seconds: float | None = None, heuristic: str = "default",
                 algorithm: str = TT, full_board: bool = False, book: OpeningBook | None = None,
                 compiled: bool | None = None, solver: Solver | None = None) -> None:
        self.seconds = DEFAULT_SECONDS if seconds is None else float(seconds)
        self.book = book
        self.compiled = compiled
        self.rng = random.Random(seed)
        self.heuristic = resolve_heuristic(heuristic)
        self.algorithm = resolve_algorithm(algorithm)
        self.full_board = full_board
        # ``solver``: one to share (a hint beside a perfect opponent: one table, warm for both).
        self._solver: Solver | None = solver
        # The full-board variant's player: a deep search under the same budget.
        self._deep = _HeuristicSearch("perfect", SearchLimits(seconds=self.seconds), self.algorithm, self.heuristic,
                                      seed=self.rng.randrange(2**32), keep_table=True)

    @property
    def solver(self) -> Solver:
        if self._solver is None:
            self._solver = Solver(book=self.book, compiled=self.compiled)
        return self._solver

    def choose(self, position: Connect4, *, stop: threading.Event | None = None,
               on_progress: ProgressCallback | None = None, recorder: TreeRecorder | None = None) -> Decision:
        if position.outcome() is not None:
            return Decision(None, "no legal move: the game is over")
        if position.full_board:
            decision = self._deep.choose(position, stop=stop, on_progress=on_progress, recorder=recorder)
            decision.note = f"{decision.note} (deep search: no exact solver for the full-board variant)"
            return decision
        start = time.perf_counter()
        solver = self.solver
        if solver.compiled:
            budget = Budget(max(self.seconds, COMPILED_SOLVER_CPU))
            solver_budget = budget
        else:
            budget = Budget(self.seconds)
            solver_budget = budget.share(SOLVER_SHARE)
        try:
            root = solver.root(position, stop=stop, on_progress=on_progress, deadline=solver_budget)
        except SolverStopped:
            return self._fallback(position, budget, stop, on_progress, recorder)
        move = self.rng.choice(root.best)
        n = position.moves
        line = [move]
        child = position.copy()
        child.push(move)
        if child.outcome() is None:
            # The line is a nicety; the move is proven: out of time, keep what there is.
            with contextlib.suppress(SolverStopped):
                line += solver.principal_variation(child, -root.score, stop=stop, deadline=budget,
                                                   max_plies=PV_PLIES - 1)
        root_moves = [RootMove(col, to_search_score(score, n), EXACT if exact else UPPER)
                      for col, (score, exact) in root.moves.items()]
        root_moves.sort(key=lambda rm: (rm.bound != EXACT, -rm.score))
        stats = root.stats
        source = stats.algorithm
        value = to_search_score(root.score, n)
        stats.seconds = stats.wall_seconds = time.perf_counter() - start
        stats.best_move, stats.score, stats.pv, stats.root_moves = move, value, list(line), list(root_moves)
        stats.depth = plies_to_end(root.score, n) or CELLS - n
        stats.seldepth = max(stats.seldepth, stats.depth)
        result = SearchResult(move, value, line, root_moves, stats, True, True, False)
        if recorder is not None:
            record_root(recorder, root_moves, move, value, stats.depth)
        if on_progress is not None:
            on_progress(stats.snapshot())
        return Decision(move, solved_note(root.score, n, source), result)

    def _fallback(self, position: Connect4, budget: Budget, stop: threading.Event | None,
                  on_progress: ProgressCallback | None, recorder: TreeRecorder | None) -> Decision:
        """The solver ran out of time (or was stopped): deepen with the heuristic for the rest
        of the budget and play the best move found."""
        pos = position.copy()
        pos.heuristic = self.heuristic
        remaining = max(0.05, budget.cpu_left())
        result = search(pos, SearchLimits(seconds=remaining), self.algorithm, stop=stop, on_progress=on_progress,
                        recorder=recorder, rng=self.rng)
        if stop is not None and stop.is_set():
            return Decision(result.move, f"stopped: {describe_result(result, timing=False)}", result)
        where = "" if self.solver.compiled else " (Python solver)"
        return Decision(result.move, f"not solved in {budget.cpu:g} s{where}: "
                        f"{describe_result(result, timing=False)}", result)


def record_root(recorder: TreeRecorder, root_moves: list[RootMove], move: int, value: int, depth: int) -> None:
    """The solver's tree for the inspector: the root and every column with its proven value
    (the solver's own nodes are far too many to record, and its hot loop stays lean)."""
    root = recorder.begin(depth)
    for rm in sorted(root_moves, key=lambda rm: rm.move):
        child = recorder.add_child(root, rm.move, 1, -INF, INF)
        if child is not None:
            # From the child's side to move: negated, and an upper bound becomes a lower one.
            child.close(-rm.score, EXACT if rm.bound == EXACT else LOWER, "solved")
    root.close(value, EXACT, "solved", move)
    recorder.commit()


# -- the registry -----------------------------------------------------------------------------------

# spec -> label, in the order a menu shows them.
OPPONENTS: dict[str, str] = {
    "perfect": "perfect",
    **{f"level{n}": f"level {n}" for n in LEVELS},
    "mcts": "Monte Carlo tree search",
    "random": "random",
}
FULL_BOARD_LABELS = {"perfect": "deep search"}


def normalize_spec(spec: str) -> str:
    """The registry key for ``spec`` (a spec or a label, any case); ValueError lists the choices."""
    return lookup_spec(spec, OPPONENTS)


def make_player(spec: str, *, seed: int | None = None, seconds: float | None = None, heuristic: str = "default",
                algorithm: str = TT, full_board: bool = False, book: OpeningBook | None = None,
                compiled: bool | None = None) -> Player:
    """A fresh player for ``spec``. ``seconds`` caps each move (the perfect player's budget,
    default 5 s; the levels' safety cap); ``heuristic`` names the evaluation the searches
    use; ``algorithm`` the generic search; ``seed`` makes tie-breaks reproducible; ``book``
    is the perfect player's opening book (the app opens it, tui_games/data/connect4_book.py; None:
    the solver alone, slow in the opening);
    ``compiled`` its solver's node function (None: compiled where built, False: Python)."""
    key = normalize_spec(spec)
    resolve_algorithm(algorithm)  # a bad name fails here, whichever player was asked for
    resolve_heuristic(heuristic)
    if key == "perfect":
        player = PerfectPlayer(seed=seed, seconds=seconds, heuristic=heuristic, algorithm=algorithm,
                               full_board=full_board, book=book, compiled=compiled)
        if full_board:
            player.name = FULL_BOARD_LABELS["perfect"]
        return player
    if key.startswith("level"):
        return LevelPlayer(int(key.removeprefix("level")), seed=seed, seconds=seconds, heuristic=heuristic,
                           algorithm=algorithm)
    mcts = mcts_player(key, seconds=seconds, seed=seed, move_name=lambda pos, col: pos.move_name(col))
    if mcts is not None:  # mcts (CPU seconds a move) or mcts:N (N playouts)
        return mcts
    return RandomPlayer(seed=seed)


def opponents_for(position: Connect4) -> list[tuple[str, str]]:
    """(spec, label) of every opponent for ``position``'s variant: all of them; in the
    full-board variant "perfect" is a deep heuristic search (there is no exact solver)."""
    if position.full_board:
        return [(spec, FULL_BOARD_LABELS.get(spec, label)) for spec, label in OPPONENTS.items()]
    return list(OPPONENTS.items())
