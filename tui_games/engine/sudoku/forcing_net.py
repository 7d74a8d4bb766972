"""The forcing nets' machinery: a position as nodes and links, and the propagations that follow
an assumption through it (:mod:`.forcing` describes the techniques built on them).

A node is a candidate switched *on* or *off* (``(cell * n + digit) << 1 | on``). A
propagation (:class:`_Prop`) records every node it reaches and where each came from (its
parents, so that a conclusion counts the nodes it rests on): static chains follow the
position's strong links alone; dynamic nets play singles out in a copy of the position, (+)
nets pointing, box-line reductions and pairs too, and nested nets the candidates inner
chains refute (:func:`_stronger`). :class:`_Analysis` computes each of them once per position
for every finder; :func:`_refute` is the tree of (+) nets the nested finder falls back on.

Speed: a propagation works on copies of two flat lists of ints (candidate masks per cell,
places per unit and digit, both bit masks) and one dict of parents for the nodes it reaches;
the geometry's tables are precomputed once per shape. A (+) net goes on from where the plain
dynamic net of the same assumption stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

from tui_games.engine.sudoku.grid import Geometry
from tui_games.engine.sudoku.techniques import State

STATIC_DIGIT, STATIC_REGION, DYNAMIC, DYNAMIC_PLUS = 7.5, 8.0, 8.5, 9.0
#: Sudoku Explainer starts its static cell and unit forcing chains only from cells with three
#: candidates or more (a bivalue cell's are chains it found at 6.6-7.x already).
STATIC_LEAST = 3


def explainer_level(level: int) -> float:
    """Sudoku Explainer's base rating of a net of nesting ``level``: 8.5 + 0.5 per level. Its
    levels: 1 the (+) nets; 2 with forcing chains and cycles inside; 3 with multiple (cell and
    unit) forcing chains inside; 4 with dynamic forcing chains inside (and, when those fail,
    dynamic (+) ones: still level 4)."""
    return 8.5 + 0.5 * level


#: The nested nets that remove inside them the candidates whose own (+) net ends in a
#: contradiction: dynamic forcing chains nested in a net, Sudoku Explainer's level 4 (10.5).
NESTED = explainer_level(4)

#: Where an assumption comes from; ``OUTER``: a node an enclosing net implied (nested nets).
ROOT: tuple[int, ...] = ()
OUTER = -1
# A propagation's node -> where it came from: ROOT, OUTER, a parent node or parent nodes.
_Parents = dict[int, int | tuple[int, ...]]
# Nested nets: node -> (key of the inner chain that removed it, that chain's size).
_Weights = dict[int, tuple[int, int]]
# What an inner rule removes: (its chain's size, the chain's key, the off node, its parents in the net).
_Removal = tuple[int, int, int, tuple[int, ...]]
# The inner forcing chains a nested net found in a position: (the net's node count then, their removals).
_Chains = tuple[int, tuple[_Removal, ...]]

# Propagation levels, Sudoku Explainer's: 0 singles (dynamic), 1 singles + pointing, box-line and
# pairs (dynamic +); nested, level 1 plus the candidates that inner chains refute inside the net:
# 2 static forcing chains (a candidate whose chain leads to its own removal), 3 static multiple
# forcing chains (a candidate whose chain reaches any contradiction), 4 dynamic (+) nets (the
# hints': the first candidate whose (+) net contradicts); _NEST_SE: SE's level 4 as the grade
# takes it, every candidate plain dynamic forcing chains of every kind remove, all at once.
_SINGLES, _PLUS, _NEST_FC, _NEST_MFC, _NEST_DFC, _NEST_SE = 0, 1, 2, 3, 4, 5


_TABLES: dict[int, list[tuple[int, ...]]] = {}


def _bit_table(size: int) -> list[tuple[int, ...]]:
    """``table[mask]``: the indexes of the set bits of every mask of ``size`` bits."""
    table = _TABLES.get(size)
    if table is None:
        table = [()] * (1 << size)
        for mask in range(1, 1 << size):
            low = mask & -mask
            table[mask] = (low.bit_length() - 1, *table[mask ^ low])
        _TABLES[size] = table
    return table


@cache
def _tables(geo: Geometry) -> tuple[list[list[tuple[int, int]]], list[list[tuple[int, int, int, int]]]]:
    """Per cell, (unit, position bit) in each of its units; per unit, the (box, line, positions
    of the shared cells in the box, in the line) it is part of (for pointing and box-line)."""
    cell_units = [[(u, 1 << geo.units[u].index(c)) for u in geo.units_of[c]] for c in range(geo.size ** 2)]
    crossings_of: list[list[tuple[int, int, int, int]]] = [[] for _ in geo.units]
    for box, line, shared, _, _ in geo.intersections:
        crossing = (box, line, sum(1 << geo.units[box].index(c) for c in shared),
                    sum(1 << geo.units[line].index(c) for c in shared))
        crossings_of[box].append(crossing)
        crossings_of[line].append(crossing)
    return cell_units, crossings_of


_CONFINED: dict[Geometry, dict[int, tuple[tuple[int, int], ...]]] = {}


class _Net:
    """The position and the tables every propagation reads (one per position).

    Candidate ``i = cell * size + digit - 1``; node ``2 * i`` is "i off", ``2 * i + 1`` "i on".
    ``places[u * size + d - 1]`` is the mask of positions (in ``geo.units[u]``) where ``d``
    can go in unit ``u``."""

    def __init__(self, state: State) -> None:
        geo = state.geo
        n = self.n = geo.size
        self.geo = geo
        self.bits = _bit_table(n)
        self.values = list(state.values)
        masks = list(state.masks)
        for cell, v in enumerate(self.values):  # a filled cell's digit is no candidate of its peers
            if v:
                masks[cell] = 0
                keep = ~(1 << (v - 1))
                for p in geo.peers[cell]:
                    masks[p] &= keep
        self.masks = masks
        self.units = geo.units
        self.peers = geo.peers
        self.cell_units, self.crossings_of = _tables(geo)
        #: (unit << size | places) -> the (other unit, its positions shared) holding all the places
        self.confined: dict[int, tuple[tuple[int, int], ...]] = _CONFINED.setdefault(geo, {})
        places = [0] * (len(geo.units) * n)
        for u, unit in enumerate(geo.units):
            for pos, c in enumerate(unit):
                for d in self.bits[masks[c]]:
                    places[u * n + d] |= 1 << pos
        self.places = places
        self.candidates = [c * n + d for c in range(n * n) for d in self.bits[masks[c]]]
        self._weak: list[list[int]] | None = None
        self._strong: list[list[int]] | None = None

    def confine(self, u: int, places: int) -> tuple[tuple[int, int], ...]:
        """The units crossing ``u`` whose shared cells hold all of ``places`` (positions in
        ``u``), each with the shared cells' positions in it."""
        out = []
        for box, line, in_box, in_line in self.crossings_of[u]:
            if u == box and not places & ~in_box:
                out.append((line, in_line))
            elif u == line and not places & ~in_line:
                out.append((box, in_box))
        return tuple(out)

    # -- static links ------------------------------------------------------------------------

    def links(self) -> tuple[list[list[int]], list[list[int]]]:
        """Per candidate, the candidates it sees (weak links: on => off) and its conjugates in
        this position (strong links: off => on)."""
        if self._weak is None:
            n, masks, places, units = self.n, self.masks, self.places, self.units
            weak: list[list[int]] = [[] for _ in range(len(masks) * n)]
            strong: list[list[int]] = [[] for _ in range(len(masks) * n)]
            for i in self.candidates:
                c, d = divmod(i, n)
                bit = 1 << d
                m = masks[c]
                weak[i] = [c * n + e for e in self.bits[m & ~bit]] + [p * n + d for p in self.peers[c] if masks[p] & bit]
                if m.bit_count() == 2:
                    strong[i].append(c * n + (m & ~bit).bit_length() - 1)
                for u, pos in self.cell_units[c]:
                    rest = places[u * n + d] & ~pos
                    if rest and not rest & (rest - 1):
                        j = units[u][rest.bit_length() - 1] * n + d
                        if j not in strong[i]:
                            strong[i].append(j)
            self._weak, self._strong = weak, strong
        return self._weak, self._strong  # type: ignore[return-value]


