"""The exact Connect-4 solver: the techniques of Pascal Pons' solver, in pure Python.

Score convention (the standard one, see ``data/connect4/README.md``): from the side to move,
0 for a draw, ``22 - k`` for a win with the mover's k-th disc (a win with the 4th disc scores
18, with the last one 1), ``-(22 - k)`` for a loss to the opponent's k-th disc. A side that
can win at once with ``n`` discs on the board scores ``(43 - n) // 2``. Winning faster or
losing later always scores higher, which is what makes a player built on it play well.

The techniques, each as in Pons' ``Solver.cpp``:

- **Negamax with alpha-beta**, scores from the side to move.
- **Null-window search narrowing on the score** (:meth:`Solver.solve`): the exact score is
  found by a bisection of ``[min, max]`` with windows ``[med, med + 1]``, each of which only
  asks "is the score above ``med``?"; ``med`` is pulled towards 0 first, because the small
  scores (draws, slow wins) are the common ones. Weak mode asks only ``[-1, 1]``: win, draw
  or loss, usually much faster.
- **A transposition table** (:class:`TranspositionTable`): a fixed-size array indexed by
  ``key % size`` with a prime size, each slot holding the full key and a bound on the score,
  replaced on collision. An upper bound is stored when every move failed low, a lower bound
  on a beta cutoff.
- **Move ordering by the threats a move creates** (Pons' ``MoveSorter`` and ``moveScore``):
  moves go by the number of cells that would complete a four for the mover after the move,
  centre columns first among equals.
- **Early detection of forced losses** (``possibleNonLosingMoves``): a move that leaves the
  opponent an immediate four (not blocking a playable threat, or playing under a threat
  cell) is never searched; with two playable threats against it a position is lost at once.
  The search therefore never meets a position where the side to move can win at once.
- **The opening book** (given as a :class:`~.book.OpeningBook`, optional): a node with 12
  discs takes the book's exact score instead of being searched (Pons' ``getBook`` at the
  book's depth), so a position with fewer discs is searched only to that frontier; a root
  with at most four discs is answered by the book's derived table. Without a book (or for
  a position the book does not hold) the search goes on as before.
- **The bounds at each node**: with ``n`` discs, a side that cannot win at once scores at
  most ``(41 - n) // 2``, and one whose opponent cannot win at once at least
  ``-(40 - n) // 2``; the window is clipped to these (and to the table's bound) before any
  move is searched.

Speed in Python: the node function is one closure over local names, positions are passed
as plain ints (no objects per node), and the threat cells of the child that the ordering
needs are computed *incrementally*: the side to move's threat cells after a move are its
threat cells before it plus those the new disc creates, which precomputed tables give from
the discs on the (at most three) lines through the new disc. Those same cells are the
opponent's threats in the child, so every node receives both sides' threat cells from its
parent and never recomputes them from scratch.
"""

from __future__ import annotations

import threading
import time
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterator

from tui_games.engine.budget import Budget
from tui_games.engine.callbacks import weak_method
from tui_games.engine.connect4.bits import (
    BOARD,
    BOTTOM,
    CELLS,
    CENTRE_ORDER,
    COLUMN_MASK,
    COLUMNS,
    ROWS,
    STRIDE,
    completing_cells,
    has_four,
)
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.pacing import give_way
from tui_games.engine.search import WIN, SearchStats

try:
    from tui_games.engine.connect4 import _c4solve
except ImportError:  # built at install only where a C compiler was found (setup.py)
    _c4solve = None  # type: ignore[assignment]

