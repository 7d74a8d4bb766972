"""``tui-games arena`` on a terminal: a progress line while it plays (not with --json, nor
when stderr is piped), and Ctrl+C keeps the games played, saves and reports them. It printed
nothing until the end, and an interrupt lost every game."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ARGV = [sys.executable, "-m", "tui_games", "arena"]


def run_on_terminal(argv: list[str], home: Path, until=None, interrupt: bool = False):
    """Run with stderr on a pseudo-terminal (stdout piped); read the terminal until ``until(text)``
    holds, then send SIGINT if asked. Returns (exit code, stdout, what the terminal got)."""
    master, slave = pty.openpty()
    env = {**os.environ, "TUI_GAMES_HOME": str(home)}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    seen = b""
    sent = False
    while True:
        ready, _, _ = select.select([master], [], [], 60)
        if not ready:
            proc.kill()
            pytest.fail(f"no output for 60 s; the terminal had {seen[-300:]!r}")
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the process closed its end
            break
        if not chunk:
            break
        seen += chunk
        if interrupt and not sent and until is not None and until(seen.decode(errors="replace")):
            proc.send_signal(signal.SIGINT)
            sent = True
    out = proc.stdout.read().decode()
    code = proc.wait(timeout=120)
    os.close(master)
    return code, out, seen.decode(errors="replace")


def test_a_progress_line_on_a_terminal_and_none_when_piped(tmp_path):
    argv = [*ARGV, "tictactoe", "--a", "perfect", "--b", "random", "--games", "6", "--seed", "1"]
    code, out, terminal = run_on_terminal(argv, tmp_path)
    assert code == 0 and "A won" in out
    assert "\r[" in terminal and "6/6 games" in terminal
    piped = subprocess.run(argv, capture_output=True, text=True, env={**os.environ, "TUI_GAMES_HOME": str(tmp_path)})
    assert piped.returncode == 0 and piped.stderr == "" and "\r" not in piped.stdout
    code, out, terminal = run_on_terminal([*argv, "--json"], tmp_path)
    assert code == 0 and json.loads(out)["games"] == 6 and "games" not in terminal.replace("\r", "")


def test_ctrl_c_keeps_reports_and_saves_the_games_played(tmp_path):
    argv = [*ARGV, "connect4", "--a", "level6", "--b", "level5", "--games", "200", "--seed", "3"]
    code, out, terminal = run_on_terminal(argv, tmp_path, until=lambda text: "] 2/200 games" in text,
                                          interrupt=True)
    assert code == 130
    assert "interrupted:" in terminal and "of 200 games played" in terminal
    assert "Traceback" not in terminal
    assert "A won" in out and "CANCELLED" in out
    runs = json.loads((tmp_path / "arena.json").read_text())
    run = runs["runs"][-1] if isinstance(runs, dict) else runs[-1]
    assert run["cancelled"] and 2 <= run["games"] < 200
