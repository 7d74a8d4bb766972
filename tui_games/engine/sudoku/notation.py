"""Eureka notation for chains, the way the Sudoku forums write them.

A node is a digit in brackets before its cells: ``(4)r1c2`` for one cell, ``(4)r1c23`` or
``(4)r12c5`` for a group of cells in one line (the digit is in one of them). ``=`` is a strong
link (if one end is false the other is true), ``-`` a weak link (if one end is true the other
is false). A link inside one cell is written once with both digits: ``(4=6)r3c7`` (a cell
with two candidates left), ``(5-2)r9c7`` (if it is 5 it is not 2). So the chain of :class:`~.techniques.Link` objects

    (4)r1c2 = (4)r1c7,  (4)r1c7 - (4)r3c7,  (4)r3c7 = (6)r3c7,  (6)r3c7 - (6)r3c1,  (6)r3c1 = (6)r5c1

reads ``(4)r1c2=(4)r1c7-(4=6)r3c7-(6)r3c1=(6)r5c1``. A loop ends on the node it started from.

Digits past 9 are written ``A``-``G`` (16x16 grids); there, rows and columns of a group are
separated by commas (``r1c10,11``) since they no longer have one figure each.

:func:`fold` shortens a long chain for a narrow panel: its head, ``…``, the number of links
left out, and its tail.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tui_games.engine.sudoku.grid import digit_char
from tui_games.engine.sudoku.techniques import Link

__all__ = ["cells_text", "eureka", "fold", "node_text"]


def cells_text(cells: Sequence[int], size: int = 9) -> str:
    """``r1c2`` for one cell, ``r1c23`` / ``r12c5`` for a group in one row or column."""
    rows = sorted({c // size + 1 for c in cells})
    cols = sorted({c % size + 1 for c in cells})
    sep = "" if size <= 9 else ","
    return f"r{sep.join(map(str, rows))}c{sep.join(map(str, cols))}"


def node_text(cells: Sequence[int], digit: int, size: int = 9) -> str:
    """``(4)r1c2``: a digit in a cell or a group of cells."""
    return f"({digit_char(digit)}){cells_text(cells, size)}"


def eureka(links: Sequence[Link], size: int = 9) -> str:
    """The chain ``links`` (each starting where the previous one ended) in Eureka notation,
    with links inside one cell collapsed: ``(4)r1c2=(4)r1c7-(4=6)r3c7-(6)r3c1``."""
    if not links:
        return ""
    # The chain as nodes n0..nk and the links between them; then each strong link inside a
    # cell merges its two nodes into one "(a=b)cell" (left to right, each node merged once).
    nodes = [(tuple(links[0].cells_a), links[0].digit_a)]
    symbols = []
    for link in links:
        nodes.append((tuple(link.cells_b), link.digit_b))
        symbols.append("=" if link.strong else "-")
    parts: list[str] = []
    i = 0
    while i < len(nodes):
        cells, digit = nodes[i]
        if i < len(symbols) and nodes[i + 1][0] == cells and nodes[i + 1][1] != digit:
            parts.append(f"({digit_char(digit)}{symbols[i]}{digit_char(nodes[i + 1][1])}){cells_text(cells, size)}")
            i += 1  # the next node is written already
        else:
            parts.append(node_text(cells, digit, size))
        if i < len(symbols):
            parts.append(symbols[i])
        i += 1
    return "".join(parts)


_TOKEN = re.compile(r"\([^)]*\)[^=()\-]+|[=\-]")


def fold(chain: str, width: int) -> str:
    """``chain`` if it fits in ``width`` characters; else its first and last nodes around
    `` …N links… `` (the N links not shown), cut between nodes, keeping as many nodes at each
    end as fit (at least one)."""
    if len(chain) <= width:
        return chain
    tokens = _TOKEN.findall(chain)
    if "".join(tokens) != chain or len(tokens) < 3:  # not a chain we wrote: cut it plainly
        return chain[: max(width - 1, 0)] + "…"
    nodes = tokens[0::2]  # node, symbol, node, ..., node
    symbols = tokens[1::2]
    links = len(symbols)

    def text(head: int, tail: int) -> str:
        # The first ``head`` and last ``tail`` nodes with the links among them; the links left
        # out are those between the nodes hidden and those inside them (``(4=6)r3c7``).
        left = "".join(tokens[: 2 * head - 1])
        right = "".join(tokens[len(tokens) - (2 * tail - 1):])
        inside = sum(1 for node in nodes[head:len(nodes) - tail] if "=" in node or "-" in node)
        return f"{left} …{links - (head - 1) - (tail - 1) + inside} links… {right}"

    head = tail = 1
    best = text(head, tail)
    while head + tail < len(nodes):
        if head <= tail:
            candidate = text(head + 1, tail)
        else:
            candidate = text(head, tail + 1)
        if len(candidate) > width or head + tail + 1 >= len(nodes):
            break
        best = candidate
        if head <= tail:
            head += 1
        else:
            tail += 1
    return best
