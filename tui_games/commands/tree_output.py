"""``--tree FILE``: the recorded search tree of a command, written as JSON or Graphviz DOT.

The file's ending chooses the format: ``.json`` (the document of
``docs/search-tree.schema.json``) or ``.dot`` (``dot -Tsvg FILE.dot -o FILE.svg`` draws it:
pruned branches dashed, the chosen line bold). The tree keeps the first
:data:`TREE_PLIES` plies and at most :data:`TREE_NODES` nodes, as the app's inspector does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Callable

from tui_games.commands.common import UsageError
from tui_games.engine.tree import TreeRecorder
from tui_games.engine.tree_export import FORMATS, tree_file_text

TREE_PLIES = 4
TREE_NODES = 20_000

TREE_HELP = (f"also write the search tree (its first {TREE_PLIES} plies, at most {TREE_NODES:,} nodes) to FILE: "
             "FILE.json (docs/search-tree.schema.json) or FILE.dot (Graphviz)")


def add_tree_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tree", type=tree_path, default=None, metavar="FILE", help=TREE_HELP)


def tree_path(text: str) -> Path:
    path = Path(text).expanduser()
    if path.suffix.lower() not in FORMATS:
        raise argparse.ArgumentTypeError(f"{text!r} must end in .json or .dot (the format to write)")
    return path


def recorder_for(path: Path | None) -> TreeRecorder | None:
    """A recorder when a tree is to be written; None costs the search nothing."""
    return None if path is None else TreeRecorder(TREE_PLIES, TREE_NODES)


def write_tree(path: Path | None, recorder: TreeRecorder | None, move_name: Callable[[Any], str], *,
               proven: bool = False, position: str = "") -> None:
    """Write the tree if ``--tree`` was given; a file that cannot be written is a usage error."""
    if path is None or recorder is None:
        return
    try:
        path.write_text(tree_file_text(str(path), recorder, move_name, proven=proven, position=position), encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write --tree {str(path)!r}: {error.strerror or error}") from None
