"""The arena's registry: per game, how to set up a start, build a player, name a move.

``arena_game(name)`` returns the :class:`~.arena.ArenaGame` for tic-tac-toe, Connect-4 or
checkers (Sudoku is a one-player puzzle: it has no arena, and says so). Players come from the
game's own registry (``make_player``/``normalize_spec``); a spec may add to the name:

- ``:HEURISTIC`` — Connect-4's evaluation for that player's search (``level6:aware``);
- ``@SECONDS`` — that player's budget per move (``perfect@1``, ``strong@0.5``), overriding
  the series' ``seconds``.

Variants are plain dicts of the game's options (tic-tac-toe ``rows``/``cols``/``k``/
``misere``, Connect-4 ``full_board``), checked by :meth:`check_variant`.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from typing import Any

from tui_games.engine import tictactoe_players
from tui_games.engine.checkers import ballots as checkers_ballots
from tui_games.engine.checkers import players as checkers_players
from tui_games.engine.checkers.bits import square_of
from tui_games.engine.checkers.match import MAX_PLIES as CHECKERS_MAX_PLIES
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.connect4 import players as connect4_players
from tui_games.engine.connect4.heuristics import resolve_heuristic
from tui_games.engine.connect4.position import COLUMNS, Connect4, Connect4Error
from tui_games.engine.players import Player
from tui_games.engine.tictactoe import TicTacToe, geometry

__all__ = ["ARENA_GAMES", "NO_ARENA", "arena_game", "split_spec"]


def split_spec(spec: str) -> tuple[str, str | None, float | None]:
    """``level6:aware@2`` -> ("level6", "aware", 2.0); ValueError for a bad budget."""
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
    name, _, heuristic = text.partition(":")
    return name.strip(), heuristic.strip() or None, seconds


def _label(name: str, heuristic: str | None, seconds: float | None) -> str:
    if heuristic is not None and heuristic != "default":
        name = f"{name} ({heuristic})"
    if seconds is not None:
        name = f"{name} @{seconds:g}s"
    return name


class _BaseGame(ABC):
    """What the arena needs of a game; each game says how to start, who plays, how to read."""

    name = ""
    title = ""
    side_names = ("first", "second")
    max_plies: int | None = None
    # A shipped file of openings (read by the caller, parsed by parse_openings), or None.
    openings_file: str | None = None
    # (label, variant) presets the Lab offers; the first is the default.
    variants: tuple[tuple[str, dict], ...] = (("standard", {}),)
    # What the spec grammar allows beyond the name, for help texts.
    spec_help = "@S: seconds/move"

    def check_variant(self, variant: dict) -> dict:
        return {}

    def variant_of(self, position: Any) -> dict:
        """The variant ``position`` is played in (the Lab starts from a game screen's)."""
        return {}

    @abstractmethod
    def spec_names(self, variant: dict) -> list[str]:
        """The player names the game offers for ``variant`` (for menus and completion)."""

    @abstractmethod
    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: dict) -> Player:
        """A fresh player for ``spec``; ValueError names a bad one."""

    @abstractmethod
    def start(self, variant: dict, text: str | None = None) -> Any:
        """The start position of ``variant``, or the position ``text`` in the game's notation."""

    def parse_openings(self, text: str) -> list[tuple[str, Any]]:
        return []

    def diagram(self, position: Any) -> str:
        return position.diagram()

    def format(self, position: Any) -> str:
        return position.format()

    def move_text(self, position: Any, move: Any) -> str:
        return position.move_name(move)

    def variant_label(self, variant: dict) -> str:
        variant = self.check_variant(variant)
        for label, preset in self.variants:
            if self.check_variant(preset) == variant:
                return label
        return ", ".join(f"{k}={v}" for k, v in variant.items())


class TicTacToeArena(_BaseGame):
    name = "tictactoe"
    title = "tic-tac-toe"
    side_names = ("X", "O")
    variants = (
        ("3x3", {"rows": 3, "cols": 3, "k": 3, "misere": False}),
        ("3x3 misère", {"rows": 3, "cols": 3, "k": 3, "misere": True}),
        ("4x4, 3 in a row", {"rows": 4, "cols": 4, "k": 3, "misere": False}),
        ("4x4, 4 in a row", {"rows": 4, "cols": 4, "k": 4, "misere": False}),
        ("5x5, 4 in a row", {"rows": 5, "cols": 5, "k": 4, "misere": False}),
    )

    def check_variant(self, variant: dict) -> dict:
        rows, cols = int(variant.get("rows", 3)), int(variant.get("cols", 3))
        k = int(variant.get("k", min(rows, cols)))
        geometry(rows, cols, k)  # BoardError (a ValueError) names the problem
        return {"rows": rows, "cols": cols, "k": k, "misere": bool(variant.get("misere", False))}

    def variant_label(self, variant: dict) -> str:
        v = self.check_variant(variant)
        return f"{v['rows']}x{v['cols']}, {v['k']} in a row" + (", misère" if v["misere"] else "")

    def variant_of(self, position: TicTacToe) -> dict:
        return {"rows": position.rows, "cols": position.cols, "k": position.k, "misere": position.misere}

    def spec_names(self, variant: dict) -> list[str]:
        return [spec for spec, _ in tictactoe_players.opponents_for(self.start(variant))]

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: dict) -> Player:
        name, heuristic, own_seconds = split_spec(spec)
        if heuristic is not None:
            raise ValueError(f"{spec!r}: tic-tac-toe players take no heuristic (':{heuristic}')")
        key = tictactoe_players.normalize_spec(name)
        allowed = self.spec_names(variant)
        if key not in allowed:
            raise ValueError(f"{key} only plays 3x3, k=3, normal rules; on this board choose one of "
                             f"{', '.join(allowed)}")
        budget = own_seconds if own_seconds is not None else seconds
        player = tictactoe_players.make_player(key, seed=seed, seconds=budget)
        player.name = _label(player.name, None, own_seconds)
        return player

    def start(self, variant: dict, text: str | None = None) -> TicTacToe:
        v = self.check_variant(variant)
        if text is None or not text.strip():
            return TicTacToe(v["rows"], v["cols"], v["k"], v["misere"])
        # The board's own size wins: a start given as text says what board it is.
        return TicTacToe.parse(text, k=v["k"], misere=v["misere"])

    def parse_move(self, position: TicTacToe, text: str) -> int:
        return position.parse_move(text)

    def diagram(self, position: TicTacToe) -> str:
        """The board with the edges' letters and numbers, as moves are named (b2)."""
        rows = position.format().split("/")
        letters = [position.move_name(c)[0] for c in range(position.cols)]
        lines = ["   " + " ".join(letters)]
        lines += [f"{r:>2} " + " ".join(row) for r, row in enumerate(rows, 1)]
        return "\n".join(lines)


