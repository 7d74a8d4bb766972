"""Search benchmarks: ``tui-games bench GAME`` prints a table per game.

Speed is measured here, never in timed tests (see DESIGN.md). Each row is one search from a
fixed position with one algorithm; a row that cannot finish in reasonable time in Python runs
under a node budget and says so. The machine goes at the top: the numbers mean nothing
without it.
"""

from __future__ import annotations

import inspect
import os
import platform
import random
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tui_games.bench_checkers import bench_checkers
from tui_games.bench_sudoku import bench_sudoku
from tui_games.bench_terminal import bench_terminal
from tui_games.engine.connect4.position import Connect4, Connect4Error
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.search import (
    ALGORITHMS,
    ALPHABETA,
    MINIMAX,
    ORDERING,
    TT,
    SearchLimits,
    SearchResult,
    search,
)
from tui_games.engine.tictactoe import TicTacToe
from tui_games.resources import puzzle_path

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


# -- Connect-4 ----------------------------------------------------------------------------------------

# The first 100 lines of Pons' sets, shipped with the package (puzzles/bench_connect4_*.txt) so
# an installed copy can run the bench; the full sets are passed with --set.
DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")
QUICK_LIMIT = 20
COURSE_DEPTHS = range(1, 9)
QUICK_COURSE_DEPTHS = range(1, 7)

SOLVER_COLUMNS = (
    Column("set", 16, left=True),
    Column("count", 5),
    Column("correct", 7),
    Column("mean nodes", 11),
    Column("median", 9),
    Column("max nodes", 11),
    Column("mean s", 8),
    Column("median s", 8),
    Column("max s", 8),
    Column("nodes/s", 9),
)


def _cells_row(cells: list[str], columns: tuple[Column, ...]) -> str:
    parts = [c.ljust(col.width) if col.left else c.rjust(col.width) for c, col in zip(cells, columns)]
    return "  ".join(parts).rstrip()


def read_set(path: Path, limit: int | None = None) -> list[tuple[int, str, int]]:
    """(line number, moves, score) of every line of a test set; ValueError names the file and line."""
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"cannot read test set {str(path)!r}: {error.strerror or error}") from None
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2 or not fields[1].lstrip("+-").isdigit():
            raise ValueError(f"{path}:{number}: expected 'MOVES SCORE', got {line.strip()!r}")
        out.append((number, fields[0], int(fields[1])))
        if limit is not None and len(out) >= limit:
            break
    return out


def default_sets() -> list[Path]:
    return [Path(str(puzzle_path(f"bench_connect4_{name}.txt"))) for name in DEFAULT_SETS]


TestSet = tuple[str, list[tuple[Connect4, int]]]


def load_sets(sets: list[str] | None, limit: int | None, quick: bool = False) -> list[TestSet]:
    """(name, [(position, score)]) for every set, read and parsed before anything is printed,
    so a bad file is one error line and no half table. ValueError names the file and line."""
    paths = [Path(s) for s in sets] if sets else default_sets()
    if limit is None and quick:
        limit = QUICK_LIMIT
    loaded = []
    for path in paths:
        cases = []
        for number, moves, score in read_set(path, limit):
            try:
                cases.append((Connect4.parse(moves), score))
            except Connect4Error as error:
                raise ValueError(f"{path}:{number}: {error}") from None
        loaded.append((path.name.removeprefix("bench_connect4_").removesuffix(".txt"), cases))
    return loaded


def solver_row(write: Write, solver: Solver, name: str, cases: list[tuple[Connect4, int]]) -> None:
    """Solve every position of one set (the table reset before each, so a count does not
    depend on the order) and print one row."""
    nodes: list[int] = []
    seconds: list[float] = []
    correct = 0
    for position, expected in cases:
        solver.reset()
        result = solver.solve(position)
        nodes.append(result.nodes)
        seconds.append(result.seconds)
        correct += result.score == expected
    if not cases:
        write(_cells_row([name, "0"], SOLVER_COLUMNS))
        return
    total_s = sum(seconds)
    write(_cells_row([
        name,
        str(len(cases)),
        str(correct),
        f"{statistics.mean(nodes):,.0f}",
        f"{statistics.median(nodes):,.0f}",
        f"{max(nodes):,}",
        f"{statistics.mean(seconds):.4f}",
        f"{statistics.median(seconds):.4f}",
        f"{max(seconds):.3f}",
        f"{sum(nodes) / total_s:,.0f}" if total_s > 0 else "-",
    ], SOLVER_COLUMNS))


