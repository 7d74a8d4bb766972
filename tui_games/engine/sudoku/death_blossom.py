"""Death blossom: a stem cell and one almost locked set (a *petal*) per candidate of the stem.

The stem holds one of its candidates ``d1 .. dk``. For each ``di`` a petal: an almost locked set
(:mod:`.als`) holding ``di``, every ``di`` cell of which sees the stem, the petals sharing no
cell with each other or the stem. Whichever digit the stem holds, its petal loses that digit
and is locked on the others. So if every petal holds a digit ``z`` (not a stem candidate), one
of the petals holds ``z`` for sure: ``z`` goes from every cell that sees all the ``z`` cells of
all the petals.

Two petals on a bivalue stem make an ALS-XY-wing whose pivot is one cell (:mod:`.als`, found
first); the blossoms here have stems of three candidates or more (HoDoKu allows any).

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
    alses, _, targets = _position(state)
    found: list[tuple[int, tuple[tuple[int, int], ...], int, list[tuple[int, int]]]] = []
    reported: set[tuple[tuple[int, int], ...]] = set()
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
            for chosen, hits in _bouquets(alses, targets, z, [(digits[k], options[k]) for k in order], stem_bit):
                elims = tuple((c, z) for c in bit_indexes(hits & ~stem_bit))
                if elims and elims not in reported:
                    reported.add(elims)
                    found.append((len(chosen), elims, stem, sorted(chosen)))
    found.sort(key=lambda item: (item[0], -len(item[1])))
    for _, elims, stem, chosen in found:
        yield _step(state, stem, [(d, alses[i]) for d, i in chosen], elims)


def _bouquets(alses: list[Als], targets: list[dict[int, int]], z: int, slots: list[tuple[int, list[int]]],
              used: int) -> Iterator[tuple[list[tuple[int, int]], int]]:
    """One petal per slot (stem digit, its petals), disjoint, whose ``z`` cells some cell sees
    all of: ``([(digit, set)], those cells)``."""
    def grow(k: int, used: int, hits: int, chosen: list[tuple[int, int]]) -> Iterator[tuple[list[tuple[int, int]], int]]:
        if k == len(slots):
            yield chosen, hits
            return
        digit, options = slots[k]
        for i in options:
            a = alses[i]
            if a.bits & used:
                continue
            h = hits & targets[i][z] & ~a.bits
            if h:
                yield from grow(k + 1, used | a.bits, h, [*chosen, (digit, i)])
    return grow(0, used, -1, [])


def _step(state: State, stem: int, petals: list[tuple[int, Als]], elims: tuple[tuple[int, int], ...]) -> Step:
    n = state.geo.size
    z = elims[0][1]
    zc = digit_char(z)
    name = cell_name(stem, n)
    parts = [f"{digit_char(d)}: {_als_text(a, n)}" for d, a in petals]
    links: list[Link] = []
    chains = []
    for d, a in petals:
        links.append(Link((stem,), d, _node(a, d), d, False))
        links.append(Link(_node(a, d), d, _node(a, z), z, True))
        chains.append(f"({digit_char(d)}){name}-({digit_char(d)}={zc}){_cells_text(a.cells, n)}")
    text = (f"The stem {name} holds {_join([digit_char(d) for d, _ in petals], 'or')}; each of those digits has a "
            f"petal, an almost locked set whose cells holding it all see the stem ({'; '.join(parts)}). Whatever "
            f"the stem holds, that petal loses it and is locked on its other digits, so some petal holds {zc}: "
            f"{_removal_by_digit(elims, n)}, which see every {zc} of the petals.")
    cells = tuple(sorted({stem, *(c for _, a in petals for c in a.cells)}))
    digits = tuple(sorted({z, *(d for d, _ in petals)}))
    return Step("death blossom", FIENDISH, cells, digits, text, eliminations=elims,
                units=tuple(sorted({a.unit for _, a in petals})), rating=blossom_rating(len(petals)),
                links=tuple(links), chain=tuple(chains))
