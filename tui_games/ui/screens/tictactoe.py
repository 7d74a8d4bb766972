"""The tic-tac-toe screen: board, live search statistics and the search tree inspector."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from tui_games.engine.players import Decision
from tui_games.engine.search import ALGORITHMS, MINIMAX, SearchLimits, SearchStats, search
from tui_games.engine.tictactoe import MARKS, MAX_SIZE, MIN_SIZE, TicTacToe
from tui_games.engine.tictactoe_players import make_player, opponents_for
from tui_games.engine.tree import TreeRecorder
from tui_games.ui.text import count, seconds_text
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

# The compare table stops an algorithm that would take minutes (plain minimax on 4×4).
COMPARE_NODE_LIMIT = 2_000_000
HINT_SECONDS = 10.0


@dataclass
class GameOptions:
    rows: int = 3
    cols: int = 3
    k: int = 3
    misere: bool = False
    opponent: str = "perfect"  # a player spec, or "human" for two people at one keyboard
    first: str = "human"  # "human" or "computer" (with two humans: who has the first mark)
    human_mark: str = "X"

    @classmethod
    def from_settings(cls, values: dict) -> "GameOptions":
        known = {k: v for k, v in values.items() if k in cls.__dataclass_fields__}
        return cls(**known).fitted()

    def fitted(self) -> "GameOptions":
        """The options made consistent: sizes in range, k no longer than the board, an
        opponent that plays this board (the classic players only know 3×3), valid choices."""
        rows = min(max(int(self.rows), MIN_SIZE), MAX_SIZE)
        cols = min(max(int(self.cols), MIN_SIZE), MAX_SIZE)
        k = min(max(int(self.k), MIN_SIZE), rows, cols)
        board = TicTacToe(rows, cols, k, bool(self.misere))
        allowed = {spec for spec, _ in opponents_for(board)} | {"human"}
        return GameOptions(rows, cols, k, bool(self.misere),
                           self.opponent if self.opponent in allowed else "perfect",
                           self.first if self.first in ("human", "computer") else "human",
                           self.human_mark if self.human_mark in ("X", "O") else "X")

    def as_dict(self) -> dict:
        return dict(self.__dict__)

    def describe(self) -> str:
        variant = " misère" if self.misere else ""
        return f"{self.rows}×{self.cols}, {self.k} in a row{variant}"


@dataclass
class LastSearch:
    """What the compare table and the tree inspector need about the last decision."""

    position: TicTacToe
    depth: int
    who: str


class TicTacToeScreen(Screen):
    TITLE = "Tic-tac-toe"

    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New"),
        Binding("o", "options", "Options"),
        Binding("i", "hint", "Hint"),
        Binding("c", "compare", "Compare"),  # press again to go back to the statistics
        Binding("s", "toggle_stats", "Stats", show=False),
        Binding("t", "toggle_tree", "Tree"),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "back", "Back", show=False),
    ]

    def __init__(self, options: GameOptions | None = None) -> None:
        super().__init__()
        settings = self.app.store.load_settings()
        self.options = options or GameOptions.from_settings(settings.get("tictactoe", {}))
        self.engine_settings = settings.get("engine", {})
        self.seconds = float(settings.get("tictactoe", {}).get("seconds", 10.0))
        self.position = self._new_position()
        self.opponent = self._make_opponent()
        self.last_search: LastSearch | None = None
        self.game_over_recorded = False
        self.status_note = ""
        # Held directly: on unmount the children are gone but the search must still be stopped.
        self.runner = EngineRunner()

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="game-body"):
            with Vertical(id="board-column"):
                yield Static(id="game-title", classes="game-title")
                yield TicTacToeBoard(self.position, id="board")
                yield Static(id="status", classes="status")
                yield Static(id="scoreline", classes="scoreline")
            with Vertical(id="side-column"):
                yield StatsPanel(id="stats")
                yield TreeInspector(id="tree")
        yield self.runner
        yield Footer(compact=True)

    def on_mount(self) -> None:
        ui = self.app.store.load_settings().get("ui", {})
        self.query_one(StatsPanel).display = bool(ui.get("show_stats", True))
        self.query_one(TreeInspector).display = bool(ui.get("show_tree", False))
        self.board.coordinates = bool(ui.get("coordinates", True))
        self.board.focus()
        self._start_game()

    @property
    def board(self) -> TicTacToeBoard:
        return self.query_one(TicTacToeBoard)

    # -- game set-up -----------------------------------------------------------------------

    def _new_position(self) -> TicTacToe:
        o = self.options
        pos = TicTacToe(o.rows, o.cols, o.k, o.misere)
        return pos

    def _make_opponent(self):
        if self.options.opponent == "human":
            return None
        algorithm = self.engine_settings.get("algorithm", ALGORITHMS[-1])
        return make_player(self.options.opponent, seconds=self.seconds, algorithm=algorithm)

    @property
    def human_player(self) -> int | None:
        """The index of the human's mark against the computer (None with two humans)."""
        if self.opponent is None:
            return None
        return MARKS.index(self.options.human_mark)

    def _start_game(self) -> None:
        self.runner.cancel()
        self.position = self._new_position()
        human = MARKS.index(self.options.human_mark)
        # X normally starts; "who starts" decides which mark moves first.
        first_is_human = self.options.first == "human"
        self.position.turn = human if first_is_human else 1 - human
        self.opponent = self._make_opponent()
        self.game_over_recorded = False
        self.status_note = ""
        self.board.set_position(self.position)
        self.last_search = None
        self.query_one(StatsPanel).clear()
        self.query_one(TreeInspector).show_tree(None, self.position.move_name)
        self._update_title()
        self._update_scoreline()
        self._after_move()

    def _update_title(self) -> None:
        o = self.options
        opponent = "two players" if self.opponent is None else f"you {o.human_mark} vs {self.opponent.name}"
        self.query_one("#game-title", Static).update(f"[b]{o.describe()}[/b]\n{opponent}")

    def _update_scoreline(self) -> None:
        if self.opponent is None:
            self.query_one("#scoreline", Static).update("")
            return
        tally = self.app.store.scores().get("tictactoe", {}).get(self.opponent.name, {})
        w, d, l = (tally.get(k, 0) for k in ("win", "draw", "loss"))
        self.query_one("#scoreline", Static).update(f"won {w} · drawn {d} · lost {l}")

    # -- turns -----------------------------------------------------------------------------

    def _is_computer_turn(self) -> bool:
        return self.opponent is not None and self.position.turn != self.human_player

    def _after_move(self) -> None:
        outcome = self.position.outcome()
        if outcome is not None:
            self._game_over(outcome)
            return
        if self._is_computer_turn():
            self._think()
        else:
            self._set_status(f"{MARKS[self.position.turn]} to move")

    def _set_status(self, text: str) -> None:
        note = f"\n[dim]{self.status_note}[/dim]" if self.status_note else ""
        self.query_one("#status", Static).update(text + note)

    def _game_over(self, outcome) -> None:
        if outcome.winner is None:
            text = "Draw."
        else:
            text = f"{MARKS[outcome.winner]} wins{' (the other side completed a line)' if self.options.misere else ''}."
        if self.human_player is not None and not self.game_over_recorded:
            result = {1: "win", 0: "draw", -1: "loss"}[outcome.value_for(self.human_player)]
            self.app.store.record_result("tictactoe", self.opponent.name, result)
            self.game_over_recorded = True
            self._update_scoreline()
            text = {"win": "You win! ", "loss": "You lose. ", "draw": ""}[result] + text
        self._set_status(f"[b]{text}[/b] n: new game · u: undo")

    def play(self, cell: int) -> None:
        if cell not in self.position.legal_moves():
            return
        self.position.push(cell)
        self.board.moved(cell)
        self._after_move()

    @on(TicTacToeBoard.CellChosen)
    def human_move(self, event: TicTacToeBoard.CellChosen) -> None:
        if self.position.outcome() is not None:
            self.app.bell()
            return
        if self._is_computer_turn():
            self.notify("The computer is thinking; u undoes, n starts a new game.", timeout=2)
            return
        if event.cell not in self.position.legal_moves():
            self.app.bell()
            return
        if self.runner.busy:  # a hint or comparison is running: the move makes it moot
            self.runner.cancel()
        self.status_note = ""
        self.play(event.cell)

    # -- the engine ------------------------------------------------------------------------

    def _recorder(self) -> TreeRecorder:
        return TreeRecorder(int(self.engine_settings.get("tree_plies", 4)),
                            int(self.engine_settings.get("tree_nodes", 20_000)))

    def _think(self) -> None:
        player = self.opponent
        position = self.position.copy()
        recorder = self._recorder()
        mark = MARKS[self.position.turn]
        self._set_status(f"{mark} ({player.name}) is thinking…")

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            decision = player.choose(position, stop=stop, on_progress=progress, recorder=recorder)
            return decision, recorder, position

        self.runner.start("move", job)

    def on_engine_runner_progress(self, message: EngineRunner.Progress) -> None:
        if not self.runner.is_current(message):
            return
        stats = message.stats
        if message.tag == "compare":
            rows, depth, running = message.stats
            self.query_one(StatsPanel).show_comparison(rows, depth, running=running)
            return
        who = self.opponent.name if message.tag == "move" and self.opponent else "hint"
        self.query_one(StatsPanel).show(stats, self.position.move_name, who=who, thinking=True)
        if message.tag == "move":
            self._set_status(f"{MARKS[self.position.turn]} ({who}) is thinking… "
                             f"{count(stats.nodes)} nodes, depth {stats.depth}, {seconds_text(stats.seconds)}")

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if self.runner.done(message):
            self.notify(f"Engine error: {message.error}", severity="error")
            self._set_status("The engine failed; u undoes, n starts a new game.")

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        if not self.runner.done(message):
            return
        if message.tag == "move":
            decision, recorder, position = message.payload
            self._show_decision(decision, recorder, position, who=self.opponent.name)
            self.status_note = f"{self.opponent.name} played {self.position.move_name(decision.move)}: {decision.note}"
            self.play(decision.move)
        elif message.tag == "hint":
            decision, recorder, position = message.payload
            self._show_decision(decision, recorder, position, who="hint")
            name = self.position.move_name(decision.move)
            self.board.cursor = decision.move
            self.board.show_hint(decision.move)
            self.status_note = f"hint for {MARKS[position.turn]}: {name} — {decision.note}"
            self._after_move()
        elif message.tag == "compare":
            rows, depth = message.payload
            self.query_one(StatsPanel).show_comparison(rows, depth)

    def _show_decision(self, decision: Decision, recorder: TreeRecorder, position: TicTacToe, who: str) -> None:
        result = decision.result
        stats_panel = self.query_one(StatsPanel)
        if result is None:
            self.last_search = None
            stats_panel.show_text(f"Search · {who}", f"[b]{who}[/b] does not search: {decision.note}")
            self.query_one(TreeInspector).show_tree(None, position.move_name)
            return
        self.last_search = LastSearch(position, result.stats.depth, who)
        stats_panel.show(result.stats, position.move_name, who=who, proven=result.exact, note=decision.note)
        self.query_one(TreeInspector).show_tree(recorder, position.move_name, proven=result.exact,
                                                title=f"{MARKS[position.turn]} to move ({who})")

    # -- actions ---------------------------------------------------------------------------

    def _cancel_search(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            panel = self.query_one(StatsPanel)
            panel.border_title = f"{panel.border_title} · cancelled"

    def action_undo(self) -> None:
        self._cancel_search()
        pos = self.position
        if not pos.history:
            self._after_move()
            return
        # Against the computer, take back to the human's last turn.
        undone = [pos.pop()]
        if self.human_player is not None:
            while pos.history and pos.turn != self.human_player:
                undone.append(pos.pop())
        self.status_note = ""
        self.board.moved(*undone)
        if self.human_player is not None and pos.turn != self.human_player:
            # Back at the start with the computer to move: it moves again.
            self._after_move()
        else:
            self._set_status(f"Took back {len(undone)} move{'s' * (len(undone) > 1)}. "
                             f"{MARKS[pos.turn]} to move.")

    def action_new_game(self) -> None:
        self._start_game()

    def action_hint(self) -> None:
        if self.position.outcome() is not None:
            return
        if self._is_computer_turn():
            self.notify("It is the computer's turn.", timeout=2)
            return
        position = self.position.copy()
        recorder = self._recorder()
        seconds = self.seconds
        self._set_status(f"Looking for the best move for {MARKS[position.turn]}…")

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            advisor = make_player("perfect", seconds=min(seconds, HINT_SECONDS))
            return advisor.choose(position, stop=stop, on_progress=progress, recorder=recorder), recorder, position

        self.runner.start("hint", job)

    def action_compare(self) -> None:
        panel = self.query_one(StatsPanel)
        if panel.comparing and not self.runner.busy:
            # The toggle's other half: back to the last decision's statistics.
            panel.restore()
            return
        last = self.last_search
        if last is None:
            self.notify("Compare re-runs the last search: let the computer move or ask a hint (i) first.",
                        timeout=4)
            return
        if self._is_computer_turn() and self.runner.busy:
            self.notify("Wait for the computer's move, then compare.", timeout=2)
            return
        position, depth = last.position.copy(), max(1, last.depth)
        panel.display = True
        rows: list[tuple[str, SearchStats, bool]] = [(a, SearchStats(algorithm=a), False) for a in ALGORITHMS]
        panel.show_comparison(rows, depth, running="running…")

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            done: list[tuple[str, SearchStats, bool]] = []
            for algorithm in ALGORITHMS:
                if stop.is_set():
                    break
                limit = COMPARE_NODE_LIMIT if algorithm != ALGORITHMS[-1] else None

                def live(stats: SearchStats, algorithm: str = algorithm) -> None:
                    pending = [(a, SearchStats(algorithm=a), False) for a in ALGORITHMS[len(done) + 1:]]
                    progress(([*done, (algorithm, stats, False), *pending], depth, f"running {algorithm}…"))

                result = search(position, SearchLimits(depth=depth, nodes=limit), algorithm, stop=stop,
                                on_progress=live, rng=random.Random(0))
                finished = not result.stopped
                done.append((algorithm, result.stats.snapshot(), finished))
            return done, depth

        self.runner.start("compare", job)

    def action_toggle_stats(self) -> None:
        panel = self.query_one(StatsPanel)
        panel.display = not panel.display
        self.app.store.update_settings("ui", show_stats=bool(panel.display))

    def action_toggle_tree(self) -> None:
        tree = self.query_one(TreeInspector)
        tree.display = not tree.display
        self.app.store.update_settings("ui", show_tree=bool(tree.display))
        if tree.display:
            tree.focus()
        else:
            self.board.focus()

    def action_options(self) -> None:
        from tui_games.ui.screens.ttt_options import TicTacToeOptionsScreen

        def chosen(options: GameOptions | None) -> None:
            if options is None:
                return
            self.options = options
            self.app.store.update_settings("tictactoe", **options.as_dict())
            self._start_game()

        self.app.push_screen(TicTacToeOptionsScreen(self.options), chosen)

    def action_back(self) -> None:
        self.runner.cancel()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.runner.cancel()
