"""Issue 52, step mode: a search played back node by node on the board, at 80×24 and 120×40.
It reads the recorder, not the game: tic-tac-toe, Connect-4 and checkers play back alike."""

from __future__ import annotations

import pytest
from ui_support import settle, text_of

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.step_mode import StepScreen

SIZES = [(80, 24), (120, 40)]


async def open_film(pilot, app) -> StepScreen:
    game = app.screen
    await pilot.press("v")
    await pilot.pause()
    film = app.screen
    assert isinstance(film, StepScreen)
    await settle(pilot, film, timeout=60)
    assert film.film and film is not game
    return film


def panel_text(film: StepScreen) -> str:
    return " ".join(text_of(film.query_one("#step-panel")).split())


@pytest.mark.parametrize("size", SIZES)
async def test_a_tictactoe_film_reaches_a_cutoff_in_words_and_counts_every_node(home, size):
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=size) as pilot:
        game = app.screen
        await pilot.press("i")  # a hint: the perfect player's search of the empty board
        await settle(pilot, game)
        film = await open_film(pilot, app)
        text = panel_text(film)
        assert "node 1 of" in text and "at most 50,000 nodes" in text  # the recording's bound, said
        assert film.board.position.history == []  # the root: the empty board
        await pilot.press("x")  # the next cut-off
        await pilot.pause()
        event = film.film[film.index]
        assert event.kind == "cut-off"
        text = panel_text(film)
        assert "cut-off at" in text and "already holds" in text and "cannot be chosen" in text
        assert "skipped" in text
        # The board shows the node's position: the root's position and the moves of its line.
        assert film.board.position.history == [n.move for n in event.path[1:]]
        await pilot.press("end")
        await pilot.pause()
        nodes = film.result.stats.nodes
        assert film.node_number == nodes == film.nodes
        assert f"node {nodes:,} of {nodes:,}" in panel_text(film)
        assert f"the search: {nodes:,} nodes" in panel_text(film)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game


@pytest.mark.parametrize("size", SIZES)
async def test_the_film_keys_step_into_over_out_and_back(home, size):
    app = TuiGamesApp("tictactoe", {"opponent": "level4", "first": "computer"})
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app.screen)
        film = await open_film(pilot, app)
        await pilot.press("right")  # from the root to its first child
        first = film.film[film.index]
        assert first.kind == "enter" and first.ply == 1
        await pilot.press("down")  # over the child's subtree: to where it returns
        assert film.film[film.index].kind == "return" and film.film[film.index].node is first.node
        await pilot.press("left")
        assert film.film[film.index].node is not first.node or film.film[film.index].kind != "return"
        await pilot.press("right", "right")
        inner = film.film[film.index]
        await pilot.press("up")  # out: where the node's parent returns
        assert film.film[film.index].kind == "return" and film.film[film.index].node is inner.path[-2]
        await pilot.press("home", "space")  # run …
        assert film.timer is not None
        await pilot.press("plus", "plus", "space")  # … faster, then pause: no timer while paused
        assert film.timer is None
        await pilot.press("a")  # another algorithm: recorded again
        await settle(pilot, film, timeout=60)
        assert film.algorithm == "minimax" and film.film


@pytest.mark.parametrize("game, options", [
    ("connect4", {"opponent": "level3", "first": "computer"}),
    ("connect4", {"opponent": "human"}),  # a hint: the solver's search, played back as negamax + TT
    ("checkers", {"opponent": "human", "start": "B:W18,22,25,29,30,31:B1,5,9,10,12,15"}),
])
async def test_every_game_plays_back_the_same_way(home, game, options):
    app = TuiGamesApp(game, options)
    async with app.run_test(size=(80, 24)) as pilot:
        if options["opponent"] == "human":
            await pilot.press("i")
        await settle(pilot, app.screen, timeout=60)
        film = await open_film(pilot, app)
        assert type(film.board).__name__ == type(app.screen_stack[-2].board).__name__
        await pilot.press("x")
        await pilot.press("end")
        await pilot.pause()
        assert film.node_number == film.result.stats.nodes
        assert "node" in panel_text(film)


async def test_nothing_is_recorded_for_the_film_until_step_mode_opens(home, monkeypatch):
    # The recording costs nothing when step mode is off: no film search runs before v.
    import tui_games.ui.screens.step_mode as step_mode

    calls = []
    real = step_mode.film_search
    monkeypatch.setattr(step_mode, "film_search", lambda *a, **kw: calls.append(a) or real(*a, **kw))
    app = TuiGamesApp("tictactoe", {"opponent": "level4", "first": "computer"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app.screen)
        assert calls == []
        await open_film(pilot, app)
        assert len(calls) == 1


async def test_on_the_compare_table_the_film_is_of_its_rows(home):
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=(80, 24)) as pilot:
        game = app.screen
        await pilot.press("i")
        await settle(pilot, game, timeout=60)
        await pilot.press("c")
        await settle(pilot, game, timeout=120)
        film = await open_film(pilot, app)
        assert film.algorithm == "alphabeta" and film.depth == game.last_search.depth
        await pilot.press("a")
        await settle(pilot, film, timeout=60)
        assert film.algorithm == "alphabeta+ordering"
