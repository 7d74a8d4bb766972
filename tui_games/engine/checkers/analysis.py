"""Checkers' judge for game reviews (:mod:`tui_games.engine.analysis`): the engine with a
budget of CPU seconds a position; a position in the endgame tables is proven (its result is
the tables', without a distance), and so is a line the search sees to its end."""

from __future__ import annotations

import threading

from tui_games.engine.analysis import UNTIMED_WIN, Thresholds, Verdict
from tui_games.engine.checkers.egdb import EndgameDB
from tui_games.engine.checkers.engine import STRONG_EVALUATION, Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits


class CheckersJudge:
    # In the evaluation's units, a man being 100: a quarter of a man, most of one, a man and a half.
    thresholds = Thresholds(25, 60, 150)

    def __init__(self, seconds: float = 0.5, database: EndgameDB | None = None) -> None:
        self.seconds = seconds
        # One engine for the whole game: its table carries from each position to the next.
        self.engine = Engine(evaluation=STRONG_EVALUATION, database=database)

    def verdict(self, position: CheckersPosition, stop: threading.Event | None = None) -> Verdict:
        result = self.engine.search(position, SearchLimits(seconds=self.seconds), stop=stop)
        best = (result.move,) if result.move is not None else ()
        tables = self.engine.verdict(position)
        if tables is not None:
            return Verdict(tables * UNTIMED_WIN, True, best)
        return Verdict(result.score, result.exact, best)
