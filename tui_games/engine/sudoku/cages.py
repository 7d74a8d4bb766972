"""Killer Sudoku's techniques: what a person sees in the cages' sums.

A cage is a sum and the cells that make it, no digit twice (:class:`~.variants.Cage`). The techniques read
the cages of the :class:`~.techniques.State` and, like the classic ones, yield complete
:class:`~.techniques.Step` objects with the cage's cells to highlight:

- **last cell of a cage** (1.1): every other cell of the cage is filled, so the last one is the
  sum less the digits placed;
- **cage combination** (2.4): only some sets of distinct digits make the sum in the cage's open
  cells (only 1+2+4 make 7 in three cells) once its placed digits are taken out and each digit
  is matched to a cell whose candidates hold it; a candidate that no such assignment uses goes.
  A digit every combination of another cage holds, in places all within one unit, is not in
  this cage's cells of that unit (a 3(2) and a 7(2) in a row: the 7(2) is 3+4, not 1+6 or 2+5);
- **rule of 45** (2.5, +0.1 a unit more): a row, column or box (or a Jigsaw region) holds
  1..9, 45 in all, and so do several adjacent ones, 45 each; the cages wholly inside add up to
  a known sum, so the cells inside that belong to cages reaching out (the *innies*) add up to
  the rest, and the cells outside of those cages (the *outies*) to what those cages hold over
  it. One open innie or outie: its digit is that sum;
- **cage splitting** (2.9, +0.1 a unit more): the innies (or outies) that are open are all of
  one cage, so the rule of 45 splits it in two parts of known sums, each a cage of its own for
  the combinations;
- **innie/outie sum** (3.1, +0.1 a unit more): two or three open innies (or outies) from
  different cages make a known sum; digits repeat among them only where the cells see neither
  each other nor share a cage, and the assignments that fit their candidates limit them.

Not here: innie-outie differences (one innie and one outie of different cages, the one a fixed
amount above the other), several unit sets beyond 1-4 adjacent rows or columns and two touching
boxes, and cage pairs combined into one bigger cage.

A cage of nine cells is also a unit for the classic techniques (:func:`cage_geometry`: a
hidden single in it, a naked pair in it...); a smaller cage is not a unit (it need not hold
every digit), but its cells are peers (:mod:`.variants`), so a digit placed in it leaves its
cage mates as it leaves a row.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from tui_games.engine.sudoku.grid import DIAGONAL, Geometry, cell_name, digit_char, mask_digits
from tui_games.engine.sudoku.levels import ADVANCED, INTERMEDIATE, TRIVIAL
from tui_games.engine.sudoku.techniques import State, Step, _join, _names
from tui_games.engine.sudoku.variants import Cage

__all__ = [
    "cage_combinations", "cage_options", "cage_geometry", "cage_splitting", "innie_outie_sums",
    "innies_outies", "last_cage_cells", "unit_sets",
]


@cache
def digit_sum(mask: int) -> int:
    return sum(mask_digits(mask))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        mask ^= low
        yield low


def cage_options(candidates: Sequence[int], need: int) -> tuple[list[int], list[int]]:
    """See :func:`_cage_options` (cached: a cage's candidates change seldom between steps)."""
    allowed, combos = _cage_options(tuple(candidates), need)
    return list(allowed), list(combos)


@lru_cache(maxsize=1 << 14)
def _cage_options(candidates: tuple[int, ...], need: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For cells that hold distinct digits making ``need`` between them, with these candidate
    masks: (for each cell, the digits some assignment gives it; the digit sets -- the
    combinations -- some assignment uses). Both empty when nothing fits.

    Forward and backward over the cells, the sets of digits the cells so far can take (pruned by
    the sum still reachable); a cell can hold ``d`` when a set before it and a set after it,
    disjoint, leave exactly ``d`` to make the sum. Cheap for the cages people draw (2-5 cells),
    and a 9-cell cage costs thousands of set pairs, not 9! orders."""
    k = len(candidates)
    if k == 0:
        return (), ()

    def fits(mask: int, left: int) -> bool:
        # can ``left`` more distinct digits outside ``mask`` complete the sum?
        rest = need - digit_sum(mask)
        return left * (left + 1) // 2 <= rest <= left * (19 - left) // 2

    forward: list[set[int]] = [{0}]
    for i in range(k):
        forward.append({m | b for m in forward[i] for b in _bits(candidates[i] & ~m) if fits(m | b, k - i - 1)})
    backward: list[set[int]] = [set() for _ in range(k + 1)]
    backward[k] = {0}
    for i in range(k - 1, -1, -1):
        backward[i] = {m | b for m in backward[i + 1] for b in _bits(candidates[i] & ~m) if fits(m | b, i)}
    combos = sorted(m for m in forward[k] if digit_sum(m) == need)
    if not combos:
        return (), ()
    allowed = [0] * k
    for i in range(k):
        for f in forward[i]:
            for b in backward[i + 1]:
                if f & b:
                    continue
                d = need - digit_sum(f | b)
                if 1 <= d <= 31:
                    bit = 1 << (d - 1)
                    if candidates[i] & bit and not (f | b) & bit:
                        allowed[i] |= bit
    return tuple(allowed), tuple(combos)


def _cage_state(state: State, cage: Cage) -> tuple[list[int], int, int]:
    """(the cage's open cells, the sum they still need, the digits placed in it as a mask)."""
    values = state.values
    open_cells = [c for c in cage.cells if not values[c]]
    placed = 0
    for c in cage.cells:
        if values[c]:
            placed |= 1 << (values[c] - 1)
    return open_cells, cage.total - sum(values[c] for c in cage.cells), placed


def _cage_name(cage: Cage, n: int) -> str:
    return f"the {cage.total}-cage at {cell_name(cage.cells[0], n)}"


def _combo_text(combos: Sequence[int]) -> str:
    return " or ".join("+".join(digit_char(d) for d in digits) for digits in sorted(mask_digits(m) for m in combos))


def _loss_text(eliminations: Sequence[tuple[int, int]], n: int) -> str:
    """``r1c1 and r1c2 lose 3456789; r2c1 loses 9``: the cells grouped by what they lose."""
    lost: dict[int, int] = {}
    for c, d in eliminations:
        lost[c] = lost.get(c, 0) | 1 << (d - 1)
    groups: dict[int, list[int]] = {}
    for c, m in lost.items():
        groups.setdefault(m, []).append(c)
    return "; ".join(f"{_join([cell_name(c, n) for c in cells])} lose{'s' * (len(cells) == 1)} "
                     f"{''.join(digit_char(d) for d in mask_digits(m))}" for m, cells in groups.items())


def _need_text(cage: Cage, open_cells: Sequence[int], need: int, placed: int, n: int) -> str:
    """``The 7-cage at r1c1 (r1c1, r1c2, r2c1) needs 7 in 3 cells``, with what is placed."""
    text = f"{_cage_name(cage, n).capitalize()} ({_names(cage.cells, n)})"
    if placed:
        text += f" has {'+'.join(digit_char(d) for d in mask_digits(placed))} placed and"
    return f"{text} needs {need} in {len(open_cells)} cell{'s' * (len(open_cells) > 1)}"


def _options_text(combos: Sequence[int]) -> str:
    if len(combos) <= 4:
        return f"only {_combo_text(combos)} make{'s' * (len(combos) == 1)} it with the candidates"
    return f"{len(combos)} combinations make it with the candidates"


# -- the techniques ------------------------------------------------------------------------------


def last_cage_cells(state: State) -> Iterator[Step]:
    n = state.geo.size
    for cage in state.cages:
        open_cells, need, placed = _cage_state(state, cage)
        if len(open_cells) != 1 or not 1 <= need <= n:
            continue
        cell, bit = open_cells[0], 1 << (need - 1)
        if not state.masks[cell] & bit or placed & bit:
            continue  # a contradiction, not a step
        name = cell_name(cell, n)
        yield Step("last cell of a cage", TRIVIAL, tuple(cage.cells), (need,),
                   f"{name} is the last empty cell of {_cage_name(cage, n)}; the others make "
                   f"{cage.total - need}, so {name} is {digit_char(need)}.", placements=((cell, need),))


class _Lock(NamedTuple):
    """A digit every combination of a cage holds, its places in the cage all in one unit: no
    other cell of that unit holds it."""

    cage: int
    digit: int
    unit: int


def _locks(state: State) -> list[_Lock]:
    geo, masks = state.geo, state.masks
    out: list[_Lock] = []
    for index, cage in enumerate(state.cages):
        open_cells, need, placed = _cage_state(state, cage)
        if not open_cells:
            continue
        allowed, combos = cage_options([masks[c] & ~placed for c in open_cells], need)
        if not combos:
            continue
        required = combos[0]
        for m in combos[1:]:
            required &= m
        for d in mask_digits(required):
            bit = 1 << (d - 1)
            where = [c for c, keep in zip(open_cells, allowed) if keep & bit]
            shared = set(geo.units_of[where[0]]).intersection(*(geo.units_of[c] for c in where[1:]))
            out.extend(_Lock(index, d, u) for u in sorted(shared))
    return out


def cage_combinations(state: State) -> Iterator[Step]:
    """A cage's candidates outside every combination that makes its sum go; so do the digits
    a combination would repeat in a unit where another cage must hold them."""
    if not state.cages:
        return
    geo, masks = state.geo, state.masks
    n = geo.size
    locks = _locks(state)
    for index, cage in enumerate(state.cages):
        open_cells, need, placed = _cage_state(state, cage)
        if not open_cells:
            continue
        reasons: dict[int, list[_Lock]] = {}  # cell -> the locks that keep digits from it
        candidates = []
        for c in open_cells:
            blocked = 0
            for lock in locks:
                if lock.cage != index and c in geo.units[lock.unit] and masks[c] >> (lock.digit - 1) & 1:
                    blocked |= 1 << (lock.digit - 1)
                    reasons.setdefault(c, []).append(lock)
            candidates.append(masks[c] & ~placed & ~blocked)
        allowed, combos = cage_options(candidates, need)
        if not combos:
            continue  # a contradiction: State.contradiction or another step says so
        eliminations = tuple((c, d) for c, keep in zip(open_cells, allowed)
                             for d in mask_digits(masks[c] & ~keep))
        if not eliminations:
            continue
        used: list[_Lock] = []
        if reasons:  # cite the locks that took what the sum alone would have left
            plain, _ = cage_options([masks[c] & ~placed for c in open_cells], need)
            kept_by_sum = {(c, d) for c, keep in zip(open_cells, plain) for d in mask_digits(keep)}
            gone = set(eliminations) & kept_by_sum
            used = sorted({lock for c in open_cells for lock in reasons.get(c, ()) if (c, lock.digit) in gone},
                          key=lambda lock: (lock.digit, lock.cage, lock.unit))
        locked = ""
        if used:
            by_cage: dict[int, tuple[set[int], set[int]]] = {}
            for lock in used:
                digits, units = by_cage.setdefault(lock.cage, (set(), set()))
                digits.add(lock.digit)
                units.add(lock.unit)
            locked = " (" + "; ".join(
                f"{_join([digit_char(d) for d in sorted(digits)])} must be in "
                f"{_cage_name(state.cages[other], n)}, within {_join([geo.unit_names[u] for u in sorted(units)])}"
                for other, (digits, units) in by_cage.items()) + ")"
        text = (f"{_need_text(cage, open_cells, need, placed, n)}: {_options_text(combos)}{locked}, so "
                f"{_loss_text(eliminations, n)}.")
        pattern = tuple(sorted({*cage.cells, *(c for lock in used for c in state.cages[lock.cage].cells)}))
        yield Step("cage combination", INTERMEDIATE, pattern, tuple(sorted({d for _, d in eliminations})),
                   text, eliminations=eliminations, units=tuple(sorted({lock.unit for lock in used})))


class UnitSet(NamedTuple):
    """Adjacent units taken together for the rule of 45: their numbers, cells and a name."""

    units: tuple[int, ...]
    cells: frozenset[int]
    name: str


@cache
def unit_sets(geo: Geometry) -> tuple[UnitSet, ...]:
    """The unit sets the rule of 45 looks at, fewest units first: each row, column and box
    (or region); two, three and four adjacent rows or columns; two boxes (regions) that touch."""
    n = geo.size
    lines: list[list[UnitSet]] = [[] for _ in range(5)]

    def add(units: tuple[int, ...], name: str) -> None:
        cells = frozenset(c for u in units for c in geo.units[u])
        lines[len(units)].append(UnitSet(units, cells, name))

    for kind, word in ((geo.rows(), "rows"), (geo.columns(), "columns")):
        for length in range(1, 5):
            for start in range(n - length + 1):
                units = tuple(kind[start:start + length])
                add(units, geo.unit_names[units[0]] if length == 1 else f"{word} {start + 1}-{start + length}")
    boxes = list(geo.boxes())
    for b in boxes:
        add((b,), geo.unit_names[b])
    for i, a in enumerate(boxes):
        near = {x for c in geo.units[a] for x in _neighbours(c, n)}
        for b in boxes[i + 1:]:
            if near.intersection(geo.units[b]):
                add((a, b), f"{geo.unit_names[a]} and {geo.unit_names[b]}")
    return tuple(s for group in lines for s in group)


def _neighbours(cell: int, n: int) -> list[int]:
    row, col = divmod(cell, n)
    return [r * n + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < n and 0 <= c < n]


class _FortyFive(NamedTuple):
    """What the rule of 45 gives for one unit set: the cages inside, the cages reaching out,
    the open innies and what they need, the open outies and what they need (None: an uncaged
    cell inside leaves the outies unknown)."""

    inside: tuple[Cage, ...]
    crossing: tuple[Cage, ...]
    innies: tuple[int, ...]
    innie_need: int
    outies: tuple[int, ...]
    outie_need: int | None


# The rule of 45 reads the digits placed only, not the candidates: between two placements the
# stepper asks it again for every unit set, so the last position's answers are kept.
_last_facts: list[tuple[object, dict[UnitSet, _FortyFive]]] = []


def _facts(state: State, unit_set: UnitSet) -> _FortyFive:
    key = (state.geo, tuple(state.values))
    hit = _last_facts[0] if _last_facts else None
    if hit is None or hit[0] != key:
        hit = (key, {})
        _last_facts[:] = [hit]
    known = hit[1]
    facts = known.get(unit_set)
    if facts is None:
        facts = known[unit_set] = _forty_five(state, unit_set)
    return facts


def _forty_five(state: State, unit_set: UnitSet) -> _FortyFive:
    cells = unit_set.cells
    values = state.values
    n = state.geo.size
    total = len(unit_set.units) * n * (n + 1) // 2
    inside: list[Cage] = []
    crossing: list[Cage] = []
    covered: set[int] = set()
    for index in sorted({state.cage_of[c] for c in cells if state.cage_of[c] >= 0}):
        cage = state.cages[index]
        (inside if all(c in cells for c in cage.cells) else crossing).append(cage)
        covered.update(cage.cells)
    innie_cells = [c for c in cells if not any(c in cage.cells for cage in inside)]
    innie_need = total - sum(cage.total for cage in inside) - sum(values[c] for c in innie_cells)
    innies = tuple(sorted(c for c in innie_cells if not values[c]))
    outie_need: int | None = None
    outies: tuple[int, ...] = ()
    if all(c in covered for c in cells):
        outie_cells = [c for cage in crossing for c in cage.cells if c not in cells]
        outie_need = (sum(cage.total for cage in crossing) - (total - sum(cage.total for cage in inside))
                      - sum(values[c] for c in outie_cells))
        outies = tuple(sorted(c for c in outie_cells if not values[c]))
    return _FortyFive(tuple(inside), tuple(crossing), innies, innie_need, outies, outie_need)


def _rule_text(unit_set: UnitSet, facts: _FortyFive, n: int) -> str:
    count = len(unit_set.units)
    whole = f"{unit_set.name} hold{'s' * (count == 1)} {count * n * (n + 1) // 2}"
    if facts.inside:
        sums = "+".join(str(cage.total) for cage in facts.inside)
        whole += f"; the cage{'s' * (len(facts.inside) > 1)} inside make {sums}"
    return whole


def _sides(state: State) -> Iterator[tuple[UnitSet, _FortyFive, str, tuple[int, ...], int | None]]:
    """What the rule of 45 says of each unit set, from its innies and then from its outies:
    (the unit set, its facts, "innie" or "outie", those open cells, the sum they make)."""
    if not state.cages:
        return
    for unit_set in unit_sets(state.geo):
        facts = _facts(state, unit_set)
        yield unit_set, facts, "innie", facts.innies, facts.innie_need
        yield unit_set, facts, "outie", facts.outies, facts.outie_need


def _rating(base: float, unit_set: UnitSet) -> float:
    return round(base + 0.1 * (len(unit_set.units) - 1), 1)


def innies_outies(state: State) -> Iterator[Step]:
    """One open innie or outie: its digit is the sum the rule of 45 leaves for it."""
    n, masks = state.geo.size, state.masks
    for unit_set, facts, word, cells, need in _sides(state):
        if len(cells) != 1 or need is None or not 1 <= need <= n or not masks[cells[0]] >> (need - 1) & 1:
            continue
        cell = cells[0]
        name = cell_name(cell, n)
        if word == "outie":
            reach = "+".join(str(cage.total) for cage in facts.crossing)
            why = (f"{_rule_text(unit_set, facts, n)}, and the cages reaching out make {reach}: "
                   f"{name} is the one open {word}, so it is {digit_char(need)}.")
        else:
            why = f"{_rule_text(unit_set, facts, n)}: {name} is the one open {word}, so it is {digit_char(need)}."
        pattern = tuple(sorted({cell, *(c for cage in facts.crossing for c in cage.cells)}))
        yield Step("rule of 45", INTERMEDIATE, pattern, (need,), f"Rule of 45: {why}",
                   placements=((cell, need),), units=unit_set.units, rating=_rating(2.5, unit_set))


def _differ(state: State, a: int, b: int) -> bool:
    return state.geo.sees(a, b) or state.cage_of[a] >= 0 and state.cage_of[a] == state.cage_of[b]


def _group_options(state: State, cells: Sequence[int], need: int) -> list[int]:
    """Per cell, the digits some assignment gives it, for cells making ``need`` where only
    cells that see each other or share a cage must differ (a few cells: a plain search)."""
    masks, n = state.masks, state.geo.size
    allowed = [0] * len(cells)
    chosen = [0] * len(cells)

    def search(i: int, left: int) -> None:
        if i == len(cells):
            if left == 0:
                for j, d in enumerate(chosen):
                    allowed[j] |= 1 << (d - 1)
            return
        rest = len(cells) - i - 1
        for d in mask_digits(masks[cells[i]]):
            if not rest <= left - d <= rest * n:
                continue
            if any(chosen[j] == d and _differ(state, cells[j], cells[i]) for j in range(i)):
                continue
            chosen[i] = d
            search(i + 1, left - d)

    search(0, need)
    return allowed


def _split_options(state: State, parts: list[tuple[list[int], int]],  # the two parts
                   placed: int) -> list[tuple[list[int], list[int]]] | None:
    """Each part's (allowed digits per cell, combinations) for a cage split in parts of known
    sums; a digit every combination of one part holds is not in the other (one cage: no digit
    twice). None when a part has no combination."""
    masks = state.masks
    banned = [placed] * len(parts)
    for _ in range(2):  # what one part locks narrows the other, which may lock more
        options = []
        for (part, need), ban in zip(parts, banned):
            allowed, combos = cage_options([masks[c] & ~ban for c in part], need)
            if not combos:
                return None
            options.append((allowed, combos))
        required = []
        for _allowed, combos in options:
            common = combos[0]
            for m in combos[1:]:
                common &= m
            required.append(common)
        banned = [placed | required[1], placed | required[0]]
    return options


def cage_splitting(state: State) -> Iterator[Step]:
    """The open innies (or outies) are all of one cage: it splits into two parts of known sums."""
    n, masks = state.geo.size, state.masks
    for unit_set, facts, word, cells, need in _sides(state):
        if len(cells) < 2 or need is None:
            continue
        owners = {state.cage_of[c] for c in cells}
        if len(owners) != 1 or -1 in owners:
            continue
        cage = state.cages[owners.pop()]
        open_cells, cage_need, placed = _cage_state(state, cage)
        rest = [c for c in open_cells if c not in cells]
        if not rest:
            continue  # the whole cage: its own combinations see it
        parts = [(list(cells), need), (rest, cage_need - need)]
        options = _split_options(state, parts, placed)
        if options is None:
            continue
        eliminations: list[tuple[int, int]] = []
        texts = []
        for (part, part_need), (allowed, combos) in zip(parts, options):
            eliminations += [(c, d) for c, keep in zip(part, allowed) for d in mask_digits(masks[c] & ~keep)]
            texts.append(f"{_names(part, n)} make{'s' * (len(part) == 1)} {part_need} "
                         f"({_combo_text(combos) if len(combos) <= 3 else f'{len(combos)} ways'})")
        if not eliminations:
            continue
        elims = tuple(eliminations)
        why = (f"Rule of 45: {_rule_text(unit_set, facts, n)}, so the open {word}s "
               f"{_names(cells, n)} make {need}, splitting {_cage_name(cage, n)}: "
               f"{' and '.join(texts)}, so {_loss_text(elims, n)}.")
        yield Step("cage splitting", ADVANCED, tuple(cage.cells), tuple(sorted({d for _, d in elims})), why,
                   eliminations=elims, units=unit_set.units, rating=_rating(2.9, unit_set))


def innie_outie_sums(state: State) -> Iterator[Step]:
    """Two or three open innies (or outies) of different cages make a known sum."""
    n, masks = state.geo.size, state.masks
    for unit_set, facts, word, cells, need in _sides(state):
        if not 2 <= len(cells) <= 3 or need is None:
            continue
        if len({state.cage_of[c] for c in cells}) == 1 and state.cage_of[cells[0]] >= 0:
            continue  # one cage: cage splitting
        allowed = _group_options(state, cells, need)
        if not any(allowed):
            continue
        elims = tuple((c, d) for c, keep in zip(cells, allowed) for d in mask_digits(masks[c] & ~keep))
        if not elims:
            continue
        why = (f"Rule of 45: {_rule_text(unit_set, facts, n)}, so the open {word}s {_names(cells, n)} "
               f"make {need} between them; with their candidates, {_loss_text(elims, n)}.")
        yield Step("innie/outie sum", ADVANCED, cells, tuple(sorted({d for _, d in elims})), why,
                   eliminations=elims, units=unit_set.units, rating=_rating(3.1, unit_set))


@lru_cache(maxsize=64)
def cage_geometry(geo: Geometry) -> Geometry:
    """``geo`` with each Killer cage of ``size`` cells that is not a unit already added as a
    unit (named ``the 45-cage at r1c1``), so that the classic techniques see it: it holds every
    digit once. Of the diagonal kind, the kind of a unit that is neither line nor box (no
    box-line intersections; the fish take it as the mutant ones take a diagonal). Cage mates
    are peers already (:mod:`.variants`). ``geo`` itself when there is none."""
    variant = geo.variant
    if variant is None or not variant.cages:
        return geo
    known = {frozenset(u) for u in geo.units}
    extra = [cage for cage in variant.cages if len(cage.cells) == geo.size and frozenset(cage.cells) not in known]
    if not extra:
        return geo
    units = list(geo.units)
    units_of = [list(u) for u in geo.units_of]
    for cage in extra:
        for c in cage.cells:
            units_of[c].append(len(units))
        units.append(tuple(cage.cells))
    return geo._replace(units=tuple(units), unit_kinds=geo.unit_kinds + (DIAGONAL,) * len(extra),
                        unit_names=geo.unit_names + tuple(_cage_name(cage, geo.size) for cage in extra),
                        units_of=tuple(tuple(u) for u in units_of))
