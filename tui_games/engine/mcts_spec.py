"""How a player spec names Monte Carlo tree search: ``mcts`` (a budget in CPU seconds a move)
or ``mcts:N`` (N playouts a move). Apart from :mod:`.mcts` so that the players' registry
(:func:`tui_games.engine.players.lookup_spec`) reads it without importing the search."""

from __future__ import annotations

__all__ = ["MCTS_NAME", "is_mcts", "mcts_choices", "mcts_spec", "parse_mcts_spec", "spec_family"]

MCTS_NAME = "mcts"


def is_mcts(text: str) -> bool:
    """Whether ``text`` names MCTS (``mcts`` or ``mcts:…``, a bad count too)."""
    return text.strip().lower().partition(":")[0] == MCTS_NAME


def parse_mcts_spec(text: str) -> int | None:
    """``mcts`` -> None (a budget in seconds), ``mcts:N`` -> N playouts. ValueError for
    ``mcts:`` with no whole positive number, and for a text that is not MCTS (ask
    :func:`is_mcts` first)."""
    name, colon, rest = text.strip().lower().partition(":")
    if name != MCTS_NAME:
        raise ValueError(f"{text[:40]!r} is not Monte Carlo tree search (mcts or mcts:N)")
    if not colon:
        return None
    count = rest.strip().replace(",", "").replace("_", "")
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"{rest!r} after 'mcts:' is not a whole positive number of playouts")
    return int(count)


def mcts_spec(text: str) -> str | None:
    """``mcts:N`` written the one way (``MCTS:1,000`` -> ``mcts:1000``) when ``text`` names
    MCTS by its playouts, else None; ValueError for a bad ``mcts:N``."""
    if not is_mcts(text):
        return None
    playouts = parse_mcts_spec(text)
    return None if playouts is None else f"{MCTS_NAME}:{playouts}"


def mcts_choices(spec: str) -> list[tuple[str, str]]:
    """An options dialog's (label, value) for ``spec`` when it is ``mcts:N`` (given on the
    command line: the dialog keeps it a choice), else none."""
    try:
        key = mcts_spec(spec)
    except ValueError:
        return []
    if key is None:
        return []
    return [(f"Monte Carlo tree search, {int(key.partition(':')[2]):,} playouts", key)]


def spec_family(spec: str) -> str:
    """The registry name a spec belongs to: ``mcts`` for ``mcts:N``, else ``spec`` itself (so
    that a check against a game's opponents accepts MCTS at any number of playouts)."""
    try:
        return MCTS_NAME if mcts_spec(spec) is not None else spec
    except ValueError:
        return spec
