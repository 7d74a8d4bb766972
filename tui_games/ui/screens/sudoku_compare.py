"""The Sudoku screen's Compare panel: both solvers on the puzzle on the board.

The SAT solver (pycosat, :mod:`~tui_games.engine.sudoku.sat`) and the SMT solver (Z3,
:mod:`~tui_games.engine.sudoku.smt`, an optional extra) each solve the puzzle's givens and
check that the solution is the only one; the panel lists, per solver, the size of what it was
given (variables and clauses, or variables and assertions), its time and its answer. Without
Z3 its row says how to install it. :func:`run_solvers` runs in the engine worker (Z3 takes a
good part of a second on a Killer); :func:`comparison` draws the rows.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tui_games.engine.sudoku import sat, smt
from tui_games.engine.sudoku.grid import Grid
from tui_games.ui.text import seconds_text

__all__ = ["SolverRow", "comparison", "run_solvers"]

ANSWERS = {sat.Status.UNIQUE: "one solution", sat.Status.SEVERAL: "several", sat.Status.NONE: "none"}


class SolverRow(NamedTuple):
    """One solver's run: its name, what it was given (label, count pairs), its time and
    answer; ``missing``: why it did not run (Z3 not installed), and nothing else is set."""

    name: str
    sizes: tuple[tuple[str, int], ...] = ()
    seconds: float = 0.0
    answer: str = ""
    missing: str = ""


def run_solvers(puzzle: Grid) -> list[SolverRow]:
    """Both solvers on ``puzzle`` (its givens), SAT first."""
    rows = []
    result = sat.solve(puzzle)
    stats = result.stats
    rows.append(SolverRow("SAT · pycosat", (("variables", stats.variables), ("clauses", stats.clauses)),
                          result.seconds, ANSWERS.get(result.status, result.status.value)))
    if not smt.available():
        rows.append(SolverRow("SMT · Z3", missing=smt.INSTALL_HINT))
        return rows
    result = smt.solve(puzzle)
    rows.append(SolverRow("SMT · Z3", (("variables", result.stats.variables), ("assertions", result.stats.assertions)),
                          result.seconds, ANSWERS.get(result.status, result.status.value)))
    return rows


def comparison(rows: list[SolverRow]) -> RenderableType:
    """The panel's body: a short table per solver, the faster named."""
    parts: list[RenderableType] = [Text("Both solvers on the givens, checking the solution is the only one.",
                                        style="dim")]
    ran = [r for r in rows if not r.missing]
    fastest = min(ran, key=lambda r: r.seconds) if len(ran) > 1 else None
    # One table for both, so that their figures line up.
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim", no_wrap=True)
    table.add_column(justify="right", no_wrap=True)
    missing = []
    for row in rows:
        if row.missing:  # said under the table, where it may wrap
            missing.append(Text.assemble((row.name, "bold"), ("\n" + row.missing, "italic")))
            continue
        table.add_row(Text(row.name, style="bold"), "")
        for label, count in row.sizes:
            table.add_row(f"  {label}", f"{count:,}")
        table.add_row("  time", seconds_text(row.seconds) + (" ★" if row is fastest else "  "))
        table.add_row("  answer", row.answer)
    parts.append(table)
    parts.extend(missing)
    if fastest is not None:
        parts.append(Text(f"★ faster here: {fastest.name}", style="dim"))
    return Group(*parts)
