"""Replay one game move by move: the game's own board, the move list, each move's note; and
``a``, "analyse from here": the game from the position shown to its end reviewed in a worker
(:mod:`tui_games.engine.analysis`, the game's judge), each move's mark and better move beside
the moves, the evaluation as a line along them, Enter on a move to see it on the board."""

from __future__ import annotations

from typing import Any, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tui_games.engine.analysis import GameReview, MoveReview, review_game
from tui_games.engine.arena import ArenaResult, GameRecord, replay_positions
from tui_games.games import arena_adapter, find_game
from tui_games.ui.app_base import UsesApp
from tui_games.ui.widgets.boards import StepBoard, board_widget, side_labels
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.eval_graph import eval_graph
from tui_games.ui.widgets.keys_footer import KeysFooter

RESULT_WORDS = {"a": "A wins", "b": "B wins", None: "draw"}


class ReplayScreen(UsesApp, Screen):
    TITLE = "Replay"
    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("left,h", "step(-1)", "Back a move"),
        Binding("right,l,space", "step(1)", "Forward"),
        # priority: the analysed moves' list would take Home and End for its own cursor.
        Binding("home,g", "jump(0)", "Start", priority=True),
        Binding("end,G", "jump(-1)", "End", priority=True),
        Binding("pageup,left_square_bracket", "game(-1)", "Previous game"),
        Binding("pagedown,right_square_bracket", "game(1)", "Next game"),
        Binding("a", "analyse", "Analyse"),
        # Shown on the status line: the footer has no room left at 80 columns.
        Binding("p", "play_on", "Play on", show=False),
    ]

    DEFAULT_CSS = """
    ReplayScreen #replay-title { height: auto; padding: 0 1; color: $text-muted; }
    ReplayScreen #replay-body { height: 1fr; padding: 1 1 0 1; }
    ReplayScreen #replay-board { width: auto; min-width: 20; height: auto; padding: 0 2 0 1; }
    ReplayScreen #replay-moves { width: 1fr; height: auto; max-height: 100%; overflow-y: auto; }
    ReplayScreen #replay-review { width: 1fr; height: 1fr; display: none; border: none; padding: 0; }
    ReplayScreen #replay-graph { height: 1; padding: 0 1; display: none; }
    ReplayScreen #replay-status { height: auto; min-height: 2; padding: 0 1; }
    """

    def __init__(self, result: ArenaResult, record: GameRecord) -> None:
        super().__init__()
        self.result = result
        self.record = record
        self.game = arena_adapter(result.config.game)
        # Every position of the game, built once: stepping is then just an index.
        self.positions = replay_positions(self.game, record, result.config.variant)
        self.ply = 0
        settings = self.app.store.load_settings()
        self.sides = side_labels(result.config.game, settings, result.side_names)
        self.board = board_widget(result.config.game, self.positions[0], settings, id="replay-board")
        self.runner = EngineRunner()
        # The analysis shown: the review of the moves after ``review_from`` (a ply of the game).
        self.review: GameReview | None = None
        self.review_from = 0
        self.review_cap = 1
        self._progress = ""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-title")
        with Horizontal(id="replay-body"):
            yield self.board
            with Vertical(id="replay-moves-box"):
                yield Static(id="replay-moves")
                review = OptionList(id="replay-review")
                review.can_focus = False  # until there is an analysis to move through
                yield review
        yield Static(id="replay-graph")
        yield Static(id="replay-status")
        yield self.runner
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self._show_game()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # One game (an archived one, a lobby game): no other game to page to, and the footer
        # has the room for the analysis's key at 80 columns.
        if action == "game":
            return len(self.result.records) > 1
        return True

    def action_game(self, delta: int) -> None:
        """Another game of the same run (page up/down, [ and ])."""
        records = self.result.records
        index = records.index(self.record) + delta if self.record in records else -1
        if not 0 <= index < len(records):
            self.app.bell()
            return
        self.record = records[index]
        self.positions = replay_positions(self.game, self.record, self.result.config.variant)
        self.ply = 0
        self._forget_review()
        self._show_game()

    def _show_game(self) -> None:
        r, rec = self.result, self.record
        sides = self.sides
        a_side, b_side = sides[rec.a_side], sides[1 - rec.a_side]
        opening = f" · {rec.opening}" if rec.opening else ""
        # A game's number within its run; a game on its own (the archive's, the lobby's) has none.
        number = f"Game {rec.number}: " if len(r.records) > 1 else ""
        # Text, not markup: the names may be other players' (the lobby's, the archive's).
        self.query_one("#replay-title", Static).update(Text(
            f"{number}A {r.a_name} ({a_side}) vs B {r.b_name} ({b_side}) · "
            f"{_result_words(rec)} · {rec.plies} plies{opening}"
            + (f" · game {r.records.index(rec) + 1} of {len(r.records)}, [ ] for others" if len(r.records) > 1 else "")))
        self.show()

    def _mover_name(self, ply: int) -> str:
        who = self.record.mover(ply)
        return f"{who.upper()} {self.result.a_name if who == 'a' else self.result.b_name}"

    def show(self) -> None:
        rec = self.record
        pos = self.positions[self.ply]
        cast(StepBoard, self.board).set_position(pos)
        moves = Text()
        start_side = rec.start_turn
        for i, text in enumerate(rec.moves):
            if (start_side + i) % 2 == 0 or i == 0:
                number = (i + start_side) // 2 + 1
                moves.append(f"{number}.{'..' if (start_side + i) % 2 else ''} ", style="dim")
            # The move just played is bracketed as well as reversed: it reads without colour.
            if i == self.ply - 1:
                moves.append(f"[{text}]", style="reverse bold")
            else:
                moves.append(text)
            moves.append(" ")
        self.query_one("#replay-moves", Static).update(moves)
        if self.ply == 0:
            status = f"start: {self.sides[pos.turn]} to move · → steps forward · a analyses · p plays on"
        else:
            i = self.ply - 1
            side = self.sides[(start_side + i) % 2]
            note = rec.notes[i] if i < len(rec.notes) else ""
            reviewed = self._reviewed(self.ply)
            if reviewed is not None:
                note = _review_words(reviewed)
            status = (f"ply {self.ply}/{rec.plies}: {side} ({self._mover_name(i)}) played {rec.moves[i]}"
                      + (f" — {note}" if note else ""))
        if self._progress:
            status += f"\n{self._progress}"
        line = Text(status)
        if self.ply == rec.plies:
            line.append("\n")
            line.append(_result_words(rec), style="bold")
        self.query_one("#replay-status", Static).update(line)
        self._show_review_cursor()

    def action_step(self, delta: int) -> None:
        ply = self.ply + delta
        if 0 <= ply < len(self.positions):
            self.ply = ply
            self.show()
        else:
            self.app.bell()

    def action_jump(self, where: int) -> None:
        self.ply = 0 if where == 0 else len(self.positions) - 1
        self.show()

    def action_play_on(self) -> None:
        """The position shown as a game to play on, with the hint, tree, step mode and compare
        of the game's own screen (practice: the game in progress stays saved)."""
        game = self.result.config.game
        try:
            spec = find_game(game)
            cls = spec.screen_class
        except ValueError:
            self.app.bell()
            return
        settings = self.app.store.load_settings().get(game, {})
        screen = cls(cls.OPTIONS.from_settings({**settings, **self.result.config.variant, "opponent": "human"}))
        screen.play_on_from(self.positions[self.ply], f"ply {self.ply} of game {self.record.number}")
        self.app.push_screen(screen)

    # -- analyse from here -----------------------------------------------------------------------

    def _reviewed(self, ply: int) -> MoveReview | None:
        """The analysis of the move of ``ply`` (1-based in the game), if it was analysed."""
        if self.review is None:
            return None
        index = ply - self.review_from - 1
        return self.review.moves[index] if 0 <= index < len(self.review.moves) else None

    def _forget_review(self) -> None:
        self.runner.cancel()
        self.review = None
        self._progress = ""
        review_list = self.query_one("#replay-review", OptionList)
        review_list.display = False
        review_list.can_focus = False
        self.query_one("#replay-moves", Static).display = True
        self.query_one("#replay-graph", Static).display = False

    def action_analyse(self) -> None:
        """Review the game from the position shown to its end; pressed again while it runs, stop."""
        if self.runner.busy:
            self.runner.cancel()
            self._progress = "analysis stopped · a starts it again"
            self.show()
            return
        start = self.ply
        if start >= self.record.plies:
            self.notify("No moves after this position to analyse: go back with ← or Home.", timeout=4)
            return
        variant = self.result.config.variant
        try:
            judge = self.game.judge(variant)
        except ValueError as error:
            self.notify(f"Cannot analyse: {error}", severity="error", timeout=6)
            return
        if judge is None:
            self.notify(f"No analysis for {self.result.game_title}.", timeout=4)
            return
        game = self.game
        position = self.positions[start].copy()
        replay = position.copy()
        moves: list[Any] = []
        for text in self.record.moves[start:]:
            move = game.parse_move(replay, text)
            moves.append(move)
            replay.push(move)
        cap = judge.thresholds.cap

        def job(stop: Any, on_progress: Any) -> tuple[int, int, GameReview]:
            review = review_game(position, moves, judge, move_text=game.move_text, stop=stop,
                                 on_progress=lambda done, total: on_progress((done, total)))
            return start, cap, review

        self._progress = f"analysing {len(moves)} moves from ply {start} · a stops"
        self.runner.start("analyse", job)
        self.show()

    def on_engine_runner_progress(self, message: EngineRunner.Progress) -> None:
        if self.runner.is_current(message) and message.tag == "analyse":
            done, total = message.stats
            self._progress = f"analysing: position {done} of {total} · a stops"
            self.show()

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if self.runner.done(message):
            self._progress = ""
            self.notify(f"The analysis failed: {message.error}", severity="error", timeout=8)
            self.show()

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        if not self.runner.done(message) or message.tag != "analyse":
            return
        start, cap, review = message.payload
        self.review, self.review_from, self.review_cap = review, start, cap
        sides = [(self.record.start_turn + start + i) % 2 for i in range(len(review.moves))]
        marks = sum(1 for m in review.moves if m.mark)
        self._progress = (f"analysed from ply {start}: {marks} marked · Enter on a move shows it" if marks
                          else f"analysed from ply {start}: no move marked · Enter on a move shows it")
        options = []
        # The marks and scores in one column, past the longest move (a checkers multiple jump).
        width = max([6, *(len(m.move) for m in review.moves)])
        for m, side in zip(review.moves, sides):
            ply = start + m.ply
            best = f" · best {m.best}" if m.best and m.mark else ""
            options.append(Option(f"{ply:>3}. {self.sides[side]} {m.move:<{width}} {m.mark or '':<2} "
                                  f"{m.words(m.after)}{best}", id=str(ply)))
        review_list = self.query_one("#replay-review", OptionList)
        review_list.clear_options()
        review_list.add_options(options)
        review_list.display = True
        review_list.can_focus = True
        self.query_one("#replay-moves", Static).display = False
        self.query_one("#replay-graph", Static).display = True
        review_list.focus()
        if self.ply <= start:
            self.ply = start + 1
        self.show()

    def _show_review_cursor(self) -> None:
        review = self.review
        if review is None:
            return
        index = self.ply - self.review_from - 1
        graph = self.query_one("#replay-graph", Static)
        width = max(1, (self.app.size.width or 80) - 2)
        graph.update(eval_graph(review.moves, self.review_cap, width,
                                current=index if 0 <= index < len(review.moves) else None))
        review_list = self.query_one("#replay-review", OptionList)
        if 0 <= index < review_list.option_count and review_list.highlighted != index:
            review_list.highlighted = index

    @on(OptionList.OptionSelected, "#replay-review")
    def _jump_to_move(self, event: OptionList.OptionSelected) -> None:
        """Enter on an analysed move: the board after it, its mark and better move below."""
        self.ply = int(event.option.id or 0)
        self.show()

    def on_unmount(self) -> None:
        self.runner.cancel()


def _review_words(move: MoveReview) -> str:
    text = f"{move.words(move.before)} → {move.words(move.after)}"
    if move.mark:
        text = f"{move.mark} {text}"
    if move.best and move.mark:
        text += f"; better {move.best}"
    return text


def _result_words(record: GameRecord) -> str:
    # An archived game the players left unfinished has no winner and is no draw.
    if record.reason == "unfinished":
        return "unfinished"
    return f"{RESULT_WORDS[record.winner]} ({record.reason})" if record.reason else RESULT_WORDS[record.winner]
