"""Monte Carlo tree search over the position contract: UCT, random playouts, MCTS-Solver.

Each iteration walks from the root down the tree by UCT (Kocsis & Szepesvári 2006): at a
node whose moves have all been tried it enters the child with the highest

    W/N + C · sqrt(ln N_parent / N)

where ``W`` is the sum of the playouts' rewards for the player who made the child's move
(1 a win, ½ a draw, 0 a loss) and ``N`` its visits; :data:`EXPLORATION` is ``C``, √2, the
constant of UCB1 for rewards in [0, 1]. At the first node with an untried move it adds one
child (expansion), plays a game on from there at random (the playout: uniform over the legal
moves, or the game's own faster one, which a position offers by declaring
:class:`~tui_games.engine.game.Playouts`), and adds the result to every node on the path
(backpropagation).

The solver (Winands, Björnsson & Saito 2008, MCTS-Solver) marks what is proven: a finished
game at once; a node with a child that is lost for the opponent is won; a node whose children
are all proven takes the best of them. Proofs carry their distance (plies to the end), so a
proven win is taken by its shortest road and a proven loss put off by its longest. Selection
never enters a child proven lost for the mover, and the move chosen is never one that is
proven to lose while another is not. A proven root ends the search early.

The search keeps its tree between moves (:meth:`MCTS.advance`): after a move and its reply
the subtree under them is the new root, with its visits and proofs. The budget is playouts,
or CPU seconds of the searching thread under a wall-clock ceiling (:mod:`.budget`), and the
search stops when ``stop`` is set; ``on_progress`` gets an :class:`MCTSStats` a tenth of a
second apart and a ``recorder`` the tree at the end (N, W, UCT and proofs on each node).
Everything random draws from one seeded ``random.Random``: the same seed and the same
playout budget give the same tree and the same move.
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from tui_games.engine.budget import Budget
from tui_games.engine.game import Playouts, Position
from tui_games.engine.mcts_spec import MCTS_NAME, is_mcts, parse_mcts_spec
from tui_games.engine.pacing import give_way
from tui_games.engine.players import Decision, Player, ProgressCallback
from tui_games.engine.search import EXACT, INF, WIN, RootMove, SearchResult, SearchStats
from tui_games.engine.tree import TreeNode, TreeRecorder

__all__ = [
    "EXPLORATION",
    "MCTS",
    "MCTSNode",
    "MCTSPlayer",
    "MCTSStats",
    "MCTS_ALGORITHM",
    "mcts_search",
    "is_mcts",
    "parse_mcts_spec",
    "random_playout",
]

MCTS_ALGORITHM = MCTS_NAME
# UCB1's constant for rewards in [0, 1] (Auer et al. 2002; UCT, Kocsis & Szepesvári 2006).
EXPLORATION = math.sqrt(2)
# A playout that runs this long is scored a draw (checkers' kings can wander).
MAX_PLAYOUT_PLIES = 400
# No node is added beyond this many (some 200 bytes each with their move lists, so about 90 MB):
# the search goes on with playouts from the leaves. Connect-4's 5 s move adds some 300,000.
MAX_TREE_NODES = 400_000
PROGRESS_INTERVAL = 0.1
# Heuristic scores of the SearchResult: the chosen move's share of wins mapped to ±SCALE.
SCALE = 1000
# The player's budget when its spec gives none (CPU seconds a move).
DEFAULT_SECONDS = 1.0


class MCTSNode:
    """One position of the tree. ``visits`` and ``wins`` (W) count the playouts through it, W for
    the player who made ``move`` (the one not to move here); ``proven`` is the game's value for
    the side to move here (+1, 0, -1) once the solver knows it, with ``distance`` plies to the
    end; ``untried`` the legal moves not yet added as children."""

    __slots__ = ("move", "parent", "turn", "children", "untried", "visits", "wins", "proven", "distance")

    def __init__(self, move: Any, parent: MCTSNode | None, turn: int) -> None:
        self.move = move
        self.parent = parent
        self.turn = turn
        self.children: list[MCTSNode] = []
        self.untried: list[Any] = []
        self.visits = 0
        self.wins = 0.0
        self.proven: int | None = None
        self.distance = 0

    @property
    def share(self) -> float:
        """W/N: the share of the playouts through here won by the player who moved here."""
        return self.wins / self.visits if self.visits else 0.0

    def uct(self, parent_visits: int, c: float = EXPLORATION) -> float:
        if not self.visits:
            return math.inf
        return self.wins / self.visits + c * math.sqrt(math.log(max(1, parent_visits)) / self.visits)

    def size(self) -> int:
        count, stack = 0, [self]
        while stack:
            node = stack.pop()
            count += 1
            stack.extend(node.children)
        return count


@dataclass
class MCTSStats(SearchStats):
    """The search's statistics (``nodes`` counts the playouts, so the tables of every search
    read it alike) and MCTS's own: the tree's size and the best move's visits and W/N."""

    algorithm: str = MCTS_ALGORITHM
    playouts: int = 0
    tree_size: int = 0
    best_visits: int = 0
    best_share: float = 0.0
    proven: int | None = None

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    def snapshot(self) -> MCTSStats:
        new = MCTSStats(**{name: getattr(self, name) for name in self.__dataclass_fields__})
        new.pv, new.root_moves = list(self.pv), list(self.root_moves)
        return new


