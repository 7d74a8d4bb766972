"""Reference ratings for a seeded sample of the forum's hardest, made with Sukaku Explainer's serate.

The forum's hardest lists come without per-puzzle ratings, so the rating report of
``tui-games bench sudoku --logic`` has nothing to compare with there. This draws a seeded sample
of the two lists (``random.Random(SEED)``: ``sample`` of 120 line indices of the 1905 11+ list,
then 40 of the 1106 list, the 160 shuffled together), rates the puzzles one after the other with
serate, one Java process at a time, each bounded in CPU seconds (``ulimit -t``) and wall
seconds, and writes the puzzles rated, in the sample's order, to ``OUT.txt`` and their ratings
(serate's ``%r``, the hardest step's rating) to ``OUT_se_ratings.txt``; the puzzles cut by a
bound are listed in ``OUT_cut.txt``. It resumes where a previous run stopped (``OUT.tsv``
keeps every result). Sukaku Explainer is not part of this project (LGPL, separate download):
give the directory of its compiled classes or its jar::

    python scripts/sudoku_se_forum_sample.py --se SukakuExplainer.jar --data SHARED/data/sudoku OUT

11+ puzzles cost Sukaku Explainer one to a few minutes of CPU each.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import time
from pathlib import Path

SEED = 20261125
SETS = (("tdoku_forum_hardest_1905_11plus_10k.txt", "1905_11plus", 120),
        ("tdoku_forum_hardest_1106_300.txt", "1106", 40))


def sample(data: Path, seed: int = SEED) -> list[tuple[str, int, str]]:
    """(list, line index from 0, puzzle) in the order they are rated."""
    rng = random.Random(seed)
    items = []
    for file, label, count in SETS:
        lines = (data / file).read_text(encoding="utf-8").split()
        items += [(label, i, lines[i]) for i in rng.sample(range(len(lines)), count)]
    rng.shuffle(items)
    return items


def rate(se: Path, puzzle: str, cpu: int, wall: int) -> str | None:
    """serate's rating of one puzzle (``%r``), or None if a bound cut it."""
    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    try:
        done = subprocess.run(["java", "-Xmx500m", "-cp", str(se), "diuf.sudoku.test.serate", "--format=%r",
                               puzzle], capture_output=True, text=True, timeout=wall, preexec_fn=bound, check=False)
    except subprocess.TimeoutExpired:
        return None
    lines = done.stdout.split()
    return lines[-1] if done.returncode == 0 and lines else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="OUT: writes OUT.txt, OUT_se_ratings.txt, OUT_cut.txt, OUT.tsv")
    parser.add_argument("--se", type=Path, required=True, help="Sukaku Explainer's jar or classes directory")
    parser.add_argument("--data", type=Path, required=True, help="the directory of the shared forum lists")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--count", type=int, default=160, help="rate the first COUNT of the sample")
    parser.add_argument("--cpu", type=int, default=240, help="CPU seconds a puzzle (default 240)")
    parser.add_argument("--wall", type=int, default=2400, help="wall seconds a puzzle (default 2400)")
    args = parser.parse_args()
    log = args.out.with_suffix(".tsv")
    done = {int(line.split("\t")[0]) for line in log.read_text().splitlines()} if log.exists() else set()
    for n, (label, index, puzzle) in enumerate(sample(args.data, args.seed)[:args.count], 1):
        if n in done:
            continue
        start = time.monotonic()
        rating = rate(args.se, puzzle, args.cpu, args.wall)
        with log.open("a", encoding="utf-8") as f:
            f.write(f"{n}\t{label}\t{index}\t{puzzle}\t{rating or 'CUT'}\t{time.monotonic() - start:.0f}s\n")
    rows = [line.split("\t") for line in log.read_text().splitlines()]
    rated = [r for r in rows if r[4] != "CUT"]
    args.out.with_suffix(".txt").write_text("".join(r[3] + "\n" for r in rated))
    args.out.with_name(args.out.name + "_se_ratings.txt").write_text("".join(r[4] + "\n" for r in rated))
    args.out.with_name(args.out.name + "_cut.txt").write_text(
        "".join(f"{r[1]} line {int(r[2]) + 1}: {r[3]}\n" for r in rows if r[4] == "CUT"))


if __name__ == "__main__":
    main()
