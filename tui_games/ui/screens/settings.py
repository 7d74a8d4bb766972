"""Settings: saved at once in the user data dir (TUI_GAMES_HOME overrides it).

Every value goes through the store's rules (tui_games.userdata.setting_rules): choices and switches
cannot go wrong, and a number typed in (a computer's time per move) is saved on Enter or on
leaving the field if its rule allows it, else refused with a message saying what it must be,
and the field goes back to the value kept.
"""

from __future__ import annotations

from typing import Any, Iterator

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Input, Label, Select, Static, Switch

from tui_games.engine.search import ALGORITHM_LABELS, ALGORITHMS
from tui_games.games import GAMES, SettingRow
from tui_games.ui.app_base import UsesApp
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.ordered_input import OrderedInput
from tui_games.userdata.setting_rules import Between, Flag, SettingError, shown
from tui_games.userdata.store import setting_rule

TREE_PLIES = [2, 3, 4, 5, 6, 8]
TREE_NODES = [2_000, 5_000, 20_000, 100_000]
# Long enough for any number a rule allows ("0.5", "600", "1e-3"), short enough to be typed.
NUMBER_LENGTH = 12


class SettingsScreen(UsesApp, Screen):
    TITLE = "Settings"
    BINDINGS = [Binding("escape", "back", "Back"), Binding("j", "app.focus_next", show=False),
                Binding("k", "app.focus_previous", show=False)]
    DEFAULT_CSS = """
    SettingsScreen .number-row { height: 1; width: 1fr; }
    SettingsScreen .number-row Input { width: 14; }
    SettingsScreen .number-row Static { width: 1fr; margin-left: 1; color: $text-muted; }
    """

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
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(Select).focus()

    def action_back(self) -> None:
        # A number typed but not yet entered counts (or is refused) as the screen closes.
        for field in self.query(NumberField):
            self._commit(field)
        self.app.pop_screen()

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

    @on(Input.Submitted)
    def number_submitted(self, event: Input.Submitted) -> None:
        if isinstance(event.input, NumberField):
            self._commit(event.input)

    @on(Input.Blurred)
    def number_left(self, event: Input.Blurred) -> None:
        if isinstance(event.input, NumberField):
            self._commit(event.input)

    def _commit(self, field: NumberField) -> bool:
        """Save the number in ``field`` if its rule allows it; else say why, and show the value
        kept. True if the setting holds what the field shows."""
        assert field.id is not None  # (every number field has one: section--key)
        section, key = field.id.split("--", 1)
        kept = self.app.store.load_settings()[section][key]
        text = field.value.strip()
        if text == field.saved:
            return True
        try:
            value = _number(text)
            if value != kept:
                self._save(field.id, value)
        except (ValueError, SettingError) as error:
            reason = str(error) if isinstance(error, SettingError) else \
                f"{section}.{key} is {text[:20]!r}, but it {setting_rule(section, key).refuse()}"
            self.notify(f"{field.label}: refused — {reason}; kept {shown(kept)}.", title="Setting refused",
                        severity="error", timeout=8)
            field.show(kept)
            return False
        field.show(value)
        return True


def _nearest(value, choices):
    return min(choices, key=lambda c: abs(c - value))


def _number(text: str) -> int | float:
    """What a player typed, as a number (ValueError if it is none); "nan" and "inf" parse, for
    the rule to refuse with the rest."""
    try:
        return int(text)
    except ValueError:
        return float(text)


class NumberField(OrderedInput):
    """A number setting typed in; ``saved`` is the text of the value the store keeps."""

    def __init__(self, value: float | int, *, label: str, id: str) -> None:
        self.saved = _number_text(value)
        self.label = label
        super().__init__(self.saved, id=id, compact=True, max_length=NUMBER_LENGTH)

    def show(self, value: float | int) -> None:
        self.saved = _number_text(value)
        self.value = self.saved


def _number_text(value: float | int) -> str:
    return f"{value:g}"


def _setting_row(row: SettingRow, value: Any) -> Iterator[Widget]:
    """A game's setting: its label, then a choice of the row's values (a number shows as the
    nearest choice), a switch, or a number field showing its range, as its rule says."""
    yield Label(row.label)
    widget_id = f"{row.section}--{row.key}"
    if not row.choices:
        rule = setting_rule(row.section, row.key)
        if isinstance(rule, Between):
            unit = " s per move" if rule.unit == "seconds" else ""
            yield Horizontal(NumberField(value, label=row.label, id=widget_id),
                             Static(f"{unit.strip()} ({rule.low:g}–{rule.high:g})".strip()),
                             classes="number-row")
        elif isinstance(rule, Flag):
            yield Switch(bool(value), id=widget_id)
        else:
            raise TypeError(f"{row.section}.{row.key}: a Settings row without choices needs an on/off or a "
                            f"number rule, not {rule!r}")
        return
    values = [v for _, v in row.choices]
    if value not in values:
        numeric = all(isinstance(v, (int, float)) for v in values) and isinstance(value, (int, float))
        value = _nearest(value, values) if numeric else values[0]
    yield Select(list(row.choices), value=value, allow_blank=False, compact=True, id=widget_id)
