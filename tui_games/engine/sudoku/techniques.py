"""Human solving techniques: each finds the steps a person would see in a position.

A position for the techniques is a :class:`State`: the digits written so far and the
candidates of every empty cell as bit masks (bit ``d - 1`` for digit ``d``). Candidates start
as the digits no peer holds; the techniques then remove more. A technique is a generator
function ``finder(state)`` yielding :class:`Step` objects, each complete in itself: what was
seen (cells, digits, units), what follows (placements or eliminations), and one sentence
saying why, with cells named ``r1c1``.

The list the stepper walks, with each technique's level and rating, is in :mod:`.catalogue`.

Every step is sound: a placement or elimination holds in every solution of the position
(tests check this against the SAT solution on hundreds of puzzles).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import NamedTuple

from tui_games.engine.sudoku.grid import (
    BOX,
    Geometry,
    Grid,
    cell_name,
    digit_char,
    mask_digits,
)
from tui_games.engine.sudoku.levels import (
    ADVANCED,
    BASIC,
    EXTREME,
    INTERMEDIATE,
    TRIVIAL,
)
from tui_games.engine.sudoku.variants import Cage

__all__ = [
    "Cancelled", "Link", "State", "Step", "Technique", "length_rating",
]

class Link(NamedTuple):
    """One link of a chain: from the candidate ``digit_a`` in ``cells_a`` to ``digit_b`` in
    ``cells_b`` (a group of cells for grouped nodes, one cell otherwise). ``strong``: if the
    first is false the second is true (``=`` in Eureka notation); weak: if the first is true
    the second is false (``-``)."""

    cells_a: tuple[int, ...]
    digit_a: int
    cells_b: tuple[int, ...]
    digit_b: int
    strong: bool


class Cancelled(Exception):
    """The stepper's caller asked it to stop (see :attr:`State.stop`)."""


@dataclass(frozen=True)
class Step:
    """One deduction. ``cells``/``digits``/``units`` are the pattern (what to highlight);
    ``placements`` and ``eliminations`` are ``(cell, digit)`` pairs, what the step changes.

    ``rating`` is the step's difficulty on Sudoku Explainer's scale (1.0 full house ...
    10.5+ nested forcing nets); 0.0 means "the technique's own rating" and the stepper fills it
    in. For chains, ``links`` lists every link to draw and ``chain`` the chain(s) in Eureka
    notation, one line per chain (a forcing chain has one per branch)."""

    technique: str
    level: str
    cells: tuple[int, ...]
    digits: tuple[int, ...]
    explanation: str
    placements: tuple[tuple[int, int], ...] = ()
    eliminations: tuple[tuple[int, int], ...] = ()
    units: tuple[int, ...] = ()
    rating: float = 0.0
    links: tuple[Link, ...] = ()
    chain: tuple[str, ...] = ()

    def changes(self, size: int = 9) -> str:
        """What the step does, e.g. ``place 7 at r4c6``, ``remove 3 from r2c5, r2c7`` or, digits
        leaving the same cells, ``remove 2 and 6 from r5c2, r5c3``."""
        parts = [f"place {digit_char(d)} at {cell_name(c, size)}" for c, d in self.placements]
        by_digit: dict[int, list[int]] = {}
        for c, d in self.eliminations:
            by_digit.setdefault(d, []).append(c)
        # Digits leaving the same cells go together (a cage's combination removes many).
        by_cells: dict[tuple[int, ...], list[int]] = {}
        for d, cells in sorted(by_digit.items()):
            by_cells.setdefault(tuple(cells), []).append(d)
        parts += [f"remove {_join([digit_char(d) for d in digits])} from {', '.join(cell_name(c, size) for c in cells)}"
                  for cells, digits in by_cells.items()]
        return "; ".join(parts)