def random_playout(position: Position[Any], rng: random.Random, max_plies: int = MAX_PLAYOUT_PLIES) -> int | None:
    """The winner (0 or 1, None a draw) of a game played on from ``position`` by uniform
    random moves, ``max_plies`` at most (then a draw); ``position`` is given back unchanged."""
    pushed = 0
    outcome = position.outcome()
    while outcome is None and pushed < max_plies:
        moves = position.legal_moves()
        position.push(moves[int(rng.random() * len(moves))])
        pushed += 1
        outcome = position.outcome()
    for _ in range(pushed):
        position.pop()
    return outcome.winner if outcome is not None else None


def _reward(winner: int | None, mover: int) -> float:
    return 0.5 if winner is None else 1.0 if winner == mover else 0.0


def _proven_score(value: int, distance: int, ply: int = 0) -> int:
    """A proven value as the alpha-beta searches score it: a win ``WIN - plies`` from the root."""
    if value == 0:
        return 0
    return (WIN - ply - distance) * value


class MCTS:
    """A Monte Carlo tree search that keeps its tree: :meth:`advance` to a later position, then
    :meth:`run` again."""

    def __init__(
        self,
        position: Position[Any],
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        exploration: float = EXPLORATION,
        max_playout_plies: int = MAX_PLAYOUT_PLIES,
        max_tree_nodes: int = MAX_TREE_NODES,
    ) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self.exploration = exploration
        self.max_playout_plies = max_playout_plies
        self.max_tree_nodes = max_tree_nodes
        self._reset(position)

    def _reset(self, position: Position[Any]) -> None:
        self.pos = position.copy()
        self.history = list(position.history)
        # The game's own playout, where its position declares one (engine.game.Playouts).
        self._playout = self.pos.playout if isinstance(self.pos, Playouts) else None
        self.root = self._new_node(None, None)
        self.tree_size = 1
        self.max_depth = 0

    def _new_node(self, move: Any, parent: MCTSNode | None) -> MCTSNode:
        pos = self.pos
        node = MCTSNode(move, parent, pos.turn)
        outcome = pos.outcome()
        if outcome is not None:
            node.proven = outcome.value_for(pos.turn)
        else:
            node.untried = pos.legal_moves()
            self.rng.shuffle(node.untried)
        return node

    # -- keeping the tree from move to move ------------------------------------------------------

    def advance(self, position: Position[Any]) -> bool:
        """Make ``position`` the root: the subtree under the moves played since the last root
        when it is a later position of the same game (True), else a fresh tree (False)."""
        history = list(position.history)
        n = len(self.history)
        node: MCTSNode | None = self.root
        if history[:n] == self.history and _same_position(position, self.pos, len(history) - n):
            for move in history[n:]:
                if node is None:
                    break
                node = next((child for child in node.children if child.move == move), None)
            if node is not None:
                node.parent = None
                self.root = node
                self.pos = position.copy()
                self._playout = self.pos.playout if isinstance(self.pos, Playouts) else None
                self.history = history
                self.tree_size = node.size()
                return True
        self._reset(position)
        return False

    # -- one iteration ---------------------------------------------------------------------------

    def _select(self, node: MCTSNode) -> MCTSNode:
        log_n = math.log(max(1, node.visits))
        c = self.exploration
        best, best_value = None, -math.inf
        for child in node.children:
            if child.proven == 1:
                continue  # the opponent wins there: never entered
            if not child.visits:
                return child
            value = child.wins / child.visits + c * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        assert best is not None, "a node whose every child loses is proven lost"
        return best

    def iterate(self) -> None:
        """One playout: select, expand, play out, back up (and prove what can be proven)."""
        pos = self.pos
        node = self.root
        depth = 0
        while node.proven is None and not node.untried:
            node = self._select(node)
            pos.push(node.move)
            depth += 1
        if node.proven is None and self.tree_size < self.max_tree_nodes:
            move = node.untried.pop()
            pos.push(move)
            depth += 1
            child = self._new_node(move, node)
            node.children.append(child)
            self.tree_size += 1
            node = child
        if node.proven is not None:
            winner = None if node.proven == 0 else node.turn if node.proven == 1 else 1 - node.turn
        elif self._playout is not None:
            winner = self._playout(self.rng.getrandbits(64), self.max_playout_plies)
        else:
            winner = random_playout(pos, self.rng, self.max_playout_plies)
        for _ in range(depth):
            pos.pop()
        self.max_depth = max(self.max_depth, depth)
        self._backup(node, winner)

    def _backup(self, leaf: MCTSNode, winner: int | None) -> None:
        proving = leaf.proven is not None
        node: MCTSNode | None = leaf
        while node is not None:
            node.visits += 1
            if node.parent is not None:
                node.wins += _reward(winner, node.parent.turn)
            if proving and node is not leaf:
                proving = _prove(node)
            node = node.parent

    # -- the search --------------------------------------------------------------------------------

    def run(
        self,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        stop: threading.Event | None = None,
        on_progress: Callable[[MCTSStats], None] | None = None,
        recorder: TreeRecorder | None = None,
    ) -> SearchResult:
        """Search from the root until ``playouts`` more playouts, ``seconds`` of this thread's
        CPU (under the wall-clock ceiling), ``stop``, or a proof of the root's value."""
        start = time.perf_counter()
        budget = Budget(seconds) if seconds is not None else None
        stats = MCTSStats()
        self.max_depth = 0
        done = 0
        last_progress = start
        root = self.root
        stopped = False
        while root.proven is None:
            if playouts is not None and done >= playouts:
                break
            if stop is not None and stop.is_set():
                stopped = True
                break
            if budget is not None and budget.passed():
                break
            give_way()
            self.iterate()
            done += 1
            if on_progress is not None:
                now = time.perf_counter()
                if now - last_progress >= PROGRESS_INTERVAL:
                    last_progress = now
                    stats.seconds = now - start
                    self._fill(stats, done)
                    on_progress(stats.snapshot())
        stats.seconds = time.perf_counter() - start
        result = self._fill(stats, done)
        result.stopped = stopped
        if recorder is not None:
            self.record(recorder)
        if on_progress is not None:
            on_progress(stats.snapshot())
        return result

    def best_child(self) -> MCTSNode | None:
        """The move to play: a proven win by its shortest road; else the most visited child not
        proven to lose (W/N breaks ties); all lose: the longest road to the loss."""
        children = self.root.children
        if not children:
            return None
        wins = [c for c in children if c.proven == -1]
        if wins:
            return min(wins, key=lambda c: (c.distance, -c.visits))
        alive = [c for c in children if c.proven != 1]
        if not alive:
            return max(children, key=lambda c: (c.distance, c.visits))
        return max(alive, key=lambda c: (c.visits, c.share, c.proven == 0))

    def _fill(self, stats: MCTSStats, done: int) -> SearchResult:
        root = self.root
        best = self.best_child()
        stats.playouts = stats.nodes = done
        stats.leaves = done
        stats.tree_size = self.tree_size
        stats.depth = stats.seldepth = self.max_depth
        stats.proven = root.proven
        root_moves = [
            RootMove(c.move, _child_score(c)) for c in sorted(root.children, key=lambda c: (-c.visits, -c.share))
        ]
        pv: list[Any] = []
        node = best
        while node is not None:
            pv.append(node.move)
            node = max(node.children, key=lambda c: c.visits, default=None) if node.children else None
            if len(pv) >= 12:
                break
        if best is None:
            move = None
            score = 0
        else:
            move = best.move
            stats.best_visits = best.visits
            stats.best_share = best.share
            score = _proven_score(root.proven, root.distance) if root.proven is not None else _child_score(best)
        stats.best_move, stats.score, stats.pv, stats.root_moves = move, score, pv, root_moves
        exact = root.proven is not None
        return SearchResult(move, score, pv, root_moves, stats, exact, exact, False)

    # -- the tree for the inspector ------------------------------------------------------------------

    def record(self, recorder: TreeRecorder) -> None:
        """The tree as the inspector shows it, most visited first, within the recorder's bounds:
        each node's N, W, UCT and proof, its value (proven, or W/N as ±SCALE) from its mover's
        opponent's side, as the negamax searches store values."""
        root = self.root
        top = recorder.begin(self.max_depth)
        _close(top, root, 0, self.exploration)
        stack: list[tuple[TreeNode, MCTSNode, int]] = [(top, root, 0)]
        while stack:
            shown, node, ply = stack.pop()
            for child in sorted(node.children, key=lambda c: (-c.visits, -c.share)):
                entry = recorder.add_child(shown, child.move, ply + 1, -INF, INF)
                if entry is None:
                    break
                _close(entry, child, ply + 1, self.exploration)
                if child.children:
                    stack.append((entry, child, ply + 1))
        recorder.commit()