class _Prop:
    """One propagation: ``par`` maps each node implied to where it came from (ROOT, OUTER, a
    parent node or a tuple of parent nodes), ``order`` lists the nodes in the order implied,
    ``conflict`` is the node found both on and off (its off node), or -1."""

    __slots__ = ("_index", "_nodes", "chains", "conflict", "masks", "order", "par", "places", "weights")

    def __init__(self, par: _Parents, order: list[int], conflict: int, masks: list[int] | None = None,
                 places: list[int] | None = None, weights: _Weights | None = None,
                 chains: _Chains | None = None) -> None:
        self.par, self.order, self.conflict = par, order, conflict
        #: The position the net reached (dynamic nets without a contradiction): where a
        #: stronger net goes on from.
        self.masks, self.places = masks, places
        #: Nested nets: each node an inner chain removed -> (that chain's key, its size); the
        #: candidates one chain removes at once share its key (SE counts a chain once).
        self.weights: _Weights = {} if weights is None else weights
        #: Nested nets of level 2: the inner forcing chains looked for last, in the position the
        #: net ended in (a level-3 net going on from there looks for them first: the same ones).
        self.chains = chains
        self._index: dict[int, int] | None = None
        self._nodes: set[int] | None = None

    @property
    def nodes(self) -> set[int]:
        if self._nodes is None:
            self._nodes = set(self.order)
        return self._nodes

    @property
    def index(self) -> dict[int, int]:
        """Each node's position in ``order``."""
        if self._index is None:
            self._index = {node: k for k, node in enumerate(self.order)}
        return self._index


def _chain(root: int, weak_of: Callable[[int], Sequence[int]], strong_of: Callable[[int], Sequence[int]],
           any_conflict: bool = True) -> _Prop:
    """A static propagation from ``root``: from an on node its weak links (the candidates
    ``weak_of`` gives go off), from an off node its strong links (``strong_of``'s go on), each
    node with one parent, the first that reached it. Its conflict (an off node): the root's
    opposite reached (a forcing chain: "on" removes itself, "off" places itself) or, with
    ``any_conflict``, any node reached both on and off (multiple forcing chains)."""
    par: _Parents = {root: ROOT}
    order = [root]
    head = 0
    while head < len(order):
        node = order[head]
        head += 1
        if node & 1:
            for j in weak_of(node >> 1):
                nd = j << 1
                if nd not in par:
                    par[nd] = node
                    order.append(nd)
                    if nd == root ^ 1 or (any_conflict and nd | 1 in par):
                        return _Prop(par, order, nd)
        else:
            for j in strong_of(node >> 1):
                nd = (j << 1) | 1
                if nd not in par:
                    par[nd] = node
                    order.append(nd)
                    if nd == root ^ 1 or (any_conflict and nd ^ 1 in par):
                        return _Prop(par, order, nd ^ 1)
    return _Prop(par, order, -1)


