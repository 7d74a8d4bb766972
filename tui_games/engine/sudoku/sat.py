"""Solving and counting Sudoku solutions with a SAT solver (pycosat, i.e. PicoSAT).

The encoding, built per puzzle in :func:`encode`:

1. **Candidates first.** Each empty cell starts with the digits no peer holds, then cheap
   propagation fills what is forced: naked singles (a cell with one candidate) and hidden
   singles (a digit with one place in a unit), and locked candidates (a digit confined to a
   box/line intersection leaves the rest of the other unit), repeated until nothing changes.
   This is sound (it only removes what no solution has), it detects most contradictions
   without a SAT call, and on typical puzzles it fills half the empty cells, which shrinks
   the CNF several times over.
2. **Variables only for open candidates**, numbered compactly ``1..V``: variable ``v`` means
   "cell ``var_cell[v]`` holds ``var_digit[v]``". Filled cells and excluded digits get no
   variable, so no clause has to state them.
3. **Clauses**: every open cell holds at least one and at most one of its candidates; every
   digit missing from a unit is in at least one of the unit's open cells that allow it; two
   peers never hold the same digit (one binary clause per pair of peers sharing a candidate,
   so a pair in both a row and a box is stated once). For the X variant the diagonals are
   units like the others.

4. **Killer cages.** A cage's cells are peers in its geometry, so the pair clauses above
   already keep its digits different. Its sum is stated by its **digit combinations**: the
   sets of different digits making the sum (only {1,2,4} make 7 in three cells), kept to
   those its open cells can still take one digit each. Propagation reasons with them first
   (:func:`prune_cages`): a cage cell keeps the digits some assignment gives it, a digit the
   cage needs whatever the combination goes to its one cell left, or out of the rest of a
   unit holding every cell left for it. On generated Killers (cages of 2-5 cells, no givens)
   it fills about 61 of the 81 cells and leaves about 1,300 clauses where the combinations
   alone left 4,600, and most Killers need no SAT call at all. One combination left:
   no new variable, the candidates already say it, plus a clause per digit that it is
   somewhere in the cage. Several: one variable ``y_S`` per combination ``S``, the clause
   "one of them", and for each ``S`` "``y_S`` excludes every candidate outside ``S``" and
   "``y_S`` puts each digit of ``S`` in some cell" (with the cells different, exactly ``S``
   fills the cage, so the sum is met and each ``y_S`` is fixed by the digits: counting
   solutions stays exact). Why combinations and not a sequential counter over partial sums
   (``cage_encoding="sums"``, kept for the comparison): a 9×9 cage has at most 12
   combinations, so the clauses stay few, and unit propagation on them is as strong as the
   players' combination reasoning, where the partial-sum chain only sees a wrong sum at its
   last cell. Measured by ``tui-games bench sudoku --variant killer`` (docs/performance.md),
   which runs both: the combinations are the faster. The cage reasoning is the costly part
   of a Killer's solve, so it is cached by the cage's masks and sum (:func:`_cage_options`)
   and searches every assignment at once, as families of digit sets held in big ints
   (:func:`_search_options`).

5. **Killer innies, before the SAT call.** Where the propagation of step 1 leaves a Killer
   open, :func:`solve` (not :func:`encode`) runs it once more with the rule of 45's innies
   as cages of their own (:func:`_innie_table`). That is sound, so when it fills the grid
   that grid is the one solution, and when it finds a contradiction there is none; else the
   CNF of step 1 goes to pycosat, unchanged. The CNF, the DIMACS text and the solutions a
   search finds in turn (which the Killer generator's uniqueness loop follows) are those of
   steps 1-4 alone: the innies only spare the SAT call. On the bench's Killers they settle
   145 of the 271 that step 1 leaves open.

Jigsaw regions are the boxes of their geometry, so they need nothing here.

The static structure (units, peers, peer pairs) is the cached :func:`grid.geometry`, built
once per shape. Clause lists are plain lists of lists of ints, what ``pycosat.solve`` takes.

Counting (:func:`count_solutions`, :func:`solve` with ``unique=True``) runs
``pycosat.itersolve`` on the same CNF: each solution found is blocked by a clause over the
encoding's variables -- only the open candidates, since filled cells have none -- and the
solver goes on incrementally, so "is there a second solution?" costs one more search on a
warm solver, not a second encoding.
"""

