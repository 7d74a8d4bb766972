"""The checkers engine: the root, iterative deepening and the clock over a search core.

The node function lives in a core (:mod:`.core`): compiled C where ``pip install`` could
build it, else its pure-Python twin, which returns the same moves, scores and node counts
at a fixed depth. This driver is shared by both and keeps the house's search contract: it
reports :class:`SearchStats` / :class:`SearchResult`, obeys the ``stop`` event, the time
and node limits, calls ``on_progress`` at most ten times a second and feeds a
:class:`TreeRecorder` (the tree inspector's): the Python core records its subtrees itself,
the compiled core reports the recorder's top plies to a :class:`.tracing.RecorderTrace`
and searches everything below them untraced, so a recorded search runs at the compiled
core's speed and finds what an unrecorded one does (the same nodes, moves and scores).

- **Iterative deepening** with **aspiration windows** around the last iteration's score;
  the root searches its moves with PVS, the last iteration's best first, then by score.
- **Time**: ``limits.seconds`` counts CPU seconds of the search thread
  (``time.thread_time``), so a busy machine does not make the engine weaker; a wall-clock
  ceiling (``wall_factor`` times the budget, plus :data:`WALL_SLACK`; by default
  :data:`WALL_FACTOR`) stays as a safety. A timed search deepens until its budget runs out
  (each move has its own budget, so time left unspent is time lost): the iteration that runs
  out still counts if its first moves found a better one.
- **The table** lives in the :class:`Engine`, so a game's later searches start with the
  earlier ones' work; entries carry the search's age and give way to newer ones.
- **Endgame databases**: ``database`` (an :class:`EndgameDB` the caller opened: this
  package reads no files) or a bare ``probe(black, white, kings, turn)`` (1 win for the
  side to move, 0 draw, -1 loss, None unknown) is asked at every node with at most
  ``probe_pieces`` pieces (see :mod:`.core`; the compiled core probes the database in C).
  When the root itself is in the database, only the moves that keep its result are
  searched, and positions with as many pieces as the root are searched on and asked only
  at the horizon: a won position is then played by search and evaluation towards the next
  capture (a conversion, which the database scores higher the sooner it comes), instead of
  a field of moves the database calls equally won.

Scores follow :mod:`search`: from the side to move, heuristic values well inside ``WIN``;
a win at ``ply`` scores ``WIN - ply`` (faster wins, slower losses score higher).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import cast

from tui_games.engine.callbacks import weak_method
from tui_games.engine.checkers.core import MAX_PLY, PyCore, make_core
from tui_games.engine.checkers.egdb import DRAW, LOSS, EndgameDB
from tui_games.engine.checkers.egdb import WIN as DB_WIN_RESULT
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, MATERIAL_WEIGHTS, NETWORK
from tui_games.engine.checkers.network import Network
from tui_games.engine.checkers.position import CheckersPosition, Move, play
from tui_games.engine.checkers.tracing import RecorderTrace
from tui_games.engine.pacing import give_way
from tui_games.engine.search import (
    EXACT,
    INF,
    LOWER,
    UPPER,
    WIN,
    WIN_BOUND,
    RootMove,
    SearchLimits,
    SearchResult,
    SearchStats,
)
from tui_games.engine.tree import TreeNode, TreeRecorder

__all__ = ["ENGINE_NAME", "Engine"]

ENGINE_NAME = "checkers PVS + TT + deepening"
# Nodes between looks at the clock and the stop flag.
CHECK_EVERY = 1024
PROGRESS_INTERVAL = 0.1
# Half-width of the aspiration window (hundredths of a man), from this depth on.
ASPIRATION = 40
ASPIRATION_DEPTH = 4
# The wall-clock ceiling of a timed search: WALL_FACTOR × the CPU budget + WALL_SLACK (an
# engine measured in CPU time, as in the engine mode's matches, takes a larger factor).
WALL_FACTOR = 10.0
WALL_SLACK = 2.0
_CORE_EXACT, _CORE_LOWER, _CORE_UPPER = 0, 1, 2
WEIGHTS = {"default": DEFAULT_WEIGHTS, "material": MATERIAL_WEIGHTS, "network": DEFAULT_WEIGHTS}
# The evaluations with a network on top of their weights (evaluation.NETWORK).
NETWORKS = {"network": NETWORK}
# The timed engine's evaluation (strong and its hint, `checkers play`, the engine mode): the
# network on top of the linear one, which held GuiNN to 50% where the linear one made 44%
# (docs/games/checkers.md, the fifteenth round). The depth levels keep "default".
STRONG_EVALUATION = "network"
# An endgame database: (black, white, kings, turn) -> 1 / 0 / -1 for the side to move, or None.
Probe = Callable[[int, int, int, int], "int | None"]
_VERDICTS = {DB_WIN_RESULT: 1, LOSS: -1, DRAW: 0}


def database_probe(database: EndgameDB) -> Probe:
    """The search's probe over an endgame database (1 / 0 / -1 / None)."""
    def probe(black: int, white: int, kings: int, turn: int) -> int | None:
        value = database.probe_masks(black, white, kings, turn)
        return None if value is None else _VERDICTS[value]
    return probe


