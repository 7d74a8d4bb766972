"""The checkers search core: the node function with its table, killers and history.

Two twins give the same scores, lines and node counts at a fixed depth:

- :class:`PyCore`, here: pure Python, the reference and the fallback;
- ``_ckcore.Core``: the same code in C (``_ckcore.c``, built by ``pip install`` where a C
  compiler exists), fifteen to twenty times faster.

:func:`make_core` picks the compiled one when it is there. The driver (:mod:`.engine`)
runs the root, iterative deepening, aspiration windows and the clock; a core searches one
root move's subtree per :meth:`node` call. The interface:

- ``Core(table_bits, weights, net=None)``: a table of ``2**table_bits`` entries, the evaluation's
  weights (:data:`evaluation.DEFAULT_WEIGHTS`) and the network on top of it, if any (the
  compiled core takes it as ``(hidden1, hidden2, weights)``, :class:`network.Network`'s fields);
- ``begin(keys, check, check_every, probe=None, probe_pieces=0)``: a new search; ``keys``
  are the game's position keys since the last irreversible move, the root's last
  (repetitions score 0); ``check(nodes)`` is called every ``check_every`` nodes and raises
  to stop the search (the exception comes out of :meth:`node`); the table's age advances,
  killers clear, history fades. ``probe(black, white, kings, turn)``, an endgame
  database, is asked at every node with at most ``probe_pieces`` pieces (both sides on
  the board): 1 (the side to move wins), 0 (draw), -1 (loses) or None (not known); the
  compiled core also takes ``EndgameDB.capsule()``, probed in C without the GIL. With
  ``cut_pieces`` (fewer than ``probe_pieces``) a node of more pieces than that is asked
  only at the horizon and otherwise searched on: what a root in the database wants, so
  that the search sees how to make progress rather than a field of equal wins. A win
  scores :data:`DB_WIN` plus the evaluation (kept within :data:`DB_MARGIN`, so the search
  still makes progress) minus the ply (a sooner conversion is better), a loss the
  opposite: between the heuristic scores and the proven wins;
- ``node(black, white, kings, turn, key, depth, alpha, beta, ply, quiet)``: the score;
- ``pv(ply)``: the move keys of the line found below ``ply`` by the last ``node`` call;
- ``counters()``: (nodes, leaves, cutoffs, table hits, selective depth, horizon hits);
- ``entry(key)`` / ``store(key, depth, flag, score, move)``: the table, for the root;
- ``evaluate(black, white, kings, turn)``.

The node function:

- **PVS** (null windows after the first move) with **late move reductions** of quiet moves
  late in the order (from depth :data:`LMR_DEPTH`, after :data:`LMR_AFTER` moves): one ply,
  two for a move from the sixth on (depth 5+), three from the ninth (depth 8+), one more
  from the fifth move at depth 11+ and another from the seventh at depth 15+, one more off
  the PV for a move without history, one less on the PV and one less for a killer; a
  reduced move that beats alpha is searched again to the full depth. Crowning moves are
  never reduced;
- **selectivity off the PV**, never where the side to move must capture (captures are
  compulsory, so a capture node's moves are all forced) nor in an ending of
  :data:`SELECT_PIECES` pieces or fewer (won king endings are converted by long manoeuvres
  that pruning cuts short): *reverse futility* from depth
  :data:`RFP_DEPTH` down returns the evaluation less :data:`RFP_MARGIN` a ply when that
  still clears beta and neither side has a capture (a pending shot makes the evaluation
  meaningless); *late move pruning* from depth :data:`LMP_DEPTH` down searches only the
  first ``2 + 2 * depth`` quiet moves, and after them only crowning moves and those that
  leave the opponent a capture (the sacrifices that set up shots); *ProbCut* (as multi-ProbCut
  in checkers and Othello programs) from depth :data:`PC_DEPTH` up: where the evaluation
  clears beta by :data:`PC_MARGIN`, a null-window search :data:`PC_REDUCE` plies shallower
  (at least one) that clears it too is taken as the cut; its best move orders the deep
  search when it does not cut. The evaluation's gate makes the shallow search rare enough
  to try it this low and this close to beta;
- **capture extension** (the checkers quiescence): at the horizon a side that must capture
  keeps capturing; a forced move costs no depth from depth 2 up (at the last ply a forced
  capture is the quiescence's already); a quiet move at the last ply that leaves its side a
  capture (a threat) gets one ply more, so the opponent's answer is searched;
- **transposition table**: one entry per slot (key, score, move key, depth, bound, age);
  a slot is replaced by the same position, by any deeper or equal search, or when its
  entry is from an earlier search (the age);
- **ordering**: the table's move, then captures by size, or killers (two per ply) and the
  history counts (per side, start and end square) for quiet moves (a quiet cutoff adds
  depth squared to its move and takes as much off the quiet moves tried before it, never
  below zero; every search quarters them); every move gets one
  integer key and distinct moves never tie, so both twins order alike whatever order
  their generators produce;
- **draws**: a repetition (of the path or the game) and the 40-move rule's 80th quiet ply
  score 0; past :data:`QUIET_FADE` quiet plies the evaluation fades towards that draw.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tui_games.engine.checkers import position as _position
from tui_games.engine.checkers.evaluation import DEFAULT_WEIGHTS, DIST, make_evaluator
from tui_games.engine.checkers.network import Network
from tui_games.engine.checkers.position import QUIET_LIMIT, Move, generate, has_capture, has_step
from tui_games.engine.tree import TreeNode, TreeRecorder

try:
    from tui_games.engine.checkers import _ckcore  # type: ignore[attr-defined]
except ImportError:  # built at install only where a C compiler was found (setup.py)
    _ckcore = None

__all__ = ["COMPILED", "DEFAULT_TABLE_BITS", "MAX_PLY", "PY_TABLE_BITS", "PyCore", "make_core"]

MAX_PLY = 120
WIN = 1_000_000
INF = 10 * WIN
WIN_BOUND = WIN - 10_000
LMR_DEPTH = 3
LMR_AFTER = 3
RFP_DEPTH = 5
RFP_MARGIN = 55
RFP_LIMIT = 2000
LMP_DEPTH = 4
PC_DEPTH = 3
PC_REDUCE = 4
PC_MARGIN = 16
# None of it in an ending of SELECT_PIECES pieces or fewer (long king manoeuvres convert those).
SELECT_PIECES = 6
QUIET_FADE = 24
# A database win: above any evaluation, below the proven wins (search.WIN_BOUND).
DB_WIN = 5000
DB_MARGIN = 1000
# Scores from DB_LOW to DB_HIGH (and their negatives) are database results, while a
# database is probed: the table counts them from the node, as it does wins, so that a
# conversion found sooner scores higher; heuristic scores stay below DB_LOW.
DB_HIGH = DB_WIN + DB_MARGIN
DB_LOW = DB_WIN - DB_MARGIN - MAX_PLY
# A database win's score over DB_WIN (conversion(), as _ckcore.c's): progress, not looks.
CONV_TRADE, CONV_CROWN, CONV_ADVANCE, CONV_CHASE = 100, 100, 6, 8
# 2**21 entries: 32 MB in C (16 bytes an entry).
DEFAULT_TABLE_BITS = 21
# The Python core's entries are lists of about a hundred bytes: a smaller table by default
# (the twins agree node for node when given the same size, as the tests do).
PY_TABLE_BITS = 18
EXACT, LOWER, UPPER = 0, 1, 2
_KILLER1, _KILLER2, _TT = 3 << 50, 2 << 50, 1 << 60
_BOUND_NAMES = {EXACT: "exact", LOWER: "lower", UPPER: "upper"}

if _ckcore is not None:
    _ckcore.set_zobrist([key for colour in _position.ZOBRIST for kind in colour for key in kind],
                        _position.Z_WHITE_TO_MOVE)
COMPILED = _ckcore is not None


def make_core(table_bits: int | None = None, weights: Sequence[int] = DEFAULT_WEIGHTS, *,
              compiled: bool | None = None, net: Network | None = None) -> PyCore:
    """A search core: the compiled one if it was built (or ``compiled=True`` demands it;
    RuntimeError without it), else :class:`PyCore`. ``table_bits`` None: each core's default."""
    if compiled is None:
        compiled = COMPILED
    if table_bits is None:
        table_bits = DEFAULT_TABLE_BITS if compiled else PY_TABLE_BITS
    if compiled:
        if _ckcore is None:
            raise RuntimeError("the compiled checkers core was not built (no C compiler at install)")
        spec = None if net is None else (net.hidden1, net.hidden2, net.weights)
        return _ckcore.Core(table_bits, tuple(weights), spec)  # type: ignore[no-any-return]
    return PyCore(table_bits, weights, net)