from __future__ import annotations

import time
from collections import namedtuple
from collections.abc import Sequence
from enum import Enum
from functools import cache, lru_cache
from typing import NamedTuple

import pycosat

from tui_games.engine.sudoku.formats import format_variant_line
from tui_games.engine.sudoku.grid import Geometry, Grid, cell_name, mask_digits
from tui_games.engine.sudoku.variants import Cage, cage_combinations

__all__ = [
    "CAGE_ENCODINGS",
    "Encoding",
    "EncodingStats",
    "SolveResult",
    "Status",
    "count_solutions",
    "encode",
    "propagate",
    "prune_cages",
    "solutions",
    "solve",
    "to_dimacs",
]

# How a Killer cage's sum becomes clauses (see the module docstring).
COMBINATIONS, SUMS = "combinations", "sums"
CAGE_ENCODINGS = (COMBINATIONS, SUMS)


class Status(str, Enum):
    """What a puzzle turned out to be. ``SOLVED`` is "one solution found, uniqueness not
    checked" (:func:`solve` with ``unique=False``)."""

    UNIQUE = "unique"
    NONE = "no solution"
    SEVERAL = "several solutions"
    SOLVED = "solved"


# Named tuples and plain classes, not dataclasses: this module is on the start-up path of
# ``sudoku solve``, and importing ``dataclasses`` costs more than the rest of that command.


class EncodingStats(namedtuple("EncodingStats", "variables clauses literals propagated", defaults=(0, 0, 0, 0))):
    """Size of the CNF: ``variables``, ``clauses`` and ``literals`` (the sum of the clause
    lengths); ``propagated`` is how many empty cells propagation filled before encoding."""

    __slots__ = ()


class Encoding:
    """A puzzle's CNF. ``values`` is the grid after propagation (the cells the variables do not
    cover are final); ``contradiction`` is set when propagation proved there is no solution,
    and then there are no clauses to solve. Variables ``1..cell_vars`` are "cell holds
    digit"; the Killer encodings' auxiliary variables follow, each described in ``aux``.
    ``determined``: every auxiliary variable is fixed by the digits, so a model is a
    solution and pycosat's blocking of whole models counts solutions exactly. An auxiliary
    variable is ``(cage, combination mask)`` (the cage holds those digits) or ``(cage, -i,
    s)`` (its first ``i`` open cells sum to ``s``); :meth:`describe` says it in words."""

    __slots__ = ("geometry", "values", "clauses", "var_cell", "var_digit", "contradiction", "stats", "cell_vars",
                 "aux", "determined")

    def __init__(self, geometry: Geometry, values: list[int], clauses: list[list[int]], var_cell: list[int],
                 var_digit: list[int], contradiction: bool = False, stats: EncodingStats | None = None,
                 aux: list[tuple[int, ...]] | None = None, determined: bool = True) -> None:
        self.geometry, self.values, self.clauses = geometry, values, clauses
        self.var_cell, self.var_digit = var_cell, var_digit
        self.cell_vars = len(var_cell) - 1
        self.aux = aux or []
        self.determined = determined
        self.contradiction = contradiction
        self.stats = stats if stats is not None else EncodingStats()

    def describe(self, variable: int) -> str:
        """What an auxiliary variable (numbered past ``cell_vars``) means."""
        item = self.aux[variable - self.cell_vars - 1]
        assert self.geometry.variant is not None
        cage = self.geometry.variant.cages[item[0]]
        where = f"the {cage.total}-cage at {cell_name(cage.cells[0], self.geometry.size)}"
        if len(item) == 2:
            return f"{where} holds {{{','.join(map(str, mask_digits(item[1])))}}}"
        return f"the first {-item[1]} open cells of {where} sum to {item[2]}"

    def decode(self, model: Sequence[int]) -> list[int]:
        """The full grid from a pycosat model (a list of signed literals, in variable order:
        the cell variables are its first ``cell_vars``)."""
        values = list(self.values)
        var_cell, var_digit = self.var_cell, self.var_digit
        for literal in model[:self.cell_vars] if self.aux else model:
            if literal > 0:
                values[var_cell[literal]] = var_digit[literal]
        return values