class State:
    """Digits written so far and the candidates of every empty cell (0 for a filled one)."""

    __slots__ = ("cage_of", "cages", "geo", "masks", "stop", "values")

    def __init__(self, geo: Geometry, values: list[int], masks: list[int],
                 stop: threading.Event | None = None) -> None:
        self.geo = geo
        self.values = values
        self.masks = masks
        variant = geo.variant
        #: A Killer's cages (:mod:`.variants`; the cage techniques are in :mod:`.cages`) and each
        #: cell's cage index (-1: none); () and None for every other grid.
        self.cages: tuple[Cage, ...] = variant.cages if variant is not None else ()
        self.cage_of: tuple[int, ...] = variant.cage_of if variant is not None and variant.cages else ()
        #: Set by the caller to stop a long search: the slow finders call :meth:`check_stop`.
        self.stop = stop

    def check_stop(self) -> None:
        """Raise :class:`Cancelled` if the caller asked to stop."""
        if self.stop is not None and self.stop.is_set():
            raise Cancelled("stopped")

    @classmethod
    def from_grid(cls, grid: Grid, candidates: Sequence[int] | None = None) -> State:
        """The grid's digits; candidates are the digits no peer holds, narrowed to
        ``candidates`` (masks per cell, e.g. a player's pencil marks) when given."""
        masks = grid.candidate_masks()
        if candidates is not None:
            masks = [m & c for m, c in zip(masks, candidates)]
        return cls(grid.geometry, list(grid.values), masks)

    def copy(self) -> State:
        return State(self.geo, list(self.values), list(self.masks), self.stop)

    def place(self, cell: int, digit: int) -> None:
        self.values[cell] = digit
        self.masks[cell] = 0
        keep = ~(1 << (digit - 1))
        masks = self.masks
        for p in self.geo.peers[cell]:
            masks[p] &= keep

    def apply(self, step: Step) -> None:
        for cell, digit in step.placements:
            self.place(cell, digit)
        for cell, digit in step.eliminations:
            self.masks[cell] &= ~(1 << (digit - 1))

    def solved(self) -> bool:
        return all(self.values)

    def contradiction(self) -> str | None:
        """Why this position has no solution, if that shows without search; else None."""
        geo, values, masks = self.geo, self.values, self.masks
        n = geo.size
        for cell in range(len(values)):
            if not values[cell] and not masks[cell]:
                return f"{cell_name(cell, n)} has no candidate left"
        for u, unit in enumerate(geo.units):
            seen = have = 0
            for cell in unit:
                v = values[cell]
                if v:
                    bit = 1 << (v - 1)
                    if seen & bit:
                        return f"{digit_char(v)} is twice in {geo.unit_names[u]}"
                    seen |= bit
                else:
                    have |= masks[cell]
            missing = geo.full & ~(seen | have)
            if missing:
                return f"{digit_char(mask_digits(missing)[0])} has no place left in {geo.unit_names[u]}"
        for cage in self.cages:
            placed = [values[c] for c in cage.cells if values[c]]
            where = f"the {cage.total}-cage at {cell_name(cage.cells[0], n)}"
            if len(set(placed)) < len(placed):
                return f"a digit is twice in {where}"
            if len(placed) == len(cage.cells) and sum(placed) != cage.total:
                return f"{where} adds up to {sum(placed)}"
            if sum(placed) >= cage.total and len(placed) < len(cage.cells):
                return f"{where} is already full at {sum(placed)}"
        return None


Finder = Callable[[State], Iterator[Step]]


@dataclass(frozen=True)
class Technique:
    """A finder with its name, level and base rating on Sudoku Explainer's scale.
    ``uniqueness``: the technique assumes the puzzle has one solution (unique rectangles,
    BUG+1), so a player who does not want that assumption can turn it off. ``explainer``:
    Sudoku Explainer (as its fork Sukaku Explainer rates puzzles) knows the technique; a
    puzzle's grade and rating use only those (:mod:`.grading`). ``hints``: the hints use it
    (False for the plain twin of a technique the hints use in a stronger form). ``levels``:
    the grade's level counts it though Sudoku Explainer lacks it (the rating does not)."""

    name: str
    level: str
    rating: float
    find: Finder
    uniqueness: bool = False
    explainer: bool = True
    hints: bool = True
    levels: bool = False


