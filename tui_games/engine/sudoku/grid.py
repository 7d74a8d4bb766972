"""The Sudoku grid: its shape (size, box shape, diagonal variant) and the model the screen edits.

Cells are numbered ``0 .. size*size - 1`` row by row from the top-left; digits are
``1 .. size`` and 0 is a blank. A set of candidates is a bit mask, bit ``d - 1`` for digit
``d`` (:func:`mask_digits` turns one back into digits). Cells are named the way the field
names them, ``r1c1`` for the top-left (:func:`cell_name`).

The static structure of a shape -- its units (rows, columns, boxes, and the two diagonals of
the X variant), each cell's units and peers, the pairs of peers, the box/line intersections
-- is computed once per shape by :func:`geometry` and cached: the SAT encoder, the stepper
and the generator all read it on every call, so it must not be rebuilt per puzzle.

Sizes and boxes: 4×4 (2×2 boxes), 6×6 (boxes of 2 rows × 3 columns), 9×9 (3×3), 16×16
(4×4). Digits past 9 are written ``A`` (10) to ``G`` (16).

Killer and Jigsaw grids carry a :class:`~.variants.Variant`; their geometry comes from
:func:`variant_geometry` (cached for the last 256 variants), where Jigsaw regions take the
boxes' place and Killer cage mates join the peers (:mod:`.variants` describes the API).
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from tui_games.engine.sudoku.variants import Variant

__all__ = [
    "BOX_SHAPES", "DIGITS", "Geometry", "Grid", "GridError", "bit_indexes", "cell_name", "digit_char",
    "geometry", "mask_digits", "popcount", "variant_geometry",
]

# (box rows, box columns) per size.
BOX_SHAPES = {4: (2, 2), 6: (2, 3), 9: (3, 3), 16: (4, 4)}
DIGITS = "123456789ABCDEFG"

ROW, COLUMN, BOX, DIAGONAL = "row", "column", "box", "diagonal"


class GridError(ValueError):
    """A bad size, cell or digit, or an edit to a given."""


def popcount(mask: int) -> int:
    return mask.bit_count()


@lru_cache(maxsize=1 << 16)
def mask_digits(mask: int) -> tuple[int, ...]:
    """The digits of a candidate mask, ascending: ``0b101`` -> ``(1, 3)``."""
    out = []
    digit = 1
    while mask:
        if mask & 1:
            out.append(digit)
        mask >>= 1
        digit += 1
    return tuple(out)


def bit_indexes(bits: int) -> list[int]:
    """The indexes of the set bits, lowest first: ``0b10110`` -> ``[1, 2, 4]`` (cells of a cell
    set, nodes of a node set)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def digit_char(digit: int) -> str:
    """How a digit is written: ``1``-``9``, then ``A``-``G`` for 10-16."""
    return DIGITS[digit - 1]


def cell_name(cell: int, size: int = 9) -> str:
    """``r1c1``-style name of a cell (rows and columns count from 1)."""
    row, col = divmod(cell, size)
    return f"r{row + 1}c{col + 1}"


class _GeometryFields(NamedTuple):
    size: int
    box_rows: int
    box_cols: int
    diagonal: bool
    units: tuple[tuple[int, ...], ...]
    unit_kinds: tuple[str, ...]
    unit_names: tuple[str, ...]
    units_of: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    peer_sets: tuple[frozenset[int], ...]
    peer_pairs: tuple[tuple[int, int], ...]
    # (box, line, the cells they share, the box's other cells, the line's other cells)
    intersections: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # Each cell's box (its region, in a Jigsaw), and its peers after it (every pair once).
    box_index: tuple[int, ...]
    later_peers: tuple[tuple[int, ...], ...]
    variant: Variant | None


