"""``tui-games arena GAME --a PLAYER --b PLAYER --games N``: bot against bot, counted.

    tui-games arena tictactoe --a perfect --b random --games 200 [--seed S] [--json]
    tui-games arena connect4 --a level6:aware --b level6 --games 20 --seconds 2
    tui-games arena checkers --a strong@1 --b baseline --games 10 --csv games.csv

Players are the game's opponents (``perfect``, ``level5``, ``random``, ``rule-based``,
``strong``, ``baseline`` …), with what the game lets a player take (Connect-4's ``:HEURISTIC``)
and ``@SECONDS`` added where wanted, or a bot file (``mybot.py``, ``mybot.py:NAME``,
``level4:myeval.py``: :mod:`tui_games.bots`; a bot that fails loses that game, with its reason); a game's variant flags are its own (``ARENA_OPTIONS`` in
its command module). The sides alternate (``--no-swap``: A always plays X / Black); checkers games start from
seeded three-move ballots, each pair of games sharing one. The run is saved in the data
directory's ``arena.json`` (``--no-save`` skips that). A bad player, variant or start is one
line on stderr naming it, exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tui_games.bench.table import table
from tui_games.bots import player_factory
from tui_games.commands.common import EXIT_INTERRUPTED, UsageError, positive_int, positive_seconds
from tui_games.commands.options import Option, add_game_options, given_options
from tui_games.commands.progress import ProgressLine
from tui_games.commands.tree_output import tree_path
from tui_games.data.resources import read_puzzles
from tui_games.engine.arena import ArenaConfig, ArenaResult, GameRecord, run_arena
from tui_games.engine.players import Decision, Player
from tui_games.engine.tree import TreeRecorder
from tui_games.engine.tree_export import game_trees_dict, game_trees_dot
from tui_games.games import arena_adapter, arena_specs, find_game
from tui_games.userdata.store import Store


def declared_options() -> list[tuple[str, Sequence[Option]]]:
    """The variant options each arena game declares in its command module."""
    return [(spec.key, spec.commands_module.ARENA_OPTIONS) for spec in arena_specs()]


def variant_of_args(args: argparse.Namespace) -> dict:
    """The game's options from the flags that apply to it; UsageError for one that does not."""
    declared = declared_options()
    own = {option.flag: option for key, options in declared if key == args.game for option in options}
    variant: dict = {}
    for flag, value in given_options(args, [option for _, options in declared for option in options]).items():
        if flag not in own:
            raise UsageError(f"{flag} does not apply to {args.game}")
        variant.update(own[flag].variant(value))
    try:
        return arena_adapter(args.game).check_variant(variant)
    except ValueError as error:
        raise UsageError(str(error)) from None


def openings_of(game, start: str | None) -> list | None:
    """The game's shipped openings (checkers: the ballots), unless a start is given."""
    if start is not None or game.openings_file is None:
        return None
    try:
        return game.parse_openings(read_puzzles(game.openings_file))
    except (OSError, ValueError) as error:
        raise UsageError(f"cannot read the openings {game.openings_file}: {error}") from None


def check_player(game, flag: str, spec: str, seconds: float | None, variant: dict) -> None:
    """Build the player ``spec`` once (a bot file's is only read, not run), so a bad one is a
    usage error before any game."""
    try:
        player_factory(game)(spec, seed=0, seconds=seconds, variant=variant).close()
    except ValueError as error:
        raise UsageError(f"{flag} {spec!r}: {error}") from None


def _check(game, config: ArenaConfig) -> None:
    """Both players and the start, checked before any game."""
    for flag, spec in (("--a", config.a), ("--b", config.b)):
        check_player(game, flag, spec, config.seconds, config.variant)
    try:
        game.start(config.variant, config.start)
    except ValueError as error:
        raise UsageError(f"--start {config.start!r}: {error}") from None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def result_lines(result: ArenaResult) -> list[str]:
    """The results table: per player wins, draws, losses, length, time and nodes per move."""
    config = result.config
    game = arena_adapter(config.game)
    lines = [f"{result.game_title} ({game.variant_label(config.variant)}): {result.games} games in "
             f"{result.seconds:.1f} s, seed {result.seed}, "
             + ("sides alternate" if config.swap else f"A always {result.side_names[0]}")
             + (" — CANCELLED" if result.cancelled else "")]
    lines.append("")
    # Fits 80 columns: the legend under the table spells the short titles out.
    row = table(lines.append, ["player", "wins", "draws", "losses", "W 1st", "W 2nd", "moves", "ms/move", "nodes/move"],
                [16, 4, 5, 6, 5, 5, 5, 7, 10])
    for who, name in (("a", result.a_name), ("b", result.b_name)):
        s = result.side(who)
        row([f"{who.upper()} {name}"[:16], str(s.wins), str(s.draws), str(s.losses), str(s.wins_first),
             str(s.wins_second), f"{s.moves_per_game:.1f}", ms(s.seconds_per_move), f"{s.nodes_per_move:,.0f}"])
    lines.append("")
    lines.append(f"W 1st/2nd: wins as {result.side_names[0]} (moving first) / as {result.side_names[1]}; "
                 "moves: its moves a game;")
    lines.append("ms/move, nodes/move: its average thinking time and search nodes a move")
    summary = f"A won {result.a_wins}, drew {result.draws}, B won {result.b_wins}; {result.average_plies:.1f} plies a game"
    if result.adjudicated:
        summary += f"; {result.adjudicated} drawn by adjudication at {game.max_plies} plies"
    lines.append(summary)
    lines += forfeit_lines(result.records)
    return lines


