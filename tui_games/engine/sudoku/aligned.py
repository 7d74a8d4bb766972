"""Aligned pair and triplet exclusion, as Sudoku Explainer finds and rates them (6.2, 7.5).

Take two (three) *base* cells and the cells that see all of them with few candidates -- two
(up to three) -- the *excluders*. Whatever the base cells hold together is one combination of
their candidates; a combination is impossible if two base cells that see each other would
hold the same digit, or if it holds every candidate of an excluder (the excluder sees all
the base cells, so it would have nothing left). A candidate of a base cell that belongs to
no possible combination is false.

As in Sudoku Explainer, a base cell has two or more candidates, no peer with a single
candidate left (that naked single comes first), and the base cells share at least as many
excluders as there are base cells.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from tui_games.engine.sudoku.grid import mask_digits
from tui_games.engine.sudoku.levels import DIABOLICAL, FIENDISH
from tui_games.engine.sudoku.techniques import Finder, State, Step, _names, _removal

__all__ = ["aligned_exclusion"]

NAMES = {2: "aligned pair exclusion", 3: "aligned triplet exclusion"}


def _base_cells(state: State, k: int) -> dict[int, frozenset[int]]:
    """Base cells and their excluders (peers with 2..k candidates)."""
    geo, masks = state.geo, state.masks
    out: dict[int, frozenset[int]] = {}
    for cell, m in enumerate(masks):
        if m.bit_count() < 2:
            continue
        excluders = []
        for p in geo.peers[cell]:
            size = masks[p].bit_count()
            if size == 1:
                break
            if 2 <= size <= k:
                excluders.append(p)
        else:
            if excluders:
                out[cell] = frozenset(excluders)
    return out


def _aligned(bases: dict[int, frozenset[int]], k: int) -> Iterator[tuple[tuple[int, ...], frozenset[int]]]:
    """The combinations of ``k`` base cells (in the order of ``itertools.combinations`` over
    the sorted cells) that share at least ``k`` excluders, with those excluders: a prefix
    sharing fewer is not extended (most pairs share too few, so few triplets are looked at)."""
    order = sorted(bases)

    def extend(start: int, combo: tuple[int, ...], common: frozenset[int] | None) -> Iterator[
            tuple[tuple[int, ...], frozenset[int]]]:
        for x in range(start, len(order) - (k - len(combo)) + 1):
            cell = order[x]
            shared = bases[cell] if common is None else common & bases[cell]
            if len(shared) < k:
                continue
            if len(combo) + 1 == k:
                yield (*combo, cell), shared
            else:
                yield from extend(x + 1, (*combo, cell), shared)

    return extend(0, (), None)


def aligned_exclusion(k: int) -> Finder:
    """Aligned pair (k=2) or triplet (k=3) exclusion."""
    name, level = NAMES[k], FIENDISH if k == 2 else DIABOLICAL

    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        bases = _base_cells(state, k)
        for combo, common in _aligned(bases, k):
            state.check_stop()
            seeing = [(i, j) for i, j in combinations(range(k), 2) if geo.sees(combo[i], combo[j])]
            excluders = [masks[e] for e in sorted(common)]
            allowed = [0] * k
            for values in product(*(mask_digits(masks[c]) for c in combo)):
                if any(values[i] == values[j] for i, j in seeing):
                    continue
                used = 0
                for v in values:
                    used |= 1 << (v - 1)
                if any(not e & ~used for e in excluders):
                    continue
                for i, v in enumerate(values):
                    allowed[i] |= 1 << (v - 1)
            eliminations = tuple((c, d) for i, c in enumerate(combo) for d in mask_digits(masks[c] & ~allowed[i]))
            if not eliminations:
                continue
            cells = tuple(sorted(common))
            text = (f"Whatever {_names(combo, n)} hold together, no combination may take every candidate of a cell "
                    f"that sees them all ({_names(cells, n)}){' or repeat a digit in a unit' if seeing else ''}. "
                    f"No possible combination uses {_removal(eliminations, n)}, so "
                    f"{'it goes' if len(eliminations) == 1 else 'they go'}.")
            yield Step(name, level, (*combo, *cells), tuple(sorted({d for _, d in eliminations})), text,
                       eliminations=eliminations)
    find.__name__ = name.replace(" ", "_")
    return find

