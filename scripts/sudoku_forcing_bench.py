"""Measure the stepper with the forcing nets: share finished by logic, time per hint and per
puzzle, wrong steps (against the SAT solution), the hardest rating reached.

    PYTHONPATH=$PWD python scripts/sudoku_forcing_bench.py FILE [COUNT] [--verbose]

Prints one line per set: puzzles, finished by logic, wrong steps, mean/p95 seconds per hint,
mean/p95/max seconds per puzzle, and how many puzzles each technique served as hardest step.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.grading import hardest
from tui_games.engine.sudoku.stepper import Stepper


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))] if xs else 0.0


def main(argv: list[str]) -> None:
    verbose = "--verbose" in argv
    args = [a for a in argv if a != "--verbose"]
    path = args[0]
    count = int(args[1]) if len(args) > 1 else 10**9
    lines = [ln.strip() for ln in open(path) if ln.strip() and not ln.startswith("#")][:count]
    hints: list[float] = []
    puzzles: list[float] = []
    finished = wrong = 0
    tops: Counter[str] = Counter()
    ratings: list[float] = []
    for k, line in enumerate(lines):
        grid = parse_grid(line[:81])
        solution = sat.solve(grid).solution
        stepper = Stepper(grid)
        start = time.perf_counter()
        while True:
            t = time.perf_counter()
            step = stepper.next_step()
            hints.append(time.perf_counter() - t)
            if step is None:
                break
            for c, d in step.placements:
                wrong += solution[c] != d
            for c, d in step.eliminations:
                wrong += solution[c] == d
            stepper.apply(step)
        puzzles.append(time.perf_counter() - start)
        finished += stepper.solved
        top = hardest(stepper.steps)
        rating = max((s.rating for s in stepper.steps), default=0.0)
        ratings.append(rating)
        tops[top.technique if top else "-"] += 1
        if verbose:
            print(f"{k:4d} {puzzles[-1]:6.2f}s {rating:4.1f} {top.technique if top else '-'}"
                  f"{'' if stepper.solved else ' STUCK ' + str(stepper.stuck)}", flush=True)
    n = len(lines)
    print(f"{path.rsplit('/', 1)[-1]}: {n} puzzles, finished by logic {finished}/{n} ({100 * finished / n:.0f}%), "
          f"wrong steps {wrong}; per hint mean {sum(hints) / len(hints):.3f}s p95 {p95(hints):.3f}s "
          f"max {max(hints):.2f}s; per puzzle mean {sum(puzzles) / n:.2f}s p95 {p95(puzzles):.2f}s "
          f"max {max(puzzles):.2f}s; mean rating {sum(ratings) / n:.2f}")
    print("  hardest technique:", ", ".join(f"{t} {c}" for t, c in tops.most_common()))


if __name__ == "__main__":
    main(sys.argv[1:])
