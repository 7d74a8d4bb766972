"""Two ``serve --ssh`` processes on two ports sharing one lobby (issue 26), on PostgreSQL and on
one SQLite file: alice plays on the first front end by ``ssh … move``, bob in the app on the
second, carol watches on the second (a ``watch --json`` stream and the app) and sees every move.
Then the front end holding the clocks is killed (SIGKILL) mid-game: nothing acknowledged is
lost, and the other takes the clocks over and ends the game when the flag falls.

On SQLite both front ends share the server's directory (one machine); on PostgreSQL each has a
directory of its own, as on two machines, and the players' keys are shared in the database
(identity.py): a name claimed on one front end is the same player on the other, and no other
key may take it there."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_e2e_online import START, Terminals, free_port

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("ssh") is None
                       or shutil.which("ssh-keygen") is None, reason="needs tmux and the OpenSSH client"),
]
ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "hunter2-never-shown"  # in the PostgreSQL DSN (trust auth ignores it): never in a log or output


class FrontEnd:
    def __init__(self, home: Path, name: str, lobby: str | None) -> None:
        self.home, self.name, self.lobby = home, name, lobby
        self.port = free_port()
        self.log = home / f"{name}.log"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {**os.environ, "TUI_GAMES_HOME": str(self.home)}
        if self.lobby:  # by the environment, as docs/serving.md advises for a DSN (not in `ps`)
            env["TUI_GAMES_LOBBY_DB"] = self.lobby
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", str(self.port), "--register", "open",
             "--house", "none", "--log", str(self.log)],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while f"127.0.0.1:{self.port}" not in (self.log.read_text() if self.log.exists() else ""):
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} did not start: {self.process.stderr.read().decode()[-800:]}")
            assert time.monotonic() < deadline, f"{self.name} did not start"
            time.sleep(0.1)

    @property
    def id(self) -> str:
        line = next(line for line in self.log.read_text().splitlines() if "listening" in line)
        return line.split("frontend=")[1].split()[0]

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=30)


@pytest.fixture(params=["sqlite", "postgresql"])
def fronts(request, tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    for user in ("alice", "bob", "carol"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / user)], check=True)
    home = tmp_path / "home"
    home.mkdir()
    lobby = None
    other_home = home
    if request.param == "postgresql":
        dsn = request.getfixturevalue("postgres").new_database()
        lobby = dsn.replace("postgresql://tui@", f"postgresql://tui:{PASSWORD}@")
        other_home = tmp_path / "home-two"  # as on another machine: nothing shared but the database
        other_home.mkdir()
    one, two = FrontEnd(home, "one", lobby), FrontEnd(other_home, "two", lobby)
    one.start()  # first: it takes the clocks' lease
    two.start()
    yield one, two, keys, request.param, (lobby or str(home / "server" / "lobby.sqlite3"))
    for front in (one, two):
        front.stop()
    for front in (one, two):
        text = front.log.read_text()
        assert PASSWORD not in text and "Traceback" not in text, text[-2000:]


def ssh(port: int, keys: Path, user: str, command: str) -> tuple[int, str, str]:
    done = subprocess.run(
        ["ssh", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no", "-o",
         "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
         "-i", str(keys / user), f"{user}@127.0.0.1", command], capture_output=True, text=True, timeout=60)
    assert PASSWORD not in done.stdout + done.stderr
    return done.returncode, done.stdout, done.stderr


def game_row(database: str, game: str) -> dict:
    """The game as the database holds it (not through a front end, which would end it if late)."""
    if database.startswith("postgresql"):
        import psycopg

        with psycopg.connect(database) as db:
            status, reason, moves = db.execute("SELECT status, reason, moves FROM games WHERE id=%s",
                                               (game,)).fetchone()
    else:
        with sqlite3.connect(database) as db:
            status, reason, moves = db.execute("SELECT status, reason, moves FROM games WHERE id=?",
                                               (game,)).fetchone()
    return {"status": status, "reason": reason, "moves": json.loads(moves)}


def set_clock(database: str, game: str, column: str, seconds: float) -> None:
    """What is left on one side's clock, written straight into the database: as if that player
    had thought for a minute while nobody asked (a test does not wait the minute)."""
    if database.startswith("postgresql"):
        import psycopg

        with psycopg.connect(database) as db:
            db.execute(f"UPDATE games SET {column}=%s WHERE id=%s", (seconds, game))
    else:
        with sqlite3.connect(database) as db:
            db.execute(f"UPDATE games SET {column}=? WHERE id=?", (seconds, game))


class Stream:
    """``ssh … watch GAME --json``: the events, read as they come."""

    def __init__(self, port: int, keys: Path, user: str, game: str) -> None:
        self.events: list[dict] = []
        self.process = subprocess.Popen(
            ["ssh", "-F", "/dev/null", "-p", str(port), "-o", "StrictHostKeyChecking=no", "-o",
             "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o",
             "LogLevel=ERROR", "-i", str(keys / user), f"{user}@127.0.0.1", f"watch {game} --json"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def read_to_the_end(self, timeout: float = 60) -> list[dict]:
        out, _ = self.process.communicate(timeout=timeout)
        self.events = [json.loads(line) for line in out.splitlines() if line.strip()]
        return self.events


def test_a_game_across_two_front_ends_by_commands_and_in_the_app(fronts):
    one, two, keys, backend, database = fronts
    # bob and carol are in the app on the second front end.
    apps = Terminals(f"tui-games-fronts-{os.getpid()}-{backend}", two.port, keys)
    try:
        for user in ("bob", "carol"):
            apps.login(user)
        status, out, err = ssh(one.port, keys, "alice", "seek connect4 --casual --colour first --json")
        assert status == 0, err
        # Bob finds alice's seek in his lobby (pushed across) and takes it in the app.
        apps.keys("bob", "o")
        apps.wait("bob", "connect4", START)
        apps.keys("bob", "Enter")
        apps.wait("bob", "alice (●) v bob (○)")
        status, out, _ = ssh(one.port, keys, "alice", "games --json")
        game = json.loads(out)[0]["id"]
        stream = Stream(two.port, keys, "carol", game)  # carol's stream on the second front end
        apps.keys("carol", "o")
        apps.wait("carol", "You are")
        apps.keys("carol", "Right", "Right")  # the "Watch" tab
        apps.wait("carol", "alice v bob")
        apps.keys("carol", "Enter")
        apps.wait("carol", "watching")
        for turn in range(3):
            status, _, err = ssh(one.port, keys, "alice", f"move {game} 4")
            assert status == 0, err
            apps.wait("bob", "your move")
            apps.keys("bob", "3")
            deadline = time.monotonic() + 20
            while len(game_row(database, game)["moves"]) < 2 * turn + 2:
                assert time.monotonic() < deadline, "bob's move never reached the lobby"
                time.sleep(0.1)
        status, out, err = ssh(one.port, keys, "alice", f"move {game} 4")  # the fourth in column 4
        assert status == 0 and "alice won" in out, err
        apps.wait("bob", "You lose")
        apps.wait("carol", "alice wins")
        events = stream.read_to_the_end()
        moves_seen = [len(e["data"]["moves"]) for e in events if e["event"] in ("move", "end")]
        assert moves_seen == [1, 2, 3, 4, 5, 6, 7] and events[-1]["event"] == "end"
        assert events[-1]["data"]["winner"] == "alice" and events[-1]["data"]["moves"] == list("4343434")
    finally:
        apps.close()


def test_killing_the_clocks_front_end_mid_game_loses_nothing_and_the_flag_still_falls(fronts):
    one, two, keys, backend, database = fronts
    status, out, err = ssh(one.port, keys, "alice", "seek connect4 --clock 1+0 --colour first --json")
    assert status == 0, err
    status, out, err = ssh(two.port, keys, "bob", f"accept {json.loads(out)['id']} --json")
    assert status == 0, err
    game = json.loads(out)["game"]
    played = []
    for user, front, column in (("alice", one, "4"), ("bob", two, "4"), ("alice", one, "5")):
        status, out, err = ssh(front.port, keys, user, f"move {game} {column} --json")
        assert status == 0, err  # acknowledged
        played.append(column)
    one_id = one.id
    stream = Stream(two.port, keys, "carol", game)
    one.kill()  # mid-game, holding the clocks, without a word
    assert game_row(database, game) == {"status": "live", "reason": None, "moves": played}
    # Bob is to move; his minute "passes" (written into the database) with nobody asking.
    set_clock(database, game, "left_second", 1.0)
    deadline = time.monotonic() + 30  # the lease lasts 5 s; the rest is slack for a busy machine
    while game_row(database, game)["status"] != "over":
        assert time.monotonic() < deadline, "the flag never fell after the front end died"
        time.sleep(0.1)
    assert game_row(database, game) == {"status": "over", "reason": "time", "moves": played}
    assert "lease took=clocks" in two.log.read_text()
    ended = stream.read_to_the_end()[-1]
    assert ended["event"] == "end" and ended["data"]["winner"] == "alice" and ended["data"]["reason"] == "time"
    # Alice, whose front end is gone, logs in on the other: the same name, the game and her rating.
    status, out, err = ssh(two.port, keys, "alice", "ratings connect4 --json")
    assert status == 0 and [r["player"] for r in json.loads(out)] == ["alice", "bob"], err
    # And nobody else's key takes her name there.
    impostor = subprocess.run(
        ["ssh", "-F", "/dev/null", "-p", str(two.port), "-o", "StrictHostKeyChecking=no", "-o",
         "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes", "-o", "LogLevel=ERROR",
         "-i", str(keys / "carol"), "alice@127.0.0.1", "games"], capture_output=True, text=True, timeout=60)
    assert impostor.returncode == 255 and "Permission denied" in impostor.stderr
    assert one_id != two.id
