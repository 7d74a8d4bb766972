"""A game that exists only in the tests: the parts a GameSpec names, as small as they can be.

tests/ui/test_games.py adds it to the game table to show that one entry there is all it takes
for a game to reach the command line, ``play``, the menu, the app, Settings and Help (its
keys and its rules page).
"""

from __future__ import annotations

import argparse

from textual.app import ComposeResult
from textual.widgets import Static

from tui_games.games import GameSpec, SettingRow
from tui_games.ui.screens.saving import SavingScreen
from tui_games.userdata.setting_rules import Between, Flag

RAN: list[tuple[str, object]] = []

# It adds nothing to ``arena`` (it has no players) or ``bench``: tests/nim_game.py does.
ARENA_OPTIONS = ()
BENCH_OPTIONS = ()


def cmd_count(args: argparse.Namespace) -> int:
    RAN.append(("count", args.number))
    print(args.number + 1)
    return 0


def add_tools(parser: argparse.ArgumentParser) -> None:
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    count = tools.add_parser("count", help="print NUMBER + 1")
    count.set_defaults(handler=cmd_count)
    count.add_argument("number", type=int)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", type=int, default=None)


def play_options(args: argparse.Namespace) -> dict:
    return {} if args.size is None else {"size": args.size}


class FakeScreen(SavingScreen):
    GAME = "fake"

    def __init__(self, size: int) -> None:
        super().__init__()
        self.board_size = size

    @classmethod
    def for_game(cls, settings: dict, options: dict) -> FakeScreen:
        return cls(int(options.get("size", settings["size"])))

    def compose(self) -> ComposeResult:
        yield Static(f"fake game, size {self.board_size}", id="board")


def bench_fake(write, *, quick: bool = False) -> None:
    write("fake bench")


SPEC = GameSpec(
    key="fake",
    title="Fake game",
    blurb="a test double",
    aliases=("fk",),
    engine="fake_game",
    screen="fake_game:FakeScreen",
    commands="fake_game",
    tools_help="fake tools",
    play_help="a fake game",
    bench="fake_game:bench_fake",
    settings={"size": 3, "fancy": False},
    setting_rules={"size": Between(1, 9, whole=True), "fancy": Flag()},
    setting_rows=(SettingRow("fake", "fancy", "Fake fancy"),),
    help="**Fake game**: nothing to see here.",
    rules="# How to play Fake game\n\n**Rules.** There are none: a fake game is never won.\n",
    probe=("play", "fake"),
    no_arena="the fake game has no players",
)
