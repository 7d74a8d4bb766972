"""Techniques that assume the puzzle has exactly one solution: unique rectangles and BUG+1.

A *deadly pattern* is a set of empty cells that could take two digits in either of two ways
without anything else in the grid noticing: then a puzzle with one of those fillings as its
solution would have the other as a second solution. A proper puzzle has one solution, so the
position must avoid the pattern, and what avoids it can be deduced.

**Unique rectangle** (UR): four empty cells at the corners of a rectangle -- two rows, two
columns, two boxes -- all with the candidates ``a`` and ``b``. If all four ended up ``a`` or
``b``, swapping them would give a second solution (every row, column and box of the rectangle
holds one ``a`` and one ``b``). Types, as HoDoKu and Sudoku Explainer name them:

- **type 1**: three corners hold only ``a`` and ``b``; the fourth cannot be either.
- **type 2**: two corners hold only ``a`` and ``b``, the other two the same one extra digit
  ``x``: one of them is ``x``, so ``x`` goes from the cells that see both.
- **type 3**: two corners hold only ``a`` and ``b`` and the other two, in one unit, have
  extra digits: one of them holds an extra digit, so they act as one cell holding the extras,
  and with other cells of that unit they may form a naked set (rated +0.1 per cell of the set
  beyond a pair, as Sudoku Explainer does: 4.6 pair, 4.7 triple, 4.8 quad).
- **type 4**: two corners hold only ``a`` and ``b``; in a unit holding the other two, ``a`` has
  no other place: one of them is ``a``, so neither may be ``b``.
- **hidden**: one corner holds only ``a`` and ``b``; at the opposite corner ``a`` is the only
  other place for ``a`` in its row *and* in its column (the rows and columns through the
  rectangle): if that corner were ``b``, the two others would be ``a`` and the first corner
  ``b``: the deadly pattern. So the opposite corner is not ``b``.

Only empty cells take part: the engine's :class:`~.techniques.State` does not tell givens from
digits a player wrote, and a rectangle with a given in it is no deadly pattern. On the diagonal
(X) variant, a rectangle with one corner on a diagonal is not deadly (swapping would change
that diagonal), so every unit that meets the rectangle must hold exactly two of its corners.

**BUG+1** (bivalue universal grave): if every empty cell has two candidates and every digit has
exactly two places in every unit it is missing from, the position has no solution or several
(take each cell's other candidate: still valid). So when all empty cells but one are bivalue
and that one has three candidates, the digit that would break the pattern -- the one left with
three places in its units -- is that cell's digit.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tui_games.engine.sudoku.grid import cell_name, digit_char, mask_digits
from tui_games.engine.sudoku.levels import EXTREME
from tui_games.engine.sudoku.techniques import Link, State, Step, _digits, _names, _removal

__all__ = [
    "bug_plus_one", "hidden_unique_rectangles", "unique_rectangles_type_1", "unique_rectangles_type_2",
    "unique_rectangles_type_3", "unique_rectangles_type_4",
]

#: The largest naked set a type-3 rectangle forms with other cells (the extras count as one cell).
TYPE3_MAX_CELLS = 3


def _rectangles(state: State) -> Iterator[tuple[tuple[int, int, int, int], int]]:
    """Every unique-rectangle candidate: corners ``(p, q, r, s)`` -- ``p, q`` in the upper row,
    ``r, s`` below, ``p, r`` in the left column -- and the mask of the two digits, once each.

    At least one corner must hold only the two digits (every type needs it), so the search
    starts from bivalue cells."""
    geo, values, masks = state.geo, state.values, state.masks
    n = geo.size
    units_of = geo.units_of
    seen: set[tuple[int, int, int, int, int]] = set()
    for f, fm in enumerate(masks):
        if not fm or fm.bit_count() != 2:
            continue
        fr, fc = divmod(f, n)
        for c2 in range(n):
            if c2 == fc:
                continue
            g = fr * n + c2
            if values[g] or masks[g] & fm != fm:
                continue
            for r2 in range(n):
                if r2 == fr:
                    continue
                h, k = r2 * n + fc, r2 * n + c2
                if values[h] or values[k] or masks[h] & fm != fm or masks[k] & fm != fm:
                    continue
                (r_top, r_bot), (c_l, c_r) = sorted((fr, r2)), sorted((fc, c2))
                corners = (r_top * n + c_l, r_top * n + c_r, r_bot * n + c_l, r_bot * n + c_r)
                key = (*corners, fm)
                if key in seen:
                    continue
                seen.add(key)
                counts: dict[int, int] = {}
                for c in corners:
                    for u in units_of[c]:
                        counts[u] = counts.get(u, 0) + 1
                # rows and columns hold two corners each; two boxes (not one, not four) and no
                # diagonal through one corner only
                if any(v != 2 for v in counts.values()):
                    continue
                yield corners, fm


def _opposite(corners: tuple[int, int, int, int], cell: int) -> int:
    return corners[3 - corners.index(cell)]


def _rect_units(state: State, corners: tuple[int, ...]) -> tuple[int, ...]:
    geo = state.geo
    n = geo.size
    p, s = corners[0], corners[3]
    return (p // n, s // n, n + p % n, n + s % n)


def _shared_units(state: State, a: int, b: int) -> list[int]:
    units_b = state.geo.units_of[b]
    return [u for u in state.geo.units_of[a] if u in units_b]


def unique_rectangles_type_1(state: State) -> Iterator[Step]:
    masks = state.masks
    n = state.geo.size
    for corners, ab in _rectangles(state):
        extra = [c for c in corners if masks[c] != ab]
        if len(extra) != 1:
            continue
        target = extra[0]
        eliminations = tuple((target, d) for d in mask_digits(ab))
        others = [c for c in corners if c != target]
        t = cell_name(target, n)
        text = (f"{_names(others, n)} hold only {_digits(ab)}; if {t} were {_digits(ab, 'or')} too, the rectangle "
                f"{_names(corners, n)} could swap its digits and the puzzle would have two solutions. So "
                f"{_digits(ab)} are removed from {t}.")
        yield Step("unique rectangle type 1", EXTREME, corners, mask_digits(ab), text,
                   eliminations=eliminations, units=_rect_units(state, corners))


def unique_rectangles_type_2(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peer_sets = geo.peer_sets
    for corners, ab in _rectangles(state):
        roof = [c for c in corners if masks[c] != ab]
        if len(roof) != 2:
            continue
        x = masks[roof[0]] & ~ab
        if x.bit_count() != 1 or masks[roof[1]] & ~ab != x:
            continue
        digit = x.bit_length()
        seen = peer_sets[roof[0]] & peer_sets[roof[1]]
        eliminations = tuple((c, digit) for c in sorted(seen) if masks[c] & x and c not in corners)
        if not eliminations:
            continue
        floor = [c for c in corners if c not in roof]
        d = digit_char(digit)
        text = (f"{_names(floor, n)} hold only {_digits(ab)}, so one of {_names(roof, n)} must be {d}, else the "
                f"rectangle {_names(corners, n)} could swap {_digits(ab)} (two solutions). So {d} is removed from "
                f"the cells that see both: {_names([c for c, _ in eliminations], n)}.")
        yield Step("unique rectangle type 2", EXTREME, corners, (*mask_digits(ab), digit), text,
                   eliminations=eliminations, units=_rect_units(state, corners))


def unique_rectangles_type_3(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    found: list[Step] = []
    for corners, ab in _rectangles(state):
        state.check_stop()
        roof = [c for c in corners if masks[c] != ab]
        if len(roof) != 2:
            continue
        extras = (masks[roof[0]] | masks[roof[1]]) & ~ab
        for u in _shared_units(state, roof[0], roof[1]):
            others = [c for c in geo.units[u] if masks[c] and c not in roof]
            # cells that could join the naked set: no digit outside what a set may hold
            small = [c for c in others if masks[c].bit_count() <= TYPE3_MAX_CELLS + 1]
            for k in range(1, TYPE3_MAX_CELLS + 1):
                if k + 1 >= len(others) + 1:
                    break
                for combo in combinations(small, k):
                    union = extras
                    for c in combo:
                        union |= masks[c]
                    if union.bit_count() != k + 1:
                        continue
                    eliminations = tuple((c, d) for c in others if c not in combo
                                         for d in mask_digits(masks[c] & union))
                    if not eliminations:
                        continue
                    floor = [c for c in corners if c not in roof]
                    text = (f"{_names(floor, n)} hold only {_digits(ab)}, so one of {_names(roof, n)} is "
                            f"{_digits(extras, 'or')}, else the rectangle {_names(corners, n)} could swap its digits "
                            f"(two solutions). With {_names(combo, n)} they hold only {_digits(union)} in "
                            f"{geo.unit_names[u]}: a naked set, so those digits are removed from the rest of "
                            f"{geo.unit_names[u]}: {_removal(eliminations, n)}.")
                    found.append(Step("unique rectangle type 3", EXTREME, (*corners, *combo),
                                      mask_digits(ab | union), text, eliminations=eliminations,
                                      units=(*_rect_units(state, corners), u), rating=round(4.5 + 0.1 * k, 1)))
    found.sort(key=lambda step: step.rating)
    yield from found


def unique_rectangles_type_4(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    for corners, ab in _rectangles(state):
        roof = [c for c in corners if masks[c] != ab]
        if len(roof) != 2:
            continue
        a_bit = ab & -ab
        for strong_bit in (a_bit, ab & ~a_bit):
            other_bit = ab & ~strong_bit
            for u in _shared_units(state, roof[0], roof[1]):
                if any(masks[c] & strong_bit for c in geo.units[u] if c not in roof):
                    continue
                eliminations = tuple((c, other_bit.bit_length()) for c in roof)
                floor = [c for c in corners if c not in roof]
                s, o = digit_char(strong_bit.bit_length()), digit_char(other_bit.bit_length())
                text = (f"{_names(floor, n)} hold only {_digits(ab)}, and in {geo.unit_names[u]} {s} fits only in "
                        f"{_names(roof, n)}: one of them is {s}, so if either were {o} the rectangle "
                        f"{_names(corners, n)} could swap its digits (two solutions). So {o} is removed from "
                        f"{_names(roof, n)}.")
                yield Step("unique rectangle type 4", EXTREME, corners, mask_digits(ab), text,
                           eliminations=eliminations, units=(*_rect_units(state, corners), u),
                           links=(Link((roof[0],), strong_bit.bit_length(), (roof[1],), strong_bit.bit_length(),
                                       True),))
                break


def hidden_unique_rectangles(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    reported: set[tuple[int, int]] = set()
    for corners, ab in _rectangles(state):
        for f in corners:
            if masks[f] != ab:
                continue
            o = _opposite(corners, f)
            row_mate = next(c for c in corners if c != o and c // n == o // n)
            col_mate = next(c for c in corners if c != o and c % n == o % n)
            row_u, col_u = o // n, n + o % n
            for strong_bit in (ab & -ab, ab & (ab - 1)):
                other = (ab & ~strong_bit).bit_length()
                if (o, other) in reported:
                    continue
                if any(masks[c] & strong_bit for c in geo.units[row_u] if c not in (o, row_mate)):
                    continue
                if any(masks[c] & strong_bit for c in geo.units[col_u] if c not in (o, col_mate)):
                    continue
                reported.add((o, other))
                sd, od = digit_char(strong_bit.bit_length()), digit_char(other)
                on, fn = cell_name(o, n), cell_name(f, n)
                text = (f"{fn} holds only {_digits(ab)}, and {sd} fits only in {on} and {cell_name(row_mate, n)} in "
                        f"{geo.unit_names[row_u]}, only in {on} and {cell_name(col_mate, n)} in "
                        f"{geo.unit_names[col_u]}. If {on} were {od}, both would be {sd} and {fn} {od}: the rectangle "
                        f"{_names(corners, n)} could swap its digits (two solutions). So {od} is removed from {on}.")
                digit = strong_bit.bit_length()
                yield Step("hidden unique rectangle", EXTREME, corners, mask_digits(ab), text,
                           eliminations=((o, other),), units=(row_u, col_u),
                           links=(Link((o,), digit, (row_mate,), digit, True),
                                  Link((o,), digit, (col_mate,), digit, True)))


def bug_plus_one(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    odd = -1
    for c, m in enumerate(masks):
        if not m:
            continue
        k = m.bit_count()
        if k == 2:
            continue
        if k != 3 or odd >= 0:
            return
        odd = c
    if odd < 0:
        return
    for digit in mask_digits(masks[odd]):
        trial = list(masks)
        trial[odd] &= ~(1 << (digit - 1))
        if all(_twice_or_never(trial, unit) for unit in geo.units):
            d, name = digit_char(digit), cell_name(odd, n)
            text = (f"Every empty cell but {name} has two candidates. If {name} were not {d}, every digit would have "
                    f"exactly two places in each of its units, a pattern with no solution or several; so {name} "
                    f"is {d}.")
            yield Step("BUG+1", EXTREME, (odd,), (digit,), text, placements=((odd, digit),),
                       units=geo.units_of[odd])
            return


def _twice_or_never(masks: list[int], unit: tuple[int, ...]) -> bool:
    once = twice = thrice = 0
    for c in unit:
        m = masks[c]
        thrice |= twice & m
        twice |= once & m
        once |= m
    return not thrice and once == twice
