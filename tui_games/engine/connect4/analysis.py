"""Connect-4's judge for game reviews (:mod:`tui_games.engine.analysis`): the exact solver,
so every verdict is proven and every mark exact."""

from __future__ import annotations

import threading

from tui_games.engine.analysis import Thresholds, Verdict
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver, to_search_score


class Connect4Judge:
    # Never used: the solver proves every position (kept for the Judge contract).
    thresholds = Thresholds(1, 2, 3)

    def __init__(self, book: OpeningBook | None = None) -> None:
        # One solver for the whole game: its table carries from each position to the next.
        self.solver = Solver(book=book)

    def verdict(self, position: Connect4, stop: threading.Event | None = None) -> Verdict:
        score, best = self.solver.best_moves(position, stop=stop)
        # Columns nearest the centre first: the move a player would look at first.
        ordered = tuple(sorted(best, key=lambda c: abs(c - 3)))
        return Verdict(to_search_score(score, position.moves), True, ordered)
