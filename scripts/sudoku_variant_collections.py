"""Build the shipped Killer and Jigsaw collections (puzzles/killer_LEVEL.txt, puzzles/jigsaw_LEVEL.txt).

Each file holds ``--count`` puzzles of one grade made by the generator from a fixed seed
(engine/sudoku/variant_generator.py), every one unique by the SAT check, one line a puzzle in
the variant's line format (docs/games/sudoku.md); every Killer is also one the stepper alone
finishes by logic, to the solution the SAT solver found. Seeded: the same command writes the
same files, so a change of the grader is a rerun of this script:

    python scripts/sudoku_variant_collections.py                  # every variant and grade
    python scripts/sudoku_variant_collections.py --variant killer --grade advanced --count 15

The names do not start with ``sudoku_``: the app lists those as classic collections.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import format_variant_line, read_puzzles
from tui_games.engine.sudoku.generator import GenerationError
from tui_games.engine.sudoku.stepper import Stepper
from tui_games.engine.sudoku.variant_generator import generate_jigsaw, generate_killer

OUT = Path(__file__).resolve().parent.parent / "puzzles"
GRADES = {
    "killer": ("basic", "intermediate", "advanced", "extreme", "fiendish"),
    "jigsaw": ("trivial", "basic", "intermediate", "advanced"),
}
COUNT = 12
FORMAT = {
    "killer": "One puzzle per line: 81 cage labels (a character a cage), a space, the cage sums in the order "
              "their labels first appear.",
    "jigsaw": "One puzzle per line: 81 region digits, a space, the 81 givens ('.' for a blank).",
}
GRADED = {
    "killer": "Graded by tui-games's Killer grade (variant_generator.killer_grade: the stepper's techniques, the "
              "cage techniques among them, after each cage's digit combinations); the stepper alone finishes each.",
    "jigsaw": "Graded by tui-games (engine/sudoku/grading.py), the regions taking the boxes' place.",
}


def _write(path: Path, variant: str, grade: str, count: int, seed: int, lines: list[str]) -> None:
    head = [f"# {variant.capitalize()} Sudoku, grade '{grade}'; every puzzle has exactly one solution (the SAT check).",
            f"# {GRADED[variant]}",
            f"# Made with: python scripts/sudoku_variant_collections.py --variant {variant} --grade {grade} "
            f"--count {count} --seed {seed}" + ("" if len(lines) == count else f" (the first {len(lines)})"),
            f"# {FORMAT[variant]}"]
    text = "\n".join(head + lines) + "\n"
    for entry in read_puzzles(text, path.name, variant=variant):
        assert entry.error is None, entry.error
    path.write_text(text, encoding="utf-8")


def build(variant: str, grade: str, count: int, seed: int) -> Path:
    """Make the collection, writing the file after each puzzle (a long run stopped early keeps
    what it found, and says so in its header)."""
    make = generate_killer if variant == "killer" else generate_jigsaw
    rng = random.Random(f"{variant}-{grade}-{seed}")
    lines: list[str] = []
    path = OUT / f"{variant}_{grade}.txt"
    start = time.perf_counter()
    while len(lines) < count:
        try:
            made = make(grade, rng)
        except GenerationError as error:  # a rare grade: go on drawing from the same stream
            print(f"{variant} {grade}: {error}; drawing on", file=sys.stderr, flush=True)
            continue
        checked = sat.solve(made.puzzle)
        assert checked.unique and checked.solution == made.solution
        if variant == "killer":
            stepper = Stepper(made.puzzle, uniqueness=False)
            stepper.run()
            assert stepper.solved and stepper.state.values == made.solution, "the generator checks this"
        line = format_variant_line(made.puzzle)
        if line not in lines:
            lines.append(line)
            _write(path, variant, grade, count, seed, lines)
            print(f"{variant} {grade} {len(lines)}/{count}: {made.grade.describe()} "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=tuple(GRADES), help="one variant (default: both)")
    parser.add_argument("--grade", help="one grade (default: every grade of the variant)")
    parser.add_argument("--count", type=int, default=COUNT, help=f"puzzles per grade (default {COUNT})")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for variant in [args.variant] if args.variant else list(GRADES):
        for grade in [args.grade] if args.grade else GRADES[variant]:
            print(build(variant, grade, args.count, args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
