"""``tui-games bench sudoku --variant killer|jigsaw``: the SAT solver (each Killer cage
encoding) and Z3 on the same seeded puzzles.

The puzzles are made first, untimed, from seed 0 (:func:`.variant_generator.unique_killer`
and :func:`~.variant_generator.unique_jigsaw`: unique by the SAT check, ungraded, the cages of
2-5 cells newspapers draw), ``--limit N`` of them (default 1,000; ``--quick`` 50). Every
puzzle is solved with the uniqueness check, as ``sudoku solve`` does, by each solver; the
solutions must be the generator's. Z3 solves them all too (about 0.3 CPU s a Killer: five
minutes for the 1,000), or the first ``--smt-limit N`` (0: all). The last line names the
faster solver, what ``--solver auto`` is set from (``commands/sudoku.py``'s ``FASTER``).

Times are CPU milliseconds of this process (``time.process_time``) around each whole solve,
encoding included: the machine is often shared, and wall time would measure the neighbours.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Callable

from tui_games.bench.table import write_table
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.variant_generator import unique_jigsaw, unique_killer

Write = Callable[[str], None]

COUNT = 1000
QUICK_COUNT = 50


def _make(variant: str, count: int) -> list[tuple[Grid, list[int]]]:
    rng = random.Random(0)
    make = unique_killer if variant == "killer" else unique_jigsaw
    return [make(rng) for _ in range(count)]


def _ms(values: list[float]) -> list[str]:
    return [f"{statistics.mean(values):.2f}", f"{statistics.median(values):.2f}", f"{max(values):.1f}"]


def bench_variant(write: Write, variant: str, *, count: int | None = None, quick: bool = False,
                  smt_limit: int | None = None) -> None:
    """The tables for one variant (see the module docstring)."""
    from tui_games.engine.sudoku import smt

    count = count or (QUICK_COUNT if quick else COUNT)
    if smt_limit is not None and smt_limit < 0:
        raise ValueError(f"--smt-limit takes 0 (all) or more puzzles, not {smt_limit}")
    smt_count = count if not smt_limit else min(count, smt_limit)
    start = time.perf_counter()
    puzzles = _make(variant, count)
    write(f"{variant.capitalize()} Sudoku: {count} puzzles made from seed 0 in {time.perf_counter() - start:.0f} s "
          "(untimed below), each solved with the uniqueness check")
    write("")
    encodings = sat.CAGE_ENCODINGS if variant == "killer" else (sat.COMBINATIONS,)
    rows = []
    means: dict[str, float] = {}
    gc.collect()
    gc.freeze()
    try:
        for encoding in encodings:
            ms, variables, clauses = [], [], []
            agree = 0
            for grid, solution in puzzles:
                cpu = time.process_time()
                result = sat.solve(grid, cage_encoding=encoding)
                ms.append((time.process_time() - cpu) * 1000)
                agree += result.unique and result.solution == solution
                variables.append(result.stats.variables)
                clauses.append(result.stats.clauses)
            name = f"sat ({encoding})" if variant == "killer" else "sat"
            means[name] = statistics.mean(ms)
            rows.append([name, str(len(puzzles)), str(agree), *_ms(ms), f"{statistics.mean(variables):,.0f}",
                         f"{statistics.mean(clauses):,.0f}"])
        if smt.available():
            ms, assertions = [], []
            agree = 0
            for grid, solution in puzzles[:smt_count]:
                cpu = time.process_time()
                result = smt.solve(grid)
                ms.append((time.process_time() - cpu) * 1000)
                agree += result.unique and result.solution == solution
                assertions.append(result.stats.assertions)
            means["smt (z3)"] = statistics.mean(ms)
            rows.append(["smt (z3)", str(smt_count), str(agree), *_ms(ms), "81",
                         f"{statistics.mean(assertions):,.0f} assertions"])
        else:
            write(f"(no Z3: {smt.INSTALL_HINT})")
    finally:
        gc.unfreeze()
    write_table(write, ["solver", "puzzles", "agree", "mean CPU ms", "median", "max", "variables", "clauses"], rows)
    write("")
    best = min(means, key=lambda k: means[k])
    others = ", ".join(f"{k} {means[k] / means[best]:.1f}x" for k in means if k != best)
    write(f"faster: {best} ({means[best]:.2f} ms a puzzle){'; ' + others if others else ''}")
