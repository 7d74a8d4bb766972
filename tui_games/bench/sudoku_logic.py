"""``tui-games bench sudoku --logic``: the human stepper on the puzzle sets.

Per set: how many puzzles the techniques finish, the time of one hint (one call of the
stepper's ``next_step``, every technique) and of a whole puzzle, the rating distribution (the
grade's: Sudoku Explainer's techniques only), and how many steps were wrong -- every placement and elimination is checked against the SAT solution, so a
technique that removes a true candidate shows up here (the count must be 0). Where a file
``NAME_se_ratings.txt`` sits beside ``NAME.txt`` (one Sudoku Explainer rating per line, as in
the shared diabolical set), the bench compares: Spearman's rank correlation, the share
within ±0.3, a scatter of our rating against theirs, and a *rating report*: the share within
±0.1, ±0.3, ±0.5 and ±1.0 and the mean absolute difference, overall and by their rating band
(≤2, 2-4, 4-6, 6-8, 8-10, 10+), with Spearman's rho per band, and the biggest disagreements.

``--jobs N`` spreads the puzzles over N processes (each puzzle is timed inside its process,
so the times are those of one core).
"""

from __future__ import annotations

import contextlib
import json
import statistics
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from tui_games.bench.table import Write, write_table
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grading import graded_steps
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.techniques import Step

# The logic bench's default sets: the shipped samples that humans find hard.
LOGIC_SETS = (
    "project_euler_96.txt",
    "norvig_top95.txt",
    "magictour_top1465_100.txt",
    "sudoku_exchange_diabolical_200.txt",
    "norvig_hardest11.txt",
    "tdoku_forum_hardest_1905_11plus_100.txt",
)
QUICK_LIMIT = 10
TOLERANCE = 0.3


@dataclass(frozen=True)
class Solved:
    """What the stepper did on one puzzle."""

    finished: bool
    rating: float
    level: str
    technique: str
    hint_seconds: tuple[float, ...]
    seconds: float  # the hints' pass
    wrong: tuple[str, ...]  # "technique: removes the true 7 from r1c2"
    grade_seconds: float = 0.0  # the grade (CPU)


def run_puzzle(values: list[int], size: int = 9, diagonal: bool = False, with_hints: bool = True) -> Solved:
    """Step through one puzzle (its digits, 0 for a blank), checking every step: once with
    every technique, as the hints do (timed; not with ``with_hints=False``), and once with
    Sudoku Explainer's techniques only, as the grade does (the rating, level and hardest step
    reported)."""
    grid = Grid(values, size=size, diagonal=diagonal)
    solution = sat.solve(grid).solution or []
    stepper = Stepper(grid)
    hints: list[float] = []
    wrong: list[str] = []
    start = time.process_time()
    while with_hints:
        t0 = time.process_time()
        step = stepper.next_step()
        hints.append(time.process_time() - t0)
        if step is None:
            break
        wrong.extend(_wrong(step, solution))
        stepper.apply(step)
    seconds = time.process_time() - start
    graded = time.process_time()
    grade, steps = graded_steps(grid)
    graded = time.process_time() - graded
    for step in steps:
        wrong.extend(_wrong(step, solution))
    return Solved((stepper.solved or not with_hints) and grade.logic, grade.rating, grade.level or "-",
                  grade.technique or "-", tuple(hints), seconds, tuple(wrong), graded)


def _wrong(step: Step, solution: list[int]) -> list[str]:
    out = [f"{step.technique}: places {digit} at cell {cell}"
           for cell, digit in step.placements if solution and solution[cell] != digit]
    out += [f"{step.technique}: removes the true {digit} from cell {cell}"
            for cell, digit in step.eliminations if solution and solution[cell] == digit]
    return out


def _puzzle(args: tuple[list[int], int, bool, bool]) -> Solved:
    return run_puzzle(*args)


def spearman(xs: list[float], ys: list[float]) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=values.__getitem__)
        out = [0.0] * len(values)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
                j += 1
            for k in range(i, j + 1):
                out[order[k]] = (i + j) / 2 + 1
            i = j + 1
        return out
    if len(xs) < 2:
        return float("nan")
    return statistics.correlation(ranks(xs), ranks(ys))


