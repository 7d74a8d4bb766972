"""Every contract between the generic engine code and a game, in one place.

- :class:`Position`: what the search, the players and the arena need of a game position;
  :class:`OrderedMoves`, :class:`DeadDraws` and :class:`Symmetries`: the search's optional
  hooks, and :class:`Playouts` Monte Carlo tree search's (:mod:`tui_games.engine.mcts`), which a position declares by naming them among its bases (defined in
  :mod:`tui_games.engine.game`, beside :class:`Outcome`, so the search can import them
  without importing the players); :class:`Notation`: what the adapter's defaults read.
- :class:`ArenaGame`: what the arena (:func:`tui_games.engine.arena.run_arena`), the
  ``arena`` command, the Lab and the sweep need of a game: its start, its players, its notation.
- :class:`LobbyGame`: what the lobby needs to referee a game between two people: the variants
  it offers, and replaying and naming moves (the server never trusts a client's move).

:class:`~tui_games.engine.adapter.GameAdapter` is the base class each game's adapter derives
from; it meets both adapter contracts, with defaults for what most games do alike. The
protocols say which part of it each caller relies on, so a caller's type names only that.
``tests/engine/test_contracts.py`` holds every game of the table (``tui_games.games``) to
all of them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, Protocol, runtime_checkable

from tui_games.engine.adapter import Variant
from tui_games.engine.game import DeadDraws, OrderedMoves, Outcome, Playouts, Position, Symmetries
from tui_games.engine.players import Player

__all__ = ["ArenaGame", "DeadDraws", "LobbyGame", "Notation", "OrderedMoves", "Outcome", "Playouts", "Position",
           "Symmetries"]


@runtime_checkable
class Notation(Protocol):
    """What :class:`~tui_games.engine.adapter.GameAdapter`'s defaults read a position with: its
    text in the game's notation, a move's name in it, and a diagram for the text clients. A
    game whose positions lack one overrides the adapter method instead (checkers: ``format``
    writes FEN)."""

    def format(self) -> str: ...

    def move_name(self, move: Any) -> str: ...

    def diagram(self) -> str: ...


@runtime_checkable
class ArenaGame(Protocol):
    """A game two computer players can play a series of.

    ``start(variant, text)`` is a fresh position: the variant's start, or ``text`` in the
    game's notation (ValueError names a bad one); ``format`` writes a position back in that
    notation, and ``move_text`` / ``parse_move`` name a move and read it back in the position it
    is played from. ``max_plies`` ends a game that drags on as a draw (None: the rules always
    end it). ``openings_file`` names a shipped collection ``parse_openings`` reads into
    (label, position) starts, or is None.
    """

    name: str
    title: str
    side_names: tuple[str, str]
    max_plies: int | None
    openings_file: str | None

    def check_variant(self, variant: Variant) -> Variant: ...

    def variant_label(self, variant: Variant) -> str: ...

    def spec_names(self, variant: Variant) -> list[str]: ...

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player: ...

    def start(self, variant: Variant, text: str | None = None) -> Any: ...

    def parse_openings(self, text: str) -> list[tuple[str, Any]]: ...

    def format(self, position: Any) -> str: ...

    def move_text(self, position: Any, move: Hashable) -> str: ...

    def parse_move(self, position: Any, text: str) -> Any: ...


@runtime_checkable
class LobbyGame(Protocol):
    """A game two people play over the lobby: ``variants`` are the (label, variant) presets
    offered (the first the default); the hub replays a game's moves from ``start`` with
    ``parse_move`` to check each new one, ``diagram`` draws a position for the text client,
    and ``export`` writes a game in the field's own format (checkers: PDN)."""

    title: str
    side_names: tuple[str, str]
    variants: tuple[tuple[str, Variant], ...]

    def check_variant(self, variant: Variant) -> Variant: ...

    def variant_label(self, variant: Variant) -> str: ...

    def start(self, variant: Variant, text: str | None = None) -> Any: ...

    def parse_move(self, position: Any, text: str) -> Any: ...

    def move_text(self, position: Any, move: Hashable) -> str: ...

    def diagram(self, position: Any) -> str: ...

    def export(self, position: Any, moves: list[str], *, players: tuple[str, str], result: int | None | str,
               event: str, date: str) -> str: ...
