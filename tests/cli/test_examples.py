"""The worked bots of examples/ play as their pages say, and ``new-bot`` writes a file that
plays: a student's minimax draws every game against perfect."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

from cli_support import assert_usage_error, run

from tui_games.games import arena_adapter

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def arena(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, "arena", *argv, "--json", "--no-save")
    assert code == 0, err
    return json.loads(out)


def test_the_tictactoe_minimax_draws_every_game_against_perfect(capsys, home):
    data = arena(
        capsys,
        "tictactoe",
        "--a",
        str(EXAMPLES / "tictactoe_minimax.py"),
        "--b",
        "perfect",
        "--games",
        "10",
        "--seed",
        "3",
    )
    assert data["forfeits"] == 0
    assert data["draws"] == 10, [g["moves"] for g in data["game_list"]]
    # and it wins against random whenever random errs: never a loss
    data = arena(
        capsys,
        "tictactoe",
        "--a",
        str(EXAMPLES / "tictactoe_minimax.py"),
        "--b",
        "random",
        "--games",
        "10",
        "--seed",
        "3",
    )
    assert data["b_wins"] == 0 and data["a_wins"] > 0


def test_the_connect4_alphabeta_beats_random_and_counts_threats(capsys, home):
    data = arena(
        capsys,
        "connect4",
        "--a",
        f"{EXAMPLES / 'connect4_alphabeta.py'}@0.2",
        "--b",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    )
    assert data["forfeits"] == 0 and data["a_wins"] == 2
    bot = runpy.run_path(str(EXAMPLES / "connect4_alphabeta.py"))
    game = arena_adapter("connect4")
    # X holds b1 c1 d1 (columns 2-4) with a1 and e1 empty: two threats; O (two discs in column 7) to move.
    position = game.start({}, "27374")
    assert bot["threats"](position) == (0, 2)  # O to move: X holds two threats, O none


def test_the_checkers_material_evaluation_is_material_from_the_side_to_move(capsys, home):
    ev = runpy.run_path(str(EXAMPLES / "checkers_material.py"))["evaluate"]
    game = arena_adapter("checkers")
    assert ev(game.start({})) == 0
    # Black: a man and a king; White: one man. Black to move: +150; White to move: -150.
    assert ev(game.start({}, "B:W32:B1,K5")) == 150
    assert ev(game.start({}, "W:W32:B1,K5")) == -150
    data = arena(
        capsys,
        "checkers",
        "--a",
        f"level2:{EXAMPLES / 'checkers_material.py'}",
        "--b",
        "random",
        "--games",
        "2",
        "--seed",
        "1",
    )
    assert data["forfeits"] == 0 and data["a_wins"] == 2
    assert data["a_name"] == "level 2 (checkers_material.py)"


def test_new_bot_writes_a_file_that_plays_and_never_overwrites(capsys, home, monkeypatch):
    monkeypatch.chdir(home)
    code, out, err = run(capsys, "new-bot", "connect4")
    assert code == 0 and err == "" and "connect4_bot.py" in out
    path = home / "connect4_bot.py"
    text = path.read_text()
    assert "def choose(position)" in text and "def minimax_choose(position)" in text
    before = text
    code, out, err = run(capsys, "new-bot", "connect4")
    assert_usage_error(code, out, err, "exists already")
    assert path.read_text() == before
    for spec in (str(path), f"{path}:minimax_choose"):
        data = arena(capsys, "connect4", "--a", spec, "--b", "random", "--games", "2", "--seed", "2")
        assert data["forfeits"] == 0
    code, out, err = run(capsys, "new-bot", "sudoku")
    assert_usage_error(code, out, err, "no bots for sudoku")