def _p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def reference_ratings(path: Path, count: int) -> list[float] | None:
    """The Sudoku Explainer ratings beside a set (``NAME_se_ratings.txt``), first ``count``."""
    beside = path.with_name(path.stem + "_se_ratings.txt")
    if not beside.is_file():
        return None
    values = [float(line) for line in beside.read_text(encoding="utf-8").split()]
    return values[:count] if len(values) >= count else None


def _bucket(rating: float) -> str:
    return "10+" if rating >= 10 else f"{int(rating)}.x"


def logic_tables(write: Write, loaded: list[tuple[str, Path, list[Grid]]], jobs: int = 1,
                 results: str | None = None, *, resume: bool = False, hints: bool = True) -> None:
    """The tables; with ``results``, also one JSON object per puzzle in that file (what
    ``scripts/sudoku_collections.py`` picks the shipped collections from), written as each
    puzzle is done; with ``resume``, the puzzles that file holds already are kept, not run
    again. ``hints=False``: the grade only (no hint times)."""
    kept = _kept(results) if resume and results else {}
    # resumed: the file keeps its lines and gets the new puzzles' appended
    with open(results, "a" if resume else "w", encoding="utf-8") if results else contextlib.nullcontext() as out:
        _tables(write, loaded, jobs, out, kept, hints)


def _record(name: str, number: int, grid: Grid, r: Solved) -> dict[str, Any]:
    return {"set": name, "line": number, "puzzle": grid.format(), "finished": r.finished,
            "level": r.level if r.finished else None, "rating": r.rating, "technique": r.technique,
            "seconds": round(r.seconds, 4), "steps": len(r.hint_seconds) - 1 if r.hint_seconds else None,
            "wrong": len(r.wrong),
            "wrong_steps": list(r.wrong), "hints": [round(h, 6) for h in r.hint_seconds],
            "grade_seconds": round(r.grade_seconds, 3)}


def _kept(path: str) -> dict[tuple[str, int, str], Solved]:
    """The puzzles a results file holds (a missing file or a torn last line: none / skipped)."""
    kept: dict[tuple[str, int, str], Solved] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return kept
    for line in text.splitlines():
        try:
            o = json.loads(line)
            wrong = o.get("wrong_steps") or ["(not kept)"] * int(o["wrong"])
            kept[(o["set"], int(o["line"]), o["puzzle"])] = Solved(
                bool(o["finished"]), float(o["rating"]), o["level"] or "-", o["technique"],
                tuple(float(h) for h in o.get("hints", ())), float(o["seconds"]), tuple(wrong),
                float(o.get("grade_seconds", 0.0)))
        except (ValueError, KeyError, TypeError):
            continue
    return kept


