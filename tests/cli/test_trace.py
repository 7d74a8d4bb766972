"""Issue 52, "a trace on the command line": ``tui-games GAME trace POSITION --depth D`` prints
the search's events one a line, and its ``enter`` lines are exactly the nodes the search's
statistics count for the same search."""

from __future__ import annotations

import json
import random

import pytest
from cli_support import assert_usage_error, run

from tui_games.engine.search import ALGORITHMS, SearchLimits, search
from tui_games.games import arena_adapter

CASES = [
    ("tictactoe", "X../.O./...", 5),
    ("tictactoe", "empty", 9),
    ("connect4", "4444", 4),
    ("checkers", "start", 3),
]


@pytest.mark.parametrize("game, position, depth", CASES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_enter_lines_are_the_nodes_the_stats_report(capsys, game, position, depth, algorithm):
    if algorithm == "minimax" and (game, depth) == ("tictactoe", 9):
        depth = 5  # the whole minimax tree is half a million lines
    code, out, err = run(capsys, game, "trace", position, "--depth", str(depth), "--algorithm", algorithm)
    assert code == 0, err
    lines = out.splitlines()
    enters = sum(line.startswith("enter ") for line in lines)
    returns = sum(line.startswith("return ") for line in lines)
    # The same search, run here: one depth, the trace's seed.
    adapter = arena_adapter(game)
    from tui_games.engine.adapter import find_position

    entry = find_position(adapter, position)
    pos = adapter.library_position(entry) if entry else adapter.start(adapter.positions[0].variant, position)
    stats = search(pos, SearchLimits(depth=depth), algorithm, deepen=False, rng=random.Random(0)).stats
    assert enters == stats.nodes == returns
    assert lines[-1].startswith(f"nodes {stats.nodes:,} (enter lines {stats.nodes:,})")
    cutoffs = [line for line in lines if line.startswith("cut-off")]
    if algorithm != "minimax":
        assert cutoffs, out[-2000:]
        assert all(" cut-off at " in line and "skipped" in line for line in cutoffs)
    else:
        assert not cutoffs


def test_a_cutoff_is_said_in_words(capsys):
    code, out, err = run(capsys, "tictactoe", "trace", "empty", "--depth", "9", "--algorithm", "ordering")
    assert code == 0
    sentences = [line for line in out.splitlines() if line.startswith("cut-off")]
    assert any("β cut-off" in s and "MIN already holds" in s and "so MAX's" in s and "cannot be chosen" in s
               for s in sentences)
    assert any("α cut-off" in s and "MAX already holds" in s for s in sentences)


def test_json_lines_carry_every_event_and_a_summary(capsys):
    code, out, err = run(capsys, "connect4", "trace", "4444", "--depth", "3", "--algorithm", "tt", "--json")
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    summary = records[-1]
    assert summary["event"] == "summary" and summary["complete"]
    kinds = {r["event"] for r in records[:-1]}
    assert {"enter", "return", "cut-off"} <= kinds
    assert sum(r["event"] == "enter" for r in records) == summary["nodes"] == summary["enter_events"]
    for record in records[:-1]:
        assert record["side"] in ("MAX", "MIN") and isinstance(record["line"], list) and record["text"]


def test_bad_input_is_one_line(capsys):
    assert_usage_error(*run(capsys, "tictactoe", "trace", "zz", "--depth", "3"), "neither a library position")
    assert_usage_error(*run(capsys, "connect4", "trace", "44", "--depth", "3", "--algorithm", "x"), "unknown algorithm")
    assert_usage_error(*run(capsys, "checkers", "trace", "start", "--depth", "99"), "more than 30")
    assert_usage_error(*run(capsys, "tictactoe", "trace", "XXX/OO./...", "--depth", "2"), "the game is over")