def _static(net: _Net, root: int) -> _Prop:
    """A static chain in the position itself, on its precomputed links."""
    weak, strong = net.links()
    return _chain(root, weak.__getitem__, strong.__getitem__)


def _dynamic(net: _Net, roots: Sequence[int], level: int, masks: list[int], places: list[int], par: _Parents,
             state: State, order: list[int] | None = None, chains: _Chains | None = None,
             weights: _Weights | None = None) -> _Prop:
    """Propagate ``roots`` in the position ``masks``/``places`` (copies this call owns) with
    ``par`` (this call's too: None, or OUTER for what an enclosing net already implied).
    With ``order``, go on from a weaker net that reached that position (see :func:`_stronger`),
    with ``chains``, the inner forcing chains that net found last, and ``weights``, the inner
    chains its nodes rest on (a copy this call owns)."""
    n, units, cell_units, bits = net.n, net.units, net.cell_units, net.bits
    masks0, places0 = net.masks, net.places
    if weights is None:
        weights = {}  # nested nets: see _Prop.weights
    if order is None:
        order = []
        for node in roots:
            par[node] = ROOT
            order.append(node)
            if node ^ 1 in par:
                return _Prop(par, order, node & ~1, weights=weights)
        head = 0
    else:
        head = len(order)
    since = 0  # where the (+) rules look next
    resume = 0  # where the nested scan goes on
    while True:
        while head < len(order):
            node = order[head]
            head += 1
            i = node >> 1
            c = i // n
            d = i - c * n
            bit = 1 << d
            if node & 1:  # on: the other candidates of the cell and the digit in the peers go
                rest = masks[c] & ~bit
                base = c * n
                while rest:
                    low = rest & -rest
                    rest ^= low
                    nd = (base + low.bit_length() - 1) << 1
                    if nd not in par:
                        par[nd] = node
                        order.append(nd)
                        if nd | 1 in par:
                            return _Prop(par, order, nd, weights=weights)
                for u, pos in cell_units[c]:
                    unit = units[u]
                    for j in bits[places[u * n + d] & ~pos]:
                        nd = (unit[j] * n + d) << 1
                        if nd not in par:
                            par[nd] = node
                            order.append(nd)
                            if nd | 1 in par:
                                return _Prop(par, order, nd, weights=weights)
            else:  # off: remove it, look for a naked single in the cell and hidden singles in its units
                m = masks[c]
                if not m & bit:
                    continue
                m ^= bit
                masks[c] = m
                if m and not m & (m - 1):
                    nd = ((c * n + m.bit_length() - 1) << 1) | 1
                    if nd not in par:
                        gone = masks0[c] & ~m
                        par[nd] = tuple((c * n + e) << 1 for e in bits[gone])
                        order.append(nd)
                        if nd ^ 1 in par:
                            return _Prop(par, order, nd ^ 1, weights=weights)
                for u, pos in cell_units[c]:
                    k = u * n + d
                    pl = places[k] & ~pos
                    places[k] = pl
                    if pl and not pl & (pl - 1):
                        unit = units[u]
                        nd = ((unit[pl.bit_length() - 1] * n + d) << 1) | 1
                        if nd not in par:
                            par[nd] = tuple((unit[j] * n + d) << 1 for j in bits[places0[k] & ~pl])
                            order.append(nd)
                            if nd ^ 1 in par:
                                return _Prop(par, order, nd ^ 1, weights=weights)
        if level < _PLUS:
            break
        found = _plus_rules(net, masks, places, par, order, since)
        if not found:  # else look again from the same place: the kinds after the one that fired
            since = len(order)
        if found < 0:
            return _Prop(par, order, ~found, weights=weights)
        if found:
            continue
        if level < 2:
            break
        if level < _NEST_DFC:
            found, chains = _static_rules(net, level == _NEST_MFC, masks, places, par, order, state, weights,
                                          chains)
        elif level == _NEST_SE:
            found = _add_removals(_dynamic_removals(net, masks, places, par, state, len(order) << 24), par, order,
                                  weights)
            if not found:  # as SE's level-4 nets with (+) chains inside, when the plain ones find nothing
                found, resume = _nested_rules(net, _PLUS, masks, places, par, order, resume, state, weights)
        else:
            found, resume = _nested_rules(net, _PLUS, masks, places, par, order, resume, state, weights)
        if found < 0:
            return _Prop(par, order, ~found, weights=weights)
        if not found:
            break
    return _Prop(par, order, -1, masks, places, weights, chains)


def _stronger(net: _Net, prop: _Prop, level: int, state: State) -> _Prop:
    """The net of ``level`` from the same assumption as the weaker net ``prop``: the weaker
    net is where the stronger one would be once its own rules run out, so it goes on from
    there (the same contradiction if the weaker net found one), its inner chains' sizes
    included: a level-3 net of Sudoku Explainer tries the forcing chains of level 2 first, so
    the nodes they removed rest on them there too, and count them."""
    if prop.conflict >= 0 or prop.masks is None or prop.places is None:
        return prop
    return _dynamic(net, (), level, list(prop.masks), list(prop.places), dict(prop.par), state, list(prop.order),
                    prop.chains, dict(prop.weights))


def _imply_off(par: _Parents, order: list[int], nd: int, parents: tuple[int, ...]) -> int:
    """Add "off" node ``nd``; 1 if new, 0 if known, ``~nd`` on a contradiction."""
    if nd in par:
        return 0
    par[nd] = parents
    order.append(nd)
    if nd | 1 in par:
        return ~nd
    return 1


