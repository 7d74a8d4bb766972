"""Servers never load a file a player names: a bot spec reaches no server path. The house players
take only the engines' names, the worker's adapter knows no files, no server module imports the
bots package, and a served session's app (the Lab) refuses every bot spec."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tui_games.bots import BotSpecError, player_factory
from tui_games.bots.spec import SERVED_REFUSAL
from tui_games.games import arena_adapter
from tui_games.server.lobby.house import _think, parse_house

SERVER = Path(__file__).resolve().parents[2] / "tui_games" / "server"


@pytest.fixture
def trap(tmp_path) -> tuple[Path, Path]:
    """A bot file that leaves a mark if anything ever runs it."""
    mark = tmp_path / "ran"
    bot = tmp_path / "trap.py"
    bot.write_text(f"open({str(mark)!r}, 'w').close()\n\ndef choose(position):\n    return position.legal_moves()[0]\n")
    return bot, mark


def test_the_house_takes_no_file(trap):
    bot, mark = trap
    for spec in (str(bot), f"level3:{bot}", f"{bot}:choose"):
        with pytest.raises(ValueError, match="has no engine"):
            parse_house(f"tictactoe:{spec}")
    with pytest.raises(ValueError):
        _think({"game": "tictactoe", "variant": {}, "moves": [], "spec": str(bot), "seed": 1, "seconds": 0.1})
    assert not mark.exists()


def test_no_server_module_imports_the_bots_package():
    for path in SERVER.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("tui_games.bots"), path
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("tui_games.bots") for a in node.names), path


def test_a_served_session_refuses_every_bot_spec(trap, monkeypatch):
    bot, mark = trap
    monkeypatch.setenv("TUI_GAMES_SERVED", "1")
    make = player_factory(arena_adapter("tictactoe"))
    for spec in (str(bot), f"level3:{bot}", f"{bot}:choose@0.5"):
        with pytest.raises(BotSpecError, match=SERVED_REFUSAL):
            make(spec, seed=1, seconds=None, variant={})
    assert make("random", seed=1, seconds=None, variant={}).name == "random"
    assert not mark.exists()
