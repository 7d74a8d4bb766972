"""``tui-games tournament GAME PLAYER PLAYER...``: a round robin, with a crosstable and Elo.

    tui-games tournament tictactoe perfect level2 random mybot.py --games 10 --seed 1
    tui-games tournament connect4 level4 level4:simple level3:myeval.py --jobs 2 --json

Every pair of players plays a series of ``--games`` games (each a :func:`run_arena`, the sides
swapped game by game, checkers from the ballots), seeded from the tournament's seed by the
pair's place in the round robin (:func:`~tui_games.engine.arena.pair_seed`). ``--jobs N``
plays N series at once, each in a process of its own; since a series depends only on its own
seed, the results are the same as with ``--jobs 1`` for players whose limits are depths. On a
terminal a progress line on stderr counts the games (not with ``--json``, nor when piped).
The table: the crosstable (each player's score against each other one), W/D/L, the score and
an Elo estimate with its standard error (:func:`~tui_games.engine.arena.elo_estimates`);
``--json`` prints one object with ``players`` and ``pairs``. Each series is kept in the data
directory's ``arena.json`` with the arena runs (listed in Scores), marked with the tournament
(``--no-save`` skips that).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from datetime import datetime, timezone
from multiprocessing import active_children, get_context
from typing import Any

from tui_games.bots import player_factory
from tui_games.commands.arena import check_player, declared_options, openings_of, variant_of_args
from tui_games.commands.cluster import check_cluster_address, run_on_cluster
from tui_games.commands.common import UsageError, positive_int, positive_seconds
from tui_games.commands.options import add_game_options
from tui_games.commands.progress import ProgressLine
from tui_games.engine.arena import ArenaConfig, ArenaResult, TournamentResult, run_arena, tournament_configs
from tui_games.games import arena_adapter, arena_specs, find_game
from tui_games.userdata.store import Store

MAX_PLAYERS = 64
# The crosstable's columns fit 80 columns up to this many players; beyond, --json has it.
CROSS_COLUMNS = 6
# How often the workers' queue of finished games is read, in seconds.
PROGRESS_EVERY = 0.2

# The worker processes' queue of finished games (set by _init in each worker).
_progress: Any = None


def _init(queue: Any) -> None:
    global _progress
    _progress = queue
    # Ctrl+C reaches the whole process group: the parent ends the workers (no traceback each).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_series(game_name: str, config: ArenaConfig, on_game: Callable[..., None] | None = None) -> ArenaResult:
    """One pair's series, in this process or a worker (the same function either way)."""
    game = arena_adapter(game_name)
    return run_arena(
        game, config, openings=openings_of(game, config.start), on_game=on_game, make_player=player_factory(game)
    )


def _worker_series(game_name: str, config: ArenaConfig) -> ArenaResult:
    """A worker's series: each finished game goes on the queue for the progress line."""
    return play_series(game_name, config, lambda *_: _progress.put(1))


class Counter:
    """The games finished so far, on the progress line."""

    def __init__(self, line: ProgressLine) -> None:
        self.line, self.done = line, 0

    def add(self, games: int = 1) -> None:
        self.done += games
        self.line.update(self.done)


def run_tournament(args: argparse.Namespace, configs: list[ArenaConfig], progress: Counter) -> list[ArenaResult]:
    """Every series, in round-robin order, over ``args.jobs`` processes (1: this one), or on
    the Dask cluster ``args.cluster`` names (commands/cluster.py)."""
    if args.cluster:
        return run_on_cluster(args.cluster, args.game, configs, play_series, lambda run: progress.add(run.games))
    jobs = min(args.jobs, len(configs))
    if jobs <= 1:
        return [play_series(args.game, config, lambda *_: progress.add(1)) for config in configs]
    context = get_context("spawn")  # never fork a process that may hold threads
    queue = context.Queue()
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_init, initargs=(queue,))
    try:
        futures: list[Future[ArenaResult]] = [pool.submit(_worker_series, args.game, config) for config in configs]
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=PROGRESS_EVERY, return_when=FIRST_COMPLETED)
            while not queue.empty():
                queue.get()
                progress.add(1)
        results = [future.result() for future in futures]
    except BaseException:
        # Ctrl+C (or a worker's error): end the workers now rather than wait for their series;
        # a bot's process notices its worker is gone and ends too.
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in active_children():
            worker.terminate()
        raise
    pool.shutdown()
    while not queue.empty():
        queue.get()
    progress.add(sum(r.games for r in results) - progress.done)
    return results


