"""Build the shipped Sudoku collections past *extreme* (puzzles/sudoku_LEVEL.txt).

Random digging rarely makes a diabolical or nightmare puzzle, so these collections are taken
from a public-domain bank instead: grantm/sudoku-exchange-puzzle-bank's ``diabolical.txt``
(10,000 of its lines are the shared ``sudoku_exchange_diabolical_10k.txt``). The logic bench
grades every puzzle with every technique and writes one JSON object per puzzle; this script
takes the first ``--count`` of each grade, in the bank's order:

    tui-games bench sudoku --logic --jobs 2 --results graded.jsonl PATH/sudoku_exchange_diabolical_10k.txt
    python scripts/sudoku_collections.py graded.jsonl

The generator disguises these for ``generate --grade fiendish|diabolical|nightmare``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tui_games.engine.sudoku.levels import DIABOLICAL, FIENDISH, NIGHTMARE

LEVELS = (FIENDISH, DIABOLICAL, NIGHTMARE)
WHAT = {
    FIENDISH: "chains: X-chains and X-cycles (with 3 or 4 strong links too), XY-chains, AICs and nice loops, VWXYZ-wings, aligned pair exclusion",
    DIABOLICAL: "forcing chains (a candidate, a cell or a unit's places followed through singles) and aligned triplet exclusion",
    NIGHTMARE: "dynamic forcing chains and nested forcing nets",
}
OUT = Path(__file__).resolve().parent.parent / "puzzles"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="the JSON lines of `bench sudoku --logic --results FILE`")
    parser.add_argument("--count", type=int, default=100, help="puzzles per grade (default 100)")
    args = parser.parse_args()
    found: dict[str, list[dict]] = {level: [] for level in LEVELS}
    total = 0
    with args.results.open(encoding="utf-8") as results:
        for line in results:
            record = json.loads(line)
            total += 1
            level = record["level"]
            if level in found and len(found[level]) < args.count and record["wrong"] == 0:
                found[level].append(record)
    for level, records in found.items():
        if not records:
            print(f"no {level} puzzle among {total}", file=sys.stderr)
            continue
        ratings = [r["rating"] for r in records]
        path = OUT / f"sudoku_{level}.txt"
        with path.open("w", encoding="utf-8") as out:
            out.write(f"# Sudoku, grade '{level}': the hardest technique needed is among {WHAT[level]}.\n")
            out.write("# Graded by tui-games (tui_games/engine/sudoku/grading.py); every puzzle has exactly one "
                      "solution.\n")
            out.write("# From grantm/sudoku-exchange-puzzle-bank, diabolical.txt (public domain): the first of this "
                      f"grade among\n# {total} lines of its shared sample; made with scripts/sudoku_collections.py. "
                      f"Our ratings: {min(ratings):.1f} to {max(ratings):.1f}.\n")
            out.write("# One puzzle per line, 81 characters, '.' for a blank.\n")
            for record in records:
                out.write(record["puzzle"] + "\n")
        print(f"{path.name}: {len(records)} puzzles, ratings {min(ratings):.1f}-{max(ratings):.1f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
