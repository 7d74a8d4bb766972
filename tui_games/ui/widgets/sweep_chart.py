"""Text bars for the algorithm sweep: per configuration, states expanded at each depth.

One scale for every row, so the rows compare: a log scale when the counts spread over more
than two orders of magnitude (minimax against alpha-beta with a table always does), else a
linear one. Block characters read the same without colour.
"""

from __future__ import annotations

import math

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tui_games.engine.compare import CONFIGS, MCTS_CONFIG, SweepCell, best_mark
from tui_games.ui.text import short_count

TICKS = "▁▂▃▄▅▆▇█"
BAR_WIDTH = 22
# Spread (max / min) beyond which the scale turns logarithmic.
LOG_SPREAD = 100


def scale(values: list[int]) -> tuple[bool, float, float]:
    """(log, low, high) for drawing ``values`` (positive counts) on one scale."""
    positive = [v for v in values if v > 0]
    if not positive:
        return False, 0.0, 1.0
    lo, hi = min(positive), max(positive)
    log = hi / lo > LOG_SPREAD
    if log:
        return True, 0.0, math.log10(hi) or 1.0
    return False, 0.0, float(hi)


def fraction(value: int, log: bool, low: float, high: float) -> float:
    if value <= 0:
        return 0.0
    x = math.log10(value) if log else float(value)
    return max(0.0, min(1.0, (x - low) / (high - low))) if high > low else 1.0


def spark(values: list[int | None], log: bool, low: float, high: float) -> str:
    """One block per value; a space for a value not measured."""
    out = []
    for v in values:
        if v is None:
            out.append("·")
        else:
            out.append(TICKS[min(len(TICKS) - 1, int(fraction(v, log, low, high) * (len(TICKS) - 1) + 0.5))])
    return "".join(out)


def bar(value: int, log: bool, low: float, high: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar in eighths of a cell."""
    eighths = int(round(fraction(value, log, low, high) * width * 8))
    full, rest = divmod(eighths, 8)
    partial = " ▏▎▍▌▋▊▉"[rest] if rest else ""
    return ("█" * full + partial).ljust(width)


class SweepChart(Static):
    """Per configuration: a spark line over depths 1..D and a bar at the deepest depth every
    configuration finished; MCTS (at + deepening's budget, so its bars match that row's) with
    its moves' marks by depth, ✓ or ✗ where the sweep solved the position."""

    DEFAULT_CSS = "SweepChart { height: auto; }"

    def show(self, cells: list[SweepCell], top: int) -> None:
        done = [c for c in cells if c.done]
        if not done:
            self.update(Text("No sweep yet: r runs every algorithm on the position.", style="dim"))
            return
        log, low, high = scale([c.nodes for c in done])
        by = {(c.config.key, c.depth): c for c in done}
        # The bars compare one depth: the deepest that every configuration finished.
        common = [d for d in range(1, top + 1) if all((cfg.key, d) in by for cfg in CONFIGS)]
        at = common[-1] if common else None
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True, justify="right")
        title = f"states{' (log scale)' if log else ''}"
        grid.add_row(Text(title, style="bold dim"), Text(f"d1..{top}", style="bold dim"),
                     Text(f"at depth {at}" if at else "", style="bold dim"), Text(""))
        for cfg in CONFIGS:
            values = [by[(cfg.key, d)].nodes if (cfg.key, d) in by else None for d in range(1, top + 1)]
            cell = by.get((cfg.key, at)) if at else None
            grid.add_row(cfg.label, spark(values, log, low, high),
                         bar(cell.nodes, log, low, high) if cell else " " * BAR_WIDTH,
                         short_count(cell.nodes) if cell else "")
        mcts = {c.depth: c for c in done if c.config is MCTS_CONFIG}
        if mcts:
            values = [mcts[d].nodes if d in mcts else None for d in range(1, top + 1)]
            marks = "".join(best_mark(mcts[d]) or "·" if d in mcts else " " for d in range(1, top + 1))
            grid.add_row(Text(MCTS_CONFIG.label), spark(values, log, low, high), Text(f"best move {marks}"),
                         Text("playouts", style="dim"))
        self.update(Group(grid))
