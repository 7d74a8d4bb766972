"""Build the checkers opening book from long searches of tui-games' own engine.

    python scripts/checkers_build_book.py --seconds 3 --replies 1 --out book.txt [--shard K/N]
    python scripts/checkers_build_book.py --merge book0.txt book1.txt --out puzzles/checkers_book.txt

For each standard three-move ballot (the list shipped as ``puzzles/checkers_ballots.txt``):
the position after the ballot (White to move) is searched for ``--seconds`` CPU seconds and
its best move booked; then the ``--replies`` best White moves of that search are each played
and Black's answer searched and booked the same way. Each search uses a fresh engine (no
table carried over), the default evaluation and no endgame database (none reaches an
opening). A line is ``FEN MOVE  # ballot N, depth D, score S, cpu C s``.

The output is appended to as the searches finish, so an interrupted run, started again,
skips the positions it has (a ballot booked before then answers its booked move only). ``--shard K/N`` takes only the ballots K, K+N, … (so N
processes can share the work); ``--merge`` writes the entries of several files, sorted,
under a header saying how they were made.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.book import book_lines
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits
from tui_games.resources import read_puzzles

HEADER = """\
# The tui-games checkers opening book: for each standard three-move ballot, the move after the
# ballot (White) and Black's answer to White's best move(s), each from a search of tui-games'
# own engine (default evaluation, compiled core, a fresh table) of {seconds:g} CPU seconds, {replies}
# White repl{ies} answered. Made by scripts/checkers_build_book.py; format: FEN MOVE # how.
"""


def search(fen: str, seconds: float) -> tuple[str, str, list]:
    position = CheckersPosition(fen)
    result = Engine(wall_factor=100.0).search(position, SearchLimits(seconds=seconds), rng=random.Random(0))
    stats = result.stats
    note = f"depth {stats.depth}, score {result.score:+d}, cpu {stats.seconds:.1f} s"
    ranked = sorted(result.root_moves, key=lambda rm: -rm.score)
    return str(result.move), note, [rm.move for rm in ranked]


def build(args: argparse.Namespace) -> int:
    shard, shards = (int(x) for x in args.shard.split("/"))
    ballots = [b for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]
    out = Path(args.out)
    have = {fen: move for fen, move, _ in book_lines(out.read_text())} if out.exists() else {}
    with out.open("a") as f:
        def book(fen: str, label: str) -> list:
            if fen in have:  # booked by an earlier run: its replies follow the booked move
                return [CheckersPosition(fen).parse_move(have[fen])]
            move, note, ranked = search(fen, args.seconds)
            f.write(f"{fen} {move}  # {label}, {note}\n")
            f.flush()
            have[fen] = move
            print(f"{label}: {move} ({note})", flush=True)
            return ranked

        for i, ballot in enumerate(ballots):
            if i % shards != shard:
                continue
            position = ballot.position()
            label = f"ballot {ballot.number:03d}"
            ranked = book(position.fen(), label)
            for move in ranked[:args.replies]:
                after = position.copy()
                after.push(move)
                book(after.fen(), f"{label} {move}")
    return 0


def merge(args: argparse.Namespace) -> int:
    entries: dict[str, str] = {}
    for path in args.merge:
        for fen, move, comment in book_lines(Path(path).read_text()):
            entries[fen] = f"{fen} {move}  # {comment}" if comment else f"{fen} {move}"
    header = HEADER.format(seconds=args.seconds, replies=args.replies, ies="y" if args.replies == 1 else "ies")
    Path(args.out).write_text(header + "".join(entries[k] + "\n" for k in sorted(entries)))
    print(f"{len(entries)} positions -> {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per search")
    parser.add_argument("--replies", type=int, default=1, help="White moves after each ballot whose answer is booked")
    parser.add_argument("--out", required=True)
    parser.add_argument("--shard", default="0/1", help="K/N: only the ballots K, K+N, …")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="merge these books into --out")
    args = parser.parse_args(argv)
    return merge(args) if args.merge else build(args)


if __name__ == "__main__":
    sys.exit(main())
