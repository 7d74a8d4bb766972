"""The Games screen: every finished game the app kept (``Store.archived_games``), newest first,
filtered by game, opponent, result, date and how it was played; Enter replays the game, ``a``
replays and analyses it, Delete forgets it (after asking).

Each filter is one key that steps through its choices (g, o, r, d, h; x clears them all), so the
screen needs no text field and works the same over SSH at 80×24. The list opens on the player's
own games: a Lab run of hundreds would bury them (h shows the Lab's too).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from tui_games.games import find_game
from tui_games.ui.app_base import UsesApp
from tui_games.ui.archive import MODES, ArchivedGame, import_game, read_archived
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.file_dialogs import ask_to_load, ask_to_save
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.widgets.keys_footer import KeysFooter

RESULT_CHOICES: tuple[str | None, ...] = (None, "win", "loss", "draw", "1-0", "0-1")
RESULT_WORDS = {None: "all", "win": "you won", "loss": "you lost", "draw": "drawn", "1-0": "first side won",
                "0-1": "second side won"}
DATE_CHOICES: tuple[int | None, ...] = (None, 1, 7, 30, 365)
DATE_WORDS = {None: "any", 1: "today", 7: "last 7 days", 30: "last 30 days", 365: "last year"}
# How a game was played (its Mode): "yours" is every game but the Lab's.
YOURS = "yours"
HOW_WORDS = {None: "all", YOURS: "yours", "lab": "the Lab's"}
OUTCOME_WORDS = {"win": "won", "loss": "lost", "draw": "draw", "1-0": "1-0", "0-1": "0-1", "*": "unfinished"}


def _step(choices: tuple, current: object) -> object:
    index = choices.index(current) if current in choices else -1
    return choices[(index + 1) % len(choices)]


class GamesScreen(UsesApp, Screen):
    TITLE = "Games"
    BINDINGS = [
        Binding("escape,q", "app.pop_screen", "Back"),
        Binding("g", "filter('game')", "Game"),
        Binding("o", "filter('opponent')", "Opponent"),
        Binding("r", "filter('result')", "Result"),
        Binding("d", "filter('date')", "Date"),
        Binding("h", "filter('how')", "How"),
        Binding("x", "clear_filters", "All"),
        Binding("a", "analyse", "Analyse"),
        Binding("e", "export", "Export", show=False),
        Binding("i", "import", "Import", show=False),
        Binding("delete", "forget", "Delete", show=False),
        Binding("j", "cursor_down", show=False),
        Binding("k", "cursor_up", show=False),
    ]

    DEFAULT_CSS = """
    GamesScreen #games-filters { height: auto; padding: 0 1; }
    GamesScreen #games-list { height: 1fr; }
    GamesScreen #games-status { height: auto; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.games: list[ArchivedGame] = []
        self.filters: dict[str, Any] = {"game": game, "opponent": None, "result": None, "date": None, "how": YOURS}
        self.shown: list[ArchivedGame] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="games-filters")
        yield DataTable(id="games-list", cursor_type="row", zebra_stripes=True)
        yield Static(id="games-status")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("When", "Game", "Opponent", "Result", "Moves", "How")
        self.load()
        table.focus()

    def load(self) -> None:
        """Read the archive again (a game may have ended since, in another session too)."""
        store = self.app.store
        self.games = store.archived_games(read_archived)
        for warning in store.take_warnings():
            self.notify(warning, title="Data file problem", severity="warning", timeout=10, markup=False)
        self.refill()

    def matches(self, entry: ArchivedGame, now: datetime | None = None) -> bool:
        return self._matches(entry, self.filters, now)

    @staticmethod
    def _matches(entry: ArchivedGame, f: dict[str, Any], now: datetime | None = None) -> bool:
        if f["game"] is not None and entry.game != f["game"]:
            return False
        how = f["how"]
        if how is not None and (entry.lab if how == YOURS else not entry.lab if how == "lab" else entry.mode != how):
            return False
        if f["opponent"] is not None and entry.opponent != f["opponent"]:
            return False
        result = f["result"]
        if result is not None and entry.outcome != result and not (result in ("1-0", "0-1") and entry.result == result):
            return False
        days = f["date"]
        if days is not None:
            now = now or datetime.now(timezone.utc)
            local_now = now.astimezone()
            if days == 1:
                if entry.when.astimezone().date() != local_now.date():
                    return False
            elif entry.when < now - timedelta(days=days):
                return False
        return True

    def refill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        self.shown = [entry for entry in self.games if self.matches(entry)]
        for entry in self.shown:
            title = find_game(entry.game).title
            # Text, not markup: a name came from a file, perhaps from another player.
            table.add_row(entry.when.astimezone().strftime("%Y-%m-%d %H:%M"), title, Text(entry.opponent[:24]),
                          Text(OUTCOME_WORDS.get(entry.outcome, entry.outcome)), str(len(entry.moves)),
                          Text(entry.mode[:12]), key=entry.name)
        f = self.filters
        game = find_game(str(f["game"])).title if f["game"] is not None else "all"
        line = Text()
        how = HOW_WORDS.get(f["how"], f["how"])
        # x (every game) is in the key bar: the line fits 80 columns as it opens.
        for n, (key, label, value) in enumerate((
                ("g", "game", game), ("o", "opponent", f["opponent"] or "all"), ("r", "result", RESULT_WORDS[f["result"]]),
                ("d", "date", DATE_WORDS[f["date"]]), ("h", "how", how))):
            line.append(" · " if n else "")
            line.append(key, style="bold")
            line.append(f" {label}: {value}")
        self.query_one("#games-filters", Static).update(line)
        labs = sum(entry.lab for entry in self.games)
        if not self.games:
            status = "No finished game kept yet: every game you finish is listed here."
        elif labs == len(self.games) and f["how"] == YOURS:
            status = f"No game of yours kept yet; h shows the Lab's {labs}."
        elif not self.shown:
            status = f"None of the {len(self.games)} games matches; x shows them all."
        else:
            status = f"{len(self.shown)} of {len(self.games)} games · Enter replays · a analyses"
            if labs and f["how"] == YOURS:
                status += f" · h: the Lab's {labs} too"
        self.query_one("#games-status", Static).update(status)

    def action_filter(self, which: str) -> None:
        if which == "game":
            choices: tuple = (None, *sorted({entry.game for entry in self.games}))
        elif which == "opponent":
            # The opponents of the games the other filters of their kind leave (not the Lab's pairs
            # while the list shows yours).
            narrowed = {**dict.fromkeys(self.filters), "game": self.filters["game"], "how": self.filters["how"]}
            pool = [e for e in self.games if self._matches(e, narrowed)]
            choices = (None, *sorted({entry.opponent for entry in pool}))
        elif which == "how":
            choices = (YOURS, None, *(mode for mode in MODES if any(entry.mode == mode for entry in self.games)))
        elif which == "result":
            choices = RESULT_CHOICES
        else:
            choices = DATE_CHOICES
        self.filters[which] = _step(choices, self.filters[which])
        self.refill()

    def action_clear_filters(self) -> None:
        self.filters = dict.fromkeys(self.filters)
        self.refill()

    def action_cursor_down(self) -> None:
        self.query_one(DataTable).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(DataTable).action_cursor_up()

    def _selected(self) -> ArchivedGame | None:
        table = self.query_one(DataTable)
        if not self.shown or not 0 <= table.cursor_row < len(self.shown):
            return None
        return self.shown[table.cursor_row]

    def _open(self, entry: ArchivedGame, analyse: bool = False) -> None:
        try:
            result, record = entry.replay()
            screen = ReplayScreen(result, record)
        except ValueError as error:  # an entry edited by hand: a move that is not legal
            self.notify(f"Cannot replay {entry.name}: {error}", severity="error", timeout=8, markup=False)
            return
        self.app.push_screen(screen)
        if analyse:
            screen.call_after_refresh(screen.action_analyse)

    @on(DataTable.RowSelected, "#games-list")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        entry = self._selected()
        if entry is not None:
            self._open(entry)

    def action_analyse(self) -> None:
        entry = self._selected()
        if entry is None:
            self.app.bell()
            return
        self._open(entry, analyse=True)

    def action_forget(self) -> None:
        """Delete: forget the game under the cursor, after asking (the answer defaults to No)."""
        entry = self._selected()
        if entry is None:
            self.app.bell()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.app.store.forget_archived(entry.name)
                for warning in self.app.store.take_warnings():
                    self.notify(warning, title="Data file problem", severity="warning", timeout=10, markup=False)
                self.load()

        when = entry.when.astimezone().strftime("%Y-%m-%d %H:%M")
        # No name in the question: the dialog reads markup, and a name is another player's text.
        self.app.push_screen(ConfirmDialog("Delete a game", f"Forget the {find_game(entry.game).title} game of "
                                           f"{when} ({len(entry.moves)} moves)? This cannot be undone.",
                                           yes="Delete"),
                             answered)

    def action_export(self) -> None:
        """e: the game under the cursor as its record, in a file (checkers: PDN proper), which
        ``analyse`` and ``i`` read back."""
        entry = self._selected()
        if entry is None:
            self.app.bell()
            return
        try:
            text = self.app.store.archived_text(entry.name)
        except (OSError, ValueError) as error:
            self.notify(f"Cannot read {entry.name}: {error}", severity="error", timeout=8, markup=False)
            return
        ending = "pdn" if entry.game == "checkers" else "txt"
        name = f"{entry.game}-{entry.when.astimezone().strftime('%Y%m%d-%H%M')}.{ending}"
        ask_to_save(self, "Export the game", name, lambda: text,
                    lambda shown: self.notify(f"Wrote the game to {shown}", timeout=6, markup=False),
                    local_folder=self.app.store.root)

    def action_import(self) -> None:
        """i: a game from a file (a record, another program's checkers PDN) into the archive; a
        file that is not one stays in the dialog with its one line."""
        store = self.app.store

        def loaded(name: object, shown: str) -> None:
            for warning in store.take_warnings():
                self.notify(warning, title="Data file problem", severity="warning", timeout=10, markup=False)
            if name is not None:
                self.notify(f"Kept the game of {shown}", timeout=6, markup=False)
            self.load()

        ask_to_load(self, "Import a game", "A game's record (e's, analyse --export's) or a checkers PDN file.",
                    lambda text, shown: import_game(store, text), loaded)
