"""``tui-games bench startup``: what a one-shot command costs, against a bare Python start.

Each command runs as its own process, ``repeats`` times; the table gives the median CPU time
(user + system, from the kernel's accounting of the finished child), its ratio to
``python -c pass``, and the modules the command imported beyond a bare start. A command-line
tool should pay for its own game only: ``sudoku solve`` of one puzzle imports the Sudoku
engine and pycosat, not the other games and not Textual.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tui_games.bench.table import Write, table

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


# What the ``tui-games`` script that pip writes does (without ``python -m``'s runpy).
SCRIPT = "import re, sys; from tui_games.cli import main; sys.exit(main())"


def commands(puzzle_file: Path) -> list[tuple[str, list[str]]]:
    python = [sys.executable]
    tool = [*python, "-c", SCRIPT]
    return [
        ("python -c pass", [*python, "-c", "pass"]),
        ("tui-games --version", [*tool, "--version"]),
        ("sudoku solve (1 puzzle)", [*tool, "sudoku", "solve", str(puzzle_file)]),
        ("connect4 solve 4455", [*tool, "connect4", "solve", "4455"]),
        ("tictactoe solve X.O/.X./...", [*tool, "tictactoe", "solve", "X.O/.X./..."]),
        ("checkers moves start", [*tool, "checkers", "moves", "start"]),
    ]


def cpu_seconds(argv: list[str], env: dict[str, str]) -> float:
    """CPU time (user + system) of one run of ``argv``, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imported_modules(argv: list[str], env: dict[str, str]) -> int:
    """How many modules ``argv`` imports (``python -X importtime`` lines, less the title)."""
    done = subprocess.run([argv[0], "-X", "importtime", *argv[1:]], capture_output=True, text=True, env=env)
    return sum(1 for line in done.stderr.splitlines() if line.startswith("import time:")) - 1


def bench_startup(write: Write, *, quick: bool = False) -> None:
    repeats = 5 if quick else 21
    with tempfile.TemporaryDirectory(prefix="tui-games-startup-") as home:
        puzzle_file = Path(home) / "one.txt"
        puzzle_file.write_text(PUZZLE + "\n")
        env = {**os.environ, "TUI_GAMES_HOME": home}
        write(f"One-shot commands, each its own process, median of {repeats} runs (CPU = user + system)")
        write("")
        row = table(write, ["command", "CPU ms", "x bare", "modules"], [28, 8, 7, 8])
        bare = None
        for label, argv in commands(puzzle_file):
            cpu = statistics.median(cpu_seconds(argv, env) for _ in range(repeats))
            bare = cpu if bare is None else bare
            row([label, f"{cpu * 1000:.1f}", f"{cpu / bare:.2f}" if bare else "-", str(imported_modules(argv, env))])
