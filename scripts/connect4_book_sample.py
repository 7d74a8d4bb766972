"""Make tests/engine/data/connect4_12_discs.txt: random 12-disc positions with their exact scores
from our own solver (without the opening book), the oracle the book is tested against.

    PYTHONPATH=. python scripts/connect4_book_sample.py [--count 200] [--seed 15] [--out FILE]

Positions come from uniformly random play (seeded), keeping those where no four was made
and the side to move cannot win at once (the positions the book stores), one per board.
Each line is ``MOVES SCORE``, the test-set format. Solving takes minutes in pure Python.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "connect4_12_discs.txt"


def sample(count: int, seed: int) -> list[Connect4]:
    rng = random.Random(seed)
    seen: set[int] = set()
    positions = []
    while len(positions) < count:
        pos = Connect4()
        while pos.moves < 12 and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        wins = [c for c in pos.legal_moves() if pos.is_winning_move(c)]
        if pos.outcome() is None and not wins and pos.key() not in seen:
            seen.add(pos.key())
            positions.append(pos)
    return positions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    solver = Solver()
    lines = [f"# {args.count} random 12-disc positions (seed {args.seed}), scored by "
             "scripts/connect4_book_sample.py with the solver alone"]
    started = time.process_time()
    for i, pos in enumerate(sample(args.count, args.seed), 1):
        score = solver.solve(pos).score
        lines.append(f"{pos.format()} {score}")
        print(f"{i}/{args.count} {pos.format()} {score} ({time.process_time() - started:.0f} s CPU)",
              file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
