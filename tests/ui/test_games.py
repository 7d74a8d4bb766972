"""The game table: every game is reachable everywhere the suite offers a choice of game, and a
new entry is all a game needs to get there (no half-wired games)."""

from __future__ import annotations

import pytest
from cli_support import run
from textual.widgets import Markdown, OptionList, Select, Switch

from tui_games import bench, cli
from tui_games.bench.terminal_probe import screens
from tui_games.engine.adapter import GameAdapter
from tui_games.games import GAMES, GameSpec, arena_adapter, arena_specs, find_game
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.help import HelpScreen
from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.saving import SavingScreen
from tui_games.ui.screens.settings import SettingsScreen
from tui_games.userdata.store import Store, default_settings

SIZE = (80, 24)


@pytest.fixture
def fake():
    """The table with one more game (tests/fake_game.py), for the length of a test."""
    import fake_game

    GAMES.append(fake_game.SPEC)
    yield fake_game
    GAMES.remove(fake_game.SPEC)
    fake_game.RAN.clear()


def test_the_table_is_consistent():
    keys = [spec.key for spec in GAMES]
    names = keys + [alias for spec in GAMES for alias in spec.aliases]
    assert len(names) == len(set(names)), "a key or alias names two games"
    assert len(keys) >= 4
    for spec in GAMES:
        assert find_game(spec.key.upper()) is spec
        for alias in spec.aliases:
            assert find_game(alias) is spec
        assert spec.title and spec.blurb and spec.help
    with pytest.raises(ValueError, match="no game called 'chess'; choose one of tictactoe"):
        find_game("chess")


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.key)
def test_every_game_is_wired_everywhere(spec, capsys, home):
    # Its command line: its tools and play, each with help.
    module = spec.commands_module
    for name in ("add_tools", "add_play_arguments", "play_options"):
        assert callable(getattr(module, name)), f"{spec.commands} has no {name}"
    assert run(capsys, spec.key, "--help")[0] == 0
    assert run(capsys, "play", spec.key, "--help")[0] == 0
    # Its screen: a saving screen for its own key.
    screen = spec.screen_class
    assert issubclass(screen, SavingScreen) and screen.GAME == spec.key
    # Its settings are in the store, and every Settings row names one of them.
    settings = Store().load_settings()
    assert settings[spec.key] == dict(spec.settings)
    for row in spec.setting_rows:
        assert row.key in default_settings()[row.section], (spec.key, row)
    # Its bench, its terminal probe (arguments the command line accepts), its help.
    assert bench.find_bench(spec.key) is spec.bench_function
    probe = screens()[spec.title]
    assert cli.build_parser(probe).parse_args(probe).game == spec.key
    # An arena adapter, or the reason there is none.
    if spec.arena is not None:
        adapter = arena_adapter(spec.key)
        assert isinstance(adapter, GameAdapter) and adapter.name == spec.key
        assert adapter.positions, "the sweep and the Lab need a library position"
        assert run(capsys, "arena", spec.key, "--help")[0] == 0
        assert bench.find_bench(spec.key, sweep=True) is not None
    else:
        with pytest.raises(ValueError, match=spec.no_arena):
            arena_adapter(spec.key)
        code, _, err = run(capsys, "arena", spec.key, "--a", "x", "--b", "y")
        assert code == 2 and spec.no_arena in err


