"""The shared leaderboard of a game server: every player's results, per game, in one file
named by TUI_GAMES_LEADERBOARD, written under its own lock; shown on the scores screen."""

from __future__ import annotations

import json
import threading

from ui_support import SIZE

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.scores import ScoresScreen
from tui_games.userdata.store import Store


def test_results_count_for_the_player_on_the_shared_board(tmp_path):
    board = tmp_path / "server" / "leaderboard.json"
    alice = Store(tmp_path / "alice", leaderboard=board, user="alice")
    bob = Store(tmp_path / "bob", leaderboard=board, user="bob")
    alice.record_result("connect4", "perfect", "loss")
    alice.record_result("connect4", "level3", "win")
    bob.record_result("connect4", "random", "win")
    bob.record_result("checkers", "strong", "draw")
    expected = {"connect4": {"alice": {"win": 1, "loss": 1, "draw": 0}, "bob": {"win": 1, "loss": 0, "draw": 0}},
                "checkers": {"bob": {"win": 0, "loss": 0, "draw": 1}}}
    assert json.loads(board.read_text()) == expected
    assert alice.leaderboard() == bob.leaderboard() == expected
    # Each player's own scores stay their own.
    assert set(alice.scores()["connect4"]) == {"perfect", "level3"}
    assert "checkers" not in alice.scores()
    # Resetting one's scores leaves the shared board alone.
    alice.reset_scores()
    assert alice.leaderboard() == expected


def test_environment_names_the_board_and_the_player(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TUI_GAMES_LEADERBOARD", str(tmp_path / "board.json"))
    monkeypatch.setenv("TUI_GAMES_USER", "carol")
    Store().record_result("tictactoe", "perfect", "draw")
    assert Store().leaderboard() == {"tictactoe": {"carol": {"win": 0, "loss": 0, "draw": 1}}}


def test_without_a_server_there_is_no_board(tmp_path, monkeypatch):
    monkeypatch.delenv("TUI_GAMES_LEADERBOARD", raising=False)
    store = Store(tmp_path)
    store.record_result("connect4", "perfect", "win")
    assert store.leaderboard_path is None and store.leaderboard() == {}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "scores.json"]


def test_players_at_once_lose_no_result(tmp_path):
    board = tmp_path / "leaderboard.json"
    stores = [Store(tmp_path / f"p{i}", leaderboard=board, user=f"p{i % 2}") for i in range(4)]

    def play(store: Store) -> None:
        for _ in range(15):
            store.record_result("connect4", "random", "win")

    threads = [threading.Thread(target=play, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    table = Store(tmp_path / "reader", leaderboard=board).leaderboard()["connect4"]
    assert table["p0"]["win"] == table["p1"]["win"] == 30


def test_a_damaged_board_is_set_aside_and_started_anew(tmp_path):
    board = tmp_path / "leaderboard.json"
    board.write_text("[1, 2")
    store = Store(tmp_path / "dan", leaderboard=board, user="dan")
    store.record_result("connect4", "random", "win")
    assert store.leaderboard() == {"connect4": {"dan": {"win": 1, "loss": 0, "draw": 0}}}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("leaderboard.json.corrupt-")]
    assert any("leaderboard was corrupt" in warning for warning in store.take_warnings())


async def test_scores_screen_shows_the_board_on_a_server(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path / "erin"))
    monkeypatch.setenv("TUI_GAMES_LEADERBOARD", str(tmp_path / "board.json"))
    monkeypatch.setenv("TUI_GAMES_USER", "erin")
    Store(tmp_path / "finn", user="finn").record_result("connect4", "perfect", "win")
    for result in ("win", "win", "loss"):
        Store().record_result("connect4", "level2", result)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.action_scores()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScoresScreen)
        table = screen.query_one("#leaderboard-table")
        assert table.display
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert rows == [["connect4", "erin (you)", "2", "0", "1", "3"], ["connect4", "finn", "1", "0", "0", "1"]]


async def test_scores_screen_without_a_server_has_no_board(tmp_path, monkeypatch):
    monkeypatch.setenv("TUI_GAMES_HOME", str(tmp_path))
    monkeypatch.delenv("TUI_GAMES_LEADERBOARD", raising=False)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        app.action_scores()
        await pilot.pause()
        assert not app.screen.query_one("#leaderboard-table").display
