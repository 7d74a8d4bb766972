"""Play the checkers engine match: the engine against a yardstick from the three-move ballots.

    python scripts/checkers_match.py [--games 20] [--seconds 1] [--seed 1] [--max-plies 200]
                                     [--opponent baseline] [--pdn games.pdn]

Draws ``games / 2`` standard ballots at random (seeded) and plays each with both colours:
the engine ("strong", ``--seconds`` per move) against ``--opponent`` (default: the
material-only depth-6 alpha-beta baseline). Prints a line per game and the summary; one
process, one core.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import (
    BALLOTS_FILE,
    choose_ballots,
    parse_ballots,
)
from tui_games.engine.checkers.match import play_match
from tui_games.engine.checkers.players import make_player


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games, an even number (default 20)")
    parser.add_argument("--seconds", type=float, default=1.0, help="engine seconds per move (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the ballot draw and the players")
    parser.add_argument("--max-plies", type=int, default=200, help="adjudicate a draw after this many plies")
    parser.add_argument("--engine", default="strong", help="the engine's spec (default strong)")
    parser.add_argument("--opponent", default="baseline", help="the yardstick's spec (default baseline)")
    parser.add_argument("--pdn", type=Path, default=None, help="write every game to this PDN file")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number, at least 2")

    ballots = choose_ballots(parse_ballots(read_puzzles(BALLOTS_FILE)), args.games // 2, args.seed)
    seeds = iter(range(args.seed * 1000, args.seed * 1000 + 10 * args.games))

    def engine():
        return make_player(args.engine, seed=next(seeds), seconds=args.seconds)

    def opponent():
        return make_player(args.opponent, seed=next(seeds))

    pdn_texts: list[str] = []

    def report(record, match) -> None:
        n = len(match.games)
        score = {1: "win", -1: "LOSS", 0: "draw"}[match.scores[-1]]
        print(f"game {n:2d}  {record.opening:32s} Black {record.black:8s} White {record.white:8s} "
              f"{record.result:7s} {score:4s} {record.reason:12s} {record.plies:3d} plies  "
              f"material {record.material:+5d}  {record.seconds:6.0f} s   "
              f"[{match.wins}-{match.losses}-{match.draws}]", flush=True)
        pdn_texts.append(record.pdn)
        if args.pdn is not None:
            args.pdn.write_text("\n".join(pdn_texts), encoding="utf-8")

    print(f"engine {args.engine} at {args.seconds:g} s/move vs {args.opponent}; "
          f"ballots: {', '.join(f'{b.number:03d}' for b in ballots)}; max {args.max_plies} plies", flush=True)
    match = play_match(engine, opponent, ballots, max_plies=args.max_plies, on_game=report,
                       event=f"checkers match seed {args.seed}")
    print(match.summary(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