def table_lines(result: TournamentResult, variant_label: str) -> list[str]:
    """The tournament's table, within 80 columns (the crosstable up to CROSS_COLUMNS players)."""
    count = len(result.specs)
    games = sum(s.games for s in result.series)
    lines = [
        f"{result.title} ({variant_label}): {count} players, {result.games_per_pair} games a pair, "
        f"{games} games in {result.seconds:.1f} s, seed {result.seed}",
        "",
    ]
    cross = count <= CROSS_COLUMNS
    headers, rows = result.rows(cross=cross)
    widths = [2, 16] + [5] * (len(headers) - 8) + [5, 4, 4, 7, 7, 5]

    def line(cells: list[str]) -> str:
        text = f"{cells[0]:>2} {cells[1][:16]:16}"
        return text + "".join(f"{cell:>{width}}" for cell, width in zip(cells[2:], widths[2:]))

    head = line(headers)
    lines += [head, "-" * len(head)]
    lines += [line(row) for row in rows]
    lines.append("")
    if cross:
        lines.append("columns 1.. : the row player's score against that player (a win 1, a draw 1/2)")
    else:
        lines.append(f"the crosstable of more than {CROSS_COLUMNS} players: --json (pairs)")
    lines.append("Elo: the estimate from every game, centred on 0, ± one standard error")
    return lines + result.forfeit_notes()


def cmd_tournament(args: argparse.Namespace) -> int:
    try:
        spec = find_game(args.game)
    except ValueError:
        raise UsageError(
            f"no tournament for {args.game!r}; choose one of {', '.join(s.key for s in arena_specs())}"
        ) from None
    if spec.arena is None:
        raise UsageError(f"no tournament for {spec.key}: {spec.no_arena}")
    args.game = spec.key
    if len(args.players) < 2:
        raise UsageError("a tournament needs at least two players")
    if len(args.players) > MAX_PLAYERS:
        raise UsageError(f"at most {MAX_PLAYERS} players, not {len(args.players)}")
    game = arena_adapter(args.game)
    variant = variant_of_args(args)
    for n, player in enumerate(args.players, 1):
        check_player(game, f"player {n}", player, args.seconds, variant)
    openings_of(game, None)  # a missing openings file is a usage error before any game
    if args.cluster:
        args.cluster = check_cluster_address(args.cluster)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big") >> 1
    configs = tournament_configs(args.game, args.players, args.games, seed, seconds=args.seconds, variant=variant)
    line = ProgressLine(len(configs) * args.games, shown=False if args.json else None)
    began = time.perf_counter()
    try:
        series = run_tournament(args, configs, Counter(line))
    finally:
        line.clear()
    result = TournamentResult(
        args.game,
        game.title,
        list(args.players),
        args.games,
        seed,
        series,
        time.perf_counter() - began,
        datetime.now(timezone.utc).isoformat(timespec="seconds"),
    )
    if args.save:
        store = Store()
        for index, run in enumerate(series):
            saved = run.to_dict(with_notes=False)
            saved["tournament"] = {
                "seed": seed,
                "players": list(args.players),
                "pair": index + 1,
                "pairs": len(series),
                "finished_at": result.finished_at,
            }
            store.record_arena_run(saved)
        for warning in store.take_warnings():
            print(f"tui-games: warning: {warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        for text in table_lines(result, game.variant_label(variant)):
            print(text)
    return 0


def add_arguments(tournament: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games tournament``."""
    tournament.set_defaults(handler=cmd_tournament)
    tournament.add_argument("game", metavar="GAME", help=", ".join(spec.key for spec in arena_specs()))
    tournament.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="two or more players, as arena's --a: the game's (perfect, level3 …) or bot "
        "files (bot.py, bot.py:NAME, level3:eval.py), each with @SECONDS if wanted",
    )
    tournament.add_argument(
        "--games",
        type=positive_int,
        default=10,
        metavar="N",
        help="games each pair plays, sides swapped game by game (default 10)",
    )
    tournament.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="S",
        help="seed of every series (default: random, printed with the table)",
    )
    tournament.add_argument(
        "--jobs",
        type=positive_int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="series played at once, each in its own process (default: the machine's cores)",
    )
    tournament.add_argument(
        "--cluster",
        default=None,
        metavar="ADDRESS",
        help="play the series on a Dask cluster instead of --jobs processes: local:N (N workers "
        'here) or a scheduler\'s address (tcp://HOST:PORT); needs pip install "tui-games[cluster]"',
    )
    tournament.add_argument(
        "--seconds",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="budget per move of the players that take one (as arena's)",
    )
    add_game_options(tournament, declared_options())
    tournament.add_argument("--json", action="store_true", help='print one object: "players" and "pairs"')
    tournament.add_argument(
        "--save",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep each series in the data directory's arena.json (the default)",
    )
