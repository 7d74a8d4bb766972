"""The one interface every two-player game offers to what plays it without a screen.

The arena (bot against bot), the Lab, the algorithm sweep and the lobby all drive a game
through its :class:`GameAdapter`, so none of them knows a game's rules: how to set up a
variant's start, build a player from a spec, read and name a move. Each game's engine package
holds its adapter (``tictactoe/arena.py``, ``connect4/arena.py``, ``checkers/arena.py``); the
game table (``tui_games.games``) says which game has one.

A player spec is the name of one of the game's players, then what the game lets a player
take (Connect-4: ``:HEURISTIC``, ``level6:aware``; see each adapter's ``spec_help``), then, for
every game, ``@SECONDS``: that player's budget per move (``perfect@1``, ``strong@0.5``),
overriding the series' ``seconds``. :func:`split_spec` takes the budget off; the rest is the
game's to read.

Variants are plain dicts of the game's options (tic-tac-toe ``rows``/``cols``/``k``/
``misere``, Connect-4 ``full_board``), checked by :meth:`GameAdapter.check_variant`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tui_games.engine.analysis import Judge
from tui_games.engine.players import Player

__all__ = ["GameAdapter", "LibraryPosition", "Variant", "find_position", "player_label", "split_spec"]

# A game's options: tic-tac-toe's rows, cols, k, misere; Connect-4's full_board.
Variant = dict[str, Any]


@dataclass(frozen=True)
class LibraryPosition:
    """A position worth searching, in the game's own notation, with the variant it belongs to."""

    key: str
    text: str
    note: str
    variant: Variant = field(default_factory=dict)
    # The deepest sweep that is still quick here (every configuration, pure Python).
    depth: int = 6


def split_spec(spec: str) -> tuple[str, float | None]:
    """``level6:aware@2`` -> ("level6:aware", 2.0); ValueError for a bad budget."""
    text = spec.strip()
    seconds = None
    if "@" in text:
        text, _, budget = text.rpartition("@")
        try:
            seconds = float(budget)
        except ValueError:
            raise ValueError(f"{budget!r} after '@' is not a number of seconds") from None
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"{budget!r} after '@' must be a positive number of seconds")
    return text.strip(), seconds


def player_label(name: str, seconds: float | None, *, option: str | None = None) -> str:
    """The name a player is shown by: with the game's ``option`` for it (Connect-4: a
    heuristic other than the default) and its own budget, when the spec gave one."""
    if option is not None:
        name = f"{name} ({option})"
    if seconds is not None:
        name = f"{name} @{seconds:g}s"
    return name


class GameAdapter(ABC):
    """A game as the arena, the Lab, the sweep and the lobby see it: how to start a variant, build
    a player from a spec, read and name a move. Each game's package has one (``<game>/arena.py``)."""

    name = ""
    title = ""
    side_names = ("first", "second")
    max_plies: int | None = None
    # A shipped file of openings (read by the caller, parsed by parse_openings), or None.
    openings_file: str | None = None
    # (label, variant) presets the Lab offers; the first is the default.
    variants: tuple[tuple[str, Variant], ...] = (("standard", {}),)
    # What the spec grammar allows beyond the name, for help texts.
    spec_help = "@S: seconds/move"
    # (player A, player B, games) a fresh Lab proposes: a quick run with a clear story.
    lab_defaults: tuple[str, str, int] = ("random", "random", 10)
    # Positions worth searching (the sweep, the Lab's Compare tab); the first is the default.
    positions: tuple[LibraryPosition, ...] = ()

    def check_variant(self, variant: Variant) -> Variant:
        return {}

    def variant_of(self, position: Any) -> Variant:
        """The variant ``position`` is played in (the Lab starts from a game screen's)."""
        return {}

    @abstractmethod
    def spec_names(self, variant: Variant) -> list[str]:
        """The player names the game offers for ``variant`` (for menus and completion)."""

    @abstractmethod
    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player:
        """A fresh player for ``spec``; ValueError names a bad one."""

    @abstractmethod
    def start(self, variant: Variant, text: str | None = None) -> Any:
        """The start position of ``variant``, or the position ``text`` in the game's notation."""

    @abstractmethod
    def parse_move(self, position: Any, text: str) -> Any:
        """The move ``text`` (the game's notation) in ``position``; ValueError names a bad one."""

    def parse_openings(self, text: str) -> list[tuple[str, Any]]:
        return []

    # The defaults read the position's Notation (tui_games.engine.contracts).
    def diagram(self, position: Any) -> str:
        return str(position.diagram())

    def format(self, position: Any) -> str:
        return str(position.format())

    def move_text(self, position: Any, move: Any) -> str:
        return str(position.move_name(move))

    def variant_label(self, variant: Variant) -> str:
        variant = self.check_variant(variant)
        for label, preset in self.variants:
            if self.check_variant(preset) == variant:
                return label
        return ", ".join(f"{k}={v}" for k, v in variant.items())

    # How export() separates moves: Connect-4's move strings are digits run together ("4455").
    move_separator = " "

    def export(self, position: Any, moves: list[str], *, players: tuple[str, str], result: int | None | str,
               event: str, date: str) -> str:
        """A finished or running game in the field's own format: by default its moves in the
        game's notation (``result``: the winner 0/1, None for a draw, "*" if it goes on)."""
        return self.move_separator.join(moves) + "\n"

    def record_tags(self, start: Any, tags: Mapping[str, str]) -> dict[str, str]:
        """Tags a record of a game played from ``start`` carries besides ``tags`` (the project's
        own: First, Second…) so that the field's own programs read it too; none by default."""
        return {}

    def judge(self, variant: Variant, *, seconds: float | None = None) -> Judge | None:
        """What reviews a game of ``variant`` (tui_games.engine.analysis): a solver, or the engine
        with ``seconds`` CPU seconds a position (None: the game's default); None if the game has
        no review."""
        return None

    def sweep_depth(self, position: Any) -> int:
        """The depth the Lab's comparison proposes for ``position`` (quick in pure Python)."""
        return 6

    def library_position(self, entry: LibraryPosition) -> Any:
        """A fresh position for the library entry ``entry``."""
        return self.start(entry.variant, entry.text or None)


def find_position(adapter: GameAdapter, key: str) -> LibraryPosition | None:
    """The library entry ``key`` (any case) of the game ``adapter`` plays, or None."""
    want = key.strip().lower()
    return next((entry for entry in adapter.positions if entry.key == want), None)
