"""The Killer solver's fast paths give the answers the plain ones gave: the cage search
(families of digit sets in big ints, cached in ints) against a brute force over every
assignment; the whole propagation against the first version's, kept here as the reference
(each combination matched to the cells digit by digit, no cache), down to the same CNF;
the innies tried before the SAT call against pycosat on the unchanged CNF; and the generator
making, from the same seed, the Killers it made before any of it."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pycosat
import pytest

from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import format_variant_line, parse_killer
from tui_games.engine.sudoku.grid import Geometry, Grid, mask_digits
from tui_games.engine.sudoku.variant_generator import unique_killer
from tui_games.engine.sudoku.variants import Cage, Variant, cage_combinations

REFERENCE = Path(__file__).parents[1] / "data" / "killer_reference.txt"
WIKIPEDIA = ("AABBBCDEFGGHHCCDEFGGIICJKKFLMMINJKOFLPPQNJOORSPTQNUVVRSTTQWUUXXSYZWWaaXXSYZWbbbcc "
             "3,15,22,4,16,15,25,17,9,8,20,6,14,17,17,13,20,12,27,6,20,6,10,14,8,16,15,13,17")


def held_out() -> list[Grid]:
    grids = [parse_killer(WIKIPEDIA)]
    for line in REFERENCE.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            labels, sums, _ = line.split()
            grids.append(parse_killer(f"{labels} {sums}"))
    return grids


def random_layout(seed: int, largest: int) -> tuple[Variant, list[int]]:
    """Random cages of 1 to ``largest`` cells over a shuffled solved grid: many solutions in
    general, what the generator's uniqueness loop starts from."""
    rng = random.Random(seed)
    digits = list(range(1, 10))
    rng.shuffle(digits)
    solution = [digits[(r * 3 + r // 3 + c) % 9] for r in range(9) for c in range(9)]
    free = set(range(81))
    cages = []
    while free:
        cells = [rng.choice(sorted(free))]
        free.discard(cells[0])
        size = rng.randint(1, largest)
        while len(cells) < size:
            near = sorted({x for c in cells for x in (c - 9, c + 9, c - 1 if c % 9 else -1, c + 1 if c % 9 < 8 else -1)
                           if x in free and solution[x] not in {solution[c] for c in cells}})
            if not near:
                break
            cells.append(rng.choice(near))
            free.discard(cells[-1])
        cages.append(Cage(sum(solution[c] for c in cells), tuple(sorted(cells))))
    return Variant(cages=tuple(cages)), solution


def cases() -> list[Grid]:
    """Held-out Killers, open layouts, and open layouts with a few digits of their solution given."""
    grids = held_out()
    for seed in range(12):
        variant, solution = random_layout(seed, 3 + seed % 5)
        grids.append(Grid(variant=variant))
        rng = random.Random(seed)
        values = [v if rng.random() < 0.15 else 0 for v in solution]
        grids.append(Grid(values, variant=variant))
    return grids


# -- the cage search -----------------------------------------------------------------------------


def brute_options(cell_masks: list[int], need: int, size: int = 9) -> tuple[list[int], int] | None:
    """Every assignment of different digits from the cells' candidates making ``need``."""
    allowed = [0] * len(cell_masks)
    needed, fits = -1, False
    for digits in product(*(mask_digits(m) for m in cell_masks)):
        if len(set(digits)) == len(digits) and sum(digits) == need:
            fits = True
            used = 0
            for i, d in enumerate(digits):
                allowed[i] |= 1 << (d - 1)
                used |= 1 << (d - 1)
            needed &= used
    return (allowed, needed) if fits else None


def unpacked(answer: int, count: int, size: int = 9) -> tuple[list[int], int] | None:
    if answer == sat._NO_FIT:
        return None
    full = (1 << size) - 1
    return [answer >> (i * size) & full for i in range(count)], answer >> (count * size)


def test_the_cage_search_finds_what_every_assignment_gives() -> None:
    rng = random.Random(5)
    tried = fitting = 0
    for _ in range(3000):
        count = rng.randint(1, 5)
        masks = [rng.randrange(1, 512) & rng.randrange(1, 512) or 1 for _ in range(count)]
        need = rng.randint(count * (count + 1) // 2, count * (19 - count) // 2)
        expected = brute_options(masks, need)
        assert unpacked(sat._search_options(masks, need, 9), count) == expected, (masks, need)
        assert unpacked(sat._cage_options(masks, need), count) == expected  # cached, the same
        tried += 1
        fitting += expected is not None
    assert fitting > tried // 4  # both answers were asked often


def matched_options(cell_masks: list[int], need: int, size: int) -> tuple[list[int], int] | None:
    """The first version's way, for cages too big to try every assignment: each combination
    matched to the cells, and each cell's digit with the rest matched to the others."""
    allowed = [0] * len(cell_masks)
    needed, fits = -1, False
    for combo in cage_combinations(need, len(cell_masks), size):
        if not reference_matches(tuple(cell_masks), combo):
            continue
        fits = True
        needed &= combo
        for i, m in enumerate(cell_masks):
            others = tuple(cell_masks[:i] + cell_masks[i + 1:])
            for d in mask_digits(m & combo):
                if not others or reference_matches(others, combo ^ 1 << (d - 1)):
                    allowed[i] |= 1 << (d - 1)
    return (allowed, needed) if fits else None


@pytest.mark.parametrize("size, count, need", [(4, 3, 7), (6, 4, 15), (9, 9, 45), (9, 7, 38), (16, 4, 50)])
def test_the_cage_search_on_other_grids_and_big_cages(size: int, count: int, need: int) -> None:
    rng = random.Random(size * count)
    for _ in range(20):
        masks = [rng.randrange(1, 1 << size) | rng.randrange(1, 1 << size) for _ in range(count)]
        expected = brute_options(masks, need, size) if count <= 4 else matched_options(masks, need, size)
        assert unpacked(sat._search_options(masks, need, size), count, size) == expected


def test_a_cage_of_nine_open_cells_keeps_every_digit() -> None:
    assert unpacked(sat._search_options([511] * 9, 45, 9), 9) == ([511] * 9, 511)
    assert sat._search_options([511] * 9, 44, 9) == sat._NO_FIT


# -- the whole propagation, against the first version --------------------------------------------------


def reference_matches(masks: tuple[int, ...], combo: int) -> bool:
    order = sorted((m & combo for m in masks), key=int.bit_count)

    def place(i: int, left: int) -> bool:
        if i == len(order):
            return True
        avail = order[i] & left
        while avail:
            bit = avail & -avail
            avail ^= bit
            if place(i + 1, left ^ bit):
                return True
        return False

    return place(0, combo)


def reference_prune(values: list[int], masks: list[int], geo: Geometry) -> bool | None:
    """The cage pruning as first written (engine/sudoku/sat.py before the fast search)."""
    assert geo.variant is not None
    changed = False
    for cage in geo.variant.cages:
        placed = total = union = 0
        cells = []
        for c in cage.cells:
            if values[c]:
                placed |= 1 << (values[c] - 1)
                total += values[c]
            else:
                cells.append(c)
                union |= masks[c]
        if not cells:
            if total != cage.total:
                return None
            continue
        rest = cage.total - total
        combos = [m for m in cage_combinations(rest, len(cells)) if not m & placed and not m & ~union] if rest > 0 else []
        cell_masks = tuple(masks[c] for c in cells)
        allowed = [0] * len(cells)
        needed, fits = -1, False
        for combo in combos:
            if not reference_matches(cell_masks, combo):
                continue
            fits = True
            needed &= combo
            for i, m in enumerate(cell_masks):
                others = cell_masks[:i] + cell_masks[i + 1:]
                for d in mask_digits(m & combo):
                    if not others or reference_matches(others, combo ^ 1 << (d - 1)):
                        allowed[i] |= 1 << (d - 1)
        if not fits:
            return None
        for i, c in enumerate(cells):
            if masks[c] & ~allowed[i]:
                masks[c] &= allowed[i]
                changed = True
        for d in mask_digits(needed):
            bit = 1 << (d - 1)
            where = [c for c in cells if masks[c] & bit]
            if len(where) == 1 and masks[where[0]] != bit:
                masks[where[0]] = bit
                changed = True
            for u in set(geo.units_of[where[0]]).intersection(*(geo.units_of[c] for c in where[1:])):
                for c in geo.units[u]:
                    if c not in cage.cells and masks[c] & bit:
                        masks[c] &= ~bit
                        if not masks[c] and not values[c]:
                            return None
                        changed = True
    return changed


def reference_propagation(grid: Grid) -> tuple[list[int], list[int]] | None:
    start = sat._candidates(grid)
    assert start is not None
    values, masks = start
    geo = grid.geometry
    if not sat.propagate(values, masks, geo):
        return None
    while (changed := reference_prune(values, masks, geo)):
        if not sat.propagate(values, masks, geo):
            return None
    return None if changed is None else (values, masks)


def test_the_propagation_ends_where_the_first_version_ended() -> None:
    filled = contradictions = 0
    for grid in cases():
        values, masks, _ = sat._propagated(grid)
        expected = reference_propagation(grid)
        if expected is None:
            assert masks is None
            contradictions += 1
        else:
            assert (values, masks) == expected, format_variant_line(grid)
            filled += 0 not in values
    assert filled >= 10  # the held-out Killers, mostly


def test_the_cnf_is_the_first_versions() -> None:
    # The same clauses in the same order: the SAT solver then searches as before, and the
    # generator, which follows the second solution it finds, makes the same Killers.
    for grid in cases():
        encoding = sat.encode(grid)
        expected = reference_propagation(grid)
        if expected is None:
            assert encoding.contradiction
            continue
        values, masks = expected
        again = sat._encoding(grid.geometry, values, masks, grid.values.count(0), sat.COMBINATIONS)
        assert (encoding.values, encoding.clauses, encoding.aux) == (again.values, again.clauses, again.aux)


# -- the innies before the SAT call -------------------------------------------------------------------


def cnf_answer(grid: Grid) -> list[list[int]]:
    """Up to two solutions, by pycosat on the CNF alone (no innies)."""
    encoding = sat.encode(grid)
    if encoding.contradiction:
        return []
    if not encoding.clauses:
        return [encoding.values]
    found = []
    for model in pycosat.itersolve(encoding.clauses):
        found.append(encoding.decode(model))
        if len(found) == 2:
            break
    return found


def test_the_innies_answer_as_the_sat_solver_does() -> None:
    settled = 0
    for grid in cases():
        assert sat.solutions(grid, 2) == cnf_answer(grid), format_variant_line(grid)
        result = sat.solve(grid)
        settled += result.unique and result.stats.clauses == 0 and sat.encode(grid).stats.clauses > 0
    assert settled >= 3  # some that the cages alone left to the SAT solver


def rule_of_45(variant: Variant, unit: tuple[int, ...], cells: tuple[int, ...], total: int) -> bool:
    """Whether ``cells`` are the innies of ``unit`` and make ``total``: the unit's other cells
    are the cages wholly inside it, which make the rest of its 45, and no innie's cage is."""
    inside = {variant.cage_of[c] for c in unit if c not in cells}
    return (set(cells) <= set(unit) and bool(inside)
            and all(set(variant.cages[i].cells) <= set(unit) for i in inside)
            and all(not set(variant.cages[variant.cage_of[c]].cells) <= set(unit) for c in cells)
            and total == 45 - sum(variant.cages[i].total for i in inside))


def test_each_innie_cage_is_the_rule_of_45_of_its_unit() -> None:
    for seed in range(4):
        variant, solution = random_layout(seed, 4)
        geo = Grid(variant=variant).geometry
        own = len(variant.cages)
        table = sat._innie_table(geo)
        assert len(table.cages) > own
        for cells, total, _ in table.cages[own:]:
            assert 0 < len(cells) <= sat.INNIE_LIMIT
            assert total == sum(solution[c] for c in cells)
            assert any(rule_of_45(variant, unit, cells, total) for unit in geo.units)


# -- the generator ----------------------------------------------------------------------------------


# The first Killers of the bench (``tui-games bench sudoku --variant killer``: seed 0), as the
# generator made them before the fast search and the innies.
BENCH_FIRST = [
    "ABCCDEEFGABBHDDEIJKLMMDDNNOKLMPQRRNOSSSTTRUOOVSWWWWUXXVVVYZZUaabbcccddaebbfffggee "
    "4,20,11,29,14,3,5,1,8,7,9,5,12,11,20,8,7,18,26,9,18,26,16,8,6,3,13,14,18,13,16,20,7",
    "AAABBCCDEFFAGGCCDHIIIJKCLDDIMNJKOLPDQQNRKOOPSTUVRROWSSTUVVXXWWSTUYZXabccTUYZXabdc "
    "22,8,29,21,4,7,9,9,22,3,19,12,2,12,18,15,6,15,20,21,20,20,8,22,7,12,7,17,14,4",
    "ABCCDDEEFABCCDEEGFHBBIDJJKLHMMIINJKKHHMMINOOOHPQQRRRSTPPPURRVVTPWXXYYZaabWXcYYYaa "
    "9,18,16,23,20,11,9,30,10,15,16,5,18,13,17,19,16,25,3,7,3,15,15,20,21,1,20,2,8",
]


def test_the_same_seed_makes_the_killers_it_made_before() -> None:
    rng = random.Random(0)
    assert [format_variant_line(unique_killer(rng)[0]) for _ in BENCH_FIRST] == BENCH_FIRST