def _same_position(position: Position[Any], old: Position[Any], extra: int) -> bool:
    """``position`` with its last ``extra`` moves taken back is ``old``."""
    if extra < 0:
        return False
    back = position.copy()
    for _ in range(extra):
        back.pop()
    return bool(back.key() == old.key() and back.turn == old.turn)


def _prove(node: MCTSNode) -> bool:
    """Prove ``node`` from its children if they allow (True: proven now)."""
    if node.proven is not None:
        return False
    children = node.children
    won = [c.distance for c in children if c.proven == -1]
    if won:
        node.proven, node.distance = 1, min(won) + 1
        return True
    if node.untried or any(c.proven is None for c in children):
        return False
    value = max(-c.proven for c in children if c.proven is not None)
    node.proven = value
    node.distance = 1 + max(c.distance for c in children if c.proven == -value)
    return True


def _child_score(child: MCTSNode) -> int:
    """A root move's score for the mover: its proof, else its W/N as ±SCALE."""
    if child.proven is not None:
        return _proven_score(-child.proven, child.distance, 1)
    return round((2 * child.share - 1) * SCALE) if child.visits else 0


def _close(entry: TreeNode, node: MCTSNode, ply: int, c: float) -> None:
    best = max(node.children, key=lambda ch: ch.visits, default=None)
    if node.proven is not None:
        value = _proven_score(node.proven, node.distance, ply)
        kind = "end" if not node.children and not node.untried else "proven"
    else:
        kind = "mcts"
        if node.parent is None:
            # The root has no mover: its value is its best move's.
            value = _child_score(best) if best is not None else 0
        else:
            value = -round((2 * node.share - 1) * SCALE) if node.visits else 0
    entry.close(value, EXACT, kind, best.move if best is not None else None)
    entry.visits = node.visits
    entry.wins = node.wins
    if node.parent is not None:
        entry.uct = node.uct(node.parent.visits, c)


