"""``tui-games new-bot GAME [PATH]``: write a commented starting file for a bot of GAME.

    tui-games new-bot tictactoe            # tictactoe_bot.py here
    tui-games new-bot connect4 bots/c4.py

The file is a random bot that plays as it is, then a minimax to finish (see
:mod:`tui_games.bots.templates` and docs/bots.md). An existing file is never replaced.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tui_games.bots.templates import template
from tui_games.commands.common import UsageError
from tui_games.games import arena_adapter, arena_specs, find_game


def cmd_new_bot(args: argparse.Namespace) -> int:
    try:
        spec = find_game(args.game)
    except ValueError:
        raise UsageError(
            f"no bots for {args.game!r}; choose one of {', '.join(s.key for s in arena_specs())}"
        ) from None
    if spec.arena is None:
        raise UsageError(f"no bots for {spec.key}: {spec.no_arena}")
    path = Path(args.path if args.path is not None else f"{spec.key}_bot.py").expanduser()
    if path.suffix != ".py":
        raise UsageError(f"{str(path)!r} is not a .py file")
    text = template(spec.key, arena_adapter(spec.key).title, str(path))
    try:
        # "x": never over a file that is there.
        with open(path, "x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise UsageError(f"{str(path)!r} exists already; give another PATH") from None
    except OSError as error:
        raise UsageError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    print(f"wrote {path}: play it with  tui-games arena {spec.key} --a {path} --b random")
    return 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games new-bot``."""
    parser.set_defaults(handler=cmd_new_bot)
    parser.add_argument("game", metavar="GAME", help=", ".join(spec.key for spec in arena_specs()))
    parser.add_argument(
        "path",
        nargs="?",
        default=None,
        metavar="PATH",
        help=f"the file to write (default GAME_bot.py in {os.curdir}); never replaced",
    )
