"""The ``tui-games`` command: solve output, usage errors, play validation, bench, and that no
command but ``play`` imports Textual."""

from __future__ import annotations

import json
import platform
import random
import subprocess
import sys
import types

import pytest
import ttt_oracle
from cli_support import assert_usage_error, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_games import cli
from tui_games.engine.tictactoe import TicTacToe

pytestmark = pytest.mark.usefixtures("home")  # never the user's real data directory

# -- tictactoe solve ---------------------------------------------------------------------------


def test_solve_empty_board(capsys):
    code, out, err = run(capsys, "tictactoe", "solve", ".../.../...")
    assert code == 0 and err == ""
    assert out == "value: draw\nbest moves: a1 b1 c1 a2 b2 c2 a3 b3 c3\nplies: 9\n"


def test_solve_win_in_one(capsys):
    code, out, _ = run(capsys, "tictactoe", "solve", "XX./OO./...")
    assert code == 0
    assert out == "value: win\nbest moves: c1\nplies: 1\n"


def test_solve_lost_position(capsys):
    # O to move against X's fork (a2 and c1): every move loses, the fastest loss is 2 plies.
    code, out, _ = run(capsys, "tictactoe", "solve", "XO./.X./X.O")
    assert code == 0
    assert out == "value: loss\nbest moves: c1 a2 c2 b3\nplies: 2\n"


def test_solve_keeps_every_move_of_the_value_not_just_the_fastest(capsys):
    # O to move wins at once on c2, and blocking c1 first also wins (later).
    code, out, _ = run(capsys, "tictactoe", "solve", "XX./OO./...", "--to-move", "o")
    assert out == "value: win\nbest moves: c1 c2\nplies: 1\n"


def test_solve_json(capsys):
    code, out, _ = run(capsys, "tictactoe", "solve", "X../.../...", "--json")
    assert code == 0
    assert json.loads(out) == {"value": 0, "best_moves": [[1, 1]], "best_cells": ["b2"], "plies": 8}


def test_solve_finished_board(capsys):
    code, out, _ = run(capsys, "tictactoe", "solve", "XXX/OO./...", "--json")
    assert json.loads(out) == {"value": -1, "best_moves": [], "best_cells": [], "plies": 0}
    code, out, _ = run(capsys, "tictactoe", "solve", "XXX/OO./...")
    assert out == "value: loss\nbest moves: none\nplies: 0\n"


def test_solve_misere_and_k(capsys):
    # Misère: c1 would complete X's row and lose at once; c2 loses more slowly (X is then
    # forced into a line); the bottom row keeps the draw.
    code, out, _ = run(capsys, "tictactoe", "solve", "XX./OO./...", "--misere")
    assert out == "value: draw\nbest moves: a3 b3 c3\nplies: 5\n"
    code, out, _ = run(capsys, "tictactoe", "solve", "..../..../....", "--k", "3", "--json")
    assert json.loads(out)["value"] == 1


