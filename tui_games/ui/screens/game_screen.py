"""What every game screen shares: turns, the engine worker, the statistics panel and tree
inspector, hint, compare, undo, new game, scores, and saving the game in progress.

A game's screen subclasses :class:`GameScreen` and fills in the hooks: how to make a
position, an opponent and a board, how to name the sides, and what a hint shows.
"""

from __future__ import annotations

import contextlib
import threading
from abc import abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Protocol, cast

from rich.markup import escape
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Header, Static

from tui_games.engine.compare import CONFIGS, Config, SweepCell, search_cell
from tui_games.engine.players import Decision, Player, PlayerFailed
from tui_games.engine.search import ALPHABETA, SearchStats
from tui_games.engine.tree import TreeRecorder
from tui_games.engine.tree_export import format_refusal, tree_file_text
from tui_games.ui.archive import archive_game
from tui_games.ui.screens.file_dialogs import ask_to_save
from tui_games.ui.screens.games import GamesScreen
from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.saving import SavingScreen
from tui_games.ui.screens.step_mode import StepScreen
from tui_games.ui.text import clock_text, count
from tui_games.ui.widgets.boards import DiagramBoard
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.phrase_status import PhraseStatus
from tui_games.ui.widgets.session_notice import SessionNotice
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector

# The compare table stops every row that would take minutes (plain minimax on big boards, the
# deepening search past the depth the player reached): at this many nodes or CPU seconds.
COMPARE_NODE_LIMIT = 2_000_000
COMPARE_SECONDS = 20.0