class SolveResult(namedtuple("SolveResult", "status solution count stats seconds")):
    """The answer for one puzzle: ``status``; ``solution`` (the first one found, a list of
    digits, or None); ``count`` of solutions found (stops at the limit); the encoding's size
    (``stats``) and the ``seconds`` spent, encoding included."""

    __slots__ = ()

    @property
    def unique(self) -> bool:
        return self.status is Status.UNIQUE


def propagate(values: list[int], masks: list[int], geo: Geometry) -> bool:
    """Fill naked and hidden singles and apply locked candidates in place until nothing
    changes; False on a contradiction.

    ``masks`` are the candidates of the empty cells (0 for filled ones) and are kept in step.
    """
    while True:
        if not _singles(values, masks, geo):
            return False
        if not _locked_candidates(masks, geo):
            return True


def _locked_candidates(masks: list[int], geo: Geometry) -> bool:
    """Pointing and box-line reduction over every box/line intersection; whether any
    candidate went. Cheap (one pass of ORs), and it takes a quarter to two thirds of the
    clauses off the easier puzzles."""
    changed = False
    for _, _, shared, box_rest, line_rest in geo.intersections:
        inside = 0
        for c in shared:
            inside |= masks[c]
        if not inside:
            continue
        in_box = in_line = 0
        for c in box_rest:
            in_box |= masks[c]
        for c in line_rest:
            in_line |= masks[c]
        pointing = inside & ~in_box & in_line
        if pointing:
            keep = ~pointing
            for c in line_rest:
                masks[c] &= keep
            changed = True
        claiming = inside & ~in_line & in_box
        if claiming:
            keep = ~claiming
            for c in box_rest:
                masks[c] &= keep
            changed = True
    return changed


def _singles(values: list[int], masks: list[int], geo: Geometry) -> bool:
    units, peers = geo.units, geo.peers
    full = geo.full
    changed = True
    while changed:
        changed = False
        for cell, mask in enumerate(masks):
            if mask and not mask & (mask - 1):
                # A naked single; a peer it empties is caught on the next pass.
                digit = mask.bit_length()
                values[cell] = digit
                masks[cell] = 0
                keep = ~mask
                for p in peers[cell]:
                    masks[p] &= keep
                changed = True
            elif not mask and not values[cell]:
                return False
        for unit in units:
            once = twice = placed = 0
            for cell in unit:
                mask = masks[cell]
                if mask:
                    twice |= once & mask
                    once |= mask
                elif values[cell]:
                    placed |= 1 << (values[cell] - 1)
                else:
                    return False  # emptied by a hidden single placed earlier in this pass
            if once | placed != full:
                return False  # a digit with no place left in the unit
            singles = once & ~twice & ~placed
            while singles:
                bit = singles & -singles
                singles ^= bit
                for cell in unit:
                    if masks[cell] & bit:
                        values[cell] = bit.bit_length()
                        masks[cell] = 0
                        keep = ~bit
                        for p in peers[cell]:
                            masks[p] &= keep
                        changed = True
                        break
                else:
                    return False  # its only cell was taken by another single of this pass
    return True


@cache
def _digit_table(size: int) -> list[tuple[int, ...]]:
    """0-based digits of every mask of ``size`` bits: a list index beats a loop over bits."""
    return [tuple(d - 1 for d in mask_digits(m)) for m in range(1 << size)]


def _candidates(grid: Grid) -> tuple[list[int], list[int]] | None:
    """Values and candidate masks of a grid; None if a digit is repeated in a unit."""
    geo = grid.geometry
    values = list(grid.values)
    used = [0] * len(geo.units)
    for u, unit in enumerate(geo.units):
        seen = 0
        for cell in unit:
            v = values[cell]
            if v:
                bit = 1 << (v - 1)
                if seen & bit:
                    return None
                seen |= bit
        used[u] = seen
    full = geo.full
    masks = [0] * len(values)
    units_of = geo.units_of
    for cell, v in enumerate(values):
        if not v:
            taken = 0
            for u in units_of[cell]:
                taken |= used[u]
            masks[cell] = full & ~taken
    if geo.variant is not None and geo.variant.cages:
        # Cage mates are peers but not units: their givens are checked and taken out here.
        peers = geo.peers
        for cell, v in enumerate(values):
            if v:
                bit = 1 << (v - 1)
                for p in peers[cell]:
                    if values[p] == v:
                        return None
                    masks[p] &= ~bit
    return values, masks