def _plus_rules(net: _Net, masks: list[int], places: list[int], par: _Parents, order: list[int], since: int) -> int:
    """Pointing and box-line reduction, failing those hidden pairs, failing those naked pairs
    on the net's position: Sudoku Explainer's rules inside a (+) net, in its order, each only
    when the ones before it remove nothing (and only once the singles have run out, which
    decides the parents a node records, and so a net's size). Looked for only where the
    nodes ``order[since:]`` removed candidates (the rest was looked at before, or is the
    position's own, where the easier techniques found nothing). Returns the number of nodes
    added, or ``~node`` on a contradiction."""
    n, units, masks0, places0, cell_units, bits = net.n, net.units, net.masks, net.places, net.cell_units, net.bits
    touched: dict[int, None] = {}  # u * n + d, in order
    cells: dict[int, None] = {}
    for k in range(since, len(order)):
        node = order[k]
        if node & 1:
            continue
        c, d = divmod(node >> 1, n)
        cells[c] = None
        for u, _ in cell_units[c]:
            touched[u * n + d] = None
    added = 0
    confined = net.confined
    shift = n
    for k in touched:  # pointing and box-line: the digit's places in a unit, all in another
        pl = places[k]
        if not pl or not pl & (pl - 1):
            continue
        u, d = divmod(k, n)
        key = (u << shift) | pl
        others = confined.get(key)
        if others is None:
            others = confined[key] = net.confine(u, pl)
        for target, inside in others:
            rest = places[target * n + d] & ~inside
            if not rest:
                continue
            parents = tuple((units[u][j] * n + d) << 1 for j in bits[places0[k] & ~pl])
            for j in bits[rest]:
                r = _imply_off(par, order, (units[target][j] * n + d) << 1, parents)
                if r < 0:
                    return r
                added += r
    if added:
        return added
    for k in touched:  # hidden pairs with a digit just down to two places
        pl = places[k]
        if pl.bit_count() != 2:
            continue
        u, d = divmod(k, n)
        unit = units[u]
        for e in range(n):
            if e == d or places[u * n + e] != pl:
                continue
            keep = (1 << d) | (1 << e)
            parents = tuple((unit[j] * n + f) << 1 for f in (d, e) for j in bits[places0[u * n + f] & ~pl])
            for j in bits[pl]:
                x = unit[j]
                for f in bits[masks[x] & ~keep]:
                    r = _imply_off(par, order, (x * n + f) << 1, parents)
                    if r < 0:
                        return r
                    added += r
    if added:
        return added
    for c in cells:  # naked pairs with a cell that just became bivalue
        m = masks[c]
        if m.bit_count() != 2 or ((c * n + m.bit_length() - 1) << 1) | 1 in par:
            continue
        for u, _ in cell_units[c]:
            unit = units[u]
            for other in unit:
                if other == c or masks[other] != m:
                    continue
                parents = tuple((x * n + e) << 1 for x in (other, c) for e in bits[masks0[x] & ~m])
                for x in unit:
                    if x != c and x != other and masks[x] & m:
                        for e in bits[masks[x] & m]:
                            r = _imply_off(par, order, (x * n + e) << 1, parents)
                            if r < 0:
                                return r
                            added += r
    return added


def _outer_parents(par: _Parents, nodes: Sequence[int]) -> tuple[int, ...]:
    """The nodes of the enclosing net (marked OUTER) that an inner net's ``nodes`` rest on."""
    seen = set(nodes)
    stack = list(nodes)
    out = []
    while stack:
        node = stack.pop()
        p = par.get(node)
        if isinstance(p, tuple):
            for q in p:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        elif p == OUTER:
            out.append(node)
        elif p is not None and p not in seen:
            seen.add(p)
            stack.append(p)
    return tuple(sorted(out))


def _nested_rules(net: _Net, inner: int, masks: list[int], places: list[int], par: _Parents, order: list[int],
                  resume: int, state: State, weights: _Weights) -> tuple[int, int]:
    """Remove the first candidate (from ``resume`` on, round the board) whose net of level
    ``inner`` ends in a contradiction. Returns (1 or 0 or ``~node``, where to resume)."""
    n = net.n
    template = dict.fromkeys(par, OUTER)
    cands = [c * n + d for c in range(len(masks)) for d in net.bits[masks[c]]
             if masks[c] & (masks[c] - 1)]
    if not cands:
        return 0, resume
    start = 0
    while start < len(cands) and cands[start] < resume:
        start += 1
    for k in range(len(cands)):
        i = cands[(start + k) % len(cands)]
        state.check_stop()
        on = (i << 1) | 1
        if on in par or on ^ 1 in par:
            continue
        sub = _dynamic(net, (on,), inner, list(masks), list(places), dict(template), state)
        if sub.conflict >= 0:
            parents = _outer_parents(sub.par, (sub.conflict, sub.conflict | 1))
            r = _imply_off(par, order, i << 1, parents)
            weights[i << 1] = (i << 1, _size(sub, (sub.conflict, sub.conflict | 1), inner=True))
            return r, i + 1
    return 0, resume


