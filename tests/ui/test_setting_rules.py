"""Every setting has a range or a set of choices, enforced where settings.json is loaded (one
warning line, the default kept, the file left where it is) and where the Settings screen saves
(refused with a message). Hostile values: negative, zero, huge, NaN, infinities, wrong types,
unknown choices."""

from __future__ import annotations

import json
import math

import pytest
from textual.app import App
from textual.widgets import Input

from tui_games.engine.checkers import players as checkers_players
from tui_games.engine.connect4 import players as connect4_players
from tui_games.engine.connect4.heuristics import HEURISTICS
from tui_games.engine.search import ALGORITHMS
from tui_games.engine.tictactoe import MAX_SIZE, MIN_SIZE
from tui_games.engine.tictactoe import players as tictactoe_players
from tui_games.games import GAMES, GameSpec, find_game
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.settings import NumberField, SettingsScreen
from tui_games.ui.screens.sudoku_new import GRADES, collections
from tui_games.userdata.setting_rules import Between, Flag, Named, OneOf, SettingError, shown
from tui_games.userdata.store import APP_SETTING_RULES, Store, default_settings, setting_rules

SIZE = (80, 24)

# JSON text, so that NaN, the infinities and a 5,000-digit number reach the store as a file
# edited by hand would have them.
HOSTILE = ["-5", "0", "-0.0", "1e308", "1" + "0" * 5000, "NaN", "Infinity", "-Infinity", "null", "[]", "{}",
           '""', '"../../etc/passwd"', '"5"', '"\\u0000"']


def every_setting() -> list[tuple[str, str]]:
    return [(section, key) for section, keys in setting_rules().items() for key in keys]


def write_settings(home, text: str) -> None:
    home.mkdir(exist_ok=True)
    (home / "settings.json").write_text(text)


# -- the rules themselves --------------------------------------------------------------------


def test_every_setting_has_a_rule_its_default_obeys():
    defaults = default_settings()
    assert {s: set(keys) for s, keys in setting_rules().items()} == {s: set(keys) for s, keys in defaults.items()}
    for section, key in every_setting():
        rule = setting_rules()[section][key]
        assert rule.check(defaults[section][key]) == defaults[section][key], (section, key)


def test_a_game_entry_without_a_rule_or_with_a_default_outside_it_is_refused():
    spec = find_game("connect4")
    fields = {"key": "x", "title": "X", "blurb": "x", "engine": "e", "screen": "s:S", "commands": "c",
              "tools_help": "t", "play_help": "p", "bench": "b:f", "help": "h", "rules": "# How to play X", "probe": (), "no_arena": "none"}
    with pytest.raises(ValueError, match="every setting needs a rule"):
        GameSpec(**fields, settings={"seconds": 5.0}, setting_rules={})
    with pytest.raises(ValueError, match=r"x.seconds: the default -1 must be a number"):
        GameSpec(**fields, settings={"seconds": -1}, setting_rules={"seconds": spec.setting_rules["seconds"]})


def test_the_rules_agree_with_the_engines_and_the_screens():
    # The table names them so that loading settings imports no engine; these are the sources.
    rules = setting_rules()
    assert set(rules["tictactoe"]["opponent"].values) == {"human", *tictactoe_players.OPPONENTS}
    assert set(rules["connect4"]["opponent"].values) == {"human", *connect4_players.OPPONENTS}
    assert set(rules["checkers"]["opponent"].values) == {"human", *checkers_players.OPPONENTS}
    assert set(rules["connect4"]["heuristic"].values) == set(HEURISTICS)
    assert set(rules["engine"]["algorithm"].values) == set(ALGORITHMS)
    for key in ("rows", "cols", "k"):
        assert (rules["tictactoe"][key].low, rules["tictactoe"][key].high) == (MIN_SIZE, MAX_SIZE)
    seconds = rules["checkers"]["seconds"]
    assert (seconds.low, seconds.high) == (checkers_players.MIN_SECONDS, checkers_players.MAX_SECONDS)
    assert set(rules["sudoku"]["grade"].values) == set(GRADES)
    assert set(rules["sudoku"]["source"].values) == {"generate", *(name for _, name in collections())}
    for theme in App().available_themes:
        rules["ui"]["theme"].check(theme)


