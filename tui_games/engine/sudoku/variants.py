"""The Sudoku variants past the classic grid: Killer (cages with sums) and Jigsaw (irregular
regions in place of the boxes), in the engine's one rules model.

The API, for everything that reads a puzzle's rules (the SAT and SMT encoders, the stepper and
its cage techniques, the screen):

- :class:`Cage` ``(total, cells)``: a Killer cage, its cells a sorted tuple of cell numbers.
  Its digits are all different and add up to ``total``. :func:`cage_combinations` gives the
  digit sets (as masks) that can fill it, :func:`cage_digits` their union.
- :class:`Variant` ``(size=9, diagonal=False, regions=None, cages=())``: frozen and hashable;
  validated when made (:class:`VariantError` names what is wrong). ``regions`` (a tuple of
  ``size`` cell tuples, or None for the standard boxes) replaces the boxes; ``cages`` lists
  the Killer cages. ``kind`` is ``classic``, ``diagonal``, ``killer`` or ``jigsaw`` (or
  ``killer-jigsaw``); per cell ``cage_of`` (the cage's index, -1 for none) and
  ``region_of`` (the box or region's index).
- :func:`~.grid.variant_geometry` ``(variant)``: the :class:`~.grid.Geometry` the variant plays on.
  Jigsaw regions are its boxes: units ``2*size .. 3*size-1`` are the regions, of kind
  ``BOX`` (so every technique that looks at boxes looks at regions) named ``region N``, and
  ``box_of`` / ``intersections`` follow them; ``jigsaw`` is True. For Killer the units are
  the classic ones (a cage is not a unit: it need not hold every digit), but a cell's
  ``peers`` also hold its cage mates, since ``peers`` means "the cells that may not hold the
  same digit": propagation, the SAT clauses and every technique's "sees" then keep cage
  digits different with no code of their own. ``geometry.variant`` is the variant (None for
  the classic and diagonal geometries of :func:`~.grid.geometry`).
- :class:`~.grid.Grid` ``(values, variant=...)`` carries the variant: its ``conflicts``
  include digits repeated in a cage and a full cage of the wrong sum, ``is_solved`` checks
  the sums, and ``candidate_mask`` leaves out digits a cage mate holds.

Classic and diagonal grids have no variant object at all (``grid.variant is None``): their
geometry is the one cached per shape, so nothing on their hot paths changed.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations
from typing import NamedTuple

__all__ = [
    "CLASSIC", "DIAGONAL", "JIGSAW", "KILLER", "KINDS", "Cage", "Variant", "VariantError", "cage_bounds",
    "cage_combinations", "cage_digits",
]

CLASSIC, DIAGONAL, KILLER, JIGSAW = "classic", "diagonal", "killer", "jigsaw"
KINDS = (CLASSIC, DIAGONAL, KILLER, JIGSAW)


class VariantError(ValueError):
    """A cage or region layout that breaks the rules; the message names the cells."""


def _name(cell: int, size: int) -> str:
    row, col = divmod(cell, size)
    return f"r{row + 1}c{col + 1}"


def cage_bounds(count: int, size: int = 9) -> tuple[int, int]:
    """The least and greatest sum of ``count`` different digits ``1..size``."""
    return count * (count + 1) // 2, count * (2 * size - count + 1) // 2


@cache
def cage_combinations(total: int, count: int, size: int = 9) -> tuple[int, ...]:
    """Every set of ``count`` different digits adding up to ``total``, each a digit mask
    (bit ``d - 1`` for digit ``d``), in increasing order of the masks: ``(7, 3)`` gives
    ``(0b1011,)``, {1, 2, 4}."""
    out = []
    for digits in combinations(range(1, size + 1), count):
        if sum(digits) == total:
            mask = 0
            for d in digits:
                mask |= 1 << (d - 1)
            out.append(mask)
    return tuple(sorted(out))


@cache
def cage_digits(total: int, count: int, size: int = 9) -> int:
    """The mask of every digit some combination of the cage holds."""
    mask = 0
    for combo in cage_combinations(total, count, size):
        mask |= combo
    return mask


def _connected(cells: tuple[int, ...], size: int) -> bool:
    """Whether ``cells`` form one orthogonally connected piece."""
    inside = set(cells)
    todo = [cells[0]]
    seen = {cells[0]}
    while todo:
        cell = todo.pop()
        row, col = divmod(cell, size)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            other = r * size + c
            if 0 <= r < size and 0 <= c < size and other in inside and other not in seen:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(inside)


class Cage(NamedTuple):
    """A Killer cage: its ``total`` and its ``cells`` (sorted cell numbers). Made through
    :meth:`make` it is checked; a bare ``Cage(...)`` is checked when a :class:`Variant`
    takes it."""

    total: int
    cells: tuple[int, ...]

    @classmethod
    def make(cls, total: int, cells: tuple[int, ...] | list[int], size: int = 9) -> Cage:
        cage = cls(int(total), tuple(sorted(cells)))
        cage.check(size)
        return cage

    def check(self, size: int = 9) -> None:
        """VariantError if the cage cannot be: no cells, a cell twice or off the grid, cells
        not connected, more cells than digits, or a sum no digits of its size make."""
        cells = self.cells
        if not cells:
            raise VariantError("a cage with no cells")
        if len(set(cells)) != len(cells):
            raise VariantError("a cage names a cell twice")
        if any(not 0 <= c < size * size for c in cells):
            raise VariantError(f"a cage has a cell off the {size}x{size} grid")
        where = f"the cage at {_name(cells[0], size)}"
        if len(cells) > size:
            raise VariantError(f"{where} has {len(cells)} cells: a cage holds at most {size}, all different")
        low, high = cage_bounds(len(cells), size)
        if not low <= self.total <= high:
            raise VariantError(f"{where} sums to {self.total}, impossible for {len(cells)} cells "
                               f"(different digits make {low} to {high})")
        if not _connected(cells, size):
            raise VariantError(f"{where} is not one connected piece (cells {', '.join(_name(c, size) for c in cells)})")


def _check_regions(regions: tuple[tuple[int, ...], ...], size: int) -> None:
    if len(regions) != size:
        raise VariantError(f"a {size}x{size} Jigsaw has {size} regions, not {len(regions)}")
    owner: dict[int, int] = {}
    for r, cells in enumerate(regions, 1):
        if len(cells) != size:
            raise VariantError(f"region {r} has {len(cells)} cells, not {size}")
        for cell in cells:
            if not 0 <= cell < size * size:
                raise VariantError(f"region {r} has a cell off the {size}x{size} grid")
            if cell in owner:
                raise VariantError(f"{_name(cell, size)} is in region {owner[cell]} and region {r}")
            owner[cell] = r
        if not _connected(cells, size):
            raise VariantError(f"region {r} is not one connected piece")
    # size regions of size distinct cells each: every cell is covered.


class Variant:
    """The rules of one grid beyond the classic: see the module docstring. Frozen, hashable,
    equal by value; checked when made."""

    __slots__ = ("size", "diagonal", "regions", "cages", "cage_of", "region_of", "_hash")

    size: int
    diagonal: bool
    regions: tuple[tuple[int, ...], ...] | None
    cages: tuple[Cage, ...]
    cage_of: tuple[int, ...]
    region_of: tuple[int, ...] | None
    _hash: int

    def __init__(self, size: int = 9, diagonal: bool = False,
                 regions: tuple[tuple[int, ...], ...] | None = None, cages: tuple[Cage, ...] = ()) -> None:
        if regions is not None:
            regions = tuple(tuple(sorted(r)) for r in regions)
            _check_regions(regions, size)
        cages = tuple(Cage(int(c.total), tuple(sorted(c.cells))) for c in cages)
        cage_of = [-1] * (size * size)
        for index, cage in enumerate(cages):
            cage.check(size)
            for cell in cage.cells:
                if cage_of[cell] != -1:
                    raise VariantError(f"{_name(cell, size)} is in two cages")
                cage_of[cell] = index
        if cages and -1 not in cage_of:
            total = sum(c.total for c in cages)
            if total != size * size * (size + 1) // 2:
                raise VariantError(f"the cage sums add up to {total}; a full grid's digits add up to "
                                   f"{size * size * (size + 1) // 2}")
        region_of = None
        if regions is not None:
            owner = [0] * (size * size)
            for index, cells in enumerate(regions):
                for cell in cells:
                    owner[cell] = index
            region_of = tuple(owner)
        set_ = object.__setattr__
        set_(self, "size", size)
        set_(self, "diagonal", bool(diagonal))
        set_(self, "regions", regions)
        set_(self, "cages", cages)
        set_(self, "cage_of", tuple(cage_of))
        set_(self, "region_of", region_of)
        set_(self, "_hash", hash((size, bool(diagonal), regions, cages)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Variant is frozen")

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Variant) and self._hash == other._hash and self.size == other.size
                and self.diagonal == other.diagonal and self.regions == other.regions and self.cages == other.cages)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"Variant({self.kind}, {len(self.cages)} cages)" if self.cages else f"Variant({self.kind})"

    def __reduce__(self) -> tuple[type, tuple[int, bool, tuple[tuple[int, ...], ...] | None, tuple[Cage, ...]]]:
        return (Variant, (self.size, self.diagonal, self.regions, self.cages))

    @property
    def killer(self) -> bool:
        return bool(self.cages)

    @property
    def jigsaw(self) -> bool:
        return self.regions is not None

    @property
    def plain(self) -> bool:
        """No cages and no regions: the classic (or diagonal) grid."""
        return not self.cages and self.regions is None

    @property
    def kind(self) -> str:
        if self.cages and self.regions is not None:
            return f"{KILLER}-{JIGSAW}"
        if self.cages:
            return KILLER
        if self.regions is not None:
            return JIGSAW
        return DIAGONAL if self.diagonal else CLASSIC

    def cage_at(self, cell: int) -> Cage | None:
        index = self.cage_of[cell]
        return self.cages[index] if index >= 0 else None

    def cage_sum_problems(self, values: list[int] | tuple[int, ...]) -> list[tuple[int, str]]:
        """``(cage index, problem)`` for every cage whose digits break its rule: a digit twice,
        a full cage of the wrong sum, or a partial one already past its sum."""
        out = []
        for index, cage in enumerate(self.cages):
            digits = [values[c] for c in cage.cells if values[c]]
            if len(set(digits)) != len(digits):
                out.append((index, "a digit twice"))
            elif len(digits) == len(cage.cells) and sum(digits) != cage.total:
                out.append((index, f"adds up to {sum(digits)}, not {cage.total}"))
            elif sum(digits) > cage.total or (len(digits) < len(cage.cells) and sum(digits) >= cage.total):
                out.append((index, f"{sum(digits)} already, for a sum of {cage.total}"))
        return out
