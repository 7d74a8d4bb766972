"""Every script of scripts/ runs (its ``--help``: a usage line, exit 0, in a fresh process, as a
person runs it), is listed in scripts/README.md, and imports no other script: what scripts
share is in the package (tui_games/training/), not reached through ``sys.path``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((REPO / "scripts").glob("*.py"))


def test_there_are_scripts():
    assert len(SCRIPTS) >= 15


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_a_script_shows_its_usage(script, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "TUI_GAMES_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True,
                            env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: {script.name}"), result.stdout[:200]


def test_every_script_is_in_the_readme():
    readme = (REPO / "scripts" / "README.md").read_text()
    assert [s.name for s in SCRIPTS if f"`{s.name}`" not in readme] == []


# A bot's child process puts the bot's own folder first, so that a student's bot can import the
# helpers beside it: that is the user's code finding itself, not one of ours reaching another.
BOT_CHILD = "tui_games/bots/child.py"


def test_no_script_or_module_reaches_another_through_sys_path():
    files = [*SCRIPTS, *(REPO / "tui_games").rglob("*.py")]
    found = [str(f.relative_to(REPO)) for f in files if "sys.path.insert" in f.read_text()]
    assert found in ([], [BOT_CHILD]), found