def side_width(width: int, *, wide_board: bool = False) -> int:
    """Columns of the side panels (0 below 80 columns: they go under the board): 42 at 80
    (36 beside a wide board), and a quarter of every column past 80 up to 64, so a tree
    row's note and window are not cut at 120×40 and the board keeps its big squares."""
    if width < 80:
        return 0
    base = 36 if wide_board else 42
    return min(64, base + (width - 80) // 4)


@dataclass
class LastSearch:
    """What the compare table needs about the last decision: where, and how deep."""

    position: Any
    depth: int
    who: str
    # The algorithm the search ran (an engine of a game's own, such as checkers' or
    # Connect-4's solver, is played back as the generic negamax + TT).
    algorithm: str = ""


class ScreenOptions(Protocol):
    """A game screen's options (its ``OPTIONS`` class): built from the saved settings."""

    @classmethod
    def from_settings(cls, values: dict) -> Any: ...


class FittingBoard(Protocol):
    """A board that sizes its cells to the room it has (every game screen's board)."""

    def fit(self, width: int, height: int) -> None: ...


class GameScreen(SavingScreen):
    """A two-sided game against the computer or another person at the same keyboard."""

    #: the screen's options class, with ``from_settings(dict)`` and ``as_dict()``
    OPTIONS: type[ScreenOptions]

    BINDINGS = [
        Binding("u", "undo", "Undo"),
        Binding("n", "new_game", "New"),
        Binding("o", "options", "Options"),
        Binding("i", "hint", "Hint"),
        Binding("c", "compare", "Compare"),  # press again to go back to the statistics
        Binding("s", "toggle_stats", "Stats", show=False),
        Binding("t", "toggle_tree", "Tree"),
        Binding("v", "step_mode", "Step"),
        Binding("L", "lab", "Lab"),
        Binding("G", "games", "Games", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "back", "Back", show=False),
    ]

    @classmethod
    def for_game(cls, settings: dict, options: dict) -> GameScreen:
        return cls(cls.OPTIONS.from_settings({**settings, **options}))

    def __init__(self, options: Any) -> None:
        super().__init__()
        settings = self.app.store.load_settings()
        self.options = options
        self.engine_settings = settings.get("engine", {})
        self.position = self.new_position()
        self.opponent: Player | None = None
        self.last_search: LastSearch | None = None
        # The comparison's rows as last reported (kept to show when it is stopped).
        self._compare_rows: tuple[list, int] = ([], 0)
        self.game_over_recorded = False
        self.forfeit: str | None = None  # why the opponent (a bot file) lost the game, once it did
        # The moves of the last game kept in the archive: a game is kept once, however often its
        # end is shown (a game taken back and finished otherwise is another game).
        self._archived: tuple | None = None
        self.status_note = ""
        # Who moved first in the game being played; None until one has started (nothing to save).
        self.first_turn: int | None = None
        # Held directly: on unmount the children are gone but the search must still be stopped.
        self.runner = EngineRunner()
        # The board shows a tree node's position (selected in the inspector), not the game's.
        self.previewing = False
        # Played on from a replayed position (play_on_from): practice, never saved over the
        # game in progress, scored or archived.
        self.practice: tuple[Any, str] | None = None

    # -- hooks for each game ------------------------------------------------------------------

    @abstractmethod
    def new_position(self) -> Any:
        """A fresh position for ``self.options`` (every game screen defines this)."""

    def make_opponent(self) -> Player | None:
        """The computer player, or None for two people at one keyboard."""
        return None

    @abstractmethod
    def make_board(self) -> Widget:
        """The board widget, with id "board" (every game screen defines this)."""

    def reset_board(self) -> None:
        """A new game or a resumed one: the board shows ``self.position`` from scratch."""

    def board_moved(self, *moves: Any) -> None:
        """Moves were played or taken back: repaint what they touched."""

    def side_name(self, player: int) -> str:
        return "XO"[player]

    @property
    def human_player(self) -> int | None:
        """The side the human plays against the computer (None with two humans)."""
        return None

    def first_player(self) -> int:
        """The side that moves first in a new game."""
        return 0

    def title_text(self) -> str:
        return ""

    def outcome_text(self, outcome) -> str:
        if outcome.winner is None:
            return "Draw."
        return f"{self.side_name(outcome.winner)} wins."

    @abstractmethod
    def hint_job(self, position: Any, recorder: TreeRecorder) -> Callable:
        """A worker job returning (decision, recorder, position, extra) for ``show_hint``
        (every game screen defines this)."""

    def show_hint(self, decision: Decision, position: Any, extra: Any) -> None:
        self.status_note = f"hint for {self.side_name(position.turn)}: {self.move_name(decision.move)} — {decision.note}"

    def options_state(self) -> dict:
        return self.options.as_dict()

    def below_board(self) -> list[Widget]:
        """Widgets a game adds under the board (checkers: the move list)."""
        return []

    def move_name(self, move: Any) -> str:
        """A move as the panels and the status line write it."""
        return self.position.move_name(move)

    def position_text(self, position: Any) -> str:
        """A position in the game's notation (an exported tree names the position it searched)."""
        return position.format()

    def saved_move(self, move: Any) -> Any:
        """A move as the saved game keeps it (JSON)."""
        return move

    def restored_move(self, item: Any, position: Any) -> Any:
        """The move of ``position`` a saved item stands for (ValueError if none)."""
        return item

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield SessionNotice()
        with Horizontal(id="game-body"):
            with Vertical(id="board-column"):
                yield Static(id="game-title", classes="game-title")
                with Center(classes="board-box"):
                    yield self.make_board()
                yield PhraseStatus(id="status", classes="status")
                below = self.below_board()
                if below:
                    with Center(classes="below-board"):
                        yield from below
            with Vertical(id="side-column"):
                yield StatsPanel(id="stats")
                yield TreeInspector(id="tree")
        yield self.runner
        yield KeysFooter(compact=True)

    # Rows of the screen that are not the board: header, footer, title, status.
    RESERVED_ROWS = 10

    def on_resize(self, event: events.Resize) -> None:
        self._fit_board()

    def _fit_board(self) -> None:
        """Bigger cells and pieces when the terminal has room (at 80×24 the smallest)."""
        size = self.app.size
        side = side_width(size.width, wide_board=self.has_class("wide-board"))
        if side:
            self.query_one("#side-column").styles.width = side
        cast(FittingBoard, self.board).fit(size.width - side - 2, size.height - self.RESERVED_ROWS)

    def on_mount(self) -> None:
        self._fit_board()
        ui = self.app.store.load_settings().get("ui", {})
        self.query_one(StatsPanel).display = bool(ui.get("show_stats", True))
        self.query_one(TreeInspector).display = bool(ui.get("show_tree", False))
        self.board.focus()
        if self.practice is not None:
            self._start_practice(*self.practice)
        elif not self._resume():
            self._start_game()

    @property
    def board(self) -> Widget:
        return self.query_one("#board")

    # -- game set-up, saving and resuming ----------------------------------------------------

    def _start_game(self, history: list | None = None, first: int | None = None) -> None:
        self.runner.cancel()
        self.position = self.new_position()
        self.position.turn = self.first_player() if first is None else first
        self.first_turn = self.position.turn
        for item in history or ():
            self.position.push(self.restored_move(item, self.position))
        self.opponent = self.make_opponent()
        self.game_over_recorded = False
        self.status_note = ""
        self._show_set_up()
        self.save_progress()
        self._after_move()

    def _show_set_up(self) -> None:
        """The board, the panels, the title and the scoreline for the position just set up:
        nobody has forfeited it, and no search of it is shown."""
        self.forfeit = None
        self.last_search = None
        self.previewing = False
        self.reset_board()
        self.query_one(StatsPanel).clear()
        self.query_one(TreeInspector).show_tree(None, self.move_name)
        self.query_one("#game-title", Static).update(self.title_text())
        self._update_scoreline()

    def play_on_from(self, position: Any, where: str) -> None:
        """Open at ``position`` (a replayed game's, ``where`` saying which ply of which game)
        for two players at one keyboard, with the hint, statistics, tree, step mode and compare:
        practice, so the game in progress stays saved as it was. Call before the screen is pushed."""
        self.practice = (position.copy(), where)

    def _start_practice(self, position: Any, where: str) -> None:
        self.runner.cancel()
        self.position = position.copy()  # (the practice's own stays as replayed: n starts it again)
        self.first_turn = position.turn
        self.opponent = None
        self.game_over_recorded = True  # nothing to score
        self.status_note = f"practice from {where}: nothing here is saved or scored"
        self._show_set_up()
        self._after_move()

    def _resume(self) -> bool:
        """Pick up the saved game in progress if it was played with these options."""
        saved = self.saved_progress()
        if not saved or saved.get("options") != self.options_state():
            return False
        try:
            self._start_game(list(saved["history"]), int(saved["first"]))
        except (KeyError, TypeError, ValueError):
            # A save from another version or edited by hand: start afresh, keep nothing broken.
            self.discard_progress()
            self._start_game()
            return True
        if self.position.history:
            self.notify("Resumed your game in progress; n starts a new one.", timeout=4)
        return True

    def has_progress(self) -> bool:
        # A practice screen has nothing of its own to save: the saved game is another one.
        return self.first_turn is not None and self.practice is None

    def reload_progress(self) -> None:
        if not self.has_progress():  # not started, or nothing of ours to save (a live game)
            return
        saved = self.saved_progress()
        if saved is None:
            self.save_progress()
            return
        self._cancel_search()
        options = saved.get("options")
        if isinstance(options, dict) and options != self.options_state():
            # The saved game is another variant (chosen in the other session): show it as it is.
            # A hand-edited save fails here: _resume below sets it aside like any unusable one.
            with contextlib.suppress(TypeError, ValueError):
                self.options = self.OPTIONS.from_settings({**self.options_state(), **options})
        if not self._resume():
            self._start_game()

    def progress_state(self) -> dict | None:
        if self.position.outcome() is not None or self.forfeit is not None:
            return None
        return {"options": self.options_state(), "first": self.first_turn,
                "history": [self.saved_move(m) for m in self.position.history]}

    def score_key(self) -> str:
        """What the scores count this game under: the opponent (and, where the game has
        them, the board and rules: results on different boards do not add up)."""
        return self.opponent.name if self.opponent is not None else ""

    def _update_scoreline(self) -> None:
        """The tally against this opponent, in the header: under the board a three-line status
        or a 7×7 board pushed it off an 80×24 screen."""
        if self.opponent is None:
            self.sub_title = ""
            return
        tally = self.app.store.scores().get(self.GAME, {}).get(self.score_key(), {})
        w, d, l = (tally.get(k, 0) for k in ("win", "draw", "loss"))
        self.sub_title = f"won {w} · drawn {d} · lost {l}"

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
            self._set_status(f"{self.side_name(self.position.turn)} to move")

    def _set_status(self, text: str) -> None:
        note = f"\n[dim]{self.status_note}[/dim]" if self.status_note else ""
        self.query_one("#status", Static).update(text + note)

    def _game_over(self, outcome) -> None:
        text = self.outcome_text(outcome)
        self.archive_finished()
        if self.human_player is not None and not self.game_over_recorded:
            result = {1: "win", 0: "draw", -1: "loss"}[outcome.value_for(self.human_player)]
            self.app.store.record_result(self.GAME, self.score_key(), result)
            self.game_over_recorded = True
            self._update_scoreline()
            text = {"win": "You win! ", "loss": "You lose. ", "draw": ""}[result] + text
        self._set_status(f"[b]{text}[/b] n: new game · u: undo")

    def archive_finished(self, *, winner: int | None = None, reason: str = "") -> None:
        """Keep the game just finished in the archive (the Games screen lists it); ``winner``
        for a game the rules did not end (a forfeit), else the rules' result."""
        history = tuple(self.position.history)
        if not history or history == self._archived or self.practice is not None:
            return
        self._archived = history
        start = self.position.copy()
        for _ in history:
            start.pop()
        human = self.human_player
        you = self.app.store.user
        if self.opponent is None:
            names = (self.side_name(0), self.side_name(1))
        else:
            computer = self.opponent.name
            names = (you if start.turn == human else computer, computer if start.turn == human else you)
        with contextlib.suppress(ValueError):  # a game with no record (a fake game of the tests)
            result = None if winner is None else "1-0" if winner == start.turn else "0-1"
            archive_game(self.app.store, self.GAME, start, history, first=names[0], second=names[1],
                         mode="two players" if self.opponent is None else "computer", you=human,
                         result=result, reason=reason)
        for warning in self.app.store.take_warnings():
            self.notify(warning, title="Data file problem", severity="warning", timeout=10)

    def action_games(self) -> None:
        """The archive of finished games (G)."""
        self.app.push_screen(GamesScreen(game=self.GAME))

    def play(self, move: Any) -> None:
        if self.forfeit is not None or move not in self.position.legal_moves():
            return
        if self.previewing:  # the board showed a tree node: the game again, then the move
            self.previewing = False
            self.reset_board()
        self.position.push(move)
        self.board_moved(move)
        self.save_progress()
        self._after_move()

    def on_tree_inspector_node_shown(self, message: TreeInspector.NodeShown) -> None:
        """A node of the tree was selected: the board shows its position until the tree is
        left (Escape, or the focus goes elsewhere); then the game again."""
        last = self.last_search
        if message.path is None or last is None:
            if self.previewing:
                self.previewing = False
                self.reset_board()
                self._after_move_status()
            if message.leave:
                self.board.focus()
            return
        position = last.position.copy()
        for move in message.path:
            position.push(move)
        self.previewing = True
        # Every game's board shows a position (set_position): the one the tree node stands for.
        cast(Any, self.board).set_position(position)
        line = " ".join(self.move_name(m) for m in message.path) if message.path else "the searched position"
        self._set_status(f"tree: {line} · Escape: the game")

    def on_tree_inspector_export_asked(self, message: TreeInspector.ExportAsked) -> None:
        """``e`` in the tree: its tree to a file, JSON or DOT by the name's ending (under the
        server, in the player's own files)."""
        tree = self.query_one(TreeInspector)
        recorder, last = tree.recorder, self.last_search
        if recorder is None or last is None:
            self.notify("No search tree to export yet.", timeout=3)
            return
        position = last.position
        notation = self.position_text(position)

        def content(name: str) -> str:
            return tree_file_text(name, recorder, self.move_name, proven=tree.proven, position=notation)

        ask_to_save(self, "Export the search tree", f"{self.GAME}-tree.json", lambda: content("tree.json"),
                    lambda shown: self.notify(f"Search tree written to {shown}", timeout=4),
                    named_content=content, check=format_refusal)

    def _after_move_status(self) -> None:
        if self.position.outcome() is None and not self._is_computer_turn():
            self._set_status(f"{self.side_name(self.position.turn)} to move")

    def human_move(self, move: Any) -> None:
        """The board reports a move by the human."""
        if self.previewing:
            # The board shows a node of the tree, not the game: Escape in the tree goes back.
            self.app.bell()
            return
        if self.position.outcome() is not None:
            self.app.bell()
            return
        if self._is_computer_turn():
            self.notify("The computer is thinking; u undoes, n starts a new game.", timeout=2)
            return
        if move not in self.position.legal_moves():
            self.app.bell()
            return
        if self.runner.busy:  # a hint or comparison is running: the move makes it moot
            self.runner.cancel()
        self.status_note = ""
        self.play(move)

    # -- the engine ------------------------------------------------------------------------

    def recorder(self) -> TreeRecorder:
        return TreeRecorder(int(self.engine_settings.get("tree_plies", 4)),
                            int(self.engine_settings.get("tree_nodes", 20_000)))

    def _think(self) -> None:
        player = self.opponent
        assert player is not None, "the computer thinks only in a game against it"
        position = self.position.copy()
        recorder = self.recorder()
        self._set_status(f"{self.side_name(self.position.turn)} ({player.name}) is thinking…")

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            decision = player.choose(position, stop=stop, on_progress=progress, recorder=recorder)
            return decision, recorder, position, None

        self.runner.start("move", job)

    def on_engine_runner_progress(self, message: EngineRunner.Progress) -> None:
        if not self.runner.is_current(message):
            return
        if message.tag == "compare":
            rows, depth, running = message.stats
            self._compare_rows = (rows, depth)
            self.query_one(StatsPanel).show_comparison(rows, depth, running=running)
            return
        stats = message.stats
        who = self.opponent.name if message.tag == "move" and self.opponent else "hint"
        self.query_one(StatsPanel).show(stats, self.move_name, who=who, thinking=True)
        if message.tag == "move":
            self._set_status(f"{self.side_name(self.position.turn)} ({who}) is thinking… "
                             f"{count(stats.nodes)} nodes, depth {stats.depth}, {clock_text(stats)}")

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if not self.runner.done(message):
            return
        if message.tag == "move" and isinstance(message.error, PlayerFailed):
            self._forfeit(str(message.error))
            return
        self.notify(f"Engine error: {message.error}", severity="error")
        self._set_status("The engine failed; u undoes, n starts a new game.")

    def _forfeit(self, reason: str) -> None:
        """The opponent (a bot file) could not give a move: it loses the game, as in the arena,
        and the result is scored; the position stays on the board, with no move after it."""
        self.forfeit = reason
        if self.human_player is not None:
            self.archive_finished(winner=self.human_player, reason="forfeit")
        if self.human_player is not None and not self.game_over_recorded:
            self.app.store.record_result(self.GAME, self.score_key(), "win")
            self.game_over_recorded = True
            self._update_scoreline()
        self.save_progress()  # no longer a game in progress
        self._set_status(f"[b]You win: {escape(reason)} (a forfeit)[/b]\nn: new game · u: undo")

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        if not self.runner.done(message):
            return
        if message.tag == "move":
            decision, recorder, position, _ = message.payload
            who = self.opponent.name if self.opponent is not None else "?"
            self._show_decision(decision, recorder, position, who=who)
            self.status_note = f"{who} played {self.move_name(decision.move)}: {decision.note}"
            self.play(decision.move)
        elif message.tag == "hint":
            decision, recorder, position, extra = message.payload
            self._show_decision(decision, recorder, position, who="hint")
            self.show_hint(decision, position, extra)
            self._after_move()
        elif message.tag == "compare":
            rows, depth = message.payload
            self.query_one(StatsPanel).show_comparison(rows, depth)

    def _show_decision(self, decision: Decision, recorder: TreeRecorder, position: Any, who: str) -> None:
        result = decision.result
        stats_panel = self.query_one(StatsPanel)
        if result is None:
            self.last_search = None
            stats_panel.show_text(f"Search · {who}", f"[b]{who}[/b] does not search: {decision.note}")
            self.query_one(TreeInspector).show_tree(None, self.move_name)
            return
        self.last_search = LastSearch(position, result.stats.depth, who, result.stats.algorithm)
        stats_panel.show(result.stats, self.move_name, who=who, proven=result.exact, note=decision.note)
        self.query_one(TreeInspector).show_tree(recorder, self.move_name, proven=result.exact,
                                                title=f"{self.side_name(position.turn)} to move ({who})")

    # -- actions ---------------------------------------------------------------------------

    def _cancel_search(self) -> None:
        if self.runner.busy:
            self.runner.cancel()
            panel = self.query_one(StatsPanel)
            panel.border_title = f"{panel.border_title} · cancelled"

    def action_undo(self) -> None:
        self._cancel_search()
        self.forfeit = None  # taken back: the game goes on (its result stays scored)
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
        self.board_moved(*undone)
        self.save_progress()
        if self.human_player is not None and pos.turn != self.human_player:
            # Back at the start with the computer to move: it moves again.
            self._after_move()
        else:
            self._set_status(f"Took back {len(undone)} move{'s' * (len(undone) > 1)}. "
                             f"{self.side_name(pos.turn)} to move.")

    def action_new_game(self) -> None:
        self._cancel_search()
        if self.practice is not None:  # practice again from the replayed position, still unsaved
            self._start_practice(*self.practice)
            return
        self._start_game()

    def action_hint(self) -> None:
        if self.position.outcome() is not None:
            return
        if self._is_computer_turn():
            self.notify("It is the computer's turn.", timeout=2)
            return
        position = self.position.copy()
        self._set_status(f"Looking for the best move for {self.side_name(position.turn)}…")
        self.runner.start("hint", self.hint_job(position, self.recorder()))

    def _stop_compare(self) -> None:
        """c or Escape while the comparison runs: stop it, keeping the rows finished."""
        self.runner.cancel()
        rows, depth = self._compare_rows
        self.query_one(StatsPanel).show_comparison(rows, depth, stopped=True)

    def action_compare(self) -> None:
        panel = self.query_one(StatsPanel)
        if self.runner.tag == "compare":
            self._stop_compare()
            return
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
        self._compare_rows = ([(SweepCell(config, depth), False) for config in CONFIGS], depth)
        panel.show_comparison(self._compare_rows[0], depth, running="running… c stops")

        def job(stop: threading.Event, progress: Callable[[Any], None]) -> tuple:
            # The rows of the Lab's Compare tab and `bench GAME --sweep`, at the one depth.
            done: list[tuple[SweepCell, bool]] = []
            for config in CONFIGS:
                if stop.is_set():
                    break

                def live(stats: SearchStats, config: Config = config) -> None:
                    cell = SweepCell(config, depth, nodes=stats.nodes, cutoffs=stats.cutoffs,
                                     tt_hits=stats.tt_hits, seconds=stats.seconds)
                    pending = [(SweepCell(c, depth), False) for c in CONFIGS[len(done) + 1:]]
                    progress(([*done, (cell, False), *pending], depth, f"running {config.label}… c stops"))

                cell = search_cell(position, config, depth, node_limit=COMPARE_NODE_LIMIT,
                                   seconds=COMPARE_SECONDS, stop=stop, on_progress=live)
                if stop.is_set():
                    break
                done.append((cell, not cell.stopped))
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

    def board_for(self, position: Any) -> Widget:
        """A board showing ``position`` for step mode: a widget with ``set_position`` and
        ``fit`` (step_mode.StepBoard), as every game's board widget has. The default is the
        position's text diagram."""
        return DiagramBoard(position)

    def action_step_mode(self) -> None:
        """The last search the panel showed, played back node by node (step mode)."""
        last = self.last_search
        if last is None:
            self.notify("Step mode plays back the last search: let the computer move or ask a hint (i) first.",
                        timeout=4)
            return
        if self.runner.busy:
            self.notify("Wait for the search to finish, then v plays it back.", timeout=2)
            return
        # On the compare table, the film of its rows: alpha-beta first (a cuts the others in turn).
        algorithm = ALPHABETA if self.query_one(StatsPanel).comparing else last.algorithm
        self.app.push_screen(StepScreen(last.position, self.board_for, self.move_name, algorithm=algorithm,
                                        depth=max(1, last.depth), title=f"{self.side_name(last.position.turn)} to move "
                                        f"({last.who})"))

    def action_lab(self) -> None:
        """The Lab on this game, its Compare tab offering the position on the board."""
        self.app.push_screen(LabScreen(self.GAME, self.position))

    def action_back(self) -> None:
        if self.runner.tag == "compare":
            self._stop_compare()  # Escape stops the comparison first; again leaves
            return
        self.runner.cancel()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.runner.cancel()
