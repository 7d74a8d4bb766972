"""A seeded sample of the forum's hardest database with its published Sudoku Explainer ratings.

The Enjoy Sudoku forum's "hardest sudokus" thread keeps a database of its puzzles with the
ratings of several programs, among them Sudoku Explainer's ER (the hardest step), EP and ED
(serate 1.2.1). Its 2011-06-26 edition, ``HardestDatabase110626.txt``, is a comma-separated
file: a title line, a ``#!sudoku`` header naming the columns (puzzle, label, poster, q1, q2,
ER, EP, ED, Sx9, Sxt), then one puzzle a line, the ER column empty where nobody rated it.
This keeps the puzzles with an ER, checks that each has exactly one solution (the SAT solver),
and draws ``--per-band`` of them from each ER band of ``BANDS`` with ``random.Random(SEED)``,
kept in the database's order. The puzzles go to ``OUT.txt``, their ER to ``OUT_se_ratings.txt``
(the file the rating report of ``tui-games bench sudoku --logic`` compares with)::

    python scripts/sudoku_forum_database_sample.py HardestDatabase110626.txt OUT
    tui-games bench sudoku --logic OUT.txt
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from tui_games.engine.sudoku.formats import parse_grid
from tui_games.engine.sudoku.sat import count_solutions

SEED = 20261126
# ER bands of about equal width at the top of the scale; the database has few below 10.
BANDS = ((9.0, 10.5), (10.5, 11.0), (11.0, 11.3), (11.3, 11.6), (11.6, 12.0))
ER_COLUMN = 5  # after the puzzle: label, poster, q1, q2, ER, EP, ED, Sx9, Sxt


def rated_rows(text: str) -> tuple[list[tuple[str, float]], list[str]]:
    """(puzzle, ER) of every line with an ER and one solution; and the lines left out, why."""
    rated: list[tuple[str, float]] = []
    left_out: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.strip().split(",")
        if len(fields) != 10 or len(fields[0]) != 81:
            continue  # the title, the header
        puzzle, er = fields[0], fields[ER_COLUMN]
        try:
            rating = float(er)
        except ValueError:
            continue  # not rated (empty, or the database's "x" placeholder line)
        solutions = count_solutions(parse_grid(puzzle, f"line {number}"))
        if solutions != 1:
            left_out.append(f"line {number}: {'no' if solutions == 0 else 'several'} solutions")
            continue
        rated.append((puzzle, rating))
    return rated, left_out


def band_sample(rated: list[tuple[str, float]], per_band: int, seed: int = SEED) -> list[tuple[str, float]]:
    rng = random.Random(seed)
    keep: list[int] = []
    for low, high in BANDS:
        members = [i for i, (_, er) in enumerate(rated) if low <= er < high]
        keep += rng.sample(members, min(per_band, len(members)))
    return [rated[i] for i in sorted(keep)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("database", type=Path, help="HardestDatabase110626.txt")
    parser.add_argument("out", type=Path, help="writes OUT.txt and OUT_se_ratings.txt")
    parser.add_argument("--per-band", type=int, default=12, help="puzzles drawn from each ER band")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    if args.per_band < 1:
        parser.error("--per-band must be at least 1")
    rated, left_out = rated_rows(args.database.read_text(encoding="utf-8"))
    for why in left_out:
        print(f"left out: {why}")
    chosen = band_sample(rated, args.per_band, args.seed)
    out = args.out.with_suffix("")
    out.with_name(out.name + ".txt").write_text("".join(p + "\n" for p, _ in chosen), encoding="utf-8")
    out.with_name(out.name + "_se_ratings.txt").write_text("".join(f"{er:.1f}\n" for _, er in chosen),
                                                           encoding="utf-8")
    print(f"{len(rated)} rated puzzles with one solution; {len(chosen)} drawn")


if __name__ == "__main__":
    main()
