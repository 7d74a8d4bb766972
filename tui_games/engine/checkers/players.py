"""Checkers opponents: the engine by depth or by time, the material baseline, random.

Use :func:`make_player` with a spec string:

- ``strong`` — the engine (:mod:`.engine`) with a time budget per move, 0.5–10 s
  (``seconds``, default :data:`DEFAULT_SECONDS`), evaluating with :data:`.engine.STRONG_EVALUATION`;
- ``level1`` … ``level12`` — the engine searching that many plies (plus its capture
  extensions), capped at ``seconds`` if given, with the evaluation without the network (the
  levels' arena table in docs/games/checkers.md was measured so);
- ``baseline`` — plain alpha-beta (the generic :func:`search.search`, no ordering, no
  table, no extensions) to depth 6 with a material-only evaluation: the yardstick of the
  engine match (:mod:`.match`);
- ``mcts`` — Monte Carlo tree search (:mod:`tui_games.engine.mcts`), ``seconds`` of CPU a
  move (default 1);
- ``random`` — a uniformly random legal move.

Every player takes the UI worker's hooks (``stop``, ``on_progress``, ``recorder``) and
never changes the position it is given.
"""

from __future__ import annotations

import random
import threading

from tui_games.engine.checkers.book import OpeningBook
from tui_games.engine.checkers.egdb import EndgameDB, value_note
from tui_games.engine.checkers.engine import STRONG_EVALUATION, Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import (
    Decision,
    Player,
    ProgressCallback,
    RandomPlayer,
    SearchPlayer,
    describe_result,
    lookup_spec,
)
from tui_games.engine.search import ALPHABETA, SearchLimits
from tui_games.engine.tree import TreeRecorder

__all__ = [
    "BASELINE_DEPTH",
    "DEFAULT_SECONDS",
    "LEVELS",
    "OPPONENTS",
    "BaselinePlayer",
    "EnginePlayer",
    "make_player",
    "normalize_spec",
]

LEVELS = range(1, 13)
DEFAULT_SECONDS = 2.0
MIN_SECONDS, MAX_SECONDS = 0.5, 10.0
BASELINE_DEPTH = 6


class EnginePlayer(Player):
    """The engine under a depth or time limit. One :class:`Engine` per player: its table
    and history carry from move to move within a game. ``database``: the endgame tables
    the caller opened (``tui_games.data.checkers_db.shared_db()``), probed in the search;
    ``book``: an opening book (``tui_games.data.checkers_book.shared_book()``) whose moves are
    played without a search."""

    def __init__(self, name: str, limits: SearchLimits, *, seed: int | None = None,
                 evaluation: str = "default", database: EndgameDB | None = None,
                 book: OpeningBook | None = None) -> None:
        self.name = name
        self.limits = limits
        self.rng = random.Random(seed)
        self.engine = Engine(evaluation=evaluation, database=database)
        self.book = book

    def choose(self, position: CheckersPosition, *, stop: threading.Event | None = None,
               on_progress: ProgressCallback | None = None, recorder: TreeRecorder | None = None) -> Decision:
        if position.outcome() is not None:
            return Decision(None, "no legal move: the game is over")
        booked = self.book.move(position) if self.book is not None else None
        if booked is not None:
            return Decision(booked, "opening book")
        result = self.engine.search(position, self.limits, stop=stop, on_progress=on_progress, recorder=recorder,
                                    rng=self.rng)
        note = describe_result(result)
        database = self.engine.database
        value = database.probe(position) if database is not None else None
        if value is not None:
            # What the stats panel and `checkers play` show: the tables' verdict, not a guess.
            note = f"{value_note(value, position.turn)} · {note}"
        if len(position.legal_moves()) == 1:
            note = f"only move ({note})"
        elif result.stopped and stop is not None and stop.is_set():
            note = f"stopped: {describe_result(result, timing=False)}"
        return Decision(result.move, note, result)


class BaselinePlayer(SearchPlayer):
    """Plain alpha-beta to depth 6 on material alone (men 100, kings 150), through the
    generic search: the engine match's yardstick. Ties are broken by its seeded RNG."""

    def __init__(self, *, seed: int | None = None, depth: int = BASELINE_DEPTH) -> None:
        super().__init__("baseline", SearchLimits(depth=depth), ALPHABETA, seed=seed)

    def prepare(self, position: CheckersPosition) -> tuple[CheckersPosition, SearchLimits]:
        pos = position.copy()
        pos.heuristic = "material"
        return pos, self.limits


# -- the registry -------------------------------------------------------------------------------------

# spec -> label, in the order a menu shows them.
OPPONENTS: dict[str, str] = {
    "strong": "strong",
    **{f"level{n}": f"level {n}" for n in LEVELS},
    "baseline": "baseline (material, depth 6)",
    "mcts": "Monte Carlo tree search",
    "random": "random",
}


def normalize_spec(spec: str) -> str:
    """The registry key for ``spec`` (a spec or a label, any case); ValueError lists the choices."""
    return lookup_spec(spec, OPPONENTS)


def check_seconds(seconds: float) -> float:
    """``seconds`` if it is a budget the strong player accepts (0.5–10), else ValueError."""
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise ValueError(f"seconds per move {seconds:g} is not from {MIN_SECONDS:g} to {MAX_SECONDS:g}")
    return float(seconds)


def make_player(spec: str, *, seed: int | None = None, seconds: float | None = None,
                database: EndgameDB | None = None, book: OpeningBook | None = None) -> Player:
    """A fresh player for ``spec`` (see the module doc). ``seconds``: the strong player's
    budget per move (0.5–10, default 2) or the levels' safety cap; ``seed`` makes the
    tie-breaks reproducible; ``database`` (endgame tables) and ``book`` (an opening book)
    serve ``strong`` only: the levels stay what their depth makes them, for people to
    measure themselves against."""
    key = normalize_spec(spec)
    if key == "strong":
        budget = check_seconds(DEFAULT_SECONDS if seconds is None else seconds)
        return EnginePlayer("strong", SearchLimits(seconds=budget), seed=seed, evaluation=STRONG_EVALUATION,
                            database=database, book=book)
    if key.startswith("level"):
        level = int(key.removeprefix("level"))
        return EnginePlayer(f"level {level}", SearchLimits(depth=level, seconds=seconds), seed=seed)
    if key == "baseline":
        return BaselinePlayer(seed=seed)
    mcts = mcts_player(key, seconds=seconds, seed=seed)
    if mcts is not None:  # mcts (CPU seconds a move) or mcts:N (N playouts)
        return mcts
    return RandomPlayer(seed=seed)