class Geometry(_GeometryFields):
    """The static structure of one grid shape; get it from :func:`geometry` (cached).

    Units are numbered rows first (``0..size-1``), then columns, then boxes, then the main
    diagonal and the anti-diagonal when ``diagonal`` is set. ``intersections`` lists every
    (box, line) pair sharing two or more cells, with the shared cells and the rest of each
    unit: what pointing and box-line reduction look at.

    Fields: ``size``, ``box_rows``, ``box_cols``, ``diagonal``; ``units`` (cell tuples),
    ``unit_kinds``, ``unit_names``; per cell ``units_of``, ``peers``, ``peer_sets``,
    ``box_index``, ``later_peers`` (the peers numbered above it); ``peer_pairs``;
    ``intersections`` as (box, line, shared, rest of box, rest of line); ``variant`` (None,
    or the Killer/Jigsaw :class:`~.variants.Variant`). Peers are the cells that may not hold
    the same digit: the units' cells, and in a Killer the cage mates too. In a Jigsaw the
    boxes are the regions (``box_rows`` and ``box_cols`` then describe no box: test
    ``jigsaw``).
    (A named tuple, not a dataclass: this module is on the start-up path of ``sudoku solve``,
    and ``dataclasses`` costs more to import than the rest of that command.)
    """

    __slots__ = ()
    # One geometry per shape (see :func:`geometry`): identity is equality, and cheap.
    __eq__ = object.__eq__
    __ne__ = object.__ne__
    __hash__ = object.__hash__

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def full(self) -> int:
        """The mask with every digit."""
        return (1 << self.size) - 1

    def row_of(self, cell: int) -> int:
        return cell // self.size

    def col_of(self, cell: int) -> int:
        return cell % self.size

    def box_of(self, cell: int) -> int:
        """The box's index (0-based; its unit is ``2*size`` on): a region in a Jigsaw."""
        return self.box_index[cell]

    @property
    def jigsaw(self) -> bool:
        return self.variant is not None and self.variant.regions is not None

    @property
    def killer(self) -> bool:
        return self.variant is not None and bool(self.variant.cages)

    def rows(self) -> range:
        """Unit numbers of the rows (as are ``columns()``, ``boxes()``, ``diagonals()``)."""
        return range(self.size)

    def columns(self) -> range:
        return range(self.size, 2 * self.size)

    def boxes(self) -> range:
        return range(2 * self.size, 3 * self.size)

    def diagonals(self) -> range:
        return range(3 * self.size, len(self.units))

    def sees(self, a: int, b: int) -> bool:
        """Whether two different cells share a unit."""
        return b in self.peer_sets[a]


@cache
def geometry(size: int = 9, diagonal: bool = False) -> Geometry:
    """The cached structure of a ``size``×``size`` grid (4, 6, 9 or 16), X variant if ``diagonal``."""
    return _build(size, diagonal, None)


@lru_cache(maxsize=256)
def variant_geometry(variant: Variant) -> Geometry:
    """The geometry of a Killer or Jigsaw ``variant`` (see :mod:`.variants`); for a plain one
    the per-shape :func:`geometry` itself."""
    if variant.regions is None and not variant.cages:
        return geometry(variant.size, variant.diagonal)
    return _build(variant.size, variant.diagonal, variant)


