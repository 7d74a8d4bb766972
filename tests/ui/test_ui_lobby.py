"""Play online in the app: the lobby screen lists offers and players, Enter accepts, the game
opens on the game's own board, a move goes through the lobby and the other player's move
comes back; a challenge is announced wherever the player is; a spectator cannot move."""

from __future__ import annotations

import re

import pytest
from lobby_support import app_hub, join
from textual.widgets import DataTable
from ui_support import SIZE, accept_the_offer, text_of, until

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.live_game import LiveGame
from tui_games.ui.screens.lobby import LobbyScreen
from tui_games.ui.widgets.stats_panel import StatsPanel


async def watch_the_live_game(pilot, app) -> LiveGame:
    """From the menu: the lobby's Live tab, its one game opened to watch."""
    await pilot.press("o")
    lobby = app.screen
    live = lobby.query_one("#live", DataTable)
    await until(pilot, lambda: live.row_count == 1)
    lobby.query_one("#lobby-tabs").active = "tab-live"
    live.focus()
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, LiveGame))
    watched = app.screen
    assert isinstance(watched, LiveGame)
    return watched


@pytest.fixture
async def hub(tmp_path, home, monkeypatch):
    async with app_hub(tmp_path, monkeypatch, online=lambda: [("alice", "in the app")]) as hub:
        yield hub


async def test_accept_a_seek_and_play_it_on_the_board(hub):
    bob, bob_events = await join(hub, "bob")
    await bob.request("seek", game="connect4", clock="5+3", colour="second")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        assert "Play online" in str(app.screen.query_one("#menu-list").get_option("lobby").prompt)
        await pilot.press("o")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        table = lobby.query_one("#offers", DataTable)
        await until(pilot, lambda: table.row_count == 1)
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, LiveGame))
        game = app.screen
        assert game.side == 0 and "alice (●) v bob (○)" in text_of(game.query_one("#game-title"))
        # Rated: no engine help for the players.
        await until(pilot, lambda: not game.query_one(StatsPanel).display)
        assert game.check_action("hint", ()) is False and game.check_action("options", ()) is False
        await pilot.press("i", "s", "t")
        assert not game.query_one(StatsPanel).display
        # Alice drops a disc in column 4: it shows once the lobby has taken it.
        await pilot.press("4")
        await bob_events.wait("game", lambda data: data["moves"] == ["4"])
        await until(pilot, lambda: len(game.position.history) == 1)
        # The accept's reply and the game's start (both came before this move) open one screen.
        assert sum(isinstance(screen, LiveGame) for screen in app.screen_stack) == 1
        await bob.request("move", game=game.live["id"], move="4")
        await until(pilot, lambda: len(game.position.history) == 2)
        assert "your move" in text_of(game.query_one("#status"))
        assert re.search(r"alice \d:\d\d · bob \d:\d\d · your move", text_of(game.query_one("#status")))
        # u asks to take a move back: bob grants it, and the game is back at alice's last turn.
        await pilot.press("u")
        await bob_events.wait("game", lambda data: data["takeback_offer"] == "alice")
        await bob.request("takeback", game=game.live["id"], action="accept")
        await until(pilot, lambda: len(game.position.history) == 0)
        await pilot.press("4")
        await until(pilot, lambda: len(game.position.history) == 1)
        await bob.request("move", game=game.live["id"], move="4")
        await until(pilot, lambda: len(game.position.history) == 2)
        await pilot.press("R")
        await pilot.press("y")
        await until(pilot, lambda: game.live["status"] == "over")
        assert "You lose" in text_of(game.query_one("#status"))
        # n after the end: a rematch, sides swapped, reaches bob as a challenge.
        await pilot.press("n")
        rematch = await bob_events.wait("challenge")
        assert rematch["owner"] == "alice" and rematch["colour"] == "second" and rematch["clock"] == "5+3"
    await bob.close()


