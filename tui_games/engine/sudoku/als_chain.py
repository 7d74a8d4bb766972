"""ALS chains (ALS-XY-chains): almost locked sets linked one after the other by restricted
common candidates.

The sets and their restricted common candidates (RCCs) are those of :mod:`.als`. A chain
``A1 -x1- A2 -x2- ... An`` has an RCC ``x_i`` between each set and the next, two consecutive RCCs
being different digits. Read it from a digit ``z`` of both ends (``z`` not the first RCC nor
the last): if A1 has no ``z``, it is locked on its other digits, so holds ``x1``; then A2 has no
``x1`` (every ``x1`` of A2 sees every ``x1`` of A1), so A2 is locked and holds ``x2``; and so on
until An holds ``z``. So one of A1 and An holds ``z``, and ``z`` goes from every cell that sees
all the ``z`` cells of both. In Eureka: ``(z=x1)A1-(x1=x2)A2-...-(x_{n-1}=z)An``.

Two sets make an ALS-XZ and three an ALS-XY-wing (:mod:`.als`, found first); the chains here
have four sets or more, up to :data:`MAX_SETS`: HoDoKu's bound, 50 restricted commons in a
chain. The search is breadth-first from every set and digit ``z`` over the states "set,
entered by digit", each state met once, so its cost does not grow with the length allowed
(about 10 ms a position of the forum's hardest, 70 ms at p95) and the first chain found for a
start is a shortest one; sets may not repeat in a chain and consecutive sets do not overlap
(the RCCs need disjoint sets). The longest met on those positions had 15 sets.

Rating: HoDoKu rates every ALS-XY-chain alike, above the ALS-XY-wing (340 against 320 and 300
for the ALS-XZ); on Sudoku Explainer's scale the ALS-XZ is 7.0 and the wing 7.2, so each set
up to five adds 0.2 (4 sets: 7.4, 5: 7.6); past five, 0.1 more for the sixth set and then as
Sudoku Explainer lengthens a chain (:func:`~.techniques.length_rating`, two links a set: 7
sets 7.8, 9 sets 7.9, 13 sets 8.0).
"""

from __future__ import annotations

from collections.abc import Iterator

from tui_games.engine.sudoku.als import Als, _als_text, _cells_text, _node, _position, _removal_by_digit
from tui_games.engine.sudoku.grid import bit_indexes, digit_char, mask_digits
from tui_games.engine.sudoku.levels import FIENDISH
from tui_games.engine.sudoku.techniques import Link, State, Step, length_rating

__all__ = ["MAX_SETS", "als_chains", "chain_rating"]

#: The longest chain looked for, in sets (HoDoKu: 50 restricted commons).
MAX_SETS = 51


# (set, digit it was entered by) -> the state before it (None: the start)
_Parents = dict[tuple[int, int], tuple[int, int] | None]


def chain_rating(sets: int) -> float:
    """7.0 for two sets (ALS-XZ), 0.2 more for each further set up to five; past five, see the
    module's note."""
    if sets <= 5:
        return round(7.0 + 0.2 * (sets - 2), 1)
    return round(7.7 + length_rating(2 * sets) - length_rating(12), 1)


