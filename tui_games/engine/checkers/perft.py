"""Perft: the number of move sequences of a given length, the move generator's oracle.

Every distinct capture path counts as its own move (see :mod:`.position`), which is the
convention of the published tables (from the start: 7, 49, 302, 1469, 7361, 36768, 179740,
845931, 3963680, 18391564 for depths 1–10). Draws by rule are ignored, as in every perft
table; a side with no move ends its line (it contributes no leaves).

The count runs on plain masks with :func:`position.generate` — the one move generator —
and counts the last ply by the length of the move list ("bulk counting").
"""

from __future__ import annotations

import threading

from tui_games.engine.checkers.bits import BLACK
from tui_games.engine.checkers.position import CheckersPosition, Move, generate

__all__ = ["PerftStopped", "divide", "perft", "perft_masks"]


class PerftStopped(Exception):
    """The stop flag was set before the count finished."""


def perft_masks(black: int, white: int, kings: int, turn: int, depth: int) -> int:
    """Leaves at ``depth`` plies below the position given by its masks."""
    if depth <= 0:
        return 1
    moves = generate(black, white, kings, turn)
    if depth == 1:
        return len(moves)
    d = depth - 1
    total = 0
    if turn == BLACK:
        if d == 1:
            for move in moves:
                cap = move[1]
                total += len(generate(black ^ move[0], white ^ cap, (kings & ~cap) ^ move[2], 1))
        else:
            for move in moves:
                cap = move[1]
                total += perft_masks(black ^ move[0], white ^ cap, (kings & ~cap) ^ move[2], 1, d)
    else:
        if d == 1:
            for move in moves:
                cap = move[1]
                total += len(generate(black ^ cap, white ^ move[0], (kings & ~cap) ^ move[2], 0))
        else:
            for move in moves:
                cap = move[1]
                total += perft_masks(black ^ cap, white ^ move[0], (kings & ~cap) ^ move[2], 0, d)
    return total


def perft(position: CheckersPosition, depth: int) -> int:
    """Leaves ``depth`` plies below ``position`` (which is not changed)."""
    return perft_masks(position.black, position.white, position.kings, position.turn, depth)


def divide(position: CheckersPosition, depth: int, *, stop: threading.Event | None = None) -> list[tuple[Move, int]]:
    """(move, leaves below it at ``depth`` − 1 more plies) for every legal move, in the
    generator's order; the counts add up to ``perft(position, depth)``. ``stop`` is looked
    at between root moves (PerftStopped)."""
    out = []
    b, w, k, turn = position.black, position.white, position.kings, position.turn
    for move in generate(b, w, k, turn):
        if stop is not None and stop.is_set():
            raise PerftStopped
        cap = move[1]
        if turn == BLACK:
            child = (b ^ move[0], w ^ cap, (k & ~cap) ^ move[2], 1)
        else:
            child = (b ^ cap, w ^ move[0], (k & ~cap) ^ move[2], 0)
        out.append((move, perft_masks(*child, depth - 1)))
    return out
