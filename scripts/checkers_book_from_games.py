"""Build the checkers opening book's master lines from a collection of played games.

    python scripts/checkers_book_from_games.py ACF.txt

Chinook's book began as the published play of masters, corrected where its own searches found
an error; this does the same with a game collection. **Input**: Eric C. Joyce's *Checkers
Transcripts* (github.com/EricCJoyce/Datasets, ``Checkers/ACF.txt``, MIT licence: 9,377 games
"taken from the American Checker Federation archives"), read as
``scripts/checkers_import_games.py`` reads it (its module doc has the numbering).

**What is booked**: from each standard three-move ballot the positions the masters reached
are walked while at least ``--min-games`` games passed through one (positions are matched
whatever the move order, so transpositions pool their games). In each the masters' most
played move is booked (ties: the better result for the side moving), unless a search of
tui-games' own engine to ``--check-depth`` plies scores it more than ``--margin`` below its
own best move: then the next master move within the margin, or none (the engine searches
there in play). The walk goes on after every master move played ``--min-move`` times or
more, whichever side moved, so the book answers whatever the opponent chooses among them.
Forced moves are walked through and not booked. The check catches a tactical slip of a
collection that mixes strong and weaker players; it does not overrule the masters'
judgement of quiet positions, where the engine's evaluation is the weaker of the two.

**Output** (``--out``, default ``checkers_book_games.txt``): the book's format (``FEN MOVE  #
how``). ``tui-games checkers engine --book-file FILE`` (and ``checkers play``) reads it over
the shipped book, so that where the masters have a move it is the one played. Each line says
the ballot it was first reached from, the games that played the move out of the games at the
position, and the mover's mean result with it. It is not shipped: against GuiNN it scored
no better than the shipped book (docs/games/checkers.md, "Master lines, measured and set
aside").
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition, Move
from tui_games.engine.search import SearchLimits
from tui_games.training.checkers_import_games import parse_line, read_transcripts, transcript_moves

DEFAULT_OUT = "checkers_book_games.txt"

HEADER = """\
# The tui-games checkers opening book, master lines: the moves the masters played most from
# positions of the standard three-move ballots, in {games} games of Eric C. Joyce's Checkers
# Transcripts (github.com/EricCJoyce/Datasets, Checkers/ACF.txt, MIT licence: games "taken from
# the American Checker Federation archives"), each checked by a {depth}-ply search of tui-games'
# own engine (a move more than {margin} below its best is passed over). Made by
# scripts/checkers_book_from_games.py (`--min-games {min_games} --min-move {min_move} --max-ply {max_ply}`);
# read over the shipped book by `tui-games checkers engine --book-file FILE` (or `play`).
# {positions} positions from {ballots} ballots; {rejected} master moves passed over by the check.
# Format: FEN MOVE  # ballot, games with the move / games at the position, mover's mean result.
"""


@dataclass
class Tally:
    games: int = 0
    points: float = 0.0  # the mover's: 1 a win, 0.5 a draw


def tally_games(lines: list[str], max_ply: int) -> tuple[dict[str, dict[str, Tally]], int]:
    """FEN -> move -> its tally over the games, and how many games were read."""
    tree: dict[str, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    read = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            texts, result = parse_line(line)
            moves = transcript_moves(texts[:max_ply])
        except ValueError as exc:
            print(f"line {number}: skipped: {exc}", file=sys.stderr)
            continue
        read += 1
        position = CheckersPosition()
        for move in moves:
            tally = tree[position.fen()][str(move)]
            tally.games += 1
            tally.points += result if position.turn == 0 else 1.0 - result
            position.push(move)
    return tree, read


class Checker:
    """Scores moves by fixed-depth searches of the engine (fresh tables, so a run repeats)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def _search(self, position: CheckersPosition, depth: int) -> int:
        result = Engine().search(position, SearchLimits(depth=depth), rng=random.Random(0))
        return result.score

    def best(self, position: CheckersPosition) -> int:
        return self._search(position, self.depth)

    def after(self, position: CheckersPosition, move: Move) -> int:
        child = position.copy()
        child.push(move)
        return -self._search(child, self.depth - 1)


