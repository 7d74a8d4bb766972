"""Reading and writing Sudoku puzzles as text. Functions take text, never files: the CLI reads
the file and passes its text with a ``source`` name that error messages quote.

Three formats, told apart by :func:`detect_format`:

- ``line``: one puzzle per line, every cell row by row (81 characters for 9×9; 16, 36 and
  256 for the other sizes), digits ``1``-``9`` (``A``-``G`` past 9), ``.`` or ``0`` for a
  blank. Lines starting with ``#`` are comments; blank lines are skipped. The first puzzle
  fixes the size for the rest of the text, so a truncated line is an error, not a smaller
  grid.
- ``sdk``: one row per line (9 lines of 9 characters), ``#`` header lines (``#A author``,
  ``#D description`` ...) skipped. Several puzzles may follow each other; spaces and ``|``
  inside a row, and separator lines of ``-``, ``+`` and ``=``, are ignored so that a grid
  pasted from a pretty print reads too.
- ``euler``: Project Euler 96 blocks, a ``Grid NN`` line and then one row per line.

Two one-line formats for the variants (9×9 only), read when the caller names the variant
(``variant="killer"`` or ``"jigsaw"``; the text cannot say):

- ``killer``: the 81 cells' cage labels, one character a cage from ``A-Za-z0-9``, a space,
  then the cage sums in the order their labels first appear, comma-separated::

      AABBBCDDE... 3,15,22,4,16,...

  A label is one cage: used in two places that do not touch, it is an error, as is a sum
  impossible for its cage's size or cage sums that do not add up to 405.
- ``jigsaw``: the 81 cells' region digits ``1``-``9``, a space, then the 81-character
  givens of the line format. Each region holds nine connected cells.

Every problem is a :class:`SudokuFormatError` whose message names the source, the line (and,
for block formats, the puzzle number) and the problem: a wrong length, a stray character with
its column, or a digit given twice in a unit with the cells (``r3c5``, ``r3c8``).
:func:`read_puzzles` returns an entry per puzzle, good or bad, so a batch tool reports each
bad puzzle and goes on; :func:`parse_puzzles` and :func:`parse_grid` raise on the first one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, NamedTuple, cast

from tui_games.engine.sudoku.grid import BOX_SHAPES, DIGITS, Grid, cell_name, digit_char
from tui_games.engine.sudoku.variants import JIGSAW, KILLER, Cage, Variant, VariantError, cage_bounds

__all__ = [
    "CAGE_LABELS", "FORMATS", "VARIANTS", "PuzzleEntry", "SudokuFormatError", "detect_format", "format_euler",
    "format_jigsaw", "format_killer", "format_line", "format_pretty", "format_sdk", "format_variant_line",
    "parse_grid", "parse_jigsaw", "parse_killer", "parse_puzzles", "read_puzzles",
]

FORMATS = ("line", "sdk", "euler")
LINE_SIZES = {size * size: size for size in BOX_SHAPES}
BLANKS = ".0"
_EULER_HEADER = re.compile(r"grid\s*\d+\s*$", re.IGNORECASE)
_SEPARATOR = re.compile(r"[-+=|\s]+$")
_IGNORED_IN_ROW = str.maketrans("", "", " \t|")


class SudokuFormatError(ValueError):
    """A malformed puzzle. ``problem`` is the bare problem (what ``# line N: ...`` prints);
    the message adds the source, the line and, for block formats, the puzzle number."""

    def __init__(self, problem: str, *, source: str = "<text>", line: int | None = None,
                 puzzle: int | None = None, prose: bool = False) -> None:
        self.problem = problem
        # The text is no puzzle at all (words, not a malformed grid): a batch tool's wrong input.
        self.prose = prose
        self.source = source
        self.line = line
        self.puzzle = puzzle
        where = [source]
        if puzzle is not None:
            where.append(f"puzzle {puzzle}")
        if line is not None:
            where.append(f"line {line}")
        super().__init__(f"{': '.join(where)}: {problem}")


class PuzzleEntry(NamedTuple):
    """One puzzle of a text: its ``number`` (1-based), its first ``line``, and the ``grid``
    (a :class:`Grid`) or the ``error`` (a :class:`SudokuFormatError`)."""

    number: int
    line: int
    grid: Grid | None
    error: SudokuFormatError | None = None


def _is_data(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#")


def detect_format(text: str, size: int | None = None) -> str:
    """``line``, ``sdk`` or ``euler``, from the first line that is not blank or a comment.

    A first line of one grid's width (4, 6 or 9 characters, or 16 with a character no 4×4
    puzzle has, or ``size`` characters when the size is known) starts an ``sdk`` grid;
    ``Grid NN`` a Project Euler block; anything else is the line format (whose errors then
    say what is wrong).
    """
    for raw in text.splitlines():
        if not _is_data(raw):
            continue
        line = raw.strip()
        if _EULER_HEADER.match(line):
            return "euler"
        if _SEPARATOR.match(line):
            return "sdk"
        row = line.translate(_IGNORED_IN_ROW)
        if len(row) in (4, 6, 9) or len(row) == size:
            return "sdk"
        if len(row) == 16 and any(ch not in "1234.0" for ch in row):
            return "sdk"
        return "line"
    return "line"


def _cells(row: str, size: int) -> tuple[list[int], int | None, str | None]:
    """The digits of a row of text, or the 0-based index of the first stray character."""
    out = []
    for i, ch in enumerate(row):
        if ch in BLANKS:
            out.append(0)
            continue
        index = DIGITS.find(ch.upper())
        if 0 <= index < size:
            out.append(index + 1)
        else:
            return out, i, ch
    return out, None, None


def _stray(ch: str, column: int, size: int) -> str:
    top = digit_char(size)
    return f"stray character {ch!r} at column {column} (digits are 1-{top}, blanks '.' or '0')"


def _check_duplicates(grid: Grid) -> str | None:
    duplicates = grid.duplicates()
    if not duplicates:
        return None
    unit, digit, cells = duplicates[0]
    names = ", ".join(cell_name(c, grid.size) for c in cells)
    return f"digit {digit_char(digit)} given twice in {grid.geometry.unit_names[unit]}: {names}"


def _build(values: list[int], size: int, diagonal: bool, source: str, line: int,
           puzzle: int | None) -> Grid:
    grid = Grid(values, size=size, diagonal=diagonal)
    problem = _check_duplicates(grid)
    if problem is not None:
        raise SudokuFormatError(problem, source=source, line=line, puzzle=puzzle)
    return grid


def _read_lines(text: str, source: str, size: int | None, diagonal: bool) -> list[PuzzleEntry]:
    entries: list[PuzzleEntry] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not _is_data(raw):
            continue
        line = raw.strip()
        index = len(entries) + 1
        try:
            if size is None and len(line) in LINE_SIZES:
                size = LINE_SIZES[len(line)]
            expected = (size or 9) ** 2
            if len(line) != expected:
                raise SudokuFormatError(f"expected {expected} characters, got {len(line)}",
                                        source=source, line=number)
            values, stray, ch = _cells(line, size or 9)
            if stray is not None:
                raise SudokuFormatError(_stray(cast(str, ch), stray + 1, size or 9), source=source, line=number)
            entries.append(PuzzleEntry(index, number, _build(values, size or 9, diagonal, source, number, None)))
        except SudokuFormatError as error:
            entries.append(PuzzleEntry(index, number, None, error))
    return entries


def _read_rows(rows: list[tuple[int, str]], index: int, first_line: int, size: int, diagonal: bool,
               source: str, name: str) -> PuzzleEntry:
    """One block puzzle from its ``(line number, text)`` rows."""
    try:
        if len(rows) != size:
            raise SudokuFormatError(f"{name} has {len(rows)} rows, expected {size}", source=source,
                                    line=first_line, puzzle=index)
        values: list[int] = []
        for number, raw in rows:
            row = raw.strip().translate(_IGNORED_IN_ROW)
            if len(row) != size:
                raise SudokuFormatError(f"a row of {len(row)} characters, expected {size}",
                                        source=source, line=number, puzzle=index)
            cells, stray, ch = _cells(row, size)
            if stray is not None:
                raise SudokuFormatError(_stray(cast(str, ch), raw.index(cast(str, ch)) + 1, size), source=source, line=number,
                                        puzzle=index)
            values.extend(cells)
        return PuzzleEntry(index, first_line, _build(values, size, diagonal, source, first_line, index))
    except SudokuFormatError as error:
        return PuzzleEntry(index, first_line, None, error)


def _read_sdk(text: str, source: str, size: int | None, diagonal: bool) -> list[PuzzleEntry]:
    # Runs of consecutive rows, cut by blank, comment and separator lines; a run holds one
    # puzzle or several stacked without a gap.
    runs: list[list[tuple[int, str]]] = [[]]
    for number, raw in enumerate(text.splitlines(), 1):
        if not _is_data(raw):
            if runs[-1]:
                runs.append([])
            continue
        if _SEPARATOR.match(raw.strip()):
            continue  # inside a pretty-printed grid
        runs[-1].append((number, raw))
    entries: list[PuzzleEntry] = []
    for run in runs:
        if not run:
            continue
        if size is None:
            width = len(run[0][1].strip().translate(_IGNORED_IN_ROW))
            size = width if width in BOX_SHAPES else 9
        for start in range(0, len(run), size):
            rows = run[start:start + size]
            index = len(entries) + 1
            entries.append(_read_rows(rows, index, rows[0][0], size, diagonal, source, f"puzzle {index}"))
    return entries


def _read_euler(text: str, source: str, size: int | None, diagonal: bool) -> list[PuzzleEntry]:
    size = size or 9
    blocks: list[tuple[int, str, list[tuple[int, str]]]] = []
    stray_rows: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not _is_data(raw):
            continue
        line = raw.strip()
        if _EULER_HEADER.match(line):
            blocks.append((number, line, []))
        elif blocks:
            blocks[-1][2].append((number, raw))
        else:
            stray_rows.append(number)
    entries = []
    if stray_rows:
        entries.append(PuzzleEntry(1, stray_rows[0], None, SudokuFormatError(
            "rows before the first 'Grid NN' line", source=source, line=stray_rows[0], puzzle=1)))
    for number, header, rows in blocks:
        index = len(entries) + 1
        entries.append(_read_rows(rows, index, number, size, diagonal, source, header))
    return entries


_READERS = {"line": _read_lines, "sdk": _read_sdk, "euler": _read_euler}


# Every character some puzzle line may hold, whatever its size: digits up to 16 ('G'), blanks,
# and what a pretty print puts between cells.
_PUZZLE_CHARS = frozenset(DIGITS[:16] + DIGITS[9:16].lower() + BLANKS + " \t|-+=")


def _prose(line: str) -> str | None:
    """Why a line is no puzzle text at all, or None: two or more characters no puzzle holds.

    Checked on the first line before any length: "expected 16 rows" for a line of prose
    guesses at a size the text never had. One stray character is a typo in a puzzle, which
    the readers name with its column.
    """
    strays = [(column, ch) for column, ch in enumerate(line, 1) if ch not in _PUZZLE_CHARS]
    if len(strays) < 2:
        return None
    column, ch = strays[0]
    return (f"not a puzzle: {ch!r} at column {column} is no digit or blank (puzzles hold 1-9, "
            "A-G past 9, and '.' or '0' for a blank)")


def read_puzzles(text: str, source: str = "<text>", *, diagonal: bool = False, size: int | None = None,
                 fmt: str | None = None, variant: str | None = None) -> list[PuzzleEntry]:
    """Every puzzle of ``text``, in order, each a grid or the error that stops it.

    ``fmt`` is one of :data:`FORMATS` (default: :func:`detect_format`); ``size`` forces a grid
    size (default: from the first puzzle); ``diagonal`` makes every grid the X variant (the
    text does not say). ``variant`` ``killer`` or ``jigsaw`` reads that variant's line
    format instead (one puzzle a line; ``classic`` or None: the formats above).
    """
    if variant in VARIANTS:
        return _read_variant_lines(text, source, variant)
    if variant not in (None, "classic", "diagonal"):
        raise ValueError(f"unknown Sudoku variant {variant!r}; choose classic, diagonal, {', '.join(VARIANTS)}")
    for number, raw in enumerate(text.splitlines(), 1):
        if _is_data(raw):
            problem = None if _EULER_HEADER.match(raw.strip()) else _prose(raw.strip())
            if problem is not None:
                return [PuzzleEntry(1, number, None, SudokuFormatError(problem, source=source, line=number,
                                                                       prose=True))]
            break
    fmt = fmt or detect_format(text, size)
    if fmt not in _READERS:
        raise ValueError(f"unknown Sudoku format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if size is not None and size not in BOX_SHAPES:
        raise ValueError(f"a Sudoku grid is 4, 6, 9 or 16 cells wide, not {size}")
    return _READERS[fmt](text, source, size, diagonal)


def parse_puzzles(text: str, source: str = "<text>", **options: Any) -> list[Grid]:
    """Every puzzle of ``text``; raises the first :class:`SudokuFormatError`."""
    grids = []
    for entry in read_puzzles(text, source, **options):
        if entry.error is not None:
            raise entry.error
        grids.append(cast(Grid, entry.grid))  # no error: a grid
    return grids


def parse_grid(text: str, source: str = "puzzle", *, diagonal: bool = False, size: int | None = None) -> Grid:
    """Exactly one puzzle, in any format (an 81-character line, or a grid of rows)."""
    entries = read_puzzles(text, source, diagonal=diagonal, size=size)
    if not entries:
        raise SudokuFormatError("no puzzle in the text", source=source)
    if entries[0].error is not None:
        raise entries[0].error
    if len(entries) > 1:
        raise SudokuFormatError(f"expected one puzzle, found {len(entries)}", source=source,
                                line=entries[1].line)
    return cast(Grid, entries[0].grid)  # no error: a grid


# -- writing ---------------------------------------------------------------------------------------


def format_line(grid: Grid, blank: str = ".") -> str:
    """The one-line form (81 characters for 9×9)."""
    return grid.format(blank)


def format_sdk(grid: Grid, headers: Iterable[str] = ()) -> str:
    """``#`` header lines, then one row per line."""
    text = grid.format(".")
    n = grid.size
    rows = [text[r * n:(r + 1) * n] for r in range(n)]
    return "\n".join([*(f"#{h}" for h in headers), *rows]) + "\n"


