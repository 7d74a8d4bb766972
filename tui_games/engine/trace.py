"""A recorded search told as a film: its events in the order the search met them.

The events come from a :class:`~tui_games.engine.tree.TreeRecorder`'s tree, walked depth
first, so they need nothing of the game and nothing more of the search than the recorder
it already feeds (no recorder, no cost): ``enter`` a node (every node the search counts),
``table`` (its value taken from the transposition table), ``cut-off`` (a move's value
refuted the node: the rest of its moves are skipped), ``return`` (the node's value backed
up, with its window and bound), and ``symmetry`` (a root move a symmetry of the board makes
equal to one already searched: not searched, not counted). ``tui-games GAME trace`` prints
them one a line; the step-mode screen plays them node by node on the board.

Values and windows are in the classic picture (from the side of the player to move at the
root, MAX), as the tree inspector shows them, and :func:`sentence` says each event in words:
"β cut-off: MIN already holds b3 at ≤ draw above, so MAX's win in 5 here cannot be chosen;
5 moves skipped".
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from tui_games.engine.search import INF, SearchLimits, SearchResult, resolve_algorithm, score_words, search
from tui_games.engine.tree import TreeNode, TreeRecorder
from tui_games.engine.tree_export import root_bound, root_window, value_words, window_words

ENTER, TABLE, CUTOFF, RETURN, SYMMETRY = "enter", "table", "cut-off", "return", "symmetry"
KINDS = (ENTER, TABLE, CUTOFF, RETURN, SYMMETRY)

MoveName = Callable[[Any], str]


@dataclass(frozen=True, slots=True)
class Event:
    """One step of the film: ``kind``, the node it is about and the path to it (root first,
    the node last). A cut-off's ``child`` is the move whose value refuted the node."""

    kind: str
    path: tuple[TreeNode, ...]
    child: TreeNode | None = None

    @property
    def node(self) -> TreeNode:
        return self.path[-1]

    @property
    def ply(self) -> int:
        return self.node.ply


def events(recorder: TreeRecorder) -> Iterator[Event]:
    """The recorder's tree as the search met it (nothing if it holds no tree)."""
    if recorder.root is not None:
        yield from _walk((recorder.root,))


def _walk(path: tuple[TreeNode, ...]) -> Iterator[Event]:
    node = path[-1]
    if node.kind == "symmetric":
        yield Event(SYMMETRY, path)
        return
    yield Event(ENTER, path)
    if node.kind == "tt":
        yield Event(TABLE, path)
    for child in node.children:
        yield from _walk((*path, child))
    if node.pruned and node.children:
        yield Event(CUTOFF, path, node.children[-1])
    yield Event(RETURN, path)


def side(node: TreeNode) -> str:
    return "MAX" if node.maximizing else "MIN"


def _window(node: TreeNode, proven: bool) -> str:
    alpha, beta = root_window(node) if node.ply else (-INF, INF)
    return window_words(alpha, beta, proven)


def _name(node: TreeNode, move_name: MoveName) -> str:
    return "root" if node.ply == 0 else move_name(node.move)


def line(path: tuple[TreeNode, ...], move_name: MoveName) -> str:
    """The moves from the root to the node: ``b2 a1 c3`` (``root`` for the root itself)."""
    return " ".join(move_name(n.move) for n in path[1:]) or "root"


def holder(path: tuple[TreeNode, ...], refuted_max: bool) -> tuple[TreeNode, TreeNode] | None:
    """Who set the bound a cut-off at ``path[-1]`` beat: the nearest ancestor of the other
    side (MIN for a MAX node's β cut-off) and its best child searched before this line, the
    choice it "already holds". None when no ancestor holds one (the window came from outside)."""
    best: tuple[TreeNode, TreeNode] | None = None
    best_value: int | None = None
    for depth in range(len(path) - 2, -1, -1):
        ancestor, on_line = path[depth], path[depth + 1]
        if ancestor.maximizing == refuted_max:
            continue
        for sibling in ancestor.children:
            if sibling is on_line:
                break
            value = sibling.value_for_root()
            if value is None:
                continue
            # MIN holds the lowest value (β), MAX the highest (α); the nearest wins a tie.
            if best_value is None or (value < best_value if refuted_max else value > best_value):
                best, best_value = (ancestor, sibling), value
    return best


def sentence(event: Event, move_name: MoveName, *, proven: bool = False) -> str:
    """The event in words, for the trace and the step-mode screen."""
    node = event.node
    who = side(node)
    where = _name(node, move_name)
    if event.kind == ENTER:
        return f"enter {where} ({who} to choose), window {_window(node, proven)}"
    if event.kind == TABLE:
        return f"table hit at {where}: {value_words(node, proven)} is known from an earlier search, not searched again"
    if event.kind == SYMMETRY:
        same = move_name(node.same_as) if node.same_as is not None else "?"
        return f"{where} is {same} seen in a mirror: its value {value_words(node, proven)} is {same}'s, not searched"
    if event.kind == RETURN:
        note = {"end": " (game over)", "horizon": " (the evaluation at the depth limit)",
                "dead draw": " (nobody can win)", "tt": " (from the table)"}.get(node.kind, "")
        return f"return {where}: {value_words(node, proven)}{note}, window {_window(node, proven)}"
    return cutoff_sentence(event, move_name, proven=proven)


