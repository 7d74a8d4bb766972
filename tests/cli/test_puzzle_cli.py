"""``tui-games puzzle``: the day's puzzle as text and JSON, answers judged (exit 0 right, 1
wrong, with why), and bad dates, games and answers as one line with status 2."""

from __future__ import annotations

import json
from pathlib import Path

import json_schema_check
import pytest
from cli_support import run

from tui_games.daily import parse_day, puzzle
from tui_games.engine.checkers.position import CheckersPosition

pytestmark = pytest.mark.usefixtures("home")


SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" / "schemas" / "puzzle.json").read_text())


def conforms(data) -> None:
    """``data`` is a document of docs/schemas/puzzle.json."""
    assert json_schema_check.errors(data, SCHEMA) == [], data


def test_the_json_holds_game_date_position_and_goal(capsys):
    code, out, err = run(capsys, "puzzle", "connect4", "--date", "2026-12-02", "--json")
    data = json.loads(out)
    conforms(data)
    assert code == 0 and err == ""
    assert data["game"] == "connect4" and data["date"] == "2026-12-02"
    assert data["position"] == puzzle("connect4", parse_day("2026-12-02")).position
    assert data["goal"] == "first player (X) to move: win in 3"


@pytest.mark.parametrize("game", ["tictactoe", "checkers", "sudoku"])
def test_every_games_json_conforms_to_the_schema(capsys, game):
    code, out, _ = run(capsys, "puzzle", game, "--date", "2026-12-05", "--json")
    assert code == 0
    conforms(json.loads(out))


def test_the_text_states_the_day_the_goal_and_draws_the_board(capsys):
    code, out, _ = run(capsys, "puzzle", "tictactoe", "--date", "2026-12-02")
    assert code == 0
    assert out.splitlines()[:3] == ["tictactoe puzzle of 2026-12-02 (the date given)",
                                    "goal: misère (three in a row loses): X to move forces a win",
                                    "position: ..X/.OX/.O."]
    code, out, _ = run(capsys, "puzzle", "checkers")  # today: the local zone is stated
    assert code == 0 and "time zone" in out.splitlines()[0]


def test_answers_right_and_wrong(capsys):
    made = puzzle("checkers", parse_day("2026-12-02"))
    code, out, _ = run(capsys, "puzzle", "checkers", "--date", "2026-12-02", "--answer", made.solution)
    assert code == 0 and out.startswith(f"right: {made.solution} keeps the win")
    wrong = next(str(m) for m in CheckersPosition.parse(made.position).legal_moves() if str(m) != made.solution)
    code, out, _ = run(capsys, "puzzle", "checkers", "--date", "2026-12-02", "--answer", wrong, "--json")
    conforms(json.loads(out))
    verdict = json.loads(out)["verdict"]
    assert code == 1 and not verdict["correct"] and verdict["refutation"] in verdict["why"]


@pytest.mark.parametrize("argv, problem", [
    (["puzzle", "connect4", "--date", "2026-13-01"], "--date: date '2026-13-01' is not a day like 2026-12-02"),
    (["puzzle", "connect4", "--date", "2026-12-02", "--answer", "x"], "error: --answer 'x': give one column, 1-7"),
    (["puzzle", "checkers", "--date", "2026-12-02", "--answer", "1-2"], "error: --answer: move '1-2' is not legal"),
    (["puzzle", "sudoku", "--date", "2026-12-02", "--answer", "12"], "error: --answer: give the whole grid, 81 digits"),
    (["puzzle", "tictactoe", "--date", "2026-12-02", "--answer", "zz"], "error: --answer: move 'zz' is not like b2"),
    (["puzzle", "chess"], "invalid choice: 'chess'"),
])
def test_bad_input_is_one_line(capsys, argv, problem):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and problem in err, err
