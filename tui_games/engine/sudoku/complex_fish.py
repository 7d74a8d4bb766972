"""Franken and mutant fish, finned or not: fish whose base and cover sets may be boxes too.

A fish of size ``n`` on a digit is ``n`` **base** units (rows, columns, boxes) that share no
candidate of the digit, and ``n`` **cover** units (none of them a base) holding every
candidate of the bases. Each base holds the digit once, in a different cell, and every one of
those cells lies in a cover, which holds the digit once at most: so each cover holds it in the
bases, and nowhere else. The digit leaves the cover cells outside the bases, and any base cell
lying in two covers (it would fill two covers with one digit: *cannibalism*).

By the units they use (HoDoKu's names; the rows-and-columns fish are :mod:`.techniques` and
:mod:`.fish`):

- **Franken**: bases among rows and boxes, covers among columns and boxes (or columns and
  boxes against rows and boxes), a box on one side at least;
- **mutant**: any other mix (a row and a column both in the bases, say).

A **finned** fish has base candidates no cover holds (*exo fins*) or candidates two bases
share (*endo fins*): either a fin holds the digit, or none does and the fish stands. Both ways
the digit leaves the cells the fish would clear that also see every fin.

The search, per digit and size: base sets by depth-first search over the units (overlaps
allowed as endo fins; a partial base set is dropped as soon as more of its cells pairwise share
no possible cover than the covers and fins left can take), then cover sets by covering the
lowest base candidate not yet covered with one of its units, or calling it a fin (a fin every
would-be elimination must see, so the fins must have a peer in common that holds the digit).
A position's fish of one size are found once and shared by the finders (one cached position,
as :mod:`.als` does); the kraken fish (:mod:`.kraken`) use the same search, the
rows-and-columns fish included, and keep the finned fish that remove nothing by themselves.

The search of one digit is compiled (``_fishcore.c``, built where a C compiler was found) with :func:`_search_digit` its pure-Python twin: the same fish in the
same order (a test holds them to it). Compiled, all the Franken and mutant fish of sizes 2-4
take about 25 ms a position of the forum's hardest puzzles (CPU); the twin about 1.1 s, which
is why the hints have them only where the compiled search is there (:func:`compiled_search`):
the Franken X-wings always.

Ratings (:mod:`.catalogue`): HoDoKu orders them finned basic < Franken < finned Franken <
mutant < finned mutant; on Sudoku Explainer's scale we keep that order within each size, a
Franken fish 0.6 above the basic fish of its size and a mutant one 1.2 above (X-wing 3.2,
swordfish 3.8, jellyfish 5.2; with fins 3.4, 4.0, 5.4).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import cache
from typing import Any, NamedTuple

from tui_games.engine.sudoku.grid import BOX, COLUMN, DIAGONAL, ROW, Geometry, bit_indexes, digit_char
from tui_games.engine.sudoku.levels import EXTREME, FIENDISH
from tui_games.engine.sudoku.techniques import FISH_NAMES, Finder, State, Step, _join, _names

try:
    from tui_games.engine.sudoku import _fishcore
except ImportError:  # built at install only where a C compiler was found (setup.py)
    _fishcore = None  # type: ignore[assignment]

__all__ = ["BASIC", "FRANKEN", "MUTANT", "Fish", "MAX_FINS", "complex_fish", "fish_of_size", "fish_rating"]

BASIC, FRANKEN, MUTANT = "basic", "Franken", "mutant"
#: The most fins (exo and endo together) and endo fins a fish may have (HoDoKu: 5 and 2).
MAX_FINS = 2
MAX_ENDO = 1

_BASE_RATING = {2: 3.2, 3: 3.8, 4: 5.2}
_KIND_EXTRA = {BASIC: 0.0, FRANKEN: 0.6, MUTANT: 1.2}


def fish_rating(kind: str, size: int, finned: bool) -> float:
    """The rating of a fish of ``kind`` and ``size``: see the module's note."""
    return round(_BASE_RATING[size] + _KIND_EXTRA[kind] + (0.2 if finned else 0.0), 1)


class Fish(NamedTuple):
    """One fish: digit, base and cover units, fins (cells, exo and endo), the base candidates
    (cells), and what it removes: ``targets`` (cells of the digit in the covers, outside the
    bases or in two covers) before and ``eliminations`` after keeping those seeing every fin."""

    digit: int
    kind: str
    bases: tuple[int, ...]
    covers: tuple[int, ...]
    fins: int
    endo: int
    body: int
    targets: int
    eliminations: int


