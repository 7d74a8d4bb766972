"""Pilot tests of the Connect-4 screen at 80×24."""

from __future__ import annotations

import random
import re

from textual.containers import VerticalScroll
from ui_support import SIZE, column_offset, settle, text_of

from tui_games.engine.connect4.position import Connect4
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens import game_screen
from tui_games.ui.screens.connect4 import Connect4Screen, column_words
from tui_games.ui.screens.help import HelpScreen, help_text
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.stats_panel import StatsPanel


def make_app(**options) -> TuiGamesApp:
    return TuiGamesApp("connect4", options)


async def test_game_by_keys_to_a_win(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, Connect4Screen)
        # Digits drop straight into a column; arrows move the cursor and Enter/Space/Down drop.
        await pilot.press("1", "2", "1", "2", "1", "2")
        await pilot.press("left", "enter")  # a digit also moves the cursor: from column 2 to 1
        pos = screen.position
        assert pos.format() == "1212121"
        assert pos.outcome() is not None and pos.outcome().winner == 0
        assert "● wins" in text_of(screen.query_one("#status"))
        assert len(screen.board.win_cells) == 4
        await pilot.press("u")
        assert pos.format() == "121212" and pos.outcome() is None


async def test_game_by_mouse_to_a_win(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.query_one(Connect4Board)
        for column in (0, 6, 1, 6, 2, 6, 3):  # the first player takes the bottom row
            await pilot.click(Connect4Board, offset=column_offset(board, column))
        assert screen.position.format() == "1727374"
        assert screen.position.outcome().winner == 0


async def test_full_column_is_refused(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*"333333")  # alternating discs fill column 3 without a four
        assert screen.position.format() == "333333"
        await pilot.press("3")  # a seventh disc does not fit
        assert screen.position.format() == "333333"
        assert screen.position.turn == 0


async def test_hint_shows_every_column(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        # A middle-game position from the public test set Test_L2_R1, scored +8 there: the
        # mover (the second player, 11 discs down) wins with its 14th disc, its 3rd move.
        await pilot.press(*"52753311433677442422121")
        await pilot.press("i")
        await settle(pilot, screen, timeout=60)
        status = text_of(screen.query_one("#status"))
        for column in range(1, 8):
            assert re.search(rf"[ ★]{column} (wins in \d+|draw|loses in \d+|full)", status), status
        assert "★5 wins in 3" in status and "not solved" not in status
        assert "nodes" in text_of(screen.query_one(StatsPanel))


async def test_hint_is_exact_from_the_first_move(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("i")
        await settle(pilot, screen, timeout=60)
        status = text_of(screen.query_one("#status"))
        # The empty board: only the centre wins (with the first player's 21st disc).
        for column, words in ((1, "loses in 20"), (2, "loses in 21"), (3, "draw"), (4, "wins in 21"),
                              (5, "draw"), (6, "loses in 21"), (7, "loses in 20")):
            assert re.search(rf"[ ★]{column} {words}\b", status), status
        assert "★4" in status
        panel = text_of(screen.query_one(StatsPanel))
        assert "opening book" in panel and "solved (book)" in panel
        # Four discs down: the columns (five discs) come from a search to the book's 12-disc
        # positions. 4453 scores -2 for the first player (the solver's own analysis).
        await pilot.press("4", "4", "5", "3", "i")
        await settle(pilot, screen, timeout=60)
        status = text_of(screen.query_one("#status"))
        for column, words in ((1, "loses in 15"), (3, "loses in 18"), (4, "loses in 17"), (7, "loses in 18")):
            assert re.search(rf"[ ★]{column} {words}\b", status), status
        assert "not solved" not in status
        assert "search to the book" in text_of(screen.query_one(StatsPanel))


async def test_the_hint_beside_a_perfect_opponent_shares_its_solver(home):
    app = make_app(opponent="perfect", first="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("4")
        await settle(pilot, screen, timeout=60)
        assert len(screen.position.history) == 2
        await pilot.press("i")
        await settle(pilot, screen, timeout=60)
        assert screen._advisor[1].solver is screen.opponent.solver
        assert "not solved" not in text_of(screen.query_one("#status"))


async def test_a_finished_games_player_goes_with_its_solver_at_the_next_game(home):
    # Textual frees a finished worker only at a full collection, rare in a long-lived app, and
    # the worker kept the job that holds the player: every new game against the perfect
    # player kept the last one's 32 MB table (the app grew 33 MB a game in tmux).
    import gc
    import weakref

    app = make_app(opponent="perfect", first="human")
    gc.disable()
    try:
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            await pilot.press("4")
            await settle(pilot, screen, timeout=60)
            assert len(screen.position.history) == 2
            gone = weakref.ref(screen.opponent)
            await pilot.press("n")
            await settle(pilot, screen, timeout=60)
            await pilot.press("3")
            await settle(pilot, screen, timeout=60)
            assert len(screen.position.history) == 2 and screen.opponent is not gone()
            assert gone() is None
    finally:
        gc.enable()


async def test_computer_answers(home):
    app = make_app(opponent="level3", first="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("4")
        await settle(pilot, screen)
        assert len(screen.position.history) == 2
        assert screen.query_one(StatsPanel).last_stats.nodes > 0


async def test_full_board_variant_names_the_winner_by_fours(home):
    # A random full game (seeded) with a clear winner on the count of fours.
    for seed in range(200):
        rng = random.Random(seed)
        pos = Connect4(full_board=True)
        while pos.outcome() is None:
            pos.push(rng.choice(pos.legal_moves()))
        if pos.count_fours(0) != pos.count_fours(1):
            break
    moves = pos.format()
    assert len(moves) == 42
    app = make_app(opponent="human", full_board=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*moves)
        end = screen.position
        assert end.format() == moves and end.outcome() is not None
        status = text_of(screen.query_one("#status"))
        a, b = end.count_fours(0), end.count_fours(1)
        assert f"({a} fours to {b})" in status
        assert ("● wins" if a > b else "○ wins") in status


def test_column_words():
    # 4455: n = 4, the mover wins with its 4th disc (score 18): its 2nd move from now.
    assert column_words(18, 4) == "wins in 2"
    # 44455554221: n = 11, the opponent wins with its 7th disc (-15) after the mover's next move.
    assert column_words(-15, 11) == "loses in 1"
    assert column_words(0, 20) == "draw"
    assert column_words(None, 3) == "not solved"


# Finding 5 of issue 23: after this and a hint, the +TT+deepen row of compare ran for minutes.
LONG_COMPARE = "4444455552572"


async def hint_then_compare(pilot, screen) -> StatsPanel:
    await pilot.press(*LONG_COMPARE)
    await pilot.press("i")
    await settle(pilot, screen, timeout=120)
    await pilot.press("c")
    return screen.query_one(StatsPanel)


async def test_every_compare_row_stops_at_the_node_limit_and_its_time_column_fits(home, monkeypatch):
    monkeypatch.setattr(game_screen, "COMPARE_NODE_LIMIT", 20_000)
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        panel = await hint_then_compare(pilot, screen)
        await settle(pilot, screen, timeout=120)
        text = text_of(panel)
        names = ("minimax", "alpha-beta", "+ ordering", "+ TT", "+ deepening")
        rows = [line.split() for line in text.splitlines() if line.strip().startswith(("minimax", "alpha", "+ "))]
        rows = [[" ".join(row[:-4]), *row[-4:]] for row in rows if len(row) >= 5 and re.fullmatch(r"\d[\d.]*(ms|s)", row[-1])]
        assert [row[0].rstrip("…") for row in rows] == list(names), text
        for row in rows:
            # Stopped at the limit (…), and the time, the last column, whole: "123ms", "7.48s".
            assert row[0].endswith("…") and re.fullmatch(r"\d[\d.]*(ms|s)", row[4]), text
        assert "stopped at its node or time limit" in text


async def test_c_or_escape_stops_a_running_compare_and_keeps_the_screen(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        panel = await hint_then_compare(pilot, screen)
        for stop_key in ("c", "escape"):
            assert screen.runner.tag == "compare"
            await pilot.press(stop_key)
            assert not screen.runner.busy and app.screen is screen
            assert "stopped (c)" in text_of(panel)
            await pilot.press("c")  # the statistics again
            assert not panel.comparing
            await pilot.press("c")  # and a new comparison


async def test_the_hint_and_the_panel_each_name_their_unit(home):
    # Issue 23, finding 9: the panel counted plies ("win in 41"), the hint moves ("wins in 21").
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press(*"4444")
        await pilot.press("i")
        await settle(pilot, screen)
        status = text_of(screen.query_one("#status"))
        assert "wins in" in status and "(in your moves)" in status, status
        panel = text_of(screen.query_one(StatsPanel))
        assert "win in" in panel and "N plies" in panel, panel


async def test_question_mark_opens_the_help_on_this_games_how_to_play(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen) and app.screen.game == "connect4"
        text = help_text("connect4")
        assert text.startswith("# How to play Connect-4")
        assert "Full-board variant" in text and "in your own\nmoves" in text and "score +14" in text
        # The help covers the whole screen at 80 columns: no board border left showing.
        assert app.screen.query_one(VerticalScroll).region.width == SIZE[0]


def test_every_game_has_its_rules_in_the_help():
    text = help_text()
    for needle in ("How to play Tic-tac-toe", "Misère", "How to play Checkers", "capturing is compulsory",
                   "king", "40-move rule", "How to play Sudoku", "How to play Connect-4"):
        assert needle in text
    assert help_text("checkers").startswith("# How to play Checkers")


async def test_the_command_palette_has_the_games_commands(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        titles = [command.title for command in app.get_system_commands(screen)]
        for title in ("New game", "Hint: the best move", "Compare the algorithms", "Undo", "Play Checkers",
                      "Play Sudoku", "Lab", "Settings", "Scores", "Help", "Quit"):
            assert title in titles, titles
        await pilot.press(*"44")
        hint = next(c for c in app.get_system_commands(screen) if c.title == "Hint: the best move")
        await hint.callback()
        await settle(pilot, screen)
        assert "(in your moves)" in text_of(screen.query_one("#status"))


async def test_the_board_and_its_discs_grow_with_the_terminal(home):
    # Issue 23, finding 8: at 120×40 and more the board stayed 29×13 characters, discs dots.
    for size, cell in (((80, 24), (3, 1)), ((100, 30), (5, 2)), ((160, 48), (7, 3))):
        app = make_app(opponent="human")
        async with app.run_test(size=size) as pilot:
            screen = app.screen
            await pilot.press("4", "5")
            board = screen.board
            assert (board.cell_w, board.cell_h) == cell
            assert board.region.bottom <= size[1] and board.region.right <= size[0]
            lines = ["".join(s.text for s in board.render_line(y)) for y in range(board.size.height)]
            if cell[1] > 1:  # a solid disc and a ring, not one character each
                assert any("▟" + "█" * (cell[0] - 4) + "▙" in line for line in lines), lines
                assert any("╭" + "─" * (cell[0] - 4) + "╮" in line for line in lines), lines
