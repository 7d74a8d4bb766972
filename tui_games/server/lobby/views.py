"""How the lobby's games and offers look to a client: plain dicts for JSON (the socket, and
``--json`` of the SSH commands)."""

from __future__ import annotations

from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.storage import GameRow, Offer


def game_data(lobby: Lobby, row: GameRow) -> dict:
    return {"id": row.id, "game": row.game, "variant": row.variant, "players": list(row.players),
            "clock": row.clock, "rated": row.rated, "moves": row.moves, "status": row.status,
            "to_move": lobby.to_move(row), "winner": None if row.winner is None else row.players[row.winner],
            "reason": row.reason, "draw_offer": row.draw_offer, "takeback_offer": row.takeback_offer,
            "last_move": row.last_move,
            "seconds_left": [None if left is None else round(left, 1) for left in row.left]}


def offer_data(offer: Offer) -> dict:
    return {"id": offer.id, "kind": offer.kind, "owner": offer.owner, "target": offer.target, "game": offer.game,
            "variant": offer.variant, "clock": offer.clock, "rated": offer.rated, "colour": offer.colour}
