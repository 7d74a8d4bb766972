"""How to play each game: its rules page (``GameSpec.rules``, in the game table), in order.

The help screen shows them first, the current game's on top when ``?`` is pressed in a game.
"""

from __future__ import annotations

from tui_games.games import GAMES


def rules_for(game: str | None) -> list[str]:
    """Every game's rules page, ``game``'s first."""
    return [spec.rules for spec in sorted(GAMES, key=lambda spec: spec.key != game)]
