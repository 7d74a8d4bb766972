"""Scores per game and opponent, and best times (Sudoku per grade), kept across sessions."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static


class ScoresScreen(Screen):
    TITLE = "Scores"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("r", "reset", "Reset all"),
                Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="scores-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="scores-empty")
        yield Static("[b]Best times[/b]", id="records-title")
        yield DataTable(id="records-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        self._fill()
        self.query_one(DataTable).focus()

    def _fill(self) -> None:
        table = self.query_one("#scores-table", DataTable)
        table.clear(columns=True)
        table.add_columns("game", "opponent", "won", "drawn", "lost", "games")
        scores = self.app.store.scores()
        for game, opponents in sorted(scores.items()):
            for opponent, tally in sorted(opponents.items()):
                w, d, l = (tally.get(k, 0) for k in ("win", "draw", "loss"))
                table.add_row(game, opponent, str(w), str(d), str(l), str(w + d + l))
        self.query_one("#scores-empty", Static).update(
            "" if scores else "No games finished against the computer yet.")
        records = self.app.store.records()
        times = self.query_one("#records-table", DataTable)
        times.clear(columns=True)
        times.add_columns("game", "grade", "best time", "solved")
        for game, categories in sorted(records.items()):
            for category, record in categories.items():
                minutes, secs = divmod(int(record["best"]), 60)
                times.add_row(game, category, f"{minutes}:{secs:02d}", str(record["solved"]))
        self.query_one("#records-title").display = bool(records)
        times.display = bool(records)

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def action_reset(self) -> None:
        self.app.store.reset_scores()
        self.app.store.reset_records()
        self._fill()
        self.notify("Scores reset.")
