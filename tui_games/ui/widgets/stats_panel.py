"""Live search statistics: what the engine is doing while it thinks, and how it decided."""

from __future__ import annotations

from typing import Any, Callable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from tui_games.engine.compare import DEEPENING_NOTE, SweepCell
from tui_games.engine.mcts import MCTSStats
from tui_games.engine.search import ALGORITHM_LABELS, EXACT, SearchStats, is_win_score
from tui_games.ui.text import bound_text, clock_rows, count, score_text, short_count, short_seconds

MoveName = Callable[[Any], str]


class StatsPanel(Static):
    """Shows a ``SearchStats`` snapshot, or the comparison of all algorithms."""

    DEFAULT_CSS = """
    StatsPanel {
        height: auto;
        padding: 0 1;
        border: round $foreground-muted;
        border-title-color: $text-accent;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Search"
        self.last_stats: SearchStats | None = None
        # The compare table is showing; restore() brings back what it covered.
        self.comparing = False
        self._covered: tuple[str, Any] | None = None
        self.clear()

    def clear(self) -> None:
        self.last_stats = None
        self.comparing = False
        self._covered = None
        self.border_title = "Search"
        self.update(Text("No search yet: the computer's thinking shows here.", style="dim"))

    def show_text(self, title: str, text: RenderableType) -> None:
        self.comparing = False
        self.border_title = title
        self.update(text)

    def restore(self) -> None:
        if self._covered is not None:
            self.border_title, content = self._covered
            self.update(content)
        self.comparing = False
        self._covered = None

    def show(self, stats: SearchStats, move_name: MoveName, *, who: str = "", thinking: bool = False,
             proven: bool = False, note: str = "") -> None:
        self.last_stats = stats
        self.comparing = False
        self.border_title = f"Search · {who}" if who else "Search"
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(style="dim", no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        clocks = clock_rows(stats.cpu_seconds, stats.wall_seconds, stats.seconds)
        if isinstance(stats, MCTSStats):
            # Monte Carlo tree search: playouts where the others count nodes, the tree it keeps.
            grid.add_row("playouts", count(stats.playouts), "per s", count(stats.playouts_per_second))
            grid.add_row("tree", count(stats.tree_size), *clocks[0])
            grid.add_row("best N", count(stats.best_visits), "W/N", f"{stats.best_share:.0%}")
        else:
            grid.add_row("nodes", count(stats.nodes), "nodes/s", count(stats.nodes_per_second))
            grid.add_row("depth", f"{stats.depth} (max {stats.seldepth})", *clocks[0])
            grid.add_row("cutoffs", count(stats.cutoffs), "TT hits", count(stats.tt_hits))
        if len(clocks) > 1:
            # CPU and wall differ (a busy machine): both, the budget's clock first.
            grid.add_row("", "", *clocks[1])
        label = "Monte Carlo tree search" if isinstance(stats, MCTSStats) else stats.algorithm
        lines: list[Any] = [Text(ALGORITHM_LABELS.get(stats.algorithm, label), style="bold"), grid]
        if stats.best_move is not None:
            state = "thinking… best so far" if thinking else "chose"
            lines.append(Text.assemble((f"{state} ", "dim"), (move_name(stats.best_move), "bold"),
                                       ("  score ", "dim"), score_text(stats.score, proven=proven)))
        if stats.pv:
            lines.append(Text.assemble(("line ", "dim"), " ".join(move_name(m) for m in stats.pv[:10])))
        if stats.root_moves:
            shown = stats.root_moves[:6]
            parts = [f"{move_name(rm.move)} {bound_text(rm.score, rm.bound, proven=proven and rm.bound == EXACT)}"
                     for rm in shown]
            more = len(stats.root_moves) - len(shown)
            lines.append(Text.assemble(("moves ", "dim"), " · ".join(parts) + (f" · {more} more" if more > 0 else "")))
        scores = [stats.score] + [rm.score for rm in stats.root_moves]
        if any(score is not None and is_win_score(score) for score in scores):
            # The hint under a board counts a player's own moves; the search counts plies.
            lines.append(Text("win/loss in N: N plies, both sides' moves · ? explains", style="dim"))
        if note:
            lines.append(Text(note, style="italic"))
        self.update(Group(*lines))

    def show_comparison(self, rows: list[tuple[SweepCell, bool]], depth: int, *, running: str = "",
                        stopped: bool = False) -> None:
        """rows: (cell, finished), one per configuration of ``engine.compare.CONFIGS``: the
        with/without pruning table, live; ``stopped``: the player stopped it."""
        if not self.comparing:
            self._covered = (str(self.border_title), self.content)
            self.comparing = True
        self.border_title = f"Compare · same position, depth {depth}"
        table = Table.grid(padding=(0, 1))
        headers = ("algorithm", "nodes", "cutoffs", "TT", "time")
        for name in headers:
            table.add_column(header=name, justify="left" if name == "algorithm" else "right", no_wrap=True)
        table.add_row(*(Text(h, style="bold dim") for h in headers))
        for cell, finished in rows:
            mark = "" if finished else "…"
            table.add_row(cell.config.label + mark, short_count(cell.nodes),
                          short_count(cell.cutoffs), short_count(cell.tt_hits), short_seconds(cell.seconds))
        lines: list[Any] = [table]
        if any(cell.config.deepen for cell, _ in rows):
            lines.append(Text(DEEPENING_NOTE.format(depth=depth), style="dim"))
        if running:
            lines.append(Text(running, style="italic dim"))
        elif stopped:
            lines.append(Text("stopped (c): … rows did not finish; c again shows the statistics",
                              style="italic dim"))
        elif rows:
            whole = [row for row in rows if row[1]]
            if rows[0][1] and whole:
                # Against a whole minimax tree only: a stopped one is no base to compare with.
                base = rows[0][0].nodes or 1
                best = min(whole, key=lambda r: r[0].nodes)[0]
                lines.append(Text(f"the fewest, {best.config.label}: {best.nodes / base:.1%} of minimax's nodes.",
                                  style="italic"))
            if len(whole) < len(rows):
                lines.append(Text("… stopped at its node or time limit", style="dim"))
        self.update(Group(*lines))
