"""``tui-games bench connect4``: the exact solver on Pascal Pons' test sets (score checked,
nodes and seconds per position); the opening book, positions by disc count and whole games
of the perfect player (:mod:`.connect4_opening`); then the heuristic search's states per
depth from the empty board (the course reports' table)."""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path

from tui_games.bench.connect4_mcts import DEFAULT_LIMIT as MCTS_LIMIT
from tui_games.bench.connect4_mcts import QUICK_LIMIT as MCTS_QUICK_LIMIT
from tui_games.bench.connect4_mcts import mcts_rows
from tui_games.bench.connect4_opening import bench_opening
from tui_games.bench.table import Write, table
from tui_games.data.resources import puzzle_path
from tui_games.engine.connect4.position import Connect4, Connect4Error
from tui_games.engine.connect4.solver import Solver
from tui_games.engine.search import ALPHABETA, MINIMAX, TT, SearchLimits, search

Row = Callable[[Sequence[str]], None]

DEFAULT_NODE_LIMIT = 1_000_000
# The first 100 lines of Pons' sets, shipped with the package (puzzles/bench_connect4_*.txt) so
# an installed copy can run the bench; the full sets are passed with --set.
DEFAULT_SETS = ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1")
QUICK_LIMIT = 20
COURSE_DEPTHS = range(1, 9)
QUICK_COURSE_DEPTHS = range(1, 7)

SOLVER_TITLES = ("set", "count", "correct", "mean nodes", "median", "max nodes", "mean s", "median s", "max s",
                 "nodes/s")
SOLVER_WIDTHS = (16, 5, 7, 11, 9, 11, 8, 8, 8, 9)


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


def solver_row(row: Row, solver: Solver, name: str, cases: list[tuple[Connect4, int]]) -> None:
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
        row([name, "0"])
        return
    total_s = sum(seconds)
    row([
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
    ])


COURSE_ALGORITHMS = ((MINIMAX, "minimax"), (ALPHABETA, "alpha-beta"), (TT, "alpha-beta+ordering+TT"))


def course_table(write: Write, depths: range, node_limit: int) -> None:
    """States expanded and time per depth from the empty board, one search per cell (the
    course project's runtime analysis). A search whose size, extrapolated from the depth
    before, would pass the node budget is skipped and marked."""
    titles = ["depth"]
    for _, label in COURSE_ALGORITHMS:
        titles += [f"{label} states", "seconds"]
    widths = [5] + [max(12, len(t)) if i % 2 == 0 else 8 for i, t in enumerate(titles[1:])]
    row = table(write, titles, widths, left=())
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
        row(cells)


def bench_connect4(write: Write, *, quick: bool = False, node_limit: int = DEFAULT_NODE_LIMIT,
                   sets: list[str] | None = None, limit: int | None = None, mcts: bool = False) -> None:
    if mcts:
        if limit is None:
            limit = MCTS_QUICK_LIMIT if quick else MCTS_LIMIT
        mcts_rows(write, load_sets(sets, limit, quick))
        return
    loaded = load_sets(sets, limit, quick)
    write("Connect-4 exact solver: score of every position of each set, checked against the file")
    write("(nodes and seconds per position; the table is reset between positions; no opening book; "
          f"{'compiled' if Solver(1).compiled else 'pure Python: the compiled solver is not built'})")
    write("")
    row = table(write, SOLVER_TITLES, SOLVER_WIDTHS)
    solver = Solver()
    for name, cases in loaded:
        solver_row(row, solver, name, cases)
    write("")
    if not sets:  # a run on named sets is about those sets
        bench_opening(write, quick=quick, limit=limit)
        write("")
    write("Heuristic search from the empty board (default heuristic): states expanded per depth")
    write(f"(a search that would pass {node_limit:,} states is skipped; --node-limit raises it)")
    write("")
    course_table(write, QUICK_COURSE_DEPTHS if quick else COURSE_DEPTHS, node_limit)
