"""``tui-games [play [GAME [options]]]``: the menu, or a game straight away.

Every game of the table (:mod:`tui_games.games`) is a ``play`` sub-command with the options its
command module adds; they are validated here, before the app starts, so a mistake is one
line on stderr rather than a screen that opens and closes.
"""

from __future__ import annotations

import argparse

from tui_games.games import GAMES, find_game


def launch(game: str | None, options: dict | None = None, *, ascii: bool | None = None) -> None:
    """Start the Textual app. Imported here, on use, so that no other command pays for
    Textual or needs it installed."""
    from tui_games.ui.app import run_app

    run_app(game, options, ascii=ascii)


def cmd_play(args: argparse.Namespace) -> int:
    spec = find_game(args.game) if getattr(args, "game", None) else None
    options = spec.commands_module.play_options(args) if spec else None
    # --ascii forces ASCII output; without it the saved setting decides.
    launch(spec.key if spec else None, options, ascii=True if getattr(args, "ascii", False) else None)
    return 0


def add_arguments(play: argparse.ArgumentParser) -> None:
    """The arguments of ``tui-games play``: one sub-command per game."""
    play.set_defaults(handler=cmd_play)
    play.add_argument("--ascii", action="store_true", default=argparse.SUPPRESS,
                      help="draw with ASCII characters only")
    games = play.add_subparsers(dest="game", metavar="GAME")
    for spec in GAMES:
        spec.commands_module.add_play_arguments(games.add_parser(spec.key, aliases=list(spec.aliases),
                                                                 help=spec.play_help))
