"""Single-digit patterns: two strong links of one digit joined by a weak one.

A **strong link** (conjugate pair) is a unit where a digit has exactly two places: if one is
not the digit, the other is. A **weak link** is two candidates of the digit that see each
other: not both true. The chain ``far1 = near1 - near2 = far2`` then proves that ``far1`` or
``far2`` holds the digit, so no cell that sees both can hold it. HoDoKu names the shapes:

- **skyscraper**: both strong links in rows (or both in columns), the near ends in one column
  (row);
- **2-string kite**: one strong link in a row, one in a column, the near ends in one box;
- **turbot fish**: any other such chain (one link at least goes through a box);
- **empty rectangle**: the first strong link is a box whose candidates all lie in one row and
  one column of it (a grouped strong link: the digit is in that row or, failing that, in that
  column of the box), the second a conjugate pair in a line crossing one of the two.

Every step carries its chain as :class:`~.techniques.Link` objects and in Eureka notation
(``(5)r1c2=(5)r7c2-(5)r7c8=(5)r3c8``). Ratings are those of Sukaku Explainer, the Sudoku
Explainer fork that rated the shared diabolical bank, for its "two strong-linked fishes":
4.0 for the skyscraper, 4.1 the kite, 4.2 the turbot fish, 4.3 the grouped one (the empty
rectangle); the original Sudoku Explainer, which lacks them, needs a 4-link X-chain (6.6).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from tui_games.engine.sudoku.grid import ROW, Geometry, cell_name, digit_char
from tui_games.engine.sudoku.levels import EXTREME
from tui_games.engine.sudoku.techniques import Finder, Link, State, Step, _names

__all__ = ["empty_rectangles", "skyscrapers", "turbot_fish", "two_string_kites"]


# -- Eureka notation (a tiny private version; chains get a general one) -------------------------


def _node(cells: Sequence[int], n: int) -> str:
    """``r1c2`` for a cell; a group in one row or column as ``r1c23`` / ``r12c3``."""
    rows = sorted({c // n + 1 for c in cells})
    cols = sorted({c % n + 1 for c in cells})
    if len(rows) == 1 or len(cols) == 1:
        return f"r{''.join(map(str, rows))}c{''.join(map(str, cols))}"
    return "|".join(f"r{c // n + 1}c{c % n + 1}" for c in cells)


def _eureka(links: Sequence[Link], n: int) -> str:
    """One chain in Eureka notation; a link inside one cell joins its digits: ``(4=6)r3c7``."""
    nodes = [(links[0].cells_a, links[0].digit_a)] + [(link.cells_b, link.digit_b) for link in links]
    out = ""
    digits = digit_char(nodes[0][1])
    for i, link in enumerate(links):
        symbol = "=" if link.strong else "-"
        if link.cells_a == link.cells_b:
            digits += symbol + digit_char(link.digit_b)
            continue
        out += f"({digits}){_node(link.cells_a, n)}{symbol}"
        digits = digit_char(nodes[i + 1][1])
    return out + f"({digits}){_node(nodes[-1][0], n)}"


# -- conjugate pairs ---------------------------------------------------------------------------


def conjugate_pairs(state: State, digit: int) -> dict[tuple[int, int], list[int]]:
    """``{(a, b): units}``: the pairs of cells (a < b) that are the only two places of ``digit``
    in those units."""
    bit = 1 << (digit - 1)
    masks = state.masks
    pairs: dict[tuple[int, int], list[int]] = {}
    for u, unit in enumerate(state.geo.units):
        where = [c for c in unit if masks[c] & bit]
        if len(where) == 2:
            pairs.setdefault((where[0], where[1]), []).append(u)
    return pairs


def _kind(geo: Geometry, u1: list[int], u2: list[int], near1: int, far1: int, near2: int, far2: int) -> str | None:
    """The chain's name, or None for an X-wing (two parallel pairs in the same two lines)."""
    n = geo.size
    columns = geo.columns()
    rows1, rows2 = any(u < n for u in u1), any(u < n for u in u2)
    cols1, cols2 = any(u in columns for u in u1), any(u in columns for u in u2)
    for parallel, same_near, same_far in ((rows1 and rows2, near1 % n == near2 % n, far1 % n == far2 % n),
                                          (cols1 and cols2, near1 // n == near2 // n, far1 // n == far2 // n)):
        if parallel and same_near:
            return None if same_far else "skyscraper"
    box = geo.box_of
    if ((rows1 and cols2) or (cols1 and rows2)) and box(near1) == box(near2) \
            and box(near1) != box(far1) and box(near2) != box(far2):
        return "2-string kite"
    return "turbot fish"


def _two_links(state: State) -> Iterator[tuple[str, Step]]:
    """Every chain far1 = near1 - near2 = far2 with eliminations, named by its shape."""
    geo, masks = state.geo, state.masks
    n = geo.size
    names = geo.unit_names
    peer_sets = geo.peer_sets
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        pairs = conjugate_pairs(state, digit)
        if len(pairs) < 2:
            continue
        ends: dict[int, list[tuple[int, list[int]]]] = {}  # cell -> (other end, units)
        for (a, b), units in pairs.items():
            ends.setdefault(a, []).append((b, units))
            ends.setdefault(b, []).append((a, units))
        seen = set()
        for near1, partners1 in ends.items():
            for near2 in peer_sets[near1]:
                if near2 not in ends:
                    continue
                for far1, u1 in partners1:
                    for far2, u2 in ends[near2]:
                        if len({far1, near1, near2, far2}) < 4:
                            continue
                        key = frozenset(((far1, near1), (far2, near2)))
                        if key in seen:
                            continue
                        seen.add(key)
                        chain = {far1, near1, near2, far2}
                        targets = sorted(c for c in peer_sets[far1] & peer_sets[far2]
                                         if masks[c] & bit and c not in chain)
                        if not targets:
                            continue
                        kind = _kind(geo, u1, u2, near1, far1, near2, far2)
                        if kind is None:
                            continue
                        weak = next((u for u in geo.units_of[near1] if near2 in geo.units[u]), None)
                        if weak is None:
                            continue  # Killer cage mates see each other with no unit to name in the text
                        d = digit_char(digit)
                        f1, m1, m2, f2 = (cell_name(c, n) for c in (far1, near1, near2, far2))
                        text = (f"In {names[u1[0]]}, {d} is only in {f1} or {m1}; in {names[u2[0]]}, only in {m2} "
                                f"or {f2}. {m1} and {m2} share {names[weak]}, so they are not both {d}: {f1} or {f2} "
                                f"is {d}, and {d} is removed from the cells that see both: {_names(targets, n)}.")
                        links = (Link((far1,), digit, (near1,), digit, True),
                                 Link((near1,), digit, (near2,), digit, False),
                                 Link((near2,), digit, (far2,), digit, True))
                        yield kind, Step(kind, EXTREME, (far1, near1, near2, far2), (digit,), text,
                                         eliminations=tuple((c, digit) for c in targets),
                                         units=(u1[0], u2[0], weak), links=links, chain=(_eureka(links, n),))


def _only(kind: str) -> Finder:
    def find(state: State) -> Iterator[Step]:
        for k, step in _two_links(state):
            if k == kind:
                yield step
    find.__name__ = kind.replace(" ", "_").replace("-", "_")
    return find


skyscrapers = _only("skyscraper")
two_string_kites = _only("2-string kite")
turbot_fish = _only("turbot fish")


# -- empty rectangles ----------------------------------------------------------------------------


def empty_rectangles(state: State) -> Iterator[Step]:
    geo, masks = state.geo, state.masks
    n = geo.size
    peer_sets = geo.peer_sets
    for digit in range(1, n + 1):
        bit = 1 << (digit - 1)
        pairs = conjugate_pairs(state, digit)
        line_pairs = [(a, b, units) for (a, b), units in pairs.items()
                      if any(u < 2 * n for u in units)]
        if not line_pairs:
            continue
        seen = set()
        for box in geo.boxes():
            where = [c for c in geo.units[box] if masks[c] & bit]
            if len(where) < 2:
                continue
            for r in sorted({c // n for c in geo.units[box]}):
                for col in sorted({c % n for c in geo.units[box]}):
                    in_row = tuple(c for c in where if c // n == r)
                    in_col = tuple(c for c in where if c % n == col)
                    if len(set(in_row) | set(in_col)) != len(where):
                        continue
                    row_arm = [c for c in in_row if c % n != col]
                    col_arm = [c for c in in_col if c // n != r]
                    if not row_arm or not col_arm:
                        continue
                    # A conjugate pair in a column meeting row r (p in row r, outside the box),
                    # or in a row meeting column col: the box holds the digit in the other arm.
                    for a, b, units in line_pairs:
                        for p, q in ((a, b), (b, a)):
                            if p in where or q in where:
                                continue
                            for u in units:
                                if u >= 2 * n:
                                    continue
                                by_row = geo.unit_kinds[u] != ROW  # a column pair reaching row r
                                if by_row and (p // n != r or q // n == r):
                                    continue
                                if not by_row and (p % n != col or q % n == col):
                                    continue
                                near = in_row if by_row else in_col
                                other = tuple(col_arm if by_row else row_arm)
                                common = peer_sets[q].intersection(*(peer_sets[c] for c in other))
                                targets = sorted(c for c in common if masks[c] & bit and c not in where
                                                 and c != p)
                                if not targets:
                                    continue
                                key = (digit, tuple(targets))
                                if key in seen:
                                    continue
                                seen.add(key)
                                yield _er_step(state, digit, box, r, col, p, q, u, near, other, targets)


def _er_step(state: State, digit: int, box: int, r: int, col: int, p: int, q: int, unit: int,
             near: tuple[int, ...], other: tuple[int, ...], targets: list[int]) -> Step:
    geo = state.geo
    n = geo.size
    names = geo.unit_names
    d = digit_char(digit)
    bname = names[box]
    near_line = names[r] if p // n == r else names[n + col]
    other_line = names[n + col] if p // n == r else names[r]
    qn, pn = cell_name(q, n), cell_name(p, n)
    text = (f"In {bname}, {d} lies only in {names[r]} and {names[n + col]} (an empty rectangle). In "
            f"{names[unit]}, {d} is only in {pn} or {qn}: if {qn} is not {d}, {pn} is, so {d} is not in "
            f"{near_line} of {bname} and must be in {other_line} of it ({_names(other, n)}). Either way "
            f"{_names(targets, n)} cannot be {d}.")
    links = (Link((q,), digit, (p,), digit, True),
             Link((p,), digit, near, digit, False),
             Link(near, digit, other, digit, True))
    cells = tuple(sorted({p, q, *near, *other}))
    return Step("empty rectangle", EXTREME, cells, (digit,), text,
                eliminations=tuple((c, digit) for c in targets), units=(box, unit), links=links,
                chain=(_eureka(links, n),))