def forfeit_lines(records: Sequence[GameRecord], *, limit: int = 10) -> list[str]:
    """A line per game a bot lost by failing (the first ``limit``; then how many more)."""
    lost = [r for r in records if r.forfeit is not None]
    lines = [f"game {r.number}: forfeited: {r.forfeit}" for r in lost[:limit]]
    if len(lost) > limit:
        lines.append(f"… and {len(lost) - limit} more forfeited games (--json lists them all)")
    return lines


def game_line(record: GameRecord, result: ArenaResult) -> str:
    winner = {"a": "A wins", "b": "B wins", None: "draw"}[record.winner]
    opening = f" {record.opening}" if record.opening else ""
    forfeit = f" ({record.forfeit})" if record.forfeit else ""
    return (f"game {record.number:3d}  A {result.side_names[record.a_side]:5s} {winner:6s} "
            f"{record.reason:14s} {record.plies:3d} plies{opening}{forfeit}")


def cmd_arena(args: argparse.Namespace) -> int:
    try:
        spec = find_game(args.game)
    except ValueError:
        raise UsageError(f"no arena for {args.game!r}; choose one of {', '.join(s.key for s in arena_specs())}") from None
    if spec.arena is None:
        raise UsageError(f"no arena for {spec.key}: {spec.no_arena}")
    args.game = name = spec.key
    game = arena_adapter(name)
    config = ArenaConfig(name, args.a, args.b, args.games, args.swap, args.seed, args.seconds, variant_of_args(args),
                         args.start)
    _check(game, config)
    openings = openings_of(game, args.start)
    verbose = args.verbose and not args.json
    stop = threading.Event()
    progress = ProgressLine(config.games, shown=None if not args.json else False)
    finished = 0

    def on_game(record: GameRecord, so_far: ArenaResult) -> None:
        nonlocal finished
        finished = len(so_far.records)
        if verbose:
            progress.clear()
            print(game_line(record, so_far), flush=True)
        progress.update(finished)

    def on_move(number: int, plies: int) -> None:
        progress.update(finished, f"game {number}, ply {plies}")

    if args.tree is not None and args.games != 1:
        raise UsageError(f"--tree writes the search trees of one game's moves: give --games 1, not {args.games}")
    trees: list[tuple[int, str, str, TreeRecorder | None, bool]] = []
    # A position to name moves in (the games' move names do not depend on where they are played).
    seen: list[Any] = []

    def on_tree(position: Any, player: Player, decision: Decision, recorder: TreeRecorder) -> None:
        seen[:] = seen or [position]
        proven = decision.result is not None and decision.result.exact
        trees.append((len(position.history), player.name, game.move_text(position, decision.move),
                      recorder if recorder.root is not None else None, proven))

    result = _run_interruptibly(lambda: run_arena(game, config, openings=openings, stop=stop, on_game=on_game,
                                                  on_move=on_move, make_player=player_factory(game),
                                                  on_tree=on_tree if args.tree is not None else None),
                                stop)
    progress.clear()
    if result.cancelled:
        # Ctrl+C: the games played are kept, saved and reported like a finished run's.
        print(f"tui-games: interrupted: {result.games} of {config.games} games played, reported below",
              file=sys.stderr)
    if args.save:
        store = Store()
        store.record_arena_run(result.to_dict(with_notes=False))
        for warning in store.take_warnings():
            print(f"tui-games: warning: {warning}", file=sys.stderr)
    if args.tree is not None:
        _write_trees(args.tree, game, result, trees, seen[0] if seen else None)
    if args.csv is not None:
        try:
            args.csv.write_text(result.csv_text(), encoding="utf-8")
        except OSError as error:
            raise UsageError(f"cannot write --csv {str(args.csv)!r}: {error.strerror or error}") from None
    if args.json:
        print(json.dumps(result.to_dict(with_games=True)))
    else:
        if verbose:
            print()
        for line in result_lines(result):
            print(line)
    return EXIT_INTERRUPTED if result.cancelled else 0