async def test_a_challenge_is_announced_anywhere_and_a_spectator_cannot_move(hub):
    bob, _ = await join(hub, "bob")
    carol, _ = await join(hub, "carol")
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await bob.request("seek", game="checkers", target="alice", rated=False)
        await until(pilot, lambda: any("challenges you" in str(n.message) for n in app._notifications))
        # A game between bob and carol, watched by alice.
        offer = await bob.request("seek", game="tictactoe", colour="first", rated=False)
        game = await carol.request("accept", offer=offer["id"])
        await pilot.press("escape")
        watched = await watch_the_live_game(pilot, app)
        assert watched.side is None and "watching" in text_of(watched.query_one("#game-title"))
        await until(pilot, lambda: "1 watching" in text_of(watched.query_one("#status")))
        await bob.request("move", game=game["id"], move="b2")
        await until(pilot, lambda: len(watched.position.history) == 1)
        await pilot.press("enter")  # the cursor's cell: a spectator's move goes nowhere
        # Carol's answer reaches alice's app after anything alice's Enter could have caused:
        # then the game holds bob's move and carol's, and nothing of alice's.
        await carol.request("move", game=game["id"], move="a1")
        await until(pilot, lambda: len(watched.position.history) >= 2)
        await pilot.pause()
        assert len(watched.position.history) == 2
    await bob.close()
    await carol.close()


async def test_the_lobby_screen_follows_who_is_online_only_while_it_is_open(hub):
    # Issue 27: the hub pushed the online list to every app at every login; now only to the
    # apps whose lobby screen is open, and a screen that closes says so.
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        following = lambda: [client.follows_online for client in hub.clients]  # noqa: E731
        assert following() == [False]
        await pilot.press("o")
        await until(pilot, lambda: following() == [True])
        await pilot.press("escape")
        await until(pilot, lambda: following() == [False])


async def test_history_replays_and_ratings_are_listed(hub):
    from tui_games.ui.screens.replay import ReplayScreen

    bob, _ = await join(hub, "bob")
    alice, _ = await join(hub, "alice")
    offer = await bob.request("seek", game="connect4", colour="second")
    game = await alice.request("accept", offer=offer["id"])
    for player, column in zip([alice, bob] * 4, "4455667"):
        await player.request("move", game=game["id"], move=column)
    await alice.close()
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await pilot.press("o")
        lobby = app.screen
        lobby.query_one("#lobby-tabs").active = "tab-ratings"
        ratings = lobby.query_one("#ratings", DataTable)
        await until(pilot, lambda: ratings.row_count == 2)
        assert [str(ratings.get_row_at(i)[1]) for i in range(2)] == ["alice", "bob"]
        lobby.query_one("#lobby-tabs").active = "tab-history"
        history = lobby.query_one("#history", DataTable)
        await until(pilot, lambda: history.row_count == 1)
        history.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("end")
        assert "A wins" in text_of(app.screen.query_one("#replay-status"))
    await bob.close()


async def test_chat_is_shown_as_typed_never_as_markup_or_escapes(hub):
    carol, _ = await join(hub, "carol")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await pilot.press("o")
        lobby = app.screen
        await carol.request("chat", text="[b]loud[/b] [@click=app.quit]x[/] \x1b[2Jgone\x07")
        chat = lobby.query_one("#lobby-chat")
        await until(pilot, lambda: "loud" in text_of(chat))
        shown = text_of(chat)
        assert "[b]loud[/b] [@click=app.quit]x[/]" in shown and "\x1b" not in shown and "\x07" not in shown
        assert app.is_running
    await carol.close()


