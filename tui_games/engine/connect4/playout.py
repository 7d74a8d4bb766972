"""Random playouts for Monte Carlo tree search (:class:`~tui_games.engine.game.Playouts`): a
game played on from a position by uniform random columns, on the bitboards alone.

The numbers come from splitmix64 seeded with the playout's seed, and each move is the
``z % n``-th of the ``n`` playable columns from the left, so the compiled playout in
``_c4solve.c`` (used where it is built) and :func:`python_playout`, its twin, play the same game
for the same seed; ``tests/engine/test_mcts.py`` compares them. The result is +1 if the side
to move wins, -1 if it loses, 0 for a draw (the board full, or ``max_plies`` played). The
full-board variant (whoever holds more fours when the board is full) is the twin's alone.
"""

from __future__ import annotations

from tui_games.engine.connect4.bits import BOTTOM_MASK, CELLS, COLUMNS, TOP_MASK, count_fours, has_four
from tui_games.engine.splitmix import MASK64, splitmix64

try:
    from tui_games.engine.connect4 import _c4solve
except ImportError:  # not built: the Python twin plays
    _c4solve = None  # type: ignore[assignment]

COMPILED = _c4solve is not None


def python_playout(current: int, mask: int, moves: int, seed: int, max_plies: int, full_board: bool = False) -> int:
    """+1 / -1 / 0 for the side to move (``current``'s discs) of the random game (module doc)."""
    state = seed & MASK64
    plies = 0
    while True:
        if moves >= CELLS or plies >= max_plies:
            if full_board and moves >= CELLS:
                # ``current`` is the side to move now: after an even number of plies, the starter.
                mine = current if plies % 2 == 0 else mask ^ current
                mine_fours, theirs_fours = count_fours(mine), count_fours(mask ^ mine)
                return (mine_fours > theirs_fours) - (mine_fours < theirs_fours)
            return 0
        legal = [c for c in range(COLUMNS) if not mask & TOP_MASK[c]]
        state, z = splitmix64(state)
        col = legal[z % len(legal)]
        after = mask | (mask + BOTTOM_MASK[col])
        mover = current | (after ^ mask)
        if not full_board and has_four(mover):
            return 1 if plies % 2 == 0 else -1
        current ^= mask
        mask = after
        moves += 1
        plies += 1


def playout(current: int, mask: int, moves: int, seed: int, max_plies: int, full_board: bool = False) -> int:
    """:func:`python_playout`, compiled where ``_c4solve`` is built (standard rules)."""
    if _c4solve is not None and not full_board:
        return _c4solve.playout(current, mask, moves, seed & MASK64, max_plies)
    return python_playout(current, mask, moves, seed, max_plies, full_board)