def _viable(cage: Cage, values: list[int], masks: list[int], size: int) -> tuple[list[int], list[int], int]:
    """The combinations still open to ``cage``: its open cells, and each combination of the
    digits its open cells still need (a mask), given the placed digits ``placed``."""
    placed = total = 0
    cells = []
    union = 0
    for c in cage.cells:
        v = values[c]
        if v:
            placed |= 1 << (v - 1)
            total += v
        else:
            cells.append(c)
            union |= masks[c]
    if not cells:
        return cells, ([0] if total == cage.total else []), placed
    rest = cage.total - total
    if rest < 1:
        return cells, [], placed
    combos = [m for m in cage_combinations(rest, len(cells), size) if not m & placed and not m & ~union]
    return cells, combos, placed


@cache
def _digit_set_tables(size: int) -> list[tuple[int, int, int]]:
    """For the search of :func:`_search_options`, which holds a family of digit sets as one
    int (bit ``s`` set: the set with mask ``s`` is in): per 0-based digit ``d``, (``1 << d``,
    the family of every set without ``d``, the family of every set with it)."""
    count = 1 << size
    every = (1 << count) - 1
    out = []
    for d in range(size):
        step = 1 << d
        # Sets without d: runs of ``step`` members, then ``step`` not, repeated.
        without, width = (1 << step) - 1, 2 * step
        while width < count:
            without |= without << width
            width *= 2
        out.append((step, without, every & ~without))
    return out


@cache
def _combination_family(need: int, count: int, size: int) -> int:
    """The digit combinations of a cage (:func:`.variants.cage_combinations`) as a family."""
    family = 0
    for combo in cage_combinations(need, count, size):
        family |= 1 << combo
    return family


# _cage_options' answers, keyed and valued by plain ints (see :func:`_cage_options`): a cache
# of ints is nothing for the garbage collector to walk, where the lru_cache of tuples it
# replaces (its links, keys and answers) took about 5% of a Killer's solving time in
# collections. Cleared when it is full.
_OPTIONS: dict[int, int] = {}
_OPTIONS_LIMIT = 1 << 17
_NO_FIT = -1


def _cage_options(cell_masks: list[int], need: int, size: int = 9) -> int:
    """For open cage cells with these candidate masks that hold different digits making
    ``need``: the digits some such assignment gives each cell and the digits every fitting
    combination holds, packed in one int (cell ``i``'s mask at bits ``i * size``, the
    needed digits above the last cell's), or :data:`_NO_FIT` when no assignment fits.
    Cached: the same cage states recur across propagation passes and puzzles."""
    key = need << 5 | len(cell_masks)
    for m in cell_masks:
        key = key << size | m
    answer = _OPTIONS.get(key)
    if answer is None:
        if len(_OPTIONS) >= _OPTIONS_LIMIT:
            _OPTIONS.clear()
        answer = _OPTIONS[key] = _search_options(cell_masks, need, size)
    return answer


def _search_options(cell_masks: list[int], need: int, size: int) -> int:
    """:func:`_cage_options` uncached. Cell by cell, the family of digit sets the cells so far
    can hold, one digit each (a digit ``d`` added to every set of the family without it is a
    shift by ``1 << d`` of those sets' bits: a few big-int operations a digit, where a search
    of the assignments took a call a set); the last family met with the combinations is the
    combinations that fit. Then back from the last cell: a cell keeps a digit that takes a set
    reached before it to one that completes, and the sets that do so are what the cell before
    must reach. Seven times faster than matching each combination to the cells digit by digit."""
    k = len(cell_masks)
    fitting = _combination_family(need, k, size) if k else 0
    if not fitting:
        return _NO_FIT
    tables = _digit_set_tables(size)
    digits_of = _digit_table(size)
    reached = []
    family = 1  # the empty set
    for m in cell_masks:
        reached.append(family)
        grown = 0
        for d in digits_of[m]:
            step, without, _ = tables[d]
            grown |= (family & without) << step
        family = grown
        if not family:
            return _NO_FIT
    good = family & fitting
    if not good:
        return _NO_FIT
    needed = -1
    while good and needed:
        low = good & -good
        needed &= low.bit_length() - 1
        good ^= low
    answer = needed & ((1 << size) - 1)
    good = family & fitting
    for i in range(k - 1, -1, -1):
        before = reached[i]
        came_from = keep = 0
        for d in digits_of[cell_masks[i]]:
            step, _, with_d = tables[d]
            hit = (good & with_d) >> step & before
            if hit:
                keep |= step
                came_from |= hit
        answer = answer << size | keep
        good = came_from
    return answer


