"""Game-agnostic adversarial search: minimax, alpha-beta, move ordering, transpositions.

Every algorithm is written in negamax form: a score is always from the point of view of the
side to move at that node. That halves the code and lets one recorder and one set of
statistics serve all of them; the tree inspector turns values back into the classic
MAX/MIN picture for display.

Scores: a heuristic value is a plain int well inside ``±WIN``; a won game scores
``WIN - ply`` (the ply at which the game ends, counted from the root), so a faster win
scores higher and a slower loss scores higher too. That is what makes the perfect players
win fast and lose slowly.

The search works on a copy of the position and aborts by raising ``_Stopped`` deep in the
recursion, which is why a cancelled search never leaves the caller's position half-pushed.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Hashable, Iterable, Iterator, cast

from tui_games.engine.budget import Budget
from tui_games.engine.game import DeadDraws, OrderedMoves, Position, Symmetries
from tui_games.engine.pacing import give_way
from tui_games.engine.tree import TreeNode, TreeRecorder

WIN = 1_000_000
INF = 10 * WIN
# Scores beyond this are wins or losses with a known distance, not heuristics.
WIN_BOUND = WIN - 10_000
UNLIMITED_DEPTH = 10_000
# Heuristic values this big are no estimate but what an evaluation saw of the next plies
# (tic-tac-toe's and Connect-4's FORCED_WIN_SCORE): NEXT_MOVE_WIN, the side to move completes
# a line now; DOUBLE_THREAT, one side faces two threats it cannot both block. score_words
# says them in words, never as the number.
NEXT_MOVE_WIN = WIN // 2
DOUBLE_THREAT = WIN // 4

MINIMAX = "minimax"
ALPHABETA = "alphabeta"
ORDERING = "alphabeta+ordering"
TT = "alphabeta+ordering+tt"
ALGORITHMS = (MINIMAX, ALPHABETA, ORDERING, TT)
ALIASES = {"negamax": TT, "negamax+tt": TT, "tt": TT, "ab": ALPHABETA, "ordering": ORDERING}

ALGORITHM_LABELS = {
    MINIMAX: "minimax",
    ALPHABETA: "alpha-beta",
    ORDERING: "alpha-beta + ordering",
    TT: "negamax + TT + deepening",
}

# How often (in nodes) the search looks at the clock, the stop flag and the node budget.
CHECK_EVERY = 1024
# With a depth given, the deepening algorithm runs depths 1..JUMP_AFTER and then the target.
JUMP_AFTER = 4
PROGRESS_INTERVAL = 0.1

EXACT, LOWER, UPPER = "exact", "lower", "upper"


def resolve_algorithm(name: str) -> str:
    """The canonical algorithm name for ``name`` or an alias; ValueError names the choices."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {name!r}; choose one of {', '.join(ALGORITHMS)}")
    return key


def is_win_score(score: int) -> bool:
    return abs(score) >= WIN_BOUND


def game_value(score: int) -> int:
    """+1, 0 or -1 for a proven score (a non-winning proven score is a draw)."""
    if score >= WIN_BOUND:
        return 1
    if score <= -WIN_BOUND:
        return -1
    return 0


def plies_to_end(score: int) -> int | None:
    """Plies from the root to the end of the game for a win/loss score, else None."""
    return WIN - abs(score) if is_win_score(score) else None


def score_words(score: int, exact: bool = False) -> str:
    """``win in 5`` / ``loss in 4`` (plies from the searched position; ``won`` / ``lost`` when
    the game is over), ``draw`` for an exact 0, an evaluation's forced line in words (``wins next move``, ``loses: 2 threats``:
    see NEXT_MOVE_WIN), else the heuristic value with its sign."""
    if score >= WIN_BOUND:
        return f"win in {WIN - score}" if score != WIN else "won"  # 0 plies: the game is over
    if score <= -WIN_BOUND:
        return f"loss in {WIN + score}" if score != -WIN else "lost"
    if score >= NEXT_MOVE_WIN:
        return "wins next move"
    if score <= -NEXT_MOVE_WIN:
        return "loses next move"
    if score >= DOUBLE_THREAT:
        return "wins: 2 threats"
    if score <= -DOUBLE_THREAT:
        return "loses: 2 threats"
    if exact and score == 0:
        return "draw"
    return f"{score:+d}"


@dataclass(frozen=True)
class SearchLimits:
    depth: int | None = None
    # CPU seconds of the searching thread, with a wall-clock ceiling (engine.budget).
    seconds: float | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class RootMove:
    """A root move and what the search learned about it: an exact score or a bound."""

    move: Any
    score: int
    bound: str = EXACT


