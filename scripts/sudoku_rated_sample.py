"""A seeded sample of a rated Sudoku set, with its ratings beside it, for the logic bench.

The rating report of ``tui-games bench sudoku --logic`` compares with ``NAME_se_ratings.txt``
beside ``NAME.txt``. The shared sudoku-exchange diabolical 10,000 come with Sukaku Explainer's
ratings; grading all of them costs hours of CPU, so the figures in docs/games/sudoku.md use a
seeded 2,000 of them (``random.Random(20261125).sample`` of the line indices, kept in order):

    python scripts/sudoku_rated_sample.py PATH/sudoku_exchange_diabolical_10k.txt 2000 OUT/diabolical_2000.txt
    tui-games bench sudoku --logic --jobs 1 OUT/diabolical_2000.txt

The ratings file beside the input (``NAME_se_ratings.txt``) is sampled with the same lines.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

SEED = 20261125


def ratings_beside(path: Path) -> Path:
    return path.with_name(path.stem + "_se_ratings.txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("puzzles", type=Path, help="a set with NAME_se_ratings.txt beside it")
    parser.add_argument("count", type=int, help="how many lines to keep")
    parser.add_argument("out", type=Path, help="the sample (its ratings are written beside it)")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    puzzles = args.puzzles.read_text(encoding="utf-8").split()
    ratings = ratings_beside(args.puzzles).read_text(encoding="utf-8").split()
    if len(puzzles) != len(ratings):
        parser.error(f"{len(puzzles)} puzzles but {len(ratings)} ratings")
    if not 0 < args.count <= len(puzzles):
        parser.error(f"count must be 1..{len(puzzles)}")
    keep = sorted(random.Random(args.seed).sample(range(len(puzzles)), args.count))
    args.out.write_text("".join(puzzles[i] + "\n" for i in keep), encoding="utf-8")
    ratings_beside(args.out).write_text("".join(ratings[i] + "\n" for i in keep), encoding="utf-8")


if __name__ == "__main__":
    main()