def choose(position: CheckersPosition, node: dict[str, Tally], checker: Checker | None,
           margin: int) -> tuple[Move | None, int]:
    """The master move to book here (or None) and how many master moves the check passed over."""
    ranked = sorted(node.items(), key=lambda kv: (-kv[1].games, -kv[1].points / kv[1].games, kv[0]))
    if checker is None:
        return position.parse_move(ranked[0][0]), 0
    best = checker.best(position)
    for passed, (text, _) in enumerate(ranked):
        move = position.parse_move(text)
        if checker.after(position, move) >= best - margin:
            return move, passed
    return None, len(ranked)


def walk(tree: dict[str, dict[str, Tally]], args: argparse.Namespace,
         checker: Checker | None) -> tuple[dict[str, str], int, set[int]]:
    """FEN -> 'MOVE  # comment' of every booked position, the moves passed over, the ballots."""
    book: dict[str, str] = {}
    seen: set[str] = set()
    rejected = 0
    ballots_used: set[int] = set()
    ballots = [b for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard]
    for ballot in ballots:
        stack = [(ballot.position(), 3)]
        while stack:
            position, ply = stack.pop()
            fen = position.fen()
            if fen in seen or ply > args.max_ply or position.outcome() is not None:
                continue
            seen.add(fen)
            node = tree.get(fen)
            if not node:
                continue
            total = sum(t.games for t in node.values())
            if total < args.min_games:
                continue
            if len(position.legal_moves()) > 1:
                move, passed = choose(position, node, checker, args.margin)
                rejected += passed
                if move is not None:
                    tally = node[str(move)]
                    book[fen] = (f"{move}  # ballot {ballot.number:03d}, {tally.games}/{total} games, "
                                 f"{tally.points / tally.games:.2f}")
                    ballots_used.add(ballot.number)
                    if checker is not None and len(book) % 250 == 0:
                        print(f"{len(book)} positions booked (ballot {ballot.number:03d})", file=sys.stderr, flush=True)
            for text, tally in node.items():
                if tally.games >= args.min_move:
                    child = position.copy()
                    child.push(child.parse_move(text))
                    stack.append((child, ply + 1))
    return book, rejected, ballots_used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="the transcript file (see the module doc)")
    parser.add_argument("--out", default=DEFAULT_OUT, help="the master lines' book")
    parser.add_argument("--min-games", type=int, default=8, help="games through a position to book it")
    parser.add_argument("--min-move", type=int, default=3, help="games with a move to follow it")
    parser.add_argument("--max-ply", type=int, default=40, help="the deepest ply booked")
    parser.add_argument("--check-depth", type=int, default=14, help="the engine's check (0: none)")
    parser.add_argument("--margin", type=int, default=80, help="how far below the engine's best a master move may score")
    args = parser.parse_args(argv)
    if args.min_games < 1 or args.min_move < 1 or args.max_ply < 4 or args.check_depth < 0 or args.margin < 0:
        parser.error("--min-games and --min-move must be positive, --max-ply at least 4, the rest not negative")
    tree, read = tally_games(read_transcripts(args.games), args.max_ply)
    checker = Checker(args.check_depth) if args.check_depth else None
    book, rejected, ballots = walk(tree, args, checker)
    header = HEADER.format(games=read, depth=args.check_depth, margin=args.margin, min_games=args.min_games,
                           min_move=args.min_move, max_ply=args.max_ply, positions=len(book),
                           ballots=len(ballots), rejected=rejected)
    Path(args.out).write_text(header + "".join(f"{fen} {book[fen]}\n" for fen in sorted(book)))
    print(f"{read} games; {len(book)} positions from {len(ballots)} ballots, {rejected} master moves passed over "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
