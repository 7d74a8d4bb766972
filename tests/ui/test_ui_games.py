"""Pilot tests of the archive at 80×24: a game finished on its screen is kept; the Games screen
lists and filters the archive; Enter replays a game and ``a`` analyses it, the marks beside the
moves, the evaluation line along them, Enter on a move showing it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from textual.widgets import DataTable, OptionList
from ui_support import SIZE, open_lab_tournament, text_of, until

from tui_games.games import arena_adapter
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.archive import read_archived, record_text
from tui_games.ui.screens.games import GamesScreen
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.screens.tictactoe import TicTacToeScreen
from tui_games.ui.widgets.eval_graph import BLOCKS
from tui_games.userdata.store import Store


def keep(store: Store, game: str, moves: str, when: datetime, **tags) -> None:
    adapter = arena_adapter(game)
    start = adapter.start({})
    position, parsed = start.copy(), []
    for text in (list(moves) if game == "connect4" else moves.split()):
        parsed.append(adapter.parse_move(position, text))
        position.push(parsed[-1])
    assert store.archive_game(record_text(game, start, parsed, **tags), when=when, lab=tags["mode"] == "lab")


async def test_a_finished_game_is_kept_replayed_and_analysed(home):
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, TicTacToeScreen)
        # X b2, O b1 (the edge: O has lost), X a1, O c1, X c3: X wins on the diagonal.
        await pilot.press("enter", "up", "enter", "left", "enter", "right", "right", "enter",
                          "down", "down", "enter")
        assert screen.position.outcome() is not None
        [entry] = Store().archived_games(read_archived)
        assert entry.moves == ["b2", "b1", "a1", "c1", "c3"] and entry.result == "1-0"
        assert entry.mode == "two players" and entry.you is None and entry.opponent == "X v O"

        await pilot.press("G")  # the archive, from the game's screen
        games = app.screen
        assert isinstance(games, GamesScreen)
        assert games.query_one(DataTable).row_count == 1
        await pilot.press("enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.record.moves == entry.moves
        await pilot.press("a")  # analyse from here: the start, the whole game
        await until(pilot, lambda: replay.review is not None)
        marks = {m.ply: m.mark for m in replay.review.moves if m.mark}
        assert marks == {2: "??"}  # only the edge reply threw the draw away
        review = replay.query_one("#replay-review", OptionList)
        assert review.display and review.option_count == 5
        assert "??" in str(review.get_option_at_index(1).prompt) and "best a1" in str(review.get_option_at_index(1).prompt)
        graph = text_of(replay.query_one("#replay-graph")).strip()
        assert len(graph) == 5 and set(graph) <= set(BLOCKS)
        assert graph[0] == BLOCKS[3] or graph[0] == BLOCKS[4]  # a draw is level
        assert graph[1] == BLOCKS[-1]  # after O's blunder X has a proven win
        # Enter on a move shows the board after it and what it cost.
        review.focus()
        review.highlighted = 1
        await pilot.press("enter")
        assert replay.ply == 2
        status = text_of(replay.query_one("#replay-status"))
        assert "played b1 — ?? draw → loss in 5; better a1" in " ".join(status.split())


async def test_the_games_screen_filters_by_game_result_and_date(home):
    store = Store()
    now = datetime.now(timezone.utc)
    keep(store, "connect4", "4455", now - timedelta(days=40), first="level5", second="me", mode="computer", you=1,
         result="1-0", reason="resigned")
    keep(store, "tictactoe", "b2 b1 a1 c1 c3", now - timedelta(minutes=5), first="me", second="perfect",
         mode="computer", you=0)
    keep(store, "tictactoe", "b2 a1", now, first="random", second="[red]level5[/", mode="lab", result="1/2-1/2")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")  # from the menu
        games = app.screen
        assert isinstance(games, GamesScreen)
        table = games.query_one(DataTable)

        def rows() -> list[tuple[str, ...]]:
            return [tuple(str(c) for c in table.get_row_at(i))[1:4] for i in range(table.row_count)]

        # Your games at first: the Lab's are kept apart, h shows them.
        assert rows() == [("Tic-tac-toe", "perfect", "won"), ("Connect-4", "level5", "lost")]
        assert "how: yours" in text_of(games.query_one("#games-filters"))
        assert "the Lab's 1 too" in text_of(games.query_one("#games-status"))
        await pilot.press("h")  # every game
        # A name is shown as written, never read as markup.
        assert rows() == [("Tic-tac-toe", "random v [red]level5[/", "draw"), ("Tic-tac-toe", "perfect", "won"),
                          ("Connect-4", "level5", "lost")]
        await pilot.press("r")  # you won
        assert rows() == [("Tic-tac-toe", "perfect", "won")]
        await pilot.press("r")  # you lost
        assert rows() == [("Connect-4", "level5", "lost")]
        await pilot.press("d")  # today: none of the games lost
        assert rows() == [] and "x shows them all" in text_of(games.query_one("#games-status"))
        await pilot.press("x", "g")  # the first game in the list of games: Connect-4
        assert rows() == [("Connect-4", "level5", "lost")]
        await pilot.press("g", "o")  # tic-tac-toe, its first opponent
        assert rows() == [("Tic-tac-toe", "perfect", "won")]
        await pilot.press("x", "d", "d")  # the last 7 days
        assert len(rows()) == 2
        filters = text_of(games.query_one("#games-filters"))
        assert "date: last 7 days" in filters
        # The replay's title names the players as written too.
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)
        title = text_of(app.screen.query_one("#replay-title"))
        assert "B [red]level5[/ (O)" in title
        # One game, not a run's: no "Game 1:" (a Lab game's number is its Event's, "Lab game 7").
        assert title.startswith("A random (X) vs ")
        await pilot.press("escape")
        assert app.screen is games
        # Delete forgets the game under the cursor once the player says yes; No keeps it.
        await pilot.press("delete", "n")
        assert len(rows()) == 2 and len(store.archive_names()) == 3
        await pilot.press("delete", "y")
        assert rows() == [("Tic-tac-toe", "perfect", "won")] and len(store.archive_names()) == 2
        await pilot.press("escape")
        assert not isinstance(app.screen, GamesScreen)


async def test_analysis_keeps_the_screen_live_and_stops_on_a(home):
    store = Store()
    keep(store, "checkers", "11-15 23-19 8-11 22-17 11-16 24-20 16-23 26-19", datetime.now(timezone.utc),
         first="me", second="strong", mode="computer", you=0)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        replay.game.judge = lambda variant, seconds=None: type(replay.game).judge(replay.game, variant, seconds=2.0)
        await pilot.press("a")
        assert replay.runner.busy
        # The board steps while the engine works in its worker.
        await pilot.press("right", "right")
        assert replay.ply == 2 and replay.runner.busy
        assert "a stops" in text_of(replay.query_one("#replay-status"))
        await pilot.press("a")
        assert not replay.runner.busy and replay.review is None
        assert "analysis stopped" in text_of(replay.query_one("#replay-status"))


async def test_a_lobby_game_this_app_saw_end_is_kept(home, tmp_path, monkeypatch):
    from lobby_support import app_hub, join
    from ui_support import accept_the_offer

    async with app_hub(tmp_path, monkeypatch, online=lambda: [("alice", "in the app")]) as hub:
        bob, bob_events = await join(hub, "bob")
        await bob.request("seek", game="connect4", clock="5+3", colour="second")
        app = TuiGamesApp()
        async with app.run_test(size=SIZE) as pilot:
            game = await accept_the_offer(pilot, app)
            await pilot.press("4")
            await until(pilot, lambda: len(game.position.history) == 1)
            await bob.request("move", game=game.live["id"], move="3")
            await until(pilot, lambda: len(game.position.history) == 2)
            await pilot.press("R", "y")
            await until(pilot, lambda: game.live["status"] == "over")
            entries = Store().archived_games(read_archived)
            [entry] = entries
            assert entry.mode == "lobby" and entry.moves == ["4", "3"] and entry.result == "0-1"
            assert entry.opponent == "bob" and entry.outcome == "loss" and entry.tags["Reason"] == "resignation"
            assert entry.tags["Clock"] == "5+3"  # the record's tags name the clock it was played on
            await bob_events.wait("game", lambda data: data["status"] == "over")
        await bob.close()


async def test_a_game_against_the_computer_is_kept_with_both_names(home):
    from ui_support import play_out_by_keys

    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer"})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await play_out_by_keys(pilot, screen)
        assert screen.position.outcome() is not None
        [entry] = Store().archived_games(read_archived)
        played = [screen.position.move_name(m) for m in screen.position.history]
        assert entry.mode == "computer" and entry.moves == played
        # The computer moved first: it is the record's first side, the player the second.
        assert (entry.first, entry.second) == ("perfect", app.store.user) and entry.you == 1
        assert entry.opponent == "perfect" and entry.outcome in ("draw", "loss")


async def test_a_in_the_games_screen_replays_and_analyses_at_once(home):
    # Labelled by BitBully, an independent solver (tests/engine/test_analysis.py): ?? on plies 3, 6-10.
    keep(Store(), "connect4", "4453356342", datetime.now(timezone.utc), first="me", second="level5", mode="computer",
         you=0)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "a")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await until(pilot, lambda: replay.review is not None)
        assert [m.ply for m in replay.review.moves if m.mark == "??"] == [3, 6, 7, 8, 9, 10]
        assert replay.ply == 1  # the first move analysed is on the board
        graph = text_of(replay.query_one("#replay-graph")).strip()
        assert len(graph) == 10


async def test_a_lab_run_puts_its_games_in_the_archive(home):
    from ui_support import arena_run

    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await arena_run(pilot, app, "tictactoe", "random", "level2", 3)
        await until(pilot, lambda: len(Store().archive_names()) == 3)
        entries = Store().archived_games(read_archived)
        assert sorted(e.moves for e in entries) == sorted(r.moves for r in lab.result.records)
        assert {e.mode for e in entries} == {"lab"}


async def test_a_game_a_bot_file_forfeits_is_kept_as_the_players_win(home):
    import argparse

    from ui_support import settle

    from tui_games.commands import tictactoe as tictactoe_commands

    bot = home / "second_move_fails.py"
    bot.write_text("def choose(position):\n    if len(position.history) >= 2:\n        raise ValueError('boom')\n"
                   "    return position.legal_moves()[0]\n")
    options = tictactoe_commands.play_options(argparse.Namespace(
        size="3x3", k=None, misere=False, opponent=str(bot), first="computer"))
    app = TuiGamesApp("tictactoe", options)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await until(pilot, lambda: len(screen.position.history) == 1)
        await settle(pilot, screen)
        await pilot.press("enter")  # the centre
        await until(pilot, lambda: "forfeit" in text_of(screen.query_one("#status")))
        [entry] = Store().archived_games(read_archived)
        assert entry.moves == ["a1", "b2"] and entry.tags["Reason"] == "forfeit"
        assert entry.result == "0-1" and entry.outcome == "win"  # the player moved second and won
        screen.opponent.close()


async def test_a_lab_tournament_keeps_every_game_apart_from_yours(home):
    from textual.widgets import Input

    keep(Store(), "connect4", "4455", datetime.now(timezone.utc), first="me", second="level5", mode="computer", you=0,
         result="0-1", reason="resigned")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        lab = await open_lab_tournament(pilot, app, "tictactoe")
        lab.query_one("#tournament-players", Input).value = "perfect level1 random"
        lab.query_one("#tournament-games", Input).value = "2"
        await pilot.press("enter")  # in the players field: runs
        await until(pilot, lambda: lab.running is None and lab.tournament is not None and lab.tournament.series)
        series = lab.tournament.series
        await until(pilot, lambda: len(Store().archive_names()) == 7)
        labs = [e for e in Store().archived_games(read_archived) if e.lab]
        assert sorted(e.moves for e in labs) == sorted(r.moves for s in series for r in s.records)
        assert {e.mode for e in labs} == {"lab"}
        assert sorted(e.tags["Event"] for e in labs) == [f"Lab tournament game {n}" for n in (1, 1, 1, 2, 2, 2)]
        # The Games screen lists your games; h steps to every game, then each way of playing.
        await pilot.press("escape", "g")
        games = app.screen
        assert isinstance(games, GamesScreen)
        table = games.query_one(DataTable)
        assert table.row_count == 1 and "the Lab's 6 too" in text_of(games.query_one("#games-status"))
        await pilot.press("h")
        assert table.row_count == 7
        await pilot.press("h", "h")
        assert table.row_count == 6 and "how: the Lab's" in text_of(games.query_one("#games-filters"))
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen) and "Lab tournament game" in " ".join(
            text_of(app.screen.query_one("#replay-title")).split())


async def test_the_analysed_moves_line_up_past_a_long_capture(home):
    # Ply 14 is a double jump (27x18x11), longer than the list's usual move field.
    moves = "11-15 22-18 15x22 25x18 8-11 29-25 9-14 18x9 5x14 25-22 11-15 23-18 14x23 27x18x11"
    keep(Store(), "checkers", moves, datetime.now(timezone.utc), first="level 2", second="level 6", mode="lab")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g", "h", "enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        replay.game.judge = lambda variant, seconds=None: type(replay.game).judge(replay.game, variant, seconds=0.05)
        await pilot.press("a")
        await until(pilot, lambda: replay.review is not None)
        review = replay.query_one("#replay-review", OptionList)
        # Where each line's score begins (the mark before it has a field of its own).
        columns = set()
        for i, m in enumerate(replay.review.moves):
            prompt = str(review.get_option_at_index(i).prompt)
            tail = m.words(m.after) + (f" · best {m.best}" if m.best and m.mark else "")
            assert prompt.endswith(tail)
            columns.add(len(prompt) - len(tail))
        assert len(columns) == 1, columns


async def test_the_games_screen_exports_a_game_and_imports_records_and_pdn(home, tmp_path):
    from tui_games.engine.records import read_record
    from tui_games.ui.screens.input_dialog import InputDialog

    keep(Store(), "connect4", "4453356342", datetime.now(timezone.utc) - timedelta(hours=1), first="me",
         second="level5", mode="computer", you=0)

    async def answer(pilot, key: str, path) -> None:
        await pilot.press(key)
        assert isinstance(app.screen, InputDialog)
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter")
        await pilot.pause()

    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        games = app.screen
        assert isinstance(games, GamesScreen)
        # e writes the game under the cursor as its record.
        mine = tmp_path / "mine.txt"
        await answer(pilot, "e", mine)
        assert app.screen is games, text_of(app.screen.query_one("#input-error"))
        record = read_record(mine.read_text())
        assert record.moves == list("4453356342") and record.tags["First"] == "me"
        # A bad file: one line under the field naming the line; nothing kept.
        bad = tmp_path / "bad.txt"
        bad.write_text('[Game "connect4"\n\n1. 4 *\n')
        await answer(pilot, "i", bad)
        assert isinstance(app.screen, InputDialog) and "line 1: a tag is" in text_of(app.screen.query_one("#input-error"))
        await pilot.press("escape")
        assert app.screen is games and len(Store().archive_names()) == 1
        # Another program's checkers PDN: kept and listed, when it was played, its players by colour.
        club = tmp_path / "club.pdn"
        club.write_text('[Event "club"]\n[Date "2026.11.20"]\n[Black "ann"]\n[White "bo"]\n[Result "0-1"]\n\n'
                        '1. 11-15 23-19 2. 8-11 22-17 0-1\n')
        await answer(pilot, "i", club)
        assert app.screen is games
        [imported] = [e for e in games.games if e.game == "checkers"]
        assert imported.moves == ["11-15", "23-19", "8-11", "22-17"] and imported.result == "0-1"
        assert (imported.first, imported.second, imported.mode, imported.tags["Event"]) == ("ann", "bo", "imported", "club")
        assert imported.when.date().isoformat() == "2026-11-20"
        # The game exported above comes back as it was: the same moves, the player's side.
        await answer(pilot, "i", mine)
        again = [e for e in games.games if e.game == "connect4"]
        assert len(again) == 2 and again[0].moves == again[1].moves and {e.you for e in again} == {0}
        assert games.query_one(DataTable).row_count == 3