COURSE_ALGORITHMS = ((MINIMAX, "minimax"), (ALPHABETA, "alpha-beta"), (TT, "alpha-beta+ordering+TT"))


def course_table(write: Write, depths: range, node_limit: int) -> None:
    """States expanded and time per depth from the empty board, one search per cell (the
    course project's runtime analysis). A search whose size, extrapolated from the depth
    before, would pass the node budget is skipped and marked."""
    titles = ["depth"]
    for _, label in COURSE_ALGORITHMS:
        titles += [f"{label} states", "seconds"]
    widths = [5] + [max(12, len(t)) if i % 2 == 0 else 8 for i, t in enumerate(titles[1:])]
    columns = tuple(Column(t, w) for t, w in zip(titles, widths))
    title = _cells_row(titles, columns)
    write(title)
    write("-" * len(title))
    previous: dict[str, int] = {}
    for depth in depths:
        cells = [str(depth)]
        for algorithm, _ in COURSE_ALGORITHMS:
            last = previous.get(algorithm)
            if last is not None and (last < 0 or last * 7 > node_limit):
                previous[algorithm] = -1
                cells += ["skipped", "-"]
                continue
            position = Connect4()
            result = search(position, SearchLimits(depth=depth), algorithm, rng=random.Random(0))
            previous[algorithm] = result.stats.nodes
            cells += [f"{result.stats.nodes:,}", f"{result.stats.seconds:.3f}"]
        write(_cells_row(cells, columns))


def bench_connect4(write: Write, *, quick: bool = False, node_limit: int = DEFAULT_NODE_LIMIT,
                   sets: list[str] | None = None, limit: int | None = None) -> None:
    loaded = load_sets(sets, limit, quick)
    write("Connect-4 exact solver: score of every position of each set, checked against the file")
    write("(nodes and seconds per position; the table is reset between positions)")
    write("")
    columns = SOLVER_COLUMNS
    title = _cells_row([c.title for c in columns], columns)
    write(title)
    write("-" * len(title))
    solver = Solver()
    for name, cases in loaded:
        solver_row(write, solver, name, cases)
    write("")
    write("Heuristic search from the empty board (default heuristic): states expanded per depth")
    write(f"(a search that would pass {node_limit:,} states is skipped; --node-limit raises it)")
    write("")
    course_table(write, QUICK_COURSE_DEPTHS if quick else COURSE_DEPTHS, node_limit)


BENCHES: dict[str, Callable[..., None]] = {
    "tictactoe": bench_tictactoe,
    "connect4": bench_connect4,
    "checkers": bench_checkers,
    "sudoku": bench_sudoku,
    "terminal": bench_terminal,
}


def run(game: str, write: Write = print, **options) -> None:
    """Print the benchmark for ``game``; ValueError names the games that have one. With
    ``sweep=True``, the algorithm sweep (:mod:`tui_games.bench_sweep`) instead."""
    if options.pop("sweep", False):
        from tui_games.bench_sweep import sweep_bench

        bench = sweep_bench(game)
    else:
        bench = BENCHES.get(game.strip().lower())
    if bench is None:
        raise ValueError(f"no benchmark for {game!r}; choose one of {', '.join(BENCHES)}")
    accepted = inspect.signature(bench).parameters
    for name in options:
        if name not in accepted:
            flag = "--" + name.removesuffix("s").replace("_", "-")
            raise ValueError(f"{flag} does not apply to the {game.strip().lower()} benchmark")
    # The machine line goes out with the bench's first line, so a bench that refuses its input
    # (a bad set file) prints one error and no half table.
    started = False

    def write_after_machine_line(line: str) -> None:
        nonlocal started
        if not started:
            started = True
            write(machine_line())
            write("")
        write(line)

    bench(write_after_machine_line, **options)