def mcts_search(
    position: Position[Any],
    *,
    playouts: int | None = None,
    seconds: float | None = None,
    seed: int | None = None,
    stop: threading.Event | None = None,
    on_progress: Callable[[MCTSStats], None] | None = None,
    recorder: TreeRecorder | None = None,
) -> SearchResult:
    """One search from a fresh tree (see :class:`MCTS`); with neither budget, 10,000 playouts."""
    if playouts is None and seconds is None:
        playouts = 10_000
    return MCTS(position, seed=seed).run(
        playouts=playouts, seconds=seconds, stop=stop, on_progress=on_progress, recorder=recorder
    )


# -- the player ----------------------------------------------------------------------------------------


def describe_mcts(result: SearchResult, move_name: Callable[[Any], str]) -> str:
    """The search in a sentence: ``b3: 4,210 of 10,000 playouts, wins 61%``."""
    stats = result.stats
    if result.move is None:
        return "no legal move: the game is over"
    assert isinstance(stats, MCTSStats)
    head = f"{move_name(result.move)}: {stats.best_visits:,} of {stats.playouts:,} playouts"
    if stats.proven is not None:
        end = WIN - abs(result.score) if stats.proven else None
        word = {1: "proven win", -1: "proven loss", 0: "proven draw"}[stats.proven]
        return f"{head}, {word}" + ("" if end is None else f" in {end} ply" if end == 1 else f" in {end} plies")
    return f"{head}, wins {stats.best_share:.0%}"


