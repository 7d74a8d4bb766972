"""Pilot tests of the app at 80×24: menus, a game by keys and by mouse, the panels."""

from __future__ import annotations

import json

import pytest
from textual.widgets import DataTable, OptionList, Static
from ui_support import SIZE, cell_offset, play_out_by_keys, settle, text_of, until

from tui_games.engine.arena import ArenaConfig, run_arena
from tui_games.engine.tictactoe.arena import TicTacToeArena
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.menu import MenuScreen
from tui_games.ui.screens.scores import ScoresScreen
from tui_games.ui.screens.tictactoe import TicTacToeScreen
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector
from tui_games.ui.widgets.ttt_board import TicTacToeBoard
from tui_games.userdata.store import Store


def make_app(game=None, **options) -> TuiGamesApp:
    return TuiGamesApp(game, options or None)


async def test_menu_opens_tictactoe_by_keyboard(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, MenuScreen)
        menu = app.screen.query_one(OptionList)
        assert not any(menu.get_option(game).disabled for game in ("tictactoe", "connect4", "checkers", "sudoku"))
        await pilot.press("enter")  # the first option is tic-tac-toe
        assert isinstance(app.screen, TicTacToeScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


@pytest.mark.parametrize("key, title", [("1", "Tic-tac-toe"), ("2", "Connect-4"), ("3", "Checkers"), ("4", "Sudoku")])
async def test_menu_digits_open_every_game(home, key, title):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert app.screen.TITLE == title
        app.screen.runner.cancel()


async def test_full_game_by_keys_two_players(home):
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, TicTacToeScreen)
        # The cursor starts in the centre. X b2, O b1, X a1, O c1, X c3: X wins on the diagonal.
        await pilot.press("enter", "up", "enter", "left", "enter", "right", "right", "enter",
                          "down", "down", "enter")
        pos = screen.position
        assert pos.format() == "XOO/.X./..X"
        assert pos.outcome() is not None and pos.outcome().winner == 0
        assert "X wins" in text_of(screen.query_one("#status"))
        await pilot.press("u")  # undo one move with two players
        assert pos.format() == "XOO/.X./..."
        assert pos.outcome() is None