class _CageTable(NamedTuple):
    """What :func:`prune_cages` reads of a Killer's geometry, once per geometry: the cages'
    cells, totals and cell sets, and per cell its units as a bit set (bit ``u`` for unit ``u``)."""

    cages: tuple[tuple[tuple[int, ...], int, frozenset[int]], ...]
    unit_bits: tuple[int, ...]


@lru_cache(maxsize=256)
def _cage_table(geo: Geometry) -> _CageTable:
    assert geo.variant is not None
    cages = tuple((cage.cells, cage.total, frozenset(cage.cells)) for cage in geo.variant.cages)
    unit_bits = tuple(sum(1 << u for u in set(units)) for units in geo.units_of)
    return _CageTable(cages, unit_bits)


# Innies of more cells are left out: they seldom settle what the cages did not, and their
# searches cost more than the SAT calls they save (measured over the bench's 1,000 Killers:
# at most 5 cells, 0.17 ms a Killer less; every unit's, none).
INNIE_LIMIT = 5


@lru_cache(maxsize=256)
def _innie_table(geo: Geometry) -> _CageTable:
    """:func:`_cage_table` with the rule of 45's innies as cages of their own: in each unit
    (which holds every digit once, ``size * (size + 1) / 2`` in all) the cells outside the
    cages wholly inside it hold different digits (one unit) that make the rest of the sum.
    A unit no cage lies wholly inside gives nothing new, and is left out."""
    assert geo.variant is not None
    table = _cage_table(geo)
    cage_of, cages = geo.variant.cage_of, geo.variant.cages
    whole = geo.size * (geo.size + 1) // 2
    extra = []
    for unit in geo.units:
        inside = set(unit)
        wholly = {i for i in {cage_of[c] for c in unit} if i >= 0 and all(c in inside for c in cages[i].cells)}
        if not wholly:
            continue
        innies = tuple(c for c in unit if cage_of[c] not in wholly)
        if 0 < len(innies) <= INNIE_LIMIT:
            extra.append((innies, whole - sum(cages[i].total for i in wholly), frozenset(innies)))
    return _CageTable(table.cages + tuple(extra), table.unit_bits)


def prune_cages(values: list[int], masks: list[int], geo: Geometry,
                seen: dict[int, list[int]] | None = None) -> bool | None:
    """The cage reasoning of the encoder's propagation, on ``masks`` in place: None on a
    contradiction, else whether anything changed. Per Killer cage, the combinations still open
    are those whose digits its open cells can take one each; a cell keeps only the digits some
    such assignment gives it; a digit every open combination holds ("the cage needs it") left
    in one cell of the cage is that cell's, and left in cells that share a row, column or box
    is taken out of the rest of that unit. ``seen`` (kept by the caller between passes) skips
    the cages whose cells have not changed since the last pass. Also the Killer
    grade's (:func:`.variant_generator.killer_grade`)."""
    return _prune(values, masks, geo, _cage_table(geo), seen)


def _prune(values: list[int], masks: list[int], geo: Geometry, table: _CageTable,
           seen: dict[int, list[int]] | None) -> bool | None:
    """:func:`prune_cages` over the cages of ``table``."""
    unit_bits = table.unit_bits
    changed = False
    size, full = geo.size, geo.full
    units = geo.units
    for index, (cage_cells, total, inside) in enumerate(table.cages):
        # A cell's mask is 0 once it is filled: the masks alone say whether the cage changed.
        if seen is not None and seen.get(index) == [masks[c] for c in cage_cells]:
            continue
        placed = 0
        cells = []
        for c in cage_cells:
            v = values[c]
            if v:
                placed |= 1 << (v - 1)
                total -= v
            else:
                cells.append(c)
        if not cells:
            if total:
                return None  # a full cage of the wrong sum
            continue
        cell_masks = [masks[c] & ~placed for c in cells]
        options = _cage_options(cell_masks, total, size) if total > 0 else _NO_FIT
        if options == _NO_FIT:
            return None
        for c in cells:
            keep = options & full
            options >>= size
            if masks[c] & ~keep:
                masks[c] &= keep
                changed = True
        needed = options
        while needed:
            bit = needed & -needed
            needed ^= bit
            where = [c for c in cells if masks[c] & bit]
            if len(where) == 1 and masks[where[0]] != bit:
                masks[where[0]] = bit
                changed = True
            shared = unit_bits[where[0]]
            for c in where[1:]:
                shared &= unit_bits[c]
            while shared:
                low = shared & -shared
                shared ^= low
                for c in units[low.bit_length() - 1]:
                    if masks[c] & bit and c not in inside:
                        masks[c] &= ~bit
                        if not masks[c] and not values[c]:
                            return None
                        changed = True
        if seen is not None:
            seen[index] = [masks[c] for c in cage_cells]
    return changed


