"""Death blossom: a stem cell and one almost locked set (a *petal*) per candidate of the stem.

The stem holds one of its candidates ``d1 .. dk``. For each ``di`` a petal: an almost locked set
(:mod:`.als`) holding ``di``, every ``di`` cell of which sees the stem. Whichever digit the stem
holds, its petal loses that digit and is locked on the others. So if every petal holds a digit
``z`` (not a stem candidate), one of the petals holds ``z`` for sure: ``z`` goes from every
cell outside the petals that sees all the ``z`` cells of all the petals.

Petals may share cells (HoDoKu's "allow ALS overlap"): the argument uses one petal at a time,
the one of the digit the stem holds, so what the others hold does not matter; a cell inside a
petal is never cleared (HoDoKu's rule too). Two petals on a bivalue stem make an ALS-XY-wing
whose pivot is one cell (:mod:`.als`, found first); the blossoms here have stems of three
candidates or more, up to :data:`MAX_STEM`. Among blossoms with the same eliminations, the
first kept is one with disjoint petals where there is one (HoDoKu's default finds only those).

Rating: HoDoKu puts the death blossom just above the ALS chain (360 against 340); on Sudoku
Explainer's scale we rate it as the ALS chain of as many sets, the stem one of them: 7.0 +
0.2 per set past two (a stem of 3 and its petals: 7.4; of 4: 7.6).
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.sudoku.als import Als, _als_text, _cells_text, _node, _peer_bits, _position, _removal_by_digit
from tui_games.engine.sudoku.grid import bit_indexes, cell_name, digit_char, mask_digits
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.techniques import Link, State, Step, _join

__all__ = ["MAX_STEM", "death_blossoms", "blossom_rating"]

#: The most candidates a stem may have.
MAX_STEM = 4


def blossom_rating(stem_candidates: int) -> float:
    return round(7.0 + 0.2 * (stem_candidates + 1 - 2), 1)


def death_blossoms(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    peer_bits = _peer_bits(geo)
    alses, _, targets, _ = _position(state)
    # per (stem, petals): (fewest petals, disjoint ones first), the eliminations of every z
    blossoms: dict[tuple[int, tuple[tuple[int, int], ...]], tuple[tuple[int, bool], list[tuple[int, int]]]] = {}
    # per digit, the sets holding it grouped by where they hold it (many sets share those cells)
    by_where: list[dict[int, list[int]]] = [{} for _ in range(geo.size + 1)]
    for i, a in enumerate(alses):
        for d in mask_digits(a.digits):
            by_where[d].setdefault(a.where[d], []).append(i)
    for stem in range(geo.cells):
        m = masks[stem]
        if not 3 <= m.bit_count() <= MAX_STEM:
            continue
        state.check_stop()
        stem_bit = 1 << stem
        sees = peer_bits[stem]
        # per stem digit, the petals: sets holding it, its cells all seeing the stem
        petals: list[list[int]] = []
        for d in mask_digits(m):
            petals.append([i for w, group in by_where[d].items() if w & ~sees == 0
                           for i in group if not alses[i].bits & stem_bit])
        if any(not p for p in petals):
            continue
        digits = mask_digits(m)
        for z in mask_digits(geo.full & ~m):
            zbit = 1 << (z - 1)
            options = [[i for i in p if alses[i].digits & zbit and z in targets[i]] for p in petals]
            if any(not o for o in options):
                continue
            order = sorted(range(len(digits)), key=lambda k: len(options[k]))
            slots = [(digits[k], options[k]) for k in order]
            for chosen, hits, shared in _bouquets(alses, targets, z, slots, stem_bit):
                hits &= ~stem_bit
                if hits:
                    key = (stem, tuple(sorted(chosen)))
                    blossoms.setdefault(key, ((len(chosen), shared), []))[1].extend((c, z) for c in bit_indexes(hits))
    # one step a blossom, every digit it removes (as HoDoKu); per elimination set, one blossom:
    # fewest petals, disjoint ones first
    best: dict[tuple[tuple[int, int], ...], tuple[tuple[int, bool], int, tuple[tuple[int, int], ...]]] = {}
    for (stem, petal_sets), (rank, removed) in blossoms.items():
        removes = tuple(sorted(removed))
        if removes not in best or rank < best[removes][0]:
            best[removes] = (rank, stem, petal_sets)
    found = sorted(best.items(), key=lambda item: (item[1][0], -len(item[0])))
    for removes, (_, stem, petal_sets) in found:
        yield _step(state, stem, [(d, alses[i]) for d, i in petal_sets], removes)


def _bouquets(alses: list[Als], targets: list[dict[int, int]], z: int, slots: list[tuple[int, list[int]]],
              used: int) -> Iterator[tuple[list[tuple[int, int]], int, bool]]:
    """One petal per slot (stem digit, its petals) whose ``z`` cells some cell outside them
    sees all of: ``([(digit, set)], those cells, whether two petals share a cell)``."""
    def grow(k: int, used: int, hits: int, chosen: list[tuple[int, int]],
             shared: bool) -> Iterator[tuple[list[tuple[int, int]], int, bool]]:
        if k == len(slots):
            yield chosen, hits, shared
            return
        digit, options = slots[k]
        for i in options:
            a = alses[i]
            meets = bool(a.bits & used)
            h = hits & targets[i][z] & ~a.bits
            if h:
                yield from grow(k + 1, used | a.bits, h, [*chosen, (digit, i)], shared or meets)
    return grow(0, used, -1, [], False)


def _step(state: State, stem: int, petals: list[tuple[int, Als]], elims: tuple[tuple[int, int], ...]) -> Step:
    n = state.geo.size
    zs = sorted({z for _, z in elims})
    zc = _join([digit_char(z) for z in zs])
    name = cell_name(stem, n)
    parts = [f"{digit_char(d)}: {_als_text(a, n)}" for d, a in petals]
    links: list[Link] = []
    chains = []
    for d, a in petals:
        links.append(Link((stem,), d, _node(a, d), d, False))
        for z in zs:
            links.append(Link(_node(a, d), d, _node(a, z), z, True))
            chains.append(f"({digit_char(d)}){name}-({digit_char(d)}={digit_char(z)}){_cells_text(a.cells, n)}")
    overlap = any(a.bits & b.bits for k, (_, a) in enumerate(petals) for _, b in petals[k + 1:])
    holds = f"holds {zc}" if len(zs) == 1 else f"holds each of {zc}"
    text = (f"The stem {name} holds {_join([digit_char(d) for d, _ in petals], 'or')}; each of those digits has a "
            f"petal, an almost locked set whose cells holding it all see the stem ({'; '.join(parts)}). Whatever "
            f"the stem holds, that petal loses it and is locked on its other digits, so some petal {holds}"
            f"{' (the petals may share cells: only one petal is used at a time)' if overlap else ''}: "
            f"{_removal_by_digit(elims, n)}, which see every {digit_char(zs[0]) if len(zs) == 1 else 'such digit'} "
            f"of the petals.")
    cells = tuple(sorted({stem, *(c for _, a in petals for c in a.cells)}))
    digits = tuple(sorted({*zs, *(d for d, _ in petals)}))
    return Step("death blossom", FIENDISH, cells, digits, text, eliminations=elims,
                units=tuple(sorted({a.unit for _, a in petals})), rating=blossom_rating(len(petals)),
                links=tuple(links), chain=tuple(chains))