async def test_full_game_against_the_computer_by_keys(home):
    app = make_app("tictactoe", opponent="perfect", first="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_out_by_keys(pilot, screen)
        outcome = screen.position.outcome()
        assert outcome is not None
        assert outcome.winner != 0  # the perfect player (O) never loses
        stats = text_of(screen.query_one(StatsPanel))
        assert "nodes" in stats
        # Counted for this board and rules only: results on other boards do not add up.
        scores = Store().scores()["tictactoe"]["perfect · 3×3, 3 in a row"]
        assert sum(scores.values()) == 1
        app.action_scores()
        await pilot.pause()
        table = app.screen.query_one("#scores-table", DataTable)
        assert [str(c) for c in table.get_row_at(0)][:2] == ["Tic-tac-toe", "perfect · 3×3, 3 in a row"]


async def test_full_game_by_mouse(home):
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.query_one(TicTacToeBoard)
        for cell in (0, 3, 1, 4, 2):  # X takes the top row
            await pilot.click(TicTacToeBoard, offset=cell_offset(board, cell))
        assert screen.position.format() == "XXX/OO./..."
        assert screen.position.outcome().winner == 0
        # A click on a taken cell or after the end changes nothing.
        await pilot.click(TicTacToeBoard, offset=cell_offset(board, 8))
        assert screen.position.format() == "XXX/OO./..."


async def test_stats_panel_shows_nodes_after_computer_moves(home):
    app = make_app("tictactoe", opponent="level4", first="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        assert len(screen.position.history) == 1
        assert screen.last_search is not None
        text = text_of(screen.query_one(StatsPanel))
        assert "nodes" in text
        nodes = screen.query_one(StatsPanel).last_stats.nodes
        assert nodes > 0 and f"{nodes:,}" in text


async def test_tree_inspector_opens_and_expands(home):
    app = make_app("tictactoe", opponent="perfect", first="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        tree = screen.query_one(TreeInspector)
        await pilot.press("t")
        assert tree.display and tree.has_focus
        root = tree.root
        assert root.children, "the root's children are shown when the tree opens"
        first = root.children[0]
        assert not first.children  # built lazily: nothing below until expanded
        first.expand()
        await pilot.pause()
        assert first.children, "expanding a node adds its children"
        labels = " ".join(str(n.label) for n in first.children)
        assert "MAX" in labels or "pruned" in labels
        await pilot.press("t")
        assert not tree.display


async def test_hint_and_compare(home):
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("i")
        await settle(pilot, screen)
        assert "hint" in text_of(screen.query_one("#status"))
        await pilot.press("c")
        await settle(pilot, screen, timeout=60)
        panel = screen.query_one(StatsPanel)
        text = text_of(panel)
        assert "minimax" in text and "alpha-beta" in text and panel.comparing
        await pilot.press("c")  # a toggle: back to the hint's statistics
        assert not panel.comparing
        text = text_of(panel)
        assert "minimax" not in text and "nodes" in text


@pytest.mark.parametrize("misere, expected", [(False, (549_946, 31_697, 3_999)),
                                               (True, (549_946, 19_144, 9_624))])
async def test_compare_on_the_empty_board_gives_the_labs_and_the_benchs_rows(home, misere, expected):
    # Issue 52, finding 1: every row was searched with deepening and summed (minimax 1.29M).
    app = make_app("tictactoe", opponent="human", misere=misere)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("i")
        await settle(pilot, screen)
        assert screen.last_search.depth == 9
        await pilot.press("c")
        await settle(pilot, screen, timeout=120)
        text = text_of(screen.query_one(StatsPanel))
        rows = {line.split("  ")[0].strip(): line.split() for line in text.splitlines()}
        for label, nodes in zip(("minimax", "alpha-beta", "+ ordering"), expected):
            assert label in rows, text
            assert f"{nodes:,}" in rows[label], (label, text)
        assert "+ deepening" in text and "sum of depths 1..9" in text


async def test_new_game_and_undo_cancel_a_running_search(home):
    app = make_app("tictactoe", rows=5, cols=5, k=4, opponent="perfect", first="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.pause(0.2)
        assert screen.runner.busy  # an exact 5×5 search takes a long time
        await pilot.press("o")
        await pilot.press("escape")  # cancel the options dialog: the search goes on
        await pilot.press("u")  # undo with nothing to undo: the computer starts over
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_corrupt_settings_file_does_not_stop_the_app(home):
    (home / "settings.json").write_text("{ this is not json")
    (home / "scores.json").write_text(json.dumps([1, 2, 3]))
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, TicTacToeScreen)
        await pilot.press("enter")
        assert len(app.screen.position.history) == 1
    kept = sorted(p.name for p in home.iterdir() if ".corrupt-" in p.name)
    assert any(name.startswith("settings.json.corrupt-") for name in kept)
    assert any(name.startswith("scores.json.corrupt-") for name in kept)


async def test_options_dialog_starts_a_new_game(home):
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("o")
        dialog = app.screen
        dialog.query_one("#rows").value = 4
        dialog.query_one("#cols").value = 4
        await pilot.pause()
        await pilot.press("ctrl+s")
        assert app.screen is screen
        assert (screen.position.rows, screen.position.cols) == (4, 4)
        assert Store().load_settings()["tictactoe"]["rows"] == 4


async def test_settings_and_scores_screens(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.action_settings()
        await pilot.pause()
        await pilot.press("escape")
        app.action_scores()
        await pilot.pause()
        assert "No games" in text_of(app.screen.query_one("#scores-empty"))
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


async def test_reset_in_scores_asks_first_no_is_the_default_and_yes_forgets_the_arena_runs_too(home):
    store = Store()
    store.record_result("tictactoe", "random", "win")
    store.record_time("sudoku", "basic", 300.0)
    run = run_arena(TicTacToeArena(), ArenaConfig("tictactoe", "random", "random", 1, seed=1))
    store.record_arena_run(run.to_dict())
    kept = (store.scores(), store.records(), store.arena_runs())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.action_scores()
        await pilot.pause()
        for answer in ("r", "enter", "r", "escape", "r", "n"):  # the focus starts on No
            await pilot.press(answer)
            await pilot.pause()
            if answer == "r":
                assert isinstance(app.screen, ConfirmDialog)
                assert "arena run" in text_of(app.screen.query_one(Static))
        assert isinstance(app.screen, ScoresScreen)
        assert (store.scores(), store.records(), store.arena_runs()) == kept
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        assert (store.scores(), store.records(), store.arena_runs()) == ({}, {}, [])


async def test_game_in_progress_is_saved_and_resumed(home):
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "up", "enter")  # X b2, O b1
        assert app.screen.position.format() == ".O./.X./..."
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert screen.position.format() == ".O./.X./..."
        assert "X to move" in text_of(screen.query_one("#status"))
        await pilot.press("n")  # a new game replaces the saved one
        assert screen.position.format() == ".../.../..."
    app = make_app("tictactoe", opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        assert app.screen.position.format() == ".../.../..."
    # A game with other options does not pick up the saved one.
    app = make_app("tictactoe", opponent="human", rows=4, cols=4)
    async with app.run_test(size=SIZE) as pilot:
        assert app.screen.position.rows == 4 and not app.screen.position.history


async def test_a_terminal_below_80x24_gets_a_message_that_goes_when_it_grows(home):
    from tui_games.ui.app import TooSmallScreen

    app = make_app("connect4", opponent="human")
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "at least 80×24, now 70×20" in text_of(app.screen.query_one("#too-small"))
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.screen.TITLE == "Connect-4"


async def test_the_board_and_its_marks_grow_with_the_terminal(home):
    for size, cell in (((80, 24), (7, 3)), ((120, 40), (15, 7))):
        app = make_app("tictactoe", opponent="human", rows=3, cols=3, k=3)
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            await pilot.press("enter")  # X in the centre
            board = screen.board
            assert (board.cell_w, board.cell_h) == cell
            assert board.region.bottom <= size[1]
            lines = ["".join(s.text for s in board.render_line(y)) for y in range(board.size.height)]
            if cell[1] > 3:  # X drawn as two crossing strokes
                assert sum("╲" in line for line in lines) >= 2 and any("╳" in line for line in lines), lines


async def test_tree_rows_line_up_and_notes_come_before_the_window(home):
    # Issue 23, finding 12: rows without ▶ sat two columns left; notes were cut at the end.
    app = make_app("tictactoe", opponent="perfect", first="computer")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        tree = screen.query_one(TreeInspector)
        await pilot.press("t")
        nodes = list(tree.root.children)
        for node in tree.root.children:
            node.expand()
        await pilot.pause()
        nodes += [child for node in tree.root.children for child in node.children]
        for node in nodes:
            label = str(node.label)
            if not node.allow_expand:
                assert label.startswith("  "), label  # in place of the ▶ the others have
            for note in ("game over", "horizon", "from table", "nobody can win", "mirror image"):
                if note in label:
                    assert label.index(note) < label.index("["), label


@pytest.mark.parametrize("game, options", [
    ("tictactoe", {"rows": 4, "cols": 4, "k": 3, "opponent": "human"}),
    ("connect4", {"opponent": "human"}),
    ("checkers", {"opponent": "human"}),
])
async def test_every_list_of_the_options_dialog_opens_inside_it(home, game, options):
    # At 80×24 the opponent list ran past the dialog's border, over the board and the key bar.
    from textual.widgets import Select
    from textual.widgets._select import SelectOverlay

    app = make_app(game, **options)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen.query_one("#choices-dialog")
        for select in app.screen.query(Select):
            select.focus()
            await pilot.press("enter")
            overlay = select.query_one(SelectOverlay)
            await until(pilot, lambda overlay=overlay: overlay.display and overlay.region.height > 0)
            await pilot.pause()
            region = overlay.region
            inside = dialog.region.shrink((1, 1, 1, 1))  # within the border
            assert inside.contains_region(region), (select.id, region, inside)
            # A list longer than its room scrolls: its last option can be reached.
            await pilot.press("end")
            await pilot.pause()
            assert overlay.highlighted == overlay.option_count - 1
            await pilot.press("escape")
            await pilot.pause()
            assert not overlay.display
        await pilot.press("escape")


async def test_a_big_x_keeps_its_strokes_in_ascii(home):
    # --ascii drew the big X's ╲ ╱ ╳ as "+", a cross of pluses.
    from tui_games.ui.ascii import ascii_text

    app = make_app("tictactoe", opponent="human", rows=3, cols=3, k=3)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("enter")  # X in the centre
        board = app.screen.board
        lines = [ascii_text("".join(s.text for s in board.render_line(y))) for y in range(board.size.height)]
        assert sum("\\" in line and "/" in line for line in lines) >= 2 and any("X" in line for line in lines), lines
