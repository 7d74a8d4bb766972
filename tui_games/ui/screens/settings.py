"""Settings: saved at once in the user data dir (TUI_GAMES_HOME overrides it)."""

from __future__ import annotations

from typing import Any, Iterator

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Header, Label, Select, Static, Switch

from tui_games.engine.search import ALGORITHM_LABELS, ALGORITHMS
from tui_games.games import GAMES, SettingRow

TREE_PLIES = [2, 3, 4, 5, 6, 8]
TREE_NODES = [2_000, 5_000, 20_000, 100_000]


class SettingsScreen(Screen):
    TITLE = "Settings"
    BINDINGS = [Binding("escape", "app.pop_screen", "Back"), Binding("j", "app.focus_next", show=False),
                Binding("k", "app.focus_previous", show=False)]

    def compose(self) -> ComposeResult:
        settings = self.app.store.load_settings()
        ui, engine = settings["ui"], settings["engine"]
        themes = sorted(self.app.available_themes)
        yield Header()
        with VerticalScroll(id="settings-body"):
            yield Static(f"[dim]Saved in {self.app.store.root}[/dim]", id="settings-path")
            with Grid(id="settings-grid"):
                yield Label("Theme")
                yield Select([(f"{t} (the terminal's own colours)" if t.startswith("ansi-") else t, t) for t in themes], value=ui["theme"] if ui["theme"] in themes else "textual-dark",
                             allow_blank=False, compact=True, id="ui--theme")
                yield Label("ASCII characters only")
                yield Switch(ui["ascii"], id="ui--ascii")
                yield Label("Board coordinates")
                yield Switch(ui["coordinates"], id="ui--coordinates")
                yield Label("Stats panel shown")
                yield Switch(ui["show_stats"], id="ui--show_stats")
                yield Label("Tree inspector shown")
                yield Switch(ui["show_tree"], id="ui--show_tree")
                yield Label("Search algorithm")
                yield Select([(ALGORITHM_LABELS[a], a) for a in ALGORITHMS], value=engine["algorithm"],
                             allow_blank=False, compact=True, id="engine--algorithm")
                yield Label("Tree: plies kept")
                yield Select([(str(n), n) for n in TREE_PLIES], value=_nearest(engine["tree_plies"], TREE_PLIES),
                             allow_blank=False, compact=True, id="engine--tree_plies")
                yield Label("Tree: nodes kept")
                yield Select([(f"{n:,}", n) for n in TREE_NODES], value=_nearest(engine["tree_nodes"], TREE_NODES),
                             allow_blank=False, compact=True, id="engine--tree_nodes")
                for spec in GAMES:
                    for row in spec.setting_rows:
                        yield from _setting_row(row, settings[row.section][row.key])
            yield Static("[dim]The search algorithm is the one the level players use; the perfect player "
                         "always uses negamax with a transposition table. Changes apply to the next game.[/dim]",
                         id="settings-help")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Select).focus()

    def _save(self, widget_id: str, value) -> None:
        # Widget ids are "section--key": ids cannot hold dots.
        section, key = widget_id.split("--", 1)
        self.app.store.update_settings(section, **{key: value})
        if widget_id == "ui--theme":
            self.app.theme = value
            self.app.ansi_color = value.startswith("ansi-")
        elif widget_id == "ui--ascii":
            self.app.ascii = value
            self.app.refresh()

    @on(Select.Changed)
    def select_changed(self, event: Select.Changed) -> None:
        if event.select.id and event.value is not Select.BLANK:
            self._save(event.select.id, event.value)

    @on(Switch.Changed)
    def switch_changed(self, event: Switch.Changed) -> None:
        if event.switch.id:
            self._save(event.switch.id, event.value)


def _nearest(value, choices):
    return min(choices, key=lambda c: abs(c - value))


def _setting_row(row: SettingRow, value: Any) -> Iterator[Widget]:
    """A game's setting: its label, then a switch, or a choice of the row's values (a number
    shows as the nearest choice)."""
    yield Label(row.label)
    widget_id = f"{row.section}--{row.key}"
    if not row.choices:
        yield Switch(bool(value), id=widget_id)
        return
    values = [v for _, v in row.choices]
    if value not in values:
        numeric = all(isinstance(v, (int, float)) for v in values) and isinstance(value, (int, float))
        value = _nearest(value, values) if numeric else values[0]
    yield Select(list(row.choices), value=value, allow_blank=False, compact=True, id=widget_id)
