"""``tui-games GAME trace POSITION --depth D [--algorithm A] [--json]``: a search's events one
a line, for showing alpha-beta in a terminal or diffing two orderings.

One search to depth D (no deepening: the events are those of one tree) with a seeded
tie-break; every node it enters is one ``enter`` line, so the count of ``enter`` lines is
the node count the statistics report (the last line says both). The events come from the
tree recorder (:mod:`tui_games.engine.trace`), kept whole up to :data:`TRACE_NODES` nodes.
"""

from __future__ import annotations

import argparse
import json
import random
from typing import Any

from tui_games.commands.common import UsageError, positive_int
from tui_games.engine.search import ALGORITHMS, ALPHABETA, SearchLimits, resolve_algorithm, search
from tui_games.engine.tree import TreeRecorder

# A trace is for looking at: a bigger search would print lines for hours.
TRACE_NODES = 200_000
MAX_DEPTH = 30


def add_trace_tool(tools: Any, game: str) -> None:
    """``trace`` among the tools of ``tui-games GAME``."""
    trace = tools.add_parser("trace", help="a search's events one a line: enter, table hit, cut-off, return")
    trace.set_defaults(handler=cmd_trace, trace_game=game)
    trace.add_argument("position", metavar="POSITION",
                       help="the position in the game's notation, or a name from its library (as bench --sweep)")
    trace.add_argument("--depth", type=positive_int, required=True, metavar="D", help="plies to search")
    trace.add_argument("--algorithm", default=ALPHABETA, metavar="A",
                       help=f"{', '.join(ALGORITHMS)} (default {ALPHABETA})")
    trace.add_argument("--seed", type=int, default=0, help="seed for the tie-break among equal root moves")
    trace.add_argument("--json", action="store_true", help="one JSON object per event, then a summary object")


def _position(game: str, text: str) -> Any:
    # Here, not at the top: every game's other tools build this parser, and the adapters
    # (with the analysis and the players behind them) cost a one-shot `solve` 20 ms.
    from tui_games.engine.adapter import find_position
    from tui_games.games import arena_adapter

    adapter = arena_adapter(game)
    entry = find_position(adapter, text)
    if entry is not None:
        return adapter, adapter.library_position(entry)
    try:
        return adapter, adapter.start(adapter.positions[0].variant, text)
    except ValueError as error:
        names = ", ".join(e.key for e in adapter.positions)
        raise UsageError(f"trace: {text!r} is neither a library position ({names}) nor a {adapter.name} "
                         f"position: {error}") from None


def cmd_trace(args: argparse.Namespace) -> int:
    from tui_games.engine.trace import ENTER, event_dict, events, trace_lines

    try:
        algorithm = resolve_algorithm(args.algorithm)
    except ValueError as error:
        raise UsageError(f"trace: --algorithm: {error}") from None
    if args.depth > MAX_DEPTH:
        raise UsageError(f"trace: --depth {args.depth} is more than {MAX_DEPTH}")
    adapter, position = _position(args.trace_game, args.position)
    if position.outcome() is not None:
        raise UsageError(f"trace: {args.position!r}: the game is over, there is nothing to search")
    recorder = TreeRecorder(max_plies=args.depth, max_nodes=TRACE_NODES)
    result = search(position, SearchLimits(depth=args.depth), algorithm, recorder=recorder, deepen=False,
                    rng=random.Random(args.seed))

    def names(move: Any) -> str:
        # A move's name does not depend on where it is played in these games' notations.
        return adapter.move_text(position, move) if move is not None else "-"

    proven = result.exact
    enters = 0
    if args.json:
        for event in events(recorder):
            enters += event.kind == ENTER
            print(json.dumps(event_dict(event, names, proven=proven), ensure_ascii=False))
    else:
        for text in trace_lines(recorder, names, proven=proven):
            enters += text.startswith(ENTER)
            print(text)
    kept_all = recorder.count < TRACE_NODES
    summary = {"nodes": result.stats.nodes, "enter_events": enters, "cutoffs": result.stats.cutoffs,
               "tt_hits": result.stats.tt_hits, "algorithm": algorithm, "depth": args.depth,
               "move": names(result.move), "complete": kept_all}
    if args.json:
        print(json.dumps({"event": "summary", **summary}))
    else:
        more = "" if kept_all else f" (the trace keeps {TRACE_NODES:,} nodes: the rest was searched untold)"
        print(f"nodes {result.stats.nodes:,} (enter lines {enters:,}), cut-offs {result.stats.cutoffs:,}, "
              f"table hits {result.stats.tt_hits:,}; {algorithm} to depth {args.depth} chose "
              f"{summary['move']}{more}")
    return 0
