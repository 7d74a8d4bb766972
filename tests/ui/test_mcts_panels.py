"""What the statistics panel and the tree inspector show of a Monte Carlo tree search."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult

from tui_games.engine.mcts import mcts_search
from tui_games.engine.tictactoe import TicTacToe
from tui_games.engine.tree import TreeRecorder
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import mcts_parts


def test_a_node_shows_its_visits_share_uct_and_proof():
    recorder = TreeRecorder(max_plies=9, max_nodes=100_000)
    pos = TicTacToe(3, 3, 3)
    result = mcts_search(pos, playouts=4000, seed=1, recorder=recorder)
    top = recorder.root.children[0]
    text = Text.assemble(*mcts_parts(top)).plain
    assert text.startswith(f"N {top.visits:,}  W/N {top.wins / top.visits:.0%}  UCT ") and top.move == result.move
    ends = [node for node in recorder.root.walk() if node.kind == "end"]
    assert ends and "game over" in Text.assemble(*mcts_parts(ends[0])).plain


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatsPanel(id="panel")


async def test_the_panel_shows_playouts_tree_and_best_move():
    result = mcts_search(TicTacToe(3, 3, 3), playouts=1000, seed=1)
    app = PanelApp()
    async with app.run_test(size=(80, 24)):
        panel = app.query_one(StatsPanel)
        panel.show(result.stats, TicTacToe(3, 3, 3).move_name, who="mcts")
        console = Console(width=60, record=True, file=io.StringIO())
        console.print(panel.content)
    shown = console.export_text()
    assert "Monte Carlo tree search" in shown and "playouts 1,000 per s" in shown and "best N" in shown
    assert f"{result.stats.best_visits:,} W/N" in shown and "tree     1,001" in shown


@pytest.mark.parametrize("game, options", [
    ("connect4", {"first": "computer", "full_board": False, "heuristic": None}),
    ("tictactoe", {"size": "3x3", "k": None, "misere": False, "first": "computer"}),
    ("checkers", {"side": "white", "fen": None}),
])
async def test_play_against_mcts_by_playouts_and_its_options_dialog_keeps_it(home, game, options):
    """``play GAME --opponent mcts:N``: the screen plays MCTS at N playouts (it was reset to the
    game's default player), the options dialog offers it as the current choice, and the saved
    settings keep a built-in opponent."""
    import argparse
    import importlib

    from textual.widgets import Select
    from ui_support import SIZE, settle, until

    from tui_games.engine.mcts import MCTSPlayer
    from tui_games.ui.app import TuiGamesApp
    from tui_games.userdata.store import Store

    commands = importlib.import_module(f"tui_games.commands.{game}")
    chosen = commands.play_options(argparse.Namespace(opponent="MCTS:300", **options))
    assert chosen["opponent"] == "mcts:300"
    app = TuiGamesApp(game, chosen)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen.opponent, MCTSPlayer) and screen.opponent.playouts == 300
        await until(pilot, lambda: len(screen.position.history) == 1)  # the computer moved first
        await settle(pilot, screen)
        await pilot.press("o")
        await pilot.pause()
        assert app.screen.query_one("#opponent", Select).value == "mcts:300"
        await pilot.press("escape")
        await settle(pilot, screen)
    assert Store().load_settings()[game]["opponent"] != "mcts:300"