@cache
def _tables(geo: Geometry) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per unit its cells as a bit set; per cell its peers as a bit set."""
    unit_bits = tuple(sum(1 << c for c in unit) for unit in geo.units)
    peer_bits = tuple(sum(1 << p for p in peers) for peers in geo.peers)
    return unit_bits, peer_bits


def _kind(geo: Geometry, bases: tuple[int, ...], covers: tuple[int, ...]) -> str:
    kinds = geo.unit_kinds
    b = {kinds[u] for u in bases}
    c = {kinds[u] for u in covers}
    if (b == {ROW} and c == {COLUMN}) or (b == {COLUMN} and c == {ROW}):
        return BASIC
    if (b <= {ROW, BOX} and c <= {COLUMN, BOX}) or (b <= {COLUMN, BOX} and c <= {ROW, BOX}):
        return FRANKEN
    return MUTANT


_KINDS = (BASIC, FRANKEN, MUTANT)
_KIND_CODES = {ROW: 0, COLUMN: 1, BOX: 2, DIAGONAL: 3}

_cache_lock = threading.Lock()
# (size, family, every_finned) -> (position key, its fish)
_cached: dict[tuple[int, str, bool], tuple[Any, list[Fish]]] = {}

# One fish as a search gives it: bases, covers, fins, endo fins, body, targets, eliminations, kind
_Raw = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int, int, int]


def fish_of_size(state: State, size: int, family: str, every_finned: bool = False) -> list[Fish]:
    """Every fish of ``size`` in the position that removes something, fewest fins first;
    ``every_finned``: with the finned ones that remove nothing but have cells to clear (what
    the kraken fish follow). ``family`` :data:`FRANKEN`: the rows-and-columns and Franken fish,
    :data:`MUTANT`: the mutant ones. Computed once per position, size and family."""
    key = (state.geo, tuple(state.masks))
    with _cache_lock:
        hit = _cached.get((size, family, every_finned))
        if hit is not None and hit[0] == key:
            return hit[1]
    found = _search(state, size, family, every_finned)
    with _cache_lock:
        _cached[size, family, every_finned] = (key, found)
    return found


def compiled_search() -> bool:
    """Whether the compiled search is there (built where a C compiler was found)."""
    return _fishcore is not None


def _search(state: State, size: int, family: str, every_finned: bool, compiled: bool | None = None) -> list[Fish]:
    geo, masks = state.geo, state.masks
    unit_bits, peer_bits = _tables(geo)
    units_of = geo.units_of
    kinds = geo.unit_kinds
    n_units = len(geo.units)
    if compiled is None:
        compiled = _fishcore is not None
    use_c = compiled and geo.cells <= 256 and n_units <= 64
    if use_c:
        kind_codes = [_KIND_CODES[k] for k in kinds]
        units_list = list(units_of)
        peers_list = list(peer_bits)
    if family == FRANKEN:
        # bases among rows and boxes, covers among columns and boxes; then the other way round
        sides = [({ROW, BOX}, {COLUMN, BOX}), ({COLUMN, BOX}, {ROW, BOX})]
    else:
        everything = set(kinds)
        sides = [(everything, everything)]
    out: list[Fish] = []
    seen: set[tuple[int, frozenset[int], frozenset[int]]] = set()
    for digit in range(1, geo.size + 1):
        state.check_stop()
        bit = 1 << (digit - 1)
        where = 0
        for c, m in enumerate(masks):
            if m & bit:
                where |= 1 << c
        if not where:
            continue
        places = [unit_bits[u] & where for u in range(n_units)]
        for base_kinds, cover_kinds in sides:
            usable = [u for u in range(n_units) if kinds[u] in base_kinds and places[u].bit_count() >= 2]
            if len(usable) < size:
                continue
            cover_ok = [kinds[u] in cover_kinds for u in range(n_units)]
            if use_c:
                assert _fishcore is not None
                raw: list[_Raw] = _fishcore.search(size, MAX_FINS, MAX_ENDO, family == MUTANT, every_finned, where,
                                                   places, usable, cover_ok, units_list, peers_list, kind_codes)
            else:
                raw = _search_digit(state, geo, size, family, every_finned, where, places, usable, cover_ok,
                                    units_of, peer_bits)
            for bases, covers, fins, endo, body, targets, elims, kind in raw:
                k = (digit, frozenset(bases), frozenset(covers))
                if k not in seen:
                    seen.add(k)
                    out.append(Fish(digit, _KINDS[kind], bases, tuple(sorted(covers)), fins, endo, body, targets,
                                    elims))
    out.sort(key=lambda f: ((f.fins | f.endo).bit_count(), f.digit, f.bases))
    return out


def _search_digit(state: State, geo: Geometry, size: int, family: str, every_finned: bool, where: int,
                  places: list[int], usable: list[int], cover_ok: list[bool], units_of: tuple[tuple[int, ...], ...],
                  peer_bits: tuple[int, ...]) -> list[_Raw]:
    """The fish of one digit with bases from ``usable`` and covers where ``cover_ok``: the
    pure-Python twin of the compiled ``_fishcore.search`` (the same fish in the same order)."""
    out: list[_Raw] = []

    def leaf(bases: tuple[int, ...], covers: tuple[int, ...], body: int, endo: int, fins: int, common: int) -> None:
        cover_cells = twice = 0
        for u in covers:
            p = places[u]
            twice |= cover_cells & p
            cover_cells |= p
        targets = (cover_cells & ~body) | (twice & body & ~fins)
        if not targets:
            return
        elims = targets & common
        if not elims and not (fins and every_finned):
            return
        kind = _kind(geo, bases, covers)
        if (kind == MUTANT) != (family == MUTANT):
            return  # found by the other family's search
        out.append((bases, covers, fins, endo, body, targets, elims, _KINDS.index(kind)))

    def peers_of(cells: int, common: int) -> int:
        for c in bit_indexes(cells):
            common &= peer_bits[c]
        return common

    def cover(bases: tuple[int, ...], covers: tuple[int, ...], covered: int, body: int, endo: int,
              fins: int, common: int) -> None:
        rest = body & ~covered & ~fins
        if len(covers) == size:
            if (fins | rest).bit_count() <= MAX_FINS:
                common = peers_of(rest, common)
                if not (fins | rest) or common & where:
                    leaf(bases, covers, body, endo, fins | rest, common)
            return
        if not rest:
            return  # fewer covers than bases: not a fish (the position would have no solution)
        low = rest & -rest
        cell = low.bit_length() - 1
        for u in units_of[cell]:
            if cover_ok[u] and u not in bases and u not in covers:
                cover(bases, (*covers, u), covered | places[u], body, endo, fins, common)
        if (fins | low).bit_count() <= MAX_FINS:
            common = common & peer_bits[cell]
            if common & where & ~body:
                cover(bases, covers, covered, body, endo, fins | low, common)

    # per cell, the units that may cover it, as a bit set over units
    cover_units = [0] * len(units_of)
    for c in bit_indexes(where):
        for u in units_of[c]:
            if cover_ok[u]:
                cover_units[c] |= 1 << u

    def too_wide(bases_bits: int, body: int, endo: int) -> bool:
        """Whether more body cells share no possible cover pairwise than the covers and the fins
        left can take: each needs a cover of its own or is a fin. Adding bases only adds such
        cells, so this prunes a partial base set and all it grows into. (Greedy, the cells with
        fewest possible covers first.)"""
        room = size + MAX_FINS - endo.bit_count()
        used = count = 0
        later = []
        for c in bit_indexes(body & ~endo):
            units = cover_units[c] & ~bases_bits
            if units & (units - 1):
                later.append(units)
            elif not units & used:
                used |= units
                count += 1
        if count > room:
            return True
        for units in later:
            if not units & used:
                used |= units
                count += 1
                if count > room:
                    return True
        return False

    def base(start: int, bases: tuple[int, ...], bases_bits: int, body: int, endo: int) -> None:
        if len(bases) == size:
            state.check_stop()
            cover(bases, (), 0, body, endo, endo, peers_of(endo, -1))
            return
        for i in range(start, len(usable) - (size - len(bases)) + 1):
            u = usable[i]
            p = places[u]
            e = endo | (body & p)
            if e.bit_count() > MAX_ENDO:
                continue
            if too_wide(bases_bits | 1 << u, body | p, e):
                continue
            base(i + 1, (*bases, u), bases_bits | 1 << u, body | p, e)

    base(0, (), 0, 0, 0)
    return out


def complex_fish(kind: str, size: int, finned: bool) -> Finder:
    """The Franken (``kind=FRANKEN``) or mutant fish of ``size``, with fins or without."""
    name = f"{'finned ' if finned else ''}{kind} {FISH_NAMES[size]}"
    level = EXTREME if size < 4 and kind == FRANKEN else FIENDISH

    def find(state: State) -> Iterator[Step]:
        for f in fish_of_size(state, size, FRANKEN if kind == FRANKEN else MUTANT):
            if f.kind != kind or bool(f.fins) != finned or not f.eliminations:
                continue
            yield _step(state, name, level, f)
    find.__name__ = name.replace(" ", "_").replace("-", "_").lower()
    return find


def _step(state: State, name: str, level: str, f: Fish) -> Step:
    geo = state.geo
    n = geo.size
    d = digit_char(f.digit)
    names = geo.unit_names
    bases = _join([names[u] for u in f.bases])
    covers = _join([names[u] for u in f.covers])
    elims = tuple((c, f.digit) for c in bit_indexes(f.eliminations))
    body = bit_indexes(f.body)
    text = f"In {bases} (no {d} shared), {d} fits only in {covers}"
    if f.fins:
        fin_cells = bit_indexes(f.fins)
        word = "the fin" if len(fin_cells) == 1 else "the fins"
        text += (f" but for {word} {_names(fin_cells, n)}. Either a fin is {d}, or each of {covers} holds its {d} "
                 f"inside {bases}: both ways {d} goes from the cells of the covers outside the fish that see "
                 f"every fin")
    else:
        text += f": each of them holds its {d} inside {bases}, so {d} goes from the rest of them"
    text += f": {_names([c for c, _ in elims], n)}."
    return Step(name, level, tuple(body), (f.digit,), text, eliminations=elims,
                units=tuple(sorted(f.bases + f.covers)), rating=fish_rating(f.kind, len(f.bases), bool(f.fins)))

