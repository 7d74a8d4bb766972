"""Step mode: a search played back node by node on the board, like a film.

The game screen hands over the searched position, a way to draw a board for any position,
and how to name moves; this screen records the search again, whole (one iteration, at most
:data:`~tui_games.engine.trace.FILM_NODES` nodes: the screen says so), and walks the
recorder's events (:mod:`tui_games.engine.trace`). It reads the recorder, never the game:
any game of the table plays back the same way. The board shows the position of the node the
film is at; the panel its line from the root, its window (α and β), its value as it is
backed up, and each event in words, cut-offs explained.

Keys: → or Enter step into (the next event), ↓ step over (past the node's subtree), ↑ step
out (to where its parent returns), ← back, Space run or pause, + and - the speed, x the next
cut-off, t the next table hit, Home and End, a another algorithm, Escape back to the game.
Nothing runs while paused (no timer ticks).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, cast

from rich.console import Group
from rich.text import Text
from textual import events as textual_events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Static

from tui_games.engine.search import ALGORITHMS, INF, SearchResult, score_words
from tui_games.engine.trace import (
    CUTOFF,
    ENTER,
    FILM_NODES,
    RETURN,
    TABLE,
    Event,
    events,
    film_search,
    line,
    sentence,
    side,
)
from tui_games.engine.tree import TreeNode, TreeRecorder
from tui_games.engine.tree_export import root_window, value_words, window_words
from tui_games.ui.text import count
from tui_games.ui.widgets.boards import StepBoard
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.keys_footer import KeysFooter

# The film is one iteration of one search, whatever the panel's search did around it.
FILM_LABELS = {"minimax": "minimax", "alphabeta": "alpha-beta", "alphabeta+ordering": "alpha-beta + ordering",
               "alphabeta+ordering+tt": "alpha-beta + ordering + TT"}

# Events a second when running.
SPEEDS = (1, 2, 5, 10, 20, 50, 100, 500)
DEFAULT_SPEED = 2

MoveName = Callable[[Any], str]


BoardFor = Callable[[Any], Widget]


class StepScreen(Screen):
    """The search of ``position`` (by ``algorithm`` to ``depth``) as a film."""

    BINDINGS = [
        Binding("right,enter", "step_into", "Into"),
        Binding("down", "step_over", "Over"),
        Binding("up", "step_out", "Out"),
        Binding("left", "back", "Back"),
        Binding("space", "run", "Run/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster", show=False),
        Binding("minus", "speed(-1)", "Slower", show=False),
        Binding("x", "next('cut-off')", "Cut-off"),
        Binding("t", "next('table')", "Table hit"),
        Binding("home", "jump(0)", "Start", show=False),
        Binding("end", "jump(-1)", "End", show=False),
        Binding("a", "algorithm", "Algorithm"),
        Binding("escape", "leave", "Game"),
    ]

    DEFAULT_CSS = """
    StepScreen #step-body { height: 1fr; }
    StepScreen #step-board-column { width: 1fr; min-width: 30; height: 1fr; align-horizontal: center; }
    StepScreen #step-title { width: 100%; text-align: center; height: 1; }
    StepScreen #step-panel {
        width: 44; height: 1fr; padding: 0 1;
        border: round $foreground-muted; border-title-color: $text-accent;
    }
    """

    def __init__(self, position: Any, board_for: BoardFor, move_name: MoveName, *, algorithm: str, depth: int,
                 title: str = "") -> None:
        super().__init__()
        self.position = position.copy()
        self.board_for = board_for
        self.move_name = move_name
        self.algorithm = algorithm if algorithm in ALGORITHMS else ALGORITHMS[-1]
        self.depth = max(1, depth)
        self.title_text = title
        self.runner = EngineRunner()
        self.result: SearchResult | None = None
        self.recorder: TreeRecorder | None = None
        self.film: list[Event] = []
        # enters[i]: enter events up to and including event i (the counter's k).
        self.enters: list[int] = []
        # id(node) -> index of its return event.
        self.returns: dict[int, int] = {}
        self.index = 0
        self.speed = DEFAULT_SPEED
        self.timer: Timer | None = None
        self.board: Widget | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="step-body"):
            with Vertical(id="step-board-column"):
                yield Static(self.title_text, id="step-title")
                yield Center(id="step-board-box")
            yield Static(id="step-panel")
        yield self.runner
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self.query_one("#step-panel", Static).border_title = "Step mode"
        self._set_board(self.position)  # the searched position while the film is recorded
        self._record()

    # -- recording ---------------------------------------------------------------------------

    def _record(self) -> None:
        self._pause()
        self.film = []
        position, algorithm, depth = self.position, self.algorithm, self.depth
        self.query_one("#step-panel", Static).update(
            Text(f"recording {FILM_LABELS.get(algorithm, algorithm)} to depth {depth} (at most "
                 f"{count(FILM_NODES)} nodes; a deeper search is recorded at the depth that fits)…",
                 style="italic"))

        def job(stop: threading.Event, progress: Callable[[Any], None]) -> tuple:
            return film_search(position, algorithm, depth, stop=stop)

        self.runner.start("film", job)

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        if not self.runner.done(message):
            return
        self.result, self.recorder = message.payload
        self.film = list(events(self.recorder))
        total = 0
        self.enters = []
        self.returns = {}
        for i, event in enumerate(self.film):
            total += event.kind == ENTER
            self.enters.append(total)
            if event.kind == RETURN:
                self.returns[id(event.node)] = i
        self.index = 0
        self._show()

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if self.runner.done(message):
            self.query_one("#step-panel", Static).update(f"The recording failed: {message.error}")

    # -- what is shown -----------------------------------------------------------------------

    @property
    def nodes(self) -> int:
        return self.enters[-1] if self.enters else 0

    @property
    def node_number(self) -> int:
        return self.enters[self.index] if self.film else 0

    def _board_position(self, event: Event) -> Any:
        position = self.position.copy()
        for node in event.path[1:]:
            position.push(node.move)
        return position

    def _set_board(self, position: Any) -> None:
        box = self.query_one("#step-board-box", Center)
        if self.board is None:
            self.board = self.board_for(position)
            self.board.can_focus = False
            box.mount(self.board)
            self.call_after_refresh(self._fit)
        else:
            cast(StepBoard, self.board).set_position(position)

    def _fit(self) -> None:
        if self.board is not None:
            size = self.app.size
            cast(StepBoard, self.board).fit(max(20, size.width - 46), max(6, size.height - 5))

    def on_resize(self, event: textual_events.Resize) -> None:
        self._fit()

    def _best_so_far(self, node: TreeNode) -> tuple[TreeNode, int] | None:
        """The best child of ``node`` whose value is back by now, from ``node``'s side."""
        best: tuple[TreeNode, int] | None = None
        for child in node.children:
            done = self.returns.get(id(child))
            value = child.value_for_root()
            if done is None or done > self.index or value is None:
                continue
            if best is None or (value > best[1] if node.maximizing else value < best[1]):
                best = (child, value)
        return best

    def _show(self) -> None:
        panel = self.query_one("#step-panel", Static)
        if not self.film or self.recorder is None or self.result is None:
            panel.update("Nothing to play back: the search recorded no tree.")
            return
        event = self.film[self.index]
        node = event.node
        proven = self.result.exact
        self._set_board(self._board_position(event))
        label = FILM_LABELS.get(self.algorithm, self.algorithm)
        panel.border_title = f"Step mode · {label}"
        depth = self.recorder.depth
        stats = self.result.stats
        smaller = f" (not {self.depth}: too big to record)" if depth < self.depth else ""
        lines: list[Any] = [
            Text.assemble(("node ", "dim"), (f"{count(self.node_number)} of {count(self.nodes)}", "bold"),
                          ("  depth ", "dim"), f"{depth}{smaller}"),
            Text(f"the search: {count(stats.nodes)} nodes · {count(stats.cutoffs)} cut-offs · "
                 f"{count(stats.tt_hits)} table hits", style="dim"),
            Text(f"event {count(self.index + 1)} of {count(len(self.film))} · whole tree recorded, "
                 f"at most {count(FILM_NODES)} nodes", style="dim"),
            Text.assemble(("line ", "dim"), line(event.path, self.move_name)),
            Text.assemble(("at ", "dim"), (side(node), "bold"), (f" to choose, ply {node.ply}", "dim")),
        ]
        alpha, beta = root_window(node) if node.ply else (-INF, INF)
        lines.append(Text.assemble(("window ", "dim"), window_words(alpha, beta, proven),
                                   ("  α ", "dim"), self._end(alpha, proven), ("  β ", "dim"), self._end(beta, proven)))
        done = self.returns.get(id(node))
        if done is not None and (done <= self.index or event.kind == TABLE):
            lines.append(Text.assemble(("value ", "dim"), (value_words(node, proven), "bold"), ("  backed up", "dim")))
        else:
            best = self._best_so_far(node)
            if best is None:
                lines.append(Text("value: searching…", style="dim"))
            else:
                child, value = best
                lines.append(Text.assemble(("best so far ", "dim"), (value_words(child, proven), "bold"),
                                           (f" by {self.move_name(child.move)}", "dim")))
        style = "bold magenta" if event.kind == CUTOFF else "bold cyan" if event.kind == TABLE else ""
        lines.append(Text(sentence(event, self.move_name, proven=proven), style=style))
        running = f"running, {SPEEDS[self.speed]}/s" if self.timer is not None else "paused"
        lines.append(Text(f"{running} · ←/→ back/into · ↓ over · ↑ out · space run · +/- speed · "
                          "x cut-off · t table hit · a algorithm", style="dim"))
        panel.update(Group(*lines))

    def _end(self, value: int, proven: bool) -> str:
        if value <= -INF:
            return "-∞"
        if value >= INF:
            return "+∞"
        return score_words(value, proven)

    # -- moving through the film -------------------------------------------------------------

    def _go(self, index: int) -> None:
        if not self.film:
            return
        self.index = max(0, min(len(self.film) - 1, index))
        if self.index == len(self.film) - 1:
            self._pause()
        self._show()

    def action_step_into(self) -> None:
        self._go(self.index + 1)

    def action_back(self) -> None:
        self._pause()
        self._go(self.index - 1)

    def action_step_over(self) -> None:
        """From a node's enter, past its whole subtree (to its return); else the next event."""
        if not self.film:
            return
        event = self.film[self.index]
        end = self.returns.get(id(event.node), self.index) if event.kind == ENTER else self.index
        self._go(end + 1 if end == self.index else end)

    def action_step_out(self) -> None:
        """To where the current node's parent returns."""
        if not self.film:
            return
        path = self.film[self.index].path
        if len(path) < 2:
            self._go(len(self.film) - 1)
            return
        self._go(self.returns.get(id(path[-2]), len(self.film) - 1))

    def action_next(self, kind: str) -> None:
        for i in range(self.index + 1, len(self.film)):
            if self.film[i].kind == kind:
                self._go(i)
                return
        self.notify(f"No {'cut-off' if kind == CUTOFF else 'table hit'} after this point.", timeout=2)

    def action_jump(self, where: int) -> None:
        self._go(where if where >= 0 else len(self.film) - 1)

    def action_run(self) -> None:
        if self.timer is not None:
            self._pause()
        elif self.film:
            if self.index >= len(self.film) - 1:
                self.index = 0
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.action_step_into)
        self._show()

    def action_speed(self, step: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + step))
        if self.timer is not None:
            self.timer.stop()
            self.timer = self.set_interval(1 / SPEEDS[self.speed], self.action_step_into)
        self._show()

    def _pause(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def action_algorithm(self) -> None:
        """The same position and depth with the next algorithm: compare the films."""
        self.algorithm = ALGORITHMS[(ALGORITHMS.index(self.algorithm) + 1) % len(ALGORITHMS)]
        self._record()

    def action_leave(self) -> None:
        self._pause()
        self.runner.cancel()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self._pause()
        self.runner.cancel()
