"""How values and their ranges read on screen: one formatter (tui_games/ui/text.py) for the
stats panel, the tree, Connect-4's hints and the Lab, in the same words everywhere."""

from __future__ import annotations

import re

import pytest
from ui_support import SIZE, settle

from tui_games.engine.search import INF, WIN
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.screens.help import help_text
from tui_games.ui.text import bound_text, window_text
from tui_games.ui.widgets.tree_inspector import TreeInspector

# A window, as the tree shows it: [any], [≥ v], [≤ v], [v to w], [< v] / [> v] (a proven
# search's end beside a value no game has), [≥ v?] (a null window), v and w values as the
# panel writes them (+3, -1, +0, win in 5, loss in 4, draw, wins next move …).
VALUE = r"(?:[+-]\d+|win in \d+|loss in \d+|won|lost|draw|wins next move|loses next move|wins: 2 threats|loses: 2 threats)"
END = rf"(?:[≥≤<>] {VALUE})"
WINDOW = re.compile(rf"\[(?:any|{END}|{VALUE} to {VALUE}|{END}, {END}|≥ {VALUE}\?|{VALUE})\]")


@pytest.mark.parametrize("alpha, beta, proven, text", [
    (-INF, INF, False, "[any]"),
    (-1, INF, False, "[≥ +0]"),
    (-INF, 3, False, "[≤ +2]"),
    (-1, 3, False, "[+0 to +2]"),
    (0, INF, False, "[≥ +1]"),
    (WIN - 3, INF, False, "[≥ win in 2]"),
    (-INF, -(WIN - 5), False, "[≤ loss in 4]"),
    (-(WIN - 3), 6, False, "[loss in 4 to +5]"),
    # Issue 52, finding 2: "[> -1]" beside "loss in 8" in a proven tree.
    (-1, INF, True, "[≥ draw]"),
    (-INF, 0, True, "[< draw]"),
    (-(WIN - 7), INF, True, "[≥ loss in 8]"),
    (-1, 0, True, "[≥ draw?]"),
    # and the evaluation's forced lines on 7×7 k=4: "[> -250001]".
    (-250_001, INF, False, "[≥ loses: 2 threats]"),
    (-INF, 500_001, False, "[≤ wins next move]"),
])
def test_a_window_reads_in_the_games_words_with_no_infinity(alpha, beta, proven, text):
    # It was [-1,+∞] and [win in 2,+∞]: numbers, symbols and words in one bracket.
    assert window_text(alpha, beta, proven=proven) == text
    assert WINDOW.fullmatch(text)
    assert "250001" not in text and "-1]" not in text.replace("[≤ -1]", "")


def test_the_evaluations_forced_lines_read_in_words():
    # Issue 52, finding 2: "d5 -250000" in the tree, "score +250000 (heuristic)" in the panel.
    from tui_games.engine.connect4.position import FORCED_WIN_SCORE as C4_FORCED
    from tui_games.engine.search import DOUBLE_THREAT, NEXT_MOVE_WIN
    from tui_games.engine.tictactoe.position import FORCED_WIN_SCORE as TTT_FORCED

    assert C4_FORCED == TTT_FORCED == NEXT_MOVE_WIN and NEXT_MOVE_WIN // 2 == DOUBLE_THREAT
    assert bound_text(-250_000, "exact") == "loses: 2 threats"
    assert bound_text(250_000, "lower") == "≥ wins: 2 threats"
    assert bound_text(-500_000, "upper") == "≤ loses next move"
    assert bound_text(37, "exact") == "+37"


def test_a_players_note_says_a_forced_line_in_words_and_the_clock_it_counts():
    from tui_games.engine.players import describe_result
    from tui_games.engine.search import SearchResult, SearchStats

    stats = SearchStats(depth=3, seconds=9.31, cpu_seconds=3.0, wall_seconds=9.31)
    note = describe_result(SearchResult(4, 250_000, [4], [], stats, False, False, True))
    assert note == "depth 3, stopped after 3.0 s CPU: wins: 2 threats (the evaluation sees it)"
    plain = describe_result(SearchResult(4, 12, [4], [], stats, True, False, False))
    assert plain == "depth 3: score +12 (heuristic)"


def test_bounds_read_as_the_panels_values_with_a_sign_before_them():
    assert bound_text(16, "upper") == "≤ +16"
    assert bound_text(WIN - 3, "lower") == "≥ win in 3"
    assert bound_text(0, "exact", proven=True) == "draw"
    assert bound_text(0, "upper", proven=True) == "≤ +0"  # a bound on 0 is no proven draw


def test_the_help_explains_a_window_in_the_form_the_tree_shows():
    text = help_text("tictactoe")
    assert "[≥ v]" in text and "[any]" in text


@pytest.mark.parametrize("opponent", ["level5", "perfect"])
async def test_every_tree_row_shows_its_window_in_one_form(home, opponent):
    app = TuiGamesApp("tictactoe", {"opponent": opponent, "first": "computer"})
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot, screen)
        tree = screen.query_one(TreeInspector)
        await pilot.press("t")
        for node in tree.root.children:
            node.expand()
        await pilot.pause()
        nodes = list(tree.root.children) + [child for node in tree.root.children for child in node.children]
        labels = [str(node.label) for node in nodes if "MAX" in str(node.label) or "MIN" in str(node.label)]
        assert labels
        for label in labels:
            assert "∞" not in label, label
            windows = re.findall(r"\[[^\]]*\]", label)
            assert len(windows) == 1 and WINDOW.fullmatch(windows[0]), label


def test_a_game_already_over_reads_won_or_lost_not_in_0_plies():
    assert bound_text(WIN, "exact", proven=True) == "won"
    assert bound_text(-WIN, "exact", proven=True) == "lost"
    assert bound_text(WIN - 3, "exact", proven=True) == "win in 3"
