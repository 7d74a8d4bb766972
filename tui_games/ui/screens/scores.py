"""Scores per game and opponent, best times (Sudoku per grade) and finished arena runs, kept
across sessions; on a shared server (``tui-games serve``) also the leaderboard of every player."""

from __future__ import annotations

from datetime import datetime

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from tui_games.engine.arena import ArenaResult
from tui_games.games import find_game
from tui_games.ui.app_base import UsesApp
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.userdata.setting_rules import OneOf

# The arena list only grows; the newest runs are the ones worth a screen line.
ARENA_RUNS_SHOWN = 20


def _local_time(iso: str) -> str:
    """A stored UTC time as the user's clock shows it, to the minute."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16]


class ScoresScreen(UsesApp, Screen):
    TITLE = "Scores"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("r", "reset", "Reset all"),
                Binding("j", "cursor_down", show=False), Binding("k", "cursor_up", show=False)]

    def compose(self) -> ComposeResult:
        yield Header()
        yield DataTable(id="scores-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="scores-empty")
        yield Static("[b]Best times[/b]", id="records-title")
        yield DataTable(id="records-table", cursor_type="row", zebra_stripes=True)
        yield Static("[b]Arena runs[/b] [dim]the Lab and tui-games arena, newest first[/dim]", id="arena-runs-title")
        yield DataTable(id="arena-runs-table", cursor_type="row", zebra_stripes=True)
        yield Static("[b]Leaderboard[/b] [dim]every player on this server[/dim]", id="leaderboard-title")
        yield DataTable(id="leaderboard-table", cursor_type="row", zebra_stripes=True)
        yield KeysFooter()

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
                table.add_row(_title(game), opponent, str(w), str(d), str(l), str(w + d + l))
        self.query_one("#scores-empty", Static).update(
            "" if scores else "No games finished against the computer yet.")
        records = self.app.store.records()
        times = self.query_one("#records-table", DataTable)
        times.clear(columns=True)
        times.add_columns("game", "grade", "best time", "solved", "with hints")
        for game, categories in sorted(records.items()):
            for category, record in sorted(categories.items(), key=lambda item: _category_order(game, item[0])):
                best = record["best"]
                shown = "—" if best is None else "{}:{:02d}".format(*divmod(int(best), 60))
                times.add_row(_title(game), category, shown, str(record["solved"]), str(record["assisted"]))
        self.query_one("#records-title").display = bool(records)
        times.display = bool(records)
        self._fill_arena_runs()
        self._fill_leaderboard()

    def _fill_arena_runs(self) -> None:
        runs = self.app.store.arena_runs()
        table = self.query_one("#arena-runs-table", DataTable)
        table.clear(columns=True)
        table.add_columns("finished", "game", "A", "B", "games", "A won", "drawn", "B won")
        self._shown_runs = list(reversed(runs[-ARENA_RUNS_SHOWN:]))
        for run in self._shown_runs:
            when = _local_time(str(run.get("finished_at", "")))
            table.add_row(when, run["game"], run["a_name"], run["b_name"], str(run["games"]), str(run["a_wins"]),
                          str(run["draws"]), str(run["b_wins"]))
        self.query_one("#arena-runs-title").display = bool(runs)
        table.display = bool(runs)

    @on(DataTable.RowSelected, "#arena-runs-table")
    def _replay_run(self, event: DataTable.RowSelected) -> None:
        """Enter on an arena run opens its first game's replay (page up/down for the others)."""
        try:
            result = ArenaResult.from_dict(self._shown_runs[event.cursor_row])
        except (IndexError, KeyError, TypeError, ValueError):
            self.notify("This run cannot be replayed (saved by another version).", severity="warning")
            return
        if not result.records:
            self.notify("This run was saved without its games.", timeout=3)
            return
        self.app.push_screen(ReplayScreen(result, result.records[0]))

    def _fill_leaderboard(self) -> None:
        store = self.app.store
        board = self.query_one("#leaderboard-table", DataTable)
        board.clear(columns=True)
        board.add_columns("game", "player", "won", "drawn", "lost", "games")
        for game, players in sorted(store.leaderboard().items()):
            # Most wins first, then fewest losses; "you" marks this session's player.
            ranked = sorted(players.items(), key=lambda item: (-item[1]["win"], item[1]["loss"], item[0]))
            for user, tally in ranked:
                w, d, l = tally["win"], tally["draw"], tally["loss"]
                name = f"{user} (you)" if user == store.user else user
                board.add_row(game, name, str(w), str(d), str(l), str(w + d + l))
        shared = store.leaderboard_path is not None
        self.query_one("#leaderboard-title").display = shared
        board.display = shared

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def action_reset(self) -> None:
        def answered(yes: bool | None) -> None:
            if not yes:
                return
            store = self.app.store
            store.reset_scores()
            store.reset_records()
            store.reset_arena_runs()
            self._fill()
            self.notify("Scores, best times and arena runs reset.")

        self.app.push_screen(ConfirmDialog(
            "Reset all", "Forget every score, best time and arena run (the Lab's too)? "
            "This cannot be undone. (The server's leaderboard is kept.)", yes="Reset all"), answered)


def _title(game: str) -> str:
    """A game's name as the menu shows it ("Tic-tac-toe"); a key no game has, as it is."""
    try:
        return find_game(game).title
    except ValueError:
        return game


def _category_order(game: str, category: str) -> tuple[int, str]:
    """Best-time categories in the order of the game's "grade" setting (easiest first), others
    after them by name."""
    try:
        rule = find_game(game).setting_rules.get("grade")
    except ValueError:
        rule = None
    order = rule.values if isinstance(rule, OneOf) else ()
    return (order.index(category), "") if category in order else (len(order), category)
