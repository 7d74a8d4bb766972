"""Almost locked sets: ALS-XZ, ALS-XY-wing and sue de coq.

An **almost locked set** (ALS) is ``N`` empty cells of one unit holding ``N + 1`` digits
between them: one digit short of a locked set (a bivalue cell is the smallest). Take one of
its digits away and the other ``N`` are locked in those cells.

Two ALSes A and B have a **restricted common candidate** (RCC) ``x`` when both hold ``x`` and
every cell of A holding ``x`` sees every cell of B holding ``x``: ``x`` is in at most one of
them, so the other is locked without it.

- **ALS-XZ**: A and B with an RCC ``x`` and another common digit ``z``. One of them is locked
  without ``x``, so holds its ``z``: ``z`` goes from every cell (outside both) that sees all the
  ``z`` cells of A and B. Eureka: ``(z=x)A-(x=z)B``. *Doubly linked*, with two RCCs ``x1`` and
  ``x2``: each of them is in exactly one set, so both sets are locked with all their other
  digits; then every RCC goes from the cells seeing all its cells in A and B, and every other
  digit of A (of B) from the cells seeing all its cells in A (in B).
- **WXYZ-, VWXYZ-, UVWXYZ-wing**: an ALS-XZ whose one set is a bivalue cell and the other 3,
  4 or 5 cells: the wings past XY- and XYZ-wing (whose other set has 2 cells), named and rated
  as Sukaku Explainer does (5.5-5.6, 6.2-6.4, 6.6), so they come before the general ALS-XZ.
- **ALS-XY-wing**: a pivot ALS C with an RCC ``x`` to A and ``y`` to B (``x != y``). C holds
  ``x`` or ``y`` (it lacks one digit at most), so A or B is locked: a digit ``z`` common to A and
  B goes from the cells seeing all its cells in both. Eureka: ``(z=x)A-(x=y)C-(y=z)B``. The
  sets may share cells (HoDoKu's "allow ALS overlap"; these wings come after those of three
  disjoint sets) as long as no cell of both C and A holds ``x``, nor one of both C and B ``y``
  (so ``x`` is still in one of C and A at most); A may not lie inside B nor B inside A.
- **Sue de coq** (two-sector disjoint subsets): ``n >= 2`` empty cells C where a box meets a
  line, holding ``|V| >= n + 2`` digits; a set D of cells in the rest of the line and a set E in
  the rest of the box, with no digit in common, such that C, D and E hold exactly as many
  digits as cells. Every digit then has one place among them: D's digits (and C's digits
  outside E) are in the line, E's digits (and C's digits outside D) are in the box, and they
  go from the line's and the box's other cells. D and E of one cell each is the basic form;
  larger ones the extended form. D and E take only cells holding one of C's digits.

Limits, for speed in pure Python (each finder takes a few milliseconds on a hard 9x9
position): ALSes have at most :data:`MAX_ALS_CELLS` cells on grids of up to nine digits, which
on a 9x9 grid is every ALS (HoDoKu's bound: a unit less one cell; some of HoDoKu's ALS-XY-wings,
chains and death blossoms need sets of six cells), and :data:`MAX_ALS_CELLS_LARGE` on larger
grids (on 16x16 positions eight cells would triple the ALS finders' time, 30 to 80 ms a
position); two ALSes must not share a cell except in an ALS-XY-wing, and the D and E sets of a
sue de coq have at most :data:`MAX_SDC_CELLS` cells each. The ALSes of a position are built
once and reused by all the ALS finders (one cached position): on the forum's hardest positions
about 230 sets in 5.5 ms (2.6 ms for the 140 of at most five cells).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import combinations
from typing import Any, NamedTuple, cast

from tui_games.engine.sudoku.grid import Geometry, bit_indexes, digit_char, mask_digits
from tui_games.engine.sudoku.levels import EXTREME, FIENDISH
from tui_games.engine.sudoku.notation import cells_text
from tui_games.engine.sudoku.techniques import Link, State, Step, _digits, _join, _names

__all__ = ["BENT_WINGS", "MAX_ALS_CELLS", "MAX_ALS_CELLS_LARGE", "MAX_SDC_CELLS", "als_xy_wings", "als_xz",
           "bent_wing", "sue_de_coq"]

#: The largest almost locked set considered (cells): a 9x9 unit less one cell.
MAX_ALS_CELLS = 8
#: The same on grids of more than nine digits (16x16).
MAX_ALS_CELLS_LARGE = 5
#: The largest line set and box set of a sue de coq (cells).
MAX_SDC_CELLS = 3


class Als(NamedTuple):
    """An almost locked set: its cells, their bitset (bit ``c`` for cell ``c``), its digits
    (mask), the unit it lies in, and per digit (index ``d``) the bitset of its cells holding
    ``d`` and of the cells outside it that see all of those."""

    cells: tuple[int, ...]
    bits: int
    digits: int
    unit: int
    where: tuple[int, ...]
    sees: tuple[int, ...]


@cache
def _peer_bits(geo: Geometry) -> tuple[int, ...]:
    out = []
    for peers in geo.peers:
        b = 0
        for p in peers:
            b |= 1 << p
        out.append(b)
    return tuple(out)


class Position(NamedTuple):
    """What the ALS finders share about one position: the ALSes (smallest first); the RCC
    digits (mask) of every pair of disjoint ALSes that has one, keyed ``(i, j)``, ``i < j``;
    per ALS, ``{z: cells}``: the cells outside it holding ``z`` that see all its ``z`` cells
    (where an elimination of ``z`` could fall), only for the digits that have some; and the
    RCCs of pairs of ALSes that share cells, none of which holds the RCC (HoDoKu's "ALS
    overlap": the RCC's cells of the two sets still all see each other, so it is in one set
    at most), used by the ALS-XY-wing only."""

    alses: list[Als]
    rccs: dict[tuple[int, int], int]
    targets: list[dict[int, int]]
    shared: dict[tuple[int, int], int]


_cache_lock = threading.Lock()
_cached: list[Any] = [None, None]  # [key, Position]: the last position, shared by the finders


def _position(state: State) -> Position:
    key = (state.geo, tuple(state.masks))
    with _cache_lock:
        if _cached[0] == key:
            return cast(Position, _cached[1])
    alses = _alses(state)
    cand = [0] * (state.geo.size + 1)
    for c, m in enumerate(state.masks):
        for d in mask_digits(m):
            cand[d] |= 1 << c
    targets = []
    for a in alses:
        t = {}
        for d in mask_digits(a.digits):
            hit = a.sees[d] & cand[d]
            if hit:
                t[d] = hit
        targets.append(t)
    rccs, shared = _rccs(state, alses)
    result = Position(alses, rccs, targets, shared)
    with _cache_lock:
        _cached[0], _cached[1] = key, result
    return result


def _alses(state: State) -> list[Als]:
    geo, masks = state.geo, state.masks
    size = geo.size
    peer_bits = _peer_bits(geo)
    seen: dict[int, Als] = {}
    for u, unit in enumerate(geo.units):
        state.check_stop()
        empty = [c for c in unit if masks[c]]
        most = min(MAX_ALS_CELLS if size <= 9 else MAX_ALS_CELLS_LARGE, len(empty) - 1)
        if most < 1:
            continue
        stack: list[tuple[int, int, int, tuple[int, ...]]] = [(0, 0, 0, ())]
        # depth-first over subsets in index order; a subset whose digits exceed most + 1 can
        # not shrink back to an ALS, so its supersets are skipped
        while stack:
            start, union, bits, cells = stack.pop()
            for i in range(start, len(empty)):
                c = empty[i]
                m = union | masks[c]
                k = m.bit_count()
                if k > most + 1:
                    continue
                nc = (*cells, c)
                nb = bits | (1 << c)
                if k == len(nc) + 1 and nb not in seen:
                    where = [0] * (size + 1)
                    for cell in nc:
                        for d in mask_digits(masks[cell]):
                            where[d] |= 1 << cell
                    sees = [0] * (size + 1)
                    for d in mask_digits(m):
                        s = -1
                        for cell in bit_indexes(where[d]):
                            s &= peer_bits[cell]
                        sees[d] = s & ~nb
                    seen[nb] = Als(nc, nb, m, u, tuple(where), tuple(sees))
                if len(nc) < most:
                    stack.append((i + 1, m, nb, nc))
    return sorted(seen.values(), key=lambda a: (len(a.cells), a.cells))


def _rccs(state: State, alses: list[Als]) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """RCC masks of ALS pairs, disjoint ones and those sharing cells. Per digit, ALSes are
    grouped by the cells holding it (many share them), and only groups whose cells all see
    each other are paired (so no shared cell holds the digit: a cell does not see itself)."""
    size = state.geo.size
    peer_bits = _peer_bits(state.geo)
    pairs: dict[tuple[int, int], int] = {}
    shared: dict[tuple[int, int], int] = {}
    for d in range(1, size + 1):
        state.check_stop()
        bit = 1 << (d - 1)
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(alses):
            if a.digits & bit:
                groups.setdefault(a.where[d], []).append(i)
        sees = {}
        for w in groups:
            s = -1
            for c in bit_indexes(w):
                s &= peer_bits[c]
            sees[w] = s
        keys = list(groups)
        for gi, w1 in enumerate(keys):
            s1 = sees[w1]
            for w2 in keys[gi + 1:]:
                if w2 & ~s1:
                    continue  # some d-cell of the second group does not see all those of the first
                for i in groups[w1]:
                    a_bits = alses[i].bits
                    for j in groups[w2]:
                        into = shared if a_bits & alses[j].bits else pairs
                        key = (i, j) if i < j else (j, i)
                        into[key] = into.get(key, 0) | bit
    return pairs, shared


def _cells_text(cells: Sequence[int], n: int) -> str:
    """An ALS's cells as Eureka writes a group: ``r1c12``, ``r58c6``; cells in several rows and
    columns as line groups joined by commas, the shorter way: ``r7c2,r9c1``, ``r6c2,r456c3``
    (by semicolons on 16x16 grids, whose groups have commas inside: ``r1c10,11;r2c10``)."""
    cells = sorted(cells)
    rows = sorted({c // n for c in cells})
    cols = sorted({c % n for c in cells})
    if len(rows) == 1 or len(cols) == 1:
        return cells_text(cells, n)
    by_row = [cells_text([c for c in cells if c // n == r], n) for r in rows]
    by_col = [cells_text([c for c in cells if c % n == k], n) for k in cols]
    sep = "," if n <= 9 else ";"
    return sep.join(min(by_row, by_col, key=lambda parts: len(sep.join(parts))))


def _als_text(a: Als, n: int) -> str:
    return f"{_names(a.cells, n)} ({_digits(a.digits)})"


def _node(a: Als, d: int) -> tuple[int, ...]:
    return tuple(bit_indexes(a.where[d]))


def _by_digit(eliminations: Sequence[tuple[int, int]], n: int) -> list[str]:
    """``["7 from r4c8", "9 from r4c9, r6c7"]``."""
    by_digit: dict[int, list[int]] = {}
    for c, d in eliminations:
        by_digit.setdefault(d, []).append(c)
    return [f"{digit_char(d)} from {_names(sorted(cs), n)}" for d, cs in sorted(by_digit.items())]


def _removal_by_digit(eliminations: Sequence[tuple[int, int]], n: int) -> str:
    """``8 is removed from r7c3, r8c3`` or ``7 is removed from r4c8 and 9 from r4c9, r6c7``."""
    first, *rest = _by_digit(eliminations, n)
    digit, where = first.split(" from ", 1)
    return _join([f"{digit} is removed from {where}", *rest])


def als_xz(state: State) -> Iterator[Step]:
    return _xz(state, None)


# Sukaku Explainer's names and ratings for an ALS-XZ whose one set is a bivalue cell, by the size
# of the other set (3, 4, 5 cells): the wing family after XY- and XYZ-wing (2 cells).
BENT_WINGS = {3: ("WXYZ-wing", EXTREME), 4: ("VWXYZ-wing", FIENDISH), 5: ("UVWXYZ-wing", FIENDISH)}


def bent_wing(size: int) -> Callable[[State], Iterator[Step]]:
    """The ALS-XZ steps whose sets are a bivalue cell and an ALS of ``size`` cells (see
    :data:`BENT_WINGS`), named and rated as Sukaku Explainer does."""
    def find(state: State) -> Iterator[Step]:
        # the lowest rating first: Sukaku's first wing is most often its easiest
        return iter(sorted(_xz(state, size), key=lambda step: step.rating))
    find.__name__ = BENT_WINGS[size][0].lower().replace("-", "_") + "s"
    return find


def _wing_rating(size: int, widest: int) -> float:
    """Sukaku Explainer's rating of a bent wing: a base by size, plus 0.1 or 0.2 for a widest
    cell (most candidates) in the middle of the possible range -- the extremes read easier."""
    if size == 3:
        return round(5.5 + (1 - abs(3 - widest)) * 0.1, 1)
    if size == 4:
        return round(6.2 + (2 - abs(3 - widest)) * 0.1, 1)
    return 6.6


def _xz(state: State, wing: int | None) -> Iterator[Step]:
    """ALS-XZ steps; with ``wing``, only those of a bivalue cell and a ``wing``-cell ALS."""
    n = state.geo.size
    alses, rccs, targets, _ = _position(state)
    pairs = sorted(rccs, key=lambda ij: (len(alses[ij[0]].cells) + len(alses[ij[1]].cells), ij))
    if wing is not None:
        pairs = [(i, j) for i, j in pairs
                 if sorted((len(alses[i].cells), len(alses[j].cells))) == [1, wing]]
    for i, j in pairs:
        state.check_stop()
        rcc = rccs[i, j]
        a, b = alses[i], alses[j]
        ta, tb = targets[i], targets[j]
        outside = ~(a.bits | b.bits)
        xs = mask_digits(rcc)
        if len(xs) > 2:
            continue  # three RCCs cannot happen in a puzzle with a solution
        hits: dict[int, int] = {}
        # with one RCC, the other common digits; doubly linked, the RCCs too
        for z in mask_digits(a.digits & b.digits & (~rcc if len(xs) == 1 else -1)):
            if z in ta and z in tb:
                hit = ta[z] & tb[z] & outside
                if hit:
                    hits[z] = hit
        if len(xs) == 2:
            for s, other, t in ((a, b, ta), (b, a, tb)):
                for z in mask_digits(s.digits & ~other.digits & ~rcc):
                    hit = t.get(z, 0) & ~other.bits
                    if hit:
                        hits[z] = hits.get(z, 0) | hit
                for z in mask_digits(s.digits & other.digits & ~rcc):
                    hit = t.get(z, 0) & ~other.bits
                    if hit:
                        hits[z] = hits.get(z, 0) | hit
        if not hits:
            continue
        elims = tuple(sorted((c, z) for z, hit in hits.items() for c in bit_indexes(hit)))
        step = _xz_step(a, b, xs, elims, n)
        if wing is not None:
            name, level = BENT_WINGS[wing]
            widest = max(state.masks[c].bit_count() for c in step.cells)
            step = dataclasses.replace(step, technique=name, level=level, rating=_wing_rating(wing, widest))
        yield step


def _xz_step(a: Als, b: Als, xs: tuple[int, ...], elims: tuple[tuple[int, int], ...], n: int) -> Step:
    ta, tb = _cells_text(a.cells, n), _cells_text(b.cells, n)
    zs = sorted({d for _, d in elims})
    if len(xs) == 1:
        x = xs[0]
        z = next((d for d in zs if d != x), zs[0])
        xc, zc = digit_char(x), digit_char(z)
        chain = f"({zc}={xc}){ta}-({xc}={zc}){tb}"
        links: tuple[Link, ...] = (Link(_node(a, z), z, _node(a, x), x, True), Link(_node(a, x), x, _node(b, x), x, False),
                 Link(_node(b, x), x, _node(b, z), z, True))
        text = (f"{_als_text(a, n)} and {_als_text(b, n)} are almost locked sets, each one digit short of "
                f"filling its cells; {xc} fits in only one of them (its places all see each other), so the "
                f"other is locked and holds its {_join([digit_char(d) for d in zs])}. So "
                f"{_removal_by_digit(elims, n)}: those cells see all of them in both sets.")
    else:
        x1, x2 = xs
        c1, c2 = digit_char(x1), digit_char(x2)
        chain = f"({c2}={c1}){ta}-({c1}={c2}){tb}-({c2}={c1}){ta}"
        links = (Link(_node(a, x2), x2, _node(a, x1), x1, True), Link(_node(a, x1), x1, _node(b, x1), x1, False),
                 Link(_node(b, x1), x1, _node(b, x2), x2, True), Link(_node(b, x2), x2, _node(a, x2), x2, False))
        text = (f"{_als_text(a, n)} and {_als_text(b, n)} are almost locked sets linked twice: {c1} and {c2} "
                f"each fit in only one of them, so each set is locked and all their digits stay inside. So "
                f"{_removal_by_digit(elims, n)}.")
    cells = tuple(sorted(a.cells + b.cells))
    digits = mask_digits(a.digits | b.digits)
    return Step("ALS-XZ", FIENDISH, cells, digits, text, eliminations=elims, units=tuple(sorted({a.unit, b.unit})),
                links=links, chain=(chain,))


def als_xy_wings(state: State) -> Iterator[Step]:
    """The wings of three disjoint sets first (HoDoKu's default), pivot by pivot, then those
    whose sets share cells (HoDoKu's "allow ALS overlap"), kept back until the others are
    all out: one search for both."""
    n = state.geo.size
    alses, rccs, targets, shared = _position(state)
    neighbours: list[list[tuple[int, int]]] = [[] for _ in alses]
    for (i, j), rcc in [*rccs.items(), *shared.items()]:
        if rcc.bit_count() <= 2:
            neighbours[i].append((j, rcc))
            neighbours[j].append((i, rcc))
    reported: set[tuple[int, int, tuple[tuple[int, int], ...]]] = set()
    later: dict[tuple[int, int, tuple[tuple[int, int], ...]], Step] = {}
    for ci, pivot in enumerate(alses):  # small pivots first
        state.check_stop()
        # the wings of this pivot by the digit z they could remove, with where
        by_z: dict[int, list[tuple[int, int, int]]] = {}
        for ai, rcc in neighbours[ci]:
            for z, hit in targets[ai].items():
                by_z.setdefault(z, []).append((ai, rcc, hit))
        wings: dict[tuple[int, int, int, int], dict[int, int]] = {}
        for z, near in by_z.items():
            zbit = 1 << (z - 1)
            for (ai, rca, ha), (bi, rcb, hb) in combinations(near, 2):
                hit = ha & hb
                if not hit:
                    continue
                a, b = alses[ai], alses[bi]
                both = a.bits & b.bits
                if both in (a.bits, b.bits):
                    continue  # the wings may share cells, but one may not lie inside the other (as HoDoKu)
                hit &= ~(a.bits | b.bits)
                rca &= ~zbit
                rcb &= ~zbit
                if not hit:
                    continue
                # x links A to the pivot, y the pivot to B: two different digits, neither z
                x = y = 0
                for x in mask_digits(rca):
                    y_mask = rcb & ~(1 << (x - 1))
                    if y_mask:
                        y = (y_mask & -y_mask).bit_length()
                        break
                if not y:
                    continue
                key = (ai, bi, x, y) if ai < bi else (bi, ai, y, x)
                wings.setdefault(key, {})[z] = wings.get(key, {}).get(z, 0) | hit
        ordered = sorted(wings.items(), key=lambda kv: len(alses[kv[0][0]].cells) + len(alses[kv[0][1]].cells))
        for (ai, bi, x, y), hits in ordered:
            elims = tuple(sorted((c, z) for z, hit in hits.items() for c in bit_indexes(hit)))
            seen_key = (ai, bi, elims)
            a, b = alses[ai], alses[bi]
            if (a.bits | b.bits) & pivot.bits or a.bits & b.bits:
                if seen_key not in later:
                    later[seen_key] = _xy_step(a, pivot, b, x, y, elims, n)
            elif seen_key not in reported:
                reported.add(seen_key)
                yield _xy_step(a, pivot, b, x, y, elims, n)
    # the same wings and eliminations through another pivot, sharing no cell, came out first
    yield from (step for key, step in later.items() if key not in reported)


def _xy_step(a: Als, c: Als, b: Als, x: int, y: int, elims: tuple[tuple[int, int], ...], n: int) -> Step:
    z = elims[0][1]
    xc, yc, zc = digit_char(x), digit_char(y), digit_char(z)
    ta, tc, tb = _cells_text(a.cells, n), _cells_text(c.cells, n), _cells_text(b.cells, n)
    chain = f"({zc}={xc}){ta}-({xc}={yc}){tc}-({yc}={zc}){tb}"
    links = (Link(_node(a, z), z, _node(a, x), x, True), Link(_node(a, x), x, _node(c, x), x, False),
             Link(_node(c, x), x, _node(c, y), y, True), Link(_node(c, y), y, _node(b, y), y, False),
             Link(_node(b, y), y, _node(b, z), z, True))
    zs = sorted({d for _, d in elims})
    overlap = bool(a.bits & b.bits or a.bits & c.bits or b.bits & c.bits)
    text = (f"The almost locked set {_als_text(c, n)} holds {xc} or {yc}: if {xc}, {_als_text(a, n)} loses its "
            f"{xc} (they see each other) and is locked; if {yc}, {_als_text(b, n)} is. Either way one of them holds "
            f"its {_join([digit_char(d) for d in zs])}, so {_removal_by_digit(elims, n)}: those cells see all of "
            f"them in both sets."
            + (f" The sets share cells, which does not matter: no cell holding {xc} is in both the pivot and "
               f"{ta}, nor one holding {yc} in both the pivot and {tb}." if overlap else ""))
    cells = tuple(sorted({*a.cells, *b.cells, *c.cells}))
    return Step("ALS-XY-wing", FIENDISH, cells, mask_digits(a.digits | b.digits | c.digits), text,
                eliminations=elims, units=tuple(sorted({a.unit, b.unit, c.unit})), links=links, chain=(chain,))


def _subsets(cells: list[int], masks: list[int], v: int, most: int) -> list[tuple[tuple[int, ...], int, int]]:
    """Subsets of ``cells`` (up to ``most``) as (cells, digits, gain): gain = cells - digits
    outside ``v``; only those with gain >= 1 (the others cannot help)."""
    out = []
    for k in range(1, min(most, len(cells)) + 1):
        for combo in combinations(cells, k):
            m = 0
            for c in combo:
                m |= masks[c]
            gain = k - (m & ~v).bit_count()
            if gain >= 1:
                out.append((combo, m, gain))
    return out


def sue_de_coq(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    names = geo.unit_names
    found: list[tuple[int, Step]] = []
    reported: set[tuple[tuple[int, int], ...]] = set()
    for box, line, shared, box_rest, line_rest in geo.intersections:
        state.check_stop()
        inner = [c for c in shared if masks[c]]
        if len(inner) < 2:
            continue
        line_all = [c for c in geo.units[line] if masks[c]]
        box_all = [c for c in geo.units[box] if masks[c]]
        for k in range(2, len(inner) + 1):
            for core in combinations(inner, k):
                v = 0
                for c in core:
                    v |= masks[c]
                surplus = v.bit_count() - k
                if surplus < 2:
                    continue
                line_cells = [c for c in line_rest if masks[c] & v]
                box_cells = [c for c in box_rest if masks[c] & v]
                if not line_cells or not box_cells:
                    continue
                ds = _subsets(line_cells, masks, v, MAX_SDC_CELLS)
                if not ds:
                    continue
                by_gain: dict[int, list[tuple[tuple[int, ...], int, int]]] = {}
                for e in _subsets(box_cells, masks, v, MAX_SDC_CELLS):
                    by_gain.setdefault(e[2], []).append(e)
                for d_cells, vd, gain in ds:
                    for e_cells, ve, _ in by_gain.get(surplus - gain, ()):
                        if vd & ve:
                            continue
                        in_line = vd | (v & ~ve)
                        in_box = ve | (v & ~vd)
                        used = set(core) | set(d_cells) | set(e_cells)
                        elims = {(c, d) for c in line_all if c not in used for d in mask_digits(masks[c] & in_line)}
                        elims |= {(c, d) for c in box_all if c not in used for d in mask_digits(masks[c] & in_box)}
                        if not elims:
                            continue
                        key = tuple(sorted(elims))
                        if key in reported:
                            continue
                        reported.add(key)
                        text = (f"{_names(core, n)}, where {names[box]} meets {names[line]}, hold {_digits(v)}; with "
                                f"{_names(d_cells, n)} ({_digits(vd)}) in {names[line]} and {_names(e_cells, n)} "
                                f"({_digits(ve)}) in {names[box]}, which share no digit, these cells hold as many "
                                f"digits as cells, each once. So {_digits(in_line)} are removed from the rest of "
                                f"{names[line]} and {_digits(in_box)} from the rest of {names[box]}: "
                                f"{'; '.join(_by_digit(key, n))}.")
                        cells = tuple(sorted(used))
                        step = Step("sue de coq", FIENDISH, cells, mask_digits(v | vd | ve), text,
                                    eliminations=key, units=(box, line))
                        found.append((len(cells), step))
    found.sort(key=lambda item: item[0])
    for _, step in found:
        yield step
