"""The algorithm comparison: every configuration finds the same root value at every depth, and
no single-depth alpha-beta expands more states than minimax (every alpha-beta without deepening
visits a subset of minimax's tree). Deepening may cost more: it searches shallow depths again."""

from __future__ import annotations

import random

import pytest

from tui_games.engine.adapter import find_position
from tui_games.engine.compare import CONFIGS, score_words, sweep, values_agree
from tui_games.engine.search import TT, SearchLimits, game_value, search
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


# Issue 52, finding 1: the documented 3×3 figures, normal and misère, from the sweep (the
# Lab's Compare tab) and from `bench tictactoe --sweep`; the game screen's `c` is held to the
# same numbers in tests/ui/test_ui_tictactoe.py.
DOCUMENTED_3X3 = {"empty": (549_946, 31_697, 3_999), "misere-empty": (549_946, 19_144, 9_624)}


def empty_3x3(misere: bool):
    from tui_games.engine.tictactoe import TicTacToe

    return TicTacToe(3, 3, 3, misere)


@pytest.mark.parametrize("misere", [False, True])
def test_one_depth_rows_give_the_documented_3x3_counts(misere):
    from tui_games.engine.compare import search_cell

    expected = DOCUMENTED_3X3["misere-empty" if misere else "empty"]
    position = empty_3x3(misere)
    got = tuple(search_cell(position, config, 9, node_limit=None).nodes for config in CONFIGS[:3])
    assert got == expected
    swept = {c.config.key: c.nodes for c in sweep(position, [9], node_limit=None)}
    assert (swept["minimax"], swept["alphabeta"], swept["ordering"]) == expected


def test_bench_sweep_prints_the_documented_3x3_counts():
    from tui_games.bench.sweep import bench_sweep

    lines: list[str] = []
    bench_sweep(lines.append, game="tictactoe", depth=9, node_limit=2_000_000)
    # The states-per-depth table's row for depth 9: three counts (the MCTS table after it also
    # has rows for depth 9, with budgets and moves).
    pivot = [line.split() for line in lines if line.split()[:1] == ["9"] and "minimax" not in line
             and all(n.replace(",", "").isdigit() for n in line.split()[1:4])]
    assert pivot, lines
    assert [int(n.replace(",", "")) for n in pivot[-1][1:4]] == list(DOCUMENTED_3X3["empty"])


def test_the_documented_figures_are_on_the_game_page():
    from pathlib import Path

    page = (Path(__file__).parents[2] / "docs" / "games" / "tictactoe.md").read_text()
    for figures in DOCUMENTED_3X3.values():
        for n in figures:
            assert f"{n:,}" in page
    assert "misère" in page and "1,290,114" in page  # the deepening row's sum, said


def test_a_sweep_with_mcts_puts_it_beside_deepening_at_equal_playouts_and_judges_its_move():
    from tui_games.engine.compare import MCTS_CONFIG

    game = arena_adapter("tictactoe")
    pos = game.library_position(find_position(game, "fork"))
    cells = sweep(pos, range(1, 8), mcts=True)
    deepening = {c.depth: c for c in cells if c.config.key == "deepening"}
    mcts = {c.depth: c for c in cells if c.config is MCTS_CONFIG}
    assert sorted(mcts) == list(range(1, 8))
    for depth, cell in mcts.items():
        assert cell.nodes == deepening[depth].nodes or cell.exact  # a proven root stops early
        assert cell.move in pos.legal_moves()
    # The fork is solved by depth 7: every MCTS move is judged, against the solver's value.
    solved = deepening[7]
    assert solved.exact
    for cell in mcts.values():
        child = pos.copy()
        child.push(cell.move)
        exact = search(child, SearchLimits(depth=9), TT)
        assert exact.exact and cell.best is (game_value(-exact.score) == game_value(solved.score))
    # MCTS's heuristic values do not take part in the alpha-beta rows' agreement.
    assert all(values_agree(cells).values())
    # The same seed and budget: the same moves.
    again = {c.depth: c.move for c in sweep(pos, range(1, 8), mcts=True) if c.config is MCTS_CONFIG}
    assert again == {d: c.move for d, c in mcts.items()}


def test_where_no_depth_solves_the_position_the_game_s_judge_marks_mcts_moves():
    """A Connect-4 middle game the sweep does not solve by depth 3, but its solver knows every
    column's value: each MCTS move is marked by it (outside truth: the solver's own analysis)."""
    from tui_games.engine.compare import MCTS_CONFIG
    from tui_games.engine.connect4.solver import Solver

    game = arena_adapter("connect4")
    pos = game.library_position(find_position(game, "middlegame"))
    cells = sweep(pos, range(1, 4), mcts=True, judge=game.judge(game.variant_of(pos)))
    assert not any(c.exact for c in cells if c.config.key == "deepening")
    scores = Solver().analyze(pos)
    best = max(v for v in scores if v is not None)
    mcts = [c for c in cells if c.config is MCTS_CONFIG]
    assert len(mcts) == 3
    for cell in mcts:
        assert cell.best is ((scores[cell.move] > 0) == (best > 0) and (scores[cell.move] < 0) == (best < 0))
