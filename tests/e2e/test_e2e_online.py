"""Two people play each other over SSH, as they would: the real server, the real OpenSSH client
in tmux at 80×24. They find each other in the lobby and play Connect-4 to a win while a third
watches; one player's client is killed mid-game and comes back; the server is stopped with
SIGTERM mid-game and started again, and the game goes on; a chat line with markup arrives as
plain text."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("ssh") is None
                       or shutil.which("ssh-keygen") is None, reason="needs tmux and the OpenSSH client"),
]
ROOT = Path(__file__).resolve().parents[2]
START = 40.0  # an app's cold start on a busy 2-core machine, with slack


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, home: Path, port: int) -> None:
        self.home, self.port, self.process = home, port, None

    def start(self) -> None:
        log = self.home / "server.log"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui_games", "serve", "--ssh", "--port", str(self.port), "--register", "open",
             "--house", "none", "--log", str(log)],
            env={**os.environ, "TUI_GAMES_HOME": str(self.home)}, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while f"127.0.0.1:{self.port}" not in (log.read_text() if log.exists() else ""):
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        # The log said "listening" before; wait for the new start's line.
        while log.read_text().count("listening") < self.starts + 1:
            time.sleep(0.1)
        self.starts += 1

    starts = 0

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=20)


class Terminals:
    """One tmux server, a window per player, each running ssh."""

    def __init__(self, name: str, port: int, keys: Path, server_log: Path | None = None) -> None:
        self.socket, self.port, self.key_dir = name, port, keys
        self.server_log = server_log  # its last lines go into a failed wait's message
        self.users: list[str] = []
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "main", "sleep 600")
        # A window whose ssh ended stays, so its last words can be read.
        self.tmux("set-option", "-g", "remain-on-exit", "on")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args], capture_output=True,
                              text=True, check=False).stdout

    def login(self, user: str) -> None:
        ssh = (f"ssh -tt -F /dev/null -p {self.port} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
               f"-o LogLevel=ERROR -o IdentitiesOnly=yes -i {self.key_dir / user} {user}@127.0.0.1")
        self.tmux("kill-window", "-t", f"main:{user}")
        if user not in self.users:
            self.users.append(user)
        self.tmux("new-window", "-d", "-t", "main", "-n", user, ssh)
        self.tmux("resize-window", "-t", f"main:{user}", "-x", "80", "-y", "24")
        self.wait(user, "Play online", START)

    def screen(self, user: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", f"main:{user}")

    def keys(self, user: str, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", "-t", f"main:{user}", key)
            time.sleep(0.3)

    def wait(self, user: str, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen(user)
            if text in " ".join(screen.split()):
                return screen
            time.sleep(0.2)
        others = "".join(f"\n{name}'s screen:\n{self.screen(name)}" for name in self.users if name != user)
        raise AssertionError(f"{user}'s screen never showed {text!r} ({self.pane_state(user)}):\n"
                             f"{self.screen(user)}{others}{self.log_tail()}")

    def pane_state(self, user: str) -> str:
        """Whether the user's ssh still runs, and if not, the status it ended with."""
        dead, status = (self.tmux("display-message", "-p", "-t", f"main:{user}",
                                  "#{pane_dead} #{pane_dead_status}").split() + ["", ""])[:2]
        return f"ssh ended with status {status}" if dead == "1" else "ssh still running"

    def log_tail(self, lines: int = 40) -> str:
        # A rare failure (seen once, under a load of 20 or more) is read from the server's side.
        if self.server_log is None or not self.server_log.exists():
            return ""
        tail = self.server_log.read_text(errors="replace").splitlines()[-lines:]
        return "\nthe server's log:\n" + "\n".join(tail)

    def kill_client(self, user: str) -> None:
        pid = int(self.tmux("list-panes", "-t", f"main:{user}", "-F", "#{pane_pid}").split()[0])
        os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        self.tmux("kill-server")


