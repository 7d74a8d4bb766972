"""Tic-tac-toe on m×n boards, k in a row, normal or misère.

- :mod:`.position` — ``TicTacToe``: two bitmasks, precomputed k-windows, notation (``X.O/.X./...``)
- :mod:`.players` — opponents: ``perfect``, ``level1`` … ``level9``, ``random``, ``rule-based``,
  ``magic-square``
- :mod:`.arena` — the arena's adapter (variants, player specs, library positions)
"""

from tui_games.engine.tictactoe.position import MARKS, MAX_SIZE, MIN_SIZE, BoardError, O, TicTacToe, X, geometry

__all__ = ["MARKS", "MAX_SIZE", "MIN_SIZE", "O", "X", "BoardError", "TicTacToe", "geometry"]
