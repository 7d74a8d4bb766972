"""``tui-games sudoku solve|grade|generate|hint|explain``: the Sudoku engine on the command line.

    tui-games sudoku solve [FILE|-]      one solution line per puzzle, '# line N: ...' otherwise
    tui-games sudoku grade [FILE|-]      the grade, rating and hardest technique of each puzzle
    tui-games sudoku generate --grade L  unique puzzles of a grade, one per line
    tui-games sudoku hint PUZZLE         the next human step, explained, with its rating
    tui-games sudoku explain PUZZLE      every step from the puzzle to its solution

Input is any format :mod:`tui_games.engine.sudoku.formats` reads (81-character lines with
``#`` comments, ``.sdk`` grids, Project Euler blocks); with ``--variant killer`` or
``jigsaw``, that variant's one-line format. Batch tools answer every puzzle in
order, one line each, so output lines match input puzzles; a puzzle that is malformed or has
no unique solution gets a ``# line N: ...`` line instead, and the exit status is 1. An
unreadable file, or one with no readable puzzle in it, is a one-line error and status 2.
"""

from __future__ import annotations

# The grader, the stepper and the generator are imported by the tools that use them, not here:
# ``sudoku solve`` of one puzzle is a command people script, and its start-up is most of its
# cost (``tui-games bench startup``).
import argparse
import os
import sys
from typing import TYPE_CHECKING, cast

from tui_games.commands.common import UsageError, positive_int
from tui_games.commands.options import Option
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import (
    LINE_SIZES,
    PuzzleEntry,
    SudokuFormatError,
    format_variant_line,
    parse_grid,
    read_puzzles,
)
from tui_games.engine.sudoku.formats import VARIANTS as LINE_VARIANTS
from tui_games.engine.sudoku.grid import Grid, cell_name, digit_char
from tui_games.engine.sudoku.levels import LEVELS, SEARCH, level_index

if TYPE_CHECKING:
    from tui_games.engine.sudoku.grading import Grade
    from tui_games.engine.sudoku.techniques import Step

EXIT_NOT_UNIQUE = 1
# What a puzzle given on the command line is made of; anything else may be a file's name.
_PUZZLE_ARGUMENT_CHARS = frozenset("0123456789.ABCDEFGabcdefg")
# The grades the generator makes: every level but "needs search".
GRADES = tuple(level for level in LEVELS if level != SEARCH)

# JSON status words: short and stable for scripts.
STATUS_WORDS = {sat.Status.UNIQUE: "unique", sat.Status.NONE: "none", sat.Status.SEVERAL: "several",
                sat.Status.SOLVED: "solved"}

VARIANT_CHOICES = ("classic", *LINE_VARIANTS)
SOLVERS = ("auto", "sat", "smt")
# What ``--solver auto`` takes, by variant: the faster of the two where both are installed, as
# ``tui-games bench sudoku --variant V`` measures it (docs/performance.md: pycosat with the
# encoding of engine/sudoku/sat.py is 81x faster than Z3 on 1,000 Killers, 2026-12-03, 163x on
# Jigsaws, and 39x on 20 of the forum's hardest classic puzzles, 3.1 against 122 CPU ms,
# 2026-12-02; the diagonal grid is the classic one with two units more). Every variant is "sat"
# today, so ``auto`` never asks for Z3 (_solver_name's path to it is not taken); it stays, so
# that a bench run that finds Z3 faster on a variant changes this table, not the code.
FASTER = {"classic": "sat", "diagonal": "sat", "killer": "sat", "jigsaw": "sat"}