class MCTSPlayer(Player):
    """Plays the move of a Monte Carlo tree search: ``playouts`` a move, or ``seconds`` of CPU;
    keeps its tree between moves (the subtree under the moves played is reused). ``move_name``
    names a move in the sentence that explains the choice (the adapter's ``move_text``)."""

    def __init__(
        self,
        *,
        playouts: int | None = None,
        seconds: float | None = None,
        seed: int | None = None,
        name: str | None = None,
        move_name: Callable[[Any, Any], str] | None = None,
    ) -> None:
        if playouts is None and seconds is None:
            seconds = DEFAULT_SECONDS
        self.playouts = playouts
        self.seconds = None if playouts is not None else seconds
        self.name = name or (f"mcts {playouts:,}" if playouts is not None else "mcts")
        self.rng = random.Random(seed)
        self.tree: MCTS | None = None
        self._move_name = move_name

    def choose(
        self,
        position: Any,
        *,
        stop: threading.Event | None = None,
        on_progress: ProgressCallback | None = None,
        recorder: TreeRecorder | None = None,
    ) -> Decision:
        if not position.legal_moves():
            return Decision(None, "no legal move: the game is over")
        if self.tree is None:
            self.tree = MCTS(position, rng=self.rng)
        else:
            self.tree.advance(position)
        result = self.tree.run(
            playouts=self.playouts, seconds=self.seconds, stop=stop, on_progress=on_progress, recorder=recorder
        )
        if result.move is None:
            # Stopped before the first playout: any legal move beats none.
            result.move = self.rng.choice(position.legal_moves())
        name = self._move_name
        note = describe_mcts(result, (lambda m: name(position, m)) if name is not None else str)
        return Decision(result.move, note, result)


def mcts_player(
    name: str,
    *,
    seconds: float | None,
    seed: int | None,
    label: str | None = None,
    move_name: Callable[[Any, Any], str] | None = None,
) -> MCTSPlayer | None:
    """The player a spec's ``name`` (its ``@S`` already taken off) names when it is ``mcts``
    (``seconds`` CPU seconds a move, default 1) or ``mcts:N`` (N playouts a move); None for
    any other name, so each game's adapter asks here first. ValueError for a bad ``mcts:N``."""
    if not is_mcts(name):
        return None
    return MCTSPlayer(playouts=parse_mcts_spec(name), seconds=seconds, seed=seed, name=label, move_name=move_name)
