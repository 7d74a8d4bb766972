"""The ACF three-move ballot openings: parsing the list and setting up a ballot.

The list ships as ``puzzles/checkers_ballots.txt`` (read it with
``tui_games.data.resources.read_puzzles(BALLOTS_FILE)``; this module does no file I/O and parses
the text it is given). A line is ``NUMBER MOVE MOVE MOVE DECK`` with DECK ``standard`` (the
ballots drawn in matches) or ``barred`` (known losses); ``#`` starts a comment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.position import CheckersPosition

__all__ = ["BALLOTS_FILE", "Ballot", "choose_ballots", "parse_ballots"]

BALLOTS_FILE = "checkers_ballots.txt"
DECKS = ("standard", "barred")


@dataclass(frozen=True)
class Ballot:
    number: int
    moves: tuple[str, ...]
    standard: bool

    def position(self) -> CheckersPosition:
        """The starting position with the ballot's moves played (White to move)."""
        pos = CheckersPosition()
        for text in self.moves:
            pos.push_text(text)
        return pos

    def __str__(self) -> str:
        return f"ballot {self.number:03d} ({' '.join(self.moves)})"


def parse_ballots(text: str) -> list[Ballot]:
    """Every ballot of the list, each checked by playing it out. CheckersError names the
    line and the problem."""
    ballots = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        where = f"ballot list line {number}"
        if len(fields) != 5 or not fields[0].isdigit() or fields[4] not in DECKS:
            raise CheckersError(f"{where}: expected 'NUMBER MOVE MOVE MOVE standard|barred', got {line!r}")
        ballot = Ballot(int(fields[0]), tuple(fields[1:4]), fields[4] == "standard")
        try:
            ballot.position()
        except CheckersError as error:
            raise CheckersError(f"{where}: {error}") from None
        ballots.append(ballot)
    return ballots


def choose_ballots(ballots: list[Ballot], count: int, seed: int | None = None) -> list[Ballot]:
    """``count`` different standard ballots drawn at random (seeded), in the order drawn."""
    standard = [b for b in ballots if b.standard]
    if count > len(standard):
        raise ValueError(f"only {len(standard)} standard ballots, cannot draw {count}")
    return random.Random(seed).sample(standard, count)
