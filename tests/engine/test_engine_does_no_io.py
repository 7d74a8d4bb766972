"""The engine (tui_games/engine) does no I/O: no file opened or mapped, no package data found,
nothing printed. Files are the app's business (resources.py, connect4_book.py, checkers_db.py,
the commands), which hands the engine what it read."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "tui_games" / "engine"

CALLS = {"open", "print", "input"}
METHODS = {"read_text", "read_bytes", "write_text", "write_bytes", "open", "mkdir", "unlink", "iterdir"}
MODULE_CALLS = {("mmap", "mmap"), ("os", "open"), ("os", "fdopen"), ("resources", "files"), ("io", "open"),
                ("shutil", "copyfile"), ("tempfile", "mkstemp")}


def io_calls(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in CALLS:
            found.append(f"{path.name}:{node.lineno} {func.id}()")
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else None
            if (owner, func.attr) in MODULE_CALLS or (func.attr in METHODS and owner not in {"self", "cls"}):
                found.append(f"{path.name}:{node.lineno} {owner or '…'}.{func.attr}()")
    return found


@pytest.mark.parametrize("path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_does_no_io(path):
    assert io_calls(path) == []
