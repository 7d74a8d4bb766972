"""Peter Norvig's constraint propagation + search solver ("Solving Every Sudoku Puzzle"),
kept only as the benchmark's point of comparison for the SAT solver.

It is the essay's algorithm, ported to Python 3 and kept close to it: values are a dict from
square names to strings of remaining digits; assigning a digit eliminates it from the peers;
a square reduced to one digit eliminates that digit from its peers, and a unit where a digit
has one place left puts it there; search tries the square with the fewest digits first,
depth first. 9×9 standard grids only.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["solve_values"]

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS


def _cross(a: str, b: str) -> list[str]:
    return [x + y for x in a for y in b]


SQUARES = _cross(ROWS, COLS)
UNITLIST = ([_cross(ROWS, c) for c in COLS] + [_cross(r, COLS) for r in ROWS]
            + [_cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: {s2 for u in UNITS[s] for s2 in u} - {s} for s in SQUARES}

Values = dict[str, str]


def _assign(values: Values, s: str, d: str) -> Values | None:
    other = values[s].replace(d, "")
    if all(_eliminate(values, s, d2) for d2 in other):
        return values
    return None


def _eliminate(values: Values, s: str, d: str) -> Values | None:
    if d not in values[s]:
        return values
    values[s] = values[s].replace(d, "")
    if len(values[s]) == 0:
        return None
    if len(values[s]) == 1:
        d2 = values[s]
        if not all(_eliminate(values, s2, d2) for s2 in PEERS[s]):
            return None
    for u in UNITS[s]:
        places = [s2 for s2 in u if d in values[s2]]
        if len(places) == 0:
            return None
        if len(places) == 1 and not _assign(values, places[0], d):
            return None
    return values


def _search(values: Values | None) -> Values | None:
    if values is None:
        return None
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        result = _search(_assign(values.copy(), s, d))
        if result:
            return result
    return None


def solve_values(puzzle: Sequence[int]) -> list[int] | None:
    """A solution of a 9×9 puzzle given as 81 digits (0 for blank), or None."""
    values: Values | None = dict.fromkeys(SQUARES, DIGITS)
    for s, v in zip(SQUARES, puzzle):
        if v and values is not None:
            values = _assign(values, s, str(v))
    result = _search(values)
    if result is None:
        return None
    return [int(result[s]) for s in SQUARES]
