"""Chains: X-cycles, X-chains, XY-chains and alternating inference chains (nice loops).

All four follow the links of :mod:`.links`, alternating: from "A is false" a strong link gives
"B is true", from "B is true" a weak link gives "C is false", and so on. A chain that starts
with a strong link from A and ends with one into Z proves "A or Z" (if A is false, Z is true),
written ``A=...=Z``. From that:

- **chain** (X-chain, XY-chain, AIC types 1 and 2): every candidate that would rule out both A
  and Z -- the same digit in a cell seeing both, or, when A and Z are different digits in
  cells that see each other, the other's digit in each -- is false;
- **discontinuous loop, two strong links** (Z is A itself: "if A is false, A is true"): A is
  true (a placement);
- **continuous loop** (Z has a weak link back to A): around the loop every weak link gets a
  true end, so every candidate that would rule out both ends of one of them is false.
  (The discontinuous loop with two weak links at a candidate C is a chain ``A=...=Z`` whose
  ends both rule out C: it is found as a chain. On one digit that makes it an X-chain, rated
  6.6 + length(n) for n links: the X-cycle's 6.5 + length(n + 2) to within 0.1.)

A chain has three links at least (one is a box-line intersection, found long before), a loop
four (an X-wing is the shortest).

The search is a breadth-first walk from every node at once over the alternating implication
graph (as bit sets), one link deeper at a time, so the first steps found use the fewest
links, which is what the rating counts: ``base + length_rating(n)`` with Sudoku Explainer's
length, its nodes less two (a chain's links + 1, a loop's links - 2, a placement's links - 1),
and results come in that order. Chains are capped at :data:`MAX_LINKS` links; the walk checks
``state.check_stop()`` at every depth.

=========  ========  ==========================================================================
finder     base      graph and what counts
=========  ========  ==========================================================================
X-cycle    6.5       one digit, cells only; continuous loops
X-chain    6.6       one digit, cells only; chains (both ends the same digit), strong-strong discontinuities
XY-chain   7.0       bivalue cells, strong inside the cell; chains ending on the start digit
AIC        7.0       every link, grouped nodes too; chains, loops and placements
=========  ========  ==========================================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from tui_games.engine.sudoku.grid import Geometry, cell_name, digit_char
from tui_games.engine.sudoku.levels import EXTREME, FIENDISH
from tui_games.engine.sudoku.links import AIC, XY, LinkGraph, X, build
from tui_games.engine.sudoku.notation import cells_text, eureka
from tui_games.engine.sudoku.techniques import Finder, Link, State, Step, length_rating

__all__ = ["GROUPED_TURBOT", "MAX_LINKS", "aics", "fish_rating", "plain_aics", "strong_link_fish", "x_chains", "x_cycles", "xy_chains"]

#: The longest chain looked for, in links (a loop counts its closing link). Sudoku Explainer's
#: chains rarely need more; past it the forcing chains take over.
MAX_LINKS = 16

_CHAIN, _LOOP, _PLACE = "chain", "loop", "place"
# Where a result's chain is: a loop's nodes, or ``(k, end, depth)`` for :meth:`_Search.path`.
_Where = list[int] | tuple[int, int, int]
# (links, kind, where, eliminations, -their count, start node, end node)
_Pending = tuple[int, str, _Where, int, int, int, int]


class _Search:
    """The breadth-first walk from every start at once; see :meth:`results`."""

    def __init__(self, graph: LinkGraph, state: State, *, chains: bool, loops: bool, places: bool,
                 same_digit: bool = False, max_links: int = MAX_LINKS) -> None:
        self.graph, self.state = graph, state
        self.chains, self.loops, self.places = chains, loops, places
        self.same_digit = same_digit
        self.max_links = max_links
        self.starts = [i for i in range(len(graph)) if graph.strong[i]]
        # layers[k][j]: the nodes first reached at depth j from start k; even depths are
        # "false" nodes, odd depths "true" nodes.
        self.layers = [[1 << s] for s in self.starts]

    def path(self, k: int, end: int, depth: int) -> list[int]:
        """The nodes from start ``k`` to ``end`` (reached at ``depth``), start first."""
        layers, strong, weak = self.layers[k], self.graph.strong, self.graph.weak
        out = [end]
        node = end
        for j in range(depth - 1, -1, -1):
            # Into a true node (odd depth) by a strong link, into a false one by a weak link.
            pred = layers[j] & (strong[node] if (j + 1) % 2 else weak[node])
            node = (pred & -pred).bit_length() - 1
            out.append(node)
        out.reverse()
        return out

    def results(self) -> Iterator[tuple[int, str, _Where, int]]:
        """``(links, kind, path, eliminations bit set)``: fewest links first."""
        graph, state = self.graph, self.state
        strong, weak = graph.strong, graph.weak
        starts, layers = self.starts, self.layers
        reached_false = [1 << s for s in starts]
        reached_true = [0] * len(starts)
        active = list(range(len(starts)))
        pending: list[_Pending] = []
        for depth in range(1, self.max_links + 1):
            state.check_stop()
            odd = depth % 2
            adjacency = strong if odd else weak
            still = []
            for k in active:
                frontier = layers[k][-1]
                new = 0
                while frontier:
                    low = frontier & -frontier
                    frontier ^= low
                    new |= adjacency[low.bit_length() - 1]
                if odd:
                    new &= ~reached_true[k]
                    reached_true[k] |= new
                else:
                    new &= ~reached_false[k]
                    reached_false[k] |= new
                if not new:
                    continue
                layers[k].append(new)
                still.append(k)
                if odd:
                    self._evaluate(k, new, depth, pending)
            active = still
            # nothing found deeper has fewer of Sudoku Explainer's nodes than ``depth``
            ready = sorted((r for r in pending if r[0] + _SE_NODES[r[1]] <= depth), key=_order)
            if ready:
                pending = [r for r in pending if r[0] + _SE_NODES[r[1]] > depth]
                for r in ready:
                    yield r[0], r[1], r[2], r[3]
            if not active:
                break
        yield from (r[:4] for r in sorted(pending, key=_order))

    def _evaluate(self, k: int, new: int, depth: int, pending: list[_Pending]) -> None:
        graph = self.graph
        seen, weak = graph.seen, graph.weak
        start = self.starts[k]
        if self.places and new >> start & 1 and not graph.is_group(start):
            pending.append((depth, _PLACE, (k, start, depth), 0, 0, start, start))
        if self.chains and depth >= 3:  # one link is a box-line intersection, found earlier
            mine = seen[start]
            digit = graph.digits[start]
            rest = new & ~(1 << start)
            while rest:
                low = rest & -rest
                rest ^= low
                end = low.bit_length() - 1
                gone = mine & seen[end]
                if gone and (not self.same_digit or graph.digits[end] == digit):
                    pending.append((depth, _CHAIN, (k, end, depth), gone, -gone.bit_count(), start, end))
        if self.loops and 4 <= depth + 1 <= self.max_links:
            rest = new & weak[start] & ~(1 << start)
            while rest:
                low = rest & -rest
                rest ^= low
                end = low.bit_length() - 1
                nodes = self.path(k, end, depth)
                gone = seen[end] & seen[start]
                for a, b in zip(nodes[1::2], nodes[2::2]):  # the weak links inside the chain
                    gone |= seen[a] & seen[b]
                if gone:
                    pending.append((depth + 1, _LOOP, nodes, gone, -gone.bit_count(), start, end))


#: Sudoku Explainer's length is its chain's nodes less two: a forcing chain from the candidate
#: removed back to it has the chain's links + 3 nodes (links + 1), a placement's (A off ... A on)
#: links + 1 (links - 1), a loop's as many as links (links - 2).
_SE_NODES = {_CHAIN: 1, _PLACE: -1, _LOOP: -2}


def _order(result: _Pending) -> tuple[int, bool, int, int, int]:
    links, kind, _, _, fewer, start, end = result
    return links + _SE_NODES[kind], kind != _PLACE, fewer, start, end


# -- steps -----------------------------------------------------------------------------------------


def _truth(graph: LinkGraph, node: int, n: int) -> str:
    """``r1c2 is 4`` or, for a group, ``4 is in r1c23``."""
    cells, d = graph.cells[node], digit_char(graph.digits[node])
    return f"{cell_name(cells[0], n)} is {d}" if len(cells) == 1 else f"{d} is in {cells_text(cells, n)}"


def _decode(bits: int, n: int) -> tuple[tuple[int, int], ...]:
    out = []
    while bits:
        low = bits & -bits
        bits ^= low
        cell, d = divmod(low.bit_length() - 1, n)
        out.append((cell, d + 1))
    return tuple(sorted(out))


def _steps(search: _Search, name: str, base: float) -> Iterator[Step]:
    graph = search.graph
    n = graph.geo.size
    done: list[set[tuple[int, int]]] = []
    for _, kind, where, gone in search.results():
        if kind == _LOOP:
            nodes = where
        else:
            k, end, depth = where
            nodes = search.path(k, end, depth)
        if kind == _CHAIN and min(graph.cells[nodes[-1]]) < min(graph.cells[nodes[0]]):
            nodes = nodes[::-1]  # read from the top of the grid: the same chain, as people write it
        body = nodes[:-1] if kind == _PLACE else nodes  # a placement's chain ends where it began
        if len(set(body)) != len(body):
            continue  # the walk came back through a node: a longer, plainer chain will do
        links = [Link(graph.cells[a], graph.digits[a], graph.cells[b], graph.digits[b], i % 2 == 0)
                 for i, (a, b) in enumerate(zip(nodes, nodes[1:]))]
        start, end = nodes[0], nodes[-1]
        if kind == _LOOP:
            links.append(Link(graph.cells[end], graph.digits[end], graph.cells[start], graph.digits[start], False))
        placements: tuple[tuple[int, int], ...] = ()
        eliminations = _decode(gone, n)
        if kind == _PLACE:
            placements = ((graph.cells[start][0], graph.digits[start]),)
            eliminations = ()
        effect = set(placements) | {(c, -d) for c, d in eliminations}
        if any(effect <= earlier for earlier in done):
            continue  # nothing an earlier (shorter) step did not do
        done.append(effect)
        text = _explain(graph, kind, start, end, eliminations, n)
        if graph.kind == X:
            text = f"Looking at {digit_char(graph.digits[start])} alone, {text[0].lower()}{text[1:]}"
        cells = tuple(dict.fromkeys(c for i in nodes for c in graph.cells[i]))
        digits = tuple(sorted({graph.digits[i] for i in nodes}))
        rating = fish_rating(graph.geo, links) if graph.kind == X and kind != _PLACE else None
        if rating is None:
            rating = round(base + length_rating(len(links) + _SE_NODES[kind]), 1)
        yield Step(name, FIENDISH, cells, digits, text, placements=placements, eliminations=eliminations,
                   rating=rating, links=tuple(links), chain=(eureka(links, n),))


GROUPED_TURBOT = "grouped turbot fish"

#: Sukaku Explainer's ratings of chains on one digit by their number of strong links ("two,
#: three, four strong-linked fishes"; five and six are off by default, so longer chains are
#: Sudoku Explainer's forcing X-chains, 6.6 and up).
STRONG_LINK_FISH = {2: 4.0, 3: 5.4, 4: 5.8}


def fish_rating(geo: Geometry, links: list[Link]) -> float | None:
    """The rating of a one-digit chain or loop as Sukaku Explainer's strong-linked fish: the
    base by the number of strong links, +0.1 when the strong links are not all rows or all
    columns, +0.2 when they also go through a box in both orientations, +0.3 with a group;
    None when it has too many strong links (then it rates as a chain)."""
    strong = [link for link in links if link.strong]
    base = STRONG_LINK_FISH.get(len(strong))
    if base is None:
        return None
    if any(len(link.cells_a) > 1 or len(link.cells_b) > 1 for link in strong):
        return round(base + 0.3, 1)
    kinds = set()
    for link in strong:
        a, b = link.cells_a[0], link.cells_b[0]
        kinds.add("row" if geo.row_of(a) == geo.row_of(b) else "col" if geo.col_of(a) == geo.col_of(b) else "box")
    if len(kinds) == 1 and "box" not in kinds:
        return base
    if kinds == {"row", "col", "box"}:
        return round(base + 0.2, 1)
    return round(base + 0.1, 1)


def _explain(graph: LinkGraph, kind: str, start: int, end: int, eliminations: tuple[tuple[int, int], ...],
             n: int) -> str:
    if kind == _PLACE:
        name, d = cell_name(graph.cells[start][0], n), digit_char(graph.digits[start])
        return f"If {name} were not {d}, the chain below would make it {d} after all, so {name} is {d}."
    digits = {d for _, d in eliminations}
    cells = ", ".join(cell_name(c, n) for c, _ in eliminations)
    verb, them = ("sees", "it") if len(eliminations) == 1 else ("see", "them")
    gone = "; ".join(f"{digit_char(x)} from {', '.join(cell_name(c, n) for c, y in eliminations if y == x)}"
                     for x in sorted(digits))
    if kind == _LOOP:
        head = "The chain below closes into a loop, so each of its weak links has a true end"
        if len(digits) == 1:
            return f"{head}; {cells} {verb} both ends of one, so {digit_char(min(digits))} is removed from {them}."
        return f"{head}, and the candidates that would rule out both ends of one go: {gone}."
    d = digit_char(graph.digits[start])
    if digits == {graph.digits[start]} and graph.digits[end] == graph.digits[start]:
        if len(graph.cells[start]) == 1 and len(graph.cells[end]) == 1:
            either = f"Either {cell_name(graph.cells[start][0], n)} or {cell_name(graph.cells[end][0], n)} is {d}"
        else:
            either = f"Either {_truth(graph, start, n)} or {_truth(graph, end, n)}"
        return f"{either} (the chain below), and {cells} {verb} both, so {d} is removed from {them}."
    return (f"Either {_truth(graph, start, n)} or {_truth(graph, end, n)} (the chain below), and both rule out "
            f"{gone}, so {'it goes' if len(eliminations) == 1 else 'they go'}.")


# -- the finders -----------------------------------------------------------------------------------


def x_cycles(state: State) -> Iterator[Step]:
    """Continuous loops on one digit: eliminations on the weak links."""
    graph = build(state, X)
    search = _Search(graph, state, chains=False, loops=True, places=False)
    yield from _steps(search, "X-cycle", 6.5)


def x_chains(state: State) -> Iterator[Step]:
    """Chains on one digit: one of the two ends holds it, so no cell seeing both does; or a
    chain from a cell back to it with two strong links meeting there (the cell holds the digit:
    Sudoku Explainer's forcing X-chain, rated as a chain)."""
    graph = build(state, X)
    search = _Search(graph, state, chains=True, loops=False, places=True)
    yield from _steps(search, "X-chain", 6.6)


def strong_link_fish(strong: int, grouped_only: bool = False) -> Finder:
    """X-chains and continuous X-cycles with exactly ``strong`` strong links (2, 3 or 4), rated
    as Sukaku Explainer's strong-linked fishes (:func:`fish_rating`): listed at their own
    base rating so the stepper looks for them before the longer chains. ``grouped_only``
    keeps those with a grouped node (two strong links without one are the skyscrapers, kites
    and turbot fish of :mod:`.single_digit`)."""
    def find(state: State) -> Iterator[Step]:
        graph = build(state, X, groups=True)  # Sukaku's fishes take grouped links (+0.3)
        chains = _Search(graph, state, chains=True, loops=False, places=False, max_links=2 * strong - 1)
        loops = _Search(graph, state, chains=False, loops=True, places=False, max_links=2 * strong)
        steps = [step for search, name in ((chains, "X-chain"), (loops, "X-cycle"))
                 for step in _steps(search, name, 6.6)
                 if sum(link.strong for link in step.links) == strong
                 and (not grouped_only or any(len(link.cells_a) > 1 or len(link.cells_b) > 1 for link in step.links))]
        steps.sort(key=lambda step: step.rating)
        for step in steps:
            # two strong links: a single-digit pattern, the grouped turbot fish (Sukaku's
            # "grouped skyscraper" and "grouped 2-string kite")
            yield dataclasses.replace(step, technique=GROUPED_TURBOT, level=EXTREME) if strong == 2 else step
    find.__name__ = f"strong_link_fish_{strong}" + ("_grouped" if grouped_only else "")
    return find


def xy_chains(state: State) -> Iterator[Step]:
    """Chains through bivalue cells, from a digit back to the same digit at the other end."""
    graph = build(state, XY)
    search = _Search(graph, state, chains=True, loops=False, places=False, same_digit=True)
    yield from _steps(search, "XY-chain", 7.0)


def aics(state: State) -> Iterator[Step]:
    """Alternating inference chains over every link, grouped nodes included, and nice loops."""
    graph = build(state, AIC)
    search = _Search(graph, state, chains=True, loops=True, places=True)
    yield from _steps(search, "AIC", 7.0)


def plain_aics(state: State) -> Iterator[Step]:
    """AICs and nice loops without grouped nodes: Sudoku Explainer's forcing chains and cycles
    (what the grade uses; the hints use :func:`aics`)."""
    graph = build(state, AIC, groups=False)
    search = _Search(graph, state, chains=True, loops=True, places=True)
    yield from _steps(search, "AIC", 7.0)

