"""Players: anything that picks a move for a position, and says in one line why.

A player never changes the position it is given (searches work on a copy). ``choose`` takes
the same ``stop`` / ``on_progress`` / ``recorder`` hooks as the search, so the UI runs every
kind of opponent through one engine worker; players that do not search simply ignore them.
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Hashable

from tui_games.engine.mcts_spec import MCTS_NAME, mcts_spec
from tui_games.engine.search import (
    TT,
    SearchLimits,
    SearchResult,
    SearchStats,
    is_win_score,
    plies_to_end,
    resolve_algorithm,
    score_words,
    search,
)
from tui_games.engine.tree import TreeRecorder

ProgressCallback = Callable[[SearchStats], None]


@dataclass
class Decision:
    move: Any
    # One short line explaining the choice, for the status bar and the move list.
    note: str
    # The search behind the choice; None for players that do not search.
    result: SearchResult | None = None


class PlayerFailed(Exception):
    """A player could not give a move (a bot file that raised, answered too late or with an
    illegal move, printed, or died): it loses the game. The message is the one-line reason."""


class Player(ABC):
    """Base class: ``name`` is the label shown to the user, ``choose`` picks a move.

    ``choose`` raises :class:`PlayerFailed` when the player cannot give a move and so loses
    the game (only players outside the engine's own do: ``tui_games.bots``). ``close`` lets
    go of what the player holds (a bot's child process); the arena calls it when a series
    ends, and a player that holds nothing ignores it.
    """

    name: str = "player"

    def close(self) -> None:  # noqa: B027 - an optional hook: most players hold nothing
        """Let go of what the player holds; it may be used again afterwards."""

    @abstractmethod
    def choose(
        self,
        position: Any,
        *,
        stop: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        recorder: TreeRecorder | None = None,
    ) -> Decision:
        """The move to play in ``position`` (never changed), and why."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _plies(n: int) -> str:
    return f"{n} ply" if n == 1 else f"{n} plies"


def describe_result(result: SearchResult, *, timing: bool = True) -> str:
    """A one-line summary of a search result, from the side to move: depth, value, proof.

    A win or loss score is a forced line even when other lines were cut off by the horizon
    (heuristic scores never reach the win band), so it is reported as found, not guessed.
    ``timing`` adds when a stopped search gave up (callers with their own wording turn it off).
    """
    stats = result.stats
    head = f"depth {stats.depth}"
    if result.stopped and timing:
        # The budget's clock is the search thread's CPU time: say so (the wall may be longer).
        spent = stats.cpu_seconds or stats.seconds
        head += f", stopped after {spent:.1f} s{' CPU' if stats.cpu_seconds else ''}"
    if result.exact:
        value = result.value
        assert value is not None  # an exact result has one
        if value == 0:
            return f"{head}: draw (proven)"
        end = plies_to_end(result.score)
        assert end is not None  # a proven win or loss has a distance
        word = "win" if value > 0 else "loss"
        return f"{head}: {word} in {_plies(end)} (proven)"
    if is_win_score(result.score):
        end = plies_to_end(result.score)
        assert end is not None
        word = "forced win" if result.score > 0 else "forced loss"
        return f"{head}: {word} in {_plies(end)}"
    words = score_words(result.score)
    if words[0] in "+-":
        return f"{head}: score {words} (heuristic)"
    return f"{head}: {words} (the evaluation sees it)"


class SearchPlayer(Player):
    """Plays the move a :func:`search.search` finds, tie-breaking with its own seeded RNG.

    ``keep_table`` keeps one transposition table for the player's whole game: its entries
    hold values relative to the node they describe, so they stay valid from move to move
    and later searches start with most of the work done.
    """

    def __init__(
        self,
        name: str,
        limits: SearchLimits = SearchLimits(),  # noqa: B008 - frozen, so one shared default is safe
        algorithm: str = TT,
        *,
        seed: int | None = None,
        keep_table: bool = False,
        evaluation: Callable[[Any], int] | None = None,
    ) -> None:
        self.name = name
        # None: the position's own evaluate(); else a function of the position, scored from
        # the side to move, that judges the search's horizon.
        self.evaluation = evaluation
        self.limits = limits
        self.algorithm = resolve_algorithm(algorithm)
        self.rng = random.Random(seed)
        self.table: dict[Hashable, Any] | None = {} if keep_table else None

    def prepare(self, position: Any) -> tuple[Any, SearchLimits]:
        """The position to search and the limits to search it with (subclasses adapt both)."""
        return position, self.limits

    def describe(self, result: SearchResult, position: Any) -> str:
        return describe_result(result)

    def choose(
        self,
        position: Any,
        *,
        stop: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        recorder: TreeRecorder | None = None,
    ) -> Decision:
        target, limits = self.prepare(position)
        result = search(
            target,
            limits,
            self.algorithm,
            stop=stop,
            on_progress=on_progress,
            recorder=recorder,
            rng=self.rng,
            table=self.table,
            evaluation=self.evaluation,
        )
        return Decision(result.move, self.describe(result, position), result)


class RandomPlayer(Player):
    """Uniform over the legal moves."""

    def __init__(self, *, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = random.Random(seed)

    def choose(self, position: Any, *, stop: threading.Event | None = None,
               on_progress: ProgressCallback | None = None, recorder: TreeRecorder | None = None) -> Decision:
        moves = position.legal_moves()
        if not moves:
            return Decision(None, "no legal move: the game is over")
        return Decision(self.rng.choice(moves), "random move")


def lookup_spec(spec: str, opponents: dict[str, str]) -> str:
    """The key of ``opponents`` (spec -> label) that ``spec`` names, as a spec or a label in
    any case, or ``mcts:N`` where the game offers ``mcts``; ValueError lists the choices."""
    key = spec.strip().lower()
    if MCTS_NAME in opponents:
        playouts = mcts_spec(key)
        if playouts is not None:
            return playouts
    if key in opponents:
        return key
    for name, label in opponents.items():
        if key == label.lower():
            return name
    raise ValueError(f"unknown opponent {spec!r}; choose one of {', '.join(opponents)}")
