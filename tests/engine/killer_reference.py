"""An independent Killer generator and brute-force solver, written only for the tests: no
code of the engine, so the SAT and SMT solvers are checked against something that shares
nothing with them but the rules.

The solver is plain backtracking over the cell with fewest candidates, a candidate being a
digit no row, column, box or cage mate holds and that leaves the cage's remaining sum within
reach of its remaining cells. The generator fills a grid by randomised backtracking, cuts it
into random connected cages of one to four cells, and keeps the layout when the solver finds
exactly one solution.
"""

from __future__ import annotations

import random

Cages = list[tuple[int, list[int]]]


def _box(cell: int) -> int:
    return (cell // 27) * 3 + (cell % 9) // 3


class TooLong(Exception):
    """The search went past its node budget."""


def count(cages: Cages, limit: int = 2, givens: list[int] | None = None,
          budget: int | None = None) -> tuple[int, list[int] | None]:
    """(solutions found up to ``limit``, the first one); TooLong past ``budget`` nodes."""
    nodes = [0]
    grid = list(givens) if givens else [0] * 81
    cage_of = [0] * 81
    for i, (_, cells) in enumerate(cages):
        for c in cells:
            cage_of[c] = i
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    used = [0] * len(cages)
    left = [total for total, _ in cages]
    empty = [len(cells) for _, cells in cages]
    for c, v in enumerate(grid):
        if v:
            bit = 1 << v
            rows[c // 9] |= bit
            cols[c % 9] |= bit
            boxes[_box(c)] |= bit
            used[cage_of[c]] |= bit
            left[cage_of[c]] -= v
            empty[cage_of[c]] -= 1
    found: list[list[int]] = []

    def options(c: int) -> list[int]:
        k = cage_of[c]
        taken = rows[c // 9] | cols[c % 9] | boxes[_box(c)] | used[k]
        out = []
        after = empty[k] - 1
        for d in range(1, 10):
            if taken >> d & 1:
                continue
            rest = left[k] - d
            if after == 0:
                if rest != 0:
                    continue
            else:
                free = [e for e in range(1, 10) if not (used[k] | 1 << d) >> e & 1]
                if len(free) < after or rest < sum(free[:after]) or rest > sum(free[-after:]):
                    continue
            out.append(d)
        return out

    def search() -> None:
        nodes[0] += 1
        if budget is not None and nodes[0] > budget:
            raise TooLong
        best, best_options = -1, None
        for c in range(81):
            if not grid[c]:
                opts = options(c)
                if best_options is None or len(opts) < len(best_options):
                    best, best_options = c, opts
                    if len(opts) <= 1:
                        break
        if best_options is None:
            found.append(list(grid))
            return
        c = best
        k = cage_of[c]
        for d in best_options:
            bit = 1 << d
            grid[c] = d
            rows[c // 9] |= bit
            cols[c % 9] |= bit
            boxes[_box(c)] |= bit
            used[k] |= bit
            left[k] -= d
            empty[k] -= 1
            search()
            grid[c] = 0
            rows[c // 9] ^= bit
            cols[c % 9] ^= bit
            boxes[_box(c)] ^= bit
            used[k] ^= bit
            left[k] += d
            empty[k] += 1
            if len(found) >= limit:
                return

    search()
    return len(found), (found[0] if found else None)


def random_grid(rng: random.Random) -> list[int]:
    grid = [0] * 81

    def fill(c: int) -> bool:
        if c == 81:
            return True
        digits = list(range(1, 10))
        rng.shuffle(digits)
        r, col = divmod(c, 9)
        for d in digits:
            if all(grid[r * 9 + j] != d for j in range(9)) and all(grid[i * 9 + col] != d for i in range(9)) \
                    and all(grid[i] != d for i in range(81) if _box(i) == _box(c)):
                grid[c] = d
                if fill(c + 1):
                    return True
        grid[c] = 0
        return False

    fill(0)
    return grid


def random_cages(solution: list[int], rng: random.Random, largest: int = 4) -> Cages:
    """Random connected cages of 1..``largest`` cells with different digits, covering the grid."""
    owner = [-1] * 81
    cages: list[list[int]] = []
    order = list(range(81))
    rng.shuffle(order)
    for start in order:
        if owner[start] >= 0:
            continue
        want = rng.randint(2, largest)
        cells = [start]
        owner[start] = len(cages)
        while len(cells) < want:
            frontier = []
            for c in cells:
                r, col = divmod(c, 9)
                for rr, cc in ((r - 1, col), (r + 1, col), (r, col - 1), (r, col + 1)):
                    o = rr * 9 + cc
                    if 0 <= rr < 9 and 0 <= cc < 9 and owner[o] < 0 \
                            and all(solution[o] != solution[x] for x in cells):
                        frontier.append(o)
            if not frontier:
                break
            pick = rng.choice(frontier)
            owner[pick] = len(cages)
            cells.append(pick)
        cages.append(sorted(cells))
    return [(sum(solution[c] for c in cells), cells) for cells in cages]


def unique_killer(rng: random.Random, budget: int = 20000) -> tuple[Cages, list[int]]:
    """A Killer with one solution (by :func:`count`, within ``budget`` nodes), and the solution."""
    while True:
        solution = random_grid(rng)
        cages = random_cages(solution, rng)
        if len(cages) > 62:
            continue
        try:
            n, found = count(cages, budget=budget)
        except TooLong:
            continue
        if n == 1:
            assert found == solution
            return cages, solution


def to_line(cages: Cages) -> str:
    labels = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    owner = [0] * 81
    for i, (_, cells) in enumerate(cages):
        for c in cells:
            owner[c] = i
    name: dict[int, str] = {}
    sums = []
    out = []
    for c in range(81):
        if owner[c] not in name:
            name[owner[c]] = labels[len(name)]
            sums.append(str(cages[owner[c]][0]))
        out.append(name[owner[c]])
    return "".join(out) + " " + ",".join(sums)


if __name__ == "__main__":  # python tests/engine/killer_reference.py SEED COUNT > FILE
    import sys

    rng = random.Random(int(sys.argv[1]))
    for _ in range(int(sys.argv[2])):
        cages, solution = unique_killer(rng)
        print(to_line(cages), "".join(map(str, solution)), flush=True)
