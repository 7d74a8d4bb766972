"""No import cycles in the package (scripts/import_cycles.py, the check DESIGN.md names), and the
check itself sees one where there is one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TOOL = REPO / "scripts" / "import_cycles.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=120)


def test_the_package_has_no_import_cycle():
    result = run(str(REPO / "tui_games"))
    assert (result.returncode, result.stdout) == (0, "cycles: none\n"), result.stdout + result.stderr


# docs/DESIGN.md's dependency picture: what each top-level part may import.
BELOW = {"data", "userdata", "games", "engine"}
DAILY = {"daily"}  # the puzzle of the day: the CLI, the lobby and the app read it
PICTURE = {
    "__main__": {"cli"},
    "cli": {"commands", "games"},
    "commands": {"bench", "bots", "server", "ui", *BELOW, *DAILY},
    "bench": {"bots", "server", "online", *BELOW},
    "server": {"ui", "cli", "online", *BELOW, *DAILY},
    "ui": {"bots", "online", *BELOW, *DAILY},
    "bots": {"engine", "games", "userdata"},
    "data": {"engine", "userdata"},
    "userdata": {"games"},
    "games": {"engine", "userdata"},
    "training": {"data", "engine"},
    "engine": set(),
    "daily": {"engine"},
    "online": set(),
}


def test_each_part_imports_only_what_the_design_pictures():
    result = run(str(REPO / "tui_games"), "--layers")
    found = {name: set(filter(None, targets.replace("-", "").split(", ")))
             for name, _, targets in (line.partition(" -> ") for line in result.stdout.splitlines())}
    assert set(found) == set(PICTURE)
    beyond = {name: found[name] - PICTURE[name] for name in found if found[name] - PICTURE[name]}
    assert beyond == {}, "imports the design does not picture (docs/DESIGN.md, Layers)"


def test_a_cycle_is_found_even_through_an_import_inside_a_function(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from pkg import a\n")  # re-exports are no cycle
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from pkg.sub import b\n")
    (package / "sub" / "b.py").write_text("def late():\n    from .. import c\n")
    (package / "c.py").write_text("import pkg.a\n")
    (package / "d.py").write_text("from pkg import c\n")  # reaches the cycle, is not in it
    result = run(str(package))
    assert (result.returncode, result.stdout) == (1, "cycles: a <-> c <-> sub.b\n")
    layers = run(str(package), "--layers")
    assert layers.stdout.splitlines() == ["a -> sub", "c -> a", "d -> c", "sub -> c"]


def test_not_a_package_is_one_line(tmp_path):
    result = run(str(tmp_path))
    assert result.returncode == 2 and result.stderr == f"import_cycles.py: error: {tmp_path} is not a package (no __init__.py)\n"
