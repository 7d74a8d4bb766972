"""What a game's command module offers the command line, and the options a game adds to the
generic commands.

Each game of the table names a command module (``GameSpec.commands``); it meets
:class:`GameCommands`: its own tools (``tui-games KEY …``), its ``play`` arguments, and the
options it adds to ``tui-games arena`` (its variants: ``--size``, ``--full-board``) and to
``tui-games bench`` (its benchmark's knobs: ``--set``, ``--logic``). The generic commands read
those from the table, so a new game's options reach them without an edit there.

An :class:`Option` is declared once and may be declared by several games with the same
meaning (tic-tac-toe and Connect-4 both take ``--node-limit``): the command adds it once,
its help naming each game's use, and refuses it for a game that does not declare it.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["GameCommands", "Option", "add_game_options", "given_options"]


class Option:
    """One command-line option a game adds to a generic command.

    ``flag`` is the option (``--size``); ``dest`` its name in the parsed arguments (by
    default the flag's words joined by ``_``); ``argparse`` the rest of what
    ``add_argument`` takes (``type``, ``metavar``, ``action`` …). For ``arena``, ``variant``
    turns the value given into entries of the game's variant dict (by default
    ``{dest: value}``); for ``bench``, ``dest`` is the keyword the game's bench function takes.
    """

    __slots__ = ("flag", "help", "dest", "argparse", "_variant")

    def __init__(self, flag: str, *, help: str, dest: str | None = None,
                 variant: Callable[[Any], dict[str, Any]] | None = None, **argparse_options: Any) -> None:
        if not flag.startswith("--"):
            raise ValueError(f"a game's option is a long option, not {flag!r}")
        self.flag, self.help = flag, help
        self.dest = dest or flag[2:].replace("-", "_")
        self.argparse: Mapping[str, Any] = dict(argparse_options)
        self._variant = variant

    def __repr__(self) -> str:
        return f"Option({self.flag!r})"

    def same_as(self, other: Option) -> bool:
        """Whether two games' declarations of one flag parse it alike (only the help may differ)."""
        return (self.flag, self.dest, dict(self.argparse)) == (other.flag, other.dest, dict(other.argparse))

    def variant(self, value: Any) -> dict[str, Any]:
        """The variant entries the value given stands for."""
        return self._variant(value) if self._variant is not None else {self.dest: value}


@runtime_checkable
class GameCommands(Protocol):
    """A game's command module (``GameSpec.commands``)."""

    ARENA_OPTIONS: Sequence[Option]
    BENCH_OPTIONS: Sequence[Option]

    def add_tools(self, parser: argparse.ArgumentParser) -> None: ...

    def add_play_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def play_options(self, args: argparse.Namespace) -> Mapping[str, Any]: ...


def add_game_options(parser: argparse.ArgumentParser, declared: Iterable[tuple[str, Sequence[Option]]]) -> None:
    """Add each game's options (``declared``: (game key, its options) pairs) to ``parser``,
    a flag several games declare once; ValueError if two games mean different things by it."""
    by_flag: dict[str, tuple[Option, list[str]]] = {}
    for key, options in declared:
        for option in options:
            if option.flag in by_flag:
                first, uses = by_flag[option.flag]
                if not first.same_as(option):
                    raise ValueError(f"{key} declares {option.flag} unlike {', '.join(u.split(':')[0] for u in uses)}")
                uses.append(f"{key}: {option.help}")
            else:
                by_flag[option.flag] = (option, [f"{key}: {option.help}"])
    for flag, (option, uses) in by_flag.items():
        parser.add_argument(flag, dest=option.dest, default=None, help="; ".join(uses), **option.argparse)


def given_options(args: argparse.Namespace, every: Iterable[Option]) -> dict[str, Any]:
    """The options of ``every`` the command line gave (a flag left out is None), by flag."""
    given: dict[str, Any] = {}
    for option in every:
        value = getattr(args, option.dest, None)
        if value is not None and value is not False:
            given[option.flag] = value
    return given
