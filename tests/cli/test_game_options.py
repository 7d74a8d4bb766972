"""A game's own options reach the generic commands from its command module alone: Nim
(tests/nim_game.py), added to the table for a test, brings ``--stones`` and ``--take`` to
``arena`` and ``--max-stones`` to ``bench``, and its tools to the command line, with no edit to
cli.py, commands/arena.py, commands/bench.py or the bench registry."""

from __future__ import annotations

import json

import nim_game
import pytest
from cli_support import assert_usage_error, run

from tui_games.games import GAMES


@pytest.fixture
def nim():
    GAMES.append(nim_game.SPEC)
    yield nim_game
    GAMES.remove(nim_game.SPEC)


def test_its_tools_reach_the_command_line(nim, capsys):
    assert run(capsys, "nim", "solve", "8") == (0, "loss\n", "")
    assert run(capsys, "nim", "solve", "9") == (0, "win\n", "")
    assert "Nim tools" in run(capsys, "--help")[1]


def test_its_variant_options_reach_the_arena(nim, capsys, home):
    code, out, err = run(capsys, "arena", "nim", "--a", "perfect", "--b", "random", "--games", "6", "--seed", "2",
                         "--stones", "13", "--take", "2", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["variant"] == {"stones": 13, "take": 2} and data["games"] == 6
    # 13 stones, take 2: the first player wins by leaving multiples of 3, and perfect does.
    firsts = [game for game in data["game_list"] if game["a_side"] == 0]
    assert firsts and all(game["winner"] == "a" for game in firsts)
    assert all(game["start"] == "13/0" for game in data["game_list"])
    assert "nim: stones on the pile" in run(capsys, "arena", "nim", "--help")[1]


@pytest.mark.parametrize("argv, fragment", [
    (["tictactoe", "--a", "perfect", "--b", "random", "--stones", "5"], "--stones does not apply to tictactoe"),
    (["nim", "--a", "perfect", "--b", "random", "--size", "4x4"], "--size does not apply to nim"),
    (["nim", "--a", "perfect", "--b", "random", "--stones", "500"], "a pile of 0 to 99 stones"),
    (["nim", "--a", "perfect:aware", "--b", "random"], "unknown opponent 'perfect:aware'"),
])
def test_arena_refuses_another_games_option(nim, capsys, home, argv, fragment):
    code, out, err = run(capsys, "arena", *argv)
    assert_usage_error(code, out, err, fragment)
    assert not (home / "arena.json").exists()


def test_its_bench_options_reach_the_bench(nim, capsys):
    code, out, err = run(capsys, "bench", "nim", "--max-stones", "6")
    assert code == 0 and err == ""
    rows = out.splitlines()[-6:]
    assert [row.split()[0] for row in rows] == ["1", "2", "3", "4", "5", "6"]
    assert rows[3].split()[2] == "loss" and rows[4].split()[2] == "win"
    assert "nim: largest pile searched" in run(capsys, "bench", "--help")[1]
    assert_usage_error(*run(capsys, "bench", "connect4", "--max-stones", "3"),
                       "--max-stones does not apply to the connect4 benchmark")
    assert_usage_error(*run(capsys, "bench", "nim", "--logic"), "--logic does not apply to the nim benchmark")
    assert_usage_error(*run(capsys, "bench", "nim", "--sweep", "--max-stones", "3"),
                       "--max-stones does not apply to the nim benchmark")
    code, out, _ = run(capsys, "bench", "nim", "--sweep", "--depth", "3")
    assert code == 0 and "Algorithm sweep: Nim" in out
