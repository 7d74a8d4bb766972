"""The link graph of a position: the strong and weak links that chains follow.

A *node* is a digit in one cell, or, for grouped chains, a digit in a *group* of cells: the
cells of one box-line intersection that hold the digit (the node is true when the digit is in
one of them). Between two nodes:

- a **strong** link: they cannot both be false. A digit with two places left in a unit (a
  conjugate pair), or -- with groups -- whose places in a line lie in two boxes, or in a box
  lie in two rows (columns); and a cell with two candidates left (a bivalue cell);
- a **weak** link: they cannot both be true. The same digit in cells that all see each other,
  or two digits of one cell.

Chains alternate them: "if A is false then B (strong), so not C (weak), so D (strong) ...".

:func:`build` makes the graph once per finder call, for one of three kinds of chain:
``X`` (one digit: conjugate pairs and same-digit weak links), ``XY`` (bivalue cells, linked by a
digit they share) or ``AIC`` (everything, groups included). Only nodes with at least one strong
link are kept: every node inside an alternating chain has one, and so have its two ends.

Sets are Python integers used as bit sets: over node ids (``strong[i]``, ``weak[i]``) and over
*candidates* (``cell * size + digit - 1``: ``seen[i]``, every candidate that cannot be true when
node ``i`` is, which is what an elimination needs).
"""

from __future__ import annotations

from functools import cache

from tui_games.engine.sudoku.grid import BOX, Geometry
from tui_games.engine.sudoku.techniques import State

__all__ = ["AIC", "XY", "X", "LinkGraph", "build", "candidate_bits"]

X, XY, AIC = "X", "XY", "AIC"


@cache
def _peer_bits(geo: Geometry) -> tuple[int, ...]:
    """Per cell, its peers as a candidate bit set for digit 1 (shift by ``d - 1`` for ``d``)."""
    n = geo.size
    out = []
    for cell in range(geo.cells):
        bits = 0
        for p in geo.peers[cell]:
            bits |= 1 << (p * n)
        out.append(bits)
    return tuple(out)


def candidate_bits(state: State) -> int:
    """Every candidate of the position as a bit set (``cell * size + digit - 1``)."""
    n = state.geo.size
    out = 0
    for cell, m in enumerate(state.masks):
        if m:
            out |= m << (cell * n)
    return out


class LinkGraph:
    """Nodes ``0 .. len(nodes) - 1`` as ``(digit, cells)``; per node: ``strong`` and ``weak``
    neighbours (node bit sets), ``seen`` (candidate bit set), ``bits`` (its own candidates)."""

    __slots__ = ("bits", "cells", "digits", "geo", "index", "kind", "seen", "strong", "weak")

    def __init__(self, geo: Geometry, kind: str) -> None:
        self.geo = geo
        self.kind = kind
        self.digits: list[int] = []
        self.cells: list[tuple[int, ...]] = []
        self.index: dict[tuple[int, tuple[int, ...]], int] = {}
        self.strong: list[int] = []
        self.weak: list[int] = []
        self.seen: list[int] = []
        self.bits: list[int] = []

    def __len__(self) -> int:
        return len(self.digits)

    def node(self, digit: int, cells: tuple[int, ...]) -> int:
        key = (digit, cells)
        i = self.index.get(key)
        if i is None:
            i = self.index[key] = len(self.digits)
            self.digits.append(digit)
            self.cells.append(cells)
            self.strong.append(0)
        return i

    def link(self, a: int, b: int) -> None:
        """A strong link between nodes ``a`` and ``b``."""
        self.strong[a] |= 1 << b
        self.strong[b] |= 1 << a

    def is_group(self, i: int) -> bool:
        return len(self.cells[i]) > 1


def build(state: State, kind: str = AIC, groups: bool | None = None) -> LinkGraph:
    """The link graph of ``state`` for chains of ``kind`` (:data:`X`, :data:`XY`, :data:`AIC`);
    ``groups``: with grouped nodes (default: for AICs only; Sudoku Explainer's chains have none)."""
    geo, masks = state.geo, state.masks
    n = geo.size
    graph = LinkGraph(geo, kind)
    node = graph.node
    if groups is None:
        groups = kind == AIC
    if kind != XY:
        box_of, kinds = geo.box_of, geo.unit_kinds
        for u, unit in enumerate(geo.units):
            present = 0
            for c in unit:
                present |= masks[c]
            digit = 0
            while present:
                digit += 1
                bit = 1 << (digit - 1)
                if not present & bit:
                    continue
                present &= ~bit
                where = [c for c in unit if masks[c] & bit]
                if len(where) == 2:
                    graph.link(node(digit, (where[0],)), node(digit, (where[1],)))
                elif groups and len(where) > 2:
                    # Places in two boxes (a line) or in two rows / two columns (a box).
                    keys = (lambda c: c // n, lambda c: c % n) if kinds[u] == BOX else (box_of,)
                    for key in keys:
                        parts: dict[int, list[int]] = {}
                        for c in where:
                            parts.setdefault(key(c), []).append(c)
                        if len(parts) == 2:
                            a, b = parts.values()
                            graph.link(node(digit, tuple(a)), node(digit, tuple(b)))
    if kind != X:
        for cell, m in enumerate(masks):
            if m and m.bit_count() == 2:
                low = m & -m
                graph.link(node(low.bit_length(), (cell,)), node(m.bit_length(), (cell,)))
    _weak_links(graph, state)
    return graph


def _weak_links(graph: LinkGraph, state: State) -> None:
    geo, masks = graph.geo, state.masks
    n = geo.size
    peer_bits = _peer_bits(geo)
    everything = candidate_bits(state)
    count = len(graph)
    seen, own = graph.seen, graph.bits
    singles: dict[int, int] = {}  # candidate id -> node, for the one-cell nodes
    by_digit: dict[int, list[int]] = {}  # digit -> group nodes
    for i in range(count):
        digit, cells = graph.digits[i], graph.cells[i]
        shift = digit - 1
        if len(cells) == 1:
            cell = cells[0]
            bit = 1 << (cell * n + shift)
            same_digit = (peer_bits[cell] << shift) & everything
            same_cell = (masks[cell] << (cell * n)) & ~bit
            seen.append(same_digit | same_cell)
            own.append(bit)
            singles[cell * n + shift] = i
        else:
            common = -1
            bits = 0
            for cell in cells:
                common &= peer_bits[cell]
                bits |= 1 << (cell * n + shift)
            seen.append((common << shift) & everything)
            own.append(bits)
            by_digit.setdefault(digit, []).append(i)
    # Which candidates a weak link may reach: the same digit only for X- and XY-chains.
    digit_only = graph.kind != AIC
    weak = graph.weak
    for i in range(count):
        reach = seen[i]
        if digit_only and len(graph.cells[i]) == 1:
            reach &= ~(geo.full << (graph.cells[i][0] * n))  # not the other digits of the cell
        out = 0
        rest = reach
        while rest:
            low = rest & -rest
            rest ^= low
            j = singles.get(low.bit_length() - 1)
            if j is not None:
                out |= 1 << j
        for j in by_digit.get(graph.digits[i], ()):
            if own[j] & ~reach == 0:
                out |= 1 << j
        weak.append(out)
