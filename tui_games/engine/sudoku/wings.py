"""Wings of identical bivalue cells: the W-wing and remote pairs.

- **W-wing**: two cells that hold only ``a`` and ``b``, that do not see each other, and a
  conjugate pair of ``a`` (a unit where ``a`` has just two places) with one end seeing each
  cell. The two cells are not both ``a`` (that would leave the pair without ``a``), so one is
  ``b``: ``b`` leaves the cells that see both. Chain: ``(b=a)x-(a)p=(a)q-(a=b)y``.
- **remote pairs**: a chain of cells all holding only ``a`` and ``b``, each seeing the next.
  Along it the cells alternate, so the two ends of a chain with an even number of cells hold
  one ``a`` and one ``b`` between them: both digits leave the cells that see both ends.

Ratings (Sudoku Explainer sees both as short XY-chains): W-wing 6.8, remote pairs 6.6 plus
the length bonus for the number of cells in the chain (see :mod:`.catalogue`).
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.sudoku.grid import cell_name, digit_char
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.single_digit import _eureka, conjugate_pairs
from tui_games.engine.sudoku.techniques import Link, State, Step, _names, length_rating

__all__ = ["remote_pairs", "w_wings"]

REMOTE_PAIRS_RATING = 6.6


def _bivalue_groups(state: State) -> dict[int, list[int]]:
    """Bivalue cells by their mask, only the masks held by two cells or more."""
    groups: dict[int, list[int]] = {}
    for cell, m in enumerate(state.masks):
        if m and m.bit_count() == 2:
            groups.setdefault(m, []).append(cell)
    return {m: cells for m, cells in groups.items() if len(cells) >= 2}


def w_wings(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    peer_sets = geo.peer_sets
    groups = _bivalue_groups(state)
    if not groups:
        return
    pairs_of: dict[int, list[tuple[int, int, int]]] = {}  # digit -> (p, q, unit), both ways round
    for mask in groups:
        for digit in (mask & -mask).bit_length(), mask.bit_length():
            if digit not in pairs_of:
                pairs_of[digit] = [(p, q, units[0]) for (a, b), units in conjugate_pairs(state, digit).items()
                                   for p, q in ((a, b), (b, a))]
    seen = set()
    for mask, cells in sorted(groups.items()):
        low, high = (mask & -mask).bit_length(), mask.bit_length()
        for i, x in enumerate(cells):
            for y in cells[i + 1:]:
                if y in peer_sets[x]:
                    continue  # a naked pair
                common = peer_sets[x] & peer_sets[y]
                for a, b in ((low, high), (high, low)):
                    bbit = 1 << (b - 1)
                    targets = sorted(c for c in common if masks[c] & bbit)
                    if not targets or (x, y, b) in seen:
                        continue
                    for p, q, unit in pairs_of[a]:
                        if p in (x, y) or q in (x, y) or p not in peer_sets[x] or q not in peer_sets[y]:
                            continue
                        seen.add((x, y, b))
                        yield _w_step(state, x, y, a, b, p, q, unit, targets)
                        break


def _w_step(state: State, x: int, y: int, a: int, b: int, p: int, q: int, unit: int, targets: list[int]) -> Step:
    n = state.geo.size
    da, db = digit_char(a), digit_char(b)
    xn, yn, pn, qn = (cell_name(c, n) for c in (x, y, p, q))
    text = (f"{xn} and {yn} both hold only {da} and {db}. In {state.geo.unit_names[unit]}, {da} is only in {pn} "
            f"or {qn}, which see {xn} and {yn}: so {xn} and {yn} are not both {da}, one of them is {db}, and "
            f"{db} is removed from the cells that see both: {_names(targets, n)}.")
    links = (Link((x,), b, (x,), a, True), Link((x,), a, (p,), a, False), Link((p,), a, (q,), a, True),
             Link((q,), a, (y,), a, False), Link((y,), a, (y,), b, True))
    return Step("W-wing", FIENDISH, (x, y, p, q), (a, b), text, eliminations=tuple((c, b) for c in targets),
                units=(unit,), links=links, chain=(_eureka(links, n),))


def remote_pairs(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    peer_sets = geo.peer_sets
    found = []
    for mask, cells in sorted(_bivalue_groups(state).items()):
        if len(cells) < 4:
            continue
        inside = set(cells)
        for start in cells:
            # Shortest paths from start through cells of the same pair.
            parent = {start: -1}
            order = [start]
            for cell in order:
                for other in sorted(peer_sets[cell] & inside):
                    if other not in parent:
                        parent[other] = cell
                        order.append(other)
            for end in order:
                if end <= start:
                    continue
                path = [end]
                while parent[path[-1]] != -1:
                    path.append(parent[path[-1]])
                if len(path) < 4 or len(path) % 2:
                    continue
                path.reverse()
                common = peer_sets[start] & peer_sets[end]
                targets = sorted(c for c in common if masks[c] & mask and c not in path)
                if targets:
                    found.append((len(path), mask, path, targets))
    done = set()
    for _, mask, path, targets in sorted(found):
        key = (mask, tuple(targets))
        if key in done:
            continue
        done.add(key)
        yield _remote_step(state, mask, path, targets)


def _remote_step(state: State, mask: int, path: list[int], targets: list[int]) -> Step:
    n = state.geo.size
    masks = state.masks
    a, b = (mask & -mask).bit_length(), mask.bit_length()
    da, db = digit_char(a), digit_char(b)
    links = []
    digit = a
    for i, cell in enumerate(path):
        other = b if digit == a else a
        links.append(Link((cell,), digit, (cell,), other, True))
        if i + 1 < len(path):
            links.append(Link((cell,), other, (path[i + 1],), other, False))
        digit = other
    eliminations = tuple((c, d) for c in targets for d in (a, b) if masks[c] & (1 << (d - 1)))
    first, last = cell_name(path[0], n), cell_name(path[-1], n)
    text = (f"{_names(path, n)} all hold only {da} and {db}, each seeing the next, so they alternate: {first} and "
            f"{last} hold one {da} and one {db} between them. {da} and {db} are removed from the cells that see both: "
            f"{_names(targets, n)}.")
    return Step("remote pairs", FIENDISH, tuple(path), (a, b), text, eliminations=eliminations,
                rating=round(REMOTE_PAIRS_RATING + length_rating(len(path)), 1), links=tuple(links),
                chain=(_eureka(links, n),))