def _tables(write: Write, loaded: list[tuple[str, Path, list[Grid]]], jobs: int, out: TextIO | None,
            kept: dict[tuple[str, int, str], Solved], with_hints: bool) -> None:
    rows, dist_rows, compare = [], [], []
    buckets = [f"{b}.x" for b in range(1, 10)] + ["10+", "unfinished"]
    pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
    try:
        for name, path, grids in loaded:
            keys = [(name, number, g.format()) for number, g in enumerate(grids, 1)]
            todo = [(list(g.values), g.size, g.diagonal, with_hints) for g, key in zip(grids, keys) if key not in kept]
            done = iter(pool.map(_puzzle, todo) if pool else map(_puzzle, todo))
            results = []
            # each puzzle's line written as soon as it is done, so a long run stopped early
            # (the forum's hardest: tens of CPU seconds a puzzle) keeps what it did (--resume)
            for number, (grid, key) in enumerate(zip(grids, keys), 1):
                r = kept[key] if key in kept else next(done)
                results.append(r)
                if out is not None and key not in kept:
                    out.write(json.dumps(_record(name, number, grid, r)) + "\n")
                    out.flush()
            hints = [h for r in results for h in r.hint_seconds]
            totals = [r.seconds for r in results if r.hint_seconds]  # --grade-only: no hints' pass
            finished = sum(r.finished for r in results)
            wrong = sum(len(r.wrong) for r in results)
            rows.append([name, str(len(results)), f"{finished} ({100 * finished / max(1, len(results)):.0f}%)",
                         str(wrong), f"{1000 * statistics.mean(hints):.1f}" if hints else "-",
                         f"{1000 * _p95(hints):.0f}" if hints else "-", f"{1000 * max(hints):.0f}" if hints else "-",
                         f"{statistics.mean(totals):.2f}" if totals else "-", f"{_p95(totals):.2f}" if totals else "-",
                         f"{max(totals):.2f}" if totals else "-"])
            counted = Counter(_bucket(r.rating) if r.finished else "unfinished" for r in results)
            dist_rows.append([name, *(str(counted.get(b, "")) for b in buckets)])
            theirs = reference_ratings(path, len(results))
            if theirs is not None:
                ours = [r.rating for r in results]
                close = sum(abs(a - b) <= TOLERANCE + 1e-9 for a, b in zip(ours, theirs))
                compare.append((name, results, theirs, spearman(ours, theirs), close, [g.format() for g in grids]))
            for r in results:
                for line in r.wrong[:3]:
                    write(f"WRONG STEP in {name}: {line}")
    finally:
        if pool is not None:
            pool.shutdown()
    write("The human stepper (every technique; hint = one call of next_step; CPU seconds per process;")
    write(" wrong = placements or eliminations the SAT solution contradicts, must be 0)")
    write("")
    write_table(write, ["set", "puzzles", "finished by logic", "wrong", "hint mean ms", "p95 ms", "max ms",
                        "puzzle mean s", "p95 s", "max s"], rows)
    write("")
    write("Our ratings (Sudoku Explainer's scale), puzzles per band (unfinished: the techniques stopped)")
    write("")
    write_table(write, ["set", *buckets], dist_rows)
    for name, results, theirs, rho, close, puzzles in compare:
        ours = [r.rating for r in results]
        write("")
        rating_report(write, name, puzzles, results, theirs)
        write("")
        write(f"{name}: against Sudoku Explainer's ratings: Spearman rho {rho:.3f}, "
              f"{close} of {len(ours)} ({100 * close / len(ours):.0f}%) within ±{TOLERANCE}")
        write("")
        write("puzzles by their rating (rows) and ours (columns)")
        write("")
        scatter_table(write, ours, theirs)
        write("")
        write("by the hardest technique we used: our mean rating against theirs")
        write("")
        by_technique: dict[str, list[tuple[float, float]]] = {}
        for r, t in zip(results, theirs):
            by_technique.setdefault(r.technique if r.finished else "(unfinished)", []).append((r.rating, t))
        rows = []
        for technique, pairs in sorted(by_technique.items(), key=lambda kv: statistics.mean(a for a, _ in kv[1])):
            mine, their = [a for a, _ in pairs], [b for _, b in pairs]
            rows.append([technique, str(len(pairs)), f"{statistics.mean(mine):.2f}", f"{statistics.mean(their):.2f}",
                         f"{statistics.median(their):.1f}", f"{min(their):.1f}-{max(their):.1f}"])
        write_table(write, ["hardest technique", "puzzles", "ours", "theirs", "median", "range"], rows)


#: Their rating bands: (name, upper bound included); the last is everything above 10.
BANDS = (("≤2", 2.0), ("2-4", 4.0), ("4-6", 6.0), ("6-8", 8.0), ("8-10", 10.0), ("10+", float("inf")))
WITHIN = (0.1, 0.3, 0.5, 1.0)
WORST = 12


def _band(rating: float) -> str:
    return next(name for name, top in BANDS if rating <= top + 1e-9)


def agreement_row(label: str, pairs: list[tuple[float, float]]) -> list[str]:
    """One row of the rating report: count, share within each of :data:`WITHIN`, mean absolute
    difference, Spearman's rho, mean signed difference (ours - theirs)."""
    ours, theirs = [a for a, _ in pairs], [b for _, b in pairs]
    diffs = [a - b for a, b in pairs]
    shares = [f"{100 * sum(abs(d) <= w + 1e-9 for d in diffs) / len(diffs):.0f}%" for w in WITHIN]
    rho = spearman(ours, theirs)
    return [label, str(len(pairs)), *shares, f"{statistics.mean(abs(d) for d in diffs):.2f}",
            "-" if rho != rho else f"{rho:.3f}", f"{statistics.mean(diffs):+.2f}"]


