"""Tic-tac-toe opponents: a perfect searcher, depth-limited levels, random, and two classic
non-AI players for the 3×3 game (the product-of-codes rule player and the magic-square one).

Use :func:`make_player` with a spec string (``perfect``, ``level1`` … ``level9``, ``random``,
``rule-based``, ``magic-square``) and :func:`opponents_for` to list what a board allows.
"""

from __future__ import annotations

import random
import threading
from abc import abstractmethod

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
from tui_games.engine.search import TT, SearchLimits, SearchResult, resolve_algorithm
from tui_games.engine.tictactoe.position import MARKS, O, TicTacToe, X
from tui_games.engine.tree import TreeRecorder

LEVELS = range(1, 10)
# Empty cells up to which the perfect player searches straight to the end of the game (4×4
# from the start takes a few seconds); above it, iterative deepening under the time budget.
SOLVE_AT_ONCE = 16


class PerfectPlayer(SearchPlayer):
    """Exact search to the end of the game, with symmetry pruning and a table kept all game.

    Scores count the plies to the end (``WIN - ply``), so among winning moves it takes the
    fastest and when lost it holds out longest; equal moves are chosen at random (seeded).
    ``seconds`` caps each move; on a board too big to solve in time it plays the best move
    found so far and its note says the result is not proven.
    """

    def __init__(self, *, seed: int | None = None, seconds: float | None = None, algorithm: str = TT) -> None:
        super().__init__("perfect", SearchLimits(seconds=seconds), algorithm, seed=seed, keep_table=True)
        self.seconds = seconds
        self._variant: tuple[int, int, int, bool] | None = None

    def prepare(self, position: TicTacToe) -> tuple[TicTacToe, SearchLimits]:
        # The table's keys are only the marks and the side to move, so a player reused for a
        # different board or rule must start a fresh one.
        variant = (position.rows, position.cols, position.k, position.misere)
        if variant != self._variant:
            self._variant = variant
            assert self.table is not None  # kept: keep_table
            self.table.clear()
        pos = position.copy()
        pos.symmetry = True
        if pos.empties <= SOLVE_AT_ONCE:
            # Few enough empty cells to search to the end: go there directly after a few cheap
            # iterations (each intermediate depth costs about as much as the full search).
            return pos, SearchLimits(depth=pos.empties, seconds=self.seconds)
        # A bigger board cannot be solved in a move's time: deepen one ply at a time so the
        # move played comes from the deepest search that finished.
        return pos, SearchLimits(seconds=self.seconds)

    def describe(self, result: SearchResult, position: TicTacToe) -> str:
        note = describe_result(result, timing=False)
        if result.exact or result.move is None:
            return note
        if self.seconds is not None and result.stopped:
            return f"{note}; not proven in {self.seconds:g} s"
        return f"{note}; not proven"


class LevelPlayer(SearchPlayer):
    """Searches ``level`` plies ahead and judges the horizon with the board heuristic."""

    def __init__(
        self, level: int, *, seed: int | None = None, seconds: float | None = None, algorithm: str = TT
    ) -> None:
        if level not in LEVELS:
            raise ValueError(f"level {level} is not from {LEVELS[0]} to {LEVELS[-1]}")
        super().__init__(f"level {level}", SearchLimits(depth=level, seconds=seconds), algorithm, seed=seed)
        self.level = level


# -- the classic 3×3 players -------------------------------------------------------------------

# The eight lines of the 3×3 board as cell triples, with the names the board's edges show.
LINES: tuple[tuple[str, tuple[int, int, int]], ...] = (
    ("row 1", (0, 1, 2)),
    ("row 2", (3, 4, 5)),
    ("row 3", (6, 7, 8)),
    ("column a", (0, 3, 6)),
    ("column b", (1, 4, 7)),
    ("column c", (2, 5, 8)),
    ("diagonal a1-c3", (0, 4, 8)),
    ("diagonal c1-a3", (2, 4, 6)),
)
CENTRE = 4
EDGES = (1, 3, 5, 7)  # the non-corner edge squares

