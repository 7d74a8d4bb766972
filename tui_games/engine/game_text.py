"""A game's text read into its start and moves: the moves in the game's own notation
(Connect-4's column digits, which may run together; tic-tac-toe's cells; checkers' movetext),
a record (:mod:`tui_games.engine.records`: ``analyse --export``'s, the archive's) or, for
checkers, a PDN game. Shared by ``tui-games analyse`` and the Games screen's import; every
problem is a ValueError of one line naming the line or the move.
"""

from __future__ import annotations

from typing import Any

from tui_games.engine.adapter import GameAdapter
from tui_games.engine.records import parse_variant, read_record

__all__ = ["MAX_MOVES", "MoveError", "read_game"]

# A game longer than this is not a game of ours (and a review of it would not end).
MAX_MOVES = 1000


class MoveError(ValueError):
    """A move of the game that cannot be played: which one (1 is the first)."""

    def __init__(self, message: str, number: int) -> None:
        super().__init__(message)
        self.number = number


def _tokens(game: GameAdapter, text: str) -> list[str]:
    words = text.split()
    if game.move_separator == "" and len(words) == 1:
        return list(words[0])  # Connect-4's "4453": one move a digit
    return words


def _is_pdn(game: GameAdapter, text: str) -> bool:
    stripped = text.lstrip()
    return game.name == "checkers" and (stripped.startswith("[") or "." in stripped.split("\n", 1)[0])


def read_game(game: GameAdapter, text: str, variant: dict[str, Any]) -> tuple[Any, list[Any], dict[str, Any], dict[str, str]]:
    """(start position, moves, variant, tags) of the game in ``text``, a game of ``game`` (the
    caller checks a record's Game tag); ValueError (one line) naming the line or the move and
    the problem. A PDN game's ``Black`` and ``White`` are its ``First`` and ``Second`` (by who
    moved first)."""
    tags: dict[str, str] = {}
    start_text: str | None = None
    if _is_pdn(game, text):
        from tui_games.engine.checkers.pdn import read_pdn_game

        pdn = read_pdn_game(text)
        start = game.start(variant, pdn.start_fen)
        tags = dict(pdn.tags)
        # PDN names the players by colour; a record by who moved first (Black, unless the
        # start has White to move).
        colours = ("Black", "White") if start.turn == 0 else ("White", "Black")
        for ours, theirs in zip(("First", "Second"), colours):
            if ours not in tags and tags.get(theirs):
                tags[ours] = tags[theirs]
        moves = list(pdn.moves)
        if not moves:
            raise ValueError("no moves")
        return start, moves, variant, tags
    if text.lstrip().startswith("["):
        record = read_record(text)
        tags = record.tags
        if tags.get("Variant"):
            try:
                variant = game.check_variant(parse_variant(tags["Variant"]))
            except ValueError as error:
                raise ValueError(f"Variant: {error}") from None
        start_text = tags.get("Start") or None
        words = record.moves
    else:
        words = _tokens(game, text)
    if len(words) > MAX_MOVES:
        raise ValueError(f"{len(words)} moves; a game here has at most {MAX_MOVES}")
    try:
        start = game.start(variant, start_text)
    except ValueError as error:
        raise ValueError(f"Start {start_text!r}: {error}") from None
    # The archive writes who moves first where the notation does not say (tic-tac-toe).
    turn = tags.get("StartTurn", "")
    if turn:
        if turn not in ("0", "1"):
            raise ValueError(f"StartTurn {turn!r} is not 0 or 1")
        start.turn = int(turn)
    position = start.copy()
    moves = []
    for number, word in enumerate(words, 1):
        if position.outcome() is not None:
            raise ValueError(f"move {number} ({word!r}): the game was already over")
        try:
            move = game.parse_move(position, word)
        except ValueError as error:
            raise MoveError(f"move {number} ({word!r}): {error}", number) from None
        moves.append(move)
        position.push(move)
    if not moves:
        raise ValueError("no moves")
    return start, moves, variant, tags
