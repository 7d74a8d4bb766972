"""A bounded recorder of the explored search tree, for the tree inspector.

The search calls ``add_child`` for each child it enters and ``close`` when the child's value is
known. Only the first ``max_plies`` plies and at most ``max_nodes`` nodes are kept: a
recorder never grows with the search, so a long search with recording on stays as fast
as it can be and its memory stays small. With no recorder the search pays one ``is None``
test per node.

Values and windows are stored as the search sees them (negamax: from the side to move at
that node); ``TreeNode.value_for_root`` turns them into the classic minimax picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

# Every kind of node a search closes (TreeNode.kind); docs/search-tree.schema.json lists the same.
KINDS = ("", "end", "horizon", "tt", "dead draw", "symmetric", "solved", "database", "futility", "probcut")


@dataclass(slots=True, eq=False)
class TreeNode:
    move: Any
    ply: int
    alpha: int
    beta: int
    value: int | None = None
    # exact, lower (the node failed high: a cutoff) or upper (failed low: all moves worse).
    bound: str = "exact"
    # "end" (game over), "horizon" (evaluated at the depth limit), "tt" (taken from the
    # transposition table), "dead draw" (nobody can complete a line any more), "symmetric"
    # (not searched: equal to ``same_as``) or "" (searched).
    kind: str = ""
    best: Any = None
    children: list["TreeNode"] = field(default_factory=list)
    # Moves never searched here because a sibling already refuted the position.
    pruned: list[Any] = field(default_factory=list)
    # Children were searched but not recorded (ply or node budget reached).
    truncated: bool = False
    # kind "symmetric": the move a symmetry of the board makes equal to this one, which was
    # searched in its place.
    same_as: Any = None
    # Monte Carlo tree search (engine.mcts; kind "mcts", "proven" or "end"): the playouts
    # through the node, their wins W for the player who made its move, and its UCT value.
    visits: int | None = None
    wins: float = 0.0
    uct: float | None = None

    def close(self, value: int, bound: str, kind: str, best: Any = None) -> None:
        self.value = value
        self.bound = bound
        self.kind = kind
        self.best = best

    def value_for_root(self) -> int | None:
        """The value from the root player's side: plies of the opponent flip the sign."""
        if self.value is None:
            return None
        return self.value if self.ply % 2 == 0 else -self.value

    @property
    def maximizing(self) -> bool:
        """True where the root player is to move (a MAX node in minimax terms)."""
        return self.ply % 2 == 0

    def walk(self) -> Iterator["TreeNode"]:
        yield self
        for child in self.children:
            yield from child.walk()


class TreeRecorder:
    """Keeps the tree of the last completed search iteration, within a budget."""

    def __init__(self, max_plies: int = 4, max_nodes: int = 20_000) -> None:
        self.max_plies = max_plies
        self.max_nodes = max_nodes
        self.root: TreeNode | None = None
        self.depth = 0
        # The tree was left unfinished because the search was stopped.
        self.partial = False
        self._building: TreeNode | None = None
        self._building_depth = 0
        self.count = 0

    def begin(self, depth: int) -> TreeNode:
        """Start recording a new iteration searched to ``depth``."""
        self._building = TreeNode(None, 0, 0, 0)
        self._building_depth = depth
        self.count = 1
        return self._building

    def add_child(self, parent: TreeNode | None, move: Any, ply: int, alpha: int, beta: int) -> TreeNode | None:
        """A child node to fill in, or None when it falls outside the budget."""
        if parent is None:
            return None
        if ply > self.max_plies or self.count >= self.max_nodes:
            parent.truncated = True
            return None
        self.count += 1
        node = TreeNode(move, ply, alpha, beta)
        parent.children.append(node)
        return node

    def commit(self) -> None:
        """The iteration finished: its tree becomes the one to show."""
        self.root, self.depth, self.partial = self._building, self._building_depth, False
        self._building = None

    def abandon(self) -> None:
        """The search stopped mid-iteration: keep the last complete tree, or the partial one."""
        if self.root is None and self._building is not None:
            self.root, self.depth, self.partial = self._building, self._building_depth, True
        self._building = None
