"""The checkers engine: a specialised hot loop in the house's search contract.

Why not the generic :mod:`search`: that one plays moves on a position object and asks it
for its outcome at every node; here the node function takes the masks as plain ints, plays
a move with four XORs (see :mod:`.position`) and runs several times faster (``tui-games
bench checkers`` prints both). It reports the same :class:`SearchStats` /
:class:`SearchResult`, obeys the same ``stop`` event and deadline, calls ``on_progress`` at
most ten times a second and feeds the same :class:`TreeRecorder`.

The search:

- **PVS** (principal variation search) in negamax form with **iterative deepening** under
  a time budget and **aspiration windows** around the last iteration's score; the root
  re-orders its moves by the last iteration's scores.
- **Transposition table** keyed by the position's Zobrist key (kept incrementally by the
  moves), holding depth, bound, score and best move; it lives in the :class:`Engine` so
  a game's later searches start with the earlier ones' work.
- **Move ordering**: the table's move, then captures by size, killer moves (two per ply),
  then the history heuristic.
- **Capture extension** (the checkers quiescence): at the horizon a side that must capture
  keeps capturing, so no line is ever scored in the middle of an exchange; a single legal
  move is searched without spending depth.
- **Late move reductions** for quiet moves late in the order, re-searched when they surprise.
- **Draws**: a position that repeats one on the path or in the game (since the last capture
  or man move) scores 0, as does the 40-move rule's 80th quiet ply; the side ahead
  therefore avoids repetitions, and the side behind seeks them. Past :data:`QUIET_FADE`
  quiet plies the evaluation fades towards the 40-move draw, so the side ahead prefers the
  lines that make progress (a capture or a man's move) over shuffling kings.

Scores follow :mod:`search`: from the side to move, heuristic values well inside ``WIN``;
a win at ``ply`` scores ``WIN - ply`` (faster wins, slower losses score higher).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable

from tui_games.engine.checkers.evaluation import resolve as resolve_evaluation
from tui_games.engine.checkers.position import (
    BLACK,
    QUIET_LIMIT,
    CheckersPosition,
    Move,
    generate,
    has_capture,
    has_step,
)
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
MAX_PLY = 120
# Nodes between looks at the clock and the stop flag.
CHECK_EVERY = 1024
PROGRESS_INTERVAL = 0.1
# The table is cleared when it grows past this many entries (about 150 bytes each).
TABLE_LIMIT = 400_000
# Late move reductions: from this depth, after this many moves, quiet moves only.
LMR_DEPTH = 3
LMR_AFTER = 3
# Half-width of the aspiration window (hundredths of a man), from this depth on.
ASPIRATION = 40
ASPIRATION_DEPTH = 4
# With a time budget, no new iteration starts after this share of it; one that does not
# finish still counts if it found a better move (see _Search.run).
SOFT_SHARE = 0.55
# From this many quiet plies the evaluation fades linearly to 0 at the 40-move draw.
QUIET_FADE = 24
# Table entry flags (ints: cheaper than the generic search's strings in the hot loop).
_EXACT, _LOWER, _UPPER = 0, 1, 2
_BOUNDS = {_EXACT: EXACT, _LOWER: LOWER, _UPPER: UPPER}
_NO_LINE: tuple = ()


class _Stopped(Exception):
    pass


def _plain(score: int, ply: int) -> int:
    """A score as stored in the table: wins counted from the node, not from the root."""
    if score >= WIN_BOUND:
        return score + ply
    if score <= -WIN_BOUND:
        return score - ply
    return score


def _rooted(score: int, ply: int) -> int:
    if score >= WIN_BOUND:
        return score - ply
    if score <= -WIN_BOUND:
        return score + ply
    return score


class Engine:
    """The checkers search. Keep one per player and game: its table and history carry over.

    ``evaluation`` names the static evaluation (``"default"`` or ``"material"``).
    """

    def __init__(self, *, evaluation: str = "default", table_limit: int = TABLE_LIMIT) -> None:
        self.evaluate = resolve_evaluation(evaluation)
        self.table: dict[int, tuple] = {}
        self.table_limit = table_limit
        self.history: dict[int, int] = {}

    def clear(self) -> None:
        """Forget everything learned (a new game)."""
        self.table.clear()
        self.history.clear()

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

        ``limits.depth`` caps the iterations, ``limits.seconds`` is a hard deadline (no new
        iteration starts after :data:`SOFT_SHARE` of it), ``limits.nodes`` a node budget.
        With none of them the search goes to :data:`MAX_PLY` — give one.
        """
        return _Search(self, position, limits or SearchLimits(), stop, on_progress, recorder,
                       rng or random.Random()).run()


