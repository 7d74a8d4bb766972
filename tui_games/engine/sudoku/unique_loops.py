"""Unique loops: the deadly pattern of :mod:`.uniqueness` on 6, 8, 10 ... cells.

A unique rectangle is the smallest *unique loop*: empty cells holding the digits ``a`` and
``b``, each linked to the next by a unit, such that every unit the loop meets holds exactly two
of its cells, one at an odd and one at an even place along the loop. If every cell ended up
``a`` or ``b`` (alternating along the loop), swapping the two digits would give a second
solution: every unit still holds one ``a`` and one ``b``. A proper puzzle has one solution, so
some cell of the loop holds another digit, and the types say what follows, as for rectangles:

- **type 1**: one cell has extra digits: it is neither ``a`` nor ``b``;
- **type 2**: the cells with extras all have the same single extra ``x``: one of them is ``x``,
  so ``x`` goes from every cell that sees them all;
- **type 3**: two cells with extras share a unit: one of them holds an extra, so together they
  act as one cell holding the extras, and may form a naked set with other cells of that unit;
- **type 4**: two cells with extras share a unit where ``a`` has no other place: one of them is
  ``a``, so neither may be ``b`` (that would complete the pattern).

Ratings are Sudoku Explainer's: 4.5 for the rectangle, +0.1 for a 6-cell loop, +0.2 for 8
cells, +0.5 for 10 or more; a type-3 naked set adds 0.1 per cell past a pair.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tui_games.engine.sudoku.grid import digit_char, mask_digits
from tui_games.engine.sudoku.levels import EXTREME
from tui_games.engine.sudoku.techniques import State, Step, _digits, _names, _removal

__all__ = ["NAME", "loop_rating", "unique_loops"]

NAME = "unique loop"

#: The longest loop looked for: beyond it the search grows fast and such loops are very rare.
MAX_LENGTH = 14
#: The largest naked set a type-3 loop forms with other cells (the extras count as one cell).
TYPE3_MAX_CELLS = 4


def loop_rating(length: int) -> float:
    """Sudoku Explainer's rating of a unique loop of ``length`` cells (types 1, 2 and 4)."""
    if length >= 10:
        return 5.0
    return {4: 4.5, 6: 4.6, 8: 4.7}[length]


def _valid(state: State, loop: list[int]) -> bool:
    """Every unit the loop meets holds two of its cells, one at an odd place and one at an even."""
    units_of = state.geo.units_of
    odd: set[int] = set()
    even: set[int] = set()
    for i, cell in enumerate(loop):
        side = odd if i % 2 else even
        for u in units_of[cell]:
            if u in side:
                return False
            side.add(u)
    return odd == even


def _loops(state: State, start: int, ab: int) -> Iterator[list[int]]:
    """Loops through the bivalue cell ``start`` on the digits ``ab``, with at most two cells
    holding extras unless all extras are one same digit (only type 2 could use more)."""
    geo, masks = state.geo, state.masks
    units, units_of = geo.units, geo.units_of
    loop = [start]
    on_loop = {start}

    def extend(cell: int, last_unit: int, extra_cells: int, extras: int) -> Iterator[list[int]]:
        for u in units_of[cell]:
            if u == last_unit:
                continue
            for nxt in units[u]:
                if nxt == start:
                    if len(loop) >= 6:
                        yield list(loop)
                    continue
                if nxt in on_loop or masks[nxt] & ab != ab:
                    continue
                more = masks[nxt] & ~ab
                n_extra = extra_cells + (1 if more else 0)
                all_extras = extras | more
                if n_extra > 2 and all_extras.bit_count() != 1:
                    continue
                if len(loop) >= MAX_LENGTH:
                    continue
                if last_unit in units_of[nxt]:
                    continue  # a third cell in the unit just used breaks the pattern
                loop.append(nxt)
                on_loop.add(nxt)
                yield from extend(nxt, u, n_extra, all_extras)
                loop.pop()
                on_loop.discard(nxt)

    yield from extend(start, -1, 0, 0)


