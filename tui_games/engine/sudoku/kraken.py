"""Kraken fish: finned fish whose fins are followed through chains.

A finned fish (:mod:`.fish`, :mod:`.complex_fish`) says: either a fin holds its digit, or the
fish stands. A plain finned fish removes only what sees every fin. A kraken fish follows each
fin with a chain instead:

- **type 1**: a cell the fish would clear of its digit (a cover cell outside the bases) loses
  it if, for every fin, "the fin is the digit" leads by a chain to "this cell is not";
- **type 2**: take one cover unit: either a fin holds the digit or one of the cover's cells
  inside the bases does. A candidate (any digit, anywhere) that every one of those, taken as
  true, rules out by a chain is false.

The chains are alternating inference chains on the position as it is (static, as an AIC):
from "A is true", every candidate A sees is false (same cell, or same digit in a unit); from "B
is false", the other candidate of a bivalue cell and the other place of a digit with two
places in a unit are true. Each assumption is followed to :data:`MAX_DEPTH` links; the shortest
chain to each candidate is kept. The fish are the rows-and-columns and Franken fish of
:data:`SIZES` units with at most two fins (:mod:`.complex_fish`), whose search is shared.

Rating: HoDoKu scores a kraken fish as a forcing chain (500, its "last resort" class); on
Sudoku Explainer's scale that is the digit forcing chain's 7.5, plus the
:func:`~.techniques.length_rating` of the chains' links together.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from tui_games.engine.sudoku.complex_fish import FRANKEN, Fish, fish_of_size
from tui_games.engine.sudoku.grid import bit_indexes, cell_name, digit_char
from tui_games.engine.sudoku.levels import DIABOLICAL
from tui_games.engine.sudoku.notation import node_text
from tui_games.engine.sudoku.techniques import FISH_NAMES, Link, State, Step, _join, _names, length_rating

__all__ = ["BASE", "MAX_DEPTH", "kraken_fish"]

BASE = 7.5
#: The fish sizes followed: X-wings (a swordfish search costs a hint too much, see :mod:`.catalogue`).
SIZES = (2,)
#: The longest chain followed from a fin, in links.
MAX_DEPTH = 6

# A candidate is ``cell * size + digit - 1``; an implication node is ``2 * candidate + on``.
_Parents = dict[int, int]


class _Implications:
    """What "candidate X is true" implies, per X, computed on demand and kept for the position."""

    def __init__(self, state: State) -> None:
        self.state = state
        geo = state.geo
        n = self.n = geo.size
        masks = state.masks
        self.masks = masks
        # per unit and digit, the cells holding it
        self.places = [[[c for c in unit if masks[c] & (1 << d)] for d in range(n)] for unit in geo.units]
        self.cache: dict[int, _Parents] = {}
        #: per candidate taken as true, the candidates it rules out (a bit set over candidates)
        self.off: dict[int, int] = {}

    def rules_out(self, cand: int) -> int:
        """The candidates "``cand`` is true" rules out, as a bit set."""
        hit = self.off.get(cand)
        if hit is None:
            hit = 0
            for node in self.from_on(cand):
                if not node & 1:
                    hit |= 1 << (node >> 1)
            self.off[cand] = hit
        return hit

    def from_on(self, cand: int) -> _Parents:
        """Every node reached from "``cand`` is true", with its parent (the start: -1)."""
        hit = self.cache.get(cand)
        if hit is not None:
            return hit
        geo, n, masks = self.state.geo, self.n, self.masks
        par: _Parents = {2 * cand + 1: -1}
        layer = [2 * cand + 1]
        for _ in range(MAX_DEPTH):
            following = []
            for node in layer:
                c, d = divmod(node >> 1, n)
                if node & 1:  # true: every candidate it sees is false
                    off = [c * n + e for e in range(n) if e != d and masks[c] & (1 << e)]
                    off += [p * n + d for p in geo.peers[c] if masks[p] & (1 << d)]
                    for x in off:
                        key = 2 * x
                        if key not in par:
                            par[key] = node
                            following.append(key)
                else:  # false: a bivalue cell's other digit, a conjugate place
                    on = []
                    m = masks[c] & ~(1 << d)
                    if m and not m & (m - 1):
                        on.append(c * n + m.bit_length() - 1)
                    for u in geo.units_of[c]:
                        where = self.places[u][d]
                        if len(where) == 2:
                            other = where[0] if where[1] == c else where[1]
                            on.append(other * n + d)
                    for x in on:
                        key = 2 * x + 1
                        if key not in par:
                            par[key] = node
                            following.append(key)
            layer = following
            if not layer:
                break
        self.cache[cand] = par
        return par

    def path(self, par: _Parents, node: int) -> list[int]:
        out = [node]
        while par[node] != -1:
            node = par[node]
            out.append(node)
        out.reverse()
        return out


_cache_lock = threading.Lock()
_cached: list[Any] = [None, None]


def _implications(state: State) -> _Implications:
    key = (state.geo, tuple(state.masks))
    with _cache_lock:
        if _cached[0] == key:
            imp: _Implications = _cached[1]
            imp.state = state  # the caller's stop event
            return imp
    imp = _Implications(state)
    with _cache_lock:
        _cached[0], _cached[1] = key, imp
    return imp


def kraken_fish(state: State) -> Iterator[Step]:
    n = state.geo.size
    imp = _implications(state)
    found: list[tuple[float, Step]] = []
    reported: set[tuple[tuple[int, int], ...]] = set()
    tried: set[tuple[int, ...]] = set()
    for size in SIZES:
        for f in fish_of_size(state, size, FRANKEN, every_finned=True):
            if not f.fins:
                continue
            state.check_stop()
            d = f.digit - 1
            fins = bit_indexes(f.fins)
            fin_off = -1
            for c in fins:
                fin_off &= imp.rules_out(c * n + d)
            # type 1: targets every fin rules out, not already the plain fish's
            for t in bit_indexes(f.targets & ~f.eliminations):
                if fin_off >> (t * n + d) & 1:
                    elims = ((t, f.digit),)
                    if elims not in reported:
                        reported.add(elims)
                        branches = [(c, imp.from_on(c * n + d)) for c in fins]
                        step = _step(state, imp, f, 1, fins, branches, 2 * (t * n + d), elims)
                        found.append((step.rating, step))
            # type 2: per cover, its cells inside the bases and the fins all rule out one candidate
            for u in f.covers:
                inside = [c for c in state.geo.units[u] if f.body >> c & 1 and not f.fins >> c & 1]
                if not inside:
                    continue
                key = (f.digit, *inside, -1, *fins)
                if key in tried:
                    continue  # the same cases from another fish
                tried.add(key)
                common = fin_off
                for c in inside:
                    common &= imp.rules_out(c * n + d)
                    if not common:
                        break
                for cand in bit_indexes(common):
                    cell, digit = divmod(cand, n)
                    if digit == d and f.eliminations >> cell & 1:
                        continue  # the plain fish's
                    elims = ((cell, digit + 1),)
                    if elims in reported:
                        continue
                    reported.add(elims)
                    branches = [(c, imp.from_on(c * n + d)) for c in inside + fins]
                    step = _step(state, imp, f, 2, fins, branches, 2 * cand, elims, cover=u)
                    found.append((step.rating, step))
    found.sort(key=lambda item: item[0])
    for _, step in found:
        yield step


def _step(state: State, imp: _Implications, f: Fish, kind: int, fins: list[int],
          branches: list[tuple[int, _Parents]], node: int, elims: tuple[tuple[int, int], ...],
          cover: int | None = None) -> Step:
    geo = state.geo
    n = geo.size
    names = geo.unit_names
    dc = digit_char(f.digit)
    chains: list[str] = []
    links: list[Link] = []
    length = 0
    for _, par in branches:
        path = imp.path(par, node)
        length += len(path) - 1
        parts = []
        for k, nd in enumerate(path):
            c, e = divmod(nd >> 1, n)
            parts.append(node_text((c,), e + 1, n))
            if k + 1 < len(path):
                nxt = path[k + 1]
                c2, e2 = divmod(nxt >> 1, n)
                strong = not nd & 1  # from false to true
                parts.append("=" if strong else "-")
                links.append(Link((c,), e + 1, (c2,), e2 + 1, strong))
        chains.append("".join(parts))
    target_cell, target_digit = elims[0]
    target = f"{digit_char(target_digit)} at {cell_name(target_cell, n)}"
    size = len(f.bases)
    fish_name = (f"{'' if f.kind == 'basic' else f.kind + ' '}{FISH_NAMES[size]}")
    fish_text = (f"In {_join([names[u] for u in f.bases])}, {dc} fits only in {_join([names[u] for u in f.covers])} "
                 f"but for the fin{'s' if len(fins) > 1 else ''} {_names(fins, n)}")
    if kind == 1:
        text = (f"{fish_text}. Either a fin is {dc}, or the finned {fish_name} clears {dc} from "
                f"{cell_name(target_cell, n)}; and each fin, if it were {dc}, would rule out {target} through a "
                f"chain. So {cell_name(target_cell, n)} is not {dc}.")
    else:
        assert cover is not None
        inside = [c for c, _ in branches[: len(branches) - len(fins)]]
        text = (f"{fish_text}. So {names[cover]} has its {dc} in {_names(inside, n)} or a fin is {dc}; each of these, "
                f"if it were {dc}, would rule out {target} through a chain. So it is not.")
    rating = round(BASE + length_rating(length), 1)
    cells = tuple(sorted(bit_indexes(f.body)))
    return Step(f"kraken {fish_name}", DIABOLICAL, cells, (f.digit,), text, eliminations=elims,
                units=tuple(sorted(f.bases + f.covers)), rating=rating, links=tuple(links), chain=tuple(chains))