def als_chains(state: State) -> Iterator[Step]:
    n = state.geo.size
    alses, rccs, targets, _ = _position(state)
    # per set, the (next set, RCC digit) links out of it
    edges: list[list[tuple[int, int]]] = [[] for _ in alses]
    for (i, j), rcc in rccs.items():
        if rcc.bit_count() <= 2:
            for x in mask_digits(rcc):
                edges[i].append((j, x))
                edges[j].append((i, x))
    reported: set[tuple[tuple[int, int], ...]] = set()
    # one breadth-first search per start set and digit z, over (set, digit it was entered by),
    # all advanced one link at a time: the chains come out shortest first, and the stepper,
    # which takes the first step, stops the search there
    searches: list[tuple[int, int, _Parents, list[tuple[int, int]]]] = []
    for start in range(len(alses)):
        for z in sorted(targets[start]):
            root: _Parents = {(start, z): None}
            searches.append((start, z, root, [(start, z)]))
    for depth in range(1, MAX_SETS):
        state.check_stop()
        found: list[tuple[tuple[tuple[int, int], ...], list[int], list[int], int]] = []
        for start, z, parent, layer in searches:
            first = alses[start]
            zbit = 1 << (z - 1)  # z is a digit of the start; an end holding z has it in targets
            start_hits = targets[start][z]
            following = []
            for node in layer:
                at, came = node
                for key in edges[at]:
                    nxt, x = key
                    if x == came or key in parent or _on_path(parent, node, nxt):
                        continue
                    parent[key] = node
                    following.append(key)
                    if depth < 3 or x == z:
                        continue
                    end_hits = targets[nxt].get(z)
                    if end_hits is None or not start_hits & end_hits:
                        continue
                    end = alses[nxt]
                    hits = start_hits & end_hits & ~end.bits
                    if not hits:
                        continue
                    # every other digit of both ends, not the first RCC nor the last
                    x1 = _first_rcc(parent, key)
                    others = first.digits & end.digits & ~zbit & ~(1 << (x - 1)) & ~(1 << (x1 - 1))
                    elims = tuple(sorted(
                        [(c, z) for c in bit_indexes(hits)]
                        + [(c, d) for d in mask_digits(others)
                           for c in bit_indexes(targets[start].get(d, 0) & targets[nxt].get(d, 0)
                                                & ~end.bits & ~first.bits)]))
                    if elims not in reported:
                        reported.add(elims)
                        path, digits = _chain(parent, key)
                        found.append((elims, path, digits, z))
            layer[:] = following
        found.sort(key=lambda item: -len(item[0]))
        for elims, path, digits, z in found:
            yield _step([alses[i] for i in path], digits, z, elims, n)
        searches = [s for s in searches if s[3]]


def _on_path(parent: _Parents, node: tuple[int, int], als: int) -> bool:
    at: tuple[int, int] | None = node
    while at is not None:
        if at[0] == als:
            return True
        at = parent[at]
    return False


def _first_rcc(parent: _Parents, end: tuple[int, int]) -> int:
    at = end
    while True:
        up = parent[at]
        assert up is not None
        if parent[up] is None:
            return at[1]
        at = up


def _chain(parent: _Parents, end: tuple[int, int]) -> tuple[list[int], list[int]]:
    """The sets from the start to ``end`` and the RCC digits between them."""
    sets, digits = [], []
    at: tuple[int, int] | None = end
    while at is not None:
        sets.append(at[0])
        digits.append(at[1])
        at = parent[at]
    sets.reverse()
    digits.reverse()
    return sets, digits[1:]  # the first "digit" is z, the start's


def _step(sets: list[Als], xs: list[int], z: int, elims: tuple[tuple[int, int], ...], n: int) -> Step:
    zc = digit_char(z)
    ins = [z, *xs]
    outs = [*xs, z]
    parts = [f"({digit_char(a)}={digit_char(b)}){_cells_text(s.cells, n)}" for s, a, b in zip(sets, ins, outs)]
    chain = "-".join(parts)
    links: list[Link] = []
    for k, s in enumerate(sets):
        links.append(Link(_node(s, ins[k]), ins[k], _node(s, outs[k]), outs[k], True))
        if k + 1 < len(sets):
            links.append(Link(_node(s, outs[k]), outs[k], _node(sets[k + 1], outs[k]), outs[k], False))
    names = "; ".join(_als_text(s, n) for s in sets)
    text = (f"The almost locked sets {names} form a chain, each linked to the next by a digit that only one of "
            f"them can hold ({', '.join(digit_char(x) for x in xs)}). If the first set has no {zc}, it is "
            f"locked and holds {digit_char(xs[0])}, which locks the next, and so on, until the last holds {zc}: so "
            f"one of the two ends holds {zc}, and {_removal_by_digit(elims, n)}: those cells see every {zc} of both "
            f"ends.")
    cells = tuple(sorted({c for s in sets for c in s.cells}))
    digits = tuple(sorted({d for s in sets for d in mask_digits(s.digits)}))
    return Step("ALS chain", FIENDISH, cells, digits, text, eliminations=elims,
                units=tuple(sorted({s.unit for s in sets})), rating=chain_rating(len(sets)),
                links=tuple(links), chain=(chain,))
