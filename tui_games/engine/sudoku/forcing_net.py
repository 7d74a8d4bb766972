"""Forcing chains, dynamic forcing chains and nested forcing nets: the techniques of last resort.

Every one of them assumes something about a candidate ("r1c2 is 4", or "r1c2 is not 4") and
follows what it implies, node by node. A node is a candidate switched *on* (the cell holds
that digit) or *off* (it does not). "A on => B off" is a weak link (``-`` in Eureka
notation), "A off => B on" a strong one (``=``). What the assumptions prove:

- a **contradiction** -- the same candidate ends up both on and off -- proves the assumption
  false (an "on" assumption: the candidate goes; an "off" one: it is placed);
- a **verity** -- the same node reached from every case of something that must hold -- proves
  the node: both "x on" and "x off" (double implication), every candidate of a cell (cell
  forcing chain), every place of a digit in a unit (unit forcing chain).

Four strengths of propagation, as in Sudoku Explainer:

- *static* forcing chains follow only the strong links of the position itself (bivalue cells,
  digits with two places in a unit): a chain of singles where no candidate removed by the
  chain itself counts (digit forcing chain 7.5, cell and unit forcing chains 8.2);
- *dynamic* forcing chains play the singles out in a copy of the position, so a cell whose
  other candidates the chain removed becomes a naked single, a unit likewise a hidden single
  (8.5); each node remembers every node it came from, so what the rating counts is the net;
- *dynamic (+)* also applies pointing and box-line reduction, failing those hidden pairs,
  failing those naked pairs inside the net, once the singles run out, as SE does (9.0);
- *nested* forcing nets also remove, inside the net, the candidates an inner chain refutes,
  Sudoku Explainer's nesting levels (8.5 + 0.5 a level, :func:`explainer_level`): level 2
  (9.5) the candidates static forcing chains remove (a chain from "on" that removes its
  candidate, or from "off" that places it), all at once, each on its smallest chain, as SE
  adds every hint of its inner rule; level 3 (10.0) those first, failing them the candidates
  static cell and unit forcing chains remove (a level-3 net goes on from its level-2 net,
  counting the chains that one rests on); level 4 (10.5), a net of its own from the (+) net:
  for the grade, as SE's, every candidate plain dynamic forcing chains of every kind remove
  (contradictions, double implications, cell and unit verities), all at once, failing those
  the first whose own (+) net ends in a contradiction; for the hints, that last rule alone.
  The grade tries the levels in that order, as SE does, every false candidate at each; the hints go to
  level 4 at once and take the smallest of its first few refutations (quicker, and it
  refutes a false candidate of every puzzle in the shared sets, the forum's hardest included);
  should it not, a tree of (+) nets branching on one cell's candidates after another does
  (rated by the tree's depth). A false candidate always fails that way, since the tree is an
  exhaustive search, so on a puzzle with one solution the nested nets always find a step.
  They look only on positions with one solution (a quick search says so) and only at the
  candidates it rules out.

The rating is the base rating plus :func:`~.techniques.length_rating` of the number of nodes
the conclusion rests on (summed over the branches of a verity; a nested net adds each inner
chain's own nodes once, as SE adds each nested chain once), and the finders yield the
smallest nets first (the hints' nested nets: the smallest of the first few found). Each search is
computed once per position and shared by the finders (the stepper tries them one after the
other on the same position).

Speed: a propagation works on copies of two flat lists of ints (candidate masks per cell,
places per unit and digit, both bit masks) and one dict of parents for the nodes it reaches;
the geometry's tables are precomputed once per shape. A (+) net goes on from where the plain
dynamic net of the same assumption stopped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any, cast

from tui_games.engine.sudoku.grid import Geometry, bit_indexes, cell_name, digit_char
from tui_games.engine.sudoku.levels import DIABOLICAL, NIGHTMARE
from tui_games.engine.sudoku.techniques import Link, State, Step, length_rating

__all__ = [
    "cell_forcing_chains", "digit_forcing_chains", "dynamic_forcing_chains", "dynamic_forcing_chains_plus",
    "explainer_cell_forcing_chains", "explainer_nested_forcing_nets", "explainer_unit_forcing_chains",
    "nested_forcing_nets", "nishio_forcing_chains", "unit_forcing_chains",
]

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


# -- reading a net ---------------------------------------------------------------------------------


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


def _path(prop: _Prop, node: int, index: dict[int, int]) -> list[int]:
    """The main line from the assumption to ``node``: at each node, the parent implied last
    (the one that triggered it)."""
    path = [node]
    par = prop.par
    while True:
        p = par.get(node)
        if isinstance(p, tuple):
            if not p:
                break
            node = max(p, key=lambda q: index.get(q, -1))
        elif p is None or p < 0:
            break
        else:
            node = p
        if node in path:
            break
        path.append(node)
    path.reverse()
    return path


class _Reader:
    """Names nodes and writes chains for one position."""

    def __init__(self, net: _Net) -> None:
        self.n = net.n

    def cd(self, node: int) -> tuple[int, int]:
        c, d = divmod(node >> 1, self.n)
        return c, d + 1

    def said(self, node: int, would: bool = True) -> str:
        """``r1c2 would be 4`` / ``r1c2 would not be 4`` (``is`` when not ``would``)."""
        c, d = self.cd(node)
        verb = "would be" if would else "is"
        if not node & 1:
            verb = "would not be" if would else "is not"
        return f"{cell_name(c, self.n)} {verb} {digit_char(d)}"

    def eureka(self, path: Sequence[int]) -> str:
        """``(4)r1c2-(4=6)r1c7-(6)r5c7``: "-" into an off node (weak link), "=" from an off
        node into an on one (strong); an off node followed by an on one in the same cell is
        written ``(a=b)cell``. A chain from an "off" assumption starts with "=" (Eureka's way:
        ``(4)r1c2=...`` reads "if r1c2 is not 4, ...")."""
        out: list[str] = []
        k = 0
        while k < len(path):
            node = path[k]
            c, d = self.cd(node)
            link = "" if not k else "=" if node & 1 and not path[k - 1] & 1 else "-"
            nxt = path[k + 1] if k + 1 < len(path) else -1
            if not node & 1 and nxt >= 0 and nxt & 1 and self.cd(nxt)[0] == c:
                out.append(f"{link}({digit_char(d)}={digit_char(self.cd(nxt)[1])}){cell_name(c, self.n)}")
                k += 2
            else:
                out.append(f"{link}({digit_char(d)}){cell_name(c, self.n)}")
                k += 1
        return "".join(out)

    def links(self, path: Sequence[int]) -> list[Link]:
        out = []
        for a, b in zip(path, path[1:]):
            ca, da = self.cd(a)
            cb, db = self.cd(b)
            out.append(Link((ca,), da, (cb,), db, bool(b & 1 and not a & 1)))
        return out

    def story(self, paths: Sequence[Sequence[int]], named: set[int], limit: int = 3) -> str:
        """``r1c7 would be 6, r5c7 would be 3 and ``: the "on" nodes of the main lines after
        the assumption, but for the cells the conclusion names (first and last when long)."""
        ons = list(dict.fromkeys(node for path in paths for node in path[1:]
                                 if node & 1 and self.cd(node)[0] not in named))
        if not ons:
            return ""
        if len(ons) <= limit:
            return _join([self.said(x) for x in ons]) + "; then "
        return f"{self.said(ons[0])}, ..., {self.said(ons[-1])}; then "

    def conflict(self, prop: _Prop) -> tuple[str, set[int]]:
        """Why the net fails (``r5c5 would be both 3 and 7``) and the cells that names."""
        off = prop.conflict
        c, d = self.cd(off)
        name = cell_name(c, self.n)
        p = prop.par.get(off)
        if isinstance(p, int) and p >= 0:
            pc, pd = self.cd(p)
            if pc == c:
                return f"{name} would be both {digit_char(pd)} and {digit_char(d)}", {c}
            return f"{name} and {cell_name(pc, self.n)} would both be {digit_char(d)}", {c, pc}
        return f"{name} would have to be {digit_char(d)} and could not be", {c}


def _join(words: Sequence[str], last: str = "and") -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


# -- the searches, shared by the finders -----------------------------------------------------------


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


# -- hints -----------------------------------------------------------------------------------------


class _Hint:
    """A conclusion found, before it becomes a Step: sorted by size."""

    __slots__ = ("branches", "kind", "size", "target")

    def __init__(self, kind: str, target: int, branches: list[tuple[_Prop, list[int]]], size: int) -> None:
        self.kind, self.target, self.branches, self.size = kind, target, branches, size


def _contradictions(props: dict[int, _Prop]) -> list[_Hint]:
    out = []
    for root, prop in props.items():
        if prop.conflict >= 0:
            ends = [prop.conflict, prop.conflict | 1]
            out.append(_Hint("contradiction", root ^ 1, [(prop, ends)], _size(prop, ends)))
    return out


def _common(net: _Net, props: Sequence[_Prop], skip_cells: set[int], partial: bool = False) -> _Hint | None:
    """The node every branch implies (the smallest net), or None. ``partial``: a branch that
    ends in a contradiction counts with the nodes it implied before it (Sudoku Explainer's
    rule: such a branch is impossible, so it implies anything; SE keeps what its chain had
    reached when the contradiction stopped it)."""
    if all(p.conflict >= 0 for p in props) or (not partial and any(p.conflict >= 0 for p in props)):
        return None
    common = props[0].nodes
    for p in props[1:]:
        common = common & p.nodes
        if not common:
            return None
    indexes = [p.index for p in props]
    n = net.n
    best, best_score = -1, None
    for node in common:
        if (node >> 1) // n in skip_cells:
            continue
        score = sum(ix[node] for ix in indexes)
        if best_score is None or score < best_score:
            best, best_score = node, score
    if best < 0:
        return None
    size = sum(_size(p, (best,)) for p in props)
    return _Hint("verity", best, [(p, [best]) for p in props], size)


def _double(net: _Net, props: dict[int, _Prop]) -> list[_Hint]:
    out = []
    for i in net.candidates:
        on, off = props.get((i << 1) | 1), props.get(i << 1)
        if on is None or off is None:
            continue
        hint = _common(net, (on, off), set())
        if hint is not None:
            hint.kind = "double"
            out.append(hint)
    return out


def _cells(net: _Net, props: dict[int, _Prop], least: int = 2, partial: bool = False) -> list[_Hint]:
    """Cell forcing chains from the cells with ``least`` candidates or more (``partial``: see
    :func:`_common`)."""
    out = []
    n = net.n
    for c, m in enumerate(net.masks):
        if m.bit_count() < least:
            continue
        hint = _common(net, [props[((c * n + d) << 1) | 1] for d in net.bits[m]], {c}, partial)
        if hint is not None:
            hint.kind = "cell"
            out.append(hint)
    return out


def _units(net: _Net, props: dict[int, _Prop], least: int = 2, partial: bool = False) -> list[_Hint]:
    """Unit forcing chains; ``least``: the first place's cell has that many candidates or more
    (``partial``: see :func:`_common`)."""
    out = []
    n = net.n
    for u, unit in enumerate(net.units):
        for d in range(n):
            pl = net.places[u * n + d]
            if pl.bit_count() < 2:
                continue
            cells = [unit[j] for j in net.bits[pl]]
            if net.masks[cells[0]].bit_count() < least:
                continue
            hint = _common(net, [props[((c * n + d) << 1) | 1] for c in cells], set(), partial)
            if hint is not None:
                hint.kind = f"unit {u}"
                out.append(hint)
    return out


def _step(net: _Net, hint: _Hint, technique: str, level: str, base: float, note: str = "") -> Step:
    reader = _Reader(net)
    n = net.n
    target = hint.target
    c, d = reader.cd(target)
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    if target & 1:
        placements = ((c, d),)
    else:
        eliminations = ((c, d),)
    conclusion = reader.said(target, would=False)
    lines: list[str] = []
    links: list[Link] = []
    cells: list[int] = []
    digits: set[int] = {d}
    branch_paths = []
    for prop, ends in hint.branches:
        paths = [_path(prop, e, prop.index) for e in ends]
        branch_paths.append(paths)
        for path in paths:
            links.extend(reader.links(path))
            lines.append(reader.eureka(path))
            for node in path:
                pc, pd = reader.cd(node)
                if pc not in cells:
                    cells.append(pc)
                digits.add(pd)
    root = branch_paths[0][0][0]
    rc, rd = reader.cd(root)
    if hint.kind == "contradiction":
        why, named = reader.conflict(hint.branches[0][0])
        story = reader.story(branch_paths[0], named)
        assumption = f"{cell_name(rc, n)} were {'' if root & 1 else 'not '}{digit_char(rd)}"
        explanation = f"If {assumption}, {story}{why}, so {conclusion}."
        weights = hint.branches[0][0].weights
        inner = list(dict.fromkeys(x for path in branch_paths[0] for x in path if x in weights))
        if inner and note:
            said = [reader.said(x, would=False) for x in inner[:2]] + (["others"] if len(inner) > 2 else [])
            one, several = _NESTED_WHY.get(note, _NESTED_WHY[NESTED_NOTES[_NEST_DFC]])
            note = f" Inside the net, {_join(said)}, since {one if len(inner) == 1 else several}."
    else:
        if hint.kind == "cell":
            cases = f"Whatever {cell_name(rc, n)} holds ({_digits_or(net.masks[rc])}), every case leads"
        elif hint.kind.startswith("unit"):
            u = int(hint.kind.split()[1])
            places = [p[0][0] for p in branch_paths]
            where = _join([cell_name(reader.cd(x)[0], n) for x in places], "or")
            cases = f"Wherever {digit_char(rd)} goes in {net.geo.unit_names[u]} ({where}), every case leads"
        else:
            cases = f"Whether {cell_name(rc, n)} is {digit_char(rd)} or not, both cases lead"
        being = f"{cell_name(c, n)} {'being' if target & 1 else 'not being'} {digit_char(d)}"
        explanation = f"{cases} to {being} (see the chains), so {conclusion}."
    rating = round(base + length_rating(max(0, hint.size - 2)), 1)  # as Sudoku Explainer counts
    return Step(technique, level, tuple(cells), tuple(sorted(digits)), explanation + note, placements=placements,
                eliminations=eliminations, rating=rating, links=tuple(dict.fromkeys(links)),
                chain=tuple(dict.fromkeys(lines)))


def _digits_or(mask: int) -> str:
    return _join([digit_char(d + 1) for d in bit_indexes(mask)], "or")


def _sorted_steps(net: _Net, hints: list[_Hint], technique: str, level: str, base: float,
                  note: str = "") -> Iterator[Step]:
    hints.sort(key=lambda h: h.size)
    seen = set()
    for hint in hints:
        if hint.target in seen:
            continue
        seen.add(hint.target)
        yield _step(net, hint, technique, level, base, note)


# -- finders ---------------------------------------------------------------------------------------


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


def nishio_forcing_chains(state: State) -> Iterator[Step]:
    """Sudoku Explainer's nishio forcing chains (7.5+): a candidate assumed true, followed on
    its digit alone with the hidden singles played out, ends in a contradiction: it is false."""
    if _unsolvable(state):
        return
    a = _analysis(state)
    net = a.net
    props = {}
    for k, i in enumerate(net.candidates):
        if not k & 31:
            state.check_stop()
        props[(i << 1) | 1] = _nishio(net, (i << 1) | 1)
    # rated as Sudoku Explainer rates it, but a dynamic chain: the nightmare level's, as the
    # dynamic forcing chains (the grade's level stays what the static chains decide)
    yield from _sorted_steps(net, _contradictions(props), "nishio forcing chain", NIGHTMARE, STATIC_DIGIT)


def digit_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from one candidate: on and off lead to the same node, or one of them to
    a contradiction (nishio)."""
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    hints = _contradictions(props) + _double(a.net, props)
    yield from _sorted_steps(a.net, hints, "digit forcing chain", DIABOLICAL, STATIC_DIGIT)


