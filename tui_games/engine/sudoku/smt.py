"""Solving Sudoku with an SMT solver (Z3, the optional extra ``smt``: ``pip install
'tui-games[smt]'``), beside the SAT solver of :mod:`.sat`.

The model is the rules as written, with no propagation of ours: one integer per cell, ``1 <=
x <= size``; each given an equation; ``Distinct`` over every unit (rows, columns, boxes or a
Jigsaw's regions, the diagonals of the X variant); and for each Killer cage ``Distinct``
over its cells and the integer sum of its cells equal to its total. Arithmetic is where SMT
is natural: a cage is one assertion, where the CNF of :mod:`.sat` lists digit combinations.

The solver is Z3's for the logic ``QF_FD`` (finite domains: bounded integers are
bit-blasted to its SAT core). Measured on the Wikipedia Killer (``tests`` hold it), first
solution and the uniqueness check: ``QF_FD`` 0.21 s, the ``qffd`` tactic 0.55 s, bit-vectors
(``QF_BV``) 1.0 s, the default solver 2.6 s (bit-vectors) to 4.5 s (integers, ``QF_LIA``'s
simplex and branching): Z3 5.4, one core of this machine. The SMT-LIB text declares the
standard ``QF_LIA``, which every SMT solver reads.

Uniqueness is asked the way the SAT side does: after the first model, one more assertion
that some open cell differs from it, and a second check on the same solver.

:func:`solve` answers with :class:`.sat.SolveResult`, its ``stats`` a :class:`SmtStats`
(variables, assertions). :func:`to_smt2` is the SMT-LIB 2 text of the same model, which any
SMT solver reads (``z3 FILE.smt2``, cvc5). Z3 missing: :class:`SmtUnavailable`, whose
message names the extra to install.
"""

from __future__ import annotations

import time
from collections import namedtuple
from typing import Any

from tui_games.engine.sudoku.grid import Grid, cell_name
from tui_games.engine.sudoku.sat import SolveResult, Status

__all__ = ["INSTALL_HINT", "SmtStats", "SmtUnavailable", "available", "build", "solve", "to_smt2"]

INSTALL_HINT = "the SMT solver needs Z3: pip install 'tui-games[smt]' (or pip install z3-solver)"


class SmtUnavailable(RuntimeError):
    """Z3 is not installed."""


class SmtStats(namedtuple("SmtStats", "variables assertions")):
    """Size of the SMT model: integer ``variables`` (one a cell) and ``assertions``."""

    __slots__ = ()


def _z3() -> Any:
    try:
        import z3  # type: ignore[import-untyped,unused-ignore]
    except ImportError:
        raise SmtUnavailable(INSTALL_HINT) from None
    return z3


def available() -> bool:
    """Whether Z3 can be imported."""
    try:
        _z3()
    except SmtUnavailable:
        return False
    return True


def _model(grid: Grid) -> tuple[list[Any], list[Any]]:
    """The cell variables and the assertions of ``grid`` (see the module docstring)."""
    z3 = _z3()
    geo = grid.geometry
    n = geo.size
    cells = [z3.Int(cell_name(c, n)) for c in range(geo.cells)]
    assertions = []
    for c, v in enumerate(grid.values):
        assertions.append(cells[c] == v if v else z3.And(cells[c] >= 1, cells[c] <= n))
    for unit in geo.units:
        assertions.append(z3.Distinct(*(cells[c] for c in unit)))
    variant = grid.variant
    if variant is not None:
        for cage in variant.cages:
            if len(cage.cells) > 1:
                assertions.append(z3.Distinct(*(cells[c] for c in cage.cells)))
            assertions.append(z3.Sum(*(cells[c] for c in cage.cells)) == cage.total)
    return cells, assertions


def build(grid: Grid) -> tuple[Any, list[Any], int]:
    """(a Z3 solver holding the model, the cell variables, the number of assertions)."""
    cells, assertions = _model(grid)
    solver = _z3().SolverFor("QF_FD")
    solver.add(*assertions)
    return solver, cells, len(assertions)


def solve(grid: Grid, *, unique: bool = True) -> SolveResult:
    """Solve ``grid`` with Z3: statuses as :func:`.sat.solve`."""
    z3 = _z3()
    start = time.perf_counter()
    solver, cells, assertions = build(grid)
    stats = SmtStats(len(cells), assertions)
    if solver.check() != z3.sat:
        return SolveResult(Status.NONE, None, 0, stats, time.perf_counter() - start)
    model = solver.model()
    solution = [model.eval(x).as_long() for x in cells]
    if not unique:
        return SolveResult(Status.SOLVED, solution, 1, stats, time.perf_counter() - start)
    open_cells = [c for c, v in enumerate(grid.values) if not v]
    solver.add(z3.Or(*(cells[c] != solution[c] for c in open_cells)) if open_cells else z3.BoolVal(False))
    several = solver.check() == z3.sat
    status = Status.SEVERAL if several else Status.UNIQUE
    return SolveResult(status, solution, 2 if several else 1, stats, time.perf_counter() - start)


def to_smt2(grid: Grid) -> str:
    """The SMT-LIB 2 text of ``grid``'s model, ending in ``(check-sat)`` and ``(get-model)``."""
    from tui_games.engine.sudoku.formats import format_variant_line

    _, assertions = _model(grid)
    plain = _z3().Solver()  # no logic of Z3's own in the text
    plain.add(*assertions)
    head = (f"; tui-games sudoku {grid.kind} puzzle, one Int a cell, Distinct per unit"
            f"{', Distinct and a sum per cage' if grid.variant is not None and grid.variant.cages else ''}\n"
            f"; puzzle {format_variant_line(grid)}\n(set-logic QF_LIA)\n")
    body = str(plain.to_smt2())
    if "(get-model)" not in body:
        body = body.rstrip() + "\n(get-model)\n"
    return head + body
