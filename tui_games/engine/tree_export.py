"""A recorded search tree written out: JSON (``docs/search-tree.schema.json``) or Graphviz DOT.

Both are built here as plain data and text; the caller writes the file (the command line's
``--tree FILE``, the tree inspector's ``e`` through the player's own files when served).

Values are from the point of view of the player to move at the root (MAX), as the tree
inspector shows them: ``value`` is the search's number, ``value_text`` the same in the
game's words (``draw``, ``win in 5``, ``≥ +3``); the window's ``low`` and ``high`` are the
search's exclusive ends α and β (null: unbounded), its ``text`` the values they let in.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from tui_games.engine.search import INF, score_words
from tui_games.engine.tree import TreeNode, TreeRecorder

SCHEMA_ID = "tui-games/search-tree/1"
# A file's ending chooses its format.
FORMATS = (".json", ".dot")

MoveName = Callable[[Any], str]

_FLIP = {"lower": "upper", "upper": "lower"}


def root_bound(node: TreeNode) -> str:
    """The node's bound from the root player's side (a MIN node's flips with its sign)."""
    return node.bound if node.ply % 2 == 0 else _FLIP.get(node.bound, node.bound)


def root_window(node: TreeNode) -> tuple[int, int]:
    """(α, β) from the root player's side."""
    return (node.alpha, node.beta) if node.ply % 2 == 0 else (-node.beta, -node.alpha)


def value_words(node: TreeNode, proven: bool) -> str:
    value = node.value_for_root()
    if value is None:
        return "?"
    bound = root_bound(node)
    prefix = {"lower": "≥ ", "upper": "≤ "}.get(bound, "")
    exact = (proven or node.kind in ("end", "dead draw")) and not prefix
    return prefix + score_words(value, exact)


def window_words(alpha: int, beta: int, proven: bool = False) -> str:
    """The alpha-beta window (α, β exclusive) in the values' words: ``[any]``, ``[≥ +0]``,
    ``[≤ win in 3]``, ``[-1 to +3]``, in a proven search ``[≥ draw]`` and ``[< draw]`` (the
    value one past a draw, -1, is no value of a proven game), ``[≥ v?]`` for a null window.
    The one wording of a window: the tree inspector's comes from here."""
    low, high = alpha > -INF, beta < INF
    if low and high and alpha + 1 >= beta:
        return f"[≥ {score_words(beta, proven)}?]"

    def end(value: int, inside: int, strict: str) -> tuple[str, bool]:
        words = score_words(inside, proven)
        if proven and words[0] in "+-":
            own = score_words(value, proven)
            if own[0] not in "+-":
                return f"{strict} {own}", False
        return words, True

    lo, lo_in = end(alpha, alpha + 1, ">") if low else ("", True)
    hi, hi_in = end(beta, beta - 1, "<") if high else ("", True)
    if low and high:
        if lo_in and hi_in:
            return f"[{lo}]" if alpha + 2 == beta else f"[{lo} to {hi}]"
        return f"[{lo if not lo_in else '≥ ' + lo}, {hi if not hi_in else '≤ ' + hi}]"
    if low:
        return f"[{lo}]" if not lo_in else f"[≥ {lo}]"
    if high:
        return f"[{hi}]" if not hi_in else f"[≤ {hi}]"
    return "[any]"


def node_dict(node: TreeNode, move_name: MoveName, *, proven: bool = False, chosen: bool = False) -> dict[str, Any]:
    # The root is searched with the whole window (its record keeps none).
    alpha, beta = root_window(node) if node.ply else (-INF, INF)
    return {
        "move": None if node.ply == 0 else move_name(node.move),
        "ply": node.ply,
        "side": "MAX" if node.maximizing else "MIN",
        "window": {
            "low": alpha if alpha > -INF else None,
            "high": beta if beta < INF else None,
            "text": window_words(alpha, beta, proven),
        },
        "value": node.value_for_root(),
        "value_text": value_words(node, proven),
        "bound": root_bound(node),
        "kind": node.kind,
        "chosen": chosen,
        "same_as": None if node.same_as is None else move_name(node.same_as),
        "pruned": [move_name(m) for m in node.pruned],
        "truncated": node.truncated,
        "children": [node_dict(child, move_name, proven=proven, chosen=child.move == node.best and node.best is not None)
                     for child in node.children],
    }


def tree_dict(recorder: TreeRecorder, move_name: MoveName, *, proven: bool = False,
              position: str = "") -> dict[str, Any]:
    """The recorder's tree as a JSON document (``docs/search-tree.schema.json``)."""
    root = recorder.root
    return {
        "schema": SCHEMA_ID,
        "position": position,
        "depth": recorder.depth,
        "partial": recorder.partial,
        "proven": proven,
        "max_plies": recorder.max_plies,
        "max_nodes": recorder.max_nodes,
        "nodes": sum(1 for _ in root.walk()) if root is not None else 0,
        "root": None if root is None else node_dict(root, move_name, proven=proven),
    }


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_dot(recorder: TreeRecorder, move_name: MoveName, *, proven: bool = False, title: str = "",
             name: str = "search") -> str:
    """The recorder's tree as Graphviz DOT: MAX nodes boxes, MIN nodes ellipses, each labelled
    with its value and window; the chosen line (the root's choice, then each node's) bold;
    the moves a cut-off left unsearched as one dashed node per parent."""
    lines = [f"digraph {name} {{", "  graph [rankdir=TB, fontname=\"Helvetica\"];",
             "  node [fontname=\"Helvetica\", fontsize=10];", "  edge [fontname=\"Helvetica\", fontsize=9];"]
    if title:
        lines.append(f"  label={_quote(title)}; labelloc=t;")
    root = recorder.root
    if root is None:
        lines.append('  empty [label="no search tree", shape=plaintext];')
        lines.append("}")
        return "\n".join(lines) + "\n"
    counter = 0

    def add(node: TreeNode, on_line: bool) -> str:
        nonlocal counter
        name = f"n{counter}"
        counter += 1
        alpha, beta = root_window(node) if node.ply else (-INF, INF)
        role = "MAX" if node.maximizing else "MIN"
        head = "root" if node.ply == 0 else move_name(node.move)
        label = f"{head} {role}\n{value_words(node, proven)}\n{window_words(alpha, beta, proven)}"
        if node.kind == "symmetric" and node.same_as is not None:
            label += f"\n= {move_name(node.same_as)} (symmetry)"
        elif node.kind:
            label += f"\n{node.kind}"
        shape = "box" if node.maximizing else "ellipse"
        style = ', style="bold"' if on_line else ""
        lines.append(f"  {name} [label={_quote(label)}, shape={shape}{style}];")
        for child in node.children:
            bold = on_line and node.best is not None and child.move == node.best
            child_name = add(child, bold)
            edge_style = ', style="bold", penwidth=2' if bold else ""
            lines.append(f"  {name} -> {child_name} [label={_quote(move_name(child.move))}{edge_style}];")
        if node.pruned:
            pruned = f"{name}p"
            names = " ".join(move_name(m) for m in node.pruned)
            text = _quote(f"cut off: {len(node.pruned)} not searched\n" + names)
            lines.append(f"  {pruned} [label={text}, shape=note, style=dashed];")
            lines.append(f"  {name} -> {pruned} [style=dashed];")
        if node.truncated:
            deeper = f"{name}t"
            lines.append(f"  {deeper} [label=\"searched, not kept\", shape=plaintext];")
            lines.append(f"  {name} -> {deeper} [style=dotted];")
        return name

    add(root, True)
    lines.append("}")
    return "\n".join(lines) + "\n"


def format_refusal(name: str) -> str | None:
    """Why ``name`` cannot take a tree (None: it ends in .json or .dot)."""
    if not name.strip().lower().endswith(FORMATS):
        return f"{name.strip() or 'the name'} must end in .json or .dot (the format to write)"
    return None


def tree_file_text(name: str, recorder: TreeRecorder, move_name: MoveName, *, proven: bool = False,
                   position: str = "", title: str = "") -> str:
    """What a file called ``name`` holds: JSON for .json, DOT for .dot (ValueError otherwise)."""
    refused = format_refusal(name)
    if refused is not None:
        raise ValueError(refused)
    if name.strip().lower().endswith(".json"):
        document = tree_dict(recorder, move_name, proven=proven, position=position)
        return json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    return tree_dot(recorder, move_name, proven=proven, title=title or position)


ARENA_SCHEMA_ID = "tui-games/arena-trees/1"


def game_trees_dict(game: str, start: str, players: list[str],
                    moves: list[tuple[int, str, str, TreeRecorder | None, bool]], move_name: MoveName) -> dict[str, Any]:
    """``arena --tree FILE.json``: every move of one game with its search tree. ``moves``:
    (ply, player, move text, recorder or None for a player that does not search, proven)."""
    return {
        "schema": ARENA_SCHEMA_ID,
        "game": game,
        "start": start,
        "players": players,
        "moves": [{"ply": ply, "player": player, "move": text,
                   "tree": tree_dict(recorder, move_name, proven=proven) if recorder is not None else None}
                  for ply, player, text, recorder, proven in moves],
    }


def game_trees_dot(moves: list[tuple[int, str, str, TreeRecorder | None, bool]], move_name: MoveName) -> str:
    """``arena --tree FILE.dot``: one graph per move that searched (``dot -Tsvg`` draws each)."""
    return "".join(tree_dot(recorder, move_name, proven=proven, title=f"ply {ply}: {player} plays {text}",
                            name=f"ply{ply}")
                   for ply, player, text, recorder, proven in moves if recorder is not None)
