"""Tic-tac-toe's judge for game reviews (:mod:`tui_games.engine.analysis`): the search to the
end of the game where the perfect player does it at once (up to :data:`SOLVE_AT_ONCE` empty
cells: every verdict proven), a timed search (``seconds`` CPU seconds) before that."""

from __future__ import annotations

import threading

from tui_games.engine.analysis import Thresholds, Verdict
from tui_games.engine.search import TT, SearchLimits, search
from tui_games.engine.tictactoe.players import SOLVE_AT_ONCE
from tui_games.engine.tictactoe.position import TicTacToe


class TicTacToeJudge:
    # The evaluation counts open windows at 4^n (n own marks in it): a window of one mark more
    # or less is an inaccuracy, two a mistake, three a blunder.
    thresholds = Thresholds(16, 64, 256)

    def __init__(self, seconds: float = 1.0) -> None:
        self.seconds = seconds

    def verdict(self, position: TicTacToe, stop: threading.Event | None = None) -> Verdict:
        pos = position.copy()
        if pos.empties <= SOLVE_AT_ONCE:
            pos.symmetry = True
            result = search(pos, SearchLimits(depth=pos.empties), TT, exact_root=True, stop=stop)
            # Every move as good, in board order: the same answer whatever the table held before.
            best = tuple(sorted(rm.move for rm in result.root_moves if rm.score == result.score))
            return Verdict(result.score, result.exact, best or (result.move,))
        result = search(pos, SearchLimits(seconds=self.seconds), TT, stop=stop)
        return Verdict(result.score, result.exact, (result.move,) if result.move is not None else ())