def _smt_limit(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (all) or a positive number of puzzles")
    return value


# A one-player puzzle: nothing for ``tui-games arena``; the knobs of ``tui-games bench sudoku``.
ARENA_OPTIONS: tuple[Option, ...] = ()
BENCH_OPTIONS = (
    Option("--set", dest="sets", action="append", metavar="FILE",
           help="a test set file (repeatable; default: the collections shipped with the package)"),
    Option("--limit", type=positive_int, metavar="N", help="only the first N puzzles of each set"),
    Option("--logic", action="store_true",
           help="the human stepper instead of the solvers (share finished by logic, time per hint and per "
                "puzzle, ratings against Sudoku Explainer's where a NAME_se_ratings.txt file sits beside the set)"),
    Option("--jobs", type=positive_int, metavar="N", help="with --logic: spread the puzzles over N processes"),
    Option("--results", metavar="FILE",
           help="with --logic: also write one JSON object per puzzle (level, rating, technique, seconds, steps, "
                "wrong steps) to FILE, each as soon as it is done"),
    Option("--resume", action="store_true",
           help="with --results: keep the puzzles FILE holds already (same set, line and puzzle) and run only "
                "the others (a long run stopped early goes on)"),
    Option("--grade-only", action="store_true",
           help="with --logic: only the grade (rating, level, wrong steps), not the hints' pass (no hint times)"),
    Option("--variant", choices=("classic", "killer", "jigsaw"),
           help="killer or jigsaw: the SAT solver (each cage encoding) and Z3 on N generated puzzles "
                "(--limit N, default 1000; --quick 50)"),
    Option("--smt-limit", type=_smt_limit, metavar="N",
           help="with --variant: Z3 on the first N puzzles only (default and 0: all of them)"),
)


def _print_json(record: dict) -> None:
    # json is imported here, not at the top: a one-puzzle solve without --json should not pay
    # for it (the start-up benchmark counts every module).
    import json

    print(json.dumps(record))


def read_input(name: str) -> tuple[str, str]:
    """(text, source name) of FILE, or of stdin for ``-``; UsageError if it cannot be read."""
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(name, encoding="utf-8") as file:
            return file.read(), name
    except OSError as error:
        raise UsageError(f"cannot read {name!r}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {name!r}: not UTF-8 text") from None


def _entries(args: argparse.Namespace) -> list[PuzzleEntry]:
    """The puzzles of FILE. A text with no puzzle in it (nothing, or prose) is the wrong input,
    not a batch with a bad line: UsageError (status 2)."""
    text, source = read_input(args.file)
    variant = getattr(args, "variant", "classic")
    if variant in LINE_VARIANTS and args.diagonal:
        raise UsageError(f"--diagonal is for the classic grid, not --variant {variant}")
    entries = read_puzzles(text, source, diagonal=args.diagonal, variant=variant)
    if not entries:
        if variant in LINE_VARIANTS:
            raise UsageError(f"{source}: no puzzle in it (one {variant} line a puzzle)")
        raise UsageError(f"{source}: no puzzle in it (81-character lines, .sdk grids or Project Euler blocks)")
    first = entries[0].error
    if first is not None and first.prose:
        raise UsageError(str(first))
    return entries


def _killer_grade(grid: Grid) -> Grade:
    """A Killer's grade: the one the generator and the shipped collections use
    (``variant_generator.killer_grade``), after the SAT check."""
    from tui_games.engine.sudoku.grading import Grade
    from tui_games.engine.sudoku.variant_generator import killer_grade

    result = sat.solve(grid)
    if result.status is not sat.Status.UNIQUE:
        return Grade(None, None, 0, {}, result.status)
    return killer_grade(grid)


def _uniqueness(args: argparse.Namespace, grid: Grid) -> bool:
    """Whether the stepper may assume one solution in its uniqueness techniques: never in a
    Killer, whose cages a deadly pattern's swap of two digits may break (a unique rectangle
    there proves nothing)."""
    return bool(args.uniqueness) and grid.kind != "killer"


def _comment(entry: PuzzleEntry, problem: str) -> str:
    return f"# line {entry.line}: {problem}"


def _report_malformed(entry: PuzzleEntry, as_json: bool) -> None:
    """A puzzle that could not be read takes its line in the output all the same."""
    problem = cast(SudokuFormatError, entry.error).problem
    if as_json:
        _print_json(({"line": entry.line, "status": "malformed", "error": problem}))
    else:
        print(_comment(entry, problem))


# -- solve -------------------------------------------------------------------------------------------


def _solver_name(args: argparse.Namespace, grid: Grid) -> str:
    """``sat`` or ``smt`` for this puzzle: ``--solver``, ``auto`` by :data:`FASTER` when Z3 is
    installed (else SAT); ``smt`` as asked (cmd_solve checked that Z3 is installed)."""
    if args.solver == "sat" or (args.solver == "auto" and FASTER.get(grid.kind, "sat") == "sat"):
        return "sat"  # (Z3 is not even imported: it costs a one-shot command 40 ms)
    if args.solver == "smt":
        return "smt"  # Z3 is there: cmd_solve checked before any output
    from tui_games.engine.sudoku import smt

    return "smt" if smt.available() else "sat"


def _solve_with(name: str, grid: Grid) -> sat.SolveResult:
    if name == "smt":
        from tui_games.engine.sudoku import smt

        return smt.solve(grid)
    return sat.solve(grid)


def _numbered(path: str, line: int, many: bool) -> str:
    """FILE itself for one puzzle; FILE with ``.lineN`` before its suffix for each of several."""
    if not many:
        return path
    root, dot, suffix = path.rpartition(".")
    return f"{root}.line{line}.{suffix}" if dot and "/" not in suffix else f"{path}.line{line}"


def _write_encoding(path: str, text: str) -> None:
    try:
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror or error}") from None


