"""End to end: the real program in a real terminal (tmux, 80×24), driven by keystrokes.

This is how a person over SSH uses it: the test types keys and reads the screen text.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from typing import Callable

import pytest

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)"),
]


class Tmux:
    def __init__(self, command: str, env: dict[str, str], width: int = 80, height: int = 24) -> None:
        self.name = f"tui-games-test-{uuid.uuid4().hex[:8]}"
        # A server of its own per session: a shared one exits when its last session closes,
        # and a test starting just then would meet a dying server.
        self.tmux = ["tmux", "-L", self.name]
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        subprocess.run(
            [*self.tmux, "new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
             f"env {exports} {command}"],
            check=True,
        )

    def keys(self, *keys: str) -> None:
        for key in keys:
            subprocess.run([*self.tmux, "send-keys", "-t", self.name, key], check=True)
            # Keys are spaced, not waited on: an Escape with the next key right behind it
            # reads as Alt+key. What a key did is checked by waiting for it on the screen.
            time.sleep(0.15)

    def screen(self) -> str:
        out = subprocess.run([*self.tmux, "capture-pane", "-p", "-t", self.name], check=True,
                             capture_output=True, text=True)
        return out.stdout

    def wait_until(self, check: Callable[[str], bool], what: str, timeout: float = 30.0) -> str:
        """The screen once ``check(screen)`` holds (a busy machine may show a frame half
        painted: the key bar a moment after the panel, a board before its last mark)."""
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if check(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{what} did not appear on screen:\n{screen}")

    def wait_for(self, *texts: str, timeout: float = 30.0) -> str:
        """The screen once every one of ``texts`` is on it."""
        return self.wait_until(lambda screen: all(text in screen for text in texts), repr(texts), timeout)

    def alive(self) -> bool:
        return subprocess.run([*self.tmux, "has-session", "-t", self.name], capture_output=True).returncode == 0

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


@pytest.fixture
def tmux_app(tmp_path):
    sessions: list[Tmux] = []

    def start(args: str, **extra: str) -> Tmux:
        env = {"TUI_GAMES_HOME": str(tmp_path), "TERM": "xterm-256color", "PATH": os.environ.get("PATH", ""),
               **extra}
        session = Tmux(f"{shlex.quote(sys.executable)} -m tui_games {args}", env)
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        session.close()


# At 80 columns the board column is the left 38; the statistics panel takes the rest.
BOARD_COLUMNS = 38


def board_rows(screen: str) -> list[str]:
    """The cell rows of the board as strings of marks ('.' for empty), read off the screen."""
    rows = []
    for line in screen.splitlines():
        stripped = line[:BOARD_COLUMNS].strip()  # the side panel, right of the board, has │ too
        if stripped[:1].isdigit() and "│" in stripped:
            cells = stripped.split("│")[1:-1]
            rows.append("".join((c.strip(" []") or ".") for c in cells))
    return rows


def test_play_tictactoe_in_tmux(tmux_app):
    t = tmux_app("play tictactoe --opponent human")
    t.wait_for("3×3, 3 in a row", "X to move")
    # X wins on the anti-diagonal c1 b2 a3 while O plays a1 and b1.
    t.keys("Enter")            # X b2 (the cursor starts in the centre)
    t.keys("Up", "Left", "Enter")      # O a1
    t.keys("Right", "Right", "Enter")  # X c1
    t.keys("Left", "Enter")            # O b1
    t.keys("Down", "Down", "Left", "Enter")  # X a3
    t.wait_until(lambda screen: "X wins" in screen and board_rows(screen) == ["OOX", ".X.", "X.."],
                 "X's win on the anti-diagonal")
    t.keys("u")
    t.wait_until(lambda screen: "X to move" in screen and board_rows(screen)[2:] == ["..."], "the undone win")
    t.keys("Escape")
    t.wait_for("Tic-tac-toe")
    t.keys("q")
    deadline = time.monotonic() + 10
    while t.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not t.alive(), "q in the menu quits the program"


def test_computer_answers_in_tmux(tmux_app):
    t = tmux_app("play tictactoe --opponent perfect --first computer")
    t.wait_for("X to move")  # the computer (O) has moved; the human has X
    # On a busy machine tmux may show a frame half written: look again until the whole board
    # is there (a board that never completes is a repaint bug, and fails here).
    deadline = time.monotonic() + 10
    while True:
        screen = t.screen()
        marks = "".join(board_rows(screen))
        if len(marks) == 9 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert marks.count("O") == 1 and marks.count("X") == 0, screen
    assert "nodes" in screen  # the stats panel shows the search


SUDOKU = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
# What each game screen must show at 80×24: its board and its keys.
SCREENS = [
    ("play tictactoe --opponent human --size 3x3", ["X to move", "Undo"]),
    ("play connect4 --opponent human", ["● to move", "Drop"]),
    ("play checkers --opponent human", ["Black to move", "│    w     w     w     w │", "Draw"]),
    (f"play sudoku --puzzle {SUDOKU}", ["r1c1", "Pencil"]),
]


@pytest.mark.parametrize("colours", [{"TERM": "xterm"}, {"NO_COLOR": "1"}, {"COLORTERM": "truecolor"}],
                         ids=["16-colours", "no-colour", "truecolor"])
@pytest.mark.parametrize("args, expected", SCREENS, ids=["tictactoe", "connect4", "checkers", "sudoku"])
def test_every_game_screen_draws_at_80x24_in_every_colour_mode(tmux_app, args, expected, colours):
    app = tmux_app(args, **colours)
    screen = app.wait_for(*expected)
    assert "Traceback" not in screen
    assert len(screen.splitlines()) <= 24


# sudoku-exchange's diabolical #18 a few steps in: without the uniqueness techniques (a hidden
# unique rectangle comes first otherwise) the first step is an alternating inference chain with a
# weak link inside r2c8, (2=6)r1c4-(6)r2c4=(6-1)r2c8=(1)r1c9.
SUDOKU_CHAIN = ".9..48.5.8.5.97..4...315..8....638.5..84526...5..89.3.4679215835..876...289534176"


@pytest.mark.parametrize("colours", [{"TERM": "xterm"}, {"NO_COLOR": "1"}, {"COLORTERM": "truecolor"}],
                         ids=["16-colours", "no-colour", "truecolor"])
def test_a_sudoku_chain_hint_reads_at_80x24_in_every_colour_mode(tmux_app, tmp_path, colours):
    (tmp_path / "settings.json").write_text(json.dumps({"sudoku": {"uniqueness": False}}))
    app = tmux_app(f"play sudoku --puzzle {SUDOKU_CHAIN}", **colours)
    app.wait_for("r1c1")
    app.keys("i")
    screen = app.wait_for("i applies it.", "Hint · AIC · ", "(2=6)r1c4-(6)r2c4", "v Chain")
    rows = {line[:3].strip(): line for line in screen.splitlines() if line[:3].strip().isdigit()}
    # The chain on the board: > where it starts, = after a strong link, - after a weak one.
    assert ">2=6" in rows["1"] and "=6-1" in rows["2"] and "=1" in rows["1"], screen
    app.keys("v")
    screen = app.wait_for("links (= strong", "(2=6)r1c4-(6)r2c4=(6-1)r2c8=(1)r1c9")
    assert "Traceback" not in screen
    assert len(screen.splitlines()) <= 24 and max(map(len, screen.splitlines())) <= 80
    app.keys("q")
    app.wait_for("v Chain")
    app.keys("i")  # plays it
    app.wait_for("Applied: AIC")


def test_the_lab_runs_an_arena_from_the_menu(tmux_app):
    app = tmux_app("")
    app.wait_for("Lab")
    app.keys("l")
    app.wait_for("Player A")
    app.keys("r")
    screen = app.wait_for("done: 20 games", "A perfect", "B rule-based")
    assert "Traceback" not in screen
