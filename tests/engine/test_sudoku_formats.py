"""Sudoku grid model and text formats: shapes, candidates, conflicts; the line, .sdk and Project
Euler formats with every class of bad input; round trips (hypothesis)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_games.engine.sudoku.formats import (
    SudokuFormatError,
    detect_format,
    format_euler,
    format_line,
    format_pretty,
    format_sdk,
    parse_grid,
    parse_puzzles,
    read_puzzles,
)
from tui_games.engine.sudoku.generator import random_solution
from tui_games.engine.sudoku.grid import (
    Grid,
    GridError,
    cell_name,
    geometry,
    mask_digits,
)

DATA = Path(__file__).parents[2] / "puzzles"
TOP95_1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


# -- geometry and the grid ---------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "box"), [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))])
def test_geometry_of_every_size(size, box):
    geo = geometry(size)
    assert (geo.box_rows, geo.box_cols) == box
    assert len(geo.units) == 3 * size
    for unit in geo.units:
        assert len(unit) == size == len(set(unit))
    # Every cell sees its row, column and box minus the overlaps.
    expected_peers = 3 * (size - 1) - (box[0] - 1) - (box[1] - 1)
    assert all(len(p) == expected_peers for p in geo.peers)
    assert len(geo.peer_pairs) == size * size * expected_peers // 2
    assert geometry(size) is geo, "cached: built once per shape"


def test_diagonal_geometry():
    geo = geometry(9, diagonal=True)
    assert len(geo.units) == 29
    assert geo.unit_names[-2:] == ("the main diagonal", "the anti-diagonal")
    assert geo.units[27] == tuple(range(0, 81, 10))
    assert 40 in geo.units[27] and 40 in geo.units[28]
    assert len(geo.peers[40]) == 20 + 12  # the centre is on both diagonals
    assert len(geo.peers[1]) == 20


def test_bad_size():
    with pytest.raises(GridError, match="4, 6, 9 or 16"):
        geometry(5)
    with pytest.raises(GridError, match="81 cells"):
        Grid([0] * 80)


def test_grid_edit_candidates_conflicts():
    grid = parse_grid(TOP95_1)
    assert grid.size == 9 and not grid.diagonal
    assert grid[0] == 4 and grid.givens[0] and not grid.givens[1]
    assert grid.candidates(1) == (1, 6, 7, 9)
    assert grid.candidate_mask(0) == 0
    with pytest.raises(GridError, match="r1c1 is a given"):
        grid.set(0, 5)
    grid.set(1, 4)  # a conflict the player may make
    assert grid.conflicts() == {0, 1}
    assert not grid.is_solved()
    grid.clear(1)
    assert grid.conflicts() == set()
    assert grid.puzzle() == parse_grid(TOP95_1)
    assert parse_grid(SOLVED).is_solved()
    assert parse_grid(TOP95_1).agrees_with([int(c) for c in SOLVED])
    grid.set(1, 6)
    assert grid.wrong_cells([int(c) for c in SOLVED]) == [1] and not grid.agrees_with([int(c) for c in SOLVED])
    grid.clear(1)
    assert cell_name(80) == "r9c9" and cell_name(255, 16) == "r16c16"
    assert mask_digits(0b101000001) == (1, 7, 9)
    assert grid.cell(8, 0) == 72
    with pytest.raises(GridError):
        grid.cell(9, 0)
    assert repr(parse_grid(TOP95_1)) == f"parse_grid({TOP95_1!r})"


# -- the line format ------------------------------------------------------------------------------


def test_lines_with_comments_blank_lines_and_zero_blanks():
    text = f"# a comment\n\n{TOP95_1}\n   \n{TOP95_1.replace('.', '0')}\n# end\n"
    entries = read_puzzles(text, "set.txt")
    assert [(e.number, e.line) for e in entries] == [(1, 3), (2, 5)]
    assert entries[0].grid == entries[1].grid == parse_grid(TOP95_1)
    assert detect_format(text) == "line"


@pytest.mark.parametrize(("line", "problem"), [
    (TOP95_1[:-1], "expected 81 characters, got 80"),
    (TOP95_1 + ".", "expected 81 characters, got 82"),
    (TOP95_1[:40] + "x" + TOP95_1[41:], "stray character 'x' at column 41"),
    (TOP95_1[:40] + "A" + TOP95_1[41:], "stray character 'A' at column 41"),
    ("44" + TOP95_1[2:], "digit 4 given twice in row 1: r1c1, r1c2"),
    (TOP95_1[:9] + "4" + TOP95_1[10:], "digit 4 given twice in column 1: r1c1, r2c1"),
    (TOP95_1[:10] + "4" + TOP95_1[11:], "digit 4 given twice in box 1: r1c1, r2c2"),
])
def test_bad_lines_name_source_line_and_problem(line, problem):
    text = f"{TOP95_1}\n# comment\n{line}\n{TOP95_1}\n"
    entries = read_puzzles(text, "puzzles.txt")
    assert [e.error is None for e in entries] == [True, False, True], "a bad line does not stop the batch"
    error = entries[1].error
    assert isinstance(error, SudokuFormatError) and isinstance(error, ValueError)
    assert error.problem.startswith(problem)
    assert str(error).startswith(f"puzzles.txt: line 3: {problem}")
    assert error.line == 3 and error.source == "puzzles.txt"
    with pytest.raises(SudokuFormatError, match="puzzles.txt: line 3"):
        parse_puzzles(text, "puzzles.txt")


def test_duplicate_on_a_diagonal_only_in_the_x_variant():
    line = "1" + "." * 9 + "1" + "." * 70  # r1c1 and r2c2: same box anyway
    with pytest.raises(SudokuFormatError, match="box 1"):
        parse_grid(line)
    line = "1" + "." * 39 + "1" + "." * 40  # r1c1 and r5c5: only the main diagonal
    assert parse_grid(line).values[40] == 1
    with pytest.raises(SudokuFormatError, match=r"digit 1 given twice in the main diagonal: r1c1, r5c5"):
        parse_grid(line, diagonal=True)


def test_the_first_puzzle_fixes_the_size():
    four = "1234341221434321"
    entries = read_puzzles(f"{four}\n{'.' * 81}\n")
    assert entries[0].grid.size == 4
    assert entries[1].error.problem == "expected 16 characters, got 81"
    assert read_puzzles("." * 36)[0].grid.size == 6
    assert read_puzzles("." * 256)[0].grid.size == 16
    assert read_puzzles("." * 50)[0].error.problem == "expected 81 characters, got 50"


def test_sixteen_by_sixteen_digits():
    row = "123456789ABCDEFG"
    grid = parse_grid(row + "." * 240)
    assert grid.values[:16] == list(range(1, 17))
    assert grid.format().startswith(row)
    assert parse_grid(row.lower() + "." * 240) == grid
    with pytest.raises(SudokuFormatError, match="stray character 'H'"):
        parse_grid("H" + "." * 255)


def test_parse_grid_wants_exactly_one_puzzle():
    with pytest.raises(SudokuFormatError, match="no puzzle"):
        parse_grid("# only a comment\n")
    with pytest.raises(SudokuFormatError, match="expected one puzzle, found 2"):
        parse_grid(f"{TOP95_1}\n{TOP95_1}\n")


# -- .sdk and Project Euler ------------------------------------------------------------------------


def test_sdk_with_headers_and_several_grids():
    grid = parse_grid(TOP95_1)
    text = format_sdk(grid, ["Aauthor", "Dtop95 number 1"]) + "\n" + format_sdk(grid)
    assert text.startswith("#Aauthor\n#Dtop95 number 1\n4.....8.5\n")
    assert detect_format(text) == "sdk"
    assert parse_puzzles(text) == [grid, grid]
    assert [e.line for e in read_puzzles(text)] == [3, 13]


def test_pretty_print_reads_back():
    grid = parse_grid(TOP95_1)
    pretty = format_pretty(grid)
    assert pretty.splitlines()[3] == "------+-------+------"
    assert parse_grid(pretty) == grid
    six = Grid([0] * 36, size=6)
    assert format_pretty(six).splitlines()[2] == "------+------"


def test_sdk_errors():
    rows = format_sdk(parse_grid(TOP95_1)).splitlines()
    short = "\n".join(rows[:4] + [rows[4][:8]] + rows[5:])
    error = read_puzzles(short, "p.sdk")[0].error
    assert str(error) == "p.sdk: puzzle 1: line 5: a row of 8 characters, expected 9"
    stray = "\n".join(rows[:2] + ["..x......"] + rows[3:])
    assert read_puzzles(stray, "p.sdk")[0].error.problem.startswith("stray character 'x' at column 3")
    missing = "\n".join(rows[:7])
    assert str(read_puzzles(missing, "p.sdk")[0].error) == "p.sdk: puzzle 1: line 1: puzzle 1 has 7 rows, expected 9"
    twice = "\n".join(["4...4...."] + rows[1:])
    assert "digit 4 given twice in row 1: r1c1, r1c5" in str(read_puzzles(twice, "p.sdk")[0].error)


def test_project_euler_blocks():
    lines = (DATA / "bench_sudoku_project_euler_96.txt").read_text().split()
    grids = [parse_grid(line) for line in lines]
    text = format_euler(grids)
    assert text.startswith("Grid 01\n003020600\n")
    assert detect_format(text) == "euler"
    assert parse_puzzles(text, "p096_sudoku.txt") == grids
    broken = text.replace("Grid 02\n200080300\n", "Grid 02\n")
    entries = read_puzzles(broken, "p096_sudoku.txt")
    assert str(entries[1].error) == "p096_sudoku.txt: puzzle 2: line 11: Grid 02 has 8 rows, expected 9"
    assert entries[2].grid == grids[2]
    orphan = read_puzzles("003020600\n" + text, "p.txt")
    assert detect_format("003020600\n" + text) == "sdk"
    assert orphan[0].error is not None
    stray = read_puzzles("12\nGrid 01\n" + "\n".join(lines[0][i:i + 9] for i in range(0, 81, 9)), "p.txt", fmt="euler")
    assert stray[0].error.problem == "rows before the first 'Grid NN' line"
    assert stray[1].grid == grids[0]


def test_read_puzzles_options():
    with pytest.raises(ValueError, match="unknown Sudoku format"):
        read_puzzles(TOP95_1, fmt="csv")
    with pytest.raises(ValueError, match="not 5"):
        read_puzzles(TOP95_1, size=5)


# -- round trips -----------------------------------------------------------------------------------


@cache
def _solution(size: int, seed: int) -> list[int]:
    return random_solution(seed, size=size)


@st.composite
def puzzles(draw, size=9):
    """A subset of a valid full grid, digits relabelled: every such puzzle parses."""
    solution = [int(c) for c in SOLVED] if size == 9 else _solution(size, draw(st.integers(0, 3)))
    perm = draw(st.permutations(list(range(1, size + 1))))
    keep = draw(st.lists(st.booleans(), min_size=size * size, max_size=size * size))
    return Grid([perm[v - 1] if k else 0 for v, k in zip(solution, keep)], size=size)


@settings(max_examples=40, deadline=None)
@given(puzzles(), st.sampled_from(".0"))
def test_line_round_trip(grid, blank):
    assert parse_grid(format_line(grid, blank)) == grid


@settings(max_examples=25, deadline=None)
@given(st.lists(puzzles(), min_size=1, max_size=4))
def test_block_formats_round_trip(grids):
    assert parse_puzzles(format_euler(grids)) == grids
    assert parse_puzzles("\n".join(format_sdk(g, ["Dx"]) for g in grids)) == grids
    assert parse_puzzles("\n\n".join(format_pretty(g) for g in grids)) == grids


@settings(max_examples=20, deadline=None)
@given(st.sampled_from([4, 6, 16]).flatmap(lambda n: puzzles(n)))
def test_other_sizes_round_trip(grid):
    assert parse_grid(format_line(grid)) == grid
    assert parse_grid(format_sdk(grid), size=grid.size) == grid