@dataclass
class SearchStats:
    algorithm: str = TT
    nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0
    tt_hits: int = 0
    depth: int = 0
    seldepth: int = 0
    # What the search took: ``seconds`` on the clock its engine counts its budget in (wall
    # here, CPU of the search thread in checkers); cpu_seconds and wall_seconds both, so the
    # panel can say which and show both where they differ.
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    best_move: Any = None
    score: int | None = None
    pv: list[Any] = field(default_factory=list)
    root_moves: list[RootMove] = field(default_factory=list)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def snapshot(self) -> "SearchStats":
        return replace(self, pv=list(self.pv), root_moves=list(self.root_moves))


@dataclass
class SearchResult:
    move: Any
    score: int
    pv: list[Any]
    root_moves: list[RootMove]
    stats: SearchStats
    # The requested depth (or the whole game) was searched to the end.
    complete: bool
    # No line was cut by the horizon: the score is the game-theoretic value.
    exact: bool
    # The search ended early: stop flag, time or node limit.
    stopped: bool

    @property
    def value(self) -> int | None:
        """+1/0/-1 for the side to move when the result is proven, else None."""
        return game_value(self.score) if self.exact else None

    @property
    def best_moves(self) -> list[Any]:
        """Every root move with an exact score equal to the best."""
        return [rm.move for rm in self.root_moves if rm.bound == EXACT and rm.score == self.score]


class _Stopped(Exception):
    pass


class _PlyLines(dict[int, list[Any]]):
    """ply -> line; a missing ply reads as an empty line."""

    def __missing__(self, ply: int) -> list[Any]:
        return []


@dataclass(slots=True)
class _Entry:
    depth: int
    flag: str
    score: int
    move: Any
    # The subtree was settled without touching the horizon: good for any deeper request.
    resolved: bool