def _propagate_variant(values: list[int], masks: list[int], geo: Geometry, table: _CageTable | None = None,
                       seen: dict[int, list[int]] | None = None) -> bool:
    """:func:`propagate`, and for a Killer the cage pruning (over the cages of ``table``, by
    default the Killer's own), until neither changes anything. ``seen``: the cages' masks
    when last pruned (see :func:`prune_cages`), kept for a later call."""
    if not propagate(values, masks, geo):
        return False
    if geo.variant is None or not geo.variant.cages:
        return True
    if table is None:
        table = _cage_table(geo)
    if seen is None:
        seen = {}
    while True:
        changed = _prune(values, masks, geo, table, seen)
        if changed is None:
            return False
        if not changed:
            return True
        if not propagate(values, masks, geo):
            return False


def encode(grid: Grid, cage_encoding: str = COMBINATIONS) -> Encoding:
    """The CNF of ``grid`` after propagation (see the module docstring); ``cage_encoding``
    is how a Killer's sums are stated (:data:`CAGE_ENCODINGS`)."""
    values, masks, empty_before = _propagated(grid)
    return _encoding(grid.geometry, values, masks, empty_before, cage_encoding)


def _propagated(grid: Grid, seen: dict[int, list[int]] | None = None) -> tuple[list[int], list[int] | None, int]:
    """Step 1 of the encoding: (the values, the candidate masks or None on a contradiction,
    how many cells were empty before); ``seen`` as for :func:`_propagate_variant`."""
    geo = grid.geometry
    start = _candidates(grid)
    if start is None:
        return list(grid.values), None, grid.values.count(0)
    values, masks = start
    empty_before = values.count(0)
    if not (propagate(values, masks, geo) if geo.variant is None else _propagate_variant(values, masks, geo,
                                                                                         seen=seen)):
        return values, None, empty_before
    return values, masks, empty_before


def _encoding(geo: Geometry, values: list[int], masks: list[int] | None, empty_before: int,
              cage_encoding: str) -> Encoding:
    """Steps 2-4 of the encoding, from :func:`_propagated`'s answer."""
    if masks is None:
        return Encoding(geo, values, [], [0], [0], contradiction=True,
                        stats=EncodingStats(propagated=empty_before - values.count(0)))
    n = geo.size
    digits_of = _digit_table(n)
    # var_of[cell * n + digit - 1]; index 0 of var_cell/var_digit is unused (variables start at 1).
    var_of = [0] * (len(values) * n)
    var_cell = [0]
    var_digit = [0]
    clauses: list[list[int]] = []
    add = clauses.append
    literals = 0
    open_cells = []
    v = 1
    for cell, mask in enumerate(masks):
        if not mask:
            continue
        open_cells.append(cell)
        base = cell * n
        digits = digits_of[mask]
        k = len(digits)
        cell_vars = list(range(v, v + k))
        for i, d in enumerate(digits):
            var_of[base + d] = v + i
        var_cell.extend([cell] * k)
        var_digit.extend([d + 1 for d in digits])
        v += k
        add(cell_vars)
        literals += k * k
        for i in range(k - 1):
            a = -cell_vars[i]
            for j in range(i + 1, k):
                add([a, -cell_vars[j]])
    for unit in geo.units:
        cells = [c for c in unit if masks[c]]
        if not cells:
            continue
        need = 0
        for c in cells:
            need |= masks[c]
        for d in digits_of[need]:
            bit = 1 << d
            clause = [var_of[c * n + d] for c in cells if masks[c] & bit]
            add(clause)
            literals += len(clause)
    later = geo.later_peers
    for a in open_cells:
        mask_a = masks[a]
        base_a = a * n
        for b in later[a]:
            common = mask_a & masks[b]
            if common:
                base_b = b * n
                for d in digits_of[common]:
                    add([-var_of[base_a + d], -var_of[base_b + d]])
                    literals += 2
    aux: list[tuple[int, ...]] = []
    determined = True
    if geo.variant is not None and geo.variant.cages:
        if cage_encoding == SUMS:
            determined = False
            literals += _sum_clauses(geo, values, masks, var_of, clauses, aux, v)
        elif cage_encoding == COMBINATIONS:
            literals += _combination_clauses(geo, values, masks, var_of, clauses, aux, v)
        else:
            raise ValueError(f"unknown cage encoding {cage_encoding!r}; choose {' or '.join(CAGE_ENCODINGS)}")
    stats = EncodingStats(v - 1 + len(aux), len(clauses), literals, empty_before - values.count(0))
    return Encoding(geo, values, clauses, var_cell, var_digit, stats=stats, aux=aux, determined=determined)


