"""docs/cli.md names every command and every flag of the command line, and no flag it does not
have: its block is read line by line and held to the parser itself (``cli.build_parser``)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from tui_games import cli

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "cli.md"
FLAG = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")


def parser_commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every parser of the command line by its command path (aliases once)."""
    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        found[path] = parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                seen = set()
                for name, sub in action.choices.items():
                    if id(sub) not in seen:
                        seen.add(id(sub))
                        walk(sub, (*path, name))

    walk(cli.build_parser(), ())
    return found


def options(parser: argparse.ArgumentParser) -> list[tuple[str, ...]]:
    """The parser's options, each as its option strings (``--misere``/``--no-misere`` is one)."""
    return [tuple(action.option_strings) for action in parser._actions
            if action.option_strings and not isinstance(action, argparse._HelpAction)]


def documented() -> dict[tuple[str, ...], set[str]]:
    """The flags docs/cli.md shows, by the command path of the line they are on."""
    block = re.search(r"```sh\n(.*?)```", PAGE.read_text(), re.S).group(1)
    commands = parser_commands()
    lines: dict[tuple[str, ...], set[str]] = {}
    path: tuple[str, ...] | None = None
    for line in block.splitlines():
        if line.startswith("tui-games"):
            words = []
            for word in line.split()[1:]:
                if re.fullmatch(r"\[--?[a-z][\w-]*\]", word):
                    continue  # `play [--ascii] tictactoe`: a parent's flag, the path goes on
                if not re.fullmatch(r"[a-z][\w-]*", word):
                    break
                words.append(word)
            while tuple(words) not in commands:  # `bench tictactoe`: the bench command, its NAME
                words.pop()
            path = tuple(words)
        elif not line.startswith(" "):
            path = None  # `python -m tui_games ...`
        if path is not None:
            lines.setdefault(path, set()).update(FLAG.findall(line))
    return lines


def test_every_command_of_the_parser_is_in_the_page():
    shown = set(documented())
    leaves = {path for path, parser in parser_commands().items()
              if not any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)}
    assert leaves - shown == set()


def test_every_flag_of_every_command_is_in_the_page_and_no_other():
    shown = documented()
    missing, unknown = {}, {}
    for path, parser in parser_commands().items():
        # A line of a command shows its flags and its parents' (`play --ascii`), and a parent's
        # flags may be shown on its commands' lines.
        here = set().union(*(flags for line, flags in shown.items() if line[:len(path)] == path), set())
        lacking = [strings[0] for strings in options(parser) if not set(strings) & here]
        if lacking:
            missing[" ".join(path) or "tui-games"] = lacking
    for line, flags in shown.items():
        known = {s for depth in range(len(line) + 1) for strings in options(parser_commands()[line[:depth]])
                 for s in strings}
        if flags - known:
            unknown[" ".join(line) or "tui-games"] = sorted(flags - known)
    assert (missing, unknown) == ({}, {})
