"""Sudoku: grid and formats, CNF encoding solved with pycosat, human-technique stepper, grading, generator.

Modules (each imports only the ones above it):

- :mod:`.grid` -- shapes (4×4, 6×6, 9×9, 16×16, diagonal variant) and :class:`Grid`, the
  model the screen edits: values, givens, candidates, conflicts.
- :mod:`.formats` -- reading and writing text: 81-character lines, ``.sdk``, Project Euler
  blocks; :class:`SudokuFormatError` names the source, line and problem.
- :mod:`.sat` -- :func:`solve` / :func:`count_solutions` on a compact CNF (pycosat).
- :mod:`.techniques`, :mod:`.stepper` -- human techniques as :class:`Step` objects with an
  explanation; :func:`next_step` is the hint, :func:`apply_step` plays it.
- :mod:`.grading` -- :func:`grade`: the level of the hardest technique needed.
- :mod:`.generator` -- :func:`generate`: a unique puzzle of a requested grade from a seed.
- :mod:`.norvig` -- Norvig's solver, only for the benchmark's comparison.

The names below are the API the screen and the CLI use.
"""

from tui_games.engine.sudoku.formats import (
    SudokuFormatError,
    format_line,
    parse_grid,
    read_puzzles,
)
from tui_games.engine.sudoku.generator import Generated, GenerationError, generate
from tui_games.engine.sudoku.grading import Grade, grade
from tui_games.engine.sudoku.grid import (
    Grid,
    GridError,
    cell_name,
    digit_char,
    geometry,
    mask_digits,
)
from tui_games.engine.sudoku.sat import SolveResult, Status, count_solutions, solve
from tui_games.engine.sudoku.stepper import Stepper, apply_step, next_step
from tui_games.engine.sudoku.techniques import LEVELS, Step

__all__ = [
    "LEVELS",
    "Generated",
    "GenerationError",
    "Grade",
    "Grid",
    "GridError",
    "SolveResult",
    "Status",
    "Step",
    "Stepper",
    "SudokuFormatError",
    "apply_step",
    "cell_name",
    "count_solutions",
    "digit_char",
    "format_line",
    "generate",
    "geometry",
    "grade",
    "mask_digits",
    "next_step",
    "parse_grid",
    "read_puzzles",
    "solve",
]