def format_euler(grids: Iterable[Grid]) -> str:
    """Project Euler 96 blocks: ``Grid 01`` and nine rows of digits, 0 for blank."""
    out = []
    for number, grid in enumerate(grids, 1):
        text = grid.format("0")
        n = grid.size
        out.append(f"Grid {number:02d}")
        out.extend(text[r * n:(r + 1) * n] for r in range(n))
    return "\n".join(out) + "\n"


def format_pretty(grid: Grid, blank: str = ".") -> str:
    """The grid with spaces between cells and lines between boxes, for people to read."""
    geo = grid.geometry
    n = grid.size
    text = grid.format(blank)
    stacks = n // geo.box_cols
    lines = []
    for r in range(n):
        if r and r % geo.box_rows == 0:
            lines.append("-+-".join(["-" * (2 * geo.box_cols - 1)] * stacks))
        row = text[r * n:(r + 1) * n]
        parts = [" ".join(row[s * geo.box_cols:(s + 1) * geo.box_cols]) for s in range(stacks)]
        lines.append(" | ".join(parts))
    return "\n".join(lines)


# -- Killer and Jigsaw lines --------------------------------------------------------------------------

VARIANTS = (KILLER, JIGSAW)
CAGE_LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_LABEL_SET = frozenset(CAGE_LABELS)
_REGION_DIGITS = frozenset("123456789")
_CELLS = 81