def _combination_clauses(geo: Geometry, values: list[int], masks: list[int], var_of: list[int],
                         clauses: list[list[int]], aux: list[tuple[int, ...]], first: int) -> int:
    """Each cage's open combinations as clauses (see the module docstring); the literals added."""
    assert geo.variant is not None
    n = geo.size
    digits_of = _digit_table(n)
    literals = 0
    for index, cage in enumerate(geo.variant.cages):
        cells, combos, _ = _viable(cage, values, masks, n)
        if not cells:
            continue
        if len(combos) == 1:
            # The candidates are inside the one combination already: each of its digits is in
            # some cell (what the cells' own clauses cannot say: a cage is no unit).
            for d in mask_digits(combos[0]):
                clause = [var_of[c * n + d - 1] for c in cells if masks[c] >> (d - 1) & 1]
                clauses.append(clause)
                literals += len(clause)
            continue
        ys = []
        for combo in combos:
            y = first + len(aux)
            aux.append((index, combo))
            ys.append(y)
            for c in cells:
                base = c * n
                for d in digits_of[masks[c] & ~combo]:
                    clauses.append([-y, -var_of[base + d]])
                    literals += 2
            for d in digits_of[combo]:
                bit = 1 << d
                clause = [-y] + [var_of[c * n + d] for c in cells if masks[c] & bit]
                clauses.append(clause)
                literals += len(clause)
        clauses.append(ys)
        literals += len(ys)
    return literals


def _sum_clauses(geo: Geometry, values: list[int], masks: list[int], var_of: list[int],
                 clauses: list[list[int]], aux: list[tuple[int, ...]], first: int) -> int:
    """Each cage's sum as a sequential counter: one variable per (cell i, partial sum s of
    the cage's first i open cells) that some digits reach, forward implications, and the
    last cell allowed only the digits that complete the sum. The literals added."""
    assert geo.variant is not None
    n = geo.size
    literals = 0
    for index, cage in enumerate(geo.variant.cages):
        cells = [c for c in cage.cells if not values[c]]
        if not cells:
            continue
        rest = cage.total - sum(values[c] for c in cage.cells)
        m = len(cells)
        # reach[s]: the variable for "the cells so far sum to s" (0: true, no variable).
        reach: dict[int, int] = {0: 0}
        for i, c in enumerate(cells):
            left = m - i - 1
            low, high = left, left * n  # what the cells after this one can still add
            nxt: dict[int, int] = {}
            for s, p in reach.items():
                for d in mask_digits(masks[c]):
                    x = var_of[c * n + d - 1]
                    t = s + d
                    ok = rest - high <= t <= rest - low
                    if ok and left:
                        if t not in nxt:
                            nxt[t] = first + len(aux)
                            aux.append((index, -(i + 1), t))
                        clause = [-x, nxt[t]] if not p else [-p, -x, nxt[t]]
                    elif ok:
                        continue  # the last cell completes the sum
                    else:
                        clause = [-x] if not p else [-p, -x]
                    clauses.append(clause)
                    literals += len(clause)
            reach = nxt
    return literals


