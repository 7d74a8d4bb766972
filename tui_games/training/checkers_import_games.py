"""Turn a collection of played checkers games into training positions for the evaluation.

    python scripts/checkers_import_games.py ACF.txt --out acf.jsonl

**Input**: one game a line, the moves in order separated by spaces, a tab, then the result
(``1-0`` Black won, ``0-1`` White won, ``1/2-1/2``), in the 0-31 square numbering of Eric C.
Joyce's *Checkers Transcripts* (github.com/EricCJoyce/Datasets, ``Checkers/ACF.txt``, MIT
licence: 9,377 games "taken from the American Checker Federation archives"). That numbering
starts at Black's (Red's) left-hand corner, A1 = 0, and runs along each row; the standard
1-32 numbering starts at the same row's right-hand end, so square ``t`` is standard
``4 * (t // 4) + 4 - t % 4``. A jump of several legs is written with every landing square.

**Output**: the JSON lines of ``scripts/checkers_tune.py selfplay`` (ballot, result for Black,
and every quiet position, no capture pending, as black, white, kings, turn), which
``scripts/checkers_train_patterns.py`` reads; these positions have no search score, so they
are labelled by the game's result alone. A game with an illegal or unreadable move is
skipped and counted (the rest of the file still imports).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tui_games.engine.checkers.position import CheckersPosition, Move, has_capture

RESULTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def standard_square(square: int) -> int:
    """The standard 1-32 number of a square of the 0-31 numbering (see the module doc)."""
    if not 0 <= square <= 31:
        raise ValueError(f"square {square} outside 0-31")
    return 4 * (square // 4) + 4 - square % 4


def transcript_moves(moves: list[str]) -> list[Move]:
    """The moves of a transcript game on the standard board. A move that is unreadable or
    not legal where it is played raises ValueError."""
    pos = CheckersPosition()
    played = []
    for text in moves:
        try:
            path = tuple(standard_square(int(s)) for s in text.split("-"))
        except ValueError as exc:
            raise ValueError(f"move {text!r} at ply {pos.ply}: {exc}") from None
        legal = pos.legal_moves()
        fits = [m for m in legal if m.path == path]
        if not fits and len(path) == 2:  # a capture written by its two ends only
            fits = [m for m in legal if m.is_capture and m.path[0] == path[0] and m.path[-1] == path[1]]
        if len(fits) != 1:
            raise ValueError(f"move {text} ({'-'.join(map(str, path))}) is {'ambiguous' if fits else 'not legal'} "
                             f"at ply {pos.ply}")
        played.append(fits[0])
        pos.push(fits[0])
    return played


def game_positions(moves: list[str]) -> list[tuple[int, int, int, int]]:
    """Every quiet position before a move of the game (black, white, kings, turn). A move
    that is not legal there raises ValueError."""
    pos = CheckersPosition()
    kept = []
    for move in transcript_moves(moves):
        if not has_capture(pos.black, pos.white, pos.kings, pos.turn):
            kept.append((pos.black, pos.white, pos.kings, pos.turn))
        pos.push(move)
    return kept


def read_transcripts(path: str, what: str = "games") -> list[str]:
    """A transcript file's lines; SystemExit naming it (as ``what``, the option or argument
    that gave it) if it cannot be read."""
    try:
        return Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"{what} {path}: cannot read it ({exc.__class__.__name__})") from None


def parse_line(line: str) -> tuple[list[str], float]:
    """The moves and Black's result of one line; ValueError if it is not a game."""
    moves_text, _, result_text = line.rstrip("\n").partition("\t")
    if result_text.strip() not in RESULTS:
        raise ValueError(f"no result ({result_text.strip()!r})")
    return moves_text.split(), RESULTS[result_text.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="the transcript file (see the module doc)")
    parser.add_argument("--out", required=True, help="the positions, JSON lines")
    parser.add_argument("--source", default="ACF archives (EricCJoyce/Datasets)", help="written as each game's ballot")
    args = parser.parse_args(argv)
    done = skipped = positions = 0
    lines = read_transcripts(args.games)  # before the output is opened: a bad path leaves no file behind
    with open(args.out, "w") as out:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                moves, result = parse_line(line)
                kept = game_positions(moves)
            except ValueError as exc:
                skipped += 1
                print(f"line {number}: skipped: {exc}", file=sys.stderr)
                continue
            out.write(json.dumps({"ballot": f"{args.source} line {number}", "result": result, "positions": kept}) + "\n")
            done += 1
            positions += len(kept)
    print(f"{done} games, {positions} positions; {skipped} skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