def conversion(win: int, lose: int, kings: int, colour: int) -> int:
    """A database win's score over :data:`DB_WIN` for the side ``win`` (of ``colour``) that
    the tables say wins: how far it has got with converting, not how good its position looks
    (the tables keep the result; this makes the search head for the next capture or crowning
    instead of shuffling until the 40-move rule): fewer pieces, men crowned and advanced,
    kings near the loser's pieces. The compiled core's ``conversion`` twin."""
    score = CONV_TRADE * (8 - (win | lose).bit_count()) + CONV_CROWN * (win & kings).bit_count()
    men = win & ~kings
    while men:
        low = men & -men
        men ^= low
        row = (low.bit_length() - 1) >> 2
        score += CONV_ADVANCE * (7 - row if colour else row)
    hunters = win & kings
    while hunters and lose:
        low = hunters & -hunters
        hunters ^= low
        near = DIST[low.bit_length() - 1]
        score -= CONV_CHASE * min(8, *(near[i] for i in range(32) if lose >> i & 1))
    return max(-DB_MARGIN, min(DB_MARGIN, score))


def _plain(score: int, ply: int, band: int = WIN_BOUND) -> int:
    """A score as stored in the table: wins (and, with ``band`` DB_LOW, database results)
    counted from the node, not from the root."""
    if score >= band and (score >= WIN_BOUND or score <= DB_HIGH):
        return score + ply
    if score <= -band and (score <= -WIN_BOUND or score >= -DB_HIGH):
        return score - ply
    return score


