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

# A window, as the tree shows it: [any], [> v], [< v] or [v to w], v and w values as the
# panel writes them (+3, -1, +0, win in 5, loss in 4).
VALUE = r"(?:[+-]\d+|win in \d+|loss in \d+)"
WINDOW = re.compile(rf"\[(?:any|> {VALUE}|< {VALUE}|{VALUE} to {VALUE})\]")


@pytest.mark.parametrize("alpha, beta, text", [
    (-INF, INF, "[any]"),
    (-1, INF, "[> -1]"),
    (-INF, 3, "[< +3]"),
    (-1, 3, "[-1 to +3]"),
    (0, INF, "[> +0]"),
    (WIN - 2, INF, "[> win in 2]"),
    (-INF, -(WIN - 4), "[< loss in 4]"),
    (-(WIN - 4), 5, "[loss in 4 to +5]"),
])
def test_a_window_reads_in_the_panels_words_with_no_infinity(alpha, beta, text):
    # It was [-1,+∞] and [win in 2,+∞]: numbers, symbols and words in one bracket.
    assert window_text(alpha, beta) == text
    assert WINDOW.fullmatch(text)


def test_bounds_read_as_the_panels_values_with_a_sign_before_them():
    assert bound_text(16, "upper") == "≤ +16"
    assert bound_text(WIN - 3, "lower") == "≥ win in 3"
    assert bound_text(0, "exact", proven=True) == "draw"
    assert bound_text(0, "upper", proven=True) == "≤ +0"  # a bound on 0 is no proven draw


def test_the_help_explains_a_window_in_the_form_the_tree_shows():
    text = help_text("tictactoe")
    assert "[> v]" in text and "[any]" in text


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