class Connect4Arena(_BaseGame):
    name = "connect4"
    title = "Connect-4"
    side_names = ("X", "O")
    variants = (("standard", {"full_board": False}), ("full board", {"full_board": True}))
    spec_help = ":simple/:aware heuristic, @S s/move"

    def check_variant(self, variant: dict) -> dict:
        return {"full_board": bool(variant.get("full_board", False))}

    def variant_of(self, position: Connect4) -> dict:
        return {"full_board": position.full_board}

    def spec_names(self, variant: dict) -> list[str]:
        return list(connect4_players.OPPONENTS)

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: dict) -> Player:
        name, heuristic, own_seconds = split_spec(spec)
        key = connect4_players.normalize_spec(name)
        heuristic = resolve_heuristic(heuristic or "default")
        budget = own_seconds if own_seconds is not None else seconds
        player = connect4_players.make_player(key, seed=seed, seconds=budget, heuristic=heuristic,
                                              full_board=self.check_variant(variant)["full_board"])
        player.name = _label(player.name, heuristic if key != "random" else None, own_seconds)
        return player

    def start(self, variant: dict, text: str | None = None) -> Connect4:
        return Connect4.parse(text or "", self.check_variant(variant)["full_board"])

    def parse_move(self, position: Connect4, text: str) -> int:
        t = text.strip()
        if len(t) != 1 or not "1" <= t <= str(COLUMNS) or not position.can_play(int(t) - 1):
            raise Connect4Error(f"move {text!r} is not a playable column in {position.format()!r}")
        return int(t) - 1


class CheckersArena(_BaseGame):
    name = "checkers"
    title = "checkers"
    side_names = ("Black", "White")
    max_plies = CHECKERS_MAX_PLIES
    openings_file = checkers_ballots.BALLOTS_FILE
    variants = (("three-move ballots", {}),)

    def spec_names(self, variant: dict) -> list[str]:
        return list(checkers_players.OPPONENTS)

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: dict) -> Player:
        name, heuristic, own_seconds = split_spec(spec)
        if heuristic is not None:
            raise ValueError(f"{spec!r}: checkers players take no heuristic (':{heuristic}')")
        key = checkers_players.normalize_spec(name)
        budget = own_seconds if own_seconds is not None else seconds
        if key == "strong" and budget is not None:
            checkers_players.check_seconds(budget)
        player = checkers_players.make_player(key, seed=seed, seconds=budget)
        player.name = _label(player.name, None, own_seconds)
        return player

    def parse_openings(self, text: str) -> list[tuple[str, Any]]:
        """The standard three-move ballots (the barred ones are known losses)."""
        return [(str(b), b.position()) for b in checkers_ballots.parse_ballots(text) if b.standard]

    def start(self, variant: dict, text: str | None = None) -> CheckersPosition:
        return CheckersPosition(text) if text and text.strip() else CheckersPosition()

    def format(self, position: CheckersPosition) -> str:
        return position.fen()

    def diagram(self, position: CheckersPosition) -> str:
        """Black at the top; an empty dark square shows its number, so the moves (11-15) read
        off the board: b/w men, B/W kings."""
        lines = []
        for row in range(8):
            cells = []
            for col in range(8):
                sq = square_of(row, col)
                cells.append("  " if sq is None else f" {position.piece_at(sq)}" if position.piece_at(sq)
                             else f"{sq:>2}")
            lines.append(" ".join(cells))
        return "\n".join(lines)

    def move_text(self, position: CheckersPosition, move: Any) -> str:
        return str(move)

    def parse_move(self, position: CheckersPosition, text: str) -> Any:
        return position.parse_move(text)


ARENA_GAMES: dict[str, _BaseGame] = {g.name: g for g in (TicTacToeArena(), Connect4Arena(), CheckersArena())}

# Games of the suite without an arena, and why.
NO_ARENA = {"sudoku": "Sudoku is a one-player puzzle: there is no opponent to play against"}


def arena_game(name: str) -> _BaseGame:
    """The arena entry for ``name``; ValueError names the games that have one."""
    key = name.strip().lower()
    if key in ARENA_GAMES:
        return ARENA_GAMES[key]
    if key in NO_ARENA:
        raise ValueError(f"{NO_ARENA[key]}; the arena plays {', '.join(ARENA_GAMES)}")
    raise ValueError(f"no arena for {name!r}; choose one of {', '.join(ARENA_GAMES)}")