def _write_encodings(args: argparse.Namespace, grid: Grid, line: int, many: bool) -> None:
    """``--dimacs FILE`` and ``--smt2 FILE`` for one puzzle."""
    if args.dimacs:
        _write_encoding(_numbered(args.dimacs, line, many), sat.to_dimacs(grid))
    if args.smt2:
        from tui_games.engine.sudoku import smt

        _write_encoding(_numbered(args.smt2, line, many), smt.to_smt2(grid))


def _check_z3(args: argparse.Namespace) -> None:
    """``--solver smt`` and ``--smt2`` need Z3: said before any puzzle's line is printed."""
    if args.solver == "smt" or args.smt2:
        from tui_games.engine.sudoku import smt

        if not smt.available():
            raise UsageError(smt.INSTALL_HINT)


def cmd_solve(args: argparse.Namespace) -> int:
    _check_z3(args)
    failed = False
    entries = _entries(args)
    many = sum(1 for e in entries if e.error is None) > 1
    for entry in entries:
        if entry.error is not None:
            failed = True
            _report_malformed(entry, args.json)
            continue
        grid = cast(Grid, entry.grid)  # no error: a grid
        name = _solver_name(args, grid)
        _write_encodings(args, grid, entry.line, many)
        result = _solve_with(name, grid)
        solution = None
        if result.solution is not None:
            solution = "".join(digit_char(d) for d in result.solution)
        if not result.unique:
            failed = True
        s = result.stats
        if args.stats:
            size = (f"{s.variables:,} variables, {s.assertions:,} assertions" if name == "smt" else
                    f"{s.variables:,} variables, {s.clauses:,} clauses, {s.literals:,} literals, "
                    f"{s.propagated} cells filled by propagation")
            print(f"line {entry.line}: {name}, {result.seconds * 1000:.2f} ms, {size}", file=sys.stderr)
        if args.json:
            record = {"line": entry.line, "puzzle": format_variant_line(grid), "status": STATUS_WORDS[result.status],
                      "solution": solution if result.unique or args.first else None,
                      "ms": round(result.seconds * 1000, 3), "variables": s.variables, "solver": name,
                      "variant": grid.kind}
            if name == "smt":
                record["assertions"] = s.assertions
            else:
                record.update(clauses=s.clauses, literals=s.literals)
            _print_json((record))
        elif result.unique:
            print(solution)
        elif result.status is sat.Status.SEVERAL and args.first:
            # stdout keeps one line per puzzle; what it is goes to stderr.
            print(solution)
            print(_comment(entry, "several solutions (printed the first found)"), file=sys.stderr)
        else:
            print(_comment(entry, result.status.value))
    return EXIT_NOT_UNIQUE if failed else 0


# -- grade -------------------------------------------------------------------------------------------


def cmd_grade(args: argparse.Namespace) -> int:
    from tui_games.engine.sudoku.grading import grade

    failed = False
    for entry in _entries(args):
        if entry.error is not None:
            failed = True
            _report_malformed(entry, args.json)
            continue
        grid = cast(Grid, entry.grid)  # no error: a grid
        if grid.kind == "killer":
            result = _killer_grade(grid)
        else:
            result = grade(grid, uniqueness=_uniqueness(args, grid))
        if result.level is None:
            failed = True
        if args.json:
            _print_json(({"line": entry.line, "puzzle": format_variant_line(grid), "status": STATUS_WORDS[result.status],
                              "level": result.level, "technique": result.technique, "steps": result.steps,
                              "counts": result.counts, "rating": result.rating if result.level else None,
                              "logic": result.logic}))
        elif result.level is None:
            print(_comment(entry, result.status.value))
        else:
            print(result.describe())
    return EXIT_NOT_UNIQUE if failed else 0


# -- generate ----------------------------------------------------------------------------------------