async def test_a_burst_of_tab_keys_never_starts_a_request_loop(hub):
    """Three → arriving together (tmux send-keys Right Right Right): the tabs settle on the third
    one along and the lists are asked for a bounded number of times."""
    asked = []
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        original = app.lobby.request

        async def counting(op, **args):
            asked.append(op)
            return await original(op, **args)

        app.lobby.request = counting
        await pilot.press("o")
        lobby = app.screen
        tabs = lobby.query_one("#lobby-tabs")
        await pilot.press("right", "right", "right", "right", "right")  # Offers → Ratings, at once
        await until(pilot, lambda: tabs.active == "tab-ratings" and "history" in asked)
        await pilot.pause(0.5)
        before = len(asked)
        await pilot.pause(1.0)
        assert tabs.active == "tab-ratings"  # the tabs do not bounce
        assert len(asked) == before and asked.count("history") <= 2  # nothing asked again and again
        await pilot.press("right")  # on to Tournaments (the last), and round again to Offers
        await until(pilot, lambda: tabs.active == "tab-tournaments")
        await pilot.press("right")
        await until(pilot, lambda: tabs.active == "tab-offers")
    assert app.return_code in (None, 0)


async def test_lobby_chat_is_visible_at_80_by_24(hub):
    carol, _ = await join(hub, "carol")
    app = TuiGamesApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await pilot.press("o")
        lobby = app.screen
        await carol.request("chat", text="hello there")
        chat = lobby.query_one("#lobby-chat")
        await until(pilot, lambda: "hello there" in text_of(chat))
        region = chat.region
        assert region.height >= 1 and region.bottom <= 23  # above the footer, on the screen
    await carol.close()


async def test_watch_and_your_games_are_live_with_spectators(hub):
    bob, _ = await join(hub, "bob")
    carol, _ = await join(hub, "carol")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await pilot.press("o")
        lobby = app.screen
        live = lobby.query_one("#live", DataTable)
        await until(pilot, lambda: "Connecting" not in text_of(lobby.query_one("#lobby-status")))
        offer = await bob.request("seek", game="tictactoe", colour="first", rated=False)
        game = await carol.request("accept", offer=offer["id"])
        await until(pilot, lambda: live.row_count == 1)  # a new game shows with no `r`
        dave, _ = await join(hub, "dave")
        await dave.request("watch", game=game["id"])
        await bob.request("abort", game=game["id"])
        await until(pilot, lambda: live.row_count == 0)  # and leaves when it ends
        await dave.close()
    await bob.close()
    await carol.close()


async def test_abort_is_a_key_of_the_game_screen_before_both_first_moves(hub):
    bob, bob_events = await join(hub, "bob")
    await bob.request("seek", game="connect4", clock="5+3", colour="second")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        game = await accept_the_offer(pilot, app)
        assert game.check_action("abort", ()) is True and game.check_action("resign", ()) is False
        await pilot.press("A")
        ended = await bob_events.wait("game", lambda data: data["status"] == "over")
        assert ended["reason"] == "aborted" and ended["winner"] is None
        await until(pilot, lambda: game.live["status"] == "over")
        assert "aborted" in text_of(game.query_one("#status"))
    await bob.close()


def test_every_lobby_game_has_a_declared_live_screen():
    from tui_games.games import find_game, load
    from tui_games.server.lobby.hub import lobby_games

    assert lobby_games()
    for game in lobby_games():
        screen = find_game(game).live_screen_class
        assert issubclass(screen, LiveGame) and issubclass(screen, load(find_game(game).screen))
        assert screen.__mro__[1] is LiveGame  # the live behaviour first, the game's own screen after


