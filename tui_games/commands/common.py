"""What every command-line tool shares: the program's name, exit codes, the one-line usage
error, the parser class that raises it, and argument types used by more than one tool."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Callable

PROG = "tui-games"
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """A bad command line; ``tui_games.cli.main`` prints it as one line and exits 2."""


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, told the terminal's width up front: left to find it, it imports
    shutil (and with it bz2, lzma, fnmatch) for every parser, help or not."""

    def __init__(self, prog: str, **options) -> None:
        if options.get("width") is None:
            try:
                stdout = sys.__stdout__
                if stdout is None:  # no standard output at all (pythonw)
                    raise OSError("no terminal")
                columns = int(os.environ.get("COLUMNS", "")) or os.get_terminal_size(stdout.fileno()).columns
            except (ValueError, OSError, AttributeError):
                columns = 80
            options["width"] = max(columns - 2, 11)
        super().__init__(prog, **options)


class Parser(argparse.ArgumentParser):
    def __init__(self, *args, **options) -> None:
        options.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **options)

    # argparse's own error() prints the whole usage block and exits; we want one line
    # and a return code from main() (tests call main directly).
    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix(PROG).strip()
        raise UsageError(f"{command}: {message}" if command else message)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return value


def parse_size(text: str) -> tuple[int, int]:
    """``4x5`` (or ``4×5``) -> (4, 5); UsageError for anything else."""
    match = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", text, re.IGNORECASE)
    if match is None:
        raise UsageError(f"--size {text!r} is not ROWSxCOLS, e.g. 4x4")
    return int(match[1]), int(match[2])


def play_opponent(given: str | None, saved: str, normalize: Callable[[str], str], game: str = "") -> str:
    """The opponent for ``play``: ``given`` on the command line, else the saved setting; "human",
    a spec ``normalize`` accepts, or a bot file that plays ``game`` (tui_games.bots). A bad one
    given is a usage error; a saved one this version does not know falls back to "perfect"."""
    if given is not None and game:
        from tui_games.bots import checked_spec, is_bot_spec

        if is_bot_spec(given):
            try:
                return checked_spec(game, given)
            except ValueError as error:
                raise UsageError(f"--opponent {given!r}: {error}") from None
    opponent = given if given is not None else saved
    if opponent.strip().lower() == "human":
        return "human"
    try:
        return normalize(opponent)
    except ValueError as error:
        if given is None:
            return "perfect"
        from tui_games.engine.mcts_spec import is_mcts

        if is_mcts(opponent):  # a bad count of playouts: not a name to choose among the others
            raise UsageError(f"--opponent {opponent!r}: {error}") from None
        raise UsageError(f"{error}, or human") from None