# capsys is safe to share between examples: each run reads (and so clears) it.
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(misere=st.booleans(), seed=st.integers(0, 10_000), marks=st.integers(0, 9), wide=st.booleans())
def test_solve_agrees_with_brute_force(capsys, misere, seed, marks, wide):
    rng = random.Random(seed)
    pos = TicTacToe(3, 4 if wide else 3, 3, misere)
    # The brute force on 3x4 takes seconds from the empty board; start it a few marks in.
    for _ in range(max(marks, 4) if wide else marks):
        if not pos.legal_moves():
            break
        pos.push(rng.choice(pos.legal_moves()))
    argv = ["tictactoe", "solve", pos.format(), "--k", "3", "--json"] + (["--misere"] if misere else [])
    code, out, _ = run(capsys, *argv)
    got = json.loads(out)
    value, plies = ttt_oracle.solve(pos)
    moves = ttt_oracle.move_results(pos)
    best = sorted([m // pos.cols, m % pos.cols] for m, (v, _) in moves.items() if v == value)
    names = [pos.move_name(r * pos.cols + c) for r, c in best]
    assert got == {"value": value, "best_moves": best, "best_cells": names, "plies": plies}


@pytest.mark.parametrize(
    "board, fragment",
    [
        ("X../..", "row 2 has 2 cells, row 1 has 3"),
        ("X?./.../...", "'?' is not X, O or '.'"),
        ("XXX/.../...", "impossible board: 3 X and 0 O"),
        ("XXX/OOO/X..", "both X and O have a line"),
        ("X./..", "outside 3x3 to 7x7"),
    ],
)
def test_malformed_boards_are_one_line_errors(capsys, board, fragment):
    assert_usage_error(*run(capsys, "tictactoe", "solve", board), fragment)


def test_bad_solve_options(capsys):
    assert_usage_error(*run(capsys, "tictactoe", "solve", ".../.../...", "--k", "4"), "k=4")
    assert_usage_error(*run(capsys, "tictactoe", "solve", ".../.../...", "--to-move", "Z"), "--to-move")
    assert_usage_error(*run(capsys, "tictactoe", "solve"), "BOARD")
    assert_usage_error(*run(capsys, "tictactoe", "solve", "X../.../...", "--to-move", "X"), "X cannot be to move")


def test_malformed_board_from_a_real_process():
    proc = subprocess.run(
        [sys.executable, "-m", "tui_games", "tictactoe", "solve", "XO/..."],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "tui-games: error: bad board 'XO/...': row 2 has 3 cells, row 1 has 2\n"


@pytest.mark.parametrize("argv, status", [
    (["tictactoe", "solve", "X../.O./..."], 0),
    (["bench", "nope"], 2),
    (["connect4", "solve", "4455"], 0),
    (["connect4", "analyze", "44455554221"], 0),
    (["sudoku", "hint", "003020600900305001001806400008102900700000008006708200002609500800203009005010300"], 0),
    (["checkers", "moves", "start"], 0),
    (["arena", "tictactoe", "--a", "perfect", "--b", "random", "--games", "2", "--no-save"], 0),
], ids=lambda value: " ".join(value[:2]) if isinstance(value, list) else str(value))
def test_non_play_commands_never_import_textual(argv, status):
    code = (
        "import sys\n"
        "from tui_games.cli import main\n"
        f"assert main({argv!r}) == {status}\n"
        "assert 'textual' not in sys.modules, sorted(m for m in sys.modules if 'textual' in m)\n"
        "print('clean')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("clean\n")


# -- play ------------------------------------------------------------------------------------------


@pytest.fixture
def fake_app(monkeypatch):
    """A stand-in for tui_games.ui.app: records what run_app was asked to start."""
    calls = []
    module = types.ModuleType("tui_games.ui.app")
    module.run_app = lambda game=None, options=None, ascii=None: calls.append((game, options))
    monkeypatch.setitem(sys.modules, "tui_games.ui.app", module)
    return calls


def test_play_uses_saved_options(capsys, fake_app, home):
    from tui_games.userdata.store import Store

    Store().update_settings("tictactoe", rows=4, cols=4, k=3, opponent="level2", first="computer")
    assert run(capsys, "play", "tictactoe")[0] == 0
    assert run(capsys, "play", "tictactoe", "--size", "3x3")[0] == 0
    assert fake_app == [
        ("tictactoe", {"rows": 4, "cols": 4, "k": 3, "misere": False, "opponent": "level2", "first": "computer"}),
        ("tictactoe", {"rows": 3, "cols": 3, "k": 3, "misere": False, "opponent": "level2", "first": "computer"}),
    ]


def test_play_keeps_the_last_games_rules_unless_told(capsys, fake_app, home):
    from tui_games.userdata.store import Store

    Store().update_settings("tictactoe", misere=True)
    for argv, misere in ((), True), (("--no-misere",), False), (("--misere",), True):
        assert run(capsys, "play", "tictactoe", *argv)[0] == 0
        assert fake_app.pop()[1]["misere"] is misere, argv


def test_no_command_and_bare_play_open_the_menu(capsys, fake_app):
    assert run(capsys)[0] == 0
    assert run(capsys, "play")[0] == 0
    assert fake_app == [(None, None), (None, None)]


def test_no_command_opens_the_menu_without_building_a_parser(capsys, fake_app, monkeypatch):
    # Every served player's app starts this way; argparse's parsers are most of its cost.
    def no_parser(argv=None):
        raise AssertionError("a parser was built")

    monkeypatch.setattr(cli, "build_parser", no_parser)
    assert run(capsys)[0] == 0
    assert fake_app == [(None, None)]


def test_play_tictactoe_defaults(capsys, fake_app):
    assert run(capsys, "play", "tictactoe")[0] == 0
    assert fake_app == [("tictactoe", {"rows": 3, "cols": 3, "k": 3, "misere": False,
                                      "opponent": "perfect", "first": "human"})]


def test_play_tictactoe_options(capsys, fake_app):
    code, _, err = run(capsys, "play", "tictactoe", "--size", "4x5", "--k", "4", "--misere",
                       "--opponent", "Level3", "--first", "computer")
    assert code == 0, err
    assert fake_app == [("tictactoe", {"rows": 4, "cols": 5, "k": 4, "misere": True,
                                      "opponent": "level3", "first": "computer"})]


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["--size", "9x9"], "board 9x9 is outside 3x3 to 7x7"),
        (["--size", "axb"], "--size 'axb' is not ROWSxCOLS"),
        (["--size", "4x"], "is not ROWSxCOLS"),
        (["--k", "5"], "k=5 must be from 3 to 3"),
        (["--size", "5x5", "--k", "2"], "k=2 must be from 3 to 5"),
        (["--k", "three"], "argument --k: invalid int value"),
        (["--opponent", "deep-blue"], "unknown opponent 'deep-blue'; choose one of perfect"),
        (["--opponent", "human", "--k", "4"], "k=4 must be from 3 to 3"),
        (["--opponent", "rule-based", "--size", "4x4"], "on this board choose one of perfect"),
        (["--opponent", "magic-square", "--misere"], "only plays 3x3, k=3, normal rules"),
        (["--first", "robot"], "invalid choice: 'robot'"),
    ],
)
def test_play_validation_errors(capsys, fake_app, argv, fragment):
    assert_usage_error(*run(capsys, "play", "tictactoe", *argv), fragment)
    assert fake_app == []


def test_unknown_command_and_help(capsys):
    assert_usage_error(*run(capsys, "chess"), "invalid choice: 'chess'")
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "tictactoe" in out and "bench" in out


# -- bench -----------------------------------------------------------------------------------------


def test_bench_tictactoe_quick(capsys):
    code, out, err = run(capsys, "bench", "tictactoe", "--quick")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith("machine: ") and "CPUs" in lines[0] and platform.python_version() in lines[0]
    minimax = next(line for line in lines if "minimax" in line)
    assert "549,946" in minimax and "255,168" in minimax and "draw (proven)" in minimax
    for algorithm in ("alphabeta ", "alphabeta+ordering ", "alphabeta+ordering+tt "):
        assert any(algorithm in line for line in lines), algorithm
    header = next(line for line in lines if line.startswith("board"))
    for title in ("nodes", "leaves", "cutoffs", "TT hits", "depth", "seconds", "nodes/s"):
        assert title in header


@pytest.mark.slow
def test_bench_tictactoe_full(capsys):
    code, out, _ = run(capsys, "bench", "tictactoe", "--node-limit", "20000")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("3x3", "4x4"))]
    assert sum("misere" in row for row in rows) == 5
    big = [row for row in rows if row.startswith("4x4 k=4")]
    assert len(big) == 4
    assert all("stopped at node limit" in row for row in big[:3])
    assert "alphabeta+ordering+tt +sym" in big[3] and "draw (proven)" in big[3]


