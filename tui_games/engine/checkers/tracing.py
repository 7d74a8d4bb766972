"""The compiled core's trace, written into a :class:`TreeRecorder` (the tree inspector's).

The Python core records its tree itself (``PyCore.node(..., tnode)``). The compiled core
knows nothing of the recorder: it reports the nodes of a traced search to a tracer
(``enter`` / ``again`` / ``leave``, see the top of ``_ckcore.c``), and :class:`RecorderTrace`
turns those reports into the same tree the Python core would have recorded. The recorder's
own bounds (plies, nodes) decide where the trace stops: ``enter`` answers None below them,
and the compiled core then searches that subtree untraced, at full speed.
"""

from __future__ import annotations

from tui_games.engine.checkers.position import Move
from tui_games.engine.tree import TreeNode, TreeRecorder

__all__ = ["BOUNDS", "KINDS", "RecorderTrace"]

# The compiled core's codes: the table's bound flags and the kinds of node (K_* in _ckcore.c).
BOUNDS = ("exact", "lower", "upper")
KINDS = ("", "end", "horizon", "tt", "database", "futility", "probcut")

RawMove = tuple[int, int, int, int, tuple[int, ...], int]


class RecorderTrace:
    """A tracer for ``_ckcore.Core.begin(..., tracer=...)`` that fills ``recorder``."""

    def __init__(self, recorder: TreeRecorder) -> None:
        self.recorder = recorder

    def enter(self, parent: TreeNode, move: RawMove, ply: int, alpha: int, beta: int) -> TreeNode | None:
        return self.recorder.add_child(parent, Move(move), ply, alpha, beta)

    def again(self, node: TreeNode, alpha: int, beta: int) -> None:
        """The child is searched again with a wider window: its first search is forgotten."""
        node.children.clear()
        node.alpha, node.beta = alpha, beta

    def leave(self, node: TreeNode, value: int, flag: int, kind: int, best: RawMove | None,
              pruned: list[RawMove]) -> None:
        node.close(value, BOUNDS[flag], KINDS[kind], None if best is None else Move(best))
        if pruned:
            node.pruned = [Move(m) for m in pruned]
