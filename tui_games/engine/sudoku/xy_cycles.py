"""XY-cycles: loops of bivalue cells, Sudoku Explainer's "bidirectional Y-cycles" (6.5+).

Bivalue cells C1 ... Cn, each seeing the next and the last seeing the first, where each cell
shares one digit with the next: Ci holds {e, x}, its *exit* digit x is the *entry* digit of
C(i+1). If C1 holds its exit digit, C2 cannot hold its entry digit, so it holds its exit digit,
and so on around the loop; if C1 holds its entry digit, the same goes backwards. So either
every cell of the loop holds its exit digit or every cell holds its entry digit, and a
candidate v outside the loop that sees a cell exiting with v *and* a cell entering with v is
false either way.

Sudoku Explainer finds these in its "Y" mode (strong links only inside bivalue cells) and
rates them 6.5 plus the length of the loop: its 2n nodes less two (4 cells 6.6, 5 cells 6.7,
6 or 7 cells 6.8, 8 or 9 cells 6.9). A plain AIC finds the same loop at 7.0 and up, which is why
puzzles whose hardest step is such a loop rated 0.3-0.5 above Sudoku Explainer before.

The search is Sudoku Explainer's: from each bivalue cell and each of its digits, a
breadth-first walk over (cell, exit digit) that reaches each such pair once, and a loop
wherever a cell reached exits with the start's entry digit and sees the start.
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.sudoku.grid import cell_name, digit_char, popcount
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.notation import eureka
from tui_games.engine.sudoku.techniques import Link, State, Step, length_rating

__all__ = ["BASE", "MAX_CELLS", "xy_cycles"]

BASE = 6.5
#: The longest loop looked for: ten cells rate 7.0, where the AICs take over anyway.
MAX_CELLS = 10


def _loops(state: State) -> Iterator[list[tuple[int, int, int]]]:
    """Each loop as ``[(cell, entry digit, exit digit), ...]`` starting at its start cell."""
    geo, masks = state.geo, state.masks
    bivalue = [c for c in range(geo.cells) if popcount(masks[c]) == 2]
    is_bivalue = set(bivalue)
    for start in bivalue:
        state.check_stop()
        low = masks[start] & -masks[start]
        for exit_bit in (low, masks[start] ^ low):
            entry_bit = masks[start] ^ exit_bit
            parent: dict[tuple[int, int], tuple[int, int] | None] = {(start, exit_bit): None}
            depth = {(start, exit_bit): 1}
            frontier = [(start, exit_bit)]
            while frontier:
                nxt = []
                for node in frontier:
                    cell, bit = node
                    for peer in geo.peers[cell]:
                        if peer not in is_bivalue or not masks[peer] & bit:
                            continue
                        if peer == start:
                            if bit == entry_bit and depth[node] >= 2:
                                yield _path(parent, node, masks)
                            continue
                        state_next = (peer, masks[peer] ^ bit)
                        if state_next in parent or depth[node] >= MAX_CELLS:
                            continue
                        parent[state_next] = node
                        depth[state_next] = depth[node] + 1
                        nxt.append(state_next)
                frontier = nxt


def _path(parent: dict[tuple[int, int], tuple[int, int] | None], last: tuple[int, int],
          masks: list[int]) -> list[tuple[int, int, int]]:
    out = []
    node: tuple[int, int] | None = last
    while node is not None:
        cell, exit_bit = node
        out.append((cell, (masks[cell] ^ exit_bit).bit_length(), exit_bit.bit_length()))
        node = parent[node]
    out.reverse()
    return out


def xy_cycles(state: State) -> Iterator[Step]:
    """Loops of bivalue cells, shortest first (then the most eliminations)."""
    geo, masks = state.geo, state.masks
    n = geo.size
    found: dict[tuple[tuple[int, int], ...], tuple[int, list[tuple[int, int, int]]]] = {}
    for loop in _loops(state):
        cells = [c for c, _, _ in loop]
        if len(set(cells)) != len(cells):
            continue  # the walk came back through a cell: not a loop
        inside = set(cells)
        gone = []
        for digit in range(1, n + 1):
            bit = 1 << (digit - 1)
            exits = [c for c, _, x in loop if x == digit]
            entries = [c for c, e, _ in loop if e == digit]
            if not exits or not entries:
                continue
            for target in range(geo.cells):
                if (target not in inside and masks[target] & bit
                        and any(geo.sees(target, c) for c in exits) and any(geo.sees(target, c) for c in entries)):
                    gone.append((target, digit))
        if not gone:
            continue
        key = tuple(sorted(gone))
        if key not in found or len(loop) < found[key][0]:
            found[key] = (len(loop), loop)
    ranked = sorted(found.items(), key=lambda item: (item[1][0], -len(item[0]), item[0]))
    for eliminations, (size, loop) in ranked:
        links = []
        for i, (cell, entry, exit_) in enumerate(loop):
            following = loop[(i + 1) % len(loop)][0]
            links.append(Link((cell,), entry, (cell,), exit_, True))
            links.append(Link((cell,), exit_, (following,), exit_, False))
        names = ", ".join(f"{digit_char(d)} from {cell_name(c, n)}" for c, d in eliminations)
        text = (f"The bivalue cells {', '.join(cell_name(c, n) for c, _, _ in loop)} form a loop, each sharing a "
                f"digit with the next: either every one holds the digit it passes on, or every one the digit it "
                f"receives. Either way these go: {names}.")
        yield Step("XY-cycle", FIENDISH, tuple(c for c, _, _ in loop),
                   tuple(sorted({d for _, e, x in loop for d in (e, x)})), text, eliminations=eliminations,
                   rating=round(BASE + length_rating(2 * size - 2), 1), links=tuple(links),
                   chain=(eureka(links, n),))