# The rule player's cell codes. They are primes, so a line's product tells its contents
# apart: 3·3·2 = 18 is X, X and a blank; 5·5·2 = 50 is O, O and a blank.
BLANK_CODE, X_CODE, O_CODE = 2, 3, 5
WINNING_PRODUCT = {X: X_CODE * X_CODE * BLANK_CODE, O: O_CODE * O_CODE * BLANK_CODE}

# The Lo Shu magic square laid over the board: every row, column and diagonal sums to 15,
# and no other three distinct numbers from 1..9 do, so "a + b + c = 15" means "a line".
MAGIC = (8, 3, 4, 1, 5, 9, 6, 7, 2)
CELL_OF_NUMBER = {n: cell for cell, n in enumerate(MAGIC)}


def supports_classic(position: TicTacToe) -> bool:
    """The rule-based and magic-square players only know the 3×3, three-in-a-row game."""
    return position.rows == 3 and position.cols == 3 and position.k == 3 and not position.misere


class ClassicPlayer(Player):
    """Shared shape of the two non-AI players: take a win, block the opponent's win, else
    the centre, else a non-corner edge, else any free square (by then only corners).
    Subclasses say how they spot a square that completes a line (:meth:`finishing`).
    """

    def __init__(self, name: str, *, seed: int | None = None) -> None:
        self.name = name
        self.rng = random.Random(seed)

    @abstractmethod
    def finishing(self, position: TicTacToe, player: int) -> list[tuple[int, str]]:
        """Free squares that would complete a line for ``player``, each with how it was seen."""

    def choose(self, position: TicTacToe, *, stop: threading.Event | None = None,
               on_progress: ProgressCallback | None = None, recorder: TreeRecorder | None = None) -> Decision:
        if not supports_classic(position):
            raise ValueError(f"the {self.name} player only plays 3x3 tic-tac-toe with k=3, normal rules")
        free = position.legal_moves()
        if not free:
            return Decision(None, "no legal move: the game is over")
        me = position.turn
        you = 1 - me
        name = position.move_name

        wins = self.finishing(position, me)
        if wins:
            cell, how = self.rng.choice(wins)
            return Decision(cell, f"{how}: {MARKS[me]} wins at {name(cell)}")
        blocks = self.finishing(position, you)
        if blocks:
            cell, how = self.rng.choice(blocks)
            return Decision(cell, f"{how}: {MARKS[me]} blocks {MARKS[you]} at {name(cell)}")
        if CENTRE in free:
            return Decision(CENTRE, f"no win or block: takes the centre {name(CENTRE)}")
        edges = [c for c in EDGES if c in free]
        if edges:
            cell = self.rng.choice(edges)
            return Decision(cell, f"no win or block, centre taken: takes the edge {name(cell)}")
        cell = self.rng.choice(free)
        return Decision(cell, f"no win or block, only corners left: takes {name(cell)}")


class RuleBasedPlayer(ClassicPlayer):
    """Codes each square 2 (blank), 3 (X) or 5 (O); a line whose product is 18 (X, X, blank)
    or 50 (O, O, blank) shows where that side can complete it. Order: own win, block, centre,
    non-corner edges, then any free square."""

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__("rule-based", seed=seed)

    def finishing(self, position: TicTacToe, player: int) -> list[tuple[int, str]]:
        codes = [X_CODE if m == "X" else O_CODE if m == "O" else BLANK_CODE for m in map(position.mark_at, range(9))]
        target = WINNING_PRODUCT[player]
        found = []
        for line_name, cells in LINES:
            a, b, c = (codes[i] for i in cells)
            if a * b * c == target:
                blank = next(i for i in cells if codes[i] == BLANK_CODE)
                found.append((blank, f"line product {target} on {line_name}"))
        return found


