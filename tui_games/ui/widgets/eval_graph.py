"""A game's evaluation along its moves as one line of block characters (a sparkline): high for
the side that moved first, low for the other, the middle a level game.

Each column is a move's *after* (the analysis's score after the move, turned to the first
side's view) capped at the review's ``cap`` (three blunders: a proven win is the top), so one
won position does not flatten the rest. A game longer than the line is drawn a column per
group of moves (the group's last). The move shown on the board is reversed; a ``??`` is red
and a ``?`` yellow, so a colourless terminal still sees the shape and the reversed column.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from tui_games.engine.analysis import BLUNDER, MISTAKE, MoveReview
from tui_games.engine.search import WIN_BOUND

__all__ = ["BLOCKS", "columns_of", "eval_graph", "first_side_scores"]

BLOCKS = "▁▂▃▄▅▆▇█"
_STYLES = {BLUNDER: "bold red", MISTAKE: "yellow"}


def first_side_scores(moves: Sequence[MoveReview], cap: int) -> list[float]:
    """Each move's score after it, from the first side's view, in [-1, 1]."""
    scores = []
    for move in moves:
        after = move.after if move.side == 0 else -move.after
        if after >= WIN_BOUND:
            capped = cap
        elif after <= -WIN_BOUND:
            capped = -cap
        else:
            capped = max(-cap, min(cap, after))
        scores.append(capped / cap if cap else 0.0)
    return scores


def columns_of(count: int, width: int) -> list[int]:
    """The move index each column stands for (every move while they fit, else evenly spread)."""
    if count <= width:
        return list(range(count))
    return [min(count - 1, (column + 1) * count // width - 1) for column in range(width)]


def eval_graph(moves: Sequence[MoveReview], cap: int, width: int, current: int | None = None) -> Text:
    """The line (at most ``width`` cells); ``current`` is the index of the move on the board."""
    scores = first_side_scores(moves, cap)
    line = Text()
    indexes = columns_of(len(scores), max(1, width))
    shown_current = None
    if current is not None and indexes:
        shown_current = min(range(len(indexes)), key=lambda column: abs(indexes[column] - current))
    for column, index in enumerate(indexes):
        level = round((scores[index] + 1) / 2 * (len(BLOCKS) - 1))
        style = _STYLES.get(moves[index].mark or "", "")
        if column == shown_current:
            style = f"{style} reverse".strip()
        line.append(BLOCKS[level], style=style)
    return line
