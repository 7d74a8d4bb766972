"""Sudoku Explainer's direct techniques: a single found by looking at a pointing or a pair.

A person who sees that a pointing (or a hidden pair) clears a unit enough to leave a digit one
place does not write the elimination down: they write the digit. Sudoku Explainer rates that
sight below the naked single and below the elimination itself, and so does the stepper:

- **direct pointing** (1.7): in a box, a digit fits only in one line; in another box crossing
  that line, the digit then fits in one cell only (its other places are on the line);
- **direct claiming** (1.9): in a line, a digit fits only in one box; in another line of the
  same kind crossing that box, the digit then fits in one cell only;
- **direct hidden pair** (2.0) and **triple** (2.5): in a unit, k digits fit only in k cells, so
  those cells hold nothing else; another digit of the unit then has one place left.

Each step places the digit (what the player writes); the pointing, claiming or hidden set is
in the explanation and the highlighted cells. Units are rows, columns and boxes (and the
diagonals of the X variant where a line is asked for).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tui_games.engine.sudoku.grid import BOX, cell_name, digit_char
from tui_games.engine.sudoku.levels import BASIC
from tui_games.engine.sudoku.techniques import Finder, State, Step, _digits, _names

__all__ = ["direct_claiming", "direct_hidden_subsets", "direct_pointing"]

SET_NAMES = {2: "pair", 3: "triple"}


def _direct_intersections(state: State, pointing: bool) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    cells_of, names, kinds = geo.units, geo.unit_names, geo.unit_kinds
    found: set[tuple[int, int]] = set()
    for box, line, shared, box_rest, line_rest in geo.intersections:
        # region1 holds the digit only where it crosses region2; region3 runs like region1
        region1, region2 = (box, line) if pointing else (line, box)
        rest1 = box_rest if pointing else line_rest
        cleared = set(line_rest if pointing else box_rest)  # where the digit goes from
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            inside = [c for c in shared if masks[c] & bit]
            if len(inside) < 2 or any(masks[c] & bit for c in rest1):
                continue
            if not any(masks[c] & bit for c in cleared):
                continue
            for region3 in range(len(cells_of)):
                if region3 == region1 or kinds[region3] != kinds[region1]:
                    continue
                cells3 = cells_of[region3]
                crossing = [c for c in cells3 if c in cleared]
                if not crossing:
                    continue
                places = [c for c in cells3 if masks[c] & bit]
                left = [c for c in places if c not in cleared]
                if len(places) < 2 or len(left) != 1 or (left[0], digit) in found:
                    continue
                found.add((left[0], digit))
                target = left[0]
                d, t = digit_char(digit), cell_name(target, n)
                gone = [c for c in places if c in cleared]
                text = (f"In {names[region1]}, {d} can only go in {names[region2]} ({_names(inside, n)}), so it is not "
                        f"elsewhere in {names[region2]}: not in {_names(gone, n)}. That leaves {t} the only place for "
                        f"{d} in {names[region3]}, so {t} is {d}.")
                yield Step("direct pointing" if pointing else "direct claiming", BASIC, (target, *inside), (digit,),
                           text, placements=((target, digit),), units=(region1, region2, region3))


def direct_pointing(state: State) -> Iterator[Step]:
    return _direct_intersections(state, True)


def direct_claiming(state: State) -> Iterator[Step]:
    return _direct_intersections(state, False)


def direct_hidden_subsets(k: int) -> Finder:
    """Hidden pairs (k=2) or triples (k=3) that leave another digit of their unit one place."""
    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        # boxes first, then columns, then rows, as Sudoku Explainer looks
        order = [u for u in range(len(geo.units)) if geo.unit_kinds[u] == BOX] + \
            [u for u in range(len(geo.units)) if geo.unit_kinds[u] != BOX]
        for u in order:
            open_cells = [c for c in geo.units[u] if masks[c]]
            if len(open_cells) <= k:
                continue
            places: dict[int, int] = {}  # digit -> bit mask over open_cells
            for i, c in enumerate(open_cells):
                m = masks[c]
                while m:
                    low = m & -m
                    m ^= low
                    d = low.bit_length()
                    places[d] = places.get(d, 0) | (1 << i)
            few = sorted(d for d, where in places.items() if 2 <= where.bit_count() <= k)
            for combo in combinations(few, k):
                where = 0
                for d in combo:
                    where |= places[d]
                if where.bit_count() != k:
                    continue
                for digit, spots in sorted(places.items()):
                    if digit in combo or spots.bit_count() < 2:
                        continue
                    left = spots & ~where
                    if left.bit_count() != 1:
                        continue
                    target = open_cells[left.bit_length() - 1]
                    cells = tuple(c for i, c in enumerate(open_cells) if where >> i & 1)
                    dc, t = digit_char(digit), cell_name(target, n)
                    keep = 0
                    for x in combo:
                        keep |= 1 << (x - 1)
                    text = (f"In {geo.unit_names[u]}, {_digits(keep)} fit only in {_names(cells, n)} (a hidden "
                            f"{SET_NAMES[k]}), so those cells hold nothing else and {dc} cannot go there. That "
                            f"leaves {t} the only place for {dc} in {geo.unit_names[u]}, so {t} is {dc}.")
                    yield Step(f"direct hidden {SET_NAMES[k]}", BASIC, (target, *cells), (digit, *combo), text,
                               placements=((target, digit),), units=(u,))
                    break
    find.__name__ = f"direct_hidden_{SET_NAMES[k]}s"
    return find