async def test_every_game_is_in_the_menu_the_help_and_the_lab(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen.query_one(OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        assert ids[:len(GAMES)] == [spec.key for spec in GAMES]
        app.push_screen(HelpScreen())
        await pilot.pause()
        shown = app.screen.query_one(Markdown).source
        assert all(spec.help in shown for spec in GAMES)
        app.pop_screen()
        app.push_screen(LabScreen())
        await pilot.pause()
        lab_games = app.screen.query_one("#lab-game", Select)
        for spec in arena_specs():
            lab_games.value = spec.key  # refused (InvalidSelectValueError) if the Lab lacks it


@pytest.mark.parametrize("number, spec", list(enumerate(GAMES, 1)), ids=lambda v: getattr(v, "key", str(v)))
async def test_every_game_opens_from_the_menu_by_its_digit(number, spec, home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(str(number))
        await pilot.pause()
        assert isinstance(app.screen, spec.screen_class)
        app.screen.save_progress()  # the hang-up path works for each of them


def test_a_new_entry_reaches_the_command_line(fake, capsys, home, monkeypatch):
    assert run(capsys, "fake", "count", "41") == (0, "42\n", "")
    assert run(capsys, "fk", "count", "1")[1] == "2\n"
    assert "fake tools" in run(capsys, "--help")[1]
    launched = []
    monkeypatch.setattr("tui_games.commands.play.launch", lambda game, options, **kw: launched.append((game, options)))
    assert run(capsys, "play", "fake", "--size", "5")[0] == 0
    assert launched == [("fake", {"size": 5})]
    assert run(capsys, "bench", "fake")[1].endswith("fake bench\n")
    assert Store().load_settings()["fake"] == {"size": 3, "fancy": False}
    assert screens()["Fake game"] == ["play", "fake"]


async def test_a_new_entry_reaches_the_menu_the_app_settings_and_help(fake, home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        menu = app.screen.query_one(OptionList)
        assert menu.get_option("fake").prompt.startswith("Fake game")
        await pilot.press(str(len(GAMES)))  # its digit
        await pilot.pause()
        assert isinstance(app.screen, fake.FakeScreen) and app.screen.board_size == 3
        app.pop_screen()
        app.push_screen(SettingsScreen())
        await pilot.pause()
        assert isinstance(app.screen.query_one("#fake--fancy"), Switch)
        app.pop_screen()
        app.push_screen(HelpScreen())
        await pilot.pause()
        assert "**Fake game**" in app.screen.query_one(Markdown).source
        assert "# How to play Fake game" in app.screen.query_one(Markdown).source
        app.pop_screen()
        app.open_game("fake")
        await pilot.pause()
        app.action_help()  # from its screen: its own rules page on top
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert app.screen.query_one(Markdown).source.startswith("# How to play Fake game")
    app = TuiGamesApp("fk", {"size": 7})
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, fake.FakeScreen) and app.screen.board_size == 7


def test_a_game_played_in_the_lobby_must_name_its_live_screen_and_every_game_its_rules():
    import nim_game

    fields = {name: getattr(nim_game.SPEC, name) for name in nim_game.SPEC.__slots__}
    with pytest.raises(ValueError, match="nim: a game with an arena adapter is played in the lobby"):
        GameSpec(**{**fields, "live_screen": None})
    with pytest.raises(ValueError, match="nim: its rules page starts with its title"):
        GameSpec(**{**fields, "rules": ""})
    with pytest.raises(ValueError, match="not played in the lobby"):
        _ = find_game("sudoku").live_screen_class


async def test_a_new_lobby_game_gets_its_live_screen_and_its_rules_page_from_its_entry(home):
    """Nim (tests/nim_game.py) names its live screen and its rules page in its table entry, and
    nothing else: the lobby's games, the live screen opened from the lobby and the help follow."""
    import nim_game

    from tui_games.server.lobby.hub import lobby_games
    from tui_games.ui.screens.live_game import open_live_game

    GAMES.append(nim_game.SPEC)
    try:
        assert "nim" in lobby_games()
        app = TuiGamesApp()
        app.lobby = None
        async with app.run_test(size=SIZE) as pilot:
            open_live_game(app, {"game": "nim", "id": "g1", "variant": {"stones": 13, "take": 2}})
            await pilot.pause()
            assert isinstance(app.screen, nim_game.LiveNimScreen)
            assert (app.screen.stones, app.screen.live["id"], app.screen.me) == (13, "g1", "")
            app.action_help()
            await pilot.pause()
            assert app.screen.query_one(Markdown).source.startswith("# How to play Nim")
    finally:
        GAMES.remove(nim_game.SPEC)