def _static_cells(state: State, least: int) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    yield from _sorted_steps(a.net, _cells(a.net, props, least), "cell forcing chain", DIABOLICAL, STATIC_REGION)


def _static_units(state: State, least: int) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.static_all(state)
    yield from _sorted_steps(a.net, _units(a.net, props, least), "unit forcing chain", DIABOLICAL, STATIC_REGION)


def cell_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from every candidate of a cell reach the same node."""
    return _static_cells(state, 2)


def unit_forcing_chains(state: State) -> Iterator[Step]:
    """Static chains from every place of a digit in a unit reach the same node."""
    return _static_units(state, 2)


def explainer_cell_forcing_chains(state: State) -> Iterator[Step]:
    """:func:`cell_forcing_chains` from cells of 3+ candidates only, as Sudoku Explainer's."""
    return _static_cells(state, STATIC_LEAST)


def explainer_unit_forcing_chains(state: State) -> Iterator[Step]:
    """:func:`unit_forcing_chains` whose first place has 3+ candidates, as Sudoku Explainer's."""
    return _static_units(state, STATIC_LEAST)


PLUS_NOTE = " Inside the net, pointing, box-line reductions and pairs remove candidates too."
NESTED_NOTES = {
    _NEST_FC: " Inside the net, every candidate that a forcing chain removes is removed too.",
    _NEST_MFC: (" Inside the net, every candidate that forcing chains rule out (its own chain, or every case of"
                " a cell or of a digit's places in a unit) is removed too."),
    _NEST_DFC: " Inside the net, every candidate whose own net (+) ends in a contradiction is removed too.",
    _NEST_SE: (" Inside the net, every candidate that dynamic forcing chains rule out (its own net, or every case"
               " of a candidate, a cell or a digit's places in a unit) is removed too."),
}
#: How a step names the inner chains behind the candidates its net removed (one, several).
_NESTED_WHY = {
    NESTED_NOTES[_NEST_FC]: ("a forcing chain would remove it", "forcing chains would remove them"),
    NESTED_NOTES[_NEST_MFC]: ("forcing chains rule it out", "forcing chains rule them out"),
    NESTED_NOTES[_NEST_DFC]: ("its own (+) net would end in a contradiction",
                              "their own (+) nets would end in a contradiction"),
    NESTED_NOTES[_NEST_SE]: ("dynamic forcing chains rule it out", "dynamic forcing chains rule them out"),
}


