"""The algorithm comparison: every configuration finds the same root value at every depth, and
no single-depth alpha-beta expands more states than minimax (every alpha-beta without deepening
visits a subset of minimax's tree). Deepening may cost more: it searches shallow depths again."""

from __future__ import annotations

import random

import pytest

from tui_games.engine.adapter import find_position
from tui_games.engine.compare import CONFIGS, score_words, sweep, values_agree
from tui_games.engine.search import TT, SearchLimits, search
from tui_games.games import arena_adapter, arena_specs

SINGLE_DEPTH = [c.key for c in CONFIGS if not c.deepen and c.key != "minimax"]


def check(cells) -> None:
    assert all(cell.done for cell in cells), [(c.depth, c.config.key) for c in cells if not c.done]
    assert all(values_agree(cells).values()), [(c.depth, c.config.key, c.score) for c in cells]
    by = {(c.config.key, c.depth): c for c in cells}
    for cell in cells:
        if cell.config.key in SINGLE_DEPTH:
            assert cell.nodes <= by["minimax", cell.depth].nodes, (cell.config.key, cell.depth)


def first_position(game: str):
    """The game's first library position: what the sweep uses by default."""
    adapter = arena_adapter(game)
    return adapter.library_position(adapter.positions[0])


@pytest.mark.parametrize("key, depth", [("empty", 9), ("corners", 6), ("fork", 7), ("misere", 7), ("4x4-k3", 5)])
def test_tictactoe_library(key, depth):
    entry = find_position(arena_adapter("tictactoe"), key)
    check(sweep(arena_adapter("tictactoe").library_position(entry), range(1, depth + 1), node_limit=None))


def test_tictactoe_full_tree_counts():
    cells = sweep(first_position("tictactoe"), [9], node_limit=None)
    by = {c.config.key: c for c in cells}
    assert by["minimax"].nodes == 549_946  # the whole game tree
    assert by["minimax"].leaves == 255_168  # finished games
    assert by["minimax"].exact and score_words(by["minimax"].score, True) == "draw"


@pytest.mark.parametrize("key, depth", [("empty", 5), ("4455", 5), ("middlegame", 6), ("late-draw", 6)])
def test_connect4_library(key, depth):
    entry = find_position(arena_adapter("connect4"), key)
    check(sweep(arena_adapter("connect4").library_position(entry), range(1, depth + 1), node_limit=None))


@pytest.mark.parametrize("key, depth", [("start", 4), ("ballot-133", 4), ("ending", 5)])
def test_checkers_library(key, depth):
    entry = find_position(arena_adapter("checkers"), key)
    check(sweep(arena_adapter("checkers").library_position(entry), range(1, depth + 1), node_limit=None))


def test_every_library_position_builds():
    for spec in arena_specs():
        game = arena_adapter(spec.key)
        assert game.positions, spec.key
        for entry in game.positions:
            position = game.library_position(entry)
            assert position.legal_moves(), (spec.key, entry.key)


def test_node_limit_skips_what_would_not_fit():
    cells = sweep(first_position("connect4"), range(1, 8), node_limit=20_000)
    minimax = [c for c in cells if c.config.key == "minimax"]
    assert minimax[-1].skipped and not minimax[0].skipped
    assert all(c.done for c in cells if c.config.key == "tt")


def test_deepen_flag_controls_the_iterations():
    pos = first_position("connect4")
    once = search(pos, SearchLimits(depth=6), TT, rng=random.Random(0), deepen=False)
    every = search(pos, SearchLimits(depth=6), TT, rng=random.Random(0), deepen=True)
    habit = search(pos, SearchLimits(depth=6), TT, rng=random.Random(0))
    assert once.score == every.score == habit.score
    assert once.stats.nodes < every.stats.nodes
    # The habit deepens 1..4 then jumps to 6: between the two.
    assert habit.stats.nodes <= every.stats.nodes
