"""A bot file as the opponent of a game screen (``play GAME --opponent bot.py``): it plays its
moves, the options dialog lists it, it is never saved as the next game's opponent, and ``play``
refuses a file that cannot play in one line."""

from __future__ import annotations

import argparse

import pytest
from cli_support import run
from textual.widgets import Input, Select
from ui_support import SIZE, settle, text_of, until

from tui_games.bots import BOT_FILE, bot_choices, checked_spec
from tui_games.commands import checkers as checkers_commands
from tui_games.commands import connect4 as connect4_commands
from tui_games.commands import tictactoe as tictactoe_commands
from tui_games.commands.common import UsageError
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.userdata.store import Store

FIRST = "def choose(position):\n    return position.legal_moves()[0]\n"


async def test_a_bot_file_plays_the_computer_side_of_tictactoe(home):
    bot = home / "first.py"
    bot.write_text(FIRST)
    options = tictactoe_commands.play_options(argparse.Namespace(
        size="3x3", k=None, misere=False, opponent=str(bot), first="computer"))
    assert options["opponent"] == str(bot.resolve())
    app = TuiGamesApp("tictactoe", options)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: len(screen.position.history) == 1)
        assert screen.position.history == [0] and screen.opponent.name == "first.py"
        await pilot.press("o")
        await pilot.pause()
        select = app.screen.query_one("#opponent", Select)
        assert select.value == str(bot.resolve())
        await pilot.press("escape")
        await settle(pilot, screen)
        screen.opponent.close()
    assert Store().load_settings()["tictactoe"]["opponent"] != str(bot.resolve())


@pytest.mark.parametrize("module, extra", [
    (connect4_commands, {"first": None, "full_board": False, "heuristic": None}),
    (checkers_commands, {"side": None, "fen": None}),
])
def test_play_takes_a_bot_file_and_refuses_a_bad_one(home, module, extra):
    bot = home / "first.py"
    bot.write_text(FIRST)
    options = module.play_options(argparse.Namespace(opponent=str(bot), **extra))
    assert options["opponent"] == str(bot.resolve())
    with pytest.raises(UsageError, match="does not exist"):
        module.play_options(argparse.Namespace(opponent=str(home / "none.py"), **extra))


def test_play_refuses_a_missing_bot_before_the_app_starts(capsys, home):
    code, out, err = run(capsys, "play", "tictactoe", "--opponent", str(home / "none.py"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "does not exist" in err


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "checkers"])
async def test_the_options_dialog_asks_for_a_bot_file_and_checks_it(home, game):
    bot = home / "first.py"
    bot.write_text(FIRST)
    app = TuiGamesApp(game, {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#opponent", Select).value = BOT_FILE
        await pilot.pause()
        dialog.action_start()
        await until(pilot, lambda: isinstance(app.screen, InputDialog))
        ask = app.screen
        ask.query_one("#input-text", Input).value = str(home / "none.py")
        ask.action_ok()
        await pilot.pause()
        assert app.screen is ask and "does not exist" in text_of(ask.query_one("#input-error"))
        ask.query_one("#input-text", Input).value = str(bot)
        ask.action_ok()
        await until(pilot, lambda: app.screen is screen and screen.opponent is not None)
        assert screen.opponent.name == "first.py"
        await settle(pilot, screen)
        screen.opponent.close()
    # The settings keep a built-in opponent (here: the one they had).
    assert Store().load_settings()[game]["opponent"] != str(bot.resolve())


def test_a_served_session_offers_no_bot_file(home, monkeypatch):
    bot = home / "first.py"
    bot.write_text(FIRST)
    assert [value for _, value in bot_choices(str(bot))] == [str(bot), BOT_FILE]
    monkeypatch.setenv("TUI_GAMES_SERVED", "1")
    assert bot_choices(str(bot)) == [] and bot_choices("perfect") == []
    with pytest.raises(ValueError, match="local only"):
        checked_spec("tictactoe", str(bot))


async def test_a_bot_that_fails_on_a_game_screen_loses_the_game_and_it_is_scored(home):
    """A bot file that raises on its move forfeits: the screen says so in one line naming
    the file and the ply, the game counts as the player's win in Scores, no move can be made
    after it, and the game is not kept as one in progress."""
    bot = home / "boom.py"
    bot.write_text("def choose(position):\n    raise ValueError('boom')\n")
    options = tictactoe_commands.play_options(argparse.Namespace(
        size="3x3", k=None, misere=False, opponent=str(bot), first="computer"))
    app = TuiGamesApp("tictactoe", options)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: "forfeit" in text_of(screen.query_one("#status")))
        status = " ".join(text_of(screen.query_one("#status")).split())  # as one line, unwrapped
        assert "You win" in status and "boom.py, ply 1" in status and "ValueError: boom (boom.py:2" in status
        assert Store().scores()["tictactoe"][screen.score_key()]["win"] == 1
        assert screen.score_key().startswith("boom.py")
        assert screen.progress_state() is None
        await pilot.press("enter")  # the board's cursor cell: no move after the forfeit
        await pilot.pause()
        assert screen.position.history == []
        screen.opponent.close()
