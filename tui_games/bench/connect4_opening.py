"""The Connect-4 bench's tables about the opening book and the middle game: the book's open
and lookup times; the full analysis (all seven columns) and the perfect player's move on
positions by disc count, compiled and pure Python side by side; whole games of the perfect
player against itself and against random, time per move.

Times are CPU seconds of this process (``time.process_time``): on a shared machine they
move far less than wall-clock times. Each position gets a fresh table generation, so its
figures do not depend on the ones before.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from tui_games.bench.table import Write, table
from tui_games.data.connect4_book import close_book, default_book, open_book
from tui_games.data.resources import puzzle_path
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.players import PerfectPlayer, make_player
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver

try:
    from tui_games.engine.connect4 import _c4solve
except ImportError:  # not built: the compiled columns are left out
    _c4solve = None  # type: ignore[assignment]

T = TypeVar("T")

# Positions a row: random play to the disc count (seeded); a range cycles through its counts.
ROWS = (("0 discs", (0,)), ("4 discs", (4,)), ("8 discs", (8,)), ("12 discs", (12,)),
        ("13-16 discs", (13, 14, 15, 16)), ("17-20 discs", (17, 18, 19, 20)))
PER_ROW = 20
QUICK_PER_ROW = 3
LOOKUPS = 2000
SEED = 15
# Pons' hardest "beginning" set: the 100 lines shipped as the bench sample (1-12 discs) and
# the 16 positions of the whole set with 13 discs (shipped in their own file).
L1_R3_SETS = (("Test_L1_R3 sample", "bench_connect4_Test_L1_R3.txt"),
              ("Test_L1_R3 13 discs", "bench_connect4_Test_L1_R3_13_discs.txt"))

TITLES = ("positions", "count", "mean s", "p95 s", "max s", "max nodes", "move p95", "move max",
          "Py mean s", "Py p95 s", "Py max s")
WIDTHS = (20, 5, 7, 7, 7, 11, 8, 8, 9, 9, 9)


def percentile95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def random_positions(discs: Sequence[int], count: int, rng: random.Random) -> list[Connect4]:
    """Positions from random play with the given disc counts in turn: the game still on and
    no immediate win for the side to move (those are answered without a search)."""
    out: list[Connect4] = []
    while len(out) < count:
        target = discs[len(out) % len(discs)]
        pos = Connect4()
        while pos.moves < target and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.moves == target and pos.outcome() is None and not any(map(pos.is_winning_move, pos.legal_moves())):
            out.append(pos)
    return out


def shipped_positions(name: str, limit: int | None) -> list[Connect4]:
    lines = Path(str(puzzle_path(name))).read_text().splitlines()
    return [Connect4.parse(line.split()[0]) for line in lines if line.strip()][:limit]


def cpu(call: Callable[..., T], *args: object) -> tuple[float, T]:
    started = time.process_time()
    value = call(*args)
    return time.process_time() - started, value


def book_lines(write: Write, book: OpeningBook | None, problem: str | None, rng: random.Random) -> None:
    if book is None:
        write(f"opening book: none ({problem}); the rows below search without it")
        return
    opens = []
    for _ in range(5):
        seconds, opened = cpu(lambda: open_book(book.source))
        opens.append(seconds)
        close_book(opened)
    positions = [(p.current, p.mask) for p in _twelve_disc_positions(rng, LOOKUPS)]
    fresh = open_book(book.source)  # an empty bucket cache: what the first lookups cost
    first, _ = cpu(lambda: [fresh.score(c, m) for c, m in positions])
    warm, _ = cpu(lambda: [fresh.score(c, m) for c, m in positions])
    close_book(fresh)
    line = (f"opening book: {book.count:,} records, open {1000 * statistics.median(opens):.1f} ms (median of 5); "
            f"lookup {1e6 * first / LOOKUPS:.1f} us cold, {1e6 * warm / LOOKUPS:.1f} us warm")
    if _c4solve is not None:
        seconds, _ = cpu(lambda: [_c4solve.book_score(book.data, c, m, 12) for c, m in positions])
        line += f", {1e6 * seconds / LOOKUPS:.2f} us compiled"
    write(line + f" ({LOOKUPS:,} random 12-disc positions)")


def _twelve_disc_positions(rng: random.Random, count: int) -> list[Connect4]:
    out: list[Connect4] = []
    while len(out) < count:
        pos = Connect4()
        while pos.moves < 12 and pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.outcome() is None:
            out.append(pos)
    return out


def warm_up(book: OpeningBook | None) -> None:
    """Pay the one-time costs of a process (the Python search's tables, the book's first
    pages) before anything is timed."""
    for compiled in {Solver(1).compiled, False}:
        Solver(100_003, book=book, compiled=compiled).analyze(Connect4.parse("52753311433677442422121"))


def measure(positions: list[Connect4], book: OpeningBook | None, compiled: bool,
            player: PerfectPlayer | None) -> tuple[list[float], list[int], list[float]]:
    """CPU seconds and nodes of a full analysis of each position, and of the perfect
    player's move (when ``player`` is given)."""
    solver = Solver(book=book, compiled=compiled)
    seconds, nodes, moves = [], [], []
    for pos in positions:
        solver.reset()
        spent, (_, stats) = cpu(solver.analyze_run, pos)
        seconds.append(spent)
        nodes.append(stats.nodes)
        if player is not None:
            player.solver.reset()
            spent, _ = cpu(player.choose, pos)
            moves.append(spent)
    return seconds, nodes, moves


