"""The shipped puzzle collections: their content against the solver, and their packaging."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from tui_games.data.resources import puzzle_names, puzzle_path, read_puzzles
from tui_games.engine.search import SearchLimits, game_value, plies_to_end, search
from tui_games.engine.tictactoe import TicTacToe

REPO = Path(__file__).resolve().parents[2]
POSITIONS = "tictactoe_positions.txt"


def positions() -> list[tuple[str, int, bool, int, int, str]]:
    rows = []
    for line in read_puzzles(POSITIONS).splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        board, k, misere, value, plies, comment = line.split(maxsplit=5)
        assert misere in ("0", "1"), line
        assert value in ("+1", "0", "-1"), line
        rows.append((board, int(k), misere == "1", int(value), int(plies), comment))
    return rows


def _param(row):
    board, k, misere, *_ = row
    empties = board.count(".")
    # The empty 4x4 boards take seconds each: exhaustive, so marked slow.
    marks = [pytest.mark.slow] if empties >= 15 else []
    return pytest.param(*row, id=f"{board}-k{k}{'-misere' if misere else ''}", marks=marks)


def test_collection_covers_the_promised_variants():
    rows = positions()
    assert len(rows) >= 12
    shapes = {(board.count("/") + 1, len(board.split("/")[0]), k, misere) for board, k, misere, *_ in rows}
    assert {(3, 3, 3, False), (3, 3, 3, True), (4, 4, 3, False), (4, 4, 4, False)} <= shapes
    assert {value for *_, value, _, _ in rows} == {-1, 0, 1}
    assert len({(board, k, misere) for board, k, misere, *_ in rows}) == len(rows), "duplicate lines"


@pytest.mark.parametrize(("board", "k", "misere", "value", "plies", "comment"), [_param(r) for r in positions()])
def test_position_value_matches_the_solver(board, k, misere, value, plies, comment):
    position = TicTacToe.parse(board, k, misere, symmetry=True)
    assert position.outcome() is None, "a puzzle must still be running"
    result = search(position, SearchLimits(depth=position.empties), "tt", exact_root=True)
    assert result.exact
    assert game_value(result.score) == value, comment
    assert (plies_to_end(result.score) or position.empties) == plies, comment


def test_resources_api():
    path = puzzle_path(POSITIONS)
    assert path.name == POSITIONS and path.is_file()
    assert read_puzzles(POSITIONS) == path.read_text(encoding="utf-8")
    assert POSITIONS in puzzle_names()
    with pytest.raises(FileNotFoundError):
        puzzle_path("no_such_collection.txt")
    for bad in ("", "../pyproject.toml", "a/b.txt", ".."):
        with pytest.raises(ValueError):
            puzzle_path(bad)


def test_every_package_directory_is_listed_in_pyproject():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    assert config["package-dir"] == {"tui_games.puzzles": "puzzles"}
    on_disk = {"tui_games.puzzles"}
    for directory in [REPO / "tui_games", *(REPO / "tui_games").rglob("*")]:
        if directory.is_dir() and directory.name != "__pycache__" and any(directory.glob("*.py")):
            on_disk.add(".".join(directory.relative_to(REPO).parts))
    missing = sorted(on_disk - listed)
    assert not missing, f"add {missing} to [tool.setuptools] packages in pyproject.toml, or the wheel lacks them"
    stale = sorted(listed - on_disk)
    assert not stale, f"{stale} in [tool.setuptools] packages have no directory: the build would fail"


def _backend_builds_offline() -> bool:
    """Can this interpreter's setuptools build our wheel without fetching anything?

    pyproject.toml asks for setuptools>=68; before 70.1 setuptools needs the ``wheel``
    package for bdist_wheel (a plain Python 3.11 venv has setuptools 65 and no wheel).
    """
    try:
        version = tuple(int(part) for part in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    if version < (68, 0):
        return False
    if version >= (70, 1):
        return True
    try:
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return True


NETWORK_TROUBLE = ("No matching distribution", "Could not find a version", "NewConnectionError",
                   "Temporary failure in name resolution", "Network is unreachable", "ConnectTimeout",
                   "ReadTimeout", "ProxyError")


@pytest.mark.slow
def test_wheel_contains_puzzles_and_stylesheet(tmp_path):
    # Build from a copy: setuptools writes build/ and *.egg-info next to the sources.
    source = tmp_path / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", ".pytest_cache")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for name in ("tui_games", "puzzles"):
        shutil.copytree(REPO / name, source / name, ignore=ignore)
    out = tmp_path / "wheels"
    command = [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-w", str(out)]
    offline = _backend_builds_offline()
    if offline:
        command.append("--no-build-isolation")
    # Otherwise pip fetches setuptools>=68 into an isolated build environment from the index.
    env = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    run = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    if run.returncode != 0 and not offline and any(sign in output for sign in NETWORK_TROUBLE):
        pytest.skip("pip wheel needs setuptools>=68 from the package index for its isolated build, "
                    "and the index cannot be reached (install setuptools>=70.1 to build offline)")
    assert run.returncode == 0, output

    wheels = list(out.glob("tui_games-*.whl"))
    assert len(wheels) == 1, output
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    assert "tui_games/puzzles/tictactoe_positions.txt" in names
    assert "tui_games/puzzles/__init__.py" in names
    assert "tui_games/ui/app.tcss" in names
    assert "tui_games/userdata/store.py" in names and "tui_games/data/resources.py" in names
    assert not any(name.startswith("puzzles/") for name in names), "puzzles must install inside tui_games"
    shipped = zipfile.ZipFile(wheels[0]).read("tui_games/puzzles/tictactoe_positions.txt").decode()
    assert shipped == (REPO / "puzzles" / POSITIONS).read_text(encoding="utf-8")
