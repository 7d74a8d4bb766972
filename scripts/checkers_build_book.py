"""Build the checkers opening book from long searches of tui-games' own engine.

One command rebuilds the shipped book (about 650 CPU seconds at the defaults; rerun it after
any change to the evaluation or the search):

    nice -n 10 python scripts/checkers_build_book.py --seconds 2 --replies 1 --jobs 2

For each standard three-move ballot (``puzzles/checkers_ballots.txt``): the position after the
ballot (White to move) is searched for ``--seconds`` CPU seconds and its best move booked;
then the ``--replies`` best White moves of that search are each played and Black's answer
searched and booked the same way. Forced moves (a single legal move, always a capture) are
not booked — the engine plays them at once — but played through: the first position after
them with a choice is the one searched, so a ballot that starts with an exchange still gets
book moves. Each search uses a fresh engine (no table carried over), the evaluation of the
timed engine the book serves (``engine.STRONG_EVALUATION``: the linear one with the network on
top) and no endgame database (none reaches an opening). A line is ``FEN MOVE  # ballot N, depth
D, score S, cpu C s``.

``--jobs N`` runs N processes (``--shard K/N`` each, the ballots K, K+N, …) writing into
``--work`` (default ``checkers-book-work/``), then merges their files into ``--out``
(default the shipped ``puzzles/checkers_book.txt``) under a header saying how the book was
made. The work files are appended to as searches finish, so an interrupted build, started
again (with any ``--jobs``), goes on where it stopped; they are stamped with a digest of the engine's sources
(search, evaluation, pattern tables), and a build for a changed engine sets the old ones
aside (``*.old``) and starts afresh. ``--shard K/N --out FILE`` runs one worker by hand;
``--merge FILE… --out FILE`` only merges.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import subprocess
import sys
from pathlib import Path

from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.book import book_lines
from tui_games.engine.checkers.engine import STRONG_EVALUATION, Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "puzzles" / "checkers_book.txt"
ENGINE_DIR = ROOT / "tui_games" / "engine" / "checkers"
# The sources whose change changes the book's searches.
ENGINE_SOURCES = ("_ckcore.c", "ckmoves.h", "core.py", "engine.py", "evaluation.py", "patterns.py", "_pattern_data.py",
                  "network.py", "_net_data.py")
STAMP = "engine.stamp"

HEADER = """\
# The tui-games checkers opening book: for each standard three-move ballot, the move after the
# ballot (White) and Black's answer to White's {replies} best move{s}, each from a search of
# tui-games' own engine of {seconds:g} CPU seconds (the timed engine's evaluation, {evaluation};
# compiled core, a fresh table); forced moves are played through, not booked. Made by
# scripts/checkers_build_book.py (`--seconds {seconds:g} --replies {replies}`); format: FEN MOVE # how.
# {ballots} of {standard} standard ballots, {positions} positions, median search depth {depth}.
"""


def engine_digest() -> str:
    digest = hashlib.sha256()
    for name in ENGINE_SOURCES:
        path = ENGINE_DIR / name
        digest.update(name.encode() + b"\0" + (path.read_bytes() if path.exists() else b"") + b"\0")
    return digest.hexdigest()[:16]


def search(fen: str, seconds: float) -> tuple[str, str, list]:
    position = CheckersPosition(fen)
    result = Engine(evaluation=STRONG_EVALUATION, wall_factor=100.0).search(
        position, SearchLimits(seconds=seconds), rng=random.Random(0))
    stats = result.stats
    note = f"depth {stats.depth}, score {result.score:+d}, cpu {stats.seconds:.1f} s"
    ranked = sorted(result.root_moves, key=lambda rm: -rm.score)
    return str(result.move), note, [rm.move for rm in ranked]


def past_forced(position: CheckersPosition) -> CheckersPosition | None:
    """The first position from ``position`` on with a choice of moves (forced moves played),
    or None when the game ends first."""
    position = position.copy()
    while position.outcome() is None:
        moves = position.legal_moves()
        if len(moves) != 1:
            return position
        position.push(moves[0])
    return None


def worker(args: argparse.Namespace) -> int:
    shard, shards = (int(x) for x in args.shard.split("/"))
    ballots = [b for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]
    out = Path(args.out)
    # What this worker and any other in the same folder booked before (a build resumed with
    # another --jobs finds the positions an earlier split of the ballots booked).
    have = {fen: move for path in [*sorted(out.parent.glob("book*.txt")), out] if path.exists()
            for fen, move, _ in book_lines(path.read_text())}
    with out.open("a") as f:
        def book(position: CheckersPosition, label: str) -> tuple[CheckersPosition, list]:
            fen = position.fen()
            if fen in have:  # booked by an earlier run: its replies follow the booked move
                return position, [position.parse_move(have[fen])]
            move, note, ranked = search(fen, args.seconds)
            f.write(f"{fen} {move}  # {label}, {note}\n")
            f.flush()
            have[fen] = move
            print(f"{label}: {move} ({note})", flush=True)
            return position, ranked

        for i, ballot in enumerate(ballots):
            if i % shards != shard:
                continue
            label = f"ballot {ballot.number:03d}"
            start = past_forced(ballot.position())
            if start is None:
                continue
            position, ranked = book(start, label)
            for move in ranked[:args.replies]:
                after = position.copy()
                after.push(move)
                answer = past_forced(after)
                if answer is not None:
                    book(answer, f"{label} {move}")
    return 0


def merge(paths: list[Path], out: Path, seconds: float, replies: int) -> int:
    entries: dict[str, str] = {}
    depths, ballots = [], set()
    for path in paths:
        for fen, move, comment in book_lines(path.read_text()):
            entries[fen] = f"{fen} {move}  # {comment}" if comment else f"{fen} {move}"
            words = comment.replace(",", " ").split()
            if "depth" in words:
                depths.append(int(words[words.index("depth") + 1]))
            if words[:1] == ["ballot"]:
                ballots.add(words[1])
    standard = sum(b.standard for b in parse_ballots(read_puzzles(BALLOTS_FILE)))
    header = HEADER.format(seconds=seconds, replies=replies, evaluation=STRONG_EVALUATION,
                           s="" if replies == 1 else "s", ballots=len(ballots), standard=standard, positions=len(entries),
                           depth=f"{statistics.median(depths):g}" if depths else "-")
    out.write_text(header + "".join(entries[k] + "\n" for k in sorted(entries)))
    print(f"{len(entries)} positions from {len(ballots)} ballots -> {out}")
    return 0


def build(args: argparse.Namespace) -> int:
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    stamp = f"{engine_digest()} seconds {args.seconds:g}\n"
    stamp_file = work / STAMP
    if stamp_file.exists() and stamp_file.read_text() != stamp:
        for old in work.glob("book*.txt"):
            old.replace(old.with_suffix(".old"))
        print(f"the engine or --seconds changed since {work} was started: its books are set aside (*.old)")
    stamp_file.write_text(stamp)
    files = [work / f"book{k}.txt" for k in range(args.jobs)]
    procs = [subprocess.Popen([sys.executable, __file__, "--seconds", str(args.seconds), "--replies", str(args.replies),
                               "--shard", f"{k}/{args.jobs}", "--out", str(files[k])],
                              stdout=(work / f"log{k}.txt").open("a"), stderr=subprocess.STDOUT)
             for k in range(args.jobs)]
    failed = [k for k, proc in enumerate(procs) if proc.wait() != 0]
    if failed:
        print(f"worker(s) {failed} failed: see {work}/log*.txt; run the command again to go on", file=sys.stderr)
        return 1
    return merge(sorted(work.glob("book*.txt")), Path(args.out), args.seconds, args.replies)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per search")
    parser.add_argument("--replies", type=int, default=1, help="White moves after each ballot whose answer is booked")
    parser.add_argument("--jobs", type=int, default=1, help="processes to share the ballots")
    parser.add_argument("--work", default="checkers-book-work", help="the workers' files (resumable)")
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="the merged book (a worker's file with --shard)")
    parser.add_argument("--shard", help="K/N: be one worker, booking only the ballots K, K+N, … into --out")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="only merge these books into --out")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.replies < 0 or args.seconds <= 0:
        parser.error("--jobs and --seconds must be positive, --replies not negative")
    if args.merge:
        return merge([Path(p) for p in args.merge], Path(args.out), args.seconds, args.replies)
    return worker(args) if args.shard else build(args)


if __name__ == "__main__":
    sys.exit(main())