def _dynamic_finder(state: State, level: int, technique: str, base: float) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    props = a.dynamic_all(state, level)
    net = a.net
    hints = _contradictions(props) + _double(net, props) + _cells(net, props) + _units(net, props)
    yield from _sorted_steps(net, hints, technique, NIGHTMARE, base, PLUS_NOTE if level == _PLUS else "")


def dynamic_forcing_chains(state: State) -> Iterator[Step]:
    """Contradictions and verities (double implication, cell, unit) with the singles played
    out in the net."""
    return _dynamic_finder(state, _SINGLES, "dynamic forcing chain", DYNAMIC)


def dynamic_forcing_chains_plus(state: State) -> Iterator[Step]:
    """Dynamic forcing chains whose nets also use pointing, box-line reduction and pairs."""
    return _dynamic_finder(state, _PLUS, "dynamic forcing chain (+)", DYNAMIC_PLUS)


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


#: How many refutations the hints' nested nets of level 4 collect before giving the smallest (a
#: full scan of the board costs seconds there; the first few, found in the order below, are
#: within a few nodes of the smallest). The grade scans every false candidate at every level, as
#: Sudoku Explainer does, and gives the smallest: a tenth more or less decides the top of the scale.
NESTED_SAMPLE = 8


def nested_forcing_nets(state: State) -> Iterator[Step]:
    """The hints' nested nets: contradiction nets that also remove, inside them, the candidates
    whose own dynamic (+) net ends in a contradiction (Sudoku Explainer's level 4, 10.5), the
    strongest level and the quickest to find a step (of the first :data:`NESTED_SAMPLE`
    refutations, the smallest comes first). If none is found, a tree of (+) nets, branching on
    the candidates of a cell at each level, all ending in contradictions (nested nets at the
    tree's depth: a false candidate always has one). Only on a position with one solution
    (found by a quick search) and only for the candidates that solution rules out, since no
    other can be refuted; tried first: the candidates whose (+) nets reach furthest."""
    return _nested_finder(state, (_NEST_DFC,))


