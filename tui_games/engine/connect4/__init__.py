"""Connect-4: the bitboard position, heuristics, the exact solver and the players.

- :mod:`.position` — ``Connect4``: a 7×6 bitboard with push/pop, notation and the UI view
- :mod:`.heuristics` — evaluation functions by name (``default``, ``simple``, ``aware``)
- :mod:`.solver` — ``Solver``: exact scores in the standard convention (Pons' techniques)
- :mod:`.players` — opponents: ``perfect``, ``level1`` … ``level12``, ``random``
"""

from tui_games.engine.connect4.position import COLUMNS, ROWS, Connect4, Connect4Error

__all__ = ["COLUMNS", "ROWS", "Connect4", "Connect4Error"]