MIN_SCORE = -(CELLS // 2) + 3  # -18: the fastest possible loss
MAX_SCORE = (CELLS + 1) // 2 - 3  # 18: the fastest possible win

# A prime near 2^22: 32 MB of table (8 bytes a slot), ample for the test sets.
DEFAULT_TABLE_SIZE = 4_194_301
# How often (in nodes, a power of two minus one as a mask) the clock and stop flag are read.
CHECK_MASK = 1023
PROGRESS_INTERVAL = 0.1
SOLVER = "exact solver"
# Where a value came from, as SearchStats.algorithm reports it (the stats panel shows it).
FROM_BOOK = "opening book"
TO_BOOK = "search to the book"

# Table slots pack ``key << 7 | value``; values 1..63 are upper bounds, 64..127 lower bounds.
_UPPER = 32  # value = score + 32 for an upper bound: scores -21..21 map to 11..53
_LOWER = 96  # value = score + 96 for a lower bound: 75..117
_BOUND_SPLIT = 64
# Position keys (``current + mask``) stay below 2^49; the table's generation goes above.
KEY_BITS = COLUMNS * STRIDE


class SolverStopped(Exception):
    """The stop flag was set or the deadline passed before the answer was known."""


@dataclass
class SolveResult:
    """What :meth:`Solver.solve` found. ``score`` is in the standard convention (or -1/0/1 in
    weak mode), None if the search was stopped first (``complete`` False); ``low``/``high``
    bound the score as far as the search got. ``stats`` reports the search for the UI, with
    scores in the generic search's convention (``search.WIN - plies``)."""

    score: int | None
    nodes: int
    seconds: float
    complete: bool
    stats: SearchStats
    weak: bool = False
    low: int = MIN_SCORE
    high: int = MAX_SCORE
    pv: list[int] = field(default_factory=list)


@dataclass
class RootAnalysis:
    """:meth:`Solver.root`: the score, the columns that achieve it (centre first), and for
    every playable column ``(score, exact)``: exact for the best moves and for immediate
    wins, otherwise an upper bound (the move is worse than the best)."""

    score: int
    best: list[int]
    moves: dict[int, tuple[int, bool]]
    stats: SearchStats
    weak: bool = False


# -- scores ---------------------------------------------------------------------------------------


def won_score(moves: int) -> int:
    """The score of a side that wins with its next disc, with ``moves`` discs on the board."""
    return (CELLS + 1 - moves) // 2


def finished_score(pos: Connect4) -> int:
    """The score of a finished game for the side to move: 0 for a draw; a loss to the
    opponent's last disc otherwise, ``-won_score(moves - 1)``, which is what makes
    ``score(P) = max over c of -score(P + c)`` hold for a winning move too."""
    outcome = pos.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return 0
    return -won_score(pos.moves - 1)


def plies_to_end(score: int, moves: int) -> int | None:
    """Plies from a position with ``moves`` discs to the end of the game that ``score``
    announces (None for a draw, which lasts to the full board).

    A win scored ``s`` comes with the mover's disc number ``k = 22 - s``; the mover has
    ``moves // 2`` discs now. A loss scored ``-s`` comes with the opponent's ``k``-th disc;
    the opponent has ``(moves + 1) // 2`` discs now.
    """
    if score > 0:
        k = CELLS // 2 + 1 - score
        return 2 * (k - moves // 2) - 1
    if score < 0:
        k = CELLS // 2 + 1 + score
        return 2 * (k - (moves + 1) // 2)
    return None


def to_search_score(score: int, moves: int) -> int:
    """The generic search's value of ``score``: ``WIN - plies`` for a win, its negative for a
    loss, 0 for a draw (so the UI shows "win in 5" for either kind of result). The mapping
    keeps the order of scores, so bounds map to bounds."""
    plies = plies_to_end(score, moves)
    if plies is None:
        return 0
    return WIN - plies if score > 0 else -(WIN - plies)


def _half_toward_zero(x: int) -> int:
    """C's ``x / 2`` (truncation toward zero), as in Pons' bisection."""
    return -((-x) // 2) if x < 0 else x // 2


# -- the incremental threat tables ----------------------------------------------------------------


@lru_cache(maxsize=None)
def threat_tables() -> dict[int, tuple[Any, ...]]:
    """For every cell (as its one-bit mask ``m``): ``(lines1, new1, lines2, new2, lines3,
    new3)``. ``linesN`` is a mask of the cells on some lines through ``m`` (horizontal with
    the two cells below for the vertical, then each diagonal); ``newN[x & linesN]`` is the
    set of cells that become threat cells of a side holding ``x`` when it drops a disc on
    ``m``: every cell completing a window with ``m`` and two discs of ``x``.

    The side's threat cells after the move are its threat cells before it, united with
    these (cells on windows not through ``m`` did not change).
    """
    tables: dict[int, tuple[Any, ...]] = {}
    for col in range(COLUMNS):
        for row in range(ROWS):
            here = 1 << (col * STRIDE + row)
            horizontal = _line(col, row, 1, 0)
            vertical = _line(col, row, 0, 1)
            # Vertically only the cells below can hold discs: those above m are empty.
            groups = ([horizontal, vertical], [_line(col, row, 1, 1)], [_line(col, row, 1, -1)])
            entry: list[Any] = []
            for lines in groups:
                cells_mask = 0
                for line in lines:
                    for _, b in line:
                        cells_mask |= b
                if lines[-1] is vertical:
                    cells_mask &= ~sum(b for k, b in vertical if k > 0)
                new: dict[int, int] = {}
                for subset in _subsets(cells_mask):
                    made = 0
                    for line in lines:
                        made |= _new_threats(line, subset)
                    new[subset] = made
                entry += [cells_mask, new]
            tables[here] = tuple(entry)
    return tables


def _line(col: int, row: int, dc: int, dr: int) -> list[tuple[int, int]]:
    """(offset, bit) of the board cells up to three steps either way from (row, col)."""
    out = []
    for k in range(-3, 4):
        c, r = col + k * dc, row + k * dr
        if k and 0 <= c < COLUMNS and 0 <= r < ROWS:
            out.append((k, 1 << (c * STRIDE + r)))
    return out


def _subsets(mask: int) -> Iterator[int]:
    sub = mask
    while True:
        yield sub
        if not sub:
            return
        sub = (sub - 1) & mask


def _new_threats(line: list[tuple[int, int]], discs: int) -> int:
    """Cells of ``line`` that complete a window through offset 0 (the new disc) whose other
    two cells are in ``discs``."""
    at = dict(line)
    made = 0
    for start in range(-3, 1):
        if any(k != 0 and k not in at for k in range(start, start + 4)):
            continue  # the window runs off the board
        others = [at[k] for k in range(start, start + 4) if k != 0]
        held = [b for b in others if discs & b]
        if len(held) == 2:
            made |= next(b for b in others if not discs & b)
    return made


# -- the transposition table -----------------------------------------------------------------------


class TranspositionTable:
    """A fixed-size table of score bounds, Pons style: slot ``key % size`` (``size`` prime, so
    keys spread evenly) holds the key and a bound; a new entry replaces whatever was there.

    A slot packs ``stamp << 7 | value`` into one 64-bit int of an ``array`` (8 bytes a slot,
    no Python object per entry), where ``stamp`` is the full 49-bit key plus the table's
    generation shifted above it: a hit is never a collision, and :meth:`reset` only bumps the
    generation, so entries of earlier generations stop matching without touching 32 MB of
    memory (after 255 resets the array is cleared for real).
    """

    GENERATIONS = 255

    def __init__(self, size: int = DEFAULT_TABLE_SIZE) -> None:
        if size < 1:
            raise ValueError(f"table size {size} must be at least 1")
        self.size = size
        self.slots = array("Q", bytes(8 * size))
        self.generation = 0

    @property
    def stamp(self) -> int:
        """What is added to a position key before it is stored (the generation's bits)."""
        return self.generation << KEY_BITS

    def reset(self) -> None:
        if self.generation < self.GENERATIONS:
            self.generation += 1
        else:
            self.slots = array("Q", bytes(8 * self.size))
            self.generation = 0

    def bounds(self, key: int) -> tuple[int | None, int | None]:
        """(lower, upper) bound stored for position ``key``; None where nothing is known."""
        key += self.stamp
        e = self.slots[key % self.size]
        v = e & 127
        if e >> 7 != key or not v:
            return None, None
        return (v - _LOWER, None) if v >= _BOUND_SPLIT else (None, v - _UPPER)


# -- the solver ------------------------------------------------------------------------------------


class Solver:
    """Exact scores of Connect-4 positions (the normal game; not the full-board variant).

    One solver keeps one transposition table; its entries stay valid for every position, so
    keeping a solver for a whole game makes later moves cheap. Two calls at once from two
    threads (a cancelled search still unwinding while the next starts) stay correct: each
    call has its own scratch space, and a table entry is a proven bound stored with its full
    key in one write. ``nodes`` counts every node this solver has searched. ``book`` (an
    opened :class:`~.book.OpeningBook`) ends the search at its 12-disc positions.
    """

    def __init__(self, table_size: int = DEFAULT_TABLE_SIZE, *, book: OpeningBook | None = None,
                 compiled: bool | None = None) -> None:
        if compiled and _c4solve is None:
            raise ValueError("the compiled solver is not built here (no C compiler at install): "
                             "the solver runs in pure Python")
        self.table = TranspositionTable(table_size)
        self.book = book
        # The node function in C where it was built (same scores and node counts), else Python.
        self.compiled = _c4solve is not None if compiled is None else compiled
        self.nodes = 0

    def reset(self) -> None:
        """Forget the table (for node counts that do not depend on earlier work)."""
        self.table.reset()

    # -- public API ---------------------------------------------------------------------------

    def solve(self, pos: Connect4, *, weak: bool = False, stop: threading.Event | None = None,
              on_progress: Callable[[SearchStats], None] | None = None, deadline: Budget | None = None,
              pv: bool = False) -> SolveResult:
        """The score of ``pos`` for the side to move (-1/0/1 with ``weak``).

        ``stop`` (an Event) and ``deadline`` (a :class:`~tui_games.engine.budget.Budget` made
        in the calling thread: CPU seconds under a wall-clock ceiling) are checked
        every few thousand nodes; a stopped search returns ``complete=False`` with the bounds
        found so far. ``on_progress`` receives a SearchStats snapshot at most ten times a
        second. ``pv`` adds the principal variation (cheap with the table warm).
        """
        _check_variant(pos)
        run = _Run(self, stop, on_progress, deadline)
        n = run.root_moves = pos.moves
        low, high = MIN_SCORE, MAX_SCORE
        score: int | None = None
        try:
            score = run.score(pos.current, pos.mask, n, weak)
            low = high = score
            line = run.principal_variation(pos, score, CELLS) if pv and not weak else []
        except SolverStopped:
            # The search's first bounds are Pons' (a little wider than any real score).
            low, high = max(run.low, MIN_SCORE), min(run.high, MAX_SCORE)
            line = []
        if weak and score is not None:
            score = (score > 0) - (score < 0)
        stats = run.stats()
        if score is not None and not weak:
            stats.score = to_search_score(score, n)
            stats.depth = plies_to_end(score, n) or CELLS - n
            stats.pv = list(line)
            stats.best_move = line[0] if line else None
        return SolveResult(score, run.nodes, stats.seconds, score is not None, stats, weak, low, high, line)

    def analyze(self, pos: Connect4, *, weak: bool = False, stop: threading.Event | None = None,
                on_progress: Callable[[SearchStats], None] | None = None,
                deadline: Budget | None = None) -> list[int | None]:
        """The score of each of the seven columns for the side to move, None for a column
        that cannot be played: ``won_score`` for a column that wins at once, else minus the
        score of the position after it (Pons' ``analyze``). Raises SolverStopped when stopped
        or out of time."""
        return self._analyze(pos, weak, _Run(self, stop, on_progress, deadline))

    def best_moves(self, pos: Connect4, *, weak: bool = False, stop: threading.Event | None = None,
                   on_progress: Callable[[SearchStats], None] | None = None,
                   deadline: Budget | None = None) -> tuple[int, list[int]]:
        """(score, every column that achieves it), via :meth:`root`. Raises SolverStopped
        when stopped or out of time, ValueError when the game is over."""
        root = self.root(pos, weak=weak, stop=stop, on_progress=on_progress, deadline=deadline)
        return root.score, root.best

    def root(self, pos: Connect4, *, weak: bool = False, stop: threading.Event | None = None,
             on_progress: Callable[[SearchStats], None] | None = None,
             deadline: Budget | None = None) -> "RootAnalysis":
        """The score of ``pos`` and which columns achieve it, cheaper than :meth:`analyze`:
        after the score is known, one null-window search per column asks "does this move
        keep it?" (with the table warm from the solve, most answers are immediate). Moves
        that do not get an upper bound, ``score - 1``. Raises SolverStopped when stopped."""
        _check_variant(pos)
        if pos.outcome() is not None:
            raise ValueError(f"no move to play after {pos.format()!r}: the game is over")
        run = _Run(self, stop, on_progress, deadline)
        cur, mask, n = pos.current, pos.mask, pos.moves
        run.root_moves = n
        score = run.score(cur, mask, n, weak)
        if weak:
            score = (score > 0) - (score < 0)
        possible = (mask + BOTTOM) & BOARD
        wins = completing_cells(cur) & possible
        moves: dict[int, tuple[int, bool]] = {}
        for col in CENTRE_ORDER:
            move = possible & COLUMN_MASK[col]
            if not move:
                continue
            if wins & move:
                value = won_score(n)
                moves[col] = ((value > 0) - (value < 0) if weak else value, True)
            elif weak and score < 0:
                moves[col] = (score, True)  # every move loses; weak mode cannot tell how fast
            elif run.at_most(cur ^ mask, mask | move, n + 1, -score):
                moves[col] = (score, True)
            else:
                moves[col] = (score - 1, False)
        run.finish()
        best = [c for c in CENTRE_ORDER if c in moves and moves[c] == (score, True)]
        return RootAnalysis(score, best, moves, run.stats(), weak)

    def analyze_run(self, pos: Connect4, *, weak: bool = False, stop: threading.Event | None = None,
                    on_progress: Callable[[SearchStats], None] | None = None,
                    deadline: Budget | None = None) -> tuple[list[int | None], SearchStats]:
        """:meth:`analyze` and the statistics of the search behind it."""
        run = _Run(self, stop, on_progress, deadline)
        scores = self._analyze(pos, weak, run)
        return scores, run.stats()

    def principal_variation(self, pos: Connect4, score: int | None = None, *,
                            stop: threading.Event | None = None, deadline: Budget | None = None,
                            max_plies: int = CELLS) -> list[int]:
        """A line of best play from ``pos`` (columns), up to ``max_plies`` long, to the end of
        the game (a draw's line runs to the full board) or, from before the book's 12 discs,
        to the book's frontier; each move proven by a null-window search (fast with the table
        warm). Raises SolverStopped when stopped."""
        _check_variant(pos)
        run = _Run(self, stop, None, deadline)
        if score is None:
            score = run.score(pos.current, pos.mask, pos.moves, False)
        return run.principal_variation(pos, score, max_plies)

    def _analyze(self, pos: Connect4, weak: bool, run: "_Run") -> list[int | None]:
        _check_variant(pos)
        scores: list[int | None] = [None] * COLUMNS
        if pos.outcome() is not None:
            return scores
        cur, mask, n = pos.current, pos.mask, pos.moves
        run.root_moves = n
        wins = completing_cells(cur) & ((mask + BOTTOM) & BOARD)
        for col in CENTRE_ORDER:
            if mask & (1 << (col * STRIDE + ROWS - 1)):
                continue
            move = (mask + BOTTOM) & COLUMN_MASK[col]
            if wins & move:
                s = won_score(n)
            else:
                s = -run.score(cur ^ mask, mask | move, n + 1, weak)
            scores[col] = (s > 0) - (s < 0) if weak else s
        run.finish()
        return scores


def _check_variant(pos: Connect4) -> None:
    if pos.full_board:
        raise ValueError("the exact solver plays the normal game, not the full-board variant")


class _Run:
    """One call into the solver: the node function, its counters, limits and progress."""

    def __init__(self, solver: Solver, stop: threading.Event | None,
                 on_progress: Callable[[SearchStats], None] | None, deadline: Budget | None) -> None:
        self.solver = solver
        self.stop = stop
        self.on_progress = on_progress
        self.deadline = deadline
        self.start = time.perf_counter()
        self.last_progress = self.start
        self.low, self.high = MIN_SCORE, MAX_SCORE
        # booked: nodes of the search answered by the book (its frontier); looked_up: whole
        # questions (a root, a child) answered by the book without a search.
        self.nodes = self.cutoffs = self.hits = self.booked = self.looked_up = 0
        self.deepest = 0
        self._finished_at: float | None = None
        self.root_moves = 0
        # Weakly: the compiled search keeps its check (engine/callbacks.py).
        self.negamax, self.counters = _make_negamax(solver, weak_method(self._check))

    def _check(self, nodes: int, cutoffs: int, hits: int) -> None:
        give_way()
        now = time.perf_counter()
        if self.stop is not None and self.stop.is_set():
            raise SolverStopped("stopped")
        if self.deadline is not None and self.deadline.passed():
            raise SolverStopped("out of time")
        if self.on_progress is not None and now - self.last_progress >= PROGRESS_INTERVAL:
            self.last_progress = now
            self.on_progress(self._stats(nodes, cutoffs, hits, now))

    def _stats(self, nodes: int, cutoffs: int, hits: int, now: float) -> SearchStats:
        stats = SearchStats(algorithm=self.source, nodes=self.nodes + nodes, cutoffs=self.cutoffs + cutoffs,
                            tt_hits=self.hits + hits, seconds=now - self.start)
        stats.depth = stats.seldepth = max(0, self.deepest - self.root_moves)
        return stats

    @property
    def source(self) -> str:
        """What produced the answers: the book alone (no node searched), a search whose
        leaves include the book's positions, or the solver (a search that never reached the
        book, e.g. past 12 discs -- even when the position's own value is in the book, the
        proofs of its moves are then the solver's)."""
        if not self.nodes:
            return FROM_BOOK if self.looked_up else SOLVER
        return TO_BOOK if self.booked else SOLVER

    def _collect(self) -> None:
        nodes, cutoffs, hits, booked, deepest = self.counters()
        self.solver.nodes += nodes
        self.nodes += nodes
        self.cutoffs += cutoffs
        self.hits += hits
        self.booked += booked
        self.deepest = max(self.deepest, deepest)

    def finish(self) -> None:
        self._finished_at = time.perf_counter()

    def stats(self) -> SearchStats:
        end = self._finished_at if self._finished_at is not None else time.perf_counter()
        return self._stats(0, 0, 0, end)

    def score(self, cur: int, mask: int, n: int, weak: bool) -> int:
        """The exact score (a score of the right sign in weak mode) of the position
        ``cur``/``mask`` with ``n`` discs: Pons' ``solve``."""
        if self.stop is not None and self.stop.is_set():
            raise SolverStopped("stopped")
        opp = cur ^ mask
        if has_four(opp):
            return -won_score(n - 1)  # the game is over: the side to move has lost
        if n >= CELLS:
            return 0
        own_threats = completing_cells(cur)
        if own_threats & (mask + BOTTOM) & BOARD:
            return won_score(n)
        book = self.solver.book
        if book is not None:
            known = book.exact(cur, mask, n)
            if known is not None:
                self.looked_up += 1
                return known
        low = -((CELLS - n) // 2)
        high = (CELLS + 1 - n) // 2
        if weak:
            low, high = -1, 1
        self.low, self.high = low, high
        negamax = self.negamax
        opp_threats = completing_cells(opp)
        try:
            while low < high:
                med = low + (high - low) // 2
                if med <= 0 and _half_toward_zero(low) < med:
                    med = _half_toward_zero(low)
                elif med >= 0 and _half_toward_zero(high) > med:
                    med = _half_toward_zero(high)
                r = negamax(cur, mask, own_threats, opp_threats, n, med, med + 1)
                if r <= med:
                    high = r
                else:
                    low = r
                self.low, self.high = low, high
        finally:
            self._collect()
        return low

    def principal_variation(self, pos: Connect4, score: int, max_plies: int) -> list[int]:
        """Follow, ply by ply, a move whose child is proven to score ``-score``. From a
        position up to the book's frontier the line stops there: the book proves the rest,
        and following it further would be a search from scratch of positions past the book
        (seconds, where the line itself is only a nicety)."""
        cur, mask, n = pos.current, pos.mask, pos.moves
        line: list[int] = []
        if pos.outcome() is not None:
            return line
        book = self.solver.book
        end = book.discs if book is not None and n <= book.discs else CELLS
        try:
            while n < end and len(line) < max_plies:
                possible = (mask + BOTTOM) & BOARD
                wins = completing_cells(cur) & possible
                if wins:
                    line.append(next(c for c in CENTRE_ORDER if wins & COLUMN_MASK[c]))
                    break
                chosen = None
                for col in CENTRE_ORDER:
                    move = possible & COLUMN_MASK[col]
                    if not move:
                        continue
                    child_cur, child_mask = cur ^ mask, mask | move
                    if self._at_most(child_cur, child_mask, n + 1, -score):
                        chosen = col
                        break
                if chosen is None:  # cannot happen with a correct score
                    break
                line.append(chosen)
                cur, mask = cur ^ mask, mask | (possible & COLUMN_MASK[chosen])
                n += 1
                score = -score
        finally:
            self._collect()
        return line

    def at_most(self, cur: int, mask: int, n: int, bound: int) -> bool:
        """Is the score of the position at most ``bound``? (one null-window search)"""
        try:
            return self._at_most(cur, mask, n, bound)
        finally:
            self._collect()

    def _at_most(self, cur: int, mask: int, n: int, bound: int) -> bool:
        own = completing_cells(cur)
        if own & (mask + BOTTOM) & BOARD:
            return won_score(n) <= bound
        if n >= CELLS:
            return 0 <= bound
        book = self.solver.book
        if book is not None:
            known = book.exact(cur, mask, n)
            if known is not None:
                self.looked_up += 1
                return known <= bound
        r: int = self.negamax(cur, mask, own, completing_cells(cur ^ mask), n, bound, bound + 1)
        return r <= bound


# negamax(cur, mask, own_w, opp_w, n, alpha, beta) -> score, and what reads its counters:
# (nodes, cutoffs, table hits, book positions, deepest ply).
NodeFunction = Callable[[int, int, int, int, int, int, int], int]
Counters = Callable[[], tuple[int, int, int, int, int]]


def _no_book(current: int, mask: int) -> int | None:
    return None


def _make_negamax(solver: Solver, check: Callable[[int, int, int], None]) -> tuple[NodeFunction, Counters]:
    """The node function and a function reading its counters (nodes, cutoffs, table hits,
    book positions, deepest ply): compiled (``_c4solve.c``, a translation of the Python
    below) or the Python closure, entered through a fresh chunk of CPython's frame stack."""
    book = solver.book
    if solver.compiled:
        search = _c4solve.Search(solver.table.slots, solver.table.size, solver.table.stamp,
                                 book.data if book is not None else None, book.discs if book is not None else -1,
                                 check, CHECK_MASK)
        return search.negamax, search.counters
    negamax, counters = _python_negamax(solver, check)
    roomy = _roomy_entry()

    def enter(*args: int) -> int:
        return roomy(negamax, *args)

    return enter, counters


# CPython 3.11+ keeps frames on a per-thread stack of 16 KiB chunks and frees a chunk the
# moment its first frame returns, so a recursion that keeps crossing a chunk boundary maps
# and unmaps memory at every crossing: 20-30% of the solver's time went to the kernel when
# the caller's stack depth put the boundary inside the search. Entering the search through
# a frame of 40 KB, which fits no chunk's remainder, makes CPython give it a fresh 64 KiB
# chunk whose rest (about 24 KB) holds the whole recursion: 42 frames of about 530 bytes.
_ROOMY_SLOTS = 5000


@lru_cache(maxsize=1)
def _roomy_entry() -> Callable[..., int]:
    names = " = ".join(f"_{i}" for i in range(_ROOMY_SLOTS))
    source = f"def roomy(call, *args):\n    if call is None:\n        {names} = None\n    return call(*args)\n"
    namespace: dict[str, Any] = {}
    exec(compile(source, "<solver: roomy entry>", "exec"), namespace)
    roomy: Callable[..., int] = namespace["roomy"]
    return roomy


def _python_negamax(solver: Solver, check: Callable[[int, int, int], None]) -> tuple[NodeFunction, Counters]:
    """The node function in Python (a closure: every name it uses is a fast local or cell)
    and its counters."""
    slots = solver.table.slots
    size = solver.table.size
    stamp = solver.table.stamp
    tables = threat_tables()
    # Per-ply scratch lists for the move sorter (no allocation per node), one set per run:
    # a search cancelled in one thread may still be unwinding when the next one starts.
    moves_at = [[0] * len(CENTRE_ORDER) for _ in range(CELLS + 2)]
    threats_at = [[0] * len(CENTRE_ORDER) for _ in range(CELLS + 2)]
    order = tuple(enumerate(COLUMN_MASK[c] for c in CENTRE_ORDER))
    board, bottom = BOARD, BOTTOM
    upper, lower, split = _UPPER, _LOWER, _BOUND_SPLIT
    check_mask = CHECK_MASK
    # Nodes with as many discs as the book's positions take its exact score (a node that
    # is not there -- a damaged record -- is searched as without a book).
    book = solver.book
    book_discs = book.discs if book is not None else -1
    book_score = book.score if book is not None else _no_book
    nodes = cutoffs = hits = booked = 0
    deepest = 0

    def negamax(cur: int, mask: int, own_w: int, opp_w: int, n: int, alpha: int, beta: int) -> int:
        # cur: the mover's discs; own_w/opp_w: every cell that would complete a four for the
        # mover/opponent (occupied or not); n: discs on the board. The mover cannot win at
        # once (the parent never plays a move that allows it).
        nonlocal nodes, cutoffs, hits, booked, deepest
        nodes += 1
        if not nodes & check_mask:
            check(nodes, cutoffs, hits)
            if n > deepest:
                deepest = n
        possible = (mask + bottom) & board
        opp_win = opp_w & ~mask
        forced = possible & opp_win
        if forced:
            if forced & (forced - 1):
                return -((42 - n) >> 1)  # two threats: the opponent wins next move
            possible = forced
        possible &= ~(opp_win >> 1)
        if not possible:
            return -((42 - n) >> 1)  # every move lets the opponent win next move
        if n == book_discs:
            v = book_score(cur, mask)
            if v is not None:
                booked += 1
                return v
        if n >= 40:
            return 0
        v = -((40 - n) >> 1)  # the opponent cannot win with its next disc
        if alpha < v:
            alpha = v
            if alpha >= beta:
                return alpha
        v = (41 - n) >> 1  # we cannot win with our next disc
        if beta > v:
            beta = v
            if alpha >= beta:
                return beta
        key = cur + mask + stamp
        index = key % size
        e = slots[index]
        if e >> 7 == key:
            v = e & 127
            if v:
                hits += 1
                if v >= split:
                    v -= lower
                    if alpha < v:
                        alpha = v
                        if alpha >= beta:
                            return alpha
                else:
                    v -= upper
                    if beta > v:
                        beta = v
                        if alpha >= beta:
                            return beta
        opp = cur ^ mask
        child_mask = mask
        if not possible & (possible - 1):
            # One move: nothing to order.
            t = tables[possible]
            w = own_w | t[1][cur & t[0]] | t[3][cur & t[2]] | t[5][cur & t[4]]
            score = -negamax(opp, mask | possible, opp_w, w, n + 1, -beta, -alpha)
            if score >= beta:
                cutoffs += 1
                slots[index] = key << 7 | (score + lower)
                return score
            if score > alpha:
                alpha = score
            slots[index] = key << 7 | (alpha + upper)
            return alpha
        empty = board & ~mask
        ms = moves_at[n]
        ws = threats_at[n]
        keys = []
        for i, column in order:
            m = possible & column
            if m:
                t = tables[m]
                w = own_w | t[1][cur & t[0]] | t[3][cur & t[2]] | t[5][cur & t[4]]
                ms[i] = m
                ws[i] = w
                keys.append((w & empty).bit_count() << 3 | (7 - i))
        keys.sort(reverse=True)
        for k in keys:
            i = 7 - (k & 7)
            score = -negamax(opp, child_mask | ms[i], opp_w, ws[i], n + 1, -beta, -alpha)
            if score >= beta:
                cutoffs += 1
                slots[index] = key << 7 | (score + lower)
                return score
            if score > alpha:
                alpha = score
        slots[index] = key << 7 | (alpha + upper)
        return alpha

    def counters() -> tuple[int, int, int, int, int]:
        nonlocal nodes, cutoffs, hits, booked
        out = (nodes, cutoffs, hits, booked, deepest)
        nodes = cutoffs = hits = booked = 0
        return out

    return negamax, counters