def _links_in(net: _Net, masks: list[int], places: list[int]) -> tuple[list[list[int]], list[list[int]]]:
    """Per candidate of a net's position ``masks``/``places``, the candidates it sees (weak
    links) and its conjugates there (strong links: the other candidate of a bivalue cell, the
    other place of a digit with two places in a unit), in the order the chains follow them
    (the cell's, then each unit's). Computed once for every chain in that position (a chain
    visits the same candidates again and again)."""
    n, units, cell_units, bits = net.n, net.units, net.cell_units, net.bits
    size = len(masks) * n
    weak: list[list[int]] = [[]] * size
    strong: list[list[int]] = [[]] * size
    for c, m in enumerate(masks):
        if not m:
            continue
        base = c * n
        for d in bits[m]:
            i = base + d
            other = m & ~(1 << d)
            targets = [base + e for e in bits[other]]
            conj = [base + other.bit_length() - 1] if other and not other & (other - 1) else []
            for u, pos in cell_units[c]:
                unit = units[u]
                rest = places[u * n + d] & ~pos
                targets += [unit[j] * n + d for j in bits[rest]]
                if rest and not rest & (rest - 1):
                    conj.append(unit[rest.bit_length() - 1] * n + d)
            weak[i], strong[i] = targets, conj
    return weak, strong


def _static_in(net: _Net, root: int, masks: list[int], places: list[int], any_conflict: bool,
               links: tuple[list[list[int]], list[list[int]]] | None = None) -> _Prop:
    """A static chain from ``root`` in a net's position ``masks``/``places``: the links
    are that position's (a bivalue cell, a digit with two places in a unit); ``links``:
    :func:`_links_in` of that position, if computed already."""
    weak, strong = links if links is not None else _links_in(net, masks, places)
    return _chain(root, weak.__getitem__, strong.__getitem__, any_conflict)


