"""``tui-games arena`` and ``tui-games bench GAME --sweep``: output shapes, exit codes, the saved
runs (arena.json: append-only, validated, a corrupt file set aside)."""

from __future__ import annotations

import json

import pytest
from cli_support import assert_usage_error, run

from tui_games.userdata.store import CorruptFile, Store


def test_arena_json_is_one_object(capsys, home):
    code, out, err = run(capsys, "arena", "tictactoe", "--a", "perfect", "--b", "random", "--games", "6",
                         "--seed", "1", "--json")
    assert code == 0 and err == ""
    assert out.count("\n") == 1
    data = json.loads(out)
    for key in ("games", "a_wins", "draws", "b_wins", "seconds"):
        assert key in data
    assert data["games"] == 6 and data["a_wins"] + data["draws"] + data["b_wins"] == 6
    assert data["b_wins"] == 0 and data["seed"] == 1 and data["swap"] is True
    assert len(data["game_list"]) == 6
    game = data["game_list"][0]
    assert game["a_side"] == 0 and game["plies"] == len(game["moves"]) == len(game["move_seconds"])
    assert game["moves"][0] in ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")
    # The same seed, the same games.
    _, again, _ = run(capsys, "arena", "tictactoe", "--a", "perfect", "--b", "random", "--games", "6",
                      "--seed", "1", "--json")
    assert [g["moves"] for g in json.loads(again)["game_list"]] == [g["moves"] for g in data["game_list"]]


def test_arena_table_and_saved_run(capsys, home):
    code, out, err = run(capsys, "arena", "tictactoe", "--a", "perfect", "--b", "rule-based", "--games", "4",
                         "--seed", "2")
    assert code == 0 and err == ""
    assert "A perfect" in out and "B rule-based" in out and "nodes/move" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    runs = Store().arena_runs()
    assert len(runs) == 1 and runs[0]["a"] == "perfect" and runs[0]["games"] == 4
    run(capsys, "arena", "tictactoe", "--a", "random", "--b", "random", "--games", "2", "--no-save")
    assert len(Store().arena_runs()) == 1


def test_arena_connect4_and_checkers(capsys, home, tmp_path):
    code, out, _ = run(capsys, "arena", "connect4", "--a", "level2:aware", "--b", "random", "--games", "2",
                       "--seed", "1", "--json", "--start", "4455")
    assert code == 0
    data = json.loads(out)
    assert data["a_name"] == "level 2 (aware)" and data["start"] == "4455"
    assert all(g["start"] == "4455" for g in data["game_list"])
    csv_path = tmp_path / "games.csv"
    code, out, _ = run(capsys, "arena", "checkers", "--a", "level2", "--b", "random", "--games", "2", "--seed", "4",
                       "--csv", str(csv_path), "-v")
    assert code == 0 and "game   1" in out and "ballot" in out
    lines = csv_path.read_text().splitlines()
    assert len(lines) == 3 and "ballot" in lines[1]


@pytest.mark.parametrize("argv, fragment", [
    (["tictactoe", "--a", "perfekt", "--b", "random"], "--a 'perfekt': unknown opponent 'perfekt'"),
    (["tictactoe", "--a", "perfect", "--b", "nobody"], "--b 'nobody'"),
    (["connect4", "--a", "level3:bogus", "--b", "random"], "unknown heuristic 'bogus'"),
    (["tictactoe", "--a", "rule-based", "--b", "random", "--size", "4x4"], "only plays 3x3"),
    (["tictactoe", "--a", "perfect", "--b", "random", "--full-board"], "--full-board does not apply"),
    (["tictactoe", "--a", "perfect", "--b", "random", "--size", "9x9"], "outside"),
    (["connect4", "--a", "perfect", "--b", "random", "--start", "12348"], "--start '12348'"),
    (["checkers", "--a", "strong@30", "--b", "random"], "seconds per move 30"),
    (["sudoku", "--a", "perfect", "--b", "random"], "one-player puzzle"),
    (["go", "--a", "perfect", "--b", "random"], "no arena for 'go'"),
    (["tictactoe", "--a", "perfect", "--b", "random", "--games", "0"], "must be at least 1"),
    (["tictactoe", "--b", "random"], "--a"),
])
def test_arena_usage_errors(capsys, home, argv, fragment):
    code, out, err = run(capsys, "arena", *argv)
    assert_usage_error(code, out, err, fragment)
    assert not (home / "arena.json").exists()


def test_bench_sweep_prints_the_table(capsys):
    code, out, err = run(capsys, "bench", "tictactoe", "--sweep", "--depth", "3", "--position", "corners")
    assert code == 0 and err == ""
    for label in ("minimax", "alpha-beta", "+ ordering", "+ TT", "+ deepening"):
        assert label in out
    assert "root values: the same for every algorithm at every depth" in out
    assert "States expanded per depth" in out
    code, out, _ = run(capsys, "bench", "connect4", "--sweep", "--depth", "2")
    assert code == 0 and "    2  minimax" in out
    code, out, _ = run(capsys, "bench", "checkers", "--sweep", "--quick", "--position", "W:WK19,K26,31:BK3,K7,12")
    assert code == 0 and "depths 1-4" in out


@pytest.mark.parametrize("argv, fragment", [
    (["sudoku", "--sweep"], "no algorithm sweep for 'sudoku'"),
    (["tictactoe", "--depth", "3"], "--depth and --position go with --sweep"),
    (["connect4", "--sweep", "--position", "xyz"], "neither a library position"),
    (["tictactoe", "--sweep", "--limit", "3"], "--limit does not apply"),
    (["tictactoe", "--sweep", "--depth", "40"], "--depth 40 is not from 1 to 20"),
])
def test_bench_sweep_usage_errors(capsys, argv, fragment):
    code, out, err = run(capsys, "bench", *argv)
    assert code == 2 and "Traceback" not in err
    assert fragment in err
    assert "error" in err and err.count("\n") == 1


# -- the store -------------------------------------------------------------------------------------


def good_run(**changes) -> dict:
    run = {"game": "tictactoe", "a": "perfect", "b": "random", "a_name": "perfect", "b_name": "random",
           "games": 2, "a_wins": 1, "draws": 1, "b_wins": 0, "seconds": 0.1, "game_list": []}
    run.update(changes)
    return run


def test_arena_runs_append(home):
    store = Store()
    assert store.arena_runs() == []
    assert store.record_arena_run(good_run())
    assert store.record_arena_run(good_run(a="level1"))
    assert [r["a"] for r in Store().arena_runs()] == ["perfect", "level1"]


@pytest.mark.parametrize("content", ["{not json", "{}", '[{"game": "tictactoe"}]',
                                     json.dumps([good_run(a_wins=5)]), json.dumps([good_run(game_list=3)])])
def test_corrupt_arena_file_is_set_aside(home, content):
    (home / "arena.json").write_text(content)
    store = Store()
    assert store.arena_runs() == []
    assert any(p.name.startswith("arena.json.corrupt-") for p in home.iterdir())
    warnings = store.take_warnings()
    assert len(warnings) == 1 and "arena.json was corrupt" in warnings[0]
    assert store.record_arena_run(good_run())
    assert len(Store().arena_runs()) == 1


def test_a_bad_run_is_refused_before_writing(home):
    with pytest.raises(CorruptFile):
        Store().record_arena_run(good_run(games="two"))
    assert not (home / "arena.json").exists()