class _Stopped(Exception):
    pass


class Engine:
    """The checkers search. Keep one per player and game: its table and history carry over.

    ``evaluation`` names the static evaluation (``"default"``, ``"material"`` or ``"network"``,
    the default one with the network on top) or gives its weights, and ``net`` a network to
    add to given weights; ``compiled`` picks the core (None: the compiled one if it was built);
    ``table_bits``: the table has ``2**table_bits`` entries (16 bytes each in C; None: the
    core's default, :data:`core.DEFAULT_TABLE_BITS` in C, :data:`core.PY_TABLE_BITS` in Python).
    """

    def __init__(self, *, evaluation: str | tuple[int, ...] = "default", table_bits: int | None = None,
                 compiled: bool | None = None, probe: Probe | None = None, probe_pieces: int = 0,
                 wall_factor: float = WALL_FACTOR, database: EndgameDB | None = None,
                 net: Network | None = None) -> None:
        if isinstance(evaluation, str):
            key = evaluation.strip().lower()
            if key not in WEIGHTS:
                raise ValueError(f"unknown evaluation {evaluation!r}; choose one of {', '.join(WEIGHTS)}")
            evaluation = WEIGHTS[key]
            net = net if net is not None else NETWORKS.get(key)
        self.weights = tuple(evaluation)
        self.net = net
        self.table_bits = table_bits
        self.compiled = compiled
        self.wall_factor = wall_factor
        self.database = database
        self.capsule: object | None = None
        if database is not None and database.pieces:
            probe = database_probe(database)
            probe_pieces = min(probe_pieces, database.pieces) if probe_pieces else database.pieces
            # Held here: the capsule is valid while the database lives (the engine keeps it).
            self.capsule = database.capsule()
        self.probe = probe
        self.probe_pieces = probe_pieces if probe is not None else 0
        self._core: PyCore | None = None

    @property
    def core(self) -> PyCore:
        """The search core, made on first use (its table is the engine's memory)."""
        if self._core is None:
            self._core = make_core(self.table_bits, self.weights, compiled=self.compiled, net=self.net)
        return self._core

    @property
    def is_compiled(self) -> bool:
        return not isinstance(self.core, PyCore)

    def verdict(self, position: CheckersPosition) -> int | None:
        """The database's result for the side to move (1 win, 0 draw, -1 loss), or None when
        the position is not covered (or there is no database)."""
        if self.probe is None or not self.probe_pieces or (position.black | position.white).bit_count() > self.probe_pieces:
            return None
        return self.probe(position.black, position.white, position.kings, position.turn)

    def clear(self) -> None:
        """Forget everything learned (a new game)."""
        if self._core is not None:
            self._core.clear()

    def search(
        self,
        position: CheckersPosition,
        limits: SearchLimits | None = None,
        *,
        stop: threading.Event | None = None,
        on_progress: Callable[[SearchStats], None] | None = None,
        recorder: TreeRecorder | None = None,
        rng: random.Random | None = None,
    ) -> SearchResult:
        """Search ``position`` (never changed) to ``limits``; the deepest finished result.

        ``limits.depth`` caps the iterations, ``limits.seconds`` is the budget in CPU seconds
        of this thread (see the module doc), ``limits.nodes`` a node budget. With none of
        them the search goes to :data:`MAX_PLY` — give one.
        """
        return _Search(self, position, limits or SearchLimits(), stop, on_progress, recorder,
                       rng or random.Random()).run()


