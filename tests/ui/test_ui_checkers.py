"""Pilot tests of the checkers screen at 80×24: moves by keys, mouse and typed PDN, multi-jumps,
compulsory capture, draws, and PDN save/load."""

from __future__ import annotations

import re

import pytest
from ui_support import SIZE, settle, square_offset, text_of

from tui_games.engine.checkers.core import COMPILED
from tui_games.engine.checkers.pdn import read_pdn_game
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.checkers import CheckersScreen, move_list
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.widgets.checkers_board import PIECES, CheckersBoard
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector

# Black to move must take 9x18x27: a double jump over 14 and 23. The man on 1 could step,
# but the capture is compulsory.
DOUBLE_JUMP = "B:W14,23,30:B1,9"


def make_app(**options) -> TuiGamesApp:
    return TuiGamesApp("checkers", {"opponent": "human", **options})


async def goto(pilot, board: CheckersBoard, square: int) -> None:
    row, col = divmod(board.cursor, 8)
    want_row, want_col = divmod(board.display_index(square), 8)
    keys = ["down" if want_row > row else "up"] * abs(want_row - row)
    keys += ["right" if want_col > col else "left"] * abs(want_col - col)
    await pilot.press(*keys)
    assert board.cursor_square == square


async def test_a_double_jump_by_keys_one_landing_square_at_a_time(home):
    app = make_app(start=DOUBLE_JUMP)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, CheckersScreen)
        board = screen.board
        assert board.movable == {9}  # only the capturing man may be picked
        await goto(pilot, board, 9)
        await pilot.press("enter")
        assert screen.path == [9] and board.targets == {18}
        await goto(pilot, board, 18)
        await pilot.press("enter")
        assert screen.path == [9, 18] and board.targets == {27}
        assert "goes on" in text_of(screen.query_one("#status"))
        await goto(pilot, board, 27)
        await pilot.press("enter")
        pos = screen.position
        assert [str(m) for m in pos.history] == ["9x18x27"]
        assert pos.piece_at(14) is None and pos.piece_at(23) is None and pos.piece_at(27) == "b"
        assert board.captured == {14, 23} and board.last == {9, 18, 27}
        assert "9x18x27" in text_of(screen.query_one("#moves"))


async def test_a_double_jump_by_mouse(home):
    app = make_app(start=DOUBLE_JUMP)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.board
        for square in (9, 18, 27):
            await pilot.click(CheckersBoard, offset=square_offset(board, square))
        assert [str(m) for m in screen.position.history] == ["9x18x27"]


async def test_compulsory_capture_refuses_another_piece(home):
    app = make_app(start=DOUBLE_JUMP)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.board
        await goto(pilot, board, 1)
        await pilot.press("enter")
        assert screen.path == []
        assert "capture is compulsory" in text_of(screen.query_one("#status"))
        await goto(pilot, board, 9)
        await pilot.press("enter", "escape")  # Escape puts the piece back
        assert screen.path == [] and isinstance(app.screen, CheckersScreen)


