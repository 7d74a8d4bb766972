"""OpenSpiel's MCTS on our Connect-4 positions, for ``bench connect4 --mcts`` (optional extra).

OpenSpiel (``pip install 'tui-games[bench-openspiel]'``) ships two UCT searches with the same
design: ``open_spiel.python.algorithms.mcts.MCTSBot`` in Python and ``pyspiel.MCTSBot`` in C++,
each with a ``RandomRolloutEvaluator`` (one uniform random playout a simulation) and, with
``solve=True``, the MCTS-Solver backup of proven values. Both are searched here with the same
budget and exploration as ours: OpenSpiel's rewards are in [-1, 1], twice the width of ours in
[0, 1], so its ``uct_c`` is twice our constant for the same balance. The position reaches it
as its column history (our columns 0-6 are OpenSpiel's ``connect_four`` actions), so the column
it picks is read back in our frame, whatever the two boards' drawing.
"""

from __future__ import annotations

import importlib
import time
from typing import Any

from tui_games.bench.mcts_engine import Searched
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.mcts import EXPLORATION

INSTALL_HINT = (
    "OpenSpiel's MCTS is not installed, so no row compares with it: "
    "pip install 'tui-games[bench-openspiel]' (or pip install open_spiel) adds its rows"
)
# OpenSpiel's rewards are -1..1: the same exploration as ours on 0..1 is twice the constant.
OPENSPIEL_C = 2 * EXPLORATION
# The C++ bot's tree memory bound; 10,000 simulations need a few MB.
CPP_MEMORY_MB = 1000


class _OpenSpielEngine:
    """One of OpenSpiel's MCTS bots as a bench engine (see the module doc)."""

    def __init__(self, label: str, pyspiel: Any, python_mcts: Any | None, numpy: Any | None) -> None:
        self.label = label
        self._pyspiel = pyspiel
        self._python_mcts = python_mcts
        self._numpy = numpy
        self._game = pyspiel.load_game("connect_four")

    def search(self, position: Connect4, playouts: int, seed: int) -> Searched:
        state = self._game.new_initial_state()
        for column in position.history:
            state.apply_action(column)
        pyspiel = self._pyspiel
        if self._python_mcts is not None and self._numpy is not None:
            mcts, rng = self._python_mcts, self._numpy.random.RandomState
            bot = mcts.MCTSBot(
                self._game, OPENSPIEL_C, playouts, mcts.RandomRolloutEvaluator(1, rng(seed)),
                solve=True, random_state=rng(seed),
            )
        else:
            evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
            bot = pyspiel.MCTSBot(self._game, evaluator, OPENSPIEL_C, playouts, CPP_MEMORY_MB, True, seed, False)
        start = time.thread_time()
        root = bot.mcts_search(state)
        cpu = time.thread_time() - start
        # A solved root has its outcome (one value a player); an open one has none.
        proven = bool(root.outcome)
        return Searched(int(root.best_child().action), int(root.explore_count), cpu, proven)


def openspiel_engines() -> list[_OpenSpielEngine]:
    """OpenSpiel's Python and C++ MCTS bots, or none when OpenSpiel is not installed."""
    try:
        pyspiel = importlib.import_module("pyspiel")
        python_mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
        numpy = importlib.import_module("numpy")
    except ImportError:
        return []
    return [
        _OpenSpielEngine("OpenSpiel-Python", pyspiel, python_mcts, numpy),
        _OpenSpielEngine("OpenSpiel-C++", pyspiel, None, None),
    ]
