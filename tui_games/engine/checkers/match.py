"""Engine matches: two players, a set of openings, each opening played with both colours.

:func:`play_match` is what ``scripts/checkers_match.py`` runs; ``tui-games arena checkers``
runs the general arena (:mod:`tui_games.engine.arena`), whose move loop :func:`play_game`
shares. A game starts from an opening (a three-move ballot) and goes on until the rules end
it or it reaches ``max_plies`` plies, when it is adjudicated a draw (and counted as such,
so the report can say how many games the rules did not finish).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tui_games.engine import arena
from tui_games.engine.checkers.ballots import Ballot
from tui_games.engine.checkers.bits import BLACK
from tui_games.engine.checkers.evaluation import material
from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.pdn import DRAW, result_for, write_pdn
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.players import Player

__all__ = ["GameRecord", "MatchResult", "MatchStopped", "play_game", "play_match"]

MAX_PLIES = 200


# The stop flag was set during a game (the arena's exception: one loop, one way to stop).
MatchStopped = arena.GameStopped


@dataclass
class GameRecord:
    black: str
    white: str
    opening: str
    result: str  # PDN: 1-0 Black won, 0-1 White won, 1/2-1/2
    winner: int | None  # 0 Black, 1 White, None
    reason: str  # the outcome's reason, or "adjudicated" at the ply limit
    plies: int
    # Material from Black's side when the game ended (men 100, kings 150).
    material: int
    seconds: float
    pdn: str

    @property
    def adjudicated(self) -> bool:
        return self.reason == "adjudicated"


@dataclass
class MatchResult:
    """The games and the score from the first player's side."""

    first: str
    second: str
    games: list[GameRecord] = field(default_factory=list)
    # Per game: 1 the first player won, -1 lost, 0 drew.
    scores: list[int] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return self.scores.count(1)

    @property
    def losses(self) -> int:
        return self.scores.count(-1)

    @property
    def draws(self) -> int:
        return self.scores.count(0)

    @property
    def adjudicated(self) -> int:
        return sum(g.adjudicated for g in self.games)

    def summary(self) -> str:
        return (f"{self.first} vs {self.second}: {self.wins} wins, {self.losses} losses, {self.draws} draws "
                f"in {len(self.games)} games ({self.adjudicated} adjudicated draws at the ply limit)")


def play_game(black: Player, white: Player, start: CheckersPosition, *, max_plies: int = MAX_PLIES,
              opening: str = "", event: str = "engine match", stop: threading.Event | None = None) -> GameRecord:
    """Play one game from ``start`` (its moves so far count towards ``max_plies``); the move
    loop is the arena's (:func:`tui_games.engine.arena.play_game`)."""
    began = time.perf_counter()
    try:
        played = arena.play_game((black, white), start, max_plies=max_plies, stop=stop)
    except arena.IllegalMove as error:
        raise CheckersError(str(error)) from None
    pos = played.position
    reason, winner = played.reason, played.winner
    result = DRAW if played.outcome is None else result_for(played.outcome)
    pdn = write_pdn(pos, event=event, black=black.name, white=white.name, result=result,
                    tags={"Opening": opening or None, "Termination": reason})
    return GameRecord(black.name, white.name, opening, result, winner, reason, pos.ply,
                      material(pos.black, pos.white, pos.kings, BLACK), time.perf_counter() - began, pdn)


def play_match(make_first: Callable[[], Player], make_second: Callable[[], Player], openings: list[Ballot], *,
               max_plies: int = MAX_PLIES, on_game: Callable[[GameRecord, MatchResult], None] | None = None,
               stop: threading.Event | None = None, event: str = "engine match") -> MatchResult:
    """Each opening twice, the first player taking Black then White; fresh players (fresh
    tables) for every game. ``on_game(record, result_so_far)`` after each game."""
    first_name, second_name = make_first().name, make_second().name
    match = MatchResult(first_name, second_name)
    for ballot in openings:
        for first_is_black in (True, False):
            a, b = make_first(), make_second()
            black, white = (a, b) if first_is_black else (b, a)
            record = play_game(black, white, ballot.position(), max_plies=max_plies, opening=str(ballot),
                               event=event, stop=stop)
            if record.winner is None:
                score = 0
            else:
                first_colour = BLACK if first_is_black else 1 - BLACK
                score = 1 if record.winner == first_colour else -1
            match.games.append(record)
            match.scores.append(score)
            if on_game is not None:
                on_game(record, match)
    return match