def _run(grid: Grid, limit: int, cage_encoding: str = COMBINATIONS) -> tuple[list[list[int]], EncodingStats]:
    geo = grid.geometry
    seen: dict[int, list[int]] = {}
    values, masks, empty_before = _propagated(grid, seen)
    if masks is not None and geo.variant is not None and geo.variant.cages and 0 in values:
        # A Killer propagation left open: the innies first (step 5 of the module docstring).
        more_values, more_masks = list(values), list(masks)
        if not _propagate_variant(more_values, more_masks, geo, _innie_table(geo), seen):
            return [], EncodingStats(propagated=empty_before - values.count(0))
        if 0 not in more_values:
            return [more_values], EncodingStats(propagated=empty_before)
    encoding = _encoding(geo, values, masks, empty_before, cage_encoding)
    if encoding.contradiction:
        return [], encoding.stats
    if not encoding.clauses:
        return [encoding.values], encoding.stats  # propagation filled the grid
    if limit == 1:
        model = pycosat.solve(encoding.clauses)
        return ([] if model == "UNSAT" else [encoding.decode(model)]), encoding.stats
    found = []
    if encoding.determined:
        for model in pycosat.itersolve(encoding.clauses):
            found.append(encoding.decode(model))
            if len(found) >= limit:
                break
        return found, encoding.stats
    # Free auxiliary variables: block each solution on the cell variables only, or one grid
    # would be found again with other values of them.
    clauses = list(encoding.clauses)
    while len(found) < limit:
        model = pycosat.solve(clauses)
        if model == "UNSAT":
            break
        found.append(encoding.decode(model))
        clauses.append([-lit for lit in model[:encoding.cell_vars]])
    return found, encoding.stats


def solutions(grid: Grid, limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` different solutions (lists of digits), in the solver's order."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return _run(grid, limit)[0]


def count_solutions(grid: Grid, limit: int = 2) -> int:
    """How many solutions, counting no further than ``limit`` (2 answers "is it unique?")."""
    return len(solutions(grid, limit))


def solve(grid: Grid, *, unique: bool = True, cage_encoding: str = COMBINATIONS) -> SolveResult:
    """Solve ``grid``. With ``unique`` (the default) look for a second solution too, so the
    status is UNIQUE, SEVERAL or NONE; without, stop at the first (SOLVED or NONE)."""
    start = time.perf_counter()
    found, stats = _run(grid, 2 if unique else 1, cage_encoding)
    seconds = time.perf_counter() - start
    if not found:
        status = Status.NONE
    elif not unique:
        status = Status.SOLVED
    else:
        status = Status.UNIQUE if len(found) == 1 else Status.SEVERAL
    return SolveResult(status, found[0] if found else None, len(found), stats, seconds)


def to_dimacs(grid: Grid, cage_encoding: str = COMBINATIONS) -> str:
    """The CNF of ``grid`` in DIMACS, for reading or for another solver: ``c`` comment lines
    first -- the puzzle, every cell the variables do not cover with its digit (``c fixed
    r1c1 5``: a given, or filled by propagation), what each variable means (``c var 12
    r1c3 4``: r1c3 holds 4; ``c aux 300 ...`` for a cage's) -- then ``p cnf V C`` and the
    clauses. A solver's model read through the ``var`` lines and the ``fixed`` cells is the
    solution. A puzzle propagation refutes is the one empty clause."""
    encoding = encode(grid, cage_encoding)
    n = grid.size
    lines = [f"c tui-games sudoku {grid.kind} puzzle, CNF after propagation "
             f"({'cage ' + cage_encoding + ' encoding' if grid.variant is not None and grid.variant.cages else 'no cages'})",
             f"c puzzle {format_variant_line(grid)}"]
    if encoding.contradiction:
        lines.append("c propagation found a contradiction: no solution")
        lines += ["p cnf 0 1", "0"]
        return "\n".join(lines) + "\n"
    lines += [f"c fixed {cell_name(c, n)} {v}" for c, v in enumerate(encoding.values) if v]
    lines += [f"c var {v} {cell_name(encoding.var_cell[v], n)} {encoding.var_digit[v]}"
              for v in range(1, encoding.cell_vars + 1)]
    lines += [f"c aux {v} {encoding.describe(v)}"
              for v in range(encoding.cell_vars + 1, encoding.cell_vars + len(encoding.aux) + 1)]
    lines.append(f"p cnf {encoding.cell_vars + len(encoding.aux)} {len(encoding.clauses)}")
    lines += [" ".join(map(str, clause)) + " 0" for clause in encoding.clauses]
    return "\n".join(lines) + "\n"
