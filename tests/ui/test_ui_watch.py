"""Issue 52, findings 3-6, at 80×24 and at 120×40: bounds in ASCII, the panel's clocks, text
that fits, and the tree inspector's keys (and the board showing the node selected)."""

from __future__ import annotations

import pytest
from ui_support import settle, text_of

from tui_games.engine.search import SearchStats
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.ascii import ascii_text
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector

SIZES = [(80, 24), (120, 40)]


def lines_of(widget) -> list[str]:
    """What the widget draws, line by line, as the terminal shows it."""
    return ["".join(segment.text for segment in widget.render_line(y)) for y in range(widget.size.height)]


def test_ascii_writes_a_bound_as_two_characters_that_do_not_read_as_strict():
    # Finding 3: "22-17 < -9" read as strict; the same two cells now say "<=".
    assert ascii_text("22-17 ≤ -9") == "22-17 <=-9"
    assert ascii_text("b1 MAX ≥ win in 7  [≥ draw]") == "b1 MAX >=win in 7  [>=draw]"
    assert len(ascii_text("a ≤ b ≥ c")) == len("a ≤ b ≥ c")
    # Step mode's cut-offs, in ASCII: no "?" for the Greek letters.
    assert ascii_text("β cut-off · α -∞") == "b cut-off . a -~"


@pytest.mark.parametrize("size", SIZES)
async def test_the_panel_says_which_clock_and_both_where_they_differ(home, size):
    # Finding 4: "time 9.31 s" was wall time in tic-tac-toe and CPU time in checkers, unlabelled.
    app = TuiGamesApp("tictactoe", {"opponent": "human"})
    async with app.run_test(size=size) as pilot:
        panel = app.screen.query_one(StatsPanel)
        panel.show(SearchStats(nodes=10, depth=3, seconds=9.31, cpu_seconds=3.0, wall_seconds=9.31), str)
        await pilot.pause()
        text = text_of(panel)
        assert "CPU" in text and "3.00 s" in text and "wall" in text and "9.31 s" in text, text
        assert "time" not in text
        panel.show(SearchStats(nodes=10, depth=3, seconds=1.0, cpu_seconds=1.0, wall_seconds=1.01), str)
        await pilot.pause()
        text = text_of(panel)
        assert "CPU" in text and "wall" not in text, text


@pytest.mark.parametrize("size", SIZES)
async def test_a_real_search_reports_its_cpu_time(home, size):
    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer"})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        stats = screen.query_one(StatsPanel).last_stats
        assert stats.cpu_seconds > 0 and stats.wall_seconds > 0
        assert "CPU" in text_of(screen.query_one(StatsPanel))


@pytest.mark.parametrize("size", SIZES)
async def test_the_checkers_note_is_whole_under_the_board(home, size):
    # Finding 5: at 80×24 the note ended "…stopped after 2.0 s: score".
    app = TuiGamesApp("checkers", {"opponent": "level1", "side": "white"})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        screen.status_note = "strong played 11-15: depth 23, stopped after 2.0 s CPU: score +5 (heuristic)"
        screen._set_status("White to move")
        await pilot.pause()
        status = screen.query_one("#status")
        assert status.region.bottom <= size[1] - 1  # above the key bar
        shown = " ".join(" ".join(line.split()) for line in lines_of(status))
        assert "stopped after 2.0 s CPU: score +5 (heuristic)" in shown, shown


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("board", [{}, {"rows": 4, "cols": 4, "k": 3}])
async def test_tree_rows_are_not_cut(home, size, board):
    # Finding 5: "= a2 (symmetry" and "[< loss" were cut even at 120×40 (the panels stayed 42 wide).
    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer", **board})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        tree = screen.query_one(TreeInspector)
        await pilot.press("t")
        for node in list(tree.root.children)[:3]:
            node.expand()
        await pilot.pause()
        rows = [line.rstrip() for line in lines_of(tree) if " MAX " in line or " MIN " in line]
        assert rows
        for row in rows:
            if "= " in row:
                assert "(mirror)" in row, row  # the note is whole at any size
            if size[0] >= 120:
                assert row.endswith("]"), row  # and at 120 columns the window too


@pytest.mark.parametrize("size", SIZES)
async def test_tab_and_enter_act_on_the_tree_and_a_selected_node_shows_its_board(home, size):
    # Finding 6: t focuses the tree, then Tab went back to the board and Tab, ↓, Enter played b3.
    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer"})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        played = list(screen.position.history)
        tree = screen.query_one(TreeInspector)
        await pilot.press("t")
        assert tree.has_focus
        await pilot.press("down")  # the first move of the root
        node = tree.cursor_node
        assert node is not None and node.allow_expand and not node.is_expanded
        await pilot.press("tab")
        assert tree.has_focus and node.is_expanded  # Tab folded it open, on the tree
        await pilot.press("tab")
        assert tree.has_focus and not node.is_expanded
        await pilot.press("enter")
        await pilot.pause()
        assert screen.position.history == played  # nothing was played
        board = screen.board
        assert board.position is not screen.position and screen.previewing
        assert board.position.history == [*screen.last_search.position.history, node.data.move]
        assert "Escape: the game" in text_of(screen.query_one("#status"))
        await pilot.press("escape")
        await pilot.pause()
        assert board.has_focus and board.position is screen.position and not screen.previewing
        assert app.screen is screen


@pytest.mark.parametrize("size", SIZES)
async def test_e_in_the_tree_writes_it_under_the_players_files_when_served(home, size, monkeypatch):
    import json
    from pathlib import Path

    from textual.widgets import Input

    monkeypatch.setenv("TUI_GAMES_SERVED", "1")
    app = TuiGamesApp("tictactoe", {"opponent": "perfect", "first": "computer"})
    async with app.run_test(size=size) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        await pilot.press("t", "e")
        await pilot.pause()
        field = app.screen.query_one(Input)
        field.value = "../escape.json"
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen  # refused under the field: the dialog stays
        field.value = "tree.txt"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is not screen
        field.value = "tree.json"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        written = Path(home) / "files" / "tree.json"
        document = json.loads(written.read_text(encoding="utf-8"))
        assert document["schema"] == "tui-games/search-tree/1" and document["root"]["children"]
        assert not (Path(home).parent / "escape.json").exists()


def test_the_thinking_line_names_its_clock():
    from tui_games.ui.text import clock_text

    assert clock_text(SearchStats(seconds=2.4, cpu_seconds=0.9, wall_seconds=2.4)) == "900 ms CPU, 2.40 s wall"
    assert clock_text(SearchStats(seconds=1.0, cpu_seconds=1.0, wall_seconds=1.0)) == "1.00 s CPU"
    assert clock_text(SearchStats(seconds=1.0, wall_seconds=1.0)) == "1.00 s wall"
