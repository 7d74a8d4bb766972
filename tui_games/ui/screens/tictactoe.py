"""The tic-tac-toe screen: board, live search statistics and the search tree inspector."""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import Callable

from textual import on

from tui_games.bots import BOT_FILE, game_player, is_bot_spec, storable
from tui_games.engine.players import Decision
from tui_games.engine.search import ALGORITHMS, SearchStats
from tui_games.engine.tictactoe import MARKS, TicTacToe
from tui_games.engine.tictactoe.players import make_player
from tui_games.engine.tree import TreeRecorder
from tui_games.ui.screens.bot_file import ask_bot_file
from tui_games.ui.screens.game_screen import GameScreen
from tui_games.ui.screens.ttt_options import GameOptions, TicTacToeOptionsScreen
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

HINT_SECONDS = 10.0


class TicTacToeScreen(GameScreen):
    TITLE = "Tic-tac-toe"
    GAME = "tictactoe"
    OPTIONS = GameOptions

    def __init__(self, options: GameOptions | None = None) -> None:
        settings = self.app.store.load_settings()
        self.seconds = float(settings.get("tictactoe", {}).get("seconds", 10.0))
        super().__init__(options or GameOptions.from_settings(settings.get("tictactoe", {})))

    @property
    def board(self) -> TicTacToeBoard:
        return self.query_one(TicTacToeBoard)

    def board_for(self, position):
        """Step mode's board: the same widget, showing ``position``."""
        return TicTacToeBoard(position, id="step-board")

    def make_board(self) -> TicTacToeBoard:
        board = TicTacToeBoard(self.position, id="board")
        board.coordinates = bool(self.app.store.load_settings()["ui"].get("coordinates", True))
        return board

    def new_position(self) -> TicTacToe:
        o = self.options
        return TicTacToe(o.rows, o.cols, o.k, o.misere)

    def score_key(self) -> str:
        o = self.options
        rules = " misère" if o.misere else ""
        return f"{super().score_key()} · {o.rows}×{o.cols}, {o.k} in a row{rules}"

    def make_opponent(self):
        if self.options.opponent == "human":
            return None
        if is_bot_spec(self.options.opponent):
            o = self.options
            try:
                return game_player("tictactoe", o.opponent, {"rows": o.rows, "cols": o.cols, "k": o.k,
                                                             "misere": o.misere})
            except ValueError as error:
                self.notify(f"{error}; perfect plays instead", severity="error")
                self.options.opponent = "perfect"
        algorithm = self.engine_settings.get("algorithm", ALGORITHMS[-1])
        return make_player(self.options.opponent, seconds=self.seconds, algorithm=algorithm,
                           board=(self.options.rows, self.options.cols))

    @property
    def human_player(self) -> int | None:
        if self.opponent is None:
            return None
        return MARKS.index(self.options.human_mark)

    def first_player(self) -> int:
        # X normally starts; "who starts" decides which mark moves first.
        human = MARKS.index(self.options.human_mark)
        return human if self.options.first == "human" else 1 - human

    def reset_board(self) -> None:
        self.board.set_position(self.position)

    def board_moved(self, *cells: int) -> None:
        self.board.moved(*cells)

    def title_text(self) -> str:
        o = self.options
        opponent = "two players" if self.opponent is None else f"you {o.human_mark} vs {self.opponent.name}"
        return f"[b]{o.describe()}[/b]\n{opponent}"

    def outcome_text(self, outcome) -> str:
        if outcome.winner is None:
            return "Draw."
        reverse = " (the other side completed a line)" if self.options.misere else ""
        return f"{MARKS[outcome.winner]} wins{reverse}."

    @on(TicTacToeBoard.CellChosen)
    def cell_chosen(self, event: TicTacToeBoard.CellChosen) -> None:
        self.human_move(event.cell)

    def hint_job(self, position: TicTacToe, recorder: TreeRecorder):
        seconds = min(self.seconds, HINT_SECONDS)

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            advisor = make_player("perfect", seconds=seconds)
            decision = advisor.choose(position, stop=stop, on_progress=progress, recorder=recorder)
            return decision, recorder, position, None

        return job

    def show_hint(self, decision: Decision, position: TicTacToe, extra) -> None:
        super().show_hint(decision, position, extra)
        self.board.cursor = decision.move
        self.board.show_hint(decision.move)

    def action_options(self) -> None:
        def chosen(options: GameOptions | None) -> None:
            if options is None:
                return
            if options.opponent == BOT_FILE:
                ask_bot_file(self, "tictactoe", self.options.opponent,
                             lambda spec: chosen(replace(options, opponent=spec)))
                return
            self.options = options
            self.app.store.update_settings("tictactoe", **storable(options.as_dict()))
            self._cancel_search()
            self._start_game()

        self.app.push_screen(TicTacToeOptionsScreen(self.options), chosen)