def cmd_generate(args: argparse.Namespace) -> int:
    import random

    from tui_games.data.resources import read_puzzles
    from tui_games.engine.sudoku.generator import GenerationError, generate
    from tui_games.engine.sudoku.seeds import seed_puzzles

    try:
        level = LEVELS[level_index(args.grade)]
    except ValueError as error:
        raise UsageError(str(error)) from None
    if level == SEARCH:
        raise UsageError("'needs search' is not a grade the generator makes: with every technique, a puzzle "
                         "with one solution always has a logical next step")
    rng = random.Random(args.seed)
    variant = args.variant
    if variant != "classic" and (args.diagonal or args.size != 9):
        raise UsageError(f"--variant {variant} is 9x9 without diagonals: no --size or --diagonal with it")
    seeds = seed_puzzles(level, read_puzzles) if variant == "classic" else []
    for _ in range(args.count):
        try:
            if variant == "classic":
                made = generate(level, rng, size=args.size, diagonal=args.diagonal, seeds=seeds)
            else:
                from tui_games.engine.sudoku import variant_generator

                make = variant_generator.generate_killer if variant == "killer" else variant_generator.generate_jigsaw
                made = make(level, rng)
        except GenerationError as error:
            print(f"tui-games: {error}", file=sys.stderr)
            return EXIT_NOT_UNIQUE
        print(format_variant_line(made.puzzle), flush=True)
        if args.stats:
            cages = made.puzzle.variant.cages if made.puzzle.variant is not None else ()
            shape = (f"{len(cages)} cages" if variant == "killer"
                     else f"{sum(1 for v in made.puzzle.values if v)} clues")
            print(f"{made.grade.describe()}, {shape}, {made.attempts} attempts, {made.seconds:.2f} s", file=sys.stderr)
    return 0


# -- hint --------------------------------------------------------------------------------------------


def _puzzle_argument(args: argparse.Namespace) -> Grid:
    """The PUZZLE argument (or stdin for ``-``) as a grid; UsageError names what is wrong."""
    if args.puzzle == "-":
        text, source = read_input("-")
    else:
        text, source = args.puzzle, "PUZZLE"
        if not set(text.strip()) <= _PUZZLE_ARGUMENT_CHARS and os.path.isfile(text):
            raise UsageError(f"PUZZLE {text!r} is a file: {args.tool} takes the puzzle itself (one line), "
                             f"or '-' to read it from stdin: tui-games sudoku {args.tool} - < {text}")
    line = text.strip()
    if getattr(args, "variant", "classic") == "classic" and line.isdigit() and len(line) not in LINE_SIZES:
        # One short line is no block of rows: say what a line must hold, not "1 rows".
        sizes = ", ".join(f"{cells} ({size}×{size})" for cells, size in sorted(LINE_SIZES.items()))
        raise UsageError(f"{source}: {len(line)} cells; a puzzle on one line has {sizes}")
    variant = getattr(args, "variant", "classic")
    if variant in LINE_VARIANTS:
        entries = list(read_puzzles(text, source, variant=variant))
        if len(entries) != 1:
            raise UsageError(f"{source}: expected one {variant} line, found {len(entries)}")
        if entries[0].error is not None:
            raise UsageError(str(entries[0].error))
        return cast(Grid, entries[0].grid)
    try:
        grid = parse_grid(text, source, diagonal=args.diagonal)
    except SudokuFormatError as error:
        raise UsageError(str(error)) from None
    if grid.size != 9:
        print(f"{source}: read as a {grid.size}×{grid.size} puzzle", file=sys.stderr)
    return grid


def _unique_puzzle(args: argparse.Namespace, what: str) -> Grid | None:
    """The PUZZLE argument if it has one solution; else None, after saying so."""
    grid = _puzzle_argument(args)
    result = sat.solve(grid)
    if not result.unique:
        print(f"no {what}: the puzzle has {result.status.value}")
        return None
    return grid


def _step_record(step: Step, n: int) -> dict:
    """A step as JSON: cells ``rRcC`` (1-based), digits as numbers."""
    return {
        "technique": step.technique, "level": step.level, "rating": step.rating,
        "place": [[cell_name(c, n), d] for c, d in step.placements],
        "eliminate": [[cell_name(c, n), d] for c, d in step.eliminations],
        "text": step.explanation,
        "chain": list(step.chain),
    }


def _print_step(step: Step, n: int, number: int | None = None) -> None:
    head = f"{number}. " if number is not None else ""
    print(f"{head}{step.technique} ({step.level}, {step.rating:.1f}): {step.explanation}")
    for line in step.chain:
        print(f"   {line}")
    print(f"   {step.changes(n)}" if number is not None else step.changes(n))