def positions_table(write: Write, book: OpeningBook | None, *, quick: bool, limit: int | None) -> None:
    compiled = Solver(1).compiled
    per_row = limit or (QUICK_PER_ROW if quick else PER_ROW)
    rng = random.Random(SEED)
    rows = [(label, random_positions(discs, 1 if discs == (0,) else per_row, rng)) for label, discs in ROWS]
    rows += [(label, shipped_positions(name, limit or (QUICK_PER_ROW if quick else None)))
             for label, name in L1_R3_SETS]
    python_too = not quick or not compiled
    write("Full analysis (all seven columns) and the perfect player's move, CPU seconds a position, "
          f"{'compiled' if compiled else 'pure Python (the compiled solver is not built)'}"
          + ("; Py: the same analyses in pure Python" if compiled and python_too else ""))
    write(f"(random play from seed {SEED}, no immediate win on the board; "
          + ("pure Python left out by --quick)" if not python_too else "the same positions for both)"))
    write("")
    row = table(write, TITLES, WIDTHS)
    warm_up(book)
    player = PerfectPlayer(seed=SEED, seconds=600, book=book, compiled=compiled)
    for label, positions in rows:
        seconds, nodes, moves = measure(positions, book, compiled, player)
        cells = [label, str(len(positions)), f"{statistics.mean(seconds):.3f}", f"{percentile95(seconds):.3f}",
                 f"{max(seconds):.3f}", f"{max(nodes):,}", f"{percentile95(moves):.3f}", f"{max(moves):.3f}"]
        if compiled and python_too:
            py_seconds, py_nodes, _ = measure(positions, book, False, None)
            if py_nodes != nodes:
                raise RuntimeError(f"{label}: the compiled and Python solvers searched different trees")
            cells += [f"{statistics.mean(py_seconds):.3f}", f"{percentile95(py_seconds):.3f}", f"{max(py_seconds):.3f}"]
        else:
            cells += ["-", "-", "-"]
        row(cells)


GAME_TITLES = ("game", "solver", "plies", "result", "moves", "mean s", "p95 s", "max s")
GAME_WIDTHS = (20, 8, 5, 24, 5, 7, 7, 7)


def games_table(write: Write, book: OpeningBook | None, *, quick: bool) -> None:
    compiled = Solver(1).compiled
    modes = [compiled] + ([False] if compiled and not quick else [])
    write("Whole games from the empty board: CPU seconds per move of the perfect player "
          "(its default 5 s budget; a fresh player a game)")
    write("")
    row = table(write, GAME_TITLES, GAME_WIDTHS, left=(0, 1, 3))
    for mode in modes:
        for first_spec, second_spec in (("perfect", "perfect"), ("perfect", "random"), ("random", "perfect")):
            first, second = (make_player(spec, seed=SEED + i, book=book, compiled=mode)
                             for i, spec in enumerate((first_spec, second_spec)))
            pos = Connect4()
            times: list[float] = []
            notes = []
            while pos.outcome() is None:
                mover = (first, second)[pos.turn]
                spent, decision = cpu(mover.choose, pos)
                if isinstance(mover, PerfectPlayer):
                    times.append(spent)
                    notes.append(decision.note)
                pos.push(decision.move)
            outcome = pos.outcome()
            assert outcome is not None  # (the loop above plays to the end)
            result = "draw" if outcome.winner is None else f"{'first' if outcome.winner == 0 else 'second'} wins"
            guesses = sum(not note.startswith("solved") for note in notes)
            row([f"{first_spec} vs {second_spec}", "C" if mode else "Python", str(pos.moves),
                 result + (f" ({guesses} unsolved)" if guesses else ""), str(len(times)),
                 f"{statistics.mean(times):.3f}", f"{percentile95(times):.3f}", f"{max(times):.3f}"])


def bench_opening(write: Write, *, quick: bool = False, limit: int | None = None) -> None:
    """The book, the positions by disc count, and the whole games (see the module doc)."""
    book, problem = default_book()
    book_lines(write, book, problem, random.Random(SEED))
    write("")
    positions_table(write, book, quick=quick, limit=limit)
    write("")
    games_table(write, book, quick=quick)