async def test_typed_moves_and_bad_ones(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("1", "1", "minus", "1", "5", "enter")
        await pilot.press("2", "3", "minus", "1", "9", "enter")
        assert move_list(screen.position).split() == ["1.", "11-15", "23-19"]
        await pilot.press("1", "5", "minus", "1", "6", "enter")  # not a legal move
        assert len(screen.position.history) == 2
        await pilot.press("u")
        assert [str(m) for m in screen.position.history] == ["11-15"]


async def test_against_the_computer_the_engine_answers(home):
    app = TuiGamesApp("checkers", {"opponent": "level2"})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("1", "1", "minus", "1", "5", "enter")
        await settle(pilot, screen)
        assert len(screen.position.history) == 2
        assert screen.position.turn == 0
        assert "level 2 played" in text_of(screen.query_one("#status"))


async def test_agreed_draw_between_two_players(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("d")
        assert screen.position.outcome().reason == "agreement"
        assert "Draw by agreement" in text_of(screen.query_one("#status"))


async def test_save_and_load_pdn(home, tmp_path):
    path = tmp_path / "game.pdn"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await pilot.press("1", "1", "minus", "1", "5", "enter", "2", "3", "minus", "1", "9", "enter")
        await pilot.press("w")
        dialog = app.screen
        assert isinstance(dialog, InputDialog)
        dialog.query_one("Input").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        game = read_pdn_game(path.read_text())
        assert [str(m) for m in game.moves] == ["11-15", "23-19"]
        assert game.tags["GameType"] == "21"
        await pilot.press("n")  # a fresh game, then the saved one loaded back
        assert screen.position.history == []
        await pilot.press("r")
        app.screen.query_one("Input").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert [str(m) for m in screen.position.history] == ["11-15", "23-19"]
        assert isinstance(app.screen, CheckersScreen)


async def test_a_bad_pdn_file_is_named_in_the_dialog(home, tmp_path):
    path = tmp_path / "bad.pdn"
    path.write_text('[Event "x"]\n1. 11-15 11-15 *\n')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        dialog = app.screen
        dialog.query_one("Input").value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, InputDialog)
        assert "11-15" in text_of(app.screen.query_one("#input-error"))


async def test_the_game_in_progress_resumes(home):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1", "1", "minus", "1", "5", "enter")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert [str(m) for m in app.screen.position.history] == ["11-15"]


def board_lines(board: CheckersBoard) -> list[str]:
    return ["".join(segment.text for segment in board.render_line(y)) for y in range(10)]


async def test_numbers_name_every_dark_square_pieces_included_inside_the_border_with_the_cursor(home):
    app = make_app(opponent="human")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        board = screen.board
        await pilot.press("number_sign")
        await pilot.pause()
        lines = board_lines(board)
        text = "\n".join(lines)
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        assert sorted(numbers) == list(range(1, 33)), text
        # Each piece beside its square's number: Black's men on 1-12, White's on 21-32.
        assert "b 1" in text and "b12" in text and "w21" in text and "w32" in text, text
        for line in lines[1:9]:
            assert line[0] == line[-1] == "│" and line[1] in " [" and line[-2] in " ]", text
        # The whole board on screen beside the panel, at 80 columns.
        assert board.region.width == 42 and board.region.right <= SIZE[0]
        await goto(pilot, board, 15)
        assert "[ 15]" in board_lines(board)[1 + board.cursor // 8]
        await goto(pilot, board, 11)
        assert "[b11]" in board_lines(board)[1 + board.cursor // 8]
        await pilot.press("number_sign")
        await pilot.pause()
        assert not re.search(r"\d", "\n".join(board_lines(board)))


async def test_the_squares_grow_with_the_terminal_numbers_on_their_top_line(home):
    app = make_app(opponent="human")
    async with app.run_test(size=(160, 48)) as pilot:
        board = app.screen.board
        assert board.big and board.region.height == 8 * 3 + 2
        await pilot.press("number_sign")
        await pilot.pause()
        text = "\n".join(board_lines_all(board))
        assert sorted(int(n) for n in re.findall(r"\d+", text)) == list(range(1, 33))
        assert board.region.right <= 160


def board_lines_all(board: CheckersBoard) -> list[str]:
    return ["".join(segment.text for segment in board.render_line(y)) for y in range(board.size.height)]


def square_lines(board: CheckersBoard, square: int) -> list[str]:
    """The text of ``square``'s cells, a line each."""
    region = board.index_region(board.display_index(square))
    lines = board_lines_all(board)
    return [lines[y][region.x:region.x + region.width] for y in range(region.y, region.y + region.height)]


@pytest.mark.parametrize("pieces", ["letters", "glyphs"])
async def test_on_big_squares_the_pieces_grow_and_kings_stay_marked_even_in_ascii(home, pieces):
    # At 120×40 the squares were 7×3 and a piece one character ("b") on the middle line.
    from tui_games.ui.ascii import ascii_text

    app = make_app(opponent="human", start="B:WK14,30:B9,K1")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        board = screen.board
        board.pieces = PIECES[pieces]
        board.refresh()
        await pilot.pause()
        assert board.big
        looks = {}
        for square in (9, 1, 30, 14):  # black man, black king, white man, white king
            lines = [ascii_text(line) for line in square_lines(board, square)]
            filled = [sum(c not in " .[]0123456789" for c in line) for line in lines]
            assert sum(filled) >= 9 and sum(1 for n in filled if n) >= 2, (square, lines)
            looks[square] = "\n".join(line.replace("[", " ").replace("]", " ") for line in lines)
            looks[square] = re.sub(r"\d", " ", looks[square])
        # Four pieces, four looks: colour, and man or king, told apart by shape alone (NO_COLOR, --ascii).
        assert len(set(looks.values())) == 4, looks


# Issue 24: the computer's move and the hint record their tree for the inspector; that search
# ran in the Python core, 30 times slower than the compiled one at the command line.
GAME_24 = "W:W13,19,23,24,25,26,27,30,31,32:B1,2,3,6,7,8,12,14,16,20"


def assert_tree_matches(screen: CheckersScreen, position: CheckersPosition) -> None:
    """The inspector's tree is the last search's: its root holds the chosen move and score, its
    children the root moves' scores (all of them unless the search stopped in the iteration
    whose move it chose), recorded to the inspector's default 4 plies and searched below."""
    stats = screen.query_one(StatsPanel).last_stats
    inspector = screen.query_one(TreeInspector)
    root = inspector.root.data
    assert stats is not None and root is not None
    assert root.value == stats.score and root.best == stats.best_move
    scores = {rm.move: rm.score for rm in stats.root_moves}
    assert set(scores) == set(position.legal_moves())
    children = {child.move: child for child in root.children}
    if "stopped early" not in inspector.border_title:
        assert set(children) == set(scores)
    assert all(child.value_for_root() == scores[move] for move, child in children.items() if child.value is not None)
    assert max(node.ply for node in root.walk()) == 4
    assert any(node.truncated for node in root.walk())


@pytest.mark.skipif(not COMPILED, reason="the C core was not built (no compiler)")
async def test_the_computer_and_the_hint_search_in_the_compiled_core_with_their_tree(home):
    (home / "settings.json").write_text('{"checkers": {"seconds": 0.5}}')
    app = make_app(opponent="level8", human="black", start=GAME_24)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen, timeout=60)
        assert len(screen.position.history) == 1  # White, the computer, has moved
        engine = screen.opponent.engine
        stats = screen.query_one(StatsPanel).last_stats
        # Every node of the search but the root's visits was the compiled core's.
        assert engine.is_compiled and 0 < stats.nodes - engine.core.counters()[0] <= 2 * stats.depth
        before = screen.position.copy()
        before.pop()
        assert_tree_matches(screen, before)
        await pilot.press("i")
        await settle(pilot, screen, timeout=60)
        # The hint's search (strong, timed): its tree, recorded the same way, for this position.
        assert screen.query_one(StatsPanel).border_title == "Search · hint"
        assert_tree_matches(screen, screen.position)