def cmd_hint(args: argparse.Namespace) -> int:
    from tui_games.engine.sudoku.stepper import Stepper

    grid = _unique_puzzle(args, "hint")
    if grid is None:
        return EXIT_NOT_UNIQUE
    stepper = Stepper(grid, uniqueness=_uniqueness(args, grid))
    step = stepper.next_step()
    if step is None:
        if stepper.stuck == "solved":
            print("no hint: the puzzle is already solved")
        else:
            print("no hint: none of the known techniques applies here; the puzzle needs search")
        return EXIT_NOT_UNIQUE
    n = grid.size
    if args.json:
        record = _step_record(step, n)
        # The fields this command printed before ``explain`` existed stay as they were.
        record.update({
            "explanation": step.explanation,
            "cells": [cell_name(c, n) for c in step.cells], "digits": [digit_char(d) for d in step.digits],
            "placements": [[cell_name(c, n), digit_char(d)] for c, d in step.placements],
            "eliminations": [[cell_name(c, n), digit_char(d)] for c, d in step.eliminations],
        })
        _print_json(record)
    else:
        _print_step(step, n)
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    from tui_games.engine.sudoku.grading import hardest, top_level
    from tui_games.engine.sudoku.stepper import Stepper

    grid = _unique_puzzle(args, "explanation")
    if grid is None:
        return EXIT_NOT_UNIQUE
    stepper = Stepper(grid, uniqueness=_uniqueness(args, grid))
    n = grid.size
    number = 0
    while (step := stepper.next_step()) is not None:
        stepper.apply(step)
        number += 1
        if args.json:
            _print_json(_step_record(step, n))
        else:
            _print_step(step, n, number)
    if not stepper.solved:
        print(f"stuck after {number} steps: {stepper.stuck}", file=sys.stderr)
        return EXIT_NOT_UNIQUE
    if not args.json:
        top = hardest(stepper.steps)
        summary = (f"{top_level(stepper.steps)} {top.rating:.1f}, hardest step: {top.technique}" if top
                   else "already solved")
        print(f"solved in {number} steps; {summary}")
    return 0


# -- the parser --------------------------------------------------------------------------------------