def _run_interruptibly(run: Callable[[], ArenaResult], stop: threading.Event) -> ArenaResult:
    """``run()`` in a thread, so that Ctrl+C in this one sets ``stop`` and the series returns
    the games it finished (marked cancelled) instead of losing them all."""
    outcome: list[ArenaResult] = []
    failure: list[BaseException] = []
    done = threading.Event()

    def target() -> None:
        try:
            outcome.append(run())
        except BaseException as error:  # handed to the main thread, raised there
            failure.append(error)
        finally:
            done.set()

    threading.Thread(target=target, name="arena", daemon=True).start()
    # Waits in short steps on an Event, not in Thread.join: an interrupt inside join() can
    # leave the thread looking finished while it runs on.
    while not done.is_set():
        try:
            done.wait(0.1)
        except KeyboardInterrupt:
            if stop.is_set():
                raise  # a second Ctrl+C: do not wait for the game in progress to give up
            stop.set()
    if failure:
        raise failure[0]
    return outcome[0]


def _write_trees(path: Path, game: Any, result: ArenaResult,
                 trees: list[tuple[int, str, str, TreeRecorder | None, bool]], position: Any) -> None:
    """``--tree FILE``: the one game's moves, each with its search tree, as JSON or DOT."""

    def move_name(move: Any) -> str:
        return game.move_text(position, move)

    record = result.records[0] if result.records else None
    if path.suffix.lower() == ".json":
        players = [result.a_name, result.b_name]
        if record is not None and record.a_side != 0:
            players.reverse()
        start = record.start if record is not None else ""
        text = json.dumps(game_trees_dict(game.name, start, players, trees, move_name), ensure_ascii=False,
                          indent=1) + "\n"
    else:
        text = game_trees_dot(trees, move_name)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot write --tree {str(path)!r}: {error.strerror or error}") from None


def add_arguments(arena: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games arena``."""
    arena.set_defaults(handler=cmd_arena)
    arena.add_argument("game", metavar="GAME", help=", ".join(spec.key for spec in arena_specs()))
    arena.add_argument("--a", required=True, metavar="PLAYER",
                       help="player A: one of the game's players (perfect, level5, random …), with what the "
                            "game adds to a player (Connect-4: :HEURISTIC, level6:aware), or a bot file (bot.py, "
                            "bot.py:NAME, level4:eval.py; docs/bots.md); @SECONDS sets its budget")
    arena.add_argument("--b", required=True, metavar="PLAYER", help="player B, as --a")
    arena.add_argument("--games", type=positive_int, default=10, metavar="N", help="games to play (default 10)")
    arena.add_argument("--swap", action=argparse.BooleanOptionalAction, default=True,
                       help="alternate sides game by game, each pair of games sharing its opening (the default; "
                            "--no-swap: A always plays the side that moves first: X, Black)")
    arena.add_argument("--seed", type=int, default=None, help="seed for openings and tie-breaks (default: random, "
                                                              "printed with the results)")
    arena.add_argument("--seconds", type=positive_seconds, default=None, metavar="S",
                       help="budget per move of the players that take one (perfect, strong; the levels' cap)")
    arena.add_argument("--start", default=None, metavar="POSITION",
                       help="play every game from this position, in the game's notation (tic-tac-toe rows "
                            "X../.O./..., Connect-4 columns 4455, checkers FEN)")
    # Each game's variants, from its command module (GameCommands.ARENA_OPTIONS).
    add_game_options(arena, declared_options())
    arena.add_argument("--json", action="store_true",
                       help='print one object: games, a_wins, draws, b_wins, seconds, … and "game_list"')
    arena.add_argument("--csv", type=Path, default=None, metavar="FILE", help="also write one line per game here")
    arena.add_argument("--save", action=argparse.BooleanOptionalAction, default=True,
                       help="keep the run in the data directory's arena.json (the default)")
    arena.add_argument("-v", "--verbose", action="store_true", help="a line per game as it finishes")
    arena.add_argument("--tree", type=tree_path, default=None, metavar="FILE",
                       help="with --games 1: every move's search tree (first 4 plies, at most 20,000 nodes) to "
                            "FILE.json (docs/search-tree.schema.json) or FILE.dot (Graphviz, a graph per move)")
