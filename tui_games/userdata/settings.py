"""``settings.json``: a section per game of the table (its defaults and rules are there), then
the app's own ("engine", "ui"). Every value is checked against its rule on load (a bad one
falls back to its default, with one warning) and on save (refused: SettingError)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from tui_games.games import GAMES
from tui_games.userdata.files import CorruptFile, DataFiles
from tui_games.userdata.setting_rules import Between, Flag, Named, OneOf, SettingError, SettingRule, shown

SETTINGS_FILE = "settings.json"

# The app's own sections; each game's comes from the game table (see default_settings()).
APP_SETTINGS: dict[str, dict[str, Any]] = {
    "engine": {
        "algorithm": "alphabeta+ordering+tt",
        "tree_plies": 4,
        "tree_nodes": 20000,
    },
    "ui": {
        "theme": "textual-dark",
        "show_stats": True,
        "show_tree": False,
        "coordinates": True,
        # Connect-4 discs: "shapes" (● ○) or "letters" (X O); both read without colour.
        "discs": "shapes",
        # Only ASCII characters on the screen, for terminals with poor Unicode fonts.
        "ascii": False,
    },
}

# What each of the app's own settings may hold (each game's rules are in the game table).
APP_SETTING_RULES: dict[str, dict[str, SettingRule]] = {
    "engine": {
        # tui_games.engine.search.ALGORITHMS (tests/ui/test_setting_rules.py checks they agree).
        "algorithm": OneOf("minimax", "alphabeta", "alphabeta+ordering", "alphabeta+ordering+tt"),
        # The tree inspector keeps this much of each search: bounded, for memory under a server.
        "tree_plies": Between(1, 12, whole=True),
        "tree_nodes": Between(1_000, 200_000, whole=True),
    },
    "ui": {
        # The themes are Textual's, which the store does not import: a well-formed name here,
        # and the app falls back to its default for one it does not have (and says so).
        "theme": Named("a theme name"),
        "show_stats": Flag(),
        "show_tree": Flag(),
        "coordinates": Flag(),
        "discs": OneOf("shapes", "letters"),
        "ascii": Flag(),
    },
}


def default_settings() -> dict[str, dict[str, Any]]:
    """A fresh, independent copy of the default settings: a section per game of the table,
    then "engine" and "ui"."""
    return {**{spec.key: copy.deepcopy(dict(spec.settings)) for spec in GAMES}, **copy.deepcopy(APP_SETTINGS)}


def setting_rules() -> dict[str, dict[str, SettingRule]]:
    """section -> key -> the rule of that setting: a section per game of the table, then the
    app's own; the same keys as default_settings()."""
    return {**{spec.key: dict(spec.setting_rules) for spec in GAMES}, **APP_SETTING_RULES}


def setting_rule(section: str, key: str) -> SettingRule:
    """The rule of ``section.key``; ValueError names the known sections or keys (a caller's bug)."""
    rules = setting_rules()
    if section not in rules:
        raise ValueError(f"unknown settings section {section!r}; known: {', '.join(rules)}")
    if key not in rules[section]:
        raise ValueError(f"unknown setting {section}.{key}; known: {', '.join(rules[section])}")
    return rules[section][key]


def check_setting(section: str, key: str, value: Any, rule: SettingRule | None = None) -> Any:
    """``value`` as ``section.key`` keeps it (a whole number of seconds becomes a float), or
    SettingError naming the setting, the value and what it must be. ``rule``: the setting's,
    if the caller has it at hand."""
    try:
        return (rule or setting_rule(section, key)).check(value)
    except SettingError as error:
        raise SettingError(f"{section}.{key} is {shown(value)}, but it {error}") from None


def _merge(defaults: dict[str, dict[str, Any]], loaded: dict[str, Any],
           problems: list[str]) -> dict[str, dict[str, Any]]:
    """``loaded`` over ``defaults``, section by section: only known keys whose values their
    rules allow; each refused value is one line in ``problems`` and keeps its default."""
    merged: dict[str, dict[str, Any]] = {}
    rules = setting_rules()
    for section, section_defaults in defaults.items():
        values = loaded.get(section, {})
        if not isinstance(values, dict):
            problems.append(f"{section} is {shown(values)}, but it must be an object of settings; "
                            f"kept the defaults")
            values = {}
        merged[section] = {}
        for key, default in section_defaults.items():
            if key not in values:
                merged[section][key] = copy.deepcopy(default)
                continue
            try:
                merged[section][key] = check_setting(section, key, values[key], rules[section][key])
            except SettingError as error:
                problems.append(f"{error}; kept the default {shown(default)}")
                merged[section][key] = copy.deepcopy(default)
    # Unknown sections and keys are dropped without a word: they may come from a newer version.
    return merged


class SettingsFile(DataFiles):
    @property
    def settings_path(self) -> Path:
        return self.root / SETTINGS_FILE

    def load_settings(self) -> dict[str, dict[str, Any]]:
        """The settings file merged over the defaults; always a complete, well-typed dict."""

        def validate(data: Any) -> dict:
            if not isinstance(data, dict):
                raise CorruptFile("not a JSON object")
            problems: list[str] = []
            merged = _merge(default_settings(), data, problems)
            for problem in problems:
                self._warn(f"{SETTINGS_FILE}: {problem}")
            return merged

        return self._load(self.settings_path, SETTINGS_FILE, validate, default_settings, "started from defaults")

    def save_settings(self, settings: dict) -> bool:
        """Save ``settings`` (merged over the defaults, as loading would). True if written;
        SettingError (nothing written) if a value breaks its rule."""
        problems: list[str] = []
        merged = _merge(default_settings(), settings, problems)
        if problems:
            raise SettingError("bad settings: " + "; ".join(problems))
        with self._locked():
            return self._write_json(self.settings_path, merged, SETTINGS_FILE)

    def update_settings(self, section: str, **values: Any) -> dict[str, dict[str, Any]]:
        """Change some keys of one section and save at once; returns the new settings.

        The read-modify-write is locked, so two sessions changing different keys both win.
        Unknown sections or keys raise ValueError (a bug in the caller); a value its rule does
        not allow raises SettingError, a ValueError saying what it must be (the Settings screen
        shows it), and nothing is written.
        """
        if section not in setting_rules():
            raise ValueError(f"unknown settings section {section!r}; known: {', '.join(setting_rules())}")
        checked = {key: check_setting(section, key, value) for key, value in values.items()}
        with self._locked():
            settings = self.load_settings()
            settings[section].update(checked)
            self._write_json(self.settings_path, settings, SETTINGS_FILE)
        return settings
