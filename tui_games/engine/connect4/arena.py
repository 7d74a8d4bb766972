"""Connect-4 for the arena, the Lab, the sweep and the lobby (see :mod:`tui_games.engine.adapter`)."""

from __future__ import annotations

from tui_games.engine.adapter import GameAdapter, LibraryPosition, Variant, player_label, split_spec
from tui_games.engine.analysis import Judge
from tui_games.engine.connect4 import players as connect4_players
from tui_games.engine.connect4.analysis import Connect4Judge
from tui_games.engine.connect4.book import OpeningBook
from tui_games.engine.connect4.heuristics import resolve_heuristic
from tui_games.engine.connect4.position import COLUMNS, Connect4, Connect4Error
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import Player


class Connect4Arena(GameAdapter):
    name = "connect4"
    title = "Connect-4"
    lab_defaults = ("level4", "level2", 10)
    side_names = ("X", "O")
    move_separator = ""  # the solvers' test sets write games as "4455…"
    variants = (("standard", {"full_board": False}), ("full board", {"full_board": True}))
    spec_help = ":simple/:aware heuristic, @S s/move"
    positions = (
        LibraryPosition("empty", "", "the empty board: the course reports' states-per-depth table",
                        {"full_board": False}, 6),
        LibraryPosition("4455", "4455", "both players stacked the middle: the first player wins "
                        "(solver score +18)", {"full_board": False}, 6),
        LibraryPosition("middlegame", "52753311433677442422121", "Test_L2_R1: the side to move wins "
                        "with its 3rd disc from here (score +8)", {"full_board": False}, 8),
        LibraryPosition("late-draw", "2737772244262123677516643354", "Test_L2_R1: a late position, "
                        "a draw with best play", {"full_board": False}, 8),
    )

    def __init__(self, book: OpeningBook | None = None) -> None:
        # The perfect players' opening book: the app opens it (tui_games/data/connect4_book.py).
        self.book = book

    def check_variant(self, variant: Variant) -> Variant:
        return {"full_board": bool(variant.get("full_board", False))}

    def variant_of(self, position: Connect4) -> Variant:
        return {"full_board": position.full_board}

    def spec_names(self, variant: Variant) -> list[str]:
        return list(connect4_players.OPPONENTS)

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player:
        text, own_seconds = split_spec(spec)
        budget = own_seconds if own_seconds is not None else seconds
        mcts = mcts_player(text, seconds=budget, seed=seed, move_name=self.move_text)
        if mcts is not None:
            mcts.name = player_label(mcts.name, own_seconds)
            return mcts
        # Connect-4's own addition to the spec: ":HEURISTIC", the search's evaluation.
        name, _, heuristic_name = text.partition(":")
        key = connect4_players.normalize_spec(name)
        heuristic = resolve_heuristic(heuristic_name.strip() or "default")
        player = connect4_players.make_player(key, seed=seed, seconds=budget, heuristic=heuristic,
                                              full_board=self.check_variant(variant)["full_board"], book=self.book)
        shown = heuristic if key != "random" and heuristic != "default" else None
        player.name = player_label(player.name, own_seconds, option=shown)
        return player

    def judge(self, variant: Variant, *, seconds: float | None = None) -> Judge:
        # The solver proves every position: no budget to give.
        return Connect4Judge(self.book)

    def start(self, variant: Variant, text: str | None = None) -> Connect4:
        return Connect4.parse(text or "", self.check_variant(variant)["full_board"])

    def parse_move(self, position: Connect4, text: str) -> int:
        t = text.strip()
        if len(t) != 1 or not "1" <= t <= str(COLUMNS) or not position.can_play(int(t) - 1):
            raise Connect4Error(f"move {text!r} is not a playable column in {position.format()!r}")
        return int(t) - 1
