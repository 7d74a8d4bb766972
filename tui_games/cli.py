"""The ``tui-games`` command.

    tui-games [play]                      open the menu
    tui-games play GAME [options]         start a game (tictactoe, connect4, checkers, sudoku)
    tui-games GAME TOOL ...               a game's command-line tools (solve, analyze, perft, …)
    tui-games bench NAME                  benchmark tables (--sweep: every algorithm, depths 1..D)
    tui-games arena GAME --a P --b P      two computer players play N games: results table or JSON
    tui-games analyse GAME MOVES|FILE     a game reviewed move by move: marks, better moves, scores
    tui-games tournament GAME P P ...     a round robin: crosstable, W/D/L, Elo (players or bot files)
    tui-games puzzle GAME [--date D]      the puzzle of the day (--answer A: right or wrong, and why)
    tui-games new-bot GAME [PATH]         a commented starting file for a bot
    tui-games serve --ssh | --web         host the games: an SSH game server, or in a browser

The parser is built from the game table (:mod:`tui_games.games`) and :data:`COMMANDS`, and
only the module of the command being run is imported: ``tui-games sudoku solve`` loads the
Sudoku engine and nothing of the other games, and only ``play`` imports Textual. Every usage
error is one line on stderr, ``tui-games: error: ...``, with exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from tui_games import __version__
from tui_games.commands.common import EXIT_INTERRUPTED, EXIT_USAGE, PROG, Parser, UsageError
from tui_games.games import GAMES

# The commands that are not a game's tools: name -> (module with add_arguments(parser), help).
COMMANDS = {
    "play": ("tui_games.commands.play", "open the game menu, or start a game directly"),
    "arena": ("tui_games.commands.arena", "two computer players play N games; results table or JSON"),
    "analyse": ("tui_games.commands.analyse", "a game reviewed move by move: each mistake marked, with the better move"),
    "tournament": ("tui_games.commands.tournament", "a round robin of players or bot files: crosstable, Elo"),
    "puzzle": ("tui_games.commands.puzzle", "the puzzle of the day of a game (a function of the date), or judge an answer"),
    "new-bot": ("tui_games.commands.new_bot", "write a commented starting file for a bot of a game"),
    "bench": ("tui_games.commands.bench", "print a benchmark table (a game's engine, the terminal, start-up)"),
    "serve": ("tui_games.commands.serve", "host the games: an SSH game server, or the app in a browser"),
}


def command_names() -> dict[str, str]:
    """Every name the first argument may take (aliases too), mapped to the command it names."""
    names = {name: name for name in COMMANDS}
    for spec in GAMES:
        names[spec.key] = spec.key
        names.update((alias, spec.key) for alias in spec.aliases)
    return names


def selected_command(argv: Sequence[str]) -> str:
    """The command ``argv`` runs: ``play`` when it names none, "" when no command's own
    arguments are needed (top-level help or version, or a name that is not a command)."""
    names = command_names()
    for arg in argv:
        if arg in ("-h", "--help", "--version"):
            return ""
        if not arg.startswith("-"):
            return names.get(arg, "")
    return "play"


def build_parser(argv: Sequence[str] | None = None) -> Parser:
    """The whole parser (for documentation and tests); with ``argv``, only the arguments of the
    command it runs are built, and only that command's module imported."""
    wanted = None if argv is None else selected_command(argv)
    parser = Parser(prog=PROG, description="Terminal games with engines you can watch think.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.add_argument("--ascii", action="store_true",
                        help="draw with ASCII characters only (for terminals with poor Unicode fonts)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help_text: str, aliases: Sequence[str] = ()):
        # Running a command, the other commands need no parser at all (argparse's parsers are
        # not free: start-up is most of what a one-shot tool costs).
        if wanted and wanted != name:
            return None
        sub = commands.add_parser(name, aliases=list(aliases), help=help_text)
        return sub if wanted in (None, name) else None

    module, help_text = COMMANDS["play"]
    if (sub := add("play", help_text)) is not None:
        importlib.import_module(module).add_arguments(sub)
    for spec in GAMES:
        if (sub := add(spec.key, spec.tools_help, spec.aliases)) is not None:
            sub.set_defaults(command=spec.key)
            spec.commands_module.add_tools(sub)
    for name, (module, help_text) in COMMANDS.items():
        if name != "play" and (sub := add(name, help_text)) is not None:
            importlib.import_module(module).add_arguments(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv:  # the menu, as every served player's app starts: no parser to build
            return importlib.import_module(COMMANDS["play"][0]).cmd_play(argparse.Namespace(game=None))
        parser = build_parser(argv)
        args, extras = parser.parse_known_args(argv)
        if extras:
            # argparse gives a ``FILE ...`` positional nothing once an option came between it
            # and the command (``bench sudoku --logic FILE``): file names after options still
            # belong to it.
            if isinstance(getattr(args, "files", None), list) and not any(e.startswith("-") for e in extras):
                args.files.extend(extras)
            else:
                parser.error(f"unrecognized arguments: {' '.join(extras)}")
        handler = getattr(args, "handler", None)
        if handler is None:  # no command: the menu
            args.game = None
            handler = importlib.import_module(COMMANDS["play"][0]).cmd_play
        return handler(args)
    except UsageError as error:
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as done:  # --help and --version end here
        return done.code if isinstance(done.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, as other Unix tools do. Point stdout
        # at /dev/null so the interpreter's final flush does not complain either.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
