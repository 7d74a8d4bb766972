"""``tui-games tournament``: a round robin with a crosstable and Elo; --jobs 2 gives the same
games as --jobs 1 for depth-limited players (bot files among them); the series are kept with
the arena runs; a bad player is one line before any game."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from cli_support import assert_usage_error, run

from tui_games.commands.progress import ProgressLine
from tui_games.commands.tournament import Counter
from tui_games.engine.arena import elo_estimates, round_robin
from tui_games.userdata.store import Store

FIRST_MOVE = "def choose(position):\n    return position.legal_moves()[0]\n"
CENTRE_EVAL = "def evaluate(position):\n    return 0\n"


def games_of(data: dict) -> list:
    return [(p["a"], p["b"], p["moves"], p["a_wins"], p["draws"], p["b_wins"], p["forfeits"]) for p in data["pairs"]]


@pytest.mark.parametrize(
    "game, players",
    [
        ("tictactoe", ["level1", "level2", "random", "rule-based", "FIRST", "level2:EVAL"]),
        ("connect4", ["level2", "level1:simple", "FIRST"]),
        # From the ballots: each pair's games share one, drawn by the pair's seed.
        ("checkers", ["level1", "level2", "level1:MATERIAL"]),
    ],
)
def test_jobs_two_plays_the_same_tournament_as_jobs_one(capsys, home, game, players):
    (home / "first.py").write_text(FIRST_MOVE)
    (home / "flat.py").write_text(CENTRE_EVAL)
    material = Path(__file__).resolve().parents[2] / "examples" / "checkers_material.py"
    players = [
        p.replace("FIRST", str(home / "first.py"))
        .replace("EVAL", str(home / "flat.py"))
        .replace("MATERIAL", str(material))
        for p in players
    ]
    runs = []
    for jobs in ("1", "2"):
        code, out, err = run(
            capsys, "tournament", game, *players, "--games", "2", "--seed", "7", "--jobs", jobs, "--json", "--no-save"
        )
        assert code == 0 and err == "", err
        assert out.count("\n") == 1
        runs.append(json.loads(out))
    one, two = runs
    assert games_of(one) == games_of(two)
    assert one["players"] == two["players"]
    count = len(players)
    assert len(one["pairs"]) == count * (count - 1) // 2
    for line in one["players"]:
        assert set(line) >= {"name", "games", "wins", "draws", "losses", "score", "elo", "elo_error"}
        assert line["games"] == 2 * (count - 1) == line["wins"] + line["draws"] + line["losses"]
        assert line["score"] == line["wins"] + line["draws"] / 2
    assert abs(sum(line["elo"] for line in one["players"])) < 1


def test_the_table_the_crosstable_and_the_saved_series(capsys, home):
    code, out, err = run(
        capsys, "tournament", "tictactoe", "perfect", "level1", "random", "--games", "4", "--seed", "1"
    )
    assert code == 0 and err == ""
    assert "\r" not in out + err  # no progress line when the output is not a terminal
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = {line.split()[1]: line.split() for line in lines if line[:3].strip() in ("1", "2", "3")}
    # perfect never loses; random scores nothing against perfect.
    assert rows["perfect"][2] == "·" and rows["perfect"][-4] == "0"
    assert rows["random"][2] == "0"
    runs = Store().arena_runs()
    assert len(runs) == 3
    assert [(r["a"], r["b"]) for r in runs] == [("perfect", "level1"), ("perfect", "random"), ("level1", "random")]
    assert all(r["tournament"]["seed"] == 1 and r["tournament"]["pairs"] == 3 for r in runs)


def test_a_bad_player_is_one_line_before_any_game(capsys, home):
    code, out, err = run(capsys, "tournament", "tictactoe", "perfect", str(home / "nobot.py"), "random")
    assert_usage_error(code, out, err, "does not exist")
    assert "player 2" in err
    code, out, err = run(capsys, "tournament", "tictactoe", "perfect")
    assert_usage_error(code, out, err, "at least two players")
    assert Store().arena_runs() == []


def test_the_progress_line_counts_the_games(monkeypatch):
    out = io.StringIO()
    counter = Counter(ProgressLine(4, shown=True, stream=out))
    for _ in range(4):
        counter.add()
    counter.line.clear()
    assert "4/4 games" in out.getvalue() and out.getvalue().endswith("\r")


def test_elo_orders_the_players_and_stays_finite():
    # 0 beats 1 and 2 every time; 1 and 2 draw: 0 on top, 1 and 2 equal, all finite.
    results = [(0, 1, 1.0)] * 10 + [(0, 2, 1.0)] * 10 + [(1, 2, 0.5)] * 10
    (e0, s0), (e1, s1), (e2, s2) = elo_estimates(3, results)
    assert e0 > 200 > 0 > e1 and abs(e1 - e2) < 1e-6 and abs(e0 + e1 + e2) < 1e-6
    assert 0 < s1 < s0 < 1000
    assert round_robin(3) == [(0, 1), (0, 2), (1, 2)]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_a_tournament_in_one_line_and_leaves_no_process(home, jobs):
    import os
    import signal
    import subprocess
    import sys
    import time

    pids = home / "pids"
    pids.mkdir()
    (home / "slow.py").write_text(
        "import os, time\n\ndef choose(position):\n"
        f"    open(os.path.join({str(pids)!r}, str(os.getpid())), 'w').close()\n"
        "    time.sleep(0.2)\n    return position.legal_moves()[0]\n"
    )
    run_it = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui_games",
            "tournament",
            "tictactoe",
            str(home / "slow.py"),
            "level1",
            "random",
            "--games",
            "20",
            "--jobs",
            jobs,
            "--no-save",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not any(pids.iterdir()) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.killpg(run_it.pid, signal.SIGINT)  # what Ctrl+C on its terminal does
    out, err = run_it.communicate(timeout=60)
    assert run_it.returncode == 130 and out == "" and err == "tui-games: interrupted\n", err
    # Each bot's process ends with its parent (or, orphaned, at its next look): a bound of its
    # own, not what the start left of the first one on a busy machine.
    deadline = time.monotonic() + 60
    for name in os.listdir(pids):
        while time.monotonic() < deadline:
            try:
                os.kill(int(name), 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            raise AssertionError(f"the bot's process {name} outlived the tournament")


def test_a_local_dask_cluster_plays_the_same_tournament_as_jobs_one(capsys, home):
    """--cluster local:2: the series as tasks on two Dask workers (processes), a bot file's
    child process among them, and the same table as --jobs 1."""
    pytest.importorskip("distributed")
    (home / "first.py").write_text(FIRST_MOVE)
    players = ["level1", "level2", str(home / "first.py")]
    runs = []
    for how in (["--jobs", "1"], ["--cluster", "local:2"]):
        code, out, err = run(capsys, "tournament", "tictactoe", *players, "--games", "2", "--seed", "3", *how,
                             "--json", "--no-save")
        assert code == 0, err
        runs.append(json.loads(out))
    one, cluster = runs
    assert games_of(one) == games_of(cluster)
    assert one["players"] == cluster["players"]
    # The bot played its games on the workers (its child process started there), no forfeit.
    assert all(not p["forfeits"] for p in cluster["pairs"])


@pytest.mark.parametrize("address, words", [
    ("local:0", "local:N takes 1 to 256 workers"),
    ("local:x", "local:N takes 1 to 256 workers"),
    ("nowhere", "give local:N or a scheduler's address"),
])
def test_a_bad_cluster_address_is_one_line_before_any_game(capsys, home, address, words):
    code, out, err = run(capsys, "tournament", "tictactoe", "level1", "level2", "--cluster", address, "--no-save")
    assert_usage_error(code, out, err, words)


@pytest.mark.parametrize("address, words", [
    ("foo://x:1", "--cluster foo://x:1: not a scheduler's address (unknown address scheme 'foo'"),
    ("host:abc", "--cluster host:abc: not a scheduler's address ("),
])
def test_an_address_dask_cannot_read_is_one_line(capsys, home, address, words):
    """Dask's Client refuses these with ValueError/TypeError (an unknown scheme, a port that is
    no number), not the OSError of a scheduler that does not answer."""
    pytest.importorskip("distributed")
    code, out, err = run(capsys, "tournament", "tictactoe", "level1", "level2", "--cluster", address, "--no-save")
    assert_usage_error(code, out, err, words)
