"""Replay one arena game move by move: the game's own board, the move list, each move's note."""

from __future__ import annotations

from typing import cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, Static

from tui_games.engine.arena import ArenaResult, GameRecord, replay_positions
from tui_games.games import arena_adapter
from tui_games.ui.app_base import UsesApp
from tui_games.ui.widgets.boards import StepBoard, board_widget, side_labels
from tui_games.ui.widgets.keys_footer import KeysFooter

RESULT_WORDS = {"a": "A wins", "b": "B wins", None: "draw"}


class ReplayScreen(UsesApp, Screen):
    TITLE = "Replay"
    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("left,h", "step(-1)", "Back a move"),
        Binding("right,l,space", "step(1)", "Forward"),
        Binding("home,g", "jump(0)", "Start"),
        Binding("end,G", "jump(-1)", "End"),
        Binding("pageup,left_square_bracket", "game(-1)", "Previous game"),
        Binding("pagedown,right_square_bracket", "game(1)", "Next game"),
    ]

    DEFAULT_CSS = """
    ReplayScreen #replay-title { height: auto; padding: 0 1; color: $text-muted; }
    ReplayScreen #replay-body { height: 1fr; padding: 1 1 0 1; }
    ReplayScreen #replay-board { width: auto; min-width: 20; height: auto; padding: 0 2 0 1; }
    ReplayScreen #replay-moves { width: 1fr; height: auto; max-height: 100%; overflow-y: auto; }
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

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="replay-title")
        with Horizontal(id="replay-body"):
            yield self.board
            with Vertical(id="replay-moves-box"):
                yield Static(id="replay-moves")
        yield Static(id="replay-status")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        self._show_game()

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
        self._show_game()

    def _show_game(self) -> None:
        r, rec = self.result, self.record
        sides = self.sides
        a_side, b_side = sides[rec.a_side], sides[1 - rec.a_side]
        opening = f" · {rec.opening}" if rec.opening else ""
        self.query_one("#replay-title", Static).update(
            f"Game {rec.number}: A {r.a_name} ({a_side}) vs B {r.b_name} ({b_side}) · "
            f"{RESULT_WORDS[rec.winner]} ({rec.reason}) · {rec.plies} plies{opening}"
            + (f" · game {r.records.index(rec) + 1} of {len(r.records)}, [ ] for others" if len(r.records) > 1 else ""))
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
            status = f"start: {self.sides[pos.turn]} to move · → steps forward"
        else:
            i = self.ply - 1
            side = self.sides[(start_side + i) % 2]
            note = rec.notes[i] if i < len(rec.notes) else ""
            status = (f"ply {self.ply}/{rec.plies}: {side} ({self._mover_name(i)}) played {rec.moves[i]}"
                      + (f" — {note}" if note else ""))
        line = Text(status)
        if self.ply == rec.plies:
            line.append("\n")
            line.append(RESULT_WORDS[rec.winner], style="bold")
            line.append(f" ({rec.reason})")
        self.query_one("#replay-status", Static).update(line)

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