def _split_fields(line: str, what: str) -> tuple[str, str]:
    fields = line.split()
    if len(fields) != 2:
        raise SudokuFormatError(f"expected {what}, got {len(fields)} field{'s' if len(fields) != 1 else ''}")
    first, second = fields
    if len(first) != _CELLS:
        raise SudokuFormatError(f"expected {_CELLS} cells before the space, got {len(first)}")
    return first, second


def _pieces(labels: str, label: str) -> list[tuple[int, ...]]:
    """The connected pieces of the cells marked ``label``, each sorted, in reading order."""
    left = {c for c, ch in enumerate(labels) if ch == label}
    pieces = []
    while left:
        start = min(left)
        piece, todo = {start}, [start]
        left.discard(start)
        while todo:
            row, col = divmod(todo.pop(), 9)
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                other = r * 9 + c
                if 0 <= r < 9 and 0 <= c < 9 and other in left:
                    left.discard(other)
                    piece.add(other)
                    todo.append(other)
        pieces.append(tuple(sorted(piece)))
    return sorted(pieces)


def parse_killer(line: str) -> Grid:
    """A Killer from its line (see the module docstring); SudokuFormatError names the problem."""
    labels, sums_text = _split_fields(line.strip(), f"{_CELLS} cage labels, a space, then the cage sums")
    for column, ch in enumerate(labels, 1):
        if ch not in _LABEL_SET:
            raise SudokuFormatError(f"{ch!r} at column {column} is no cage label (A-Z, a-z, 0-9)")
    order: list[str] = []
    for ch in labels:
        if ch not in order:
            order.append(ch)
    sums = sums_text.split(",")
    if len(sums) != len(order):
        raise SudokuFormatError(f"{len(order)} cages but {len(sums)} sums")
    cages = []
    for number, (label, text) in enumerate(zip(order, sums), 1):
        if not text.isdigit():
            raise SudokuFormatError(f"sum {number} ({text!r}, cage {label!r}) is not a number")
        pieces = _pieces(labels, label)
        if len(pieces) > 1:
            raise SudokuFormatError(f"cage label {label!r} is used in two places that do not touch: "
                                    f"{cell_name(pieces[0][0])} and {cell_name(pieces[1][0])}")
        cells = pieces[0]
        total = int(text)
        low, high = cage_bounds(len(cells))
        if len(cells) > 9:
            raise SudokuFormatError(f"cage {label!r} has {len(cells)} cells; a cage holds at most 9, all different")
        if not low <= total <= high:
            raise SudokuFormatError(f"cage {label!r} sums to {total}, impossible for {len(cells)} cell"
                                    f"{'s' if len(cells) > 1 else ''} (different digits make {low} to {high})")
        cages.append(Cage(total, cells))
    try:
        variant = Variant(cages=tuple(cages))
    except VariantError as error:
        raise SudokuFormatError(str(error)) from None
    return Grid(variant=variant)


