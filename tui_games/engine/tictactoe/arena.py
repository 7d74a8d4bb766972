"""Tic-tac-toe for the arena, the Lab, the sweep and the lobby (see :mod:`tui_games.engine.adapter`)."""

from __future__ import annotations

from tui_games.engine.adapter import GameAdapter, LibraryPosition, Variant, player_label, split_spec
from tui_games.engine.analysis import Judge
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import Player
from tui_games.engine.tictactoe import players as tictactoe_players
from tui_games.engine.tictactoe.analysis import TicTacToeJudge
from tui_games.engine.tictactoe.position import TicTacToe, geometry

_3X3 = {"rows": 3, "cols": 3, "k": 3, "misere": False}


class TicTacToeArena(GameAdapter):
    name = "tictactoe"
    title = "tic-tac-toe"
    lab_defaults = ("perfect", "rule-based", 20)
    side_names = ("X", "O")
    variants = (
        ("3x3", {"rows": 3, "cols": 3, "k": 3, "misere": False}),
        ("3x3 misère", {"rows": 3, "cols": 3, "k": 3, "misere": True}),
        ("4x4, 3 in a row", {"rows": 4, "cols": 4, "k": 3, "misere": False}),
        ("4x4, 4 in a row", {"rows": 4, "cols": 4, "k": 4, "misere": False}),
        ("5x5, 4 in a row", {"rows": 5, "cols": 5, "k": 4, "misere": False}),
    )
    positions = (
        LibraryPosition("empty", ".../.../...", "the empty 3x3 board: minimax to depth 9 is the whole "
                        "game tree", _3X3, 9),
        LibraryPosition("corners", "X../.O./..X", "opposite corners: O must answer on an edge "
                        "(a corner loses to a fork)", _3X3, 6),
        LibraryPosition("fork", "X.O/.../...", "O took the far corner of X's row: X forks and wins", _3X3, 7),
        LibraryPosition("misere", ".../.../...", "misère 3x3: a draw, but only the centre keeps it",
                        {**_3X3, "misere": True}, 9),
        LibraryPosition("4x4-k3", "..../.X../..O./....", "4x4, three in a row: X wins in 3 plies",
                        {"rows": 4, "cols": 4, "k": 3, "misere": False}, 7),
    )

    def check_variant(self, variant: Variant) -> Variant:
        rows, cols = int(variant.get("rows", 3)), int(variant.get("cols", 3))
        k = int(variant.get("k", min(rows, cols)))
        geometry(rows, cols, k)  # BoardError (a ValueError) names the problem
        return {"rows": rows, "cols": cols, "k": k, "misere": bool(variant.get("misere", False))}

    def variant_of(self, position: TicTacToe) -> Variant:
        return {"rows": position.rows, "cols": position.cols, "k": position.k, "misere": position.misere}

    def sweep_depth(self, position: TicTacToe) -> int:
        # Small boards are searched to the end: every empty cell is a ply.
        return min(9, max(1, position.empties))

    def spec_names(self, variant: Variant) -> list[str]:
        return [spec for spec, _ in tictactoe_players.opponents_for(self.start(variant))]

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: Variant) -> Player:
        name, own_seconds = split_spec(spec)
        mcts = mcts_player(name, seconds=own_seconds if own_seconds is not None else seconds, seed=seed,
                           move_name=self.move_text)
        if mcts is not None:
            mcts.name = player_label(mcts.name, own_seconds)
            return mcts
        key = tictactoe_players.normalize_spec(name)
        allowed = self.spec_names(variant)
        if key not in allowed:
            raise ValueError(f"{key} only plays 3x3, k=3, normal rules; on this board choose one of "
                             f"{', '.join(allowed)}")
        budget = own_seconds if own_seconds is not None else seconds
        player = tictactoe_players.make_player(key, seed=seed, seconds=budget)
        player.name = player_label(player.name, own_seconds)
        return player

    def judge(self, variant: Variant, *, seconds: float | None = None) -> Judge:
        return TicTacToeJudge(seconds if seconds is not None else 1.0)

    def start(self, variant: Variant, text: str | None = None) -> TicTacToe:
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
