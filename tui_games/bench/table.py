"""The one plain-text table printer of the benchmarks and the arena: fixed columns, a rule
under the titles, left- or right-aligned cells."""

from __future__ import annotations

import os
import platform
from collections.abc import Callable, Sequence

Write = Callable[[str], None]


def format_row(cells: Sequence[str], widths: Sequence[int], left: Sequence[int] = (0,)) -> str:
    """One line: columns in ``left`` left-aligned, the others right-aligned, two spaces apart."""
    parts = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))]
    return "  ".join(parts).rstrip()


def table(write: Write, titles: Sequence[str], widths: Sequence[int],
          left: Sequence[int] = (0,)) -> Callable[[Sequence[str]], None]:
    """Write the title row and its rule; return a function writing one row of cells."""

    def row(cells: Sequence[str]) -> None:
        write(format_row(cells, widths, left))

    row(titles)
    write("-" * (sum(widths) + 2 * (len(widths) - 1)))
    return row


def write_table(write: Write, titles: Sequence[str], rows: Sequence[Sequence[str]],
                left: Sequence[int] = (0,)) -> None:
    """A whole table at once, each column as wide as its widest cell."""
    widths = [max(len(t), *(len(r[i]) for r in rows)) if rows else len(t) for i, t in enumerate(titles)]
    row = table(write, titles, widths, left)
    for cells in rows:
        row(cells)


def machine_line() -> str:
    """The machine a benchmark ran on: its numbers mean nothing without it."""
    cpu = platform.processor() or platform.machine()
    return (f"machine: {platform.platform()} ({cpu}), {os.cpu_count()} CPUs, "
            f"{platform.python_implementation()} {platform.python_version()}")