class _Search:
    """One search run: the node function is a closure over this run's state."""

    def __init__(self, engine: Engine, position: CheckersPosition, limits: SearchLimits,
                 stop: threading.Event | None, on_progress: Callable[[SearchStats], None] | None,
                 recorder: TreeRecorder | None, rng: random.Random) -> None:
        self.engine = engine
        self.position = position
        self.limits = limits
        self.stop = stop
        self.on_progress = on_progress
        self.recorder = recorder
        self.rng = rng
        self.stats = SearchStats(algorithm=ENGINE_NAME)
        self.start = 0.0
        # 0 nodes, 1 leaves, 2 cutoffs, 3 tt hits, 4 seldepth, 5 horizon hits, 6 next check
        # (a list: cheaper to update from the closure than nonlocal names)
        self.counters = [0, 0, 0, 0, 0, 0, CHECK_EVERY]
        self.pass_state: tuple[int, list[RootMove]] = (-INF, [])
        # When on_progress was last called (a list: the node function's closure updates it).
        self.last_progress = [0.0]
        self.pass_best: tuple | None = None

    def run(self) -> SearchResult:
        pos = self.position
        stats = self.stats
        self.start = start = time.perf_counter()
        self.last_progress[0] = start
        limits = self.limits
        root_moves = pos.legal_moves()
        outcome = pos.outcome()
        if outcome is not None or not root_moves:
            stats.seconds = time.perf_counter() - start
            score = 0
            if outcome is not None and outcome.winner is not None:
                score = WIN if outcome.winner == pos.turn else -WIN
            return SearchResult(None, score, [], [], stats, True, True, False)

        engine = self.engine
        if len(engine.table) > engine.table_limit:
            engine.table.clear()
        history = engine.history
        # Old history counts fade so that this position's own statistics take over.
        for key in list(history):
            history[key] >>= 2
            if not history[key]:
                del history[key]
        # Positions of the game since the last irreversible move, and then the path's: a
        # position met again scores 0.
        seen: dict[int, int] = {}
        for key in pos.history_keys():
            seen[key] = seen.get(key, 0) + 1
        self.node = self._node_function(seen)

        soft = start + limits.seconds * SOFT_SHARE if limits.seconds is not None else None
        max_depth = min(limits.depth, MAX_PLY - 1) if limits.depth is not None else MAX_PLY - 1
        self.rng.shuffle(root_moves)  # ties fall randomly (seeded): the sorts below are stable
        entry = engine.table.get(pos.key())
        if entry is not None and entry[3]:
            root_moves.sort(key=lambda m: m[3] != entry[3])
        single = len(root_moves) == 1
        previous: SearchResult | None = None
        stopped = False
        depth = 0
        while depth < max_depth:
            depth += 1
            horizon_before = self.counters[5]
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
                if self.recorder is not None:
                    self.recorder.abandon()
                previous = self._partial(previous)
                break
            if self.recorder is not None:
                self.recorder.commit()
            results.sort(key=lambda rm: (rm.bound != EXACT, -rm.score))
            exact = self.counters[5] == horizon_before
            engine.table[pos.key()] = (depth, _EXACT, best, best_move[3])
            line = self._extend_line(line, depth)
            previous = SearchResult(best_move, best, line, results, stats, True, exact, False)
            stats.depth = depth
            self._publish(previous)
            now = time.perf_counter()
            if self.on_progress is not None and now - self.last_progress[0] >= PROGRESS_INTERVAL:
                self.last_progress[0] = now
                self.on_progress(stats.snapshot())
            if exact or (single and limits.depth is None):
                break
            if abs(best) >= WIN_BOUND and WIN - abs(best) < depth - 1:
                break  # a win (or loss) found with depth to spare: deeper cannot shorten it
            if soft is not None and time.perf_counter() >= soft:
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

    def _root(self, moves: list[Move], depth: int, lo: int, hi: int) -> tuple[int, Move, list, list[RootMove]]:
        """One pass over the root moves with the window (lo, hi); PVS after the first."""
        pos = self.position
        node = self.node
        pv = self.pv
        recorder = self.recorder
        rec_root = recorder.begin(depth) if recorder is not None else None
        b0, w0, k0, t0 = pos.black, pos.white, pos.kings, pos.turn
        z0, q0 = pos.key(), pos.quiet_plies
        alpha = lo
        best = -INF
        best_move = moves[0]
        line: list = []
        results: list[RootMove] = []
        # Progress of this pass, for a stop in the middle of it (see _partial).
        self.pass_state = (lo, results)
        self.pass_best = None
        self.counters[0] += 1
        for i, m in enumerate(moves):
            delta, cap, kdelta = m[0], m[1], m[2]
            if t0 == BLACK:
                nb, nw = b0 ^ delta, w0 ^ cap
            else:
                nb, nw = b0 ^ cap, w0 ^ delta
            nk = (k0 & ~cap) ^ kdelta
            nz = z0 ^ m[3]
            nq = 0 if cap or kdelta != delta else q0 + 1
            child = recorder.add_child(rec_root, m, 1, -hi, -alpha) if rec_root is not None else None
            if i == 0:
                score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq, child)
            else:
                score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -alpha - 1, -alpha, 1, nq, child)
                if alpha < score < hi:
                    if child is not None:
                        child.children.clear()
                        child.alpha, child.beta = -hi, -alpha
                    score = -node(nb, nw, nk, t0 ^ 1, nz, depth - 1, -hi, -alpha, 1, nq, child)
            bound = UPPER if score <= alpha else LOWER if score >= hi else EXACT
            results.append(RootMove(m, score, bound))
            if score > best:
                best, best_move = score, m
                self.pass_best = (best, best_move, [m, *pv[1]])
                if score > alpha:
                    alpha = score
                    line = [m, *pv[1]]
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
        best, best_move, line = self.pass_best
        if best_move is previous.move or best <= lo or results[0].move is not previous.move:
            return previous
        searched = {rm.move for rm in results}
        rest = [rm for rm in previous.root_moves if rm.move not in searched]
        merged = sorted(results + rest, key=lambda rm: (rm.bound != EXACT, -rm.score))
        return SearchResult(best_move, best, self._extend_line(line, len(line)), merged, self.stats, False, False,
                            True)

    def _publish(self, result: SearchResult) -> None:
        stats = self.stats
        c = self.counters
        stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.seldepth = c[0], c[1], c[2], c[3], c[4]
        stats.seconds = time.perf_counter() - self.start
        stats.best_move, stats.score, stats.pv = result.move, result.score, list(result.pv)
        stats.root_moves = list(result.root_moves)

    def _extend_line(self, line: list, depth: int) -> list:
        """The expected line, continued from the table where the search's own line stops."""
        pos = self.position.copy()
        out = []
        for m in line:
            if m not in pos.legal_moves():
                return out
            pos.push(m)
            out.append(m)
        table = self.engine.table
        seen = {pos.key()}
        while len(out) < max(depth, 1) and pos.outcome() is None:
            entry = table.get(pos.key())
            if entry is None or not entry[3]:
                break
            move = _find(pos.legal_moves(), entry[3])
            if move is None:
                break
            pos.push(move)
            out.append(move)
            if pos.key() in seen:
                break
            seen.add(pos.key())
        return out

    # -- the hot loop -----------------------------------------------------------------------------------

    def _node_function(self, seen: dict[int, int]) -> Callable[..., int]:
        """The node function, a closure over local names (the fastest lookups Python has)."""
        engine = self.engine
        table = engine.table
        history = engine.history
        evaluate = engine.evaluate
        gen = generate
        capture_test = has_capture
        step_test = has_step
        killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self.pv = pv = [_NO_LINE] * (MAX_PLY + 2)
        counters = self.counters
        recorder = self.recorder
        stats = self.stats
        stop_flag = self.stop
        limits = self.limits
        deadline = self.start + limits.seconds if limits.seconds is not None else None
        node_limit = limits.nodes
        on_progress = self.on_progress
        last_progress = self.last_progress
        fade_span = QUIET_LIMIT - QUIET_FADE

        def check() -> None:
            give_way()
            counters[6] = counters[0] + CHECK_EVERY
            now = time.perf_counter()
            if stop_flag is not None and stop_flag.is_set():
                raise _Stopped
            if deadline is not None and now >= deadline:
                raise _Stopped
            if node_limit is not None and counters[0] >= node_limit:
                raise _Stopped
            if on_progress is not None and now - last_progress[0] >= PROGRESS_INTERVAL:
                last_progress[0] = now
                c = counters
                stats.nodes, stats.leaves, stats.cutoffs, stats.tt_hits, stats.seldepth = c[0], c[1], c[2], c[3], c[4]
                stats.seconds = now - self.start
                on_progress(stats.snapshot())

        def node(b: int, w: int, k: int, turn: int, z: int, depth: int, alpha: int, beta: int, ply: int,
                 quiet: int, tnode: TreeNode | None) -> int:
            counters[0] += 1
            if counters[0] >= counters[6]:
                check()
            pv[ply] = _NO_LINE
            if ply > counters[4]:  # noqa: PLR1730  (no call in the hot loop)
                counters[4] = ply
            # Draws by rule: a repetition (path or game) or the 40-move rule.
            if quiet >= 4 and z in seen or quiet >= QUIET_LIMIT:
                counters[1] += 1
                counters[5] += 1  # not a proof: the path decides it
                if tnode is not None:
                    tnode.close(0, EXACT, "end")
                return 0
            # The horizon: stand pat unless a capture is pending (then capture on).
            if (depth <= 0 or ply >= MAX_PLY) and (ply >= MAX_PLY or not capture_test(b, w, k, turn)):
                counters[1] += 1
                if ply < MAX_PLY and not step_test(b, w, k, turn):
                    score = ply - WIN
                    if tnode is not None:
                        tnode.close(score, EXACT, "end")
                    return score
                counters[5] += 1
                score = evaluate(b, w, k, turn)
                if quiet > QUIET_FADE:
                    score = score * (QUIET_LIMIT - quiet) // fade_span
                if tnode is not None:
                    tnode.close(score, EXACT, "horizon")
                return score
            moves = gen(b, w, k, turn)
            if not moves:
                counters[1] += 1
                score = ply - WIN
                if tnode is not None:
                    tnode.close(score, EXACT, "end")
                return score
            capture = moves[0][1] != 0
            n = len(moves)
            if n == 1 and depth > 0:
                depth += 1  # a forced move costs no depth
            alpha0 = alpha
            # The table.
            entry = table.get(z)
            tt_move = 0
            if entry is not None:
                e_depth, e_flag, e_score, tt_move = entry
                if e_depth >= depth:
                    s = _rooted(e_score, ply)
                    if e_flag == _EXACT or (e_flag == _LOWER and s >= beta) or (e_flag == _UPPER and s <= alpha):
                        counters[3] += 1
                        if -WIN_BOUND < s < WIN_BOUND:
                            counters[5] += 1
                        if tnode is not None:
                            tnode.close(s, _BOUNDS[e_flag], "tt")
                        return s
            # Ordering: the table's move, captures by size, killers, history.
            if n > 1:
                if capture:
                    moves.sort(key=_capture_size, reverse=True)
                else:
                    k1, k2 = killers[ply]
                    hist = history.get
                    moves.sort(key=lambda m: 1 << 40 if m[3] == k1 else 1 << 39 if m[3] == k2 else hist(m[3], 0),
                               reverse=True)
                if tt_move and moves[0][3] != tt_move:
                    for i in range(1, n):
                        if moves[i][3] == tt_move:
                            moves.insert(0, moves.pop(i))
                            break
            seen[z] = seen.get(z, 0) + 1
            best = -INF
            best_id = 0
            d1 = depth - 1
            nply = ply + 1
            reducible = depth >= LMR_DEPTH and not capture
            for i, m in enumerate(moves):
                delta, cap, kdelta = m[0], m[1], m[2]
                if turn == BLACK:
                    nb, nw = b ^ delta, w ^ cap
                else:
                    nb, nw = b ^ cap, w ^ delta
                nk = (k & ~cap) ^ kdelta
                nz = z ^ m[3]
                nq = 0 if cap or kdelta != delta else quiet + 1
                child = None
                if tnode is not None:
                    child = recorder.add_child(tnode, m, nply, -beta, -alpha)  # type: ignore[union-attr]
                if i == 0:
                    score = -node(nb, nw, nk, turn ^ 1, nz, d1, -beta, -alpha, nply, nq, child)
                else:
                    reduce = 1 if reducible and i >= LMR_AFTER else 0
                    score = -node(nb, nw, nk, turn ^ 1, nz, d1 - reduce, -alpha - 1, -alpha, nply, nq, child)
                    if score > alpha and (reduce or score < beta):
                        if child is not None:
                            child.children.clear()
                            child.alpha, child.beta = -beta, -alpha
                        score = -node(nb, nw, nk, turn ^ 1, nz, d1, -beta, -alpha, nply, nq, child)
                if score > best:
                    best = score
                    best_id = m[3]
                    if score > alpha:
                        alpha = score
                        pv[ply] = (m, *pv[nply])
                        if score >= beta:
                            counters[2] += 1
                            if not capture:
                                ks = killers[ply]
                                if ks[0] != best_id:
                                    ks[1] = ks[0]
                                    ks[0] = best_id
                                history[best_id] = history.get(best_id, 0) + depth * depth
                            if tnode is not None:
                                tnode.pruned = moves[i + 1:]
                            break
            count = seen[z] - 1
            if count:
                seen[z] = count
            else:
                del seen[z]
            flag = _LOWER if best >= beta else _UPPER if best <= alpha0 else _EXACT
            table[z] = (depth, flag, _plain(best, ply), best_id)
            if tnode is not None:
                tnode.close(best, _BOUNDS[flag], "", _find(moves, best_id))
            return best

        return node


def _capture_size(move: Move) -> int:
    return move[1].bit_count()


def _find(moves: list, move_id: int) -> Move | None:
    for m in moves:
        if m[3] == move_id:
            return m
    return None
