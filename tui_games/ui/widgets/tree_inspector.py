"""The search tree inspector: the last search's explored tree, folded open on demand.

Tree nodes are created only when the user expands their parent, so a recorded tree of
20,000 nodes costs nothing until looked at. Values are shown in the classic minimax
picture: from the point of view of the player to move at the root (MAX), with MIN nodes
where the opponent chooses.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode as UITreeNode

from tui_games.engine.tree import TreeNode, TreeRecorder
from tui_games.ui.text import bound_text, count, score_text, window_text

MoveName = Callable[[Any], str]

KIND_TEXT = {"end": "game over", "horizon": "horizon", "tt": "from table", "dead draw": "nobody can win",
             "symmetric": "mirror image", "solved": "solved", "database": "endgame tables",
             "futility": "futility cut", "probcut": "probable cut"}


def mcts_parts(node: TreeNode) -> list[Any]:
    """A Monte Carlo node (engine.mcts): its visits N, the share W/N its mover won, its UCT value
    when its parent chose, and its proof (as the root's player sees it)."""
    visits = node.visits or 0
    share = node.wins / visits if visits else 0.0
    parts: list[Any] = [("N ", "dim"), count(visits), ("  W/N ", "dim"), f"{share:.0%}"]
    if node.uct is not None and node.kind != "proven" and node.kind != "end":
        parts += [("  UCT ", "dim"), f"{node.uct:.2f}"]
    if node.kind in ("proven", "end") and node.value is not None:
        value = node.value_for_root() or 0
        style = "bold green" if value > 0 else "bold red" if value < 0 else "bold"
        word = "game over" if node.kind == "end" else "proven"
        parts += ["  ", (score_text(value, proven=True), style), (f" {word}", "italic dim")]
    return parts


class TreeInspector(Tree):
    """Keys act on the tree while it has focus: arrows move, Tab and Space fold a node open
    or shut, Enter selects it (the board shows its position), Escape goes back to the board."""

    BINDINGS = [
        Binding("tab", "toggle_node", "Fold", show=False, priority=True),
        Binding("escape", "leave", "Board", show=False),
        Binding("e", "export", "Export", show=False),
    ]

    class ExportAsked(Message):
        """``e``: write the tree shown to a file (JSON or DOT)."""

    class NodeShown(Message):
        """A node was selected: ``path`` the moves from the searched position to it (None:
        the tree was left, the board shows the game again)."""

        def __init__(self, path: list[Any] | None, leave: bool = False) -> None:
            super().__init__()
            self.path = path
            # Escape: the focus goes back to the board.
            self.leave = leave

    DEFAULT_CSS = """
    TreeInspector {
        border: round $foreground-muted;
        border-title-color: $text-accent;
        padding: 0 1;
    }
    TreeInspector:focus { border: round $accent; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("No search yet", id=id)
        self.border_title = "Search tree"
        self.move_name: MoveName = str
        # The search was exact (no horizon): a 0 is a draw, not an estimate.
        self.proven = False
        self.show_root = True
        self.guide_depth = 2
        # What is shown, for an export (e): the recorder and the search's proof.
        self.recorder: TreeRecorder | None = None

    def show_tree(self, recorder: TreeRecorder | None, move_name: MoveName, *, title: str = "",
                  proven: bool = False) -> None:
        self.move_name = move_name
        self.proven = proven
        self.recorder = recorder if recorder is not None and recorder.root is not None else None
        self.clear()
        root = recorder.root if recorder is not None else None
        if recorder is None or root is None:
            self.border_title = "Search tree"
            self.border_subtitle = ""
            self.root.set_label("No search tree for this decision" if recorder is not None else "No search yet")
            self.root.data = None
            return
        partial = ", stopped early" if recorder.partial else ""
        self.border_title = f"Search tree · depth {recorder.depth}{partial}"
        self.border_subtitle = f"{count(recorder.count)} nodes kept (up to {recorder.max_plies} plies)"
        label = Text.assemble((title or "position", "bold"), "  ", self._value(root))
        self.root.set_label(label)
        self.root.data = root
        self._fill(self.root, root)
        self.root.expand()

    def _value(self, node: TreeNode) -> Text:
        value = node.value_for_root()
        bound = node.bound
        if node.ply % 2 == 1:
            # Bounds flip with the sign on the opponent's plies.
            bound = {"lower": "upper", "upper": "lower"}.get(bound, bound)
        style = "bold green" if value is not None and value > 0 else "bold red" if value is not None and value < 0 else "bold"
        if value is None:
            return Text(score_text(None), style=style)
        proven = self.proven or node.kind in ("end", "dead draw")
        return Text(bound_text(value, bound, proven=proven), style=style)

    def _label(self, node: TreeNode, parent: TreeNode, leaf: bool = False) -> Text:
        role = "MAX" if node.maximizing else "MIN"
        alpha, beta = (node.alpha, node.beta) if node.ply % 2 == 0 else (-node.beta, -node.alpha)
        # A leaf has no ▶: two spaces in its place keep the moves of a level in one column.
        parts: list[Any] = ["  "] if leaf else []
        if parent.best == node.move:
            parts.append(("★ ", "bold yellow"))
        else:
            parts.append("  ")
        if node.visits is not None:
            return Text.assemble(*parts, (self.move_name(node.move), "bold"), " ", *mcts_parts(node))
        parts += [(self.move_name(node.move), "bold"), " ", (role, "dim"), " ", self._value(node)]
        # The note before the window: on a narrow panel the end of the line is what is cut.
        if node.kind == "symmetric":
            # The same value as its mirror image, which was searched in its place.
            parts.append((f" = {self.move_name(node.same_as)} (mirror)", "italic dim"))
        elif node.kind:
            parts.append((f" {KIND_TEXT.get(node.kind, node.kind)}", "italic dim"))
        parts.append(("  " + window_text(alpha, beta, proven=self.proven), "dim"))
        return Text.assemble(*parts)

    def _fill(self, ui_node: UITreeNode, node: TreeNode) -> None:
        """Add one level of children under ``ui_node`` (called when it is expanded)."""
        for child in node.children:
            has_more = bool(child.children or child.pruned or child.truncated)
            ui_node.add(self._label(child, node, leaf=not has_more), data=child, allow_expand=has_more)
        if node.pruned:
            names = " ".join(self.move_name(m) for m in node.pruned[:12])
            more = f" +{len(node.pruned) - 12}" if len(node.pruned) > 12 else ""
            ui_node.add_leaf(Text.assemble("  ", ("✂ pruned ", "bold magenta"), (f"{len(node.pruned)}: ", "magenta"),
                                           (names + more, "dim")), data=None)
        if node.truncated:
            ui_node.add_leaf(Text("  … deeper nodes were searched but not kept", style="dim italic"), data=None)

    @staticmethod
    def path_to(ui_node: UITreeNode | None) -> list[Any] | None:
        """The moves from the searched position to the node ``ui_node`` shows (None: not a
        search node, such as a line of pruned moves)."""
        if ui_node is None or not isinstance(ui_node.data, TreeNode):
            return None
        path: list[Any] = []
        while ui_node is not None and isinstance(ui_node.data, TreeNode) and ui_node.data.ply > 0:
            path.append(ui_node.data.move)
            ui_node = ui_node.parent
        return path[::-1]

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        path = self.path_to(event.node)
        if path is not None:
            self.post_message(self.NodeShown(path))

    def action_export(self) -> None:
        self.post_message(self.ExportAsked())

    def action_leave(self) -> None:
        self.post_message(self.NodeShown(None, leave=True))

    def on_blur(self) -> None:
        self.post_message(self.NodeShown(None))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded) -> None:
        ui_node = event.node
        node = ui_node.data
        if isinstance(node, TreeNode) and not ui_node.children:
            self._fill(ui_node, node)
