"""``tui-games connect4 solve/analyze``, ``bench connect4`` and ``play connect4``: output
formats, batch behaviour with bad lines, one-line errors, option validation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest
from cli_support import assert_usage_error, run

DATA = Path(__file__).parents[2] / "puzzles"






pytestmark = pytest.mark.usefixtures("home")  # never the user's real data directory


# -- solve ---------------------------------------------------------------------------------------------


def test_solve_arguments(capsys):
    code, out, err = run(capsys, "connect4", "solve", "4455", "44455554221")
    assert code == 0 and err == ""
    assert out == "4455 18\n44455554221 -15\n"


def test_solve_weak_and_json(capsys):
    lost = "2252576253462244111563365343671351441"
    code, out, _ = run(capsys, "connect4", "solve", "--weak", "4455", "44455554221", lost)
    assert out == "4455 1\n44455554221 -1\n2252576253462244111563365343671351441 -1\n"
    code, out, _ = run(capsys, "connect4", "solve", "--json", "4455")
    record = json.loads(out)
    assert record["moves"] == "4455" and record["score"] == 18
    assert record["nodes"] == 0 and record["seconds"] >= 0
    assert set(record) == {"moves", "score", "nodes", "seconds", "source"}
    # 4455 has four discs: its score is in the opening book's table of early positions.
    assert record["source"] == "opening book"
    code, out, _ = run(capsys, "connect4", "solve", "--json", "52753311433677442422121")
    record = json.loads(out)
    assert record["score"] == 8 and record["source"] == "exact solver"
    assert isinstance(record["nodes"], int) and record["nodes"] > 0


def test_solve_stdin_ignores_the_score_field(capsys, monkeypatch):
    lines = (DATA / "bench_connect4_Test_L3_R1.txt").read_text().splitlines()[:20]
    code, out, err = run(capsys, "connect4", "solve", stdin="\n".join(lines) + "\n", monkeypatch=monkeypatch)
    assert code == 0 and err == ""
    assert out.splitlines() == lines


def test_solve_batch_answers_the_other_lines_and_fails_at_the_end(capsys, monkeypatch):
    stdin = "4455 18\n12348\n\n# a comment\n3333333 0\n44455554221\n4455 x\n4455 1 2\n"
    code, out, err = run(capsys, "connect4", "solve", stdin=stdin, monkeypatch=monkeypatch)
    assert code == 2
    assert out == "4455 18\n44455554221 -15\n"
    assert err.splitlines() == [
        "tui-games: error: line 2: move 5 ('8') in '12348': column 8 is not 1-7",
        "tui-games: error: line 5: move 7 ('3') in '3333333': column 3 is full",
        "tui-games: error: line 7: 'x' is not a score",
        "tui-games: error: line 8: expected MOVES or MOVES SCORE, got 3 fields",
    ]


def test_solve_batch_json(capsys, monkeypatch):
    code, out, err = run(capsys, "connect4", "solve", "--json", stdin="4455\n1212121212\n44455554221\n",
                         monkeypatch=monkeypatch)
    assert code == 2
    assert [json.loads(line)["score"] for line in out.splitlines()] == [18, -15]
    assert err == "tui-games: error: line 2: move 8 ('2') in '1212121212': the game was already over\n"


@pytest.mark.parametrize(
    "moves, fragment",
    [
        ("12348", "move 5 ('8') in '12348': column 8 is not 1-7"),
        ("3333333", "move 7 ('3') in '3333333': column 3 is full"),
        ("12121212", "move 8 ('2') in '12121212': the game was already over"),
        ("4a", "'a' is not a column digit 1-7"),
    ],
)
def test_one_bad_position_is_a_one_line_error(capsys, moves, fragment):
    assert_usage_error(*run(capsys, "connect4", "solve", moves), fragment)
    assert_usage_error(*run(capsys, "connect4", "analyze", moves), fragment)


def test_solve_finished_game(capsys):
    code, out, _ = run(capsys, "connect4", "solve", "1212121")
    assert code == 0 and out == "1212121 -18\n"


# -- analyze -------------------------------------------------------------------------------------------


def test_analyze(capsys):
    code, out, err = run(capsys, "connect4", "analyze", "44455554221")
    assert code == 0 and err == ""
    assert out == "-15 -15 -15 -15 -15 -15 -15\n"
    code, out, _ = run(capsys, "connect4", "analyze", "445566")
    assert out.split()[2] == "18" and out.split()[6] == "18"


def test_analyze_full_column_and_json(capsys):
    moves = "2252576253462244111563365343671351441"  # columns 1 to 5 are full
    code, out, _ = run(capsys, "connect4", "analyze", moves)
    scores = out.split()
    assert len(scores) == 7 and "-" in scores
    from tui_games.engine.connect4.position import Connect4

    pos = Connect4.parse(moves)
    assert [s == "-" for s in scores] == [not pos.can_play(c) for c in range(7)]
    assert max(int(s) for s in scores if s != "-") == -1
    code, out, _ = run(capsys, "connect4", "analyze", moves, "--json")
    record = json.loads(out)
    assert record["scores"] == [None if s == "-" else int(s) for s in scores]
    code, out, _ = run(capsys, "connect4", "analyze", moves, "--weak")
    assert out.split() == ["-" if s == "-" else str((int(s) > 0) - (int(s) < 0)) for s in scores]


def test_analyze_a_finished_game_is_bad_input_not_seven_full_columns(capsys):
    # '-' is a full column; a game that a four ended has moves left in every column.
    code, out, err = run(capsys, "connect4", "analyze", "1212121")
    assert_usage_error(code, out, err, "'1212121': the game is over (X has four in a row)")


def test_analyze_the_empty_board(capsys):
    for argv in ([], ["-"]):
        code, out, err = run(capsys, "connect4", "analyze", *argv)
        assert code == 0 and err == "" and out == "-2 -1 0 1 0 -1 -2\n"
    code, out, _ = run(capsys, "connect4", "analyze", "--json")
    record = json.loads(out)
    assert record["moves"] == "" and record["scores"] == [-2, -1, 0, 1, 0, -1, -2]
    assert record["source"] == "opening book" and record["nodes"] == 0


def test_analyze_searches_to_the_book(capsys):
    code, out, _ = run(capsys, "connect4", "analyze", "4453", "--json")
    record = json.loads(out)
    assert record["scores"] == [-5, -5, -2, -3, -4, -2, -2]
    assert record["source"] == "search to the book" and record["nodes"] > 0
    # Without it, the same scores of a late position from the solver alone.
    code, out, _ = run(capsys, "connect4", "analyze", "44455554221", "--json", "--no-book")
    assert json.loads(out)["source"] == "exact solver"


def test_without_a_book_one_line_says_so_and_the_solver_answers(tmp_path):
    env = {**os.environ, "TUI_GAMES_CONNECT4_BOOK": str(tmp_path / "missing.dat"), "TUI_GAMES_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "tui_games", "connect4", "analyze", "44455554221"],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout == "-15 -15 -15 -15 -15 -15 -15\n"
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("tui-games: warning: cannot read opening book ")
    assert "missing.dat" in proc.stderr and "solving without the opening book" in proc.stderr


def test_connect4_needs_a_tool(capsys):
    assert_usage_error(*run(capsys, "connect4"), "connect4")


def test_real_process_exit_codes(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "tui_games", "connect4", "solve"],
        input="4455\n128\n44455554221 -15\n", capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stdout == "4455 18\n44455554221 -15\n"
    assert proc.stderr == "tui-games: error: line 2: move 3 ('8') in '128': column 8 is not 1-7\n"


# -- bench -----------------------------------------------------------------------------------------------


def test_bench_connect4_on_a_set(capsys, tmp_path):
    sample = tmp_path / "sample"
    sample.write_text("".join(line + "\n" for line in (DATA / "bench_connect4_Test_L3_R1.txt").read_text().splitlines()[:5]))
    code, out, err = run(capsys, "bench", "connect4", "--set", str(sample), "--set", str(DATA / "bench_connect4_Test_L2_R1.txt"),
                         "--limit", "3", "--quick", "--node-limit", "3000")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("machine: ")
    header = next(line for line in lines if line.startswith("set "))
    for title in ("count", "correct", "mean nodes", "median", "max nodes", "mean s", "median s", "max s", "nodes/s"):
        assert title in header
    row = next(line for line in lines if line.startswith("sample "))
    assert row.split()[1:3] == ["3", "3"]
    assert next(line for line in lines if line.startswith("Test_L2_R1 ")).split()[1:3] == ["3", "3"]
    course = lines[lines.index(next(line for line in lines if line.startswith("depth"))):]
    assert "minimax states" in course[0] and "alpha-beta states" in course[0]
    rows = [line.split() for line in course[2:] if line.strip()]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    # Depth 1 and 2 from the empty board: 1 + 7 and 1 + 7 + 49 states for minimax.
    assert rows[0][1] == "8" and rows[1][1] == "57"
    assert any("skipped" in r for r in rows)  # the 3,000-state budget stops minimax early
    assert "opening book:" not in out and "Whole games" not in out  # named sets: only those


def test_bench_connect4_default_sets_and_opening_tables(capsys):
    code, out, err = run(capsys, "bench", "connect4", "--limit", "2", "--quick", "--node-limit", "500")
    assert code == 0 and err == ""
    for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1"):
        row = next(line for line in out.splitlines() if line.startswith(name))
        assert row.split()[1:3] == ["2", "2"]
    lines = out.splitlines()
    book = next(line for line in lines if line.startswith("opening book: "))
    assert "4,200,899 records" in book and " ms " in book and "us warm" in book
    header = next(line for line in lines if line.startswith("positions "))
    for title in ("count", "mean s", "p95 s", "max s", "max nodes", "move p95", "move max", "Py mean s"):
        assert title in header
    labels = [line[:20].strip() for line in lines[lines.index(header) + 2:]][:8]
    assert labels == ["0 discs", "4 discs", "8 discs", "12 discs", "13-16 discs", "17-20 discs",
                      "Test_L1_R3 sample", "Test_L1_R3 13 discs"]
    games = {line[:20].strip(): line for line in lines if line.startswith(("perfect vs", "random vs"))}
    assert set(games) == {"perfect vs perfect", "perfect vs random", "random vs perfect"}
    # Perfect play from the empty board: the first player wins on the 41st ply.
    assert games["perfect vs perfect"].split()[4:6] == ["41", "first"]
    assert "second wins" in games["random vs perfect"] and "unsolved" not in out


def test_bench_errors(capsys, tmp_path):
    assert_usage_error(*run(capsys, "bench", "connect4", "--set", str(tmp_path / "none")), "cannot read test set")
    bad = tmp_path / "bad"
    bad.write_text("4455 18\n4455\n")
    assert_usage_error(*run(capsys, "bench", "connect4", "--set", str(bad)), "bad:2: expected 'MOVES SCORE'")
    illegal = tmp_path / "illegal"
    illegal.write_text("48 0\n")
    assert_usage_error(*run(capsys, "bench", "connect4", "--set", str(illegal)), "column 8 is not 1-7")
    assert_usage_error(*run(capsys, "bench", "tictactoe", "--set", "x"),
                       "--set does not apply to the tictactoe benchmark")
    assert_usage_error(*run(capsys, "bench", "connect4", "--limit", "0"), "must be at least 1")


# -- play ------------------------------------------------------------------------------------------------


@pytest.fixture
def fake_app(monkeypatch):
    calls = []
    module = types.ModuleType("tui_games.ui.app")
    module.run_app = lambda game=None, options=None, ascii=None: calls.append((game, options))
    monkeypatch.setitem(sys.modules, "tui_games.ui.app", module)
    return calls


def test_play_connect4_defaults_and_options(capsys, fake_app):
    assert run(capsys, "play", "connect4")[0] == 0
    code, _, err = run(capsys, "play", "connect4", "--opponent", "Level7", "--first", "computer",
                       "--full-board", "--heuristic", "Aware")
    assert code == 0, err
    assert run(capsys, "play", "connect4", "--opponent", "human")[0] == 0
    assert fake_app == [
        ("connect4", {"opponent": "perfect", "first": "human", "full_board": False, "heuristic": "default"}),
        ("connect4", {"opponent": "level7", "first": "computer", "full_board": True, "heuristic": "aware"}),
        ("connect4", {"opponent": "human", "first": "human", "full_board": False, "heuristic": "default"}),
    ]


def test_play_connect4_against_mcts_by_playouts(capsys, fake_app):
    code, _, err = run(capsys, "play", "connect4", "--opponent", "MCTS:2,000")
    assert code == 0, err
    assert fake_app == [("connect4", {"opponent": "mcts:2000", "first": "human", "full_board": False,
                                      "heuristic": "default"})]
    assert_usage_error(*run(capsys, "play", "connect4", "--opponent", "mcts:lots"),
                       "'lots' after 'mcts:' is not a whole positive number of playouts")
    # A bad count is its own sentence; the list of opponents (", or human") is for an unknown one.
    code, out, err = run(capsys, "play", "connect4", "--opponent", "mcts:0")
    assert_usage_error(code, out, err, "error: --opponent 'mcts:0': '0' after 'mcts:' is not a whole positive "
                                       "number of playouts\n")
    code, out, err = run(capsys, "play", "connect4", "--opponent", "deep-blue")
    assert_usage_error(code, out, err, "unknown opponent 'deep-blue'; choose one of ")
    assert err.endswith(", or human\n")


def test_play_connect4_uses_saved_settings(capsys, fake_app):
    from tui_games.userdata.store import Store

    Store().update_settings("connect4", opponent="level3", first="computer", heuristic="simple")
    assert run(capsys, "play", "connect4")[0] == 0
    assert fake_app == [("connect4", {"opponent": "level3", "first": "computer", "full_board": False,
                                      "heuristic": "simple"})]


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--opponent", "deep-blue"], "unknown opponent 'deep-blue'; choose one of perfect, level1"),
        (["--opponent", "level13"], "unknown opponent 'level13'"),
        (["--heuristic", "clever"], "unknown heuristic 'clever'; choose one of default, simple, aware"),
        (["--first", "robot"], "invalid choice: 'robot'"),
        (["--size", "4x4"], "unrecognized arguments: --size 4x4"),
    ],
)
def test_play_connect4_validation(capsys, fake_app, argv, fragment):
    assert_usage_error(*run(capsys, "play", "connect4", *argv), fragment)
    assert fake_app == []


def test_pure_python_gives_the_same_answer(capsys):
    moves = "52753311433677442422121"
    _, fast, _ = run(capsys, "connect4", "analyze", moves, "--json")
    _, slow, _ = run(capsys, "connect4", "analyze", moves, "--json", "--pure-python")
    a, b = json.loads(fast), json.loads(slow)
    assert a["scores"] == b["scores"] == [2, 3, 7, 7, 8, 7, 2] and a["nodes"] == b["nodes"]