def cutoff_sentence(event: Event, move_name: MoveName, *, proven: bool = False) -> str:
    """"β cut-off: MIN already holds b3 at ≤ draw above, so MAX's +2 here cannot be chosen;
    5 moves skipped" (an α cut-off the same with the sides swapped)."""
    node = event.node
    child = event.child
    is_max = node.maximizing
    letter = "β" if is_max else "α"
    me, them = ("MAX", "MIN") if is_max else ("MIN", "MAX")
    value = child.value_for_root() if child is not None else node.value_for_root()
    exact = proven or (child is not None and child.kind in ("end", "dead draw"))
    mine = "?" if value is None else score_words(value, exact)
    skipped = len(node.pruned)
    moves = f"{skipped} move{'s' * (skipped != 1)} skipped"
    by = f" by {move_name(child.move)}" if child is not None else ""
    found = holder(event.path, is_max)
    if found is None:
        alpha, beta = root_window(node)
        limit = beta if is_max else alpha
        return (f"{letter} cut-off at {_name(node, move_name)}{by}: {me}'s {mine} here passes "
                f"{score_words(limit, proven)}, more than {them} allows above; {moves}")
    ancestor, sibling = found
    held = sibling.value_for_root()
    bound = root_bound(sibling)
    words = score_words(held, proven and bound == "exact") if held is not None else "?"
    # MIN holding b3 means b3's value or less for MAX: "≤"; MAX holding one, "≥".
    mark = "≤" if is_max else "≥"
    # The same words on both sides (a tie, or two values the words do not tell apart): say
    # why a tie is enough, it gives the player above nothing better.
    tie = f", no better for {them}," if mine == words else ""
    return (f"{letter} cut-off at {_name(node, move_name)}{by}: {them} already holds {move_name(sibling.move)} "
            f"at {mark} {words} above, so {me}'s {mine} here{tie} cannot be chosen; {moves}")


def trace_lines(recorder: TreeRecorder, move_name: MoveName, *, proven: bool = False) -> Iterator[str]:
    """One line per event: the kind, the ply, the line of moves to the node, the sentence."""
    for event in events(recorder):
        yield f"{event.kind:8s} {event.ply:2d}  {line(event.path, move_name):24s} {sentence(event, move_name, proven=proven)}"


def event_dict(event: Event, move_name: MoveName, *, proven: bool = False) -> dict[str, Any]:
    """The event as JSON (``trace --json``): numbers from the root player's side and words."""
    node = event.node
    alpha, beta = root_window(node) if node.ply else (-INF, INF)
    data: dict[str, Any] = {
        "event": event.kind,
        "ply": node.ply,
        "line": [move_name(n.move) for n in event.path[1:]],
        "side": side(node),
        "alpha": alpha if alpha > -INF else None,
        "beta": beta if beta < INF else None,
        "window": window_words(alpha, beta, proven),
        "text": sentence(event, move_name, proven=proven),
    }
    if event.kind in (RETURN, TABLE, SYMMETRY):
        data["value"] = node.value_for_root()
        data["bound"] = root_bound(node)
        data["value_text"] = value_words(node, proven)
    if event.kind == CUTOFF:
        data["by"] = move_name(event.child.move) if event.child is not None else None
        data["skipped"] = [move_name(m) for m in node.pruned]
    return data


# What step mode records at most: the screen says so.
FILM_NODES = 50_000


def film_search(position: Any, algorithm: str, depth: int, *, node_limit: int = FILM_NODES,
                stop: threading.Event | None = None, seed: int = 0) -> tuple[SearchResult, TreeRecorder]:
    """One search of ``position`` recorded whole, for step mode: ``algorithm`` to ``depth``
    in one iteration (no deepening: the film is one tree, its enter events the search's node
    count). Where that passes ``node_limit`` nodes, the deepest depth whose single search
    fits is recorded instead (found by deepening under the limit). Returns the search's
    result and its recorder; the recording never holds more than ``node_limit`` nodes."""
    algorithm = resolve_algorithm(algorithm)

    def once(d: int) -> tuple[SearchResult, TreeRecorder]:
        recorder = TreeRecorder(max_plies=d, max_nodes=node_limit + 1)
        result = search(position, SearchLimits(depth=d, nodes=node_limit), algorithm, recorder=recorder,
                        deepen=False, stop=stop, rng=random.Random(seed))
        return result, recorder

    result, recorder = once(depth)
    if not result.stopped or (stop is not None and stop.is_set()):
        return result, recorder
    # Too big: the deepest iteration a deepening search finishes under the limit, then that
    # depth searched alone (smaller still if alone it does not fit).
    probe = TreeRecorder(max_plies=1, max_nodes=2)
    search(position, SearchLimits(depth=depth, nodes=node_limit), algorithm, recorder=probe, deepen=True,
           stop=stop, rng=random.Random(seed))
    fits = probe.depth if probe.root is not None and not probe.partial else 1
    for d in range(max(1, fits), 0, -1):
        result, recorder = once(d)
        if not result.stopped or d == 1 or (stop is not None and stop.is_set()):
            return result, recorder
    return result, recorder
