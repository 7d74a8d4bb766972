"""``tui-games bench GAME --sweep``: every search configuration at depths 1..D on one position.

The with/without pruning table of the course reports, on this machine: minimax, alpha-beta,
+ move ordering, + transposition table, + iterative deepening (see
:mod:`tui_games.engine.compare` for what each row is), states expanded, cutoffs, table hits,
seconds and the root value; then Monte Carlo tree search at the deepening search's budgets
(its seconds as CPU seconds, its nodes as playouts). It prints what it measured and asserts nothing; whether the
values agree at each depth is reported as a line (the tests check it).
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, cast

from tui_games.bench.table import table
from tui_games.engine.adapter import GameAdapter, LibraryPosition, find_position
from tui_games.engine.compare import (
    CONFIGS,
    DEFAULT_NODE_LIMIT,
    GameValues,
    SweepCell,
    keeps_value,
    score_words,
    sweep,
    values_agree,
)
from tui_games.engine.game import Position
from tui_games.engine.mcts import MCTSStats, mcts_search
from tui_games.games import arena_adapter, arena_specs

Write = Callable[[str], None]

QUICK_DEPTH = 4
# CPU seconds the game's judge may take a position when it marks MCTS's moves.
JUDGE_SECONDS = 0.5
MAX_DEPTH = 20


def resolve_position(game: GameAdapter, position: str | None) -> tuple[LibraryPosition, Position]:
    """The library entry named ``position`` (default: the game's first), or a position given as
    text in the game's notation; ValueError names the library's entries."""
    if position is None:
        entry = game.positions[0]
        return entry, game.library_position(entry)
    found = find_position(game, position)
    if found is not None:
        return found, game.library_position(found)
    try:
        default = game.positions[0]
        built = game.start(default.variant, position)
    except ValueError as error:
        names = ", ".join(e.key for e in game.positions)
        raise ValueError(f"--position {position!r} is neither a library position ({names}) nor a "
                         f"{game.name} position: {error}") from None
    return LibraryPosition("given", position, "the position given", default.variant, default.depth), built


def bench_sweep(write: Write, *, game: str, quick: bool = False, node_limit: int = DEFAULT_NODE_LIMIT,
                depth: int | None = None, position: str | None = None) -> None:
    arena = arena_adapter(game)
    entry, pos = resolve_position(arena, position)
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"--depth {depth} is not from 1 to {MAX_DEPTH}")
    top = depth if depth is not None else min(entry.depth, QUICK_DEPTH) if quick else entry.depth
    shown = entry.text or "(empty board)"
    write(f"Algorithm sweep: {arena.title}, {entry.key} {shown}")
    write(f"({entry.note}; {arena.side_names[pos.turn]} to move)")
    write(f"depths 1-{top}, one search per cell; a search that would pass {node_limit:,} states is skipped "
          f"(--node-limit)")
    write("rows: minimax; alpha-beta; + ordering; + TT (one search at the depth); + deepening (depths 1..d, "
          "counts summed)")
    write("")
    row = table(write, ["depth", "algorithm", "states", "cutoffs", "TT hits", "seconds", "value", "move"],
                 [5, 11, 10, 9, 8, 7, 10, 6], left=(1, 6, 7))

    def show(cell: SweepCell) -> None:
        if cell.skipped:
            row([str(cell.depth), cell.config.label, "skipped", "-", "-", "-", "-", "-"])
            return
        value = "node limit" if cell.stopped else score_words(cell.score, cell.exact)
        move = arena.move_text(pos, cell.move) if cell.move is not None else "-"
        row([str(cell.depth), cell.config.label, f"{cell.nodes:,}", f"{cell.cutoffs:,}", f"{cell.tt_hits:,}",
             f"{cell.seconds:.3f}", value, move])

    last_depth = 0

    def on_cell(cell: SweepCell) -> None:
        nonlocal last_depth
        if cell.depth != last_depth and last_depth:
            write("")
        last_depth = cell.depth
        show(cell)

    cells = sweep(pos, range(1, top + 1), node_limit=node_limit, on_cell=on_cell)
    write("")
    agree = values_agree(cells)
    differ = [d for d, ok in agree.items() if not ok]
    write("root values: " + ("the same for every algorithm at every depth" if not differ
                             else f"DIFFER at depth {', '.join(map(str, differ))}"))
    write("")
    write("States expanded per depth (the with/without pruning table):")
    write("")
    pivot = table(write, ["depth", *(c.label for c in CONFIGS)], [5, *([12] * len(CONFIGS))], left=())
    for d in range(1, top + 1):
        by_key = {c.config.key: c for c in cells if c.depth == d}
        pivot([str(d), *(("-" if not by_key[c.key].done else f"{by_key[c.key].nodes:,}") for c in CONFIGS)])
    write("")
    mcts_table(write, arena, pos, cells)


def mcts_table(write: Write, arena: GameAdapter, pos: Any, cells: list[SweepCell]) -> None:
    """Monte Carlo tree search beside the deepening alpha-beta at equal budgets: at each depth
    the seconds that search took (at least a millisecond) as MCTS's CPU seconds, and as many playouts as it had nodes
    (seeded, a fresh tree each); with the move each picks and, where the sweep solved the
    position or the game's judge knows its value exactly, whether that move keeps it."""
    rows = [c for c in cells if c.config.key == "deepening" and c.done]
    solved = next((c for c in reversed(rows) if c.exact and c.score is not None), None)
    # Where no depth solved it, the game's judge may know the value (Connect-4's solver).
    judge = arena.judge(arena.variant_of(pos), seconds=JUDGE_SECONDS) if solved is None else None
    values = GameValues(pos, judge, None) if judge is not None and pos.outcome() is None else None
    write("Monte Carlo tree search (UCT, random playouts, MCTS-Solver) at the budgets of + deepening:")
    write("")
    row = table(write, ["depth", "budget", "playouts", "seconds", "move", "best?", "+ deepening"],
                [5, 16, 10, 7, 6, 5, 11], left=(1, 4, 5))

    def best(move: Any) -> str:
        if move is None:
            return "-"
        if solved is not None:
            return "yes" if keeps_value(pos, move, solved) else "no"
        keeps = values.keeps(move) if values is not None else None
        return "-" if keeps is None else "yes" if keeps else "no"

    for cell in rows:
        theirs = arena.move_text(pos, cell.move) if cell.move is not None else "-"
        seconds, playouts = max(cell.seconds, 0.001), max(1, cell.nodes)
        for budget, result in ((f"{seconds * 1000:,.1f} ms CPU", mcts_search(pos, seconds=seconds, seed=0)),
                               (f"{playouts:,} playouts", mcts_search(pos, playouts=playouts, seed=0))):
            move = arena.move_text(pos, result.move) if result.move is not None else "-"
            row([str(cell.depth), budget, f"{cast(MCTSStats, result.stats).playouts:,}", f"{result.stats.seconds:.3f}", move,
                 best(result.move), theirs])
    if solved is None and (values is None or values.root is None):
        write("(best?: - where the sweep did not solve the position)")


def sweep_bench(game: str) -> Callable[..., None]:
    """The sweep for ``game`` as a bench function; ValueError for a game without a search tree."""
    key = game.strip().lower()
    names = [spec.key for spec in arena_specs()]
    if key not in names:
        raise ValueError(f"no algorithm sweep for {game!r}: it has no game-tree search; "
                         f"choose one of {', '.join(names)}")
    return partial(bench_sweep, game=key)