class MagicSquarePlayer(ClassicPlayer):
    """Numbers the squares 8 3 4 / 1 5 9 / 6 7 2 (a magic square: lines sum to 15). For every
    two squares a side holds, 15 - a - b is the square completing their line when it is a
    free square numbered 1..9. Own win first, then the opponent's (a block); then the same
    fallback as the rule-based player: centre, non-corner edges, any free square."""

    def __init__(self, *, seed: int | None = None) -> None:
        super().__init__("magic-square", seed=seed)

    def finishing(self, position: TicTacToe, player: int) -> list[tuple[int, str]]:
        held = sorted(MAGIC[c] for c in position.cells_of(position.bits[player]))
        free = set(position.legal_moves())
        found = []
        for i, a in enumerate(held):
            for b in held[i + 1 :]:
                n = 15 - a - b
                # n equal to a or b would be a held square, so "free" rules that out too.
                if 1 <= n <= 9 and CELL_OF_NUMBER[n] in free:
                    found.append((CELL_OF_NUMBER[n], f"{MARKS[player]} holds {a} and {b}, 15-{a}-{b}={n}"))
        return found


# -- the registry --------------------------------------------------------------------------------

# spec -> label, in the order a menu shows them.
OPPONENTS: dict[str, str] = {
    "perfect": "perfect",
    **{f"level{n}": f"level {n}" for n in LEVELS},
    "mcts": "Monte Carlo tree search",
    "random": "random",
    "rule-based": "rule-based",
    "magic-square": "magic square",
}
CLASSIC = ("rule-based", "magic-square")
# Where no search can solve the board from the start within a move's budget (more than
# SOLVE_AT_ONCE cells: 5×5 and up), "perfect" is an iterative-deepening search and is named so.
DEEP_SEARCH = "deep search"


def solvable(rows: int, cols: int) -> bool:
    """Whether the perfect player solves this board from the start (4×4 and smaller)."""
    return rows * cols <= SOLVE_AT_ONCE


def normalize_spec(spec: str) -> str:
    """The registry key for ``spec`` (a spec or a label, any case); ValueError lists the choices."""
    return lookup_spec(spec, OPPONENTS)


def make_player(spec: str, *, seed: int | None = None, seconds: float | None = None, algorithm: str = TT,
                board: tuple[int, int] | None = None) -> Player:
    """A fresh player for ``spec``. ``seconds`` caps each search move (perfect and levels);
    ``algorithm`` is the search they use; ``seed`` makes tie-breaks reproducible. ``board``
    (rows, cols), when known, names "perfect" a "deep search" where it cannot solve."""
    key = normalize_spec(spec)
    resolve_algorithm(algorithm)  # a bad name fails here, whichever player was asked for
    if key == "perfect":
        player = PerfectPlayer(seed=seed, seconds=seconds, algorithm=algorithm)
        if board is not None and not solvable(*board):
            player.name = DEEP_SEARCH
        return player
    if key.startswith("level"):
        return LevelPlayer(int(key.removeprefix("level")), seed=seed, seconds=seconds, algorithm=algorithm)
    if key == "random":
        return RandomPlayer(seed=seed)
    mcts = mcts_player(key, seconds=seconds, seed=seed, move_name=lambda pos, cell: pos.move_name(cell))
    if mcts is not None:  # mcts (CPU seconds a move) or mcts:N (N playouts)
        return mcts
    if key == "rule-based":
        return RuleBasedPlayer(seed=seed)
    return MagicSquarePlayer(seed=seed)


def opponents_for(position: TicTacToe) -> list[tuple[str, str]]:
    """(spec, label) of every opponent that can play ``position``'s board and rules."""
    classic_ok = supports_classic(position)
    deep = not solvable(position.rows, position.cols)
    return [(spec, DEEP_SEARCH if deep and spec == "perfect" else label)
            for spec, label in OPPONENTS.items() if classic_ok or spec not in CLASSIC]