def parse_jigsaw(line: str) -> Grid:
    """A Jigsaw from its line (see the module docstring); SudokuFormatError names the problem."""
    regions_text, givens = _split_fields(line.strip(), f"{_CELLS} region digits, a space, then {_CELLS} givens")
    for column, ch in enumerate(regions_text, 1):
        if ch not in _REGION_DIGITS:
            raise SudokuFormatError(f"{ch!r} at column {column} is no region digit (1-9)")
    regions = []
    for digit in "123456789":
        cells = tuple(c for c, ch in enumerate(regions_text) if ch == digit)
        if len(cells) != 9:
            raise SudokuFormatError(f"region {digit} has {len(cells)} cells, not 9")
        regions.append(cells)
    try:
        variant = Variant(regions=tuple(regions))
    except VariantError as error:
        raise SudokuFormatError(str(error)) from None
    if len(givens) != _CELLS:
        raise SudokuFormatError(f"expected {_CELLS} givens after the space, got {len(givens)}")
    values, stray, bad = _cells(givens, 9)
    if stray is not None:
        raise SudokuFormatError(_stray(cast(str, bad), _CELLS + 2 + stray, 9))
    grid = Grid(values, variant=variant)
    problem = _check_duplicates(grid)
    if problem is not None:
        raise SudokuFormatError(problem)
    return grid


