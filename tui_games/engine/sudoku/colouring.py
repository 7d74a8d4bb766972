"""Colouring: the conjugate pairs of one digit, coloured in two alternating colours.

The conjugate pairs of a digit (units where it has exactly two places) join its candidates
into clusters. Colour a cluster's candidates in two colours, alternating along every pair:
then one colour holds the digit in every cell of it and the other in none.

- **simple colouring**, *colour wrap*: two candidates of one colour share a unit, so that
  colour cannot be the true one: the digit leaves all its cells. *Colour trap*: a candidate
  outside the cluster that sees a candidate of each colour is false whichever colour is true.
- **multi-colouring**: two clusters of the digit joined by a weak link (a candidate of colour
  A of one sees a candidate of colour B of the other): A and B are not both true, so one of
  their opposite colours is, and a candidate seeing both opposites goes. And if a colour of one
  cluster sees both colours of the other, that colour is false.

Ratings: simple colouring 6.6 plus Sudoku Explainer's length bonus for the number of
coloured candidates; multi-colouring 6.8 (see :mod:`.catalogue`).
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.sudoku.grid import cell_name, digit_char
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.single_digit import conjugate_pairs
from tui_games.engine.sudoku.techniques import Link, State, Step, _names, length_rating

__all__ = ["multi_colouring", "simple_colouring"]

SIMPLE_RATING = 6.6


class _Cluster:
    """A connected set of conjugate pairs of one digit: its two colours and its links."""

    __slots__ = ("colour", "colours", "digit", "links")

    def __init__(self, digit: int) -> None:
        self.digit = digit
        self.colour: dict[int, int] = {}  # cell -> 0 or 1
        self.colours: tuple[list[int], list[int]] = ([], [])
        self.links: list[Link] = []

    @property
    def size(self) -> int:
        return len(self.colour)


def _clusters(state: State, digit: int) -> list[_Cluster]:
    pairs = conjugate_pairs(state, digit)
    graph: dict[int, list[int]] = {}
    for a, b in pairs:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    clusters = []
    done: set[int] = set()
    for start in sorted(graph):
        if start in done:
            continue
        cluster = _Cluster(digit)
        cluster.colour[start] = 0
        todo = [start]
        while todo:
            cell = todo.pop()
            for other in graph[cell]:
                if other not in cluster.colour:
                    cluster.colour[other] = 1 - cluster.colour[cell]
                    todo.append(other)
        done.update(cluster.colour)
        for cell in sorted(cluster.colour):
            cluster.colours[cluster.colour[cell]].append(cell)
        cluster.links = [Link((a,), digit, (b,), digit, True) for a, b in sorted(pairs) if a in cluster.colour]
        clusters.append(cluster)
    return clusters


def _sets(cluster: _Cluster, n: int) -> str:
    return f"{{{_names(cluster.colours[0], n)}}} and {{{_names(cluster.colours[1], n)}}}"


def _both(one: _Cluster, two: _Cluster, n: int) -> str:
    d = digit_char(one.digit)
    return (f"The conjugate pairs of {d} make two chains, {_sets(one, n)}, and {_sets(two, n)}; in each chain one "
            f"set is {d}.")


def simple_colouring(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peer_sets = geo.peer_sets
    clusters = [c for d in range(1, n + 1) for c in _clusters(state, d) if c.size >= 3]
    clusters.sort(key=lambda c: c.size)
    for cluster in clusters:
        digit = cluster.digit
        d = digit_char(digit)
        bit = 1 << (digit - 1)
        rating = round(SIMPLE_RATING + length_rating(cluster.size), 1)
        cells = tuple(sorted(cluster.colour))
        intro = (f"The conjugate pairs of {d} chain {_names(cells, n)} together, alternately {d} and not {d}: "
                 f"either all of {{{_names(cluster.colours[0], n)}}} are {d} or all of "
                 f"{{{_names(cluster.colours[1], n)}}}.")
        for k in (0, 1):
            same = cluster.colours[k]
            clash = next(((a, b) for i, a in enumerate(same) for b in same[i + 1:] if b in peer_sets[a]), None)
            if clash is None:
                continue
            a, b = clash
            text = (f"{intro} {cell_name(a, n)} and {cell_name(b, n)} are in the same set and see each other, "
                    f"so that set is not {d}: remove {d} from {_names(same, n)}.")
            yield Step("simple colouring", FIENDISH, cells, (digit,), text,
                       eliminations=tuple((c, digit) for c in same), rating=rating, links=tuple(cluster.links))
        first, second = cluster.colours
        seen0: set[int] = set().union(*(peer_sets[c] for c in first))
        seen1: set[int] = set().union(*(peer_sets[c] for c in second))
        targets = sorted(c for c in seen0 & seen1 if masks[c] & bit and c not in cluster.colour)
        if targets:
            text = (f"{intro} {_names(targets, n)} {'sees' if len(targets) == 1 else 'see'} a cell of each set, so "
                    f"{d} is removed from {'it' if len(targets) == 1 else 'them'}.")
            yield Step("simple colouring", FIENDISH, cells, (digit,), text,
                       eliminations=tuple((c, digit) for c in targets), rating=rating, links=tuple(cluster.links))


def multi_colouring(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peer_sets = geo.peer_sets
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        d = digit_char(digit)
        clusters = [c for c in _clusters(state, digit) if c.size >= 2]
        if len(clusters) < 2:
            continue
        owner = {cell: (i, cluster.colour[cell]) for i, cluster in enumerate(clusters) for cell in cluster.colour}
        # Weak links between clusters: (cluster i, colour, cluster j, colour) -> (cell, cell).
        bridges: dict[tuple[int, int, int, int], tuple[int, int]] = {}
        for a, (i, ka) in owner.items():
            for b in peer_sets[a]:
                o = owner.get(b)
                if o is not None and o[0] > i:
                    bridges.setdefault((i, ka, o[0], o[1]), (a, b))
        sees: dict[tuple[int, int], set[tuple[int, int]]] = {}
        for i, ka, j, kb in bridges:
            sees.setdefault((i, ka), set()).add((j, kb))
            sees.setdefault((j, kb), set()).add((i, ka))

        done: set[tuple[int, ...]] = set()
        # A colour that sees both colours of another cluster is false.
        for (x, kx), linked in sorted(sees.items()):
            for y in sorted({y for y, _ in linked}):
                if (y, 0) not in linked or (y, 1) not in linked:
                    continue
                false = clusters[x].colours[kx]
                key = (digit, *false)
                if key in done:
                    continue
                done.add(key)
                bridge = [(a, b) if i == x else (b, a) for (i, ka, j, kb), (a, b) in sorted(bridges.items())
                          if {(i, ka), (j, kb)} in ({(x, kx), (y, 0)}, {(x, kx), (y, 1)})]
                cells = tuple(sorted({*clusters[x].colour, *clusters[y].colour}))
                links = (*clusters[x].links, *clusters[y].links,
                         *(Link((a,), digit, (b,), digit, False) for a, b in bridge))
                text = (f"{_both(clusters[x], clusters[y], n)} {{{_names(false, n)}}} sees both sets of the other chain "
                        f"({_names([b for _, b in bridge], n)}), one of which is {d}, so it is not {d}: remove {d} "
                        f"from {_names(false, n)}.")
                yield Step("multi-colouring", FIENDISH, cells, (digit,), text,
                           eliminations=tuple((c, digit) for c in false), links=links)
        # Two colours that see each other are not both true: one of their opposites is, and a
        # candidate that sees both opposites goes (all the bridges between two clusters at once).
        by_pair: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
        for (i, ka, j, kb), (a, b) in sorted(bridges.items()):
            by_pair.setdefault((i, j), []).append((ka, kb, a, b))
        for (i, j), found in by_pair.items():
            ci, cj = clusters[i], clusters[j]
            targets: set[int] = set()
            why = []
            for ka, kb, a, b in found:
                opp_i, opp_j = ci.colours[1 - ka], cj.colours[1 - kb]
                seen_i: set[int] = set().union(*(peer_sets[c] for c in opp_i))
                seen_j: set[int] = set().union(*(peer_sets[c] for c in opp_j))
                these = {c for c in seen_i & seen_j if masks[c] & bit} - set(opp_i) - set(opp_j)
                if these - targets:
                    targets |= these
                    why.append(f"{cell_name(a, n)} and {cell_name(b, n)} see each other, so one of "
                               f"{{{_names(opp_i, n)}}} and {{{_names(opp_j, n)}}} is {d}, and "
                               f"{_names(sorted(these), n)} cannot be {d}")
            if not targets:
                continue
            eliminations = tuple((c, digit) for c in sorted(targets))
            key = (digit, -1, *sorted(targets))
            if key in done:
                continue
            done.add(key)
            cells = tuple(sorted({*ci.colour, *cj.colour}))
            links = (*ci.links, *cj.links, *(Link((a,), digit, (b,), digit, False) for _, _, a, b in found))
            text = f"{_both(ci, cj, n)} {'; '.join(why)}."
            yield Step("multi-colouring", FIENDISH, cells, (digit,), text, eliminations=eliminations, links=links)