def _rooted(score: int, ply: int, band: int = WIN_BOUND) -> int:
    if score >= band and (score >= WIN_BOUND or score <= DB_HIGH):
        return score - ply
    if score <= -band and (score <= -WIN_BOUND or score >= -DB_HIGH):
        return score + ply
    return score


def _reduction(depth: int, i: int, pv_node: bool, hist: int, killer: bool) -> int:
    """Late move reduction of the ``i``-th move (see the module doc)."""
    r = 1
    if depth >= 5 and i >= 5:
        r += 1
    if depth >= 8 and i >= 8:
        r += 1
    if depth >= 11 and i >= 4:
        r += 1
    if depth >= 15 and i >= 6:
        r += 1
    if not pv_node and hist == 0 and depth >= 4:
        r += 1
    if pv_node and r > 1:
        r -= 1
    if killer:
        r -= 1
    return r


class PyCore:
    """The node function in Python (see the module doc): the compiled core's twin."""

    def __init__(self, table_bits: int, weights: Sequence[int] = DEFAULT_WEIGHTS, net: Network | None = None) -> None:
        if not 8 <= table_bits <= 28:
            raise ValueError("table_bits must be from 8 to 28")
        self.evaluate = make_evaluator(tuple(weights), net)
        self.mask = (1 << table_bits) - 1
        # Slots: None or [key, score, move, depth, flag, age].
        self.table: list[list[int] | None] = [None] * (self.mask + 1)
        self.age = 0
        self.history = [0] * 2048
        self.killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        self._pv: list[list[int]] = [[] for _ in range(MAX_PLY + 2)]
        self._counters = [0, 0, 0, 0, 0, 0]
        self._node: Callable[..., int] | None = None

    def clear(self) -> None:
        self.table = [None] * (self.mask + 1)
        self.history = [0] * 2048
        self.age = 0

    def counters(self) -> tuple[int, ...]:
        return tuple(self._counters)

    def pv(self, ply: int) -> list[int]:
        return list(self._pv[ply])

    def entry(self, key: int) -> tuple[int, int, int, int] | None:
        e = self.table[key & self.mask]
        if e is None or e[0] != key:
            return None
        return e[3], e[4], e[1], e[2]

    def store(self, key: int, depth: int, flag: int, score: int, move: int) -> None:
        self.table[key & self.mask] = [key, score, move, max(-127, min(depth, 127)), flag, self.age]

    def node(self, b: int, w: int, k: int, turn: int, z: int, depth: int, alpha: int, beta: int, ply: int,
             quiet: int, tnode: TreeNode | None = None) -> int:
        """The score; with ``tnode`` (a node of the recorder given to :meth:`begin`) the
        subtree is recorded there too (the Python core only: the tree inspector's)."""
        if self._node is None:
            raise RuntimeError("begin() first")
        return self._node(b, w, k, turn, z, depth, alpha, beta, ply, quiet, tnode)

    def begin(self, keys: Sequence[int], check: Callable[[int], object] | None, check_every: int,
              probe: Callable[[int, int, int, int], int | None] | None = None, probe_pieces: int = 0,
              cut_pieces: int | None = None, recorder: TreeRecorder | None = None) -> None:
        if not 1 <= len(keys) <= 4096:
            raise ValueError("1 to 4096 keys")
        if probe is None:
            probe_pieces = 0
        cut_pieces = probe_pieces if cut_pieces is None else max(0, min(cut_pieces, probe_pieces))
        self.age = (self.age + 1) & 63
        self.killers = killers = [[0, 0] for _ in range(MAX_PLY + 2)]
        history = self.history
        for i in range(2048):
            history[i] >>= 2
        self._counters = counters = [0, 0, 0, 0, 0, 0]
        every = check_every if check_every > 0 else 1024
        next_check = [every]
        path = list(keys) + [0] * (MAX_PLY + 4)
        base = len(keys) - 1
        table = self.table
        mask = self.mask
        age = self.age
        evaluate = self.evaluate
        pvs = self._pv
        gen, capture_test, step_test = generate, has_capture, has_step
        fade_span = QUIET_LIMIT - QUIET_FADE
        band = DB_LOW if probe_pieces else WIN_BOUND
        top = DB_LOW - 1

        def node(b: int, w: int, k: int, turn: int, z: int, depth: int, alpha: int, beta: int, ply: int,
                 quiet: int, tnode: TreeNode | None = None) -> int:
            counters[0] += 1
            if counters[0] >= next_check[0]:
                next_check[0] = counters[0] + every
                if check is not None:
                    check(counters[0])
            pv = pvs[ply]
            pv.clear()
            if ply > counters[4]:  # noqa: PLR1730  (no call in the hot loop)
                counters[4] = ply
            here = base + ply
            # A repetition: the key (which includes the side to move) among the positions
            # since the last irreversible move, the game's and the path's.
            if quiet >= QUIET_LIMIT or (quiet >= 4 and z in path[max(0, here - quiet):here - 1]):
                counters[1] += 1
                counters[5] += 1
                if tnode is not None:
                    tnode.close(0, "exact", "end")
                return 0
            # A side without pieces has lost outright (below): the database is asked the rest,
            # above cut_pieces only at the horizon (see begin).
            if probe_pieces and b and w and ((pieces := (b | w).bit_count()) <= cut_pieces or (
                    pieces <= probe_pieces and (depth <= 0 or ply >= MAX_PLY))):
                verdict = probe(b, w, k, turn)  # type: ignore[misc]
                if verdict is not None:
                    counters[1] += 1
                    counters[5] += 1
                    if not verdict:
                        score = 0
                    elif verdict > 0:
                        score = DB_WIN + conversion(w if turn else b, b if turn else w, k, turn) - ply
                    else:
                        score = -DB_WIN - conversion(b if turn else w, w if turn else b, k, 1 - turn) + ply
                    if tnode is not None:
                        tnode.close(score, "exact", "database")
                    return score
            if (depth <= 0 or ply >= MAX_PLY) and (ply >= MAX_PLY or not capture_test(b, w, k, turn)):
                counters[1] += 1
                if ply < MAX_PLY and not step_test(b, w, k, turn):
                    if tnode is not None:
                        tnode.close(ply - WIN, "exact", "end")
                    return ply - WIN
                counters[5] += 1
                score = evaluate(b, w, k, turn)
                if quiet > QUIET_FADE:
                    score = score * (QUIET_LIMIT - quiet) // fade_span
                if probe_pieces:
                    score = max(-top, min(top, score))
                if tnode is not None:
                    tnode.close(score, "exact", "horizon")
                return score
            moves = gen(b, w, k, turn)
            n = len(moves)
            if not n:
                counters[1] += 1
                if tnode is not None:
                    tnode.close(ply - WIN, "exact", "end")
                return ply - WIN
            capture = moves[0][1] != 0
            if n == 1 and depth > 1:
                depth += 1  # a forced move costs no depth
            alpha0 = alpha
            slot = z & mask
            e = table[slot]
            tt_move = -1
            if e is not None and e[0] == z:
                tt_move = e[2]
                if e[3] >= depth:
                    s = _rooted(e[1], ply, band)
                    f = e[4]
                    if f == EXACT or (f == LOWER and s >= beta) or (f == UPPER and s <= alpha):
                        counters[3] += 1
                        if -WIN_BOUND < s < WIN_BOUND:
                            counters[5] += 1
                        if tnode is not None:
                            tnode.close(s, _BOUND_NAMES[f], "tt")
                        return s
            pv_node = beta - alpha > 1
            selective = not pv_node and not capture and (b | w).bit_count() > SELECT_PIECES
            # Reverse futility: a quiet position (no capture for either side) far enough
            # above beta near the horizon is not searched on.
            if (selective and depth <= RFP_DEPTH and -RFP_LIMIT < beta < RFP_LIMIT
                    and quiet <= QUIET_FADE and not capture_test(b, w, k, turn ^ 1)):
                s = evaluate(b, w, k, turn) - RFP_MARGIN * depth
                if s >= beta:
                    counters[1] += 1
                    counters[5] += 1
                    if tnode is not None:
                        tnode.close(s, "lower", "futility")
                    return s
            # ProbCut: off the PV, a shallow search well above beta stands for the deep one.
            # The shallow search is paid for only where the evaluation already clears its bound.
            if (selective and depth >= PC_DEPTH and -RFP_LIMIT < beta < RFP_LIMIT
                    and evaluate(b, w, k, turn) >= beta + PC_MARGIN):
                rb = beta + PC_MARGIN
                s = node(b, w, k, turn, z, max(depth - PC_REDUCE, 1), rb - 1, rb, ply, quiet)
                pv.clear()
                if s >= rb:
                    if tnode is not None:
                        tnode.close(s, "lower", "probcut")
                    return s
                e = table[slot]
                if e is not None and e[0] == z:
                    tt_move = e[2]
            if n > 1:
                if capture:
                    moves.sort(key=lambda m: (m[1].bit_count() << 16 | (65535 - m[5])) | (_TT if m[5] == tt_move else 0),
                               reverse=True)
                else:
                    k1, k2 = killers[ply]
                    hist = history
                    off = turn * 1024

                    def order(m: Move) -> int:
                        mid = m[5]
                        key = (_KILLER1 if mid == k1 else _KILLER2 if mid == k2 else 0) | hist[off + (mid & 1023)] << 16
                        key |= 65535 - mid
                        return key | _TT if mid == tt_move else key

                    moves.sort(key=order, reverse=True)
            path[here] = z
            best = -INF
            best_id = 0
            d1 = depth - 1
            nply = ply + 1
            reducible = depth >= LMR_DEPTH and not capture
            prunable = selective and depth <= LMP_DEPTH
            lmp_count = 2 + 2 * depth
            hist_off = turn * 1024
            skipped: list[Move] = []  # the moves late move pruning left out, for the recorder
            child_pv = pvs[nply]
            for i, m in enumerate(moves):
                delta, cap, kdelta = m[0], m[1], m[2]
                crowns = kdelta and kdelta != delta
                if turn:
                    nb, nw = b ^ cap, w ^ delta
                else:
                    nb, nw = b ^ delta, w ^ cap
                nk = (k & ~cap) ^ kdelta
                # Late move pruning: the quiet moves this late are not searched, except one
                # that leaves the opponent a capture (a shot).
                if (prunable and i >= lmp_count and not crowns and best > -WIN_BOUND
                        and not capture_test(nb, nw, nk, turn ^ 1)):
                    if tnode is not None:
                        skipped.append(m)
                    continue
                nz = z ^ m[3]
                nq = 0 if cap or kdelta != delta else quiet + 1
                child = None
                if tnode is not None:
                    child = recorder.add_child(tnode, m, nply, -beta, -alpha)  # type: ignore[union-attr]
                # A quiet move at the last ply that threatens a capture gets one ply more.
                dm = d1 + 1 if d1 == 0 and not cap and capture_test(nb, nw, nk, turn) else d1
                if i == 0:
                    score = -node(nb, nw, nk, turn ^ 1, nz, dm, -beta, -alpha, nply, nq, child)
                else:
                    reduce = _reduction(depth, i, pv_node, history[hist_off + (m[5] & 1023)],
                                        m[5] in killers[ply]) if (reducible and i >= LMR_AFTER and not crowns) else 0
                    score = -node(nb, nw, nk, turn ^ 1, nz, dm - reduce, -alpha - 1, -alpha, nply, nq, child)
                    if score > alpha and (reduce or score < beta):
                        if child is not None:
                            child.children.clear()
                            child.alpha, child.beta = -beta, -alpha
                        score = -node(nb, nw, nk, turn ^ 1, nz, dm, -beta, -alpha, nply, nq, child)
                if score > best:
                    best = score
                    best_id = m[5]
                    if score > alpha:
                        alpha = score
                        pv[:] = [best_id, *child_pv]
                        if score >= beta:
                            counters[2] += 1
                            if not capture:
                                ks = killers[ply]
                                if ks[0] != best_id:
                                    ks[1] = ks[0]
                                    ks[0] = best_id
                                bonus = depth * depth
                                history[hist_off + (best_id & 1023)] += bonus
                                # The quiet moves tried before it lose as much (not below zero).
                                for j in range(i):
                                    slot_j = hist_off + (moves[j][5] & 1023)
                                    history[slot_j] = max(0, history[slot_j] - bonus)
                            if tnode is not None:
                                tnode.pruned = skipped + moves[i + 1:]
                            break
            flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
            e = table[slot]  # the subtree may have replaced it
            if e is None or e[0] == z or e[5] != age or depth >= e[3]:
                table[slot] = [z, _plain(best, ply, band), best_id, min(depth, 127), flag, age]
            if tnode is not None:
                if skipped and not tnode.pruned:
                    tnode.pruned = skipped
                tnode.close(best, _BOUND_NAMES[flag], "", next((m for m in moves if m[5] == best_id), None))
            return best

        self._node = node
