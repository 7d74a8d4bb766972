"""BUG types 2, 3 and 4: the bivalue universal grave with more than one extra candidate.

A *BUG* is a position where every empty cell has two candidates and every digit has exactly
two places in each unit it is missing from: it has no solution or several (give every cell its
other candidate: every unit still gets each digit once). BUG+1 (:mod:`.uniqueness`) is the
case of one cell with a third candidate. Here, a few *BUG candidates* -- the ones that keep
the position from being a BUG -- sit in several cells; in a puzzle with one solution, at least
one of them is true. Sudoku Explainer's types and ratings:

- **type 2** (5.7): the BUG candidates are all the same digit ``x``: one of their cells is ``x``,
  so ``x`` goes from every cell that sees them all;
- **type 3** (5.8+): the BUG cells share a unit, so one of them holds a BUG digit: together they
  act as one cell holding the BUG digits, and with other cells of the unit may form a naked
  set (+0.1 a cell past a pair: 5.8 pair, 5.9 triple, 6.0 quad);
- **type 4** (5.7): two BUG cells share a unit and, without their BUG candidates, have one digit
  ``d`` in common: ``d`` has only those two places in the unit, so one of them is ``d`` and the
  other its BUG digit; each loses every other candidate.

The BUG candidates are found as Sudoku Explainer finds them: a digit with neither none nor two
places in a unit must be a BUG candidate of the only cell there with three or more candidates;
the pattern holds if, without them, the position is a BUG.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tui_games.engine.sudoku.grid import digit_char, mask_digits
from tui_games.engine.sudoku.levels import EXTREME
from tui_games.engine.sudoku.techniques import Finder, State, Step, _digits, _names, _removal

__all__ = ["bug_candidates", "bug_type", "bug_types_2_to_4"]

TYPE3_MAX_CELLS = 4


def bug_candidates(state: State) -> dict[int, int] | None:
    """The BUG candidates as ``{cell: mask}``, or None when the position is no BUG+n."""
    geo, masks = state.geo, state.masks
    extra: dict[int, int] = {}
    for unit in geo.units:
        once = twice = thrice = 0
        for c in unit:
            m = masks[c]
            thrice |= twice & m
            twice |= once & m
            once |= m
        odd = (once & ~twice) | thrice  # one place, or three and more
        while odd:
            bit = odd & -odd
            odd ^= bit
            big = [c for c in unit if masks[c] & bit and masks[c].bit_count() >= 3]
            if not big:
                return None
            if len(big) == 1:
                extra[big[0]] = extra.get(big[0], 0) | bit
    if not extra:
        return None
    trial = list(masks)
    for cell, bits in extra.items():
        trial[cell] &= ~bits
    if any(m and m.bit_count() != 2 for m in trial):
        return None
    for unit in geo.units:
        once = twice = thrice = 0
        for c in unit:
            m = trial[c]
            thrice |= twice & m
            twice |= once & m
            once |= m
        if thrice or once != twice:
            return None
    return extra


def bug_types_2_to_4(state: State) -> Iterator[Step]:
    """BUG types 2, 3 and 4, lowest rating first (type 1 is :func:`.uniqueness.bug_plus_one`)."""
    extra = bug_candidates(state)
    if extra is None or len(extra) < 2:
        return
    geo, masks = state.geo, state.masks
    n = geo.size
    cells = sorted(extra)
    every = 0
    for bits in extra.values():
        every |= bits
    lead = (f"Without the candidates {', '.join(f'{_digits(extra[c])} in {_names([c], n)}' for c in cells)}, every "
            f"empty cell would have two candidates and every digit two places in each unit: a pattern with no "
            f"solution or several. So one of them is true.")
    steps: list[Step] = []
    if every.bit_count() == 1:
        x = every.bit_length()
        seen = set.intersection(*(set(geo.peer_sets[c]) for c in cells))
        eliminations = tuple((c, x) for c in sorted(seen) if masks[c] & every)
        if eliminations:
            d = digit_char(x)
            steps.append(Step("BUG type 2", EXTREME, tuple(cells), (x,),
                              f"{lead} One of {_names(cells, n)} is {d}, so {d} is removed from the cells that see "
                              f"them all: {_names([c for c, _ in eliminations], n)}.",
                              eliminations=eliminations, rating=5.7))
    shared = [u for u in geo.units_of[cells[0]] if all(u in geo.units_of[c] for c in cells[1:])]
    for u in shared:
        others = [c for c in geo.units[u] if masks[c] and c not in extra]
        steps.extend(_type3(state, lead, cells, every, u, others))
        if len(cells) == 2:
            c1, c2 = cells
            common = masks[c1] & masks[c2] & ~every
            if common.bit_count() != 1:
                continue
            d = digit_char(common.bit_length())
            eliminations = tuple((c, x) for c in cells for x in mask_digits(masks[c] & ~extra[c] & ~common))
            if eliminations:
                steps.append(Step("BUG type 4", EXTREME, tuple(cells), mask_digits(every | common),
                                  f"{lead} In {geo.unit_names[u]}, {d} fits only in {_names(cells, n)}: one of them "
                                  f"is {d}, so the other holds its BUG candidate; neither can be anything else: "
                                  f"remove {_removal(eliminations, n)}.",
                                  eliminations=eliminations, units=(u,), rating=5.7))
    steps.sort(key=lambda step: step.rating)
    yield from steps


def bug_type(kind: int) -> Finder:
    """The finder of BUG type ``kind`` (2, 3 or 4) alone, for the catalogue."""
    name = f"BUG type {kind}"

    def find(state: State) -> Iterator[Step]:
        return (step for step in bug_types_2_to_4(state) if step.technique == name)
    find.__name__ = f"bug_type_{kind}"
    return find


def _type3(state: State, lead: str, cells: list[int], every: int, u: int, others: list[int]) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    for k in range(2, TYPE3_MAX_CELLS + 1):
        if k > len(others):
            break
        for combo in combinations([c for c in others if masks[c].bit_count() <= k], k - 1):
            union = 0
            for c in combo:
                union |= masks[c]
            if union.bit_count() != k or every & ~union:
                continue
            eliminations = tuple((c, d) for c in others if c not in combo for d in mask_digits(masks[c] & union))
            if not eliminations:
                continue
            yield Step("BUG type 3", EXTREME, (*cells, *combo), mask_digits(union),
                       f"{lead} They all lie in {geo.unit_names[u]}, so one of {_names(cells, n)} is "
                       f"{_digits(every, 'or')}; with {_names(combo, n)} that makes a naked set on {_digits(union)}, "
                       f"so those digits are removed from the rest of {geo.unit_names[u]}: "
                       f"{_removal(eliminations, n)}.",
                       eliminations=eliminations, units=(u,), rating=round(5.7 + 0.1 * (k - 1), 1))
