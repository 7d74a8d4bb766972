"""The console examples of the README and the docs are what the commands print (as python-chess
runs its README as a doctest): every ``$ command`` line of a ```console block is run in a shell
(``tui-games`` is this checkout's), and its output, stdout and stderr as a terminal shows them,
must be the lines under it. ``…`` in an expected line stands for any text (a time, a long
field). An example with no output under it is not run (it shows how to run something of the
reader's own). The slow ones and those whose output depends on the machine's speed are listed in SKIP,
each with its reason."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGES = [REPO / "README.md", REPO / "CONTRIBUTING.md", *sorted((REPO / "docs").rglob("*.md"))]
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.M | re.S)

# Commands not run, by what they start with: why.
SKIP = {
    "tui-games bench": "a benchmark: minutes, and its figures are the machine's",
    "D=": "a placeholder path to collections not in the repository",
    "printf 'new\\nmove 11-15\\ngo 0.5\\nquit\\n' | tui-games checkers engine":
        "a search of half a CPU second: its depth and nodes are the machine's",
    "tui-games arena connect4 --a perfect": "whole games of the perfect player: minutes",
}


def examples() -> list[tuple[str, str, list[str]]]:
    """(page:line, command, expected output lines) of every example."""
    found = []
    for page in PAGES:
        text = page.read_text()
        for block in CONSOLE.finditer(text):
            first = text.count("\n", 0, block.start()) + 2
            command, where, expected = None, "", []
            for number, line in enumerate(block.group(1).splitlines(), first):
                if line.startswith("$ "):
                    if command is not None:
                        found.append((where, command, expected))
                    command, where, expected = line[2:], f"{page.relative_to(REPO)}:{number}", []
                elif command is not None:
                    expected.append(line)
            if command is not None:
                found.append((where, command, expected))
    return found


def run_list() -> list:
    out = []
    for where, command, expected in examples():
        # A comment after the command explains it: the shell drops it.
        reason = next((why for start, why in SKIP.items() if command.startswith(start)), None)
        if reason is None and not expected:
            reason = "the page shows the command, not what it prints (it needs the reader's own files)"
        marks = [pytest.mark.skip(reason=reason)] if reason else []
        out.append(pytest.param(command, expected, id=where, marks=marks))
    return out


def matches(expected: str, line: str) -> bool:
    pattern = ".*".join(re.escape(part) for part in expected.split("…"))
    return re.fullmatch(pattern, line) is not None


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory) -> dict[str, str]:
    """A PATH whose ``tui-games`` is this checkout's, and a data directory of the test's own."""
    bin_dir = tmp_path_factory.mktemp("bin")
    script = bin_dir / "tui-games"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m tui_games "$@"\n')
    script.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PYTHONPATH": str(REPO),
            "TUI_GAMES_HOME": str(tmp_path_factory.mktemp("home")), "COLUMNS": "100"}


def test_there_are_examples_to_run():
    assert len([p for p in run_list() if not p.marks]) >= 15


@pytest.mark.parametrize(("command", "expected"), run_list())
def test_a_console_example_prints_what_the_page_shows(command, expected, shell_env):
    result = subprocess.run(["bash", "-c", f"( {command}\n) 2>&1"], capture_output=True, text=True,
                            env=shell_env, cwd=REPO, timeout=300)
    lines = result.stdout.splitlines()
    assert len(lines) == len(expected) and all(map(matches, expected, lines)), \
        "\n".join(["the page shows:", *expected, "the command printed:", *lines])
