"""Killer and Jigsaw: their line formats with every class of bad line, the SAT encodings
(combinations, sequential sums) and Z3 against the published solution of the Wikipedia
Killer and against an independent brute-force solver's, the DIMACS read back by pycosat, the
SMT-LIB text, and a saved game's round trip."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pycosat
import pytest

from tui_games.engine.sudoku import sat, smt
from tui_games.engine.sudoku.formats import (
    SudokuFormatError,
    format_jigsaw,
    format_killer,
    parse_jigsaw,
    parse_killer,
    read_puzzles,
)
from tui_games.engine.sudoku.game import SudokuGame
from tui_games.engine.sudoku.grid import Grid, cell_name
from tui_games.engine.sudoku.variant_generator import unique_jigsaw

# The Killer of Wikipedia's article (the public-domain image Killersudoku_color.svg by Toon
# Spin), its cages as transcribed in CSPLib problem 57's MiniZinc model (Hakan Kjellerstrand,
# CC BY 4.0), and the solution that model prints.
WIKIPEDIA = ("AABBBCDEFGGHHCCDEFGGIICJKKFLMMINJKOFLPPQNJOORSPTQNUVVRSTTQWUUXXSYZWWaaXXSYZWbbbcc "
             "3,15,22,4,16,15,25,17,9,8,20,6,14,17,17,13,20,12,27,6,20,6,10,14,8,16,15,13,17")
WIKIPEDIA_SOLUTION = ("215647398" "368952174" "794381652" "586274931" "142593867"
                      "973816425" "821739546" "659428713" "437165289")
# Held-out Killers made by the test's own generator (tests/engine/killer_reference.py, which
# shares no code with the engine), each with the one solution its brute-force solver found.
HELD_OUT = Path(__file__).parents[1] / "data" / "killer_reference.txt"
PUZZLES = Path(__file__).parents[2] / "puzzles"


def held_out() -> list[tuple[str, str]]:
    lines = [line.split() for line in HELD_OUT.read_text().splitlines() if line and not line.startswith("#")]
    return [(f"{labels} {sums}", solution) for labels, sums, solution in lines]


def hardest_held_out() -> Grid:
    """The held-out Killer whose CNF propagation leaves largest (most need the solver)."""
    return max((parse_killer(line) for line, _ in held_out()), key=lambda g: sat.encode(g).stats.clauses)


def digits(solution: list[int] | None) -> str:
    assert solution is not None
    return "".join(map(str, solution))


# -- formats ------------------------------------------------------------------------------------------


def test_the_wikipedia_killer_reads_and_writes_back() -> None:
    grid = parse_killer(WIKIPEDIA)
    assert grid.kind == "killer" and len(grid.variant.cages) == 29
    assert grid.variant.cage_at(0).total == 3 and grid.variant.cage_at(0).cells == (0, 1)
    assert format_killer(grid) == WIKIPEDIA


LABELS = WIKIPEDIA.split()[0]
SUMS = WIKIPEDIA.split()[1]


@pytest.mark.parametrize("line, problem", [
    (LABELS, "expected 81 cage labels, a space, then the cage sums, got 1 field"),
    (LABELS[:80] + " " + SUMS, "expected 81 cells before the space, got 80"),
    ("#" + LABELS[1:] + " " + SUMS, "'#' at column 1 is no cage label (A-Z, a-z, 0-9)"),
    (LABELS + " " + SUMS + ",4", "29 cages but 30 sums"),
    (LABELS + " " + SUMS.replace("3,", "x,", 1), "sum 1 ('x', cage 'A') is not a number"),
    (LABELS + " " + "2" + SUMS[1:], "cage 'A' sums to 2, impossible for 2 cells (different digits make 3 to 17)"),
    # r9c9 relabelled 'A': cage A is now in two places.
    (LABELS[:80] + "A " + SUMS, "cage label 'A' is used in two places that do not touch: r1c1 and r9c9"),
    (LABELS + " " + "4" + SUMS[1:], "the cage sums add up to 406; a full grid's digits add up to 405"),
])
def test_a_bad_killer_line_says_what_is_wrong(line: str, problem: str) -> None:
    with pytest.raises(SudokuFormatError) as caught:
        parse_killer(line)
    assert caught.value.problem == problem


def test_read_puzzles_names_the_line_of_a_bad_killer() -> None:
    text = f"# two Killers\n{WIKIPEDIA}\n\n{LABELS} 3,15\n"
    entries = read_puzzles(text, "k.txt", variant="killer")
    assert [e.line for e in entries] == [2, 4]
    assert entries[0].grid is not None
    assert str(entries[1].error) == "k.txt: line 4: 29 cages but 2 sums"


BOX_REGIONS = "".join(str((r // 3) * 3 + c // 3 + 1) for r in range(9) for c in range(9))
# Box 1 gives r3c3 to box 2 and takes r1c4: still nine connected cells each.
TRADED = BOX_REGIONS[:3] + "1" + BOX_REGIONS[4:20] + "2" + BOX_REGIONS[21:]


def test_a_jigsaw_reads_writes_back_and_its_regions_are_units() -> None:
    givens = "." * 81
    grid = parse_jigsaw(f"{TRADED} {givens}")
    assert grid.kind == "jigsaw" and grid.geometry.unit_names[18] == "region 1"
    assert 3 in grid.geometry.units[18]
    assert format_jigsaw(grid) == f"{TRADED} {givens}"


@pytest.mark.parametrize("regions, givens, problem", [
    (TRADED[:80], "." * 81, "expected 81 cells before the space, got 80"),
    (TRADED[:5] + "0" + TRADED[6:], "." * 81, "'0' at column 6 is no region digit (1-9)"),
    (TRADED[:4] + "1" + TRADED[5:], "." * 81, "region 1 has 10 cells, not 9"),
    (TRADED, "." * 80, "expected 81 givens after the space, got 80"),
    (TRADED, "." * 3 + "1" + "." * 5 + "1" + "." * 71, "digit 1 given twice in region 1: r1c4, r2c1"),
    (TRADED, "x" + "." * 80, "stray character 'x' at column 83 (digits are 1-9, blanks '.' or '0')"),
])
def test_a_bad_jigsaw_line_says_what_is_wrong(regions: str, givens: str, problem: str) -> None:
    with pytest.raises(SudokuFormatError) as caught:
        parse_jigsaw(f"{regions} {givens}")
    assert caught.value.problem == problem


def test_regions_replace_the_boxes() -> None:
    # r1c1 and r3c3 share box 1 in the classic grid, and no unit once r3c3 is in region 2.
    givens = "1" + "." * 19 + "1" + "." * 60
    assert parse_jigsaw(f"{TRADED} {givens}").values[20] == 1
    with pytest.raises(SudokuFormatError, match="given twice in region 1"):
        parse_jigsaw(f"{BOX_REGIONS} {givens}")


def test_a_region_in_two_pieces_is_named() -> None:
    # r1c1 (region 1) and r9c9 (region 9) trade places: neither region is one piece.
    broken = "9" + BOX_REGIONS[1:80] + "1"
    with pytest.raises(SudokuFormatError, match="region 1 is not one connected piece"):
        parse_jigsaw(f"{broken} {'.' * 81}")


# -- solvers ------------------------------------------------------------------------------------------

needs_z3 = pytest.mark.skipif(not smt.available(), reason="Z3 (the optional extra 'smt') is not installed")


@pytest.mark.parametrize("encoding", sat.CAGE_ENCODINGS)
def test_sat_solves_the_wikipedia_killer_as_published(encoding: str) -> None:
    result = sat.solve(parse_killer(WIKIPEDIA), cage_encoding=encoding)
    assert result.status is sat.Status.UNIQUE
    assert digits(result.solution) == WIKIPEDIA_SOLUTION
    solved = Grid(result.solution, variant=parse_killer(WIKIPEDIA).variant)
    assert solved.is_solved() and solved.cage_problems() == []


@needs_z3
def test_smt_solves_the_wikipedia_killer_as_published() -> None:
    result = smt.solve(parse_killer(WIKIPEDIA))
    assert result.status is sat.Status.UNIQUE and digits(result.solution) == WIKIPEDIA_SOLUTION
    assert result.stats.variables == 81 and result.stats.assertions == 81 + 27 + 2 * 29


def test_a_killer_with_many_solutions_is_found_out_by_every_encoding() -> None:
    # Nine row cages of 45 say nothing a Sudoku does not: every full grid is a solution.
    labels = "".join("ABCDEFGHI"[r] for r in range(9) for _ in range(9))
    grid = parse_killer(f"{labels} {','.join(['45'] * 9)}")
    for encoding in sat.CAGE_ENCODINGS:
        result = sat.solve(grid, cage_encoding=encoding)
        assert result.status is sat.Status.SEVERAL and result.count == 2, encoding
        assert len({tuple(s) for s in sat.solutions(grid, limit=3)}) == 3


def test_the_sum_encoding_counts_grids_not_models() -> None:
    # Its partial-sum variables may take several values for one grid: the count blocks on
    # the cells only, so a Killer with one solution stays unique.
    grid = hardest_held_out()
    encoding = sat.encode(grid, sat.SUMS)
    assert encoding.aux and not encoding.determined
    assert sat.count_solutions(grid, 3) == 1
    assert sat.solve(grid, cage_encoding=sat.SUMS).count == 1


def test_propagation_alone_solves_the_wikipedia_killer() -> None:
    # Cage combinations, a digit the cage needs in one cell or one unit, and the classic
    # singles and intersections leave the solver nothing to do.
    encoding = sat.encode(parse_killer(WIKIPEDIA))
    assert encoding.stats.propagated == 81 and not encoding.clauses
    assert "".join(map(str, encoding.values)) == WIKIPEDIA_SOLUTION


def read_dimacs(text: str) -> tuple[list[list[int]], dict[int, tuple[str, int]], dict[str, int]]:
    """Clauses, the ``c var`` table and the ``c fixed`` cells of a DIMACS text."""
    clauses, table, fixed = [], {}, {}
    header = None
    for line in text.splitlines():
        if line.startswith("c var "):
            _, _, var, name, digit = line.split()
            table[int(var)] = (name, int(digit))
        elif line.startswith("c fixed "):
            _, _, name, digit = line.split()
            fixed[name] = int(digit)
        elif line.startswith("p cnf "):
            header = tuple(int(x) for x in line.split()[2:])
        elif line and not line.startswith("c"):
            literals = [int(x) for x in line.split()]
            assert literals[-1] == 0
            clauses.append(literals[:-1])
    assert header is not None and header[1] == len(clauses)
    assert all(abs(lit) <= header[0] for clause in clauses for lit in clause)
    return clauses, table, fixed


@pytest.mark.parametrize("kind", ["classic", "killer", "jigsaw"])
def test_the_dimacs_read_back_by_pycosat_gives_the_same_solution(kind: str) -> None:
    if kind == "killer":
        grid = hardest_held_out()
    elif kind == "jigsaw":
        # Generated Jigsaws (random regions, dug while unique) until one propagation does not finish.
        rng = random.Random(7)
        grid = unique_jigsaw(rng)[0]
        while not sat.encode(grid).clauses:
            grid = unique_jigsaw(rng)[0]
    else:
        # The first of the forum's hardest in the shipped samples: propagation fills no cell of it.
        line = (PUZZLES / "bench_sudoku_tdoku_forum_hardest_1106_100.txt").read_text().split()[0]
        grid = Grid([int(ch) if ch != "." else 0 for ch in line])
    expected = sat.solve(grid)
    assert expected.unique
    text = sat.to_dimacs(grid)
    if kind == "killer":
        assert "c aux " in text and " holds {" in text  # the combination variables, described
    clauses, table, fixed = read_dimacs(text)
    assert clauses
    model = pycosat.solve(clauses)
    assert model != "UNSAT"
    values = dict(fixed)
    for literal in model:
        if literal > 0 and literal in table:
            name, digit = table[literal]
            assert name not in values
            values[name] = digit
    assert [values[cell_name(c)] for c in range(81)] == expected.solution


def test_the_dimacs_of_a_refuted_puzzle_is_the_empty_clause() -> None:
    grid = Grid([1, 2, 3, 4, 5, 6, 7, 8, 0] + [0] * 8 + [9] + [0] * 63)
    text = sat.to_dimacs(grid)
    assert "p cnf 0 1\n0\n" in text and pycosat.solve(read_dimacs(text)[0]) == "UNSAT"


@needs_z3
def test_the_smt2_text_declares_every_cell_and_states_every_cage() -> None:
    text = smt.to_smt2(parse_killer(WIKIPEDIA))
    assert text.count("(declare-fun r") == 81
    assert "(set-logic QF_LIA)" in text and text.rstrip().endswith("(get-model)")
    assert re.search(r"\(= \(\+ r1c1 r1c2\) 3\)", text)
    # Z3 reads its own text back: one model, the published solution.
    import z3

    solver = z3.SolverFor("QF_FD")  # the logic smt.py solves with: seconds faster than QF_LIA's
    solver.from_string(text)
    assert solver.check() == z3.sat
    model = solver.model()
    assert "".join(str(model.eval(z3.Int(cell_name(c))).as_long()) for c in range(81)) == WIKIPEDIA_SOLUTION


def test_held_out_killers_solve_to_the_brute_force_solution_with_both_encodings() -> None:
    puzzles = held_out()
    assert len(puzzles) >= 10
    for line, solution in puzzles:
        grid = parse_killer(line)
        for encoding in sat.CAGE_ENCODINGS:
            result = sat.solve(grid, cage_encoding=encoding)
            assert result.status is sat.Status.UNIQUE and digits(result.solution) == solution, (line, encoding)


@needs_z3
def test_held_out_killers_solve_identically_with_z3() -> None:
    for line, solution in held_out()[:10]:
        result = smt.solve(parse_killer(line))
        assert result.status is sat.Status.UNIQUE and digits(result.solution) == solution, line


def test_the_brute_force_reference_agrees_on_the_wikipedia_killer() -> None:
    import killer_reference

    grid = parse_killer(WIKIPEDIA)
    cages = [(cage.total, list(cage.cells)) for cage in grid.variant.cages]
    found, first = killer_reference.count(cages)
    assert found == 1 and digits(first) == WIKIPEDIA_SOLUTION


# -- a saved game -------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["killer", "jigsaw"])
def test_a_saved_game_keeps_its_variant(kind: str) -> None:
    grid = parse_killer(WIKIPEDIA) if kind == "killer" else parse_jigsaw(f"{TRADED} {'.' * 81}")
    solution = sat.solve(grid).solution if kind == "killer" else None
    game = SudokuGame(grid, solution)
    game.place(2, 5)
    game.toggle_mark(4, 6)
    data = game.to_dict()
    assert data["variant"] == kind
    back = SudokuGame.from_dict(data)
    assert back.grid.variant == grid.variant and back.grid.values == game.grid.values
    assert back.marks == game.marks and back.to_dict() == data
    if kind == "killer":
        # Placing a digit takes it out of the cage mates' marks too.
        back.toggle_mark(3, 4)
        back.place(2, 4)
        assert not back.marks[3] >> 3 & 1


def test_a_damaged_saved_layout_is_a_value_error() -> None:
    data = SudokuGame(parse_killer(WIKIPEDIA)).to_dict()
    data["layout"] = data["layout"].replace("3,", "2,", 1)
    with pytest.raises(ValueError, match="the saved killer layout is damaged: cage 'A' sums to 2"):
        SudokuGame.from_dict(data)
