"""Search benchmarks: ``tui-games bench GAME`` prints a table per game.

Speed is measured here, never in timed tests (see DESIGN.md). Each row is one search from a
fixed position with one algorithm; a row that cannot finish in reasonable time in Python runs
under a node budget and says so. The machine goes at the top: the numbers mean nothing
without it.
"""

from __future__ import annotations

import os
import platform
import random
from dataclasses import dataclass
from typing import Callable

from tui_games.engine.search import ALGORITHMS, ALPHABETA, MINIMAX, ORDERING, TT, SearchLimits, SearchResult, search
from tui_games.engine.tictactoe import TicTacToe

Write = Callable[[str], None]

DEFAULT_NODE_LIMIT = 1_000_000


def machine_line() -> str:
    cpu = platform.processor() or platform.machine()
    return (
        f"machine: {platform.platform()} ({cpu}), {os.cpu_count()} CPUs, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )


@dataclass(frozen=True)
class Column:
    title: str
    width: int
    left: bool = False


COLUMNS = (
    Column("board", 14, left=True),
    Column("algorithm", 27, left=True),
    Column("nodes", 11),
    Column("leaves", 11),
    Column("cutoffs", 10),
    Column("TT hits", 9),
    Column("depth", 5),
    Column("seconds", 8),
    Column("nodes/s", 9),
    Column("result", 0, left=True),
)


def _row(cells: list[str]) -> str:
    parts = [c.ljust(col.width) if col.left else c.rjust(col.width) for c, col in zip(cells, COLUMNS)]
    return "  ".join(parts).rstrip()


def header() -> list[str]:
    title = _row([col.title for col in COLUMNS])
    return [title, "-" * len(title)]


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


def table_row(board: str, label: str, result: SearchResult, position: TicTacToe, limits: SearchLimits) -> str:
    s = result.stats
    return _row([
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
    ])


def run_case(write: Write, rows: int, cols: int, k: int, misere: bool, algorithm: str, *,
             symmetry: bool = False, node_limit: int | None = None) -> SearchResult:
    """One search from the empty board to the end of the game, printed as one row."""
    position = TicTacToe(rows, cols, k, misere, symmetry=symmetry)
    limits = SearchLimits(depth=position.empties, nodes=node_limit)
    # A fixed seed: the root's tie-break shuffle changes the move order, hence the counts.
    result = search(position, limits, algorithm, rng=random.Random(0))
    board = f"{rows}x{cols} k={k}" + (" misere" if misere else "")
    label = algorithm + (" +sym" if symmetry else "")
    write(table_row(board, label, result, position, limits))
    return result


def bench_tictactoe(write: Write, *, quick: bool = False, node_limit: int = DEFAULT_NODE_LIMIT) -> None:
    write("tic-tac-toe: one search from the empty board to the end of the game")
    write("(+sym: moves a symmetry of the board makes equal are searched once)")
    write("")
    for line in header():
        write(line)
    # 3×3 is small enough for every algorithm to search the whole game: the plain minimax
    # row is the full game tree (549,946 nodes, 255,168 finished games).
    for misere in (False, True) if not quick else (False,):
        for algorithm in ALGORITHMS:
            run_case(write, 3, 3, 3, misere, algorithm)
        run_case(write, 3, 3, 3, misere, TT, symmetry=True)
    if quick:
        return
    # 4×4, four in a row: the tree is far too big for the unordered searches in Python, so
    # they show their speed under a node budget; ordering + table + symmetry solves it.
    for algorithm in (MINIMAX, ALPHABETA):
        run_case(write, 4, 4, 4, False, algorithm, node_limit=node_limit)
    run_case(write, 4, 4, 4, False, ORDERING, symmetry=True, node_limit=node_limit)
    run_case(write, 4, 4, 4, False, TT, symmetry=True)


BENCHES: dict[str, Callable[..., None]] = {
    "tictactoe": bench_tictactoe,
}


def run(game: str, write: Write = print, **options) -> None:
    """Print the benchmark for ``game``; ValueError names the games that have one."""
    bench = BENCHES.get(game.strip().lower())
    if bench is None:
        raise ValueError(f"no benchmark for {game!r}; choose one of {', '.join(BENCHES)}")
    write(machine_line())
    write("")
    bench(write, **options)
