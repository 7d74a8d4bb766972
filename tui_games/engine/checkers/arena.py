"""Checkers for the arena, the Lab, the sweep and the lobby (see :mod:`tui_games.engine.adapter`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from tui_games.engine.adapter import GameAdapter, LibraryPosition, Variant, player_label, split_spec
from tui_games.engine.analysis import Judge
from tui_games.engine.checkers import ballots as checkers_ballots
from tui_games.engine.checkers import players as checkers_players
from tui_games.engine.checkers.analysis import CheckersJudge
from tui_games.engine.checkers.bits import BLACK, square_of
from tui_games.engine.checkers.book import OpeningBook
from tui_games.engine.checkers.egdb import EndgameDB
from tui_games.engine.checkers.match import MAX_PLIES as CHECKERS_MAX_PLIES
from tui_games.engine.checkers.pdn import GAME_TYPE, write_pdn
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import Player


class CheckersArena(GameAdapter):
    """``database`` (endgame tables) and ``book`` (an opening book) for the ``strong``
    player, opened by the caller (the games table builds this adapter through
    ``tui_games.data.checkers_db.checkers_arena``)."""

    name = "checkers"
    title = "checkers"
    lab_defaults = ("level4", "level2", 4)
    side_names = ("Black", "White")
    max_plies = CHECKERS_MAX_PLIES
    openings_file = checkers_ballots.BALLOTS_FILE
    variants = (("three-move ballots", {}),)
    positions = (
        LibraryPosition("start", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
                        "the standard starting position", {}, 6),
        LibraryPosition("ballot-133", "W:W19,23,25,26,27,29,30,31,32:B1,2,3,4,8,11,12,14,20",
                        "a middlegame from ballot 133 (11-16 21-17 7-11) after ten engine moves", {}, 6),
        LibraryPosition("ending", "W:WK19,K26,31:BK3,K7,12", "an ending: two kings and a man "
                        "each, White to move", {}, 7),
    )

    def __init__(self, database: EndgameDB | None = None, book: OpeningBook | None = None) -> None:
        self.database = database
        self.book = book

    def spec_names(self, variant: Variant) -> list[str]:
        return list(checkers_players.OPPONENTS)

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player:
        name, own_seconds = split_spec(spec)
        mcts = mcts_player(name, seconds=own_seconds if own_seconds is not None else seconds, seed=seed,
                           move_name=self.move_text)
        if mcts is not None:
            mcts.name = player_label(mcts.name, own_seconds)
            return mcts
        key = checkers_players.normalize_spec(name)
        budget = own_seconds if own_seconds is not None else seconds
        if key == "strong" and budget is not None:
            checkers_players.check_seconds(budget)
        player = checkers_players.make_player(key, seed=seed, seconds=budget, database=self.database,
                                              book=self.book)
        player.name = player_label(player.name, own_seconds)
        return player

    def parse_openings(self, text: str) -> list[tuple[str, Any]]:
        """The standard three-move ballots (the barred ones are known losses)."""
        return [(str(b), b.position()) for b in checkers_ballots.parse_ballots(text) if b.standard]

    def judge(self, variant: Variant, *, seconds: float | None = None) -> Judge:
        return CheckersJudge(seconds if seconds is not None else 0.5, self.database)

    def start(self, variant: Variant, text: str | None = None) -> CheckersPosition:
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

    def export(self, position: CheckersPosition, moves: list[str], *, players: tuple[str, str],
               result: int | None | str, event: str, date: str) -> str:
        """PDN, as other checkers programs read it (Black moves first)."""
        pdn_result = result if result == "*" else {None: "1/2-1/2", 0: "1-0", 1: "0-1"}[cast("int | None", result)]
        return write_pdn(position, event=event, date=date, black=players[0], white=players[1], result=pdn_result)

    def record_tags(self, start: CheckersPosition, tags: Mapping[str, str]) -> dict[str, str]:
        """PDN's own: the players by colour (the record's First is the side that moved first:
        White where the start has White to move), the game type and a start of its own as
        SetUp and FEN."""
        first, second = tags.get("First", "?"), tags.get("Second", "?")
        black, white = (first, second) if start.turn == BLACK else (second, first)
        pdn = {"Black": black, "White": white, "GameType": GAME_TYPE}
        if start.fen() != CheckersPosition().fen():
            pdn.update(SetUp="1", FEN=start.fen())
        return pdn

    def move_text(self, position: CheckersPosition, move: Any) -> str:
        return str(move)

    def parse_move(self, position: CheckersPosition, text: str) -> Any:
        return position.parse_move(text)
