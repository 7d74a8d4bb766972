"""``tui-games bench bots``: what a bot file's child process costs a move.

A trivial bot (the first legal move) as a file, against the same player built in, over the
positions of seeded random games of each game: the moves a second of each, the milliseconds the
child adds to a move (the pipe both ways, the position brought up to date there, the move read
back and checked) and the child's start (a fresh interpreter loading the file), paid once a
series. The goal: under 2 ms a move.
"""

from __future__ import annotations

import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tui_games.bench.table import Write, table
from tui_games.bots import player_factory
from tui_games.engine.players import Decision, Player, ProgressCallback
from tui_games.engine.tree import TreeRecorder
from tui_games.games import arena_adapter

TRIVIAL = "def choose(position):\n    return position.legal_moves()[0]\n"
GAMES = ("tictactoe", "connect4", "checkers")


class FirstMove(Player):
    """The trivial bot, built in."""

    name = "first move"

    def choose(
        self,
        position: Any,
        *,
        stop: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        recorder: TreeRecorder | None = None,
    ) -> Decision:
        return Decision(position.legal_moves()[0], "")


def _positions(game: Any, count: int, seed: int) -> list[Any]:
    """Positions of random games (each game's, one after another), as an arena meets them."""
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        position = game.start({})
        while position.outcome() is None and len(found) < count and len(position.history) < 150:
            found.append(position.copy())
            position.push(rng.choice(position.legal_moves()))
    return found


def _per_move(player: Player, positions: list[Any]) -> float:
    began = time.perf_counter()
    for position in positions:
        player.choose(position)
    return (time.perf_counter() - began) / len(positions)


def bench_bots(write: Write, *, quick: bool = False) -> None:
    moves = 300 if quick else 2000
    write(
        f"A trivial bot file (the first legal move) against the same player built in, {moves} moves of "
        "random games each"
    )
    write("")
    row = table(write, ["game", "built in/s", "file/s", "ms added", "child start ms"], [10, 12, 10, 9, 15])
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trivial.py"
        path.write_text(TRIVIAL, encoding="utf-8")
        for name in GAMES:
            game = arena_adapter(name)
            positions = _positions(game, moves, seed=1)
            built_in = _per_move(FirstMove(), positions)
            bot = player_factory(game)(str(path), seed=1, seconds=5.0, variant={})
            try:
                began = time.perf_counter()
                bot.choose(positions[0])
                start = time.perf_counter() - began
                in_file = _per_move(bot, positions)
            finally:
                bot.close()
            row(
                [
                    name,
                    f"{1 / built_in:,.0f}",
                    f"{1 / in_file:,.0f}",
                    f"{(in_file - built_in) * 1000:.2f}",
                    f"{start * 1000:.0f}",
                ]
            )
    write("")
    write("ms added: the child's cost a move (goal: under 2 ms); child start: once a series")