def test_bench_unknown_game(capsys):
    assert_usage_error(*run(capsys, "bench", "chess"), "no benchmark for 'chess'; choose one of tictactoe")


def test_a_closed_pipe_ends_quietly_without_a_traceback(tmp_path):
    # `tui-games … | head -1`: the reader goes away after one line.
    puzzles = tmp_path / "many.txt"
    puzzles.write_text("003020600900305001001806400008102900700000008006708200002609500800203009005010300\n" * 2000)
    script = (f"import subprocess, sys\n"
              f"p = subprocess.Popen([sys.executable, '-m', 'tui_games', 'sudoku', 'grade', {str(puzzles)!r}],"
              f" stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
              f"p.stdout.readline(); p.stdout.close()\n"
              f"err = p.stderr.read().decode(); p.wait()\n"
              f"print(repr(err))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stdout and "BrokenPipe" not in done.stdout


def test_ascii_flag_reaches_the_app(capsys, monkeypatch):
    calls = []
    module = types.ModuleType("tui_games.ui.app")
    module.run_app = lambda game=None, options=None, ascii=None: calls.append((game, ascii))
    monkeypatch.setitem(sys.modules, "tui_games.ui.app", module)
    assert cli.main(["--ascii"]) == 0
    assert cli.main(["play", "--ascii"]) == 0
    assert cli.main(["play"]) == 0
    assert calls == [(None, True), (None, True), (None, None)]


@pytest.mark.parametrize("module, argv, fragment", [
    ("asyncssh", ["serve", "--ssh"], "serving over SSH needs asyncssh"),
    ("textual_serve", ["serve", "--web"], "serving on the web needs textual-serve"),
])
def test_a_missing_extra_names_both_installs(capsys, monkeypatch, tmp_path, module, argv, fragment):
    # From a checkout, pip install "tui-games[server]" fetches a released copy beside the source;
    # the README's pip install ".[server]" is the one that works there: say both.
    import tui_games.server.ssh as ssh
    import tui_games.server.web as web

    monkeypatch.setattr(ssh, "asyncssh", None)
    monkeypatch.setattr(web, "Server", None)
    code, out, err = run(capsys, *argv)
    assert_usage_error(code, out, err, fragment)
    assert 'pip install "tui-games[server]"' in err and 'pip install ".[server]"' in err