async def test_a_dropped_app_reconnects_and_its_game_goes_on(hub):
    bob, _ = await join(hub, "bob")
    offer = await bob.request("seek", game="connect4", colour="second", rated=False)
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        game_data = await app.lobby.request("accept", offer=offer["id"])
        from tui_games.ui.screens.live_game import open_live_game

        open_live_game(app, game_data)
        await until(pilot, lambda: isinstance(app.screen, LiveGame))
        game = app.screen
        dropped = [c for c in hub.clients if c.player == "alice"]
        for client in dropped:
            client.drop("a test drops it")
        # A new connection of alice's, not one of those dropped (the app may be back before a
        # check could see her gone, so "gone" is no condition to wait for).
        await until(pilot, lambda: app.lobby.connected
                    and [c for c in hub.clients if c.player == "alice" and c not in dropped])
        await pilot.press("4")
        await until(pilot, lambda: len(game.position.history) == 1)  # the move went through the new connection
        await bob.request("move", game=game_data["id"], move="4")
        await until(pilot, lambda: len(game.position.history) == 2)
    await bob.close()


async def test_the_tournaments_tab_lists_joins_and_keeps_the_standings_live(hub):
    from tui_games.server.lobby import tournament_commands

    tournaments = tournament_commands.of(hub.lobby)
    hub.lobby.seen("bob")
    made = tournaments.create("bob", "connect4", kind="arena", length="30m", clock="3+2", name="Evening arena")
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        await pilot.press("o")
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.query_one("#lobby-tabs").active = "tab-tournaments"
        table = lobby.query_one("#tournaments", DataTable)
        await until(pilot, lambda: table.row_count == 1)
        assert "Evening arena" in str(table.get_row_at(0)[1]) and table.get_row_at(0)[5] == "0"
        table.focus()
        await pilot.press("j")
        await until(pilot, lambda: [p["name"] for p in tournaments.get(made.id).data["players"]] == ["alice"])
        standings = lobby.query_one("#tournament-standings")
        await until(pilot, lambda: "alice" in text_of(standings))
        # Someone else joins: the list and the standings shown follow with no refresh.
        tournaments.join("bob", made.id)
        await until(pilot, lambda: table.get_row_at(0)[5] == "2" and "bob" in text_of(standings))
        await pilot.press("w")
        await until(pilot, lambda: [p["name"] for p in tournaments.get(made.id).data["players"]] == ["bob"])


async def test_a_game_watched_to_its_end_is_kept_and_replays_with_the_analysis_and_play_on(hub):
    from ui_support import until

    from tui_games.ui.archive import read_archived
    from tui_games.ui.screens.games import GamesScreen
    from tui_games.ui.screens.replay import ReplayScreen
    from tui_games.ui.screens.tictactoe import TicTacToeScreen
    from tui_games.userdata.store import Store

    bob, _ = await join(hub, "bob")
    carol, _ = await join(hub, "carol")
    offer = await bob.request("seek", game="tictactoe", colour="first", rated=False)
    game = await carol.request("accept", offer=offer["id"])
    app = TuiGamesApp()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.lobby.connected)
        watched = await watch_the_live_game(pilot, app)
        # O's b1 (an edge) throws the draw away; X wins on the diagonal.
        for player, cell in zip([bob, carol] * 3, ["b2", "b1", "a1", "c1", "c3"]):
            await player.request("move", game=game["id"], move=cell)
        await until(pilot, lambda: watched.live["status"] == "over")
        [entry] = Store().archived_games(read_archived)
        assert entry.mode == "lobby" and entry.you is None and entry.opponent == "bob v carol"
        assert entry.moves == ["b2", "b1", "a1", "c1", "c3"] and entry.result == "1-0"
        # After the end the spectator has what a player has: the replay, its analysis, play on.
        await pilot.press("escape", "escape", "g")
        assert isinstance(app.screen, GamesScreen) and app.screen.query_one(DataTable).row_count == 1
        await pilot.press("enter")
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("a")
        await until(pilot, lambda: replay.review is not None)
        assert {m.ply: m.mark for m in replay.review.moves if m.mark} == {2: "??"}
        await pilot.press("right", "p")  # after O's blunder: X to find the win
        await until(pilot, lambda: isinstance(app.screen, TicTacToeScreen))
        assert [app.screen.position.move_name(m) for m in app.screen.position.history] == ["b2", "b1"]
    await bob.close()
    await carol.close()
