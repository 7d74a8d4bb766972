"""Benchmarks: ``tui-games bench NAME`` prints tables, one module per game (named in the game
table, :mod:`tui_games.games`) plus the ones about the program itself.

Speed is measured here, never in timed tests (see docs/DESIGN.md). The machine goes at the top:
the numbers mean nothing without it.
"""

from __future__ import annotations

import inspect
from typing import Callable

from tui_games.bench.sweep import sweep_bench
from tui_games.bench.table import Write, machine_line
from tui_games.games import GAMES, find_game, load_function

# Benchmarks of the program rather than of a game's engine.
PROGRAM_BENCHES = {
    "terminal": "tui_games.bench.terminal:bench_terminal",
    "startup": "tui_games.bench.startup:bench_startup",
    "bots": "tui_games.bench.bots:bench_bots",
    "server": "tui_games.bench.server.storms:bench_server",
    "online": "tui_games.bench.server.online:bench_online",
    "capacity": "tui_games.bench.server.capacity:bench_capacity",
}


def bench_names() -> list[str]:
    return [*(spec.key for spec in GAMES), *PROGRAM_BENCHES]


def find_bench(name: str, sweep: bool = False) -> Callable[..., None]:
    """The bench function for ``name`` (a game, or one of PROGRAM_BENCHES); with ``sweep``,
    the algorithm sweep on that game. ValueError names what there is."""
    key = name.strip().lower()
    if sweep:
        return sweep_bench(key)
    if key in PROGRAM_BENCHES:
        return load_function(PROGRAM_BENCHES[key])
    try:
        return find_game(key).bench_function
    except ValueError:
        raise ValueError(f"no benchmark for {name!r}; choose one of {', '.join(bench_names())}") from None


def run(game: str, write: Write = print, **options) -> None:
    """Print the benchmark for ``game``; ValueError names the games that have one. With
    ``sweep=True``, the algorithm sweep (:mod:`tui_games.bench.sweep`) instead."""
    bench = find_bench(game, sweep=options.pop("sweep", False))
    accepted = inspect.signature(bench).parameters
    for name in options:
        if name not in accepted:
            flag = "--" + name.removesuffix("s").replace("_", "-")
            raise ValueError(f"{flag} does not apply to the {game.strip().lower()} benchmark")
    # The machine line goes out with the bench's first line, so a bench that refuses its input
    # (a bad set file) prints one error and no half table.
    started = False

    def write_after_machine_line(line: str) -> None:
        nonlocal started
        if not started:
            started = True
            write(machine_line())
            write("")
        write(line)

    bench(write_after_machine_line, **options)