class Searcher:
    """One search run. Use :func:`search` or :func:`iterate` rather than this directly."""

    def __init__(
        self,
        position: Position[Any],
        limits: SearchLimits = SearchLimits(),
        algorithm: str = TT,
        *,
        on_progress: Callable[[SearchStats], None] | None = None,
        recorder: TreeRecorder | None = None,
        stop: threading.Event | None = None,
        rng: random.Random | None = None,
        table: dict[Hashable, _Entry] | None = None,
        exact_root: bool = False,
        deepen: bool | None = None,
        evaluation: Callable[[Any], int] | None = None,
    ) -> None:
        self.algorithm = resolve_algorithm(algorithm)
        # None: the algorithm's habit (see iterate); with a depth limit, False searches only
        # that depth and True every depth from 1, so the algorithm comparison can show
        # what the table and the deepening each buy on their own.
        self.deepen = deepen
        self.pos = position.copy()
        self.limits = limits
        self.on_progress = on_progress
        # Tree nodes come only from the recorder: where a node is not None the recorder is
        # there too, which the recording branches tell the type checker with a cast.
        self.recorder = recorder
        self.stop = stop
        self.rng = rng if rng is not None else random.Random()
        self.pruning = self.algorithm != MINIMAX
        self.ordering = self.algorithm in (ORDERING, TT)
        self.use_tt = self.algorithm == TT
        self.table: dict[Hashable, _Entry] = table if table is not None else {}
        self.exact_root = exact_root
        # The horizon's judge: the position's own evaluate(), or a function of the position
        # scored from the side to move (an evaluation file, tui_games.bots).
        self.evaluation = evaluation
        # The optional hooks a position declares (tui_games.engine.game): ordered moves, and
        # for the full engine a dead draw, where nobody can win any more, to stop early at.
        self.ordered_moves = self.pos.ordered_moves if self.ordering and isinstance(self.pos, OrderedMoves) else None
        self.dead_draw = self.pos.is_dead_draw if self.use_tt and isinstance(self.pos, DeadDraws) else None
        self.symmetries = self.pos if self.ordering and isinstance(self.pos, Symmetries) else None
        self.killers: dict[int, list[Any]] = {}
        # pv[ply]: the best line found below the node being searched at that ply.
        self.pv: _PlyLines = _PlyLines()
        self.history: dict[Any, int] = {}
        self.stats = SearchStats(algorithm=self.algorithm)
        self.horizon_hits = 0
        self._next_check = CHECK_EVERY
        self._last_progress = 0.0
        self._start = 0.0
        self._cpu_start = 0.0
        # limits.seconds is CPU time of this thread, under a wall-clock ceiling (see budget).
        self._budget: Budget | None = None
        self._fallback_moves: list[Any] = []

    # -- limits and progress -------------------------------------------------------------

    def _check(self) -> None:
        give_way()
        self._next_check = self.stats.nodes + CHECK_EVERY
        now = time.perf_counter()
        self._clock(now)
        if self.stop is not None and self.stop.is_set():
            raise _Stopped
        if self._budget is not None and self._budget.passed():
            raise _Stopped
        if self.limits.nodes is not None and self.stats.nodes >= self.limits.nodes:
            raise _Stopped
        if self.on_progress is not None and now - self._last_progress >= PROGRESS_INTERVAL:
            self._last_progress = now
            self.on_progress(self.stats.snapshot())

    def _clock(self, now: float) -> None:
        """The time so far: wall (``seconds``, this search's budget's ceiling) and CPU."""
        stats = self.stats
        stats.seconds = stats.wall_seconds = now - self._start
        stats.cpu_seconds = time.thread_time() - self._cpu_start

    # -- move lists ----------------------------------------------------------------------

    def _moves(self, ply: int, first: Any = None) -> list[Any]:
        pos = self.pos
        if not self.ordering:
            return pos.legal_moves()
        moves = list(self.ordered_moves()) if self.ordered_moves is not None else pos.legal_moves()
        history = self.history
        if history:
            moves.sort(key=lambda m: -history.get(m, 0))
        front = [m for m in self.killers.get(ply, ()) if m in moves]
        if first is not None and first in moves:
            front = [first] + [m for m in front if m != first]
        if front:
            moves = front + [m for m in moves if m not in front]
        return moves

    def _reward(self, move: Any, ply: int, depth: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    # -- the recursive searches ------------------------------------------------------------

    def _leaf(self, ply: int) -> int | None:
        """Score of a finished game at ``ply``, or None while the game goes on."""
        outcome = self.pos.outcome()
        if outcome is None:
            return None
        v = outcome.value_for(self.pos.turn)
        return v * (WIN - ply) if v else 0

    def _enter(self, depth: int, ply: int, node: TreeNode | None) -> int | None:
        """What every node does first: count itself, watch the limits, and score the node
        if the game is over or the horizon reached (None: search its moves)."""
        stats = self.stats
        stats.nodes += 1
        if stats.nodes >= self._next_check:
            self._check()
        if ply > stats.seldepth:
            stats.seldepth = ply
        self.pv[ply] = []
        score = self._leaf(ply)
        if score is not None:
            stats.leaves += 1
            if node is not None:
                node.close(score, EXACT, "end")
            return score
        if depth <= 0:
            stats.leaves += 1
            self.horizon_hits += 1
            score = self.pos.evaluate() if self.evaluation is None else self.evaluation(self.pos)
            if node is not None:
                node.close(score, EXACT, "horizon")
            return score
        return None

    def _minimax(self, depth: int, ply: int, node: TreeNode | None) -> int:
        score = self._enter(depth, ply, node)
        if score is not None:
            return score
        pos = self.pos
        pv = self.pv
        best = -INF
        best_move = None
        rec = self.recorder
        for move in pos.legal_moves():
            pos.push(move)
            child = cast(TreeRecorder, rec).add_child(node, move, ply + 1, -INF, INF) if node is not None else None
            score = -self._minimax(depth - 1, ply + 1, child)
            pos.pop()
            if score > best:
                best, best_move = score, move
                pv[ply] = [move, *pv[ply + 1]]
        if node is not None:
            node.close(best, EXACT, "", best_move)
        return best

    def _alphabeta(self, depth: int, ply: int, alpha: int, beta: int, node: TreeNode | None) -> int:
        score = self._enter(depth, ply, node)
        if score is not None:
            return score
        stats = self.stats
        pos = self.pos
        pv = self.pv

        if self.dead_draw is not None and self.dead_draw():
            stats.leaves += 1
            if node is not None:
                node.close(0, EXACT, "dead draw")
            return 0

        alpha0 = alpha
        tt_move = None
        key = None
        if self.use_tt:
            key = pos.key()
            entry = self.table.get(key)
            if entry is not None:
                tt_move = entry.move
                if entry.depth == depth or (entry.resolved and entry.depth <= depth):
                    s = entry.score
                    # Stored win scores count plies from the stored node; make them ours.
                    if s >= WIN_BOUND:
                        s -= ply
                    elif s <= -WIN_BOUND:
                        s += ply
                    if (
                        entry.flag == EXACT
                        or (entry.flag == LOWER and s >= beta)
                        or (entry.flag == UPPER and s <= alpha)
                    ):
                        stats.tt_hits += 1
                        if not entry.resolved:
                            self.horizon_hits += 1
                        if node is not None:
                            node.close(s, entry.flag, "tt", entry.move)
                        return s

        horizon_before = self.horizon_hits
        moves = self._moves(ply, tt_move)
        best = -INF
        best_move = None
        rec = self.recorder
        for i, move in enumerate(moves):
            pos.push(move)
            child = cast(TreeRecorder, rec).add_child(node, move, ply + 1, -beta, -alpha) if node is not None else None
            score = -self._alphabeta(depth - 1, ply + 1, -beta, -alpha, child)
            pos.pop()
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    pv[ply] = [move, *pv[ply + 1]]
                    if alpha >= beta:
                        stats.cutoffs += 1
                        if self.ordering:
                            self._reward(move, ply, depth)
                        if node is not None:
                            node.pruned = moves[i + 1 :]
                        break

        flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        if key is not None:
            stored = best + ply if best >= WIN_BOUND else best - ply if best <= -WIN_BOUND else best
            self.table[key] = _Entry(depth, flag, stored, best_move, self.horizon_hits == horizon_before)
        if node is not None:
            node.close(best, flag, "", best_move)
        return best

    # -- the root and the deepening loop ---------------------------------------------------

    def _root(self, depth: int, previous_best: Any) -> SearchResult:
        pos = self.pos
        stats = self.stats
        stats.nodes += 1
        rec = self.recorder
        root = rec.begin(depth) if rec is not None else None

        moves = pos.legal_moves()
        # Shuffle first so that, among moves the ordering cannot tell apart, ties fall randomly.
        self.rng.shuffle(moves)
        if self.ordering:
            ordered = list(self.ordered_moves()) if self.ordered_moves is not None else moves
            rank = {m: i for i, m in enumerate(ordered)}
            moves.sort(key=lambda m: (m != previous_best, -self.history.get(m, 0), rank.get(m, 0)))

        # Moves a symmetry makes equal share one search: scored[class] is the one searched (the game says which, if it can).
        classes = self.symmetries.move_classes() if self.symmetries is not None else None
        root_moves: list[RootMove] = []
        lines: dict[Any, list[Any]] = {}
        scored: dict[Any, RootMove] = {}
        best = -INF
        for move in moves:
            if classes is not None and classes[move] in scored:
                same = scored[classes[move]]
                root_moves.append(RootMove(move, same.score, same.bound))
                if root is not None:
                    twin = cast(TreeRecorder, rec).add_child(root, move, 1, -INF, INF)
                    if twin is not None:
                        twin.close(-same.score, UPPER if same.bound == LOWER else LOWER if same.bound == UPPER else EXACT,
                                   "symmetric")
                        twin.same_as = same.move
                continue
            pos.push(move)
            if self.pruning:
                # A window one below the best lets equal moves come back exact, so ties are
                # known and the choice among them is fair; exact_root gives every move a score.
                alpha = -INF if self.exact_root or best == -INF else best - 1
                child = cast(TreeRecorder, rec).add_child(root, move, 1, -INF, -alpha) if root is not None else None
                score = -self._alphabeta(depth - 1, 1, -INF, -alpha, child)
                bound = UPPER if score <= alpha else EXACT
                lines[move] = [move, *self.pv[1]]
            else:
                child = cast(TreeRecorder, rec).add_child(root, move, 1, -INF, INF) if root is not None else None
                score = -self._minimax(depth - 1, 1, child)
                bound = EXACT
                lines[move] = [move, *self.pv[1]]
            pos.pop()
            root_moves.append(RootMove(move, score, bound))
            if classes is not None:
                scored[classes[move]] = root_moves[-1]
            if score > best:
                best = score
        ties = [rm.move for rm in root_moves if rm.bound == EXACT and rm.score == best]
        move = self.rng.choice(ties) if ties else None
        if root is not None:
            root.close(best, EXACT, "", move)
            cast(TreeRecorder, rec).commit()
        root_moves.sort(key=lambda rm: (rm.bound != EXACT, -rm.score))
        if move is not None and move not in lines:
            # The move shared its search with a symmetric one: mirror that one's line.
            assert self.symmetries is not None and classes is not None
            line = self.symmetries.equivalent_line(lines[scored[classes[move]].move], move)
        else:
            line = lines.get(move, [])
        return SearchResult(move, best, line, root_moves, stats, True, False, False)

    def _principal_variation(self, line: list[Any], depth: int) -> list[Any]:
        """The expected line: what the search saw, continued from the table where a table
        hit cut it short."""
        pv = list(line)
        pos = self.pos
        pushed = 0
        for move in pv:
            pos.push(move)
            pushed += 1
        seen = {pos.key()}
        while self.use_tt and len(pv) < depth and pos.outcome() is None:
            entry = self.table.get(pos.key())
            if entry is None or entry.move is None or entry.move not in pos.legal_moves():
                break
            pos.push(entry.move)
            pushed += 1
            pv.append(entry.move)
            k = pos.key()
            if k in seen:
                break
            seen.add(k)
        for _ in range(pushed):
            pos.pop()
        return pv

    def iterate(self) -> Iterator[SearchResult]:
        """Search, yielding a result after each completed depth (one yield without deepening).

        The last result yielded is the answer. A stopped search ends the iteration; if not even
        the first depth finished, it yields the best move found so far, marked incomplete.
        """
        self._start = time.perf_counter()
        self._cpu_start = time.thread_time()
        if self.limits.seconds is not None:
            self._budget = Budget(self.limits.seconds)
        stats = self.stats
        if not self.pos.legal_moves():
            self._clock(time.perf_counter())
            score = self._leaf(0)
            yield SearchResult(None, score or 0, [], [], stats, True, True, False)
            return
        # Taken now, at the root: a stop unwinds the recursion by exception, without the pops,
        # so afterwards self.pos may be any position deep in the tree (even a finished one).
        self._fallback_moves = (list(self.ordered_moves()) if self.ordered_moves is not None
                               else self.pos.legal_moves())

        target = self.limits.depth if self.limits.depth is not None else UNLIMITED_DEPTH
        if self.deepen is not None and self.limits.depth is not None:
            depths: Iterable[int] = range(1, target + 1) if self.deepen else (target,)
        elif self.use_tt and self.limits.depth is not None:
            # A few cheap iterations give a fallback move and a good table, then straight to the
            # requested depth: the iterations in between cost as much as the last one each.
            depths = [*range(1, min(JUMP_AFTER, target - 1) + 1), target]
        elif self.use_tt or self.limits.seconds is not None or self.limits.nodes is not None:
            depths = range(1, target + 1)
        else:
            depths = (target,)
        previous: SearchResult | None = None
        for depth in depths:
            horizon_before = self.horizon_hits
            try:
                result = self._root(depth, previous.move if previous else None)
            except _Stopped:
                self._clock(time.perf_counter())
                if self.recorder is not None:
                    self.recorder.abandon()
                if previous is None:
                    yield self._fallback()
                else:
                    previous.stopped = True
                    previous.complete = False
                return
            result.exact = self.horizon_hits == horizon_before
            stats.depth = depth if depth != UNLIMITED_DEPTH else stats.seldepth
            self._clock(time.perf_counter())
            result.pv = self._principal_variation(result.pv, depth) if result.move is not None else []
            stats.best_move, stats.score = result.move, result.score
            stats.pv, stats.root_moves = list(result.pv), list(result.root_moves)
            result.stats = stats
            previous = result
            if self.on_progress is not None:
                self.on_progress(stats.snapshot())
            yield result
            # A proven result cannot change with more depth.
            if result.exact:
                return

    def _fallback(self) -> SearchResult:
        """Stopped before the first depth finished: any legal move beats none (the ordering's
        first choice if there is one: a win or a forced block)."""
        moves = self._fallback_moves
        move = moves[0] if moves else None
        return SearchResult(move, 0, [move] if move is not None else [], [], self.stats, False, False, True)


def iterate(position: Position[Any], limits: SearchLimits = SearchLimits(), algorithm: str = TT, **kw: Any) -> Iterator[SearchResult]:
    """Sunfish-style: ``for result in iterate(pos, limits): ...`` — one result per depth."""
    return Searcher(position, limits, algorithm, **kw).iterate()


def search(position: Position[Any], limits: SearchLimits = SearchLimits(), algorithm: str = TT, **kw: Any) -> SearchResult:
    """Run a search to its limits and return the last (deepest) result.

    Keyword arguments: ``on_progress(stats)``, ``recorder``, ``stop`` (threading.Event),
    ``rng`` (random.Random, for reproducible tie-breaks), ``table`` (a dict to keep the
    transposition table between searches), ``exact_root`` (score every root move exactly) and
    ``deepen`` (with a depth limit: True every depth 1..depth, False that depth only).
    """
    result = None
    # The last report is the answer: each iteration's is better founded than the one before.
    for report in iterate(position, limits, algorithm, **kw):
        result = report
    assert result is not None
    return result
