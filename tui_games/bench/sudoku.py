"""``tui-games bench sudoku``: the SAT solver on the puzzle sets, Norvig's solver on the hard
ones for comparison, and the generator's time for an "advanced" puzzle.

Default sets: the samples shipped in ``puzzles/bench_sudoku_*.txt``; the full public sets
are passed as ``FILE`` arguments or ``--set FILE``, with ``--limit N`` to take the first N
puzzles of each. Every puzzle is solved twice: once stopping at the first solution ("solve")
and once asking for a second one ("unique check", what ``sudoku solve`` does); both times
include building the CNF. Each solution found is checked (every unit complete, the givens
kept). Speed is measured here, never in the tests (see docs/DESIGN.md).
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tui_games.bench.table import write_table
from tui_games.data.resources import puzzle_path
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import read_puzzles
from tui_games.engine.sudoku.generator import generate
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.norvig import solve_values

Write = Callable[[str], None]

DEFAULT_SETS = (
    "project_euler_96.txt",
    "tdoku_17_clue_100.txt",
    "magictour_top1465_100.txt",
    "norvig_top95.txt",
    "norvig_hardest11.txt",
    "tdoku_forum_hardest_1905_11plus_100.txt",
    "tdoku_forum_hardest_1106_100.txt",
    "sudoku_exchange_diabolical_200.txt",
    "serg_benchmark_100.txt",
)
QUICK_LIMIT = 20
# Norvig's solver runs on the sets whose file name says they are hard for backtracking.
HARD_WORDS = ("hardest", "top")
GENERATE_LEVEL = "advanced"
GENERATE_COUNT = 10
QUICK_GENERATE_COUNT = 3

PuzzleSet = tuple[str, list[Grid]]


def _mean(values: list[float]) -> str:
    return f"{statistics.mean(values):,.0f}" if values else "-"


def default_sets(names: tuple[str, ...] = DEFAULT_SETS) -> list[Path]:
    """The samples shipped with the package (puzzles/bench_sudoku_*.txt)."""
    return [Path(str(puzzle_path(f"bench_sudoku_{name}"))) for name in names]


def load_sets(sets: list[str] | None = None, limit: int | None = None, quick: bool = False) -> list[PuzzleSet]:
    """(file name, grids) of every set, read before anything is printed; ValueError names
    the file and line of the first malformed puzzle."""
    paths = [Path(s) for s in sets] if sets else default_sets()
    if limit is None and quick:
        limit = QUICK_LIMIT
    loaded = []
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "not UTF-8 text"
            raise ValueError(f"cannot read puzzle set {str(path)!r}: {reason}") from None
        grids = []
        for entry in read_puzzles(text, str(path)):
            if entry.error is not None or entry.grid is None:
                raise ValueError(str(entry.error))
            grids.append(entry.grid)
            if limit is not None and len(grids) >= limit:
                break
        loaded.append((path.name.removeprefix("bench_sudoku_"), grids))
    return loaded


def _valid(grid: Grid, solution: list[int] | None) -> bool:
    if solution is None:
        return False
    solved = Grid(solution, size=grid.size, diagonal=grid.diagonal)
    return solved.is_solved() and grid.agrees_with(solution)


def _ms(values: list[float]) -> list[str]:
    if not values:
        return ["-", "-", "-"]
    return [f"{statistics.mean(values):.3f}", f"{statistics.median(values):.3f}", f"{max(values):.2f}"]


def sat_tables(write: Write, loaded: list[PuzzleSet]) -> dict[str, float]:
    """The solver and encoding tables; returns the mean solve ms of each set."""
    timing_rows, size_rows = [], []
    means: dict[str, float] = {}
    for name, grids in loaded:
        solve_ms, check_ms = [], []
        counts = {sat.Status.UNIQUE: 0, sat.Status.SEVERAL: 0, sat.Status.NONE: 0}
        valid = 0
        variables, clauses, literals, filled = [], [], [], []
        for grid in grids:
            first = sat.solve(grid, unique=False)
            solve_ms.append(first.seconds * 1000)
            check = sat.solve(grid)
            check_ms.append(check.seconds * 1000)
            counts[check.status] += 1
            valid += _valid(grid, first.solution) and _valid(grid, check.solution)
            s = check.stats
            variables.append(s.variables)
            clauses.append(s.clauses)
            literals.append(s.literals)
            filled.append(s.propagated)
        means[name] = statistics.mean(solve_ms) if solve_ms else 0.0
        ratio = statistics.mean(check_ms) / means[name] if solve_ms and means[name] else 0.0
        timing_rows.append([name, str(len(grids)), str(counts[sat.Status.UNIQUE]), str(counts[sat.Status.SEVERAL]),
                            str(counts[sat.Status.NONE]), str(valid), *_ms(solve_ms), *_ms(check_ms),
                            f"{ratio:.2f}" if solve_ms else "-"])
        size_rows.append([name, str(len(grids)), _mean(variables), _mean(clauses), _mean(literals), _mean(filled)])
    write("SAT solver (pycosat), ms per puzzle, building the CNF included")
    write("(solve: stop at the first solution; check: look for a second one too, as `sudoku solve` does;")
    write(" valid: solutions checked complete and keeping the givens)")
    write("")
    write_table(write, ["set", "puzzles", "unique", "several", "none", "valid", "solve mean", "median", "max",
                   "check mean", "median", "max", "check/solve"], timing_rows)
    write("")
    write("CNF size, mean per puzzle (variables only for candidates left after propagation)")
    write("")
    write_table(write, ["set", "puzzles", "variables", "clauses", "literals", "cells propagated"], size_rows)
    return means


def norvig_table(write: Write, loaded: list[PuzzleSet], sat_means: dict[str, float]) -> None:
    hard = [(name, grids) for name, grids in loaded if any(w in name.lower() for w in HARD_WORDS)]
    write("")
    write("Norvig's constraint propagation + search (pure Python) against the SAT solver, on the hard sets")
    write("(ms per puzzle; agree: the same solution as the SAT solver)")
    write("")
    rows = []
    for name, grids in hard:
        times = []
        agree = 0
        for grid in grids:
            if grid.size != 9 or grid.diagonal:
                continue
            start = time.perf_counter()
            solution = solve_values(grid.values)
            times.append((time.perf_counter() - start) * 1000)
            agree += solution == sat.solve(grid, unique=False).solution
        ratio = statistics.mean(times) / sat_means[name] if times and sat_means.get(name) else 0.0
        rows.append([name, str(len(times)), str(agree), *_ms(times), f"{sat_means.get(name, 0.0):.3f}",
                     f"{ratio:.1f}x" if times else "-"])
    if not rows:
        write("(no hard set given: none has 'hardest' or 'top' in its file name)")
        return
    write_table(write, ["set", "puzzles", "agree", "Norvig mean", "median", "max", "SAT mean", "Norvig/SAT"], rows)


def generation_table(write: Write, count: int) -> None:
    write("")
    write(f"Generating {GENERATE_LEVEL!r} puzzles (9x9, seeds 0..{count - 1}), seconds per puzzle")
    write("")
    seconds, attempts, clues = [], [], []
    for seed in range(count):
        made = generate(GENERATE_LEVEL, seed)
        seconds.append(made.seconds)
        attempts.append(made.attempts)
        clues.append(sum(1 for v in made.puzzle.values if v))
    write_table(write, ["grade", "puzzles", "mean s", "median s", "max s", "mean attempts", "mean clues"],
           [[GENERATE_LEVEL, str(count), f"{statistics.mean(seconds):.2f}", f"{statistics.median(seconds):.2f}",
             f"{max(seconds):.2f}", f"{statistics.mean(attempts):.1f}", f"{statistics.mean(clues):.1f}"]])


def bench_sudoku(write: Write, *, quick: bool = False, sets: list[str] | None = None,
                 limit: int | None = None, logic: bool = False, jobs: int = 1, results: str | None = None,
                 resume: bool = False, grade_only: bool = False, variant: str | None = None,
                 smt_limit: int | None = None) -> None:
    """The SAT solver, Norvig's and the generator; with ``logic``, the human stepper instead
    (:mod:`tui_games.bench.sudoku_logic`), over ``jobs`` processes; with ``variant`` (killer,
    jigsaw) the SAT and SMT solvers on generated puzzles of it (:mod:`.sudoku_variants`)."""
    if variant not in (None, "classic"):
        if sets or logic or results is not None or resume or grade_only:
            raise ValueError("--variant takes generated puzzles: no set files, no --logic")
        from tui_games.bench.sudoku_variants import bench_variant

        bench_variant(write, variant, count=limit, quick=quick, smt_limit=smt_limit)
        return
    if smt_limit is not None:
        raise ValueError("--smt-limit goes with --variant")
    if logic:
        from tui_games.bench.sudoku_logic import LOGIC_SETS, QUICK_LIMIT, logic_tables

        paths = [Path(s) for s in sets] if sets else default_sets(LOGIC_SETS)
        loaded = load_sets([str(p) for p in paths], limit or (QUICK_LIMIT if quick else None))
        if resume and results is None:
            raise ValueError("--resume goes with --results")
        logic_tables(write, [(name, path, grids) for (name, grids), path in zip(loaded, paths)], jobs, results,
                     resume=resume, hints=not grade_only)
        return
    if results is not None or resume or grade_only:
        raise ValueError("--results, --resume and --grade-only go with --logic")
    loaded = load_sets(sets, limit, quick)
    sat.solve(Grid())  # build the shape's caches before anything is timed
    # Tens of thousands of loaded grids would make every full garbage collection walk them
    # all, and those pauses (tens of ms) would land on whichever puzzle triggered them: they
    # are data, not garbage, so keep them out of the collector's sight while timing.
    gc.collect()
    gc.freeze()
    try:
        means = sat_tables(write, loaded)
        norvig_table(write, loaded, means)
        generation_table(write, QUICK_GENERATE_COUNT if quick else GENERATE_COUNT)
    finally:
        gc.unfreeze()
