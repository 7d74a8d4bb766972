"""Files shipped with the package: the puzzle collections.

The collections live in the repository's top-level ``puzzles/`` and are installed as the
package ``tui_games.puzzles`` (see ``[tool.setuptools]`` in pyproject.toml), so an installed
copy reads them from the wheel. Running from a source checkout that was never installed
(``PYTHONPATH=.``, or ``python -m pytest`` putting the checkout first on the path) has no
``tui_games.puzzles``: then the checkout's ``puzzles/`` is read directly.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

if sys.version_info >= (3, 11):
    from importlib.resources.abc import Traversable
else:  # Python 3.10
    from importlib.abc import Traversable

PUZZLES_PACKAGE = "tui_games.puzzles"


def _puzzles_root() -> Traversable:
    try:
        return resources.files(PUZZLES_PACKAGE)
    except ModuleNotFoundError:
        checkout = Path(__file__).resolve().parents[2] / "puzzles"
        if checkout.is_dir():
            return checkout
        raise FileNotFoundError(f"the puzzle collections are missing: no package {PUZZLES_PACKAGE} "
                                f"and no {checkout}") from None


def puzzle_path(name: str) -> Traversable:
    """The shipped collection ``name`` (e.g. ``"tictactoe_positions.txt"``).

    Raises FileNotFoundError if there is no such collection; a name with a directory part is
    refused with ValueError.
    """
    if not name or "/" in name or "\\" in name or name in (".", ".."):
        raise ValueError(f"bad puzzle collection name {name!r}")
    path = _puzzles_root().joinpath(name)
    if not path.is_file():
        raise FileNotFoundError(f"no puzzle collection named {name!r}")
    return path


def read_puzzles(name: str) -> str:
    """The text of the shipped collection ``name``."""
    return puzzle_path(name).read_text(encoding="utf-8")


def puzzle_names() -> list[str]:
    """The names of every shipped collection, sorted."""
    return sorted(entry.name for entry in _puzzles_root().iterdir()
                  if entry.is_file() and not entry.name.startswith(("_", ".")) and not entry.name.endswith(".py"))

