"""A second game that exists only in the tests: Nim (one pile, take 1 to TAKE stones, whoever
takes the last stone wins), complete enough to be played by the engine's players.

Where tests/fake_game.py shows that a table entry reaches the menu, the app and Settings, this
one shows the rest of what "adding a game" means: a position the generic search plays, an
arena adapter the arena, the sweep and the lobby drive, and options of its own (``--stones``,
``--take`` for ``arena``, ``--max-stones`` for ``bench``) that reach those generic commands
from this module alone. tests/engine/test_contracts.py holds it to every contract, as it holds
the real games; tests/cli/test_game_options.py runs it from the command line.

Everything here is this game's own: none of it is in a generic module.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from textual.app import ComposeResult
from textual.widgets import Static

from tui_games.commands.common import UsageError, positive_int
from tui_games.commands.options import Option
from tui_games.engine.adapter import GameAdapter, LibraryPosition, player_label, split_spec
from tui_games.engine.game import OrderedMoves, Outcome
from tui_games.engine.mcts import mcts_player
from tui_games.engine.players import Player, RandomPlayer, SearchPlayer, lookup_spec
from tui_games.engine.search import SearchLimits, search
from tui_games.games import GameSpec
from tui_games.ui.screens.saving import SavingScreen
from tui_games.userdata.setting_rules import Between

MAX_STONES = 99
MAX_TAKE = 9


class NimError(ValueError):
    pass


class Nim(OrderedMoves[int]):
    """A pile of ``stones``; a move is how many the mover takes (1 to ``take``)."""

    __slots__ = ("stones", "take", "turn", "history")

    def __init__(self, stones: int = 21, take: int = 3) -> None:
        if not (0 <= stones <= MAX_STONES and 2 <= take <= MAX_TAKE):
            raise NimError(f"a pile of 0 to {MAX_STONES} stones, taking 2 to {MAX_TAKE}, not {stones}/{take}")
        self.stones, self.take, self.turn = stones, take, 0
        self.history: list[int] = []

    def legal_moves(self) -> list[int]:
        return list(range(1, min(self.take, self.stones) + 1))

    def ordered_moves(self) -> Iterable[int]:
        # The winning move leaves a multiple of take + 1: try it first.
        good = self.stones % (self.take + 1)
        moves = self.legal_moves()
        return sorted(moves, key=lambda m: m != good)

    def push(self, move: int) -> None:
        self.stones -= move
        self.history.append(move)
        self.turn = 1 - self.turn

    def pop(self) -> int:
        move = self.history.pop()
        self.stones += move
        self.turn = 1 - self.turn
        return move

    def outcome(self) -> Outcome | None:
        return Outcome(1 - self.turn, "last stone") if self.stones == 0 else None

    def evaluate(self) -> int:
        return 0

    def key(self) -> int:
        # Who is to move does not change what a pile is worth to the mover.
        return self.stones

    def copy(self) -> Nim:
        new = Nim(self.stones, self.take)
        new.turn, new.history = self.turn, list(self.history)
        return new

    def format(self) -> str:
        """``STONES/SIDE``: the pile, and whose turn (0 for the first player)."""
        return f"{self.stones}/{self.turn}"

    def diagram(self) -> str:
        return "●" * self.stones or "(empty)"

    def move_name(self, move: int) -> str:
        return str(move)


OPPONENTS = {"perfect": "perfect", "random": "random", "mcts": "Monte Carlo tree search"}


class NimArena(GameAdapter):
    name = "nim"
    title = "Nim"
    side_names = ("first", "second")
    variants = (("21 stones, take 3", {"stones": 21, "take": 3}), ("13 stones, take 2", {"stones": 13, "take": 2}))
    spec_help = "@S: seconds/move"
    positions = (LibraryPosition("start", "", "the usual pile", {"stones": 21, "take": 3}, 8),)

    def check_variant(self, variant: dict) -> dict:
        stones, take = int(variant.get("stones", 21)), int(variant.get("take", 3))
        Nim(stones, take)  # NimError names a bad one
        return {"stones": stones, "take": take}

    def variant_of(self, position: Nim) -> dict:
        return {"stones": position.stones + sum(position.history), "take": position.take}

    def spec_names(self, variant: dict) -> list[str]:
        return list(OPPONENTS)

    def make_player(self, spec: str, *, seed: int | None, seconds: float | None, variant: dict) -> Player:
        name, own_seconds = split_spec(spec)
        budget = own_seconds if own_seconds is not None else seconds
        # Monte Carlo tree search plays any game through the position contract: nothing of Nim's.
        mcts = mcts_player(name, seconds=budget, seed=seed, move_name=self.move_text)
        if mcts is not None:
            mcts.name = player_label(mcts.name, own_seconds)
            return mcts
        key = lookup_spec(name, OPPONENTS)
        player: Player = (RandomPlayer(seed=seed) if key == "random"
                          else SearchPlayer("perfect", SearchLimits(seconds=budget), seed=seed))
        player.name = player_label(player.name, own_seconds)
        return player

    def start(self, variant: dict, text: str | None = None) -> Nim:
        v = self.check_variant(variant)
        if text is None or not text.strip():
            return Nim(v["stones"], v["take"])
        stones, _, side = text.strip().partition("/")
        if not stones.isdigit() or side not in ("", "0", "1"):
            raise NimError(f"{text!r} is not STONES or STONES/SIDE")
        pos = Nim(int(stones), v["take"])
        pos.turn = int(side or 0)
        return pos

    def parse_move(self, position: Nim, text: str) -> int:
        t = text.strip()
        if not t.isdigit() or int(t) not in position.legal_moves():
            raise NimError(f"take {text!r} is not a move with {position.stones} stones left")
        return int(t)


# -- its command line: tools, play, and what it adds to arena and bench ----------------------------

ARENA_OPTIONS = (
    Option("--stones", type=positive_int, metavar="N", help="stones on the pile at the start (default 21)"),
    Option("--take", type=positive_int, metavar="K", help="most stones a move takes (default 3)"),
)
BENCH_OPTIONS = (Option("--max-stones", type=positive_int, metavar="N", help="largest pile searched (default 12)"),)


def cmd_solve(args: argparse.Namespace) -> int:
    try:
        pos = Nim(args.stones, args.take)
    except NimError as error:
        raise UsageError(str(error)) from None
    result = search(pos, SearchLimits())
    print("win" if result.value == 1 else "loss")
    return 0


def add_tools(parser: argparse.ArgumentParser) -> None:
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    solve = tools.add_parser("solve", help="win or loss for the side to move")
    solve.set_defaults(handler=cmd_solve)
    solve.add_argument("stones", type=int)
    solve.add_argument("--take", type=int, default=3)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stones", type=positive_int, default=None)


def play_options(args: argparse.Namespace) -> dict:
    return {} if args.stones is None else {"stones": args.stones}


def bench_nim(write, *, quick: bool = False, max_stones: int = 12) -> None:
    write("pile  nodes  value")
    for stones in range(1, (4 if quick else max_stones) + 1):
        result = search(Nim(stones, 3), SearchLimits())
        write(f"{stones:4d}  {result.stats.nodes:5d}  {'win' if result.value == 1 else 'loss'}")


class NimScreen(SavingScreen):
    GAME = "nim"

    def __init__(self, stones: int) -> None:
        super().__init__()
        self.stones = stones

    @classmethod
    def for_game(cls, settings: dict, options: dict) -> NimScreen:
        return cls(int(options.get("stones", settings["stones"])))

    def compose(self) -> ComposeResult:
        yield Static("●" * self.stones, id="board")


class NimOptions:
    """The options of a game of Nim: the pile it starts from."""

    def __init__(self, stones: int) -> None:
        self.stones = stones

    @classmethod
    def from_settings(cls, values: dict) -> NimOptions:
        return cls(int(values["stones"]))


class LiveNimScreen(NimScreen):
    """Nim played in the lobby, as a live screen is built (``open_live_game``): its options,
    the lobby's view of the game, the player's name."""

    OPTIONS = NimOptions

    def __init__(self, options: NimOptions, live: dict, me: str) -> None:
        super().__init__(options.stones)
        self.live, self.me = live, me


SPEC = GameSpec(
    key="nim",
    title="Nim",
    blurb="one pile, take 1 to 3, the last stone wins",
    engine="nim_game",
    screen="nim_game:NimScreen",
    commands="nim_game",
    tools_help="Nim tools: win or loss",
    play_help="Nim",
    bench="nim_game:bench_nim",
    arena="nim_game:NimArena",
    settings={"stones": 21},
    setting_rules={"stones": Between(1, MAX_STONES, whole=True)},
    help="**Nim**: take 1 to 3 stones; whoever takes the last one wins.",
    rules="# How to play Nim\n\n**Rules.** One pile; take 1 to 3 stones in turn; whoever takes the last wins.\n",
    live_screen="nim_game:LiveNimScreen",
    probe=("play", "nim"),
)