@pytest.fixture
def online(tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    for user in ("alice", "bob", "carol"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / user)], check=True)
    server = Server(tmp_path / "home", free_port())
    server.home.mkdir()
    server.start()
    terminals = Terminals(f"tui-games-online-{os.getpid()}", server.port, keys, server.home / "server.log")
    yield server, terminals
    terminals.close()
    server.stop()


def open_your_game(terminals: Terminals, user: str) -> None:
    terminals.keys(user, "o")
    terminals.wait(user, "You are")
    terminals.keys(user, "Right")  # the "Your games" tab
    terminals.wait(user, "alice v bob")
    terminals.keys(user, "Enter")
    terminals.wait(user, "alice (●) v bob (○)")


def watch(terminals: Terminals) -> None:
    terminals.keys("carol", "o")
    terminals.wait("carol", "You are")
    terminals.keys("carol", "Right", "Right")  # the "Watch" tab
    terminals.wait("carol", "alice v bob")
    terminals.keys("carol", "Enter")
    terminals.wait("carol", "watching")


def test_two_players_a_spectator_a_dropped_client_and_a_server_restart(online):
    server, terminals = online
    for user in ("alice", "bob", "carol"):
        terminals.login(user)
    # Alice waits in her lobby; her seek goes in by the command line (the dialog is tested by pilot).
    terminals.keys("alice", "o")
    terminals.wait("alice", "You are alice")
    seek = subprocess.run(
        ["ssh", "-F", "/dev/null", "-p", str(server.port), "-o", "StrictHostKeyChecking=no", "-o",
         "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-i",
         str(terminals.key_dir / "alice"),
         "alice@127.0.0.1", "seek connect4 --casual --colour first"], capture_output=True, text=True, timeout=30)
    assert seek.returncode == 0, seek.stderr
    # Bob finds it in his lobby and takes it; Alice's lobby opens the game for her.
    terminals.keys("bob", "o")
    terminals.wait("bob", "connect4")
    terminals.keys("bob", "Enter")
    terminals.wait("bob", "alice (●) v bob (○)")
    terminals.wait("alice", "your move")
    watch(terminals)

    terminals.keys("alice", "4")
    terminals.wait("bob", "your move")
    terminals.wait("carol", "bob to move")
    terminals.keys("bob", "3")
    terminals.wait("alice", "your move")

    # Carol says something with markup in it: it arrives as typed.
    terminals.keys("carol", "!")
    terminals.wait("carol", "Say to this game")
    terminals.tmux("send-keys", "-t", "main:carol", "-l", "hi [b]there[/b]")
    terminals.keys("carol", "Enter")
    terminals.wait("alice", "carol: hi [b]there[/b]")

    # Bob's client dies (SIGKILL); he logs in again and his game is there. (He counts as present
    # for a minute after his last act, so Alice's screen offers no claim meanwhile.)
    terminals.keys("alice", "4")
    terminals.wait("bob", "your move")
    terminals.kill_client("bob")
    terminals.login("bob")
    open_your_game(terminals, "bob")
    terminals.wait("bob", "your move")
    terminals.keys("bob", "3")
    terminals.wait("alice", "your move")

    # The server stops (SIGTERM) mid-game and starts again: every game goes on.
    server.stop()
    for user in ("alice", "bob", "carol"):
        terminals.wait(user, "the server is shutting down")
    server.start()
    for user in ("alice", "bob", "carol"):
        terminals.login(user)
    open_your_game(terminals, "alice")
    open_your_game(terminals, "bob")
    watch(terminals)
    terminals.wait("alice", "your move")
    terminals.keys("alice", "4")
    terminals.wait("bob", "your move")
    terminals.keys("bob", "3")
    terminals.wait("alice", "your move")
    terminals.keys("alice", "4")  # the fourth in column 4
    terminals.wait("alice", "You win")
    terminals.wait("bob", "You lose")
    terminals.wait("carol", "alice wins")