_VARIANT_READERS = {KILLER: parse_killer, JIGSAW: parse_jigsaw}


def _read_variant_lines(text: str, source: str, variant: str) -> list[PuzzleEntry]:
    read = _VARIANT_READERS[variant]
    entries: list[PuzzleEntry] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not _is_data(raw):
            continue
        index = len(entries) + 1
        try:
            entries.append(PuzzleEntry(index, number, read(raw)))
        except SudokuFormatError as error:
            entries.append(PuzzleEntry(index, number, None,
                                       SudokuFormatError(error.problem, source=source, line=number)))
    return entries


def format_killer(grid: Grid) -> str:
    """A Killer's line: labels in order of first appearance, then the sums. ValueError past
    62 cages (one character a cage)."""
    variant = grid.variant
    if variant is None or not variant.cages or variant.regions is not None or grid.size != 9:
        raise ValueError("not a 9x9 Killer")
    if len(variant.cages) > len(CAGE_LABELS):
        raise ValueError(f"{len(variant.cages)} cages: the line format names at most {len(CAGE_LABELS)}")
    labels = [""] * _CELLS
    sums = []
    label_of: dict[int, str] = {}
    for cell in range(_CELLS):
        index = variant.cage_of[cell]
        if index < 0:
            raise ValueError(f"{cell_name(cell)} is in no cage: the line format gives every cell one")
        if index not in label_of:
            label_of[index] = CAGE_LABELS[len(label_of)]
            sums.append(str(variant.cages[index].total))
        labels[cell] = label_of[index]
    return f"{''.join(labels)} {','.join(sums)}"


def format_jigsaw(grid: Grid, blank: str = ".") -> str:
    """A Jigsaw's line: region digits, a space, the givens (``blank`` for an empty cell)."""
    variant = grid.variant
    if variant is None or variant.region_of is None or variant.cages or grid.size != 9:
        raise ValueError("not a 9x9 Jigsaw")
    return f"{''.join(str(r + 1) for r in variant.region_of)} {grid.format(blank)}"


def format_variant_line(grid: Grid, blank: str = ".") -> str:
    """The one-line form of any grid: its variant's line, or the line format."""
    if grid.variant is not None and grid.variant.cages:
        return format_killer(grid)
    if grid.variant is not None and grid.variant.regions is not None:
        return format_jigsaw(grid, blank)
    return grid.format(blank)