def _self_conflicts(weak: list[list[int]], strong: list[list[int]], roots: Sequence[int]) -> set[int]:
    """The ``roots`` whose static chain reaches their opposite (a forcing chain: "on" removes
    itself, "off" places itself), without building each chain: a chain that does not reach
    it goes through every node it can reach, so the question is one of reachability in the
    graph of links, answered for every root at once by its strongly connected components
    (Tarjan's, iterative) and, per component, the set of components it reaches (a bit mask).
    The chains of the roots found are built afterwards, as before, for their parents."""
    succs: dict[int, list[int]] = {}

    def succ(node: int) -> list[int]:
        out = succs.get(node)
        if out is None:
            if node & 1:
                out = succs[node] = [j << 1 for j in weak[node >> 1]]
            else:
                out = succs[node] = [(j << 1) | 1 for j in strong[node >> 1]]
        return out

    index: dict[int, int] = {}
    low: dict[int, int] = {}
    comp: dict[int, int] = {}
    reach: list[int] = []  # per component (numbered sinks first): the components it reaches
    stack: list[int] = []
    on_stack: set[int] = set()
    for root in roots:
        if root in index:
            continue
        work = [(root, iter(succ(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ(nxt))))
                    break
                if nxt in on_stack and index[nxt] < low[node]:
                    low[node] = index[nxt]
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    if low[node] < low[parent]:
                        low[parent] = low[node]
                if low[node] == index[node]:
                    k = len(reach)
                    members = []
                    while True:
                        x = stack.pop()
                        on_stack.discard(x)
                        comp[x] = k
                        members.append(x)
                        if x == node:
                            break
                    mask = 1 << k
                    for x in members:
                        for y in succs[x]:
                            if comp[y] != k:  # every successor's component is numbered already
                                mask |= reach[comp[y]]
                    reach.append(mask)
    found = set()
    for root in roots:
        other = comp.get(root ^ 1)
        if other is not None and reach[comp[root]] >> other & 1:
            found.add(root)
    return found


def _strong_parents(net: _Net, inner: _Prop, ends: Sequence[int], masks: list[int], places: list[int],
                    par: _Parents) -> tuple[int, ...]:
    """The enclosing net's off nodes that made the strong links of a static inner chain: the
    candidates it removed from a cell or unit the chain takes as a conjugate pair (the chain
    rests on them, as Sudoku Explainer's nested hints rest on their rule parents)."""
    n, bits = net.n, net.bits
    out: set[int] = set()
    for node in _ancestors(inner.par, ends):
        p = inner.par.get(node)
        if not node & 1 or not isinstance(p, int) or p < 0:
            continue
        (c, d), pc = divmod(node >> 1, n), (p >> 1) // n
        if c == pc:
            gone = [(c * n + e) << 1 for e in bits[net.masks[c] & ~masks[c]]]
        else:
            gone = []
            for u, _ in net.cell_units[c]:
                k = u * n + d
                if pc in net.units[u] and places[k].bit_count() == 2:
                    gone = [(net.units[u][j] * n + d) << 1 for j in bits[net.places[k] & ~places[k]]]
                    break
        out.update(x for x in gone if x in par)
    return tuple(sorted(out))


def _static_rules(net: _Net, multiple: bool, masks: list[int], places: list[int], par: _Parents, order: list[int],
                  state: State, weights: _Weights, chains: _Chains | None) -> tuple[int, _Chains]:
    """Sudoku Explainer's inner rules of nesting levels 2 and 3, on the net's position: every
    candidate a static forcing chain removes (level 2; at level 3 first), failing those, with
    ``multiple`` (level 3), every one that static cell or unit forcing chains remove. As SE
    does, all of them at once, each resting on the smallest chain that removes it, smallest
    first. ``chains``: the forcing chains found last in this net, (the net's node count then,
    their removals): the same position if no node was added since. Returns (how many nodes were
    added, or ``~node`` on a contradiction; the forcing chains found here)."""
    call = len(order) << 24  # the chains' keys: unique in this net (weights)
    if chains is not None and chains[0] == len(order):
        found = list(chains[1])
    else:
        found = _chain_removals(net, masks, places, par, state, call)
    chains = (len(order), tuple(found))
    if not found and multiple:
        found = _verity_removals(net, masks, places, par, state, call | 1 << 23)
    return _add_removals(found, par, order, weights), chains


def _add_removals(found: list[_Removal], par: _Parents, order: list[int], weights: _Weights) -> int:
    """Add an inner rule's removals to the net, all at once, smallest chain first (each node on
    the smallest chain that removes it). Returns how many were new, or ``~node`` on a contradiction."""
    found.sort(key=lambda f: f[0])
    added = 0
    for size, key, node, parents in found:
        r = _imply_off(par, order, node, parents)
        if r < 0:
            return r
        if r:
            weights[node] = (key, size)
            added += 1
    return added


def _open(net: _Net, masks: list[int], par: _Parents) -> list[int]:
    """The candidates of the net's position in cells of 2+ candidates that the net has not decided."""
    n = net.n
    return [c * n + d for c in range(len(masks)) if masks[c] & (masks[c] - 1) for d in net.bits[masks[c]]
            if ((c * n + d) << 1) not in par and ((c * n + d) << 1 | 1) not in par]


def _chain_removals(net: _Net, masks: list[int], places: list[int], par: _Parents, state: State,
                    call: int) -> list[_Removal]:
    """Static forcing chains in the net's position: a candidate whose chain from "on" removes
    it goes; one whose chain from "off" places it takes its cell (the cell's other candidates
    go). Only chains that rest on the net's removals count (the others are the position's own,
    where the easier techniques found nothing)."""
    n = net.n
    out: list[_Removal] = []
    links = _links_in(net, masks, places)
    opens = _open(net, masks, par)
    state.check_stop()
    hits = _self_conflicts(*links, [root for i in opens for root in ((i << 1) | 1, i << 1)])
    for k, i in enumerate(opens):
        if not k & 31:
            state.check_stop()
        for root in ((i << 1) | 1, i << 1):
            if root not in hits:
                continue  # its chain would not reach its opposite
            sub = _static_in(net, root, masks, places, False, links)
            if sub.conflict < 0:
                continue
            end = root ^ 1
            parents = _strong_parents(net, sub, (end,), masks, places, par)
            if not parents:
                continue
            size = len(_ancestors(sub.par, (end,)))
            if root & 1:
                out.append((size, call | root, i << 1, parents))
            else:
                c, d = divmod(i, n)
                out += [(size, call | root, (c * n + e) << 1, parents) for e in net.bits[masks[c] & ~(1 << d)]]
    return out


def _verity_removals(net: _Net, masks: list[int], places: list[int], par: _Parents, state: State,
                     call: int) -> list[_Removal]:
    """Static cell and unit forcing chains in the net's position (SE's static multiple forcing
    chains: cells of 3+ candidates; every place of a digit in a unit whose first place is such
    a cell): a candidate that every case removes goes. Each case's chain stops at a
    contradiction, as SE's do; a contradiction itself proves nothing here (SE's static
    multiple chains look for none)."""
    props: dict[int, _Prop] = {}

    links = _links_in(net, masks, places)

    def prop(i: int) -> _Prop:
        if i not in props:
            props[i] = _static_in(net, (i << 1) | 1, masks, places, True, links)
        return props[i]

    groups = _verity_groups(net, masks, places, STATIC_LEAST)
    out: list[_Removal] = []
    for k, (group, given) in enumerate(groups):
        if not k & 7:
            state.check_stop()
        if any(((i << 1) | 1) in par or (i << 1) in par for i in group):
            continue
        common = {x for x in prop(group[0]).par if not x & 1 and x not in par}
        for i in group[1:]:
            common &= prop(i).par.keys()
            if not common:
                break
        for nd in sorted(common):
            if nd >> 1 in group:
                continue
            parents: set[int] = {x for x in given if x in par}
            size = 0
            for i in group:
                sub = props[i]
                parents.update(_strong_parents(net, sub, (nd,), masks, places, par))
                size += len(_ancestors(sub.par, (nd,)))
            if parents:
                out.append((size, call | k, nd, tuple(sorted(parents))))
    return out


def _verity_groups(net: _Net, masks: list[int], places: list[int], least: int) -> list[tuple[list[int], list[int]]]:
    """The cases of SE's cell and unit forcing chains in a net's position: every candidate of a
    cell of ``least`` candidates or more, every place of a digit in a unit (2+ places) whose
    first place is such a cell. Each with the off nodes of the cases the net took away (the
    cell's candidates, the digit's places in the unit, removed since the position): a verity
    over the cases left rests on them, as SE's rule parents of a cell or region chaining hint
    take the cell's or region's removed candidates."""
    n, bits = net.n, net.bits
    groups: list[tuple[list[int], list[int]]] = []
    for c, m in enumerate(masks):
        if m.bit_count() >= least:
            groups.append(([c * n + d for d in bits[m]], [(c * n + e) << 1 for e in bits[net.masks[c] & ~m]]))
    for u, unit in enumerate(net.units):
        for d in range(n):
            k = u * n + d
            pl = places[k]
            if pl & (pl - 1) and masks[unit[(pl & -pl).bit_length() - 1]].bit_count() >= least:
                groups.append(([unit[j] * n + d for j in bits[pl]],
                               [(unit[j] * n + d) << 1 for j in bits[net.places[k] & ~pl]]))
    return groups


def _dynamic_removals(net: _Net, masks: list[int], places: list[int], par: _Parents, state: State,
                      call: int) -> list[_Removal]:
    """Sudoku Explainer's inner rule of nesting level 4: plain dynamic forcing chains of every
    kind in the net's position, all their removals at once. From each open candidate, its net
    (singles only) from "on" and from "off": a contradiction from "on" removes it, from "off"
    places it (its cell's other candidates go); a candidate both nets remove goes (double
    implication, cells of 3+ candidates); so does one that the "on" nets of every candidate of a
    cell, or of every place of a digit in a unit, remove (cell and unit forcing chains). Only
    removals that rest on the net's own removals count (the others are the position's own)."""
    n, bits = net.n, net.bits
    template = dict.fromkeys(par, OUTER)
    opens = _open(net, masks, par)
    props: dict[int, _Prop] = {}

    def prop(root: int) -> _Prop:
        sub = props.get(root)
        if sub is None:
            sub = props[root] = _dynamic(net, (root,), _SINGLES, list(masks), list(places), dict(template), state)
        return sub

    gone: dict[int, set[int]] = {}

    def removed(root: int) -> set[int]:
        out = gone.get(root)
        if out is None:
            out = gone[root] = {x for x in prop(root).order if not x & 1}  # order: the inner net's own nodes
        return out

    out: list[_Removal] = []

    def add(key: int, nodes: Sequence[int], branches: Sequence[tuple[_Prop, Sequence[int]]],
            given: Sequence[int] = ()) -> None:
        parents: set[int] = {x for x in given if x in par}
        size = 0
        for sub, ends in branches:
            for end in ends:  # _size(inner=True) and _outer_parents in one walk (an inner net has no weights)
                size += _inner_walk(sub.par, end, parents)
        if parents:
            out.extend((size, call | key, node, tuple(sorted(parents))) for node in nodes)

    for k, i in enumerate(opens):
        if not k & 15:
            state.check_stop()
        c, d = divmod(i, n)
        on, off = prop((i << 1) | 1), prop(i << 1)
        if on.conflict >= 0:
            add((i << 1) | 1, (i << 1,), ((on, (on.conflict, on.conflict | 1)),))
        if off.conflict >= 0:
            add(i << 1, [(c * n + e) << 1 for e in bits[masks[c] & ~(1 << d)]],
                ((off, (off.conflict, off.conflict | 1)),))
        if on.conflict < 0 and off.conflict < 0 and masks[c].bit_count() >= 3:
            for nd in sorted(removed((i << 1) | 1) & removed(i << 1)):
                add((i << 1) | 1 | 1 << 22, (nd,), ((on, (nd,)), (off, (nd,))))
    for k, (group, given) in enumerate(_verity_groups(net, masks, places, 2)):
        if not k & 15:
            state.check_stop()
        if any(((i << 1) | 1) in par or (i << 1) in par for i in group):
            continue
        common = set(removed((group[0] << 1) | 1))
        for i in group[1:]:
            common &= removed((i << 1) | 1)
            if not common:
                break
        for nd in sorted(common):
            if nd >> 1 not in group:
                add(k | 1 << 21, (nd,), [(props[(i << 1) | 1], (nd,)) for i in group], given)
    return out


def _inner_walk(par: _Parents, end: int, outer: set[int]) -> int:
    """The nodes an inner net's ``end`` rests on that the inner net implied (counted), and
    those of the enclosing net it rests on (added to ``outer``)."""
    seen = {end}
    stack = [end]
    count = 0
    while stack:
        node = stack.pop()
        p = par.get(node)
        if p == OUTER:
            outer.add(node)
            continue
        count += 1
        if isinstance(p, tuple):
            for q in p:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        elif p is not None and p >= 0 and p not in seen:
            seen.add(p)
            stack.append(p)
    return count




def _ancestors(par: _Parents, nodes: Sequence[int]) -> set[int]:
    seen = set(nodes)
    stack = list(nodes)
    while stack:
        p = par.get(stack.pop())
        if isinstance(p, tuple):
            for q in p:
                if q not in seen:
                    seen.add(q)
                    stack.append(q)
        elif p is not None and p >= 0 and p not in seen:
            seen.add(p)
            stack.append(p)
    return seen


def _size(prop: _Prop, ends: Sequence[int], inner: bool = False) -> int:
    """Sudoku Explainer's complexity: the nodes each end rests on (counted for each end), plus,
    once each, the sizes of the inner chains of nested nets behind them (SE adds each nested
    chain once, however many ends or removals rest on it); an inner net counts only its own
    nodes."""
    par, weights = prop.par, prop.weights
    total = 0
    behind: dict[int, int] = {}
    for end in ends:
        for node in _ancestors(par, (end,)):
            if not inner or par.get(node) != OUTER:
                total += 1
                if node in weights:
                    key, size = weights[node]
                    behind[key] = size
    return total + sum(behind.values())




class _Analysis:
    """The nets of one position, computed when a finder first needs them."""

    def __init__(self, state: State) -> None:
        self.net = _Net(state)
        self.static: dict[int, _Prop] = {}
        self.dynamic: dict[int, dict[int, _Prop]] = {}
        self._solution: list[int] | None | bool = False

    def solution(self, state: State) -> list[int] | None:
        """The position's digit per cell if it has exactly one solution, else None."""
        if self._solution is False:
            net = self.net
            start = _dynamic(net, (), _SINGLES, list(net.masks), list(net.places), {}, state, [])
            found: list[list[int]] = []
            if start.conflict < 0:
                _solutions(net, start, state, found)
            self._solution = None
            if len(found) == 1:
                self._solution = [v or found[0][c].bit_length() for c, v in enumerate(net.values)]
        return self._solution  # type: ignore[return-value]

    def static_all(self, state: State) -> dict[int, _Prop]:
        if not self.static:
            net = self.net
            out = {}
            for k, i in enumerate(self.net.candidates):
                if not k & 15:
                    state.check_stop()
                out[(i << 1) | 1] = _static(net, (i << 1) | 1)
                out[i << 1] = _static(net, i << 1)
            self.static = out
        return self.static

    def dynamic_all(self, state: State, level: int) -> dict[int, _Prop]:
        if level not in self.dynamic:
            net = self.net
            out = {}
            weaker = self.dynamic.get(level - 1)
            for k, i in enumerate(net.candidates):
                if not k & 7:
                    state.check_stop()
                for root in ((i << 1) | 1, i << 1):
                    if weaker is not None:
                        out[root] = _stronger(net, weaker[root], level, state)
                    else:
                        out[root] = _dynamic(net, (root,), level, list(net.masks), list(net.places), {}, state)
            self.dynamic[level] = out
        return self.dynamic[level]


_LOCK = threading.Lock()
# [the position's key, its analysis]
_LAST: list[Any] = [None, None]


def _analysis(state: State) -> _Analysis:
    key = (state.geo, tuple(state.values), tuple(state.masks))
    with _LOCK:
        if _LAST[0] == key:
            return cast(_Analysis, _LAST[1])
    analysis = _Analysis(state)
    with _LOCK:
        _LAST[0], _LAST[1] = key, analysis
    return analysis


def _unsolvable(state: State) -> bool:
    return state.solved() or state.contradiction() is not None




def _nishio(net: _Net, root: int) -> _Prop:
    """Sudoku Explainer's nishio: "digit d at cell c" followed on d alone, dynamically -- d
    leaves the cells the placements see, and a unit left with one place for d places it there
    (its parents: the nodes that took the other places)."""
    n, units, cell_units, bits = net.n, net.units, net.cell_units, net.bits
    d = (root >> 1) % n
    places0 = net.places
    places = {u: places0[u * n + d] for u in range(len(units))}
    par: _Parents = {root: ROOT}
    order = [root]
    head = 0
    while head < len(order):
        node = order[head]
        head += 1
        c = (node >> 1) // n
        if node & 1:  # on: d goes from the cell's peers
            for u, pos in cell_units[c]:
                for j in bits[places[u] & ~pos]:
                    nd = (units[u][j] * n + d) << 1
                    if nd not in par:
                        par[nd] = node
                        order.append(nd)
                        if nd | 1 in par:
                            return _Prop(par, order, nd)
        else:  # off: the cell's units lose a place; one left is a hidden single
            for u, pos in cell_units[c]:
                pl = places[u] & ~pos
                if pl == places[u]:
                    continue
                places[u] = pl
                if pl and not pl & (pl - 1):
                    nd = ((units[u][pl.bit_length() - 1] * n + d) << 1) | 1
                    if nd not in par:
                        par[nd] = tuple((units[u][j] * n + d) << 1 for j in bits[places0[u * n + d] & ~pl])
                        order.append(nd)
                        if nd ^ 1 in par:
                            return _Prop(par, order, nd ^ 1)
    return _Prop(par, order, -1)


def _branch_cell(masks: list[int]) -> int:
    """The open cell with the fewest candidates (-1 if every cell is settled)."""
    best, fewest = -1, 1 << 30
    for c, m in enumerate(masks):
        if m & (m - 1):
            k = m.bit_count()
            if k < fewest:
                best, fewest = c, k
                if k == 2:
                    break
    return best


def _complete(net: _Net, masks: list[int]) -> bool:
    """Whether settled ``masks`` fill every unit with every digit."""
    values, full = net.values, net.geo.full
    for unit in net.units:
        seen = 0
        for c in unit:
            seen |= masks[c] or 1 << (values[c] - 1)
        if seen != full:
            return False
    return True


def _solutions(net: _Net, prop: _Prop, state: State, found: list[list[int]], limit: int = 2) -> None:
    """Depth-first search under the net ``prop`` (singles played out at each node): append the
    solutions' masks to ``found``, up to ``limit``."""
    masks = prop.masks
    assert masks is not None and prop.places is not None
    cell = _branch_cell(masks)
    if cell < 0:
        if _complete(net, masks):
            found.append(list(masks))
        return
    n = net.n
    for d in net.bits[masks[cell]]:
        state.check_stop()
        child = _dynamic(net, (((cell * n + d) << 1) | 1,), _SINGLES, list(masks), list(prop.places),
                         dict(prop.par), state)
        if child.conflict < 0:
            _solutions(net, child, state, found, limit)
            if len(found) >= limit:
                return


def _refute(net: _Net, prop: _Prop, state: State, depth: int = 1) -> int | None:
    """The depth of a tree of (+) nets under ``prop``, branching on a cell's candidates at
    each level, whose every leaf is a contradiction; None if some branch does not fail."""
    masks = prop.masks
    assert masks is not None and prop.places is not None
    cell = _branch_cell(masks)
    if cell < 0:
        return None if _complete(net, masks) else depth
    n = net.n
    deepest = depth
    for d in net.bits[masks[cell]]:
        state.check_stop()
        child = _dynamic(net, (((cell * n + d) << 1) | 1,), _PLUS, list(masks), list(prop.places), dict(prop.par),
                         state)
        if child.conflict >= 0:
            continue
        below = _refute(net, child, state, depth + 1)
        if below is None:
            return None
        deepest = max(deepest, below)
    return deepest
