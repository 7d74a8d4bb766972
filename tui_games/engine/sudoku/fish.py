"""Finned and sashimi fish: an X-wing, swordfish or jellyfish spoiled by a few extra candidates.

A basic fish of size ``k`` (:func:`.techniques.fish`) is ``k`` base lines (rows, say) in
which a digit fits only in ``k`` cover lines (columns): the digit then takes one cell of each
cover line inside the base lines, so it leaves the rest of the cover lines. A *finned* fish
has a few more candidates in the base lines, the **fins**, all in one box. Either a fin holds
the digit -- then the digit is not elsewhere in the fin box -- or none does and the basic fish
holds. Both ways the digit leaves the cells of the cover lines that lie in the fin box (and
outside the base lines): those see every fin.

It is *sashimi* when some base line, fins taken away, keeps only one candidate: without the
fins it would not even be a fish. Sudoku Explainer rates these like HoDoKu's finned fish just
above the basic one (see :mod:`.catalogue`).

Rows serve as base and columns as cover, then the other way round; the diagonals of the X
variant take no part (a fish of rows and diagonals is a Franken fish).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from tui_games.engine.sudoku.grid import bit_indexes, digit_char
from tui_games.engine.sudoku.levels import EXTREME
from tui_games.engine.sudoku.techniques import FISH_NAMES, Finder, State, Step, _join, _names

__all__ = ["finned_fish"]


def _combos(lines: list[tuple[int, int]], k: int, limit: int) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
    """Every ``k`` lines whose positions together number more than ``k`` and at most ``limit``
    (a union only grows, so a branch stops as soon as it passes ``limit``)."""
    def walk(start: int, chosen: tuple[tuple[int, int], ...], union: int) -> Iterator[tuple[tuple[tuple[int, int], ...], int]]:
        if len(chosen) == k:
            if union.bit_count() > k:
                yield chosen, union
            return
        for i in range(start, len(lines) - (k - len(chosen)) + 1):
            u = union | lines[i][1]
            if u.bit_count() <= limit:
                yield from walk(i + 1, (*chosen, lines[i]), u)
    return walk(0, (), 0)


def finned_fish(k: int, sashimi: bool) -> Finder:
    """Finned (``sashimi=False``) or sashimi fish of ``k`` base lines (2: X-wing, 3: swordfish,
    4: jellyfish)."""
    kind = "sashimi" if sashimi else "finned"
    name = f"{kind} {FISH_NAMES[k]}"

    def find(state: State) -> Iterator[Step]:
        geo, masks = state.geo, state.masks
        n = geo.size
        seen: set[tuple[int, ...]] = set()
        # Where each digit sits along each row and column, as bit masks of positions.
        by_row = [[0] * n for _ in range(n + 1)]
        by_col = [[0] * n for _ in range(n + 1)]
        for cell, m in enumerate(masks):
            row, col = divmod(cell, n)
            while m:
                low = m & -m
                m ^= low
                d = low.bit_length()
                by_row[d][row] |= 1 << col
                by_col[d][col] |= 1 << row
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            for by_rows in (True, False):
                # Positions along a base line fall into groups of one box each (box columns
                # along a row, box rows along a column); base lines group into bands/stacks.
                pos_width, line_width = (geo.box_cols, geo.box_rows) if by_rows else (geo.box_rows, geo.box_cols)

                def at(base: int, i: int, by_rows: bool = by_rows) -> int:
                    return base * n + i if by_rows else i * n + base

                lines = [(base, where) for base, where in enumerate(by_row[digit] if by_rows else by_col[digit])
                         if 2 <= where.bit_count() <= k + pos_width]
                if len(lines) < k:
                    continue
                for combo, union in _combos(lines, k, k + pos_width):
                    for group in range(n // pos_width):
                        gmask = ((1 << pos_width) - 1) << (group * pos_width)
                        outside = union & ~gmask
                        if outside.bit_count() > k:
                            continue
                        inside = bit_indexes(union & gmask)
                        for chosen in combinations(inside, k - outside.bit_count()):
                            cover = outside
                            for i in chosen:
                                cover |= 1 << i
                            fins = union & ~cover
                            if not fins:
                                continue
                            fin_bases = [b for b, w in combo if w & fins]
                            band = fin_bases[0] // line_width
                            if any(b // line_width != band for b in fin_bases):
                                continue
                            least = min((w & cover).bit_count() for _, w in combo)
                            if least == 0 or (least == 1) != sashimi:
                                continue
                            bases = {b for b, _ in combo}
                            eliminations = tuple(sorted(
                                (at(b, i), digit) for i in bit_indexes(cover & gmask)
                                for b in range(band * line_width, (band + 1) * line_width)
                                if b not in bases and masks[at(b, i)] & bit))
                            if not eliminations:
                                continue
                            key = (digit, *(c for c, _ in eliminations))
                            if key in seen:
                                continue
                            seen.add(key)
                            fin_cells = tuple(at(b, i) for b, w in combo for i in bit_indexes(w & fins))
                            pattern = tuple(sorted(at(b, i) for b, w in combo for i in bit_indexes(w)))
                            yield _step(state, name, digit, by_rows, combo, cover, fin_cells, pattern, eliminations)
    find.__name__ = name.replace(" ", "_").replace("-", "_").lower()
    return find


def _step(state: State, name: str, digit: int, by_rows: bool, combo: tuple[tuple[int, int], ...], cover: int,
          fins: tuple[int, ...], pattern: tuple[int, ...], eliminations: tuple[tuple[int, int], ...]) -> Step:
    geo = state.geo
    n = geo.size
    base_word, cover_word = ("rows", "columns") if by_rows else ("columns", "rows")
    d = digit_char(digit)
    box = geo.unit_names[2 * n + geo.box_of(fins[0])]
    fin_word, either = ("the fin", "the fin is") if len(fins) == 1 else ("the fins", "a fin is")
    covers = _join([str(i + 1) for i in bit_indexes(cover)])
    text = (f"In {base_word} {_join([str(b + 1) for b, _ in combo])}, {d} fits only in {cover_word} {covers} "
            f"and {fin_word} {_names(fins, n)} in {box}. Either {either} {d}, or the {name.split(' ', 1)[1]} "
            f"removes {d} from the rest of those {cover_word}: both ways {d} goes from the cells of {box} in "
            f"those {cover_word}: {_names([c for c, _ in eliminations], n)}.")
    offset = 0 if by_rows else n
    units = tuple(offset + b for b, _ in combo) + tuple((n - offset) + i for i in bit_indexes(cover))
    return Step(name, EXTREME, pattern, (digit,), text, eliminations=eliminations, units=units)
