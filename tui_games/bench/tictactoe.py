"""``tui-games bench tictactoe``: one search from the empty board to the end of the game, per
algorithm, on 3×3 (normal and misère) and 4×4 with four in a row.

Each row is one search from a fixed position with one algorithm; a row that cannot finish in
reasonable time in Python runs under a node budget and says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tui_games.bench.table import Write, table
from tui_games.engine.search import ALGORITHMS, ALPHABETA, MINIMAX, ORDERING, TT, SearchLimits, SearchResult, search
from tui_games.engine.tictactoe import TicTacToe

Row = Callable[[Sequence[str]], None]

DEFAULT_NODE_LIMIT = 1_000_000
TITLES = ("board", "algorithm", "nodes", "leaves", "cutoffs", "TT hits", "depth", "seconds", "nodes/s", "result")
WIDTHS = (14, 27, 11, 11, 10, 9, 5, 8, 9, 6)


def result_text(result: SearchResult, position: TicTacToe, limits: SearchLimits) -> str:
    if result.stopped:
        if limits.nodes is not None and result.stats.nodes >= limits.nodes:
            return "stopped at node limit"
        return "stopped"
    if result.value is None:
        return "not proven"
    if result.value == 0:
        return "draw (proven)"
    winner = position.turn if result.value > 0 else 1 - position.turn
    return f"{'XO'[winner]} wins (proven)"


def table_row(board: str, label: str, result: SearchResult, position: TicTacToe, limits: SearchLimits) -> list[str]:
    s = result.stats
    return [
        board,
        label,
        f"{s.nodes:,}",
        f"{s.leaves:,}",
        f"{s.cutoffs:,}",
        f"{s.tt_hits:,}",
        str(s.depth),
        f"{s.seconds:.3f}",
        f"{s.nodes_per_second:,.0f}",
        result_text(result, position, limits),
    ]


def run_case(row: Row, rows: int, cols: int, k: int, misere: bool, algorithm: str, *,
             symmetry: bool = False, node_limit: int | None = None) -> SearchResult:
    """One search from the empty board to the end of the game, printed as one row."""
    position = TicTacToe(rows, cols, k, misere, symmetry=symmetry)
    limits = SearchLimits(depth=position.empties, nodes=node_limit)
    # A fixed seed: the root's tie-break shuffle changes the move order, hence the counts.
    result = search(position, limits, algorithm, rng=random.Random(0))
    board = f"{rows}x{cols} k={k}" + (" misere" if misere else "")
    label = algorithm + (" +sym" if symmetry else "")
    row(table_row(board, label, result, position, limits))
    return result


def bench_tictactoe(write: Write, *, quick: bool = False, node_limit: int = DEFAULT_NODE_LIMIT) -> None:
    write("tic-tac-toe: one search from the empty board to the end of the game")
    write("(+sym: moves a symmetry of the board makes equal are searched once)")
    write("")
    row = table(write, TITLES, WIDTHS, left=(0, 1, 9))
    # 3×3 is small enough for every algorithm to search the whole game: the plain minimax
    # row is the full game tree (549,946 nodes, 255,168 finished games).
    for misere in (False, True) if not quick else (False,):
        for algorithm in ALGORITHMS:
            run_case(row, 3, 3, 3, misere, algorithm)
        run_case(row, 3, 3, 3, misere, TT, symmetry=True)
    if quick:
        return
    # 4×4, four in a row: the tree is far too big for the unordered searches in Python, so
    # they show their speed under a node budget; ordering + table + symmetry solves it.
    for algorithm in (MINIMAX, ALPHABETA):
        run_case(row, 4, 4, 4, False, algorithm, node_limit=node_limit)
    run_case(row, 4, 4, 4, False, ORDERING, symmetry=True, node_limit=node_limit)
    run_case(row, 4, 4, 4, False, TT, symmetry=True)