def _keeping(engine: Engine, position: CheckersPosition, moves: list[Move], verdict: int) -> list[Move]:
    """The root moves after which the database's result stays ``verdict`` (all of them in a
    lost position, where any move loses)."""
    if verdict < 0:
        return moves
    b, w, k, t = position.black, position.white, position.kings, position.turn
    kept = []
    for m in moves:
        nb, nw, nk, nt = play(b, w, k, t, m)
        child = engine.probe(nb, nw, nk, nt) if nb and nw else -1  # type: ignore[misc]
        if child is not None and -child == verdict:
            kept.append(m)
    return kept or moves


def moves_of_keys(position: CheckersPosition, keys: list[int]) -> list[Move]:
    """The moves named by ``keys`` (see :func:`position.move_key`) played from
    ``position``, as far as they are legal."""
    pos = position.copy()
    out = []
    for key in keys:
        move = next((m for m in pos.legal_moves() if m[5] == key), None)
        if move is None:
            break
        pos.push(move)
        out.append(move)
    return out


class _Search:
    """One search run."""

    def __init__(self, engine: Engine, position: CheckersPosition, limits: SearchLimits,
                 stop: threading.Event | None, on_progress: Callable[[SearchStats], None] | None,
                 recorder: TreeRecorder | None, rng: random.Random) -> None:
        self.engine = engine
        self.core = engine.core
        self.position = position
        self.limits = limits
        self.stop = stop
        self.on_progress = on_progress
        self.recorder = recorder
        self.rng = rng
        self.stats = SearchStats(algorithm=ENGINE_NAME)
        self.cpu_start = 0.0
        self.wall_start = 0.0
        self.last_progress = 0.0
        self.root_nodes = 0
        self.pass_state: tuple[int, list[RootMove]] = (-INF, [])
        self.pass_best: tuple[int, Move, list[int]] | None = None
        self.pass_root: TreeNode | None = None
        self.horizon_seen = 0

    # -- the clock ---------------------------------------------------------------------------------

    def cpu(self) -> float:
        """CPU seconds of the search thread so far (the budget's clock); the stats get the
        wall seconds beside them."""
        cpu = time.thread_time() - self.cpu_start
        self.stats.cpu_seconds = cpu
        self.stats.wall_seconds = time.perf_counter() - self.wall_start
        return cpu

    def _check(self, nodes: int) -> None:
        """Called by the core every CHECK_EVERY nodes: raises _Stopped to end the search."""
        give_way()
        if self.stop is not None and self.stop.is_set():
            raise _Stopped
        limits = self.limits
        if limits.nodes is not None and nodes + self.root_nodes >= limits.nodes:
            raise _Stopped
        now = time.perf_counter()
        if limits.seconds is not None and (self.cpu() >= limits.seconds or now >= self.wall_deadline):
            raise _Stopped
        if self.on_progress is not None and now - self.last_progress >= PROGRESS_INTERVAL:
            self.last_progress = now
            self._count()
            self.on_progress(self.stats.snapshot())

    def _count(self) -> None:
        stats = self.stats
        nodes, leaves, cutoffs, hits, seldepth, _ = self.core.counters()
        stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits = nodes + self.root_nodes, leaves, cutoffs, hits
        stats.seldepth = seldepth
        stats.seconds = self.cpu()

    # -- the iterations ----------------------------------------------------------------------------

    def run(self) -> SearchResult:
        pos = self.position
        stats = self.stats
        self.cpu_start = time.thread_time()
        self.wall_start = self.last_progress = time.perf_counter()
        limits = self.limits
        seconds = limits.seconds
        self.wall_deadline = self.wall_start + (
            seconds * self.engine.wall_factor + WALL_SLACK if seconds is not None else INF)
        root_moves = pos.legal_moves()
        outcome = pos.outcome()
        if outcome is not None or not root_moves:
            stats.seconds = self.cpu()
            score = 0
            if outcome is not None and outcome.winner is not None:
                score = WIN if outcome.winner == pos.turn else -WIN
            return SearchResult(None, score, [], [], stats, True, True, False)

        core = self.core
        engine = self.engine
        probe_pieces = cut_pieces = engine.probe_pieces
        root_verdict = engine.verdict(pos)
        if root_verdict is not None:
            root_moves = _keeping(engine, pos, root_moves, root_verdict)
            cut_pieces = (pos.black | pos.white).bit_count() - 1
        probe = engine.probe
        check = weak_method(self._check)  # the core keeps it: see engine/callbacks.py
        if engine.capsule is not None and not isinstance(core, PyCore):
            probe = cast(Probe, engine.capsule)  # the compiled core takes _egdb's capsule too
        if self.recorder is not None and isinstance(core, PyCore):
            core.begin(pos.history_keys(), check, CHECK_EVERY, probe, probe_pieces, cut_pieces,
                       recorder=self.recorder)
        elif self.recorder is not None:
            core.begin(pos.history_keys(), check, CHECK_EVERY, probe, probe_pieces, cut_pieces,
                       tracer=RecorderTrace(self.recorder))
        else:
            core.begin(pos.history_keys(), check, CHECK_EVERY, probe, probe_pieces, cut_pieces)
        max_depth = min(limits.depth, MAX_PLY - 1) if limits.depth is not None else MAX_PLY - 1
        self.rng.shuffle(root_moves)  # ties fall randomly (seeded): the sorts below are stable
        entry = core.entry(cast(int, pos.key()))
        if entry is not None:
            root_moves.sort(key=lambda m: m[5] != entry[3])
        single = len(root_moves) == 1
        previous: SearchResult | None = None
        stopped = False
        depth = 0
        while depth < max_depth:
            depth += 1
            horizon_before = core.counters()[5]
            lo, hi = -INF, INF
            if previous is not None and depth >= ASPIRATION_DEPTH and abs(previous.score) < WIN_BOUND:
                lo, hi = previous.score - ASPIRATION, previous.score + ASPIRATION
            try:
                while True:
                    best, best_move, line, results = self._root(root_moves, depth, lo, hi)
                    if best <= lo:
                        lo = -INF  # failed low: the score is below the window, search again
                    elif best >= hi:
                        hi = INF
                    else:
                        break
            except _Stopped:
                stopped = True
                answer = self._partial(previous)
                if self.recorder is not None:
                    self._keep_tree(answer is not previous)
                previous = answer
                break
            if self.recorder is not None:
                self.recorder.commit()
            results.sort(key=lambda rm: (rm.bound != EXACT, -rm.score))
            exact = core.counters()[5] == horizon_before
            core.store(cast(int, pos.key()), depth, _CORE_EXACT, best, best_move[5])
            pv = self._extend_line(line, depth)
            previous = SearchResult(best_move, best, pv, results, stats, True, exact, False)
            stats.depth = depth
            self._publish(previous)
            now = time.perf_counter()
            if self.on_progress is not None and now - self.last_progress >= PROGRESS_INTERVAL:
                self.last_progress = now
                self.on_progress(stats.snapshot())
            if exact or (single and limits.depth is None):
                break
            if abs(best) >= WIN_BOUND and WIN - abs(best) < depth - 1:
                break  # a win (or loss) found with depth to spare: deeper cannot shorten it
            if seconds is not None and self.cpu() >= seconds:
                break
            # Next iteration: the best move first, then by this iteration's scores.
            scores = {rm.move: rm.score for rm in results}
            root_moves.sort(key=lambda m: (m is not best_move, -scores.get(m, -INF)))
        if previous is None:
            # Stopped before the first iteration finished: any legal move beats none.
            move = root_moves[0]
            previous = SearchResult(move, 0, [move], [], stats, False, False, True)
        if stopped:
            previous.stopped = True
            previous.complete = False
        self._publish(previous)
        previous.stats = stats
        if self.on_progress is not None:
            self.on_progress(stats.snapshot())  # the final numbers, whatever the rate
        return previous

    # -- the root ---------------------------------------------------------------------------------------

    def _root(self, moves: list[Move], depth: int, lo: int, hi: int) -> tuple[int, Move, list[Move | int], list[RootMove]]:
        """One pass over the root moves with the window (lo, hi); PVS after the first."""
        pos = self.position
        core = self.core
        node = core.node
        recorder = self.recorder
        rec_root = recorder.begin(depth) if recorder is not None else None
        self.pass_root = rec_root
        b0, w0, k0, t0 = pos.black, pos.white, pos.kings, pos.turn
        z0, q0 = cast(int, pos.key()), pos.quiet_plies
        alpha = lo
        best = -INF
        best_move = moves[0]
        line: list[Move | int] = []
        results: list[RootMove] = []
        # Progress of this pass, for a stop in the middle of it (see _partial).
        self.pass_state = (lo, results)
        self.pass_best = None
        self.root_nodes += 1
        for i, m in enumerate(moves):
            delta, cap, kdelta = m[0], m[1], m[2]
            if t0:
                nb, nw = b0 ^ cap, w0 ^ delta
            else:
                nb, nw = b0 ^ delta, w0 ^ cap
            nk = (k0 & ~cap) ^ kdelta
            nz = z0 ^ m[3]
            nq = 0 if cap or kdelta != delta else q0 + 1
            child = recorder.add_child(rec_root, m, 1, -hi, -alpha) if recorder is not None and rec_root is not None else None
            if child is None:
                if i == 0:
                    score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq)
                else:
                    score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -alpha - 1, -alpha, 1, nq)
                    if alpha < score < hi:
                        score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq)
            elif i == 0:
                score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq, child)
            else:
                score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -alpha - 1, -alpha, 1, nq, child)
                if alpha < score < hi:
                    child.children.clear()
                    child.alpha, child.beta = -hi, -alpha
                    score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq, child)
            bound = UPPER if score <= alpha else LOWER if score >= hi else EXACT
            results.append(RootMove(m, score, bound))
            if score > best:
                best, best_move = score, m
                keys = core.pv(1)
                self.pass_best = (best, best_move, keys)
                if score > alpha:
                    alpha = score
                    line = [m, *keys]
                    if score >= hi:
                        break
        if rec_root is not None:
            rec_root.close(best, EXACT if lo < best < hi else LOWER if best >= hi else UPPER, "", best_move)
        # A pass that fails high stops early (it is searched again with a wider window); the
        # last pass of an iteration never does, so its results hold every root move.
        return best, best_move, line or [best_move], results

    def _partial(self, previous: SearchResult | None) -> SearchResult | None:
        """The answer when a pass stops midway: its best move if that beat the previous
        iteration's choice (searched first in the pass, it set the bar), else the previous
        iteration's answer."""
        lo, results = self.pass_state
        if previous is None or not results or self.pass_best is None:
            return previous
        best, best_move, keys = self.pass_best
        if best_move is previous.move or best <= lo or results[0].move is not previous.move:
            return previous
        searched = {rm.move for rm in results}
        rest = [rm for rm in previous.root_moves if rm.move not in searched]
        merged = sorted(results + rest, key=lambda rm: (rm.bound != EXACT, -rm.score))
        line: list[Move | int] = [best_move, *keys]
        return SearchResult(best_move, best, self._extend_line(line, len(line)), merged, self.stats, False, False,
                            True)

    def _keep_tree(self, answered_by_pass: bool) -> None:
        """The search stopped midway: the inspector keeps the last finished iteration's tree,
        unless the answer is the stopped pass's move (see _partial), whose tree then shows
        it: the root a lower bound (moves were left unsearched), marked partial."""
        recorder = cast(TreeRecorder, self.recorder)
        if not answered_by_pass or self.pass_root is None or self.pass_best is None:
            recorder.abandon()
            return
        best, best_move, _ = self.pass_best
        self.pass_root.close(best, "lower", "", best_move)
        recorder.commit()
        recorder.partial = True

    def _publish(self, result: SearchResult) -> None:
        stats = self.stats
        self._count()
        stats.best_move, stats.score, stats.pv = result.move, result.score, list(result.pv)
        stats.root_moves = list(result.root_moves)

    def _extend_line(self, line: list[Move | int], depth: int) -> list[Move]:
        """The expected line (the root move, then move keys from the core), continued from
        the table where the search's own line stops."""
        pos = self.position.copy()
        first, keys = cast(Move, line[0]), line[1:]
        if first not in pos.legal_moves():
            return []
        pos.push(first)
        out = [first]
        for move in moves_of_keys(pos, [k if isinstance(k, int) else k[5] for k in keys]):
            pos.push(move)
            out.append(move)
        seen = {pos.key()}
        while len(out) < max(depth, 1) and pos.outcome() is None:
            entry = self.core.entry(cast(int, pos.key()))
            if entry is None:
                break
            found = next((m for m in pos.legal_moves() if m[5] == entry[3]), None)
            if found is None:
                break
            pos.push(found)
            out.append(found)
            if pos.key() in seen:
                break
            seen.add(pos.key())
        return out