def _build(size: int, diagonal: bool, variant: Variant | None) -> Geometry:
    if size not in BOX_SHAPES:
        raise GridError(f"a Sudoku grid is 4, 6, 9 or 16 cells wide, not {size}")
    box_rows, box_cols = BOX_SHAPES[size]
    regions = variant.regions if variant is not None else None
    n = size
    units: list[tuple[int, ...]] = []
    kinds: list[str] = []
    names: list[str] = []
    for r in range(n):
        units.append(tuple(r * n + c for c in range(n)))
        kinds.append(ROW)
        names.append(f"row {r + 1}")
    for c in range(n):
        units.append(tuple(r * n + c for r in range(n)))
        kinds.append(COLUMN)
        names.append(f"column {c + 1}")
    stacks = n // box_cols
    for b in range(n):
        if regions is not None:
            units.append(regions[b])
            names.append(f"region {b + 1}")
        else:
            top, left = (b // stacks) * box_rows, (b % stacks) * box_cols
            units.append(tuple((top + i) * n + left + j for i in range(box_rows) for j in range(box_cols)))
            names.append(f"box {b + 1}")
        kinds.append(BOX)
    if diagonal:
        units.append(tuple(i * n + i for i in range(n)))
        kinds.append(DIAGONAL)
        names.append("the main diagonal")
        units.append(tuple(i * n + n - 1 - i for i in range(n)))
        kinds.append(DIAGONAL)
        names.append("the anti-diagonal")
    units_of: list[list[int]] = [[] for _ in range(n * n)]
    for u, cells in enumerate(units):
        for cell in cells:
            units_of[cell].append(u)
    box_index = [0] * (n * n)
    for b in range(n):
        for cell in units[2 * n + b]:
            box_index[cell] = b
    peers = []
    for cell in range(n * n):
        seen = {p for u in units_of[cell] for p in units[u]}
        if variant is not None and variant.cages and variant.cage_of[cell] >= 0:
            seen.update(variant.cages[variant.cage_of[cell]].cells)
        seen.discard(cell)
        peers.append(tuple(sorted(seen)))
    pairs = tuple((a, b) for a in range(n * n) for b in peers[a] if a < b)
    intersections = []
    for box in range(2 * n, 3 * n):
        box_cells = set(units[box])
        for line, cells in enumerate(units):
            if kinds[line] == BOX:
                continue
            shared = tuple(c for c in cells if c in box_cells)
            if len(shared) >= 2:
                intersections.append((box, line, shared, tuple(c for c in units[box] if c not in shared),
                                      tuple(c for c in cells if c not in box_cells)))
    later = tuple(tuple(p for p in peers[c] if p > c) for c in range(n * n))
    return Geometry(size, box_rows, box_cols, diagonal, tuple(units), tuple(kinds), tuple(names),
                    tuple(tuple(u) for u in units_of), tuple(peers), tuple(frozenset(p) for p in peers),
                    pairs, tuple(intersections), tuple(box_index), later, variant)


class Grid:
    """A Sudoku grid: ``values`` (0 for blank) and which cells are ``givens``.

    This is what the screen edits: :meth:`set` and :meth:`clear` refuse to touch a given;
    :meth:`candidates` are the digits no peer holds; :meth:`conflicts` are the cells whose
    digit a peer repeats. Nothing here checks the digits against the solution: ask
    :func:`tui_games.engine.sudoku.sat.solve` for that.

    ``variant`` (a Killer or Jigsaw :class:`~.variants.Variant`) sets the size, the diagonals
    and the geometry; a grid without one (``variant`` None) is classic or diagonal. A
    Killer's :meth:`conflicts` and :meth:`is_solved` also hold its cages to their rule.
    """

    __slots__ = ("geometry", "givens", "values", "variant")

    def __init__(self, values: Sequence[int] | None = None, *, size: int = 9, diagonal: bool = False,
                 givens: Sequence[bool] | None = None, variant: Variant | None = None) -> None:
        if variant is not None:
            size, diagonal = variant.size, variant.diagonal
            if variant.regions is None and not variant.cages:
                variant = None
        self.variant = variant
        self.geometry = geometry(size, diagonal) if variant is None else variant_geometry(variant)
        cells = size * size
        if values is None:
            values = [0] * cells
        if len(values) != cells:
            raise GridError(f"a {size}x{size} grid has {cells} cells, not {len(values)}")
        for cell, value in enumerate(values):
            if not 0 <= value <= size:
                raise GridError(f"{cell_name(cell, size)}: {value} is not a digit 1-{size}")
        self.values: list[int] = list(values)
        self.givens: list[bool] = [v != 0 for v in values] if givens is None else list(givens)
        if len(self.givens) != cells:
            raise GridError(f"a {size}x{size} grid has {cells} cells, not {len(self.givens)} given flags")

    # -- reading -------------------------------------------------------------------------------

    def format(self, blank: str = ".") -> str:
        """The one-line form: every cell row by row, ``blank`` for an empty one."""
        return "".join(DIGITS[v - 1] if v else blank for v in self.values)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        if self.variant is not None:
            return f"Grid({self.format()!r}, {self.variant!r})"
        variant = ", diagonal=True" if self.diagonal else ""
        return f"parse_grid({self.format()!r}{variant})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Grid)
                and (self.geometry is other.geometry
                     or (self.variant is not None and self.variant == other.variant))
                and self.values == other.values and self.givens == other.givens)

    def __hash__(self) -> int:
        return hash((self.size, self.diagonal, self.variant, tuple(self.values)))

    def with_values(self, values: Sequence[int], givens: Sequence[bool] | None = None) -> Grid:
        """A grid of the same shape and variant holding ``values``."""
        return Grid(values, size=self.size, diagonal=self.diagonal, givens=givens, variant=self.variant)

    def copy(self) -> Grid:
        return self.with_values(self.values, self.givens)

    def puzzle(self) -> Grid:
        """A new grid with the givens only (what the player started from)."""
        return self.with_values([v if g else 0 for v, g in zip(self.values, self.givens)])

    # -- shape -----------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.geometry.size

    @property
    def diagonal(self) -> bool:
        return self.geometry.diagonal

    @property
    def kind(self) -> str:
        """``classic``, ``diagonal``, ``killer`` or ``jigsaw`` (see :mod:`.variants`)."""
        if self.variant is not None:
            return self.variant.kind
        return "diagonal" if self.diagonal else "classic"

    def cell(self, row: int, col: int) -> int:
        """The index of the cell at 0-based ``row``, ``col``."""
        n = self.size
        if not (0 <= row < n and 0 <= col < n):
            raise GridError(f"no cell at row {row + 1}, column {col + 1} in a {n}x{n} grid")
        return row * n + col

    def cell_name(self, cell: int) -> str:
        return cell_name(cell, self.size)

    def __getitem__(self, cell: int) -> int:
        return self.values[cell]

    # -- editing ---------------------------------------------------------------------------------

    def set(self, cell: int, digit: int) -> None:
        """Write ``digit`` (0 clears) in a non-given cell. Conflicts are allowed: a player may
        make them, and :meth:`conflicts` shows them."""
        if not 0 <= cell < len(self.values):
            raise GridError(f"no cell {cell} in a {self.size}x{self.size} grid")
        if not 0 <= digit <= self.size:
            raise GridError(f"{digit} is not a digit 1-{self.size}")
        if self.givens[cell]:
            raise GridError(f"{self.cell_name(cell)} is a given")
        self.values[cell] = digit

    def clear(self, cell: int) -> None:
        self.set(cell, 0)

    # -- rules -----------------------------------------------------------------------------------

    def empty_cells(self) -> list[int]:
        return [c for c, v in enumerate(self.values) if v == 0]

    def candidate_mask(self, cell: int) -> int:
        """Digits no peer holds, as a mask; 0 for a filled cell."""
        if self.values[cell]:
            return 0
        used = 0
        values = self.values
        for p in self.geometry.peers[cell]:
            if values[p]:
                used |= 1 << (values[p] - 1)
        return self.geometry.full & ~used

    def candidates(self, cell: int) -> tuple[int, ...]:
        """Digits no peer holds, ascending; empty for a filled cell."""
        return mask_digits(self.candidate_mask(cell))

    def candidate_masks(self) -> list[int]:
        """:meth:`candidate_mask` of every cell."""
        return [self.candidate_mask(c) for c in range(len(self.values))]

    def duplicates(self) -> list[tuple[int, int, tuple[int, ...]]]:
        """``(unit, digit, cells)`` for every digit written twice or more in a unit."""
        out: list[tuple[int, int, tuple[int, ...]]] = []
        values = self.values
        for u, cells in enumerate(self.geometry.units):
            where: dict[int, list[int]] = {}
            for c in cells:
                if values[c]:
                    where.setdefault(values[c], []).append(c)
            out.extend((u, d, tuple(cs)) for d, cs in sorted(where.items()) if len(cs) > 1)
        return out

    def cage_problems(self) -> list[tuple[int, str]]:
        """``(cage index, problem)`` for each Killer cage whose digits break its rule (a digit
        twice, a full cage of the wrong sum, a partial one at or past its sum); [] otherwise."""
        if self.variant is None or not self.variant.cages:
            return []
        return self.variant.cage_sum_problems(self.values)

    # builtins.set: inside the class, `set` names the method above.
    def conflicts(self) -> builtins.set[int]:
        """Cells whose digit a peer repeats; in a Killer, also the cells of a cage that breaks
        its rule."""
        out = {c for _, _, cells in self.duplicates() for c in cells}
        if self.variant is not None and self.variant.cages:
            cages = self.variant.cages
            for index, _ in self.cage_problems():
                out.update(c for c in cages[index].cells if self.values[c])
        return out

    def is_complete(self) -> bool:
        return all(self.values)

    def is_solved(self) -> bool:
        """Every cell filled, no digit repeated in a unit, and (Killer) every cage's sum made."""
        return self.is_complete() and not self.duplicates() and not self.cage_problems()

    def agrees_with(self, solution: Sequence[int]) -> bool:
        """Whether every filled cell holds the digit of ``solution``."""
        return all(v == 0 or v == s for v, s in zip(self.values, solution))

    def wrong_cells(self, solution: Sequence[int]) -> list[int]:
        """Filled cells whose digit is not the solution's (a player's mistakes)."""
        return [c for c, (v, s) in enumerate(zip(self.values, solution)) if v and v != s]