def test_every_settings_row_offers_only_values_its_rule_allows():
    for spec in GAMES:
        for row in spec.setting_rows:
            rule = setting_rules()[row.section][row.key]
            for _, value in row.choices:
                assert rule.check(value) == value, (row, value)
            if not row.choices:  # a switch or a number field
                assert isinstance(rule, (Flag, Between)), row


@pytest.mark.parametrize("rule, good, bad", [
    (Between(0.5, 600), [0.5, 600, 3, 59.9], [0.49, 600.01, -5, 0, True, "5", None, math.nan, math.inf, 10**5000]),
    (Between(3, 7, whole=True), [3, 7, 5.0], [2, 8, 4.5, False, "4", math.nan]),
    (Flag(), [True, False], [0, 1, "true", None]),
    (OneOf("human", "computer"), ["human"], ["Human", "", None, 1, ["human"]]),
    (OneOf(1, 2), [1], [True, 1.0]),
    (Named("a theme name"), ["nord", "ansi-dark"], ["", "Nord", "a b", "-x", "x" * 65, 3, "\u0000"]),
])
def test_rules_take_what_they_allow_and_refuse_the_rest(rule, good, bad):
    for value in good:
        rule.check(value)
    for value in bad:
        with pytest.raises(SettingError, match="^must be "):
            rule.check(value)
    assert isinstance(Between(0, 9).check(3), float) and isinstance(Between(0, 9, whole=True).check(3.0), int)


# -- loading settings.json --------------------------------------------------------------------


def test_a_negative_time_budget_is_reported_and_the_default_kept(home):
    write_settings(home, '{"connect4": {"seconds": -5, "opponent": "level3"}}')
    store = Store()
    settings = store.load_settings()
    assert settings["connect4"]["seconds"] == 5.0 and settings["connect4"]["opponent"] == "level3"
    assert store.take_warnings() == ["settings.json: connect4.seconds is -5, but it must be a number of seconds "
                                     "from 0.5 to 600; kept the default 5"]
    assert (home / "settings.json").exists() and not list(home.glob("settings.json.corrupt-*"))


@pytest.mark.parametrize("text", HOSTILE)
def test_a_hostile_value_in_every_setting_is_refused_alone(home, text):
    document = "{" + ", ".join(
        f'"{section}": {{' + ", ".join(f'"{key}": {text}' for key in keys) + "}"
        for section, keys in setting_rules().items()) + "}"
    write_settings(home, document)
    store = Store()
    settings = store.load_settings()  # never raises
    assert settings == default_settings()
    warnings = store.take_warnings()
    assert len(warnings) == len(every_setting()), warnings
    defaults = default_settings()
    for (section, key), warning in zip(every_setting(), warnings):
        assert warning.startswith(f"settings.json: {section}.{key} is "), warning
        assert warning.endswith(f"; kept the default {shown(defaults[section][key])}"), warning
        assert "\n" not in warning and len(warning) < 300
    assert not list(home.glob("settings.json.corrupt-*"))  # JSON with bad values is not a corrupt file


@pytest.mark.parametrize("section, key, value", [
    ("connect4", "opponent", '"level13"'), ("tictactoe", "opponent", '"stockfish"'), ("checkers", "human", '"red"'),
    ("checkers", "seconds", "11"), ("checkers", "seconds", "0.4"), ("tictactoe", "rows", "8"),
    ("tictactoe", "k", "3.5"), ("sudoku", "source", '"bench_sudoku_norvig_top95.txt"'),
    ("sudoku", "grade", '"needs search"'), ("engine", "tree_nodes", "1000000000"), ("engine", "tree_plies", "0"),
    ("engine", "algorithm", '"MINIMAX"'), ("ui", "discs", "true"), ("ui", "theme", '"Nord"'),
])
def test_unknown_choices_and_out_of_range_values(home, section, key, value):
    write_settings(home, f'{{"{section}": {{"{key}": {value}}}}}')
    store = Store()
    assert store.load_settings()[section][key] == default_settings()[section][key]
    [warning] = store.take_warnings()
    assert warning.startswith(f"settings.json: {section}.{key} is {shown(json.loads(value))}, but it must be ")