def _found(state: State) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every valid loop of 6+ cells, once each: its cells in loop order and its two digits."""
    masks = state.masks
    seen: set[tuple[frozenset[int], int]] = set()
    for start, m in enumerate(masks):
        if m.bit_count() != 2:
            continue
        state.check_stop()
        for loop in _loops(state, start, m):
            key = (frozenset(loop), m)
            if key in seen:
                continue
            seen.add(key)
            if _valid(state, loop):
                yield tuple(loop), m


def unique_loops(state: State) -> Iterator[Step]:
    """Unique loops of types 1-4, lowest rating first."""
    geo, masks = state.geo, state.masks
    n = geo.size
    steps: list[Step] = []
    for loop, ab in _found(state):
        base = loop_rating(len(loop))
        extra = [c for c in loop if masks[c] != ab]

        def lead(kind: int, loop: tuple[int, ...] = loop, ab: int = ab) -> str:
            return _lead(kind, loop, ab, n)

        digits = mask_digits(ab)
        if len(extra) == 1:
            target = extra[0]
            steps.append(Step(NAME, EXTREME, loop, digits,
                              f"{lead(1)} Only {_names(extra, n)} can hold another digit, so {_digits(ab)} are removed "
                              f"from it.", eliminations=tuple((target, d) for d in digits), rating=base))
            continue
        extras = 0
        for c in extra:
            extras |= masks[c] & ~ab
        if extras.bit_count() == 1 and len(extra) >= 2:
            x = extras.bit_length()
            seen = set.intersection(*(set(geo.peer_sets[c]) for c in extra))
            eliminations = tuple((c, x) for c in sorted(seen) if masks[c] & extras and c not in loop)
            if eliminations:
                d = digit_char(x)
                steps.append(Step(NAME, EXTREME, loop, (*digits, x),
                                  f"{lead(2)} So one of {_names(extra, n)} is {d}, and {d} is removed from the cells "
                                  f"that see them all: {_names([c for c, _ in eliminations], n)}.",
                                  eliminations=eliminations, rating=base))
        if len(extra) != 2:
            continue
        c1, c2 = extra
        shared = [u for u in geo.units_of[c1] if u in geo.units_of[c2]]
        for u in shared:
            others = [c for c in geo.units[u] if masks[c] and c not in extra]
            steps.extend(_type3(state, loop, ab, base, lead(3), extra, extras, u, others))
            for strong in (ab & -ab, ab & (ab - 1)):
                if any(masks[c] & strong for c in others):
                    continue
                other = (ab & ~strong).bit_length()
                s, o = digit_char(strong.bit_length()), digit_char(other)
                steps.append(Step(NAME, EXTREME, loop, digits,
                                  f"{lead(4)} In {geo.unit_names[u]}, {s} fits only in {_names(extra, n)}: one of them "
                                  f"is {s}, so neither may be {o} (that would complete the loop). So {o} is removed "
                                  f"from {_names(extra, n)}.",
                                  eliminations=((c1, other), (c2, other)), units=(u,), rating=base))
    steps.sort(key=lambda step: step.rating)
    yield from steps


def _lead(kind: int, loop: tuple[int, ...], ab: int, n: int) -> str:
    return (f"Unique loop type {kind} on {len(loop)} cells. The cells {_names(loop, n)} form a loop on {_digits(ab)}: "
            f"if none held another digit, {_digits(ab)} could swap all along it and the puzzle would have two "
            f"solutions.")


def _type3(state: State, loop: tuple[int, ...], ab: int, base: float, lead: str,
           extra: list[int], extras: int, u: int, others: list[int]) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    small = [c for c in others if masks[c].bit_count() <= TYPE3_MAX_CELLS]
    for k in range(1, TYPE3_MAX_CELLS):
        if k + 1 >= len(others) + 1:
            break
        for combo in combinations(small, k):
            union = extras
            for c in combo:
                union |= masks[c]
            if union.bit_count() != k + 1:
                continue
            eliminations = tuple((c, d) for c in others if c not in combo for d in mask_digits(masks[c] & union))
            if not eliminations:
                continue
            yield Step(NAME, EXTREME, (*loop, *combo), mask_digits(ab | union),
                       f"{lead} So one of {_names(extra, n)} is {_digits(extras, 'or')}; with {_names(combo, n)} "
                       f"they hold only {_digits(union)} in {geo.unit_names[u]}: a naked set, so those digits are "
                       f"removed from the rest of {geo.unit_names[u]}: {_removal(eliminations, n)}.",
                       eliminations=eliminations, units=(u,), rating=round(base + 0.1 * k, 1))
