"""Glicko-2 against the worked example of Glickman's paper, and its basic properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tui_games.server.lobby.glicko2 import Rating, after_game, update


def test_glickmans_worked_example():
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)]
    new = update(player, results, bounded=False)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_widens_the_deviation():
    new = update(Rating(1600, 100, 0.06), [], bounded=False)
    assert new.rating == 1600 and new.rd > 100


@given(st.floats(1000, 2500), st.floats(45, 350), st.floats(1000, 2500), st.floats(45, 350))
def test_a_win_never_lowers_and_a_loss_never_raises(r1, rd1, r2, rd2):
    first, second = Rating(r1, rd1), Rating(r2, rd2)
    won, lost = after_game(first, second, 1.0)
    assert won.rating >= first.rating and lost.rating <= second.rating
    assert 45 <= won.rd <= 350 and 45 <= lost.rd <= 350
    drawn, _ = after_game(first, second, 0.5)
    assert (drawn.rating - first.rating) * (r2 - r1) >= -1e-9  # a draw moves you towards the other