def test_values_at_the_edges_are_kept(home):
    write_settings(home, json.dumps({"connect4": {"seconds": 0.5}, "tictactoe": {"seconds": 600, "rows": 7.0},
                                     "checkers": {"seconds": 10}, "engine": {"tree_nodes": 200000},
                                     "sudoku": {"source": "sudoku_diabolical.txt", "grade": "extreme"}}))
    store = Store()
    settings = store.load_settings()
    assert store.take_warnings() == []
    assert settings["connect4"]["seconds"] == 0.5 and settings["tictactoe"]["seconds"] == 600.0
    assert settings["tictactoe"]["rows"] == 7 and isinstance(settings["tictactoe"]["rows"], int)
    assert settings["checkers"]["seconds"] == 10.0 and settings["engine"]["tree_nodes"] == 200000


def test_a_huge_integer_anywhere_does_not_make_a_file_corrupt(home):
    write_settings(home, '{"connect4": {"seconds": ' + "9" * 10000 + "}}")
    store = Store()
    assert store.load_settings()["connect4"]["seconds"] == 5.0
    assert "connect4.seconds is inf" in store.take_warnings()[0]
    assert not list(home.glob("settings.json.corrupt-*"))


def test_not_json_at_all_is_still_kept_aside(home):
    write_settings(home, '{"connect4": {"seconds": -5')
    store = Store()
    assert store.load_settings() == default_settings()
    assert len(list(home.glob("settings.json.corrupt-*"))) == 1


# -- saving -----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [-5, 0, 1e308, math.nan, math.inf, -math.inf, "5", None, True, [5]])
def test_saving_a_hostile_time_budget_is_refused_and_nothing_written(home, value):
    store = Store()
    store.update_settings("connect4", seconds=7)
    before = (home / "settings.json").read_bytes()
    with pytest.raises(SettingError, match=r"connect4.seconds is .*, but it must be a number of seconds from 0.5"):
        store.update_settings("connect4", seconds=value)
    with pytest.raises(SettingError):
        store.save_settings({**store.load_settings(), "connect4": {"seconds": value}})
    assert (home / "settings.json").read_bytes() == before


def test_app_rules_cover_only_app_sections():
    assert set(APP_SETTING_RULES) == {"engine", "ui"}
    assert not set(APP_SETTING_RULES) & {spec.key for spec in GAMES}


# -- the Settings screen ------------------------------------------------------------------------


async def type_into(pilot, field: Input, text: str) -> None:
    field.focus()
    await pilot.pause()
    field.value = ""
    await pilot.press(*text)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.parametrize("text", ["-5", "0", "0.4", "601", "1e308", "nan", "inf", "-inf", "abc", "5s", "", "9" * 12])
async def test_the_settings_screen_refuses_a_bad_time_with_a_message(home, text):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        field = app.screen.query_one("#connect4--seconds", NumberField)
        assert field.value == "5"
        await type_into(pilot, field, text)
        assert Store().load_settings()["connect4"]["seconds"] == 5.0
        assert field.value == "5"  # back to the value kept
        [message] = [n.message for n in app._notifications if n.title == "Setting refused"]
        assert message.startswith("Connect-4 perfect time: refused — connect4.seconds is ")
        assert "must be a number of seconds from 0.5 to 600" in message and message.endswith("kept 5.")


async def test_the_settings_screen_saves_a_good_time_on_enter_and_on_leaving(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SettingsScreen())
        await pilot.pause()
        await type_into(pilot, app.screen.query_one("#connect4--seconds", NumberField), "2.5")
        assert Store().load_settings()["connect4"]["seconds"] == 2.5
        checkers = app.screen.query_one("#checkers--seconds", NumberField)
        checkers.focus()
        await pilot.pause()
        checkers.value = "12"  # past the strong player's 10 s: refused as the screen closes
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SettingsScreen)
        assert Store().load_settings()["checkers"]["seconds"] == 2.0
        assert any("checkers.seconds is 12, but it must be a number of seconds from 0.5 to 10" in n.message
                   for n in app._notifications)
        app.push_screen(SettingsScreen())
        await pilot.pause()
        ttt = app.screen.query_one("#tictactoe--seconds", NumberField)
        ttt.focus()
        await pilot.pause()
        ttt.value = "30"
        app.screen.query_one("#connect4--seconds", NumberField).focus()  # leaving the field saves it
        await pilot.pause()
        assert Store().load_settings()["tictactoe"]["seconds"] == 30.0


async def test_the_app_says_when_a_theme_is_not_there(home):
    write_settings(home, '{"ui": {"theme": "solarized-purple"}}')
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        assert any("ui.theme is 'solarized-purple'" in n.message for n in app._notifications)
