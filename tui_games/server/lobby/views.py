"""How the lobby's games and offers look to a client: plain dicts for JSON (the socket, and
``--json`` of the SSH commands)."""

from __future__ import annotations

from collections.abc import Set

from tui_games.games import arena_adapter
from tui_games.server.lobby.house import house_limit_text
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import GameRow, Offer

RESULTS = {0: "first", 1: "second", None: "draw"}


def game_data(lobby: Lobby, row: GameRow) -> dict:
    """The "show" object of docs/serving.md: id, game, variant, players {first, second}, moves in the
    game's notation, to_move, result (null while it goes on, "first", "second" or "draw"), rated;
    and more for the apps (names, clock, seconds left, offers, the winner's name, the reason)."""
    adapter = arena_adapter(row.game)
    position = lobby.position(row) if row.status == "live" else None
    return {"id": row.id, "game": row.game, "variant": row.variant,
            "players": {"first": row.players[0], "second": row.players[1]}, "names": list(row.players),
            "moves": row.moves, "to_move": None if position is None else row.players[position.turn],
            "result": None if row.status == "live" else RESULTS[row.winner], "rated": row.rated,
            "clock": row.clock, "status": row.status, "winner": None if row.winner is None else row.players[row.winner],
            "reason": row.reason, "draw_offer": row.draw_offer, "takeback_offer": row.takeback_offer,
            "last_move": row.last_move, "assist": row.assist, "opening": row.opening,
            "deadline": lobby.deadline(row),
            "seconds_left": [None if left is None else round(left, 1) for left in row.left],
            "computers": [name for name in row.players if name in lobby.computers],
            # The moves the side to move may make, in the game's notation (what a bot chooses from).
            "legal": [] if position is None else [adapter.move_text(position, move)
                                                  for move in position.legal_moves()]}


def offer_data(offer: Offer) -> dict:
    return {"id": offer.id, "kind": offer.kind, "owner": offer.owner, "target": offer.target, "game": offer.game,
            "variant": offer.variant, "clock": offer.clock, "rated": offer.rated, "colour": offer.colour,
            "assist": offer.assist}


def online_view(lobby: Lobby, online: list[tuple[str, str]], in_lobby: Set[str] = frozenset()) -> list[dict]:
    """``who``: everyone connected, and what they are doing (a live game says whom against)."""
    playing = {}
    for row in lobby.games(live=True)[:500]:
        for side, name in enumerate(row.players):
            playing[name] = f"playing {row.game} v {row.players[1 - side]}"
    seen: set[str] = set()  # a player with two sessions (one ending, one beginning) is listed once
    people = []
    for name, doing in online:
        if name not in seen:
            seen.add(name)
            people.append({"name": name, "status": playing.get(name) or ("in the lobby" if name in in_lobby else doing)})
    limit = house_limit_text()  # its own limit, so nobody is surprised by a decline
    return people + [{"name": name, "status": f"{playing.get(name) or f'a computer: challenge it to {game}'}; {limit}",
                      "computer": True, "limit": limit} for name, game in sorted(lobby.computers.items())]
