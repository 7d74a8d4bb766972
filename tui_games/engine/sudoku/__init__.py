"""Sudoku: grid and formats, CNF encoding solved with pycosat, human-technique stepper, grading, generator.

Modules (each imports only the ones above it):

- :mod:`.grid` -- shapes (4×4, 6×6, 9×9, 16×16, diagonal variant) and :class:`Grid`, the
  model the screen edits: values, givens, candidates, conflicts.
- :mod:`.formats` -- reading and writing text: 81-character lines, ``.sdk``, Project Euler
  blocks; :class:`SudokuFormatError` names the source, line and problem.
- :mod:`.sat` -- :func:`solve` / :func:`count_solutions` on a compact CNF (pycosat).
- :mod:`.techniques` -- :class:`State`, :class:`Step` (with its rating, chain links and Eureka
  chain), singles, intersections, subsets, basic fish, XY- and XYZ-wings; then one module per
  family: :mod:`.fish` (finned, sashimi), :mod:`.single_digit` (skyscraper, kite, turbot,
  empty rectangle), :mod:`.colouring`, :mod:`.wings` (W-wing, remote pairs),
  :mod:`.uniqueness` (unique rectangles, BUG+1), :mod:`.links` + :mod:`.chains` (X-cycles,
  X-, XY-chains, AICs), :mod:`.als` (bent wings, ALS-XZ, ALS-XY-wing, sue de coq),
  :mod:`.forcing` (forcing chains, dynamic, nested nets); :mod:`.notation` writes chains.
- :mod:`.catalogue` -- every technique with its level and Sudoku Explainer rating, easiest first.
- :mod:`.stepper` -- the easiest step each time; :func:`next_step` is the hint,
  :func:`apply_step` plays it.
- :mod:`.grading` -- :func:`grade`: the level and rating of the hardest step needed.
- :mod:`.generator` -- :func:`generate`: a unique puzzle of a requested grade from a seed.
- :mod:`.norvig` -- Norvig's solver, only for the benchmark's comparison.

Import from the modules themselves: the package imports none of them, so a tool that only
solves (``tui-games sudoku solve``) does not pay for the stepper, the grader or the generator.
"""