def _level(text: str) -> str:
    try:
        return LEVELS[level_index(text)]
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_tools(parser: argparse.ArgumentParser) -> None:
    """The tools of ``tui-games sudoku``."""
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    file_help = "puzzles: 81-character lines, .sdk grids or Project Euler blocks ('-' or nothing: stdin)"

    solve = tools.add_parser("solve", help="solve every puzzle: one solution line per puzzle")
    solve.set_defaults(handler=cmd_solve)
    solve.add_argument("file", nargs="?", default="-", metavar="FILE", help=file_help)
    solve.add_argument("--first", action="store_true",
                       help="for a puzzle with several solutions print the first found (a note goes to stderr)")
    solve.add_argument("--stats", action="store_true", help="per puzzle ms and encoding size on stderr")
    solve.add_argument("--json", action="store_true",
                       help='one {"line", "puzzle", "status", "solution", "ms", "variables", "clauses", '
                            '"literals"} object per puzzle')
    solve.add_argument("--diagonal", action="store_true", help="the X variant: both diagonals are units too")
    _variant_option(solve)
    solve.add_argument("--solver", choices=SOLVERS, default="auto",
                       help="sat (pycosat), smt (Z3, the optional extra 'smt'), or auto: the faster where both "
                            "are installed (default)")
    solve.add_argument("--dimacs", metavar="FILE",
                       help="write each puzzle's CNF in DIMACS to FILE (several puzzles: FILE.lineN.cnf ...)")
    solve.add_argument("--smt2", metavar="FILE",
                       help="write each puzzle's SMT-LIB 2 model to FILE (needs Z3; several puzzles: FILE.lineN.smt2 ...)")

    grade_tool = tools.add_parser("grade", help="grade and hardest technique of every puzzle")
    grade_tool.set_defaults(handler=cmd_grade)
    grade_tool.add_argument("file", nargs="?", default="-", metavar="FILE", help=file_help)
    grade_tool.add_argument("--json", action="store_true",
                            help='one {"line", "puzzle", "status", "level", "technique", "steps", "counts", '
                                 '"rating", "logic"} object per puzzle')
    grade_tool.add_argument("--diagonal", action="store_true", help="the X variant: both diagonals are units too")
    _variant_option(grade_tool)
    _uniqueness_option(grade_tool)

    gen = tools.add_parser("generate", help="unique-solution puzzles of a grade, one per line")
    gen.set_defaults(handler=cmd_generate)
    gen.add_argument("--grade", required=True, type=_level, metavar="LEVEL", help=", ".join(GRADES))
    gen.add_argument("--count", type=positive_int, default=1, metavar="N", help="how many (default 1)")
    gen.add_argument("--seed", type=int, default=None, metavar="S", help="random seed: the same seed, the same puzzles")
    gen.add_argument("--size", type=int, choices=(4, 6, 9, 16), default=9, help="grid size (default 9)")
    gen.add_argument("--diagonal", action="store_true", help="the X variant: both diagonals are units too")
    gen.add_argument("--variant", choices=VARIANT_CHOICES, default="classic",
                     help="killer (cages, no givens; graded by the Killer grade, finished by the stepper) or jigsaw (random regions)")
    gen.add_argument("--stats", action="store_true", help="grade, clues, attempts and seconds of each on stderr")

    hint = tools.add_parser("hint", help="the next human step in a puzzle, explained")
    hint.set_defaults(handler=cmd_hint)
    hint.add_argument("puzzle", metavar="PUZZLE", help="an 81-character line ('.' or '0' blanks), or '-' for stdin")
    hint.add_argument("--json", action="store_true",
                      help='print {"technique", "level", "rating", "place", "eliminate", "text", "chain", '
                           '"explanation", "cells", "digits", "placements", "eliminations"}')
    hint.add_argument("--diagonal", action="store_true", help="the X variant: both diagonals are units too")
    _variant_option(hint)
    _uniqueness_option(hint)

    explain = tools.add_parser("explain", help="every step from the puzzle to its solution, explained and rated")
    explain.set_defaults(handler=cmd_explain)
    explain.add_argument("puzzle", metavar="PUZZLE", help="an 81-character line ('.' or '0' blanks), or '-' for stdin")
    explain.add_argument("--json", action="store_true",
                         help='one {"technique", "level", "rating", "place", "eliminate", "text", "chain"} '
                              'object per step (cells rRcC, 1-based)')
    explain.add_argument("--diagonal", action="store_true", help="the X variant: both diagonals are units too")
    _variant_option(explain)
    _uniqueness_option(explain)


def _variant_option(tool: argparse.ArgumentParser) -> None:
    tool.add_argument("--variant", choices=VARIANT_CHOICES, default="classic",
                      help="killer: a line of 81 cage labels, a space, the cage sums; jigsaw: 81 region digits, "
                           "a space, the 81 givens (default classic: the formats above)")


def _uniqueness_option(tool: argparse.ArgumentParser) -> None:
    tool.add_argument("--no-uniqueness", dest="uniqueness", action="store_false",
                      help="do not assume one solution: no unique rectangles, no BUG+1")


# -- play ------------------------------------------------------------------------------------------


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--grade", default=None, metavar="LEVEL",
                        help=f"generate a puzzle of this grade: {', '.join(GRADES)}")
    parser.add_argument("--size", type=int, choices=(4, 6, 9), default=None, help="grid size for a generated puzzle")
    parser.add_argument("--diagonal", action="store_true", help="the X variant: the diagonals hold every digit too")
    parser.add_argument("--puzzle", default=None, metavar="LINE", help="play this puzzle (81 characters, . for a blank)")
    parser.add_argument("--file", default=None, metavar="PATH", help="play the first puzzle of this file")


def play_options(args: argparse.Namespace) -> dict[str, object]:
    """What "play sudoku" asks for; nothing given: resume the saved puzzle or the last choice."""
    chosen = [name for name in ("puzzle", "file") if getattr(args, name)]
    if len(chosen) > 1:
        raise UsageError("give --puzzle or --file, not both")
    if args.puzzle:
        return {"source": "paste", "text": args.puzzle}
    if args.file:
        return {"source": "file", "text": args.file}
    if args.grade is None and args.size is None and not args.diagonal:
        return {}
    try:
        grade = LEVELS[level_index(args.grade or "basic")]
    except ValueError as error:
        raise UsageError(str(error)) from None
    if grade == SEARCH:
        raise UsageError("'needs search' is no grade to play: with every technique, a puzzle with one solution "
                         "always has a logical next step")
    return {"source": "generate", "grade": grade, "variant": f"{args.size or 9}{'x' if args.diagonal else ''}"}
