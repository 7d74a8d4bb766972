"""Loose guards on what the app sends a terminal (the real figures are in
`tui-games bench terminal` and docs/performance.md): a full-screen repaint per keypress, or anything
animating while idle, would break these by an order of magnitude."""

from __future__ import annotations

import sys

import pytest

from tui_games.bench.terminal_probe import measure_screen, screens

pytestmark = [pytest.mark.e2e, pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")]

# The budget is 700 bytes a keypress (issue: median in truecolor at 80×24); ten times that is
# a full repaint of the screen, which is what this catches.
KEY_LIMIT = 7000


@pytest.mark.parametrize("name", list(screens()))
def test_a_cursor_key_repaints_a_few_cells_and_idle_sends_nothing(name):
    figures = measure_screen(name, screens()[name], keys=6, idle_seconds=1.0)
    assert figures.first_draw > 5000  # the app really drew its screen
    assert figures.key_median < KEY_LIMIT, figures
    assert figures.idle_bytes == 0, figures
