"""Plain-text tables for the benchmarks: fixed columns, a rule under the titles."""

from __future__ import annotations

from collections.abc import Callable

Write = Callable[[str], None]


def table(write: Write, titles: list[str], widths: list[int], left: tuple[int, ...] = (0,)) -> Callable[[list[str]], None]:
    """Write the title row and its rule; return a function writing one row of cells.
    Columns in ``left`` are left-aligned, the others right-aligned."""

    def row(cells: list[str]) -> None:
        parts = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))]
        write("  ".join(parts).rstrip())

    row(titles)
    write("-" * (sum(widths) + 2 * (len(widths) - 1)))
    return row