def length_rating(length: int) -> float:
    """What a chain's length adds to its base rating, as Sudoku Explainer counts it: +0.1 each
    time the number of links passes 4, 6, 8, 12, 16, 24, 32, 48, ... (the thresholds grow by
    x1.5 and x4/3 in turn)."""
    added, ceiling, odd = 0.0, 4, False
    while length > ceiling:
        added += 0.1
        ceiling = ceiling * 4 // 3 if odd else ceiling * 3 // 2
        odd = not odd
    return round(added, 1)


# -- helpers ---------------------------------------------------------------------------------------


def _names(cells: Sequence[int], n: int) -> str:
    return ", ".join(cell_name(c, n) for c in cells)


def _join(words: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _digits(mask: int, last: str = "and") -> str:
    return _join([digit_char(d) for d in mask_digits(mask)], last)


def _removal(eliminations: Sequence[tuple[int, int]], n: int) -> str:
    """``r1c2, r1c5`` when one digit goes; ``5 from r1c2, 7 from r3c3`` when several."""
    if len({d for _, d in eliminations}) == 1:
        return _names([c for c, _ in eliminations], n)
    return ", ".join(f"{digit_char(d)} from {cell_name(c, n)}" for c, d in eliminations)


# -- singles ---------------------------------------------------------------------------------------


def full_houses(state: State) -> Iterator[Step]:
    geo, values, masks = state.geo, state.values, state.masks
    n = geo.size
    for u, unit in enumerate(geo.units):
        empty = [c for c in unit if not values[c]]
        if len(empty) != 1:
            continue
        cell = empty[0]
        placed = 0
        for c in unit:
            if values[c]:
                placed |= 1 << (values[c] - 1)
        bit = geo.full & ~placed
        if bit & (bit - 1) or not masks[cell] & bit:
            continue  # a contradiction, not a step
        digit = bit.bit_length()
        name = cell_name(cell, n)
        yield Step("full house", TRIVIAL, (cell,), (digit,),
                   f"{name} is the last empty cell in {geo.unit_names[u]}, so it is {digit_char(digit)}.",
                   placements=((cell, digit),), units=(u,))


def _hidden_singles(state: State, boxes: bool) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    level = TRIVIAL if boxes else BASIC
    for u, unit in enumerate(geo.units):
        if (geo.unit_kinds[u] == BOX) != boxes:
            continue
        once = twice = 0
        for c in unit:
            m = masks[c]
            twice |= once & m
            once |= m
        singles = once & ~twice
        while singles:
            bit = singles & -singles
            singles ^= bit
            digit = bit.bit_length()
            cell = next(c for c in unit if masks[c] & bit)
            name = cell_name(cell, n)
            yield Step("hidden single", level, (cell,), (digit,),
                       f"In {geo.unit_names[u]}, {digit_char(digit)} fits only in {name}, so {name} is "
                       f"{digit_char(digit)}.", placements=((cell, digit),), units=(u,))


def hidden_singles_in_boxes(state: State) -> Iterator[Step]:
    return _hidden_singles(state, True)


def hidden_singles_in_lines(state: State) -> Iterator[Step]:
    return _hidden_singles(state, False)


def naked_singles(state: State) -> Iterator[Step]:
    n = state.geo.size
    for cell, m in enumerate(state.masks):
        if m and not m & (m - 1):
            digit = m.bit_length()
            name = cell_name(cell, n)
            yield Step("naked single", BASIC, (cell,), (digit,),
                       f"{digit_char(digit)} is the only candidate left in {name}, so {name} is "
                       f"{digit_char(digit)}.", placements=((cell, digit),), units=())


# -- intersections ---------------------------------------------------------------------------------


def _or(masks: list[int], cells: Sequence[int]) -> int:
    out = 0
    for c in cells:
        out |= masks[c]
    return out


def _intersections(state: State, pointing: bool) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    names = geo.unit_names
    for box, line, shared, box_rest, line_rest in geo.intersections:
        inside = _or(masks, shared)
        if not inside:
            continue
        in_box, in_line = _or(masks, box_rest), _or(masks, line_rest)
        found = inside & ~in_box & in_line if pointing else inside & ~in_line & in_box
        for digit in mask_digits(found):
            bit = 1 << (digit - 1)
            where = tuple(c for c in shared if masks[c] & bit)
            targets = line_rest if pointing else box_rest
            eliminations = tuple((c, digit) for c in targets if masks[c] & bit)
            d = digit_char(digit)
            if pointing:
                text = (f"In {names[box]}, {d} can only go in {names[line]} ({_names(where, n)}), so it is "
                        f"removed from the rest of {names[line]}: {_names([c for c, _ in eliminations], n)}.")
            else:
                text = (f"In {names[line]}, {d} can only go in {names[box]} ({_names(where, n)}), so it is "
                        f"removed from the rest of {names[box]}: {_names([c for c, _ in eliminations], n)}.")
            yield Step("pointing" if pointing else "box-line reduction", INTERMEDIATE, where, (digit,), text,
                       eliminations=eliminations, units=(box, line))


def pointing(state: State) -> Iterator[Step]:
    return _intersections(state, True)


def box_line_reduction(state: State) -> Iterator[Step]:
    return _intersections(state, False)


# -- subsets ---------------------------------------------------------------------------------------

SUBSET_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subsets(k: int) -> Finder:
    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        for u, unit in enumerate(geo.units):
            open_cells = [c for c in unit if masks[c]]
            if len(open_cells) <= k:
                continue
            small = [c for c in open_cells if 2 <= masks[c].bit_count() <= k]
            for combo in combinations(small, k):
                union = 0
                for c in combo:
                    union |= masks[c]
                if union.bit_count() != k:
                    continue
                eliminations = tuple((c, d) for c in open_cells if c not in combo
                                     for d in mask_digits(masks[c] & union))
                if not eliminations:
                    continue
                text = (f"In {geo.unit_names[u]}, {_names(combo, n)} hold only {_digits(union)} between them, "
                        f"so those digits are removed from the other cells: {_removal(eliminations, n)}.")
                yield Step(f"naked {SUBSET_NAMES[k]}", ADVANCED, combo, mask_digits(union), text,
                           eliminations=eliminations, units=(u,))
    find.__name__ = f"naked_{SUBSET_NAMES[k]}s"
    return find


def hidden_subsets(k: int) -> Finder:
    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        for u, unit in enumerate(geo.units):
            open_cells = [c for c in unit if masks[c]]
            if len(open_cells) <= k:
                continue
            places: dict[int, int] = {}  # digit -> mask of positions in open_cells
            for i, c in enumerate(open_cells):
                for d in mask_digits(masks[c]):
                    places[d] = places.get(d, 0) | (1 << i)
            few = [d for d, where in places.items() if 2 <= where.bit_count() <= k]
            for combo in combinations(sorted(few), k):
                where = 0
                for d in combo:
                    where |= places[d]
                if where.bit_count() != k:
                    continue
                keep = 0
                for d in combo:
                    keep |= 1 << (d - 1)
                cells = tuple(c for i, c in enumerate(open_cells) if where >> i & 1)
                eliminations = tuple((c, d) for c in cells for d in mask_digits(masks[c] & ~keep))
                if not eliminations:
                    continue
                text = (f"In {geo.unit_names[u]}, {_digits(keep)} fit only in {_names(cells, n)}, so those cells "
                        f"hold nothing else: remove {_removal(eliminations, n)}.")
                yield Step(f"hidden {SUBSET_NAMES[k]}", ADVANCED, cells, combo, text,
                           eliminations=eliminations, units=(u,))
    find.__name__ = f"hidden_{SUBSET_NAMES[k]}s"
    return find


# -- fish ------------------------------------------------------------------------------------------

FISH_NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(k: int) -> Finder:
    """Rows as base and columns as cover, then the other way round (diagonals take no part)."""
    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for by_rows in (True, False):
                lines = []  # (base index, mask of cover indices)
                for base in range(n):
                    where = 0
                    for i in range(n):
                        cell = base * n + i if by_rows else i * n + base
                        if masks[cell] & bit:
                            where |= 1 << i
                    if 2 <= where.bit_count() <= k:
                        lines.append((base, where))
                for combo in combinations(lines, k):
                    cover = 0
                    for _, where in combo:
                        cover |= where
                    if cover.bit_count() != k:
                        continue
                    bases = {b for b, _ in combo}
                    covers = [i for i in range(n) if cover >> i & 1]
                    eliminations = []
                    for i in covers:
                        for base in range(n):
                            if base in bases:
                                continue
                            cell = base * n + i if by_rows else i * n + base
                            if masks[cell] & bit:
                                eliminations.append((cell, digit))
                    if not eliminations:
                        continue
                    eliminations.sort()
                    base_word, cover_word = ("rows", "columns") if by_rows else ("columns", "rows")
                    pattern = tuple(sorted(b * n + i if by_rows else i * n + b
                                           for b, where in combo for i in range(n) if where >> i & 1))
                    d = digit_char(digit)
                    text = (f"In {base_word} {_join([str(b + 1) for b, _ in combo])}, {d} fits only in "
                            f"{cover_word} {_join([str(i + 1) for i in covers])}, so {d} is removed from the "
                            f"other cells of those {cover_word}: {_names([c for c, _ in eliminations], n)}.")
                    offset = 0 if by_rows else n
                    units = tuple(offset + b for b, _ in combo)
                    yield Step(FISH_NAMES[k], EXTREME, pattern, (digit,), text,
                               eliminations=tuple(eliminations), units=units)
    find.__name__ = FISH_NAMES[k].replace("-", "_").lower()
    return find


# -- wings -----------------------------------------------------------------------------------------


def xy_wings(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peers, peer_sets = geo.peers, geo.peer_sets
    bivalue = [c for c, m in enumerate(masks) if m and m.bit_count() == 2]
    is_bivalue = set(bivalue)
    for pivot in bivalue:
        pm = masks[pivot]
        wings = [c for c in peers[pivot] if c in is_bivalue and (masks[c] & pm).bit_count() == 1]
        for a, b in combinations(wings, 2):
            am, bm = masks[a], masks[b]
            z = am & ~pm
            if z != bm & ~pm or (am & pm) == (bm & pm):
                continue
            if am & pm > bm & pm:
                a, b, am, bm = b, a, bm, am  # the wing of the pivot's smaller digit first
            digit = z.bit_length()
            eliminations = tuple((c, digit) for c in sorted(peer_sets[a] & peer_sets[b])
                                 if c != pivot and masks[c] & z)
            if not eliminations:
                continue
            x, y = (am & pm).bit_length(), (bm & pm).bit_length()
            p, wa, wb = cell_name(pivot, n), cell_name(a, n), cell_name(b, n)
            d = digit_char(digit)
            text = (f"{p} is {digit_char(x)} or {digit_char(y)}: if {digit_char(x)}, {wa} is {d}; if "
                    f"{digit_char(y)}, {wb} is {d}; so {d} is removed from the cells that see both {wa} and "
                    f"{wb}: {_names([c for c, _ in eliminations], n)}.")
            yield Step("XY-wing", EXTREME, (pivot, a, b), (x, y, digit), text, eliminations=eliminations)


def xyz_wings(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peers, peer_sets = geo.peers, geo.peer_sets
    for pivot, pm in enumerate(masks):
        if not pm or pm.bit_count() != 3:
            continue
        wings = [c for c in peers[pivot] if masks[c] and masks[c].bit_count() == 2 and masks[c] & ~pm == 0]
        for a, b in combinations(wings, 2):
            am, bm = masks[a], masks[b]
            if am == bm or am | bm != pm:
                continue
            z = am & bm
            digit = z.bit_length()
            seen = peer_sets[pivot] & peer_sets[a] & peer_sets[b]
            eliminations = tuple((c, digit) for c in sorted(seen) if masks[c] & z)
            if not eliminations:
                continue
            d = digit_char(digit)
            p, wa, wb = cell_name(pivot, n), cell_name(a, n), cell_name(b, n)
            text = (f"Whatever {p} holds ({_digits(pm, 'or')}), one of {p}, {wa} ({_digits(am, 'or')}) and {wb} "
                    f"({_digits(bm, 'or')}) is {d}, so {d} is removed from the cells that see all three: "
                    f"{_names([c for c, _ in eliminations], n)}.")
            yield Step("XYZ-wing", EXTREME, (pivot, a, b), mask_digits(pm), text, eliminations=eliminations)