#: Issue 25's goals for agreement with Sudoku Explainer: within ±0.3 for this share of the
#: puzzles, Spearman's rho at least this, and every rating band within ±0.5 for this share.
GOAL_WITHIN_03, GOAL_RHO, GOAL_BAND_05 = 0.85, 0.97, 0.70


@dataclass(frozen=True)
class Agreement:
    """How a set's ratings agree with the reference: the share within ±0.3, Spearman's rho,
    and the share within ±0.5 of each rating band that has puzzles."""

    within_03: float
    rho: float
    bands_05: dict[str, float]

    def misses(self) -> list[str]:
        """The goals not met, in words (empty: all met)."""
        out = []
        if self.within_03 < GOAL_WITHIN_03:
            out.append(f"within ±0.3 {100 * self.within_03:.0f}% < {100 * GOAL_WITHIN_03:.0f}%")
        if not self.rho >= GOAL_RHO:
            out.append(f"rho {self.rho:.3f} < {GOAL_RHO}")
        out += [f"band {band} within ±0.5 {100 * share:.0f}% < {100 * GOAL_BAND_05:.0f}%"
                for band, share in self.bands_05.items() if share < GOAL_BAND_05]
        return out


def agreement(pairs: list[tuple[float, float]]) -> Agreement:
    """The :class:`Agreement` of ``(ours, theirs)`` pairs."""
    def share(items: list[tuple[float, float]], width: float) -> float:
        return sum(abs(a - b) <= width + 1e-9 for a, b in items) / len(items)
    bands = {}
    for band, _ in BANDS:
        inside = [p for p in pairs if _band(p[1]) == band]
        if inside:
            bands[band] = share(inside, 0.5)
    return Agreement(share(pairs, 0.3), spearman([a for a, _ in pairs], [b for _, b in pairs]), bands)


def rating_report(write: Write, name: str, puzzles: list[str], results: list[Solved], theirs: list[float]) -> None:
    """How our ratings agree with the reference ratings, by their band, and where they differ most."""
    pairs = [(r.rating, t) for r, t in zip(results, theirs)]
    write(f"{name}: rating report against the ratings file (bands by their rating; rho within a band is "
          f"over that band only)")
    write("")
    rows = [agreement_row("all", pairs)]
    for band, _ in BANDS:
        inside = [p for p in pairs if _band(p[1]) == band]
        if inside:
            rows.append(agreement_row(band, inside))
    write_table(write, ["band", "puzzles", *(f"±{w}" for w in WITHIN), "mean |diff|", "rho", "mean diff"], rows)
    write("")
    misses = agreement(pairs).misses()
    write(f"goals (within ±0.3 >= {100 * GOAL_WITHIN_03:.0f}%, rho >= {GOAL_RHO}, every band within ±0.5 >= "
          f"{100 * GOAL_BAND_05:.0f}%): " + ("met" if not misses else "missed: " + "; ".join(misses)))
    write("")
    write("biggest disagreements")
    write("")
    order = sorted(range(len(pairs)), key=lambda i: (-abs(pairs[i][0] - pairs[i][1]), i))[:WORST]
    write_table(write, ["line", "theirs", "ours", "our hardest step", "puzzle"],
                [[str(i + 1), f"{pairs[i][1]:.1f}", f"{pairs[i][0]:.1f}", results[i].technique, puzzles[i]]
                 for i in order])


def scatter_table(write: Write, ours: list[float], theirs: list[float]) -> None:
    """A text scatter: rows their rating band (half points), columns ours."""
    def band(r: float) -> float:
        return min(12.0, int(r * 2) / 2)
    cols = sorted({band(r) for r in ours})
    grid = Counter((band(t), band(o)) for o, t in zip(ours, theirs))
    rows = []
    for their in sorted({band(t) for t in theirs}):
        rows.append([f"SE {their:.1f}", *(str(grid.get((their, c), "")) for c in cols)])
    write_table(write, ["", *(f"{c:.1f}" for c in cols)], rows)
