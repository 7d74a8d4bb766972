"""Build the shipped Sudoku collections past *extreme* (puzzles/sudoku_LEVEL.txt).

Random digging rarely makes a diabolical or nightmare puzzle, so these collections are taken
from a public-domain bank instead: grantm/sudoku-exchange-puzzle-bank's ``diabolical.txt``
(a copy of 10,000 of its lines is the shared ``sudoku_exchange_diabolical_10k.txt``). Every
puzzle is graded with every technique, in order, and the first ``--count`` of each grade are
written, in the bank's order, with a header saying where they came from.

    python scripts/sudoku_collections.py PATH/sudoku_exchange_diabolical_10k.txt --jobs 2

The generator disguises these for ``generate --grade fiendish|diabolical|nightmare``.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from tui_games.engine.sudoku.formats import parse_puzzles
from tui_games.engine.sudoku.grading import grade
from tui_games.engine.sudoku.levels import DIABOLICAL, FIENDISH, NIGHTMARE

LEVELS = (FIENDISH, DIABOLICAL, NIGHTMARE)
WHAT = {
    FIENDISH: "chains: X-cycles and X-chains, XY-chains, AICs and nice loops, ALS, sue de coq",
    DIABOLICAL: "forcing chains and nets, static and dynamic",
    NIGHTMARE: "nested forcing nets",
}
OUT = Path(__file__).resolve().parent.parent / "puzzles"


def _grade(line: str) -> tuple[str, str | None, float, str | None]:
    result = grade(parse_puzzles(line)[0])
    return line, result.level, result.rating, result.technique


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank", type=Path, help="the sudoku-exchange diabolical puzzles, one per line")
    parser.add_argument("--count", type=int, default=100, help="puzzles per grade (default 100)")
    parser.add_argument("--limit", type=int, default=None, help="read at most this many lines")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    lines = args.bank.read_text(encoding="utf-8").split()[: args.limit]
    found: dict[str, list[tuple[str, float, str]]] = {level: [] for level in LEVELS}
    with ProcessPoolExecutor(args.jobs) as pool:
        for done, (line, level, rating, technique) in enumerate(pool.map(_grade, lines, chunksize=8), 1):
            if level in found and len(found[level]) < args.count:
                found[level].append((line, rating, technique or "-"))
            if done % 200 == 0:
                print(f"{done} graded: " + ", ".join(f"{k} {len(v)}" for k, v in found.items()), file=sys.stderr)
            if all(len(v) >= args.count for v in found.values()):
                break
    for level, puzzles in found.items():
        if not puzzles:
            print(f"no {level} puzzle in {len(lines)} lines", file=sys.stderr)
            continue
        path = OUT / f"sudoku_{level}.txt"
        with path.open("w", encoding="utf-8") as out:
            out.write(f"# Sudoku, grade '{level}': the hardest technique needed is among {WHAT[level]}.\n")
            out.write("# Graded by tui-games (tui_games/engine/sudoku/grading.py); every puzzle has exactly one "
                      "solution.\n")
            out.write("# From grantm/sudoku-exchange-puzzle-bank, diabolical.txt (public domain), the first of "
                      "this grade in\n# the shared 10k sample; made with: python scripts/sudoku_collections.py "
                      "sudoku_exchange_diabolical_10k.txt\n")
            ratings = [rating for _, rating, _ in puzzles]
            out.write(f"# Our ratings (Sudoku Explainer's scale): {min(ratings):.1f} to {max(ratings):.1f}.\n")
            out.write("# One puzzle per line, 81 characters, '.' for a blank.\n")
            for line, _, _ in puzzles:
                out.write(f"{line.replace('0', '.')}\n")
        print(f"{path.name}: {len(puzzles)} puzzles", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
