"""Pilot tests of the Lab at 80×24: an arena run with its progress bar, cancelled; a game's
replay; the comparison; the Lab from a game screen; finished runs in Scores."""

from __future__ import annotations

from textual.widgets import DataTable, Input, ProgressBar, Select, TabbedContent
from ui_support import (
    SIZE,
    arena_run,
    fill,
    fill_comparison,
    lines_of,
    open_lab,
    open_lab_tournament,
    open_replay,
    text_of,
    until,
)

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens import lab as lab_module
from tui_games.ui.screens.connect4 import Connect4Screen
from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.screens.scores import ScoresScreen
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.userdata.store import Store


async def test_arena_progress_cancel_and_replay(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill(pilot, lab, "connect4", "level5", "level4", 30)
        bar = lab.query_one("#arena-progress", ProgressBar)
        await pilot.press("r")
        assert lab.running == "arena" and bar.total == 30
        # The bar advances game by game while the run goes on.
        await until(pilot, lambda: (bar.progress or 0) >= 1)
        first = bar.progress
        await until(pilot, lambda: (bar.progress or 0) > first)
        assert lab.running == "arena"
        assert "x or Esc cancels" in text_of(lab.query_one("#arena-status"))
        await pilot.press("x")
        await until(pilot, lambda: lab.running is None)
        result = lab.result
        assert result.cancelled and 2 <= result.games < 30
        assert bar.progress == result.games
        assert f"cancelled after {result.games} of 30" in text_of(lab.query_one("#arena-status"))
        assert lab.query_one("#arena-list", DataTable).row_count == result.games
        assert lab.query_one("#arena-results", DataTable).row_count == 2
        # A run cut short is kept, and says so.
        runs = Store().arena_runs()
        assert len(runs) == 1 and runs[0]["cancelled"] and runs[0]["games"] == result.games

        # Enter on the first game replays it move by move.
        replay = await open_replay(pilot, app, lab)
        assert isinstance(replay, ReplayScreen)
        record = result.records[0]
        # The game's own board, its discs as the Connect-4 screen draws them (● first, ○ second).
        board_widget = replay.query_one("#replay-board")
        assert isinstance(board_widget, Connect4Board)
        empty = "".join(lines_of(board_widget))
        await pilot.press("right", "right", "right")
        assert replay.ply == 3
        board = "".join(lines_of(board_widget))
        assert board != empty and board.count("●") == 2 and board.count("○") == 1
        assert "X" not in board and "O" not in board
        assert "[" not in board  # read-only: no cursor column, no cursor cell
        assert f"ply 3/{record.plies}" in text_of(replay.query_one("#replay-status"))
        await pilot.press("left")
        assert replay.ply == 2
        await pilot.press("end")
        assert replay.ply == record.plies
        assert replay.positions[-1].outcome() is not None or record.reason == "adjudicated"
        await pilot.press("escape")
        assert app.screen is lab


async def test_finished_run_is_saved_and_listed_in_scores(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "tictactoe", "perfect", "random", 6)
        assert lab.result.games == 6 and not lab.result.cancelled
        assert lab.result.b_wins == 0
        assert "saved" in text_of(lab.query_one("#arena-status"))
        runs = Store().arena_runs()
        assert len(runs) == 1 and runs[0]["games"] == 6
        # e writes the games as CSV, to a path the dialog proposes in the data directory.
        await pilot.press("e")
        await pilot.pause()
        field = app.screen.query_one(Input)
        assert field.value.startswith(str(home)) and field.value.endswith(".csv")
        field.value = str(home / "run.csv")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is lab
        assert len((home / "run.csv").read_text().splitlines()) == 7
        await pilot.press("escape")
        await pilot.press("escape")
        app.action_scores()
        await pilot.pause()
        assert isinstance(app.screen, ScoresScreen)
        table = app.screen.query_one("#arena-runs-table", DataTable)
        assert table.row_count == 1
        assert "perfect" in [str(c) for c in table.get_row_at(0)]
        # A saved run replays from Scores: Enter on it, then page down for the next game.
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.record.number == 1 and "game 1 of 6" in text_of(replay.query_one("#replay-title"))
        await pilot.press("pagedown", "right")
        assert replay.record.number == 2 and replay.ply == 1


async def test_bad_player_is_named(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill(pilot, lab, "tictactoe", "perfekt", "random", 2)
        await pilot.press("r")
        await pilot.pause()
        assert lab.running is None
        assert any("player A 'perfekt'" in str(n.message) for n in app._notifications)


async def test_comparison_table_and_bars(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill_comparison(pilot, lab, "corners", 4)
        assert lab.query_one(TabbedContent).active == "compare"
        await pilot.press("r")
        await until(pilot, lambda: lab.running is None)
        # Five alpha-beta rows and MCTS at + deepening's budget, each depth.
        assert lab.query_one("#compare-table", DataTable).row_count == 4 * 6
        assert "root values agree at every depth" in text_of(lab.query_one("#compare-status"))
        chart = text_of(lab.query_one("#compare-chart"))
        for label in ("minimax", "alpha-beta", "+ ordering", "+ TT", "+ deepening", "MCTS"):
            assert label in chart
        assert "at depth 4" in chart


async def test_comparison_puts_mcts_beside_alpha_beta_and_marks_its_moves_where_solved(home):
    """Corners is solved at depth 6: every MCTS row's move is judged (✓ keeps the game's value,
    as an independent full-depth search says), in the table and in the chart."""
    from tui_games.engine.search import TT, SearchLimits, game_value, search

    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        table = await fill_comparison(pilot, lab, "corners", 6)
        await pilot.press("r")
        await until(pilot, lambda: lab.running is None)
        rows = [table.get_row_at(i) for i in range(table.row_count)]
        mcts = [row for row in rows if row[1] == "MCTS"]
        deepening = [row for row in rows if row[1] == "+ deepening"]
        assert len(mcts) == 6 and [row[2] for row in mcts] == [row[2] for row in deepening]
        position = lab.sweep_position
        solved = search(position, SearchLimits(depth=9), TT)
        for row in mcts:
            name, mark = row[7].rsplit(" ", 1)
            child = position.copy()
            child.push(next(m for m in position.legal_moves() if lab.game.move_text(position, m) == name))
            after = search(child, SearchLimits(depth=9), TT)
            assert mark == ("✓" if game_value(-after.score) == game_value(solved.score) else "✗")
            # A share of playouts, or the solver's proof.
            assert row[6].endswith("%") and row[6].startswith("wins ") or row[6] == "draw" or " in " in row[6]
        chart = text_of(lab.query_one("#compare-chart"))
        marks = "".join(row[7][-1] for row in mcts)
        assert f"best move {marks}" in chart


async def test_lab_from_a_game_screen_offers_its_position(home):
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        game = app.screen
        await pilot.press("enter")  # X where the cursor starts
        await pilot.press("L")
        await pilot.pause()
        lab = app.screen
        assert isinstance(lab, LabScreen)
        assert lab.query_one("#compare-position", Select).value == "current"
        assert lab._compare_position().format() == game.position.format()
        assert lab._compare_position().format().count("X") == 1
        await pilot.press("escape")
        assert app.screen.TITLE == "Tic-tac-toe"


def footer_keys(app) -> dict[str, str]:
    """What the key bar offers: {action: description} of the bindings it shows."""
    return {binding.action: binding.description
            for _, binding, enabled, _ in app.active_bindings.values() if enabled and binding.show}


async def test_escape_cancels_a_depth_sweep_like_x_and_the_key_bar_says_so(home, monkeypatch):
    # Escape while a sweep ran did nothing: only x stopped it.
    real_sweep = lab_module.sweep

    def held_sweep(position, depths, *, stop, on_cell, **options):
        # The sweep waits after its first cell until it is stopped: however fast the machine,
        # the test sees it running (60 s only bounds a broken run).
        def first_then_wait(cell):
            on_cell(cell)
            stop.wait(60)

        return real_sweep(position, depths, stop=stop, on_cell=first_then_wait, **options)

    monkeypatch.setattr(lab_module, "sweep", held_sweep)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill_comparison(pilot, lab, "empty", 9)
        assert footer_keys(app).get("back") == "Back"
        await pilot.press("r")
        await until(pilot, lambda: lab.query_one("#compare-table", DataTable).row_count >= 1)
        assert lab.running == "compare"
        # The key bar is refreshed after the run begins: wait for it.
        await until(pilot, lambda: footer_keys(app).get("cancel") == "Cancel")
        assert "back" not in footer_keys(app)
        assert "Esc cancels" in text_of(lab.query_one("#compare-status"))
        await pilot.press("escape")
        await until(pilot, lambda: lab.running is None)
        assert app.screen is lab  # the first Escape stops the sweep; it does not leave the Lab
        assert text_of(lab.query_one("#compare-status")).startswith("cancelled")
        assert lab.query_one("#compare-table", DataTable).row_count < 9 * 5
        await pilot.pause()
        assert footer_keys(app).get("back") == "Back"
        await pilot.press("escape")
        assert app.screen is not lab


async def test_x_cancels_a_run_started_from_a_field_and_types_nothing(home):
    # Enter in a field starts the run with the focus still there: x typed into player B
    # ("level6x") while the screen said "x or Esc cancels".
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill(pilot, lab, "connect4", "level5", "level4", 40)
        field = lab.query_one("#arena-b", Input)
        field.focus()
        await pilot.pause()
        await pilot.press("enter")
        await until(pilot, lambda: lab.running == "arena")
        await pilot.press("x")
        await until(pilot, lambda: lab.running is None)
        assert lab.result.cancelled and field.value == "level4"
        assert not field.disabled  # the form is back for the next run


async def test_changing_the_game_clears_the_last_runs_tables(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "tictactoe", "perfect", "random", 2)
        assert lab.query_one("#arena-list", DataTable).row_count == 2
        lab.query_one("#lab-game", Select).value = "connect4"
        await pilot.pause()
        assert lab.query_one("#arena-list", DataTable).row_count == 0
        assert lab.query_one("#arena-results", DataTable).row_count == 0 and lab.result is None


async def test_a_bot_file_plays_in_the_lab_and_a_failing_one_forfeits(home):
    bot = home / "first.py"
    bot.write_text("def choose(position):\n    return position.legal_moves()[0]\n", encoding="utf-8")
    bad = home / "bad.py"
    bad.write_text("def choose(position):\n    return 99\n", encoding="utf-8")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "tictactoe", str(bot), str(bad), 2)
        result = lab.result
        assert result.games == 2 and result.a_name == "first.py" and result.b_name == "bad.py"
        assert result.a_wins == 2
        assert [r.forfeit for r in result.records] == ["bad.py, ply 2: returned 99, not a legal move",
                                                       "bad.py, ply 1: returned 99, not a legal move"]
        listed = [str(cell) for cell in lab.query_one("#arena-list", DataTable).get_row_at(0)]
        assert listed[3] == "forfeit" and listed[-1].startswith("bad.py, ply 2: returned 99")
        await fill(pilot, lab, "tictactoe", str(home / "missing.py"), "random", 2)
        await pilot.press("r")
        await pilot.pause()
        assert lab.running is None
        assert any("does not exist" in str(n.message) for n in app._notifications)


async def test_the_tournament_tab_plays_a_round_robin_and_keeps_its_series(home):
    bot = home / "first.py"
    bot.write_text("def choose(position):\n    return position.legal_moves()[0]\n", encoding="utf-8")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab_tournament(pilot, app, "tictactoe")
        assert lab.query_one(TabbedContent).active == "tournament"
        lab.query_one("#tournament-players", Input).value = f"perfect level1 {bot}"
        lab.query_one("#tournament-games", Input).value = "2"
        await pilot.press("enter")  # in the players field: runs
        await until(pilot, lambda: lab.running is None and lab.tournament is not None and lab.tournament.series)
        result = lab.tournament
        assert len(result.series) == 3 and sum(s.games for s in result.series) == 6
        table = lab.query_one("#tournament-table", DataTable)
        assert table.row_count == 3
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(3)]
        assert [row[1] for row in rows] == ["perfect", "level 1", "first.py"]
        assert rows[0][2] == "·" and rows[0][-4] == "0"  # perfect: no loss
        assert "saved with the arena runs" in text_of(lab.query_one("#tournament-status"))
        runs = Store().arena_runs()
        assert len(runs) == 3 and all(r["tournament"]["pairs"] == 3 for r in runs)
        lab.query_one("#tournament-players", Input).value = "perfect"
        await pilot.press("r")  # focus is on the table after a run: r runs
        await pilot.pause()
        assert any("at least two players" in str(n.message) for n in app._notifications)


async def test_x_cancels_a_tournament_started_from_its_field(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        lab.query_one("#lab-game", Select).value = "connect4"
        await pilot.pause()
        lab.action_tab("tournament")
        await pilot.pause()
        field = lab.query_one("#tournament-players", Input)
        field.value = "level5 level4 level3"
        field.focus()
        lab.query_one("#tournament-games", Input).value = "40"
        await pilot.press("enter")
        await until(pilot, lambda: lab.running == "tournament")
        await pilot.press("x")
        await until(pilot, lambda: lab.running is None)
        assert field.value == "level5 level4 level3" and not field.disabled
        assert "cancelled" in text_of(lab.query_one("#tournament-status"))
        assert Store().arena_runs() == []


async def test_connect4_in_the_lab_speaks_of_its_own_discs(home):
    """The Lab names Connect-4's sides as its screen draws them, not as tic-tac-toe's marks:
    "● moves first" and an "A plays" column of ●/○ (the letters setting brings X/O back)."""
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab(pilot, app)
        await fill(pilot, lab, "connect4", "level2", "random", 2)
        hint = text_of(lab.query_one("#lab-top-hint"))
        assert "● moves first" in hint and "X" not in hint
        await pilot.press("r")
        await until(pilot, lambda: lab.running is None)
        table = lab.query_one("#arena-list", DataTable)
        sides = {str(table.get_row_at(row)[1]) for row in range(table.row_count)}
        assert sides == {"●", "○"}
        # Replay's title and status name the discs too.
        replay = await open_replay(pilot, app, lab)
        await pilot.press("right")
        status = text_of(replay.query_one("#replay-status"))
        assert "ply 1/" in status and "● (" in status
        await pilot.press("escape")
        # Letters as the disc setting: the Lab follows it.
        app.store.update_settings("ui", discs="letters")
        lab.query_one("#lab-game", Select).value = "tictactoe"
        await pilot.pause()
        lab.query_one("#lab-game", Select).value = "connect4"
        await pilot.pause()
        assert "X moves first" in text_of(lab.query_one("#lab-top-hint"))


async def test_the_replay_of_a_checkers_game_is_drawn_on_the_checkers_board(home):
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "checkers", "random", "random", 1)
        board = (await open_replay(pilot, app, lab)).query_one("#replay-board")
        assert isinstance(board, CheckersBoard)
        before = lines_of(board)
        await pilot.press("right")
        assert lines_of(board) != before


async def test_p_in_a_replay_plays_on_from_the_position_shown_and_keeps_the_saved_game(home):
    """p at ply 3 of a Lab game's replay opens Connect-4's own screen at that position, two
    players at one keyboard with the hint and the tree; the game in progress saved before is
    still the one saved afterwards, and a practice game is not scored."""
    store = Store()
    saved = {"options": {"opponent": "level2", "first": "human", "full_board": False}, "first": 0,
             "history": [3, 3]}
    store.save_game("connect4", saved)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "connect4", "level2", "level1", 1)
        replay = await open_replay(pilot, app, lab)
        await pilot.press("right", "right", "right", "p")
        await until(pilot, lambda: isinstance(app.screen, Connect4Screen))
        game = app.screen
        await until(pilot, lambda: game.position.history == replay.positions[3].history)
        assert game.opponent is None and game.practice is not None
        assert "practice from ply 3" in " ".join(text_of(game.query_one("#status")).split())
        await pilot.press("i")  # the hint works here
        await until(pilot, lambda: game.last_search is not None)
        column = next(c for c in range(7) if game.position.can_play(c))
        game.play(column)
        assert len(game.position.history) == 4
        game.save_progress()
        await pilot.press("escape")
    assert Store().load_game("connect4") == saved
    assert "two players" not in Store().scores().get("connect4", {})