def explainer_nested_forcing_nets(state: State) -> Iterator[Step]:
    """The grade's nested nets, in Sudoku Explainer's order of nesting levels (the first level
    with a step wins): static forcing chains inside the net (level 2, 9.5), static multiple
    forcing chains (level 3, 10.0), dynamic forcing chains of every kind, all at once (level 4,
    10.5, a net of its own from the (+) net, with no static chain inside; failing those, the
    first candidate whose (+) net fails); at every level every false candidate is tried and
    the smallest net comes first, as SE takes its easiest hint (a
    tenth more or less decides the top of the scale). Slower than :func:`nested_forcing_nets`
    (seconds a step on the forum's hardest), so the hints keep that one."""
    return _nested_finder(state, (_NEST_FC, _NEST_MFC, _NEST_SE), sample=False)


def _nested_finder(state: State, levels: Sequence[int], sample: bool = True) -> Iterator[Step]:
    if _unsolvable(state):
        return
    a = _analysis(state)
    net = a.net
    n = net.n
    solution = a.solution(state)
    if solution is None:
        return  # several solutions or none: the nets would search in vain
    plus = a.dynamic_all(state, _PLUS)  # computed already when the stepper tried dynamic (+)
    false = sorted((i for i in net.candidates if solution[i // n] != i % n + 1),
                   key=lambda i: -len(plus[(i << 1) | 1].order))
    weaker = {i: plus[(i << 1) | 1] for i in net.candidates}
    for level in levels:
        hints: list[_Hint] = []
        for i in false:
            state.check_stop()
            # SE's level 4 is a net of its own, whose inner rules are dynamic chains alone (its
            # static chains' removals are not in it): it starts from the (+) net, levels 2 and 3
            # go on from the level below
            base = plus[(i << 1) | 1] if level >= _NEST_DFC else weaker[i]
            prop = weaker[i] = _stronger(net, base, level, state)
            if prop.conflict >= 0:
                ends = [prop.conflict, prop.conflict | 1]
                hints.append(_Hint("contradiction", i << 1, [(prop, ends)], _size(prop, ends)))
                if sample and len(hints) == NESTED_SAMPLE and level == _NEST_DFC:
                    break
        if level < _NEST_DFC:  # SE's nets of levels 2 and 3 also give cell and unit verities
            for i in net.candidates:
                if solution[i // n] == i % n + 1:
                    state.check_stop()
                    weaker[i] = _stronger(net, weaker[i], level, state)
            props = {(i << 1) | 1: prop for i, prop in weaker.items()}
            hints += _cells(net, props, partial=True) + _units(net, props, partial=True)
        if hints:
            yield from _sorted_steps(net, hints, "nested forcing net", NIGHTMARE, explainer_level(min(level, 4)),
                                     NESTED_NOTES[level])
            return
    for i in false:
        depth = _refute(net, plus[(i << 1) | 1], state)
        if depth is not None:
            yield _tree_step(net, i, depth)
            return


def _tree_step(net: _Net, i: int, depth: int) -> Step:
    c, d = divmod(i, net.n)
    name, digit = cell_name(c, net.n), digit_char(d + 1)
    level = 1 + depth
    text = (f"If {name} were {digit}, every way to go on would end in a contradiction: branching on the "
            f"candidates of one cell after another, {depth} levels deep, every branch's net (+) fails. So "
            f"{name} is not {digit}.")
    return Step("nested forcing net", NIGHTMARE, (c,), (d + 1,), text, eliminations=((c, d + 1),),
                rating=round(NESTED + 0.5 * (level - 1), 1), chain=(f"({digit}){name}: {depth} levels of branching",))
