"""The game table: one :class:`GameSpec` per game, and the one lookup, :func:`find_game`.

Everything that offers a choice of game reads :data:`GAMES` — the menu, the app's screen
routing, the command line's sub-commands and ``play``, the arena and the Lab, the store's
settings, the benchmarks, the terminal probe and the help — so a new game is one engine
package, one screen, one board widget, its tests and one entry here (python-chess's
``chess/variant.py`` is the model). A test walks the table and checks every place.

This module imports nothing of the games themselves: the parts of an entry that live in other
layers are named as ``"module:attribute"`` strings and loaded on use (:func:`load`), so the
command line never imports Textual, and ``tui-games sudoku solve`` never imports checkers.
"""

from __future__ import annotations

import importlib
from collections import namedtuple
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tui_games.userdata.setting_rules import Between, Flag, OneOf, SettingError, SettingRule

if TYPE_CHECKING:  # for the annotations only: this module imports nothing of the games
    from tui_games.engine.adapter import GameAdapter

__all__ = ["GAMES", "GameSpec", "SettingRow", "arena_adapter", "arena_specs", "find_game", "game_keys", "load"]

# Plain classes, not dataclasses: this module is on every command's start-up path, and
# ``dataclasses`` costs more to import than a one-puzzle ``sudoku solve`` (bench startup).


class SettingRow(namedtuple("SettingRow", "section key label choices", defaults=((),))):
    """One row of the Settings screen: ``section.key`` of settings.json, its ``label``, and its
    ``choices`` (``(label, value)`` pairs, each allowed by the setting's rule). With no choices
    the setting's rule decides: an on/off switch for a Flag, a number typed in for a Between
    (its range shown, anything outside it refused)."""

    __slots__ = ()


class GameSpec:
    """A game of the suite, and where each of its parts lives.

    - ``key``: the name everywhere — CLI, store, saves (``connect4``); ``aliases`` also find it;
      ``title`` as a person reads it (``Connect-4``); ``blurb``: one line for the menu.
    - ``engine``: its engine package (pure Python, no Textual).
    - ``screen``: ``"module:Class"``, a screen with a ``for_game(settings, options)`` class
      method; imported only by the app.
    - ``commands``: its command module, a :class:`~tui_games.commands.options.GameCommands`:
      ``add_tools(parser)`` (``tui-games KEY …``), ``add_play_arguments(parser)`` and
      ``play_options(args)`` (``tui-games play KEY …``), and the options it adds to the generic
      commands, ``ARENA_OPTIONS`` (its variants) and ``BENCH_OPTIONS`` (its bench's keywords);
      ``tools_help`` and ``play_help`` are the help lines of its tools and of ``play``.
    - ``bench``: ``"module:function"`` printing ``tui-games bench KEY``.
    - ``settings``: the defaults of its section of settings.json; ``setting_rules``: what each
      of them may hold (tui_games.userdata.setting_rules: a range or a set of choices; every setting has
      one, and the store enforces it on load and on save); ``setting_rows``: what the Settings
      screen offers of them.
    - ``help``: its paragraph in the help screen (Markdown): the keys.
    - ``rules``: its page in the help screen (Markdown, from a ``# How to play …`` title): the
      rules, the notation, what the numbers on screen mean.
    - ``probe``: ``play`` arguments opening its board for the terminal probe.
    - ``arena``: ``"module:Class"``, its GameAdapter (arena, Lab, sweep, lobby; it meets the
      contracts of :mod:`tui_games.engine.contracts`), or None with the reason in ``no_arena``.
    - ``live_screen``: ``"module:Class"``, the screen of a game played in the lobby (with
      ``OPTIONS.from_settings(dict)`` and ``(options, game, me)``: the lobby's view of the game,
      the player's name); every game with an arena adapter is played there, so it must have one.
    """

    __slots__ = ("key", "title", "blurb", "engine", "screen", "commands", "tools_help", "play_help", "bench",
                 "settings", "setting_rules", "help", "rules", "probe", "setting_rows", "arena", "no_arena",
                 "live_screen", "aliases")

    def __init__(self, *, key: str, title: str, blurb: str, engine: str, screen: str, commands: str,
                 tools_help: str, play_help: str, bench: str, settings: Mapping,
                 setting_rules: Mapping[str, SettingRule], help: str, rules: str,
                 probe: tuple[str, ...], setting_rows: tuple[SettingRow, ...] = (), arena: str | None = None,
                 no_arena: str | None = None, live_screen: str | None = None,
                 aliases: tuple[str, ...] = ()) -> None:
        if (arena is None) == (no_arena is None):
            raise ValueError(f"{key}: give either an arena adapter or the reason it has none")
        if (arena is None) != (live_screen is None):
            raise ValueError(f"{key}: a game with an arena adapter is played in the lobby, and only such a game: "
                             f"give both its adapter and its live screen, or neither")
        if not rules.startswith("# "):
            raise ValueError(f"{key}: its rules page starts with its title ('# How to play …')")
        self.key, self.title, self.blurb, self.aliases = key, title, blurb, tuple(aliases)
        self.engine, self.screen, self.commands, self.bench = engine, screen, commands, bench
        self.tools_help, self.play_help, self.help, self.probe = tools_help, play_help, help, tuple(probe)
        self.rules, self.live_screen = rules, live_screen
        # The defaults are shared by every Store: nobody may change them in place.
        self.settings = MappingProxyType(dict(settings))
        self.setting_rules = MappingProxyType(dict(setting_rules))
        if set(self.setting_rules) != set(self.settings):
            raise ValueError(f"{key}: every setting needs a rule and every rule a setting; "
                             f"differ: {sorted(set(self.setting_rules) ^ set(self.settings))}")
        for name, default in self.settings.items():
            try:
                self.setting_rules[name].check(default)
            except SettingError as error:
                raise ValueError(f"{key}.{name}: the default {default!r} {error}") from None
        self.setting_rows = tuple(setting_rows)
        self.arena, self.no_arena = arena, no_arena

    def __repr__(self) -> str:
        return f"GameSpec(key={self.key!r})"

    @property
    def screen_class(self):
        return load(self.screen)

    @property
    def live_screen_class(self):
        """The screen of this game played in the lobby (ValueError for a game that is not)."""
        if self.live_screen is None:
            raise ValueError(f"{self.title} is not played in the lobby: {self.no_arena}")
        return load(self.live_screen)

    @property
    def commands_module(self):
        return importlib.import_module(self.commands)

    @property
    def bench_function(self) -> Callable[..., Any]:
        return load_function(self.bench)


def load(path: str) -> object:
    """The object a ``"package.module:name"`` string names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def load_function(path: str) -> Callable[..., Any]:
    """The function a ``"package.module:name"`` string names (TypeError if it is not one)."""
    function = load(path)
    if not callable(function):
        raise TypeError(f"{path} is not a function")
    return function


def _levels(high: int) -> tuple[str, ...]:
    return tuple(f"level{n}" for n in range(1, high + 1))


# The opponents each game's engine offers (its players' OPPONENTS registry; tests/ui/test_games.py
# checks they agree): named here so that loading settings never imports an engine.
_TTT_OPPONENTS = OneOf("human", "perfect", *_levels(9), "random", "mcts", "rule-based", "magic-square")
_C4_OPPONENTS = OneOf("human", "perfect", *_levels(12), "random", "mcts")
_CHECKERS_OPPONENTS = OneOf("human", "strong", *_levels(12), "baseline", "random", "mcts")
_FIRST = OneOf("human", "computer")
# A computer's time for one move. Below half a second the perfect players stop being
# themselves; ten minutes a move is already more patience than anyone has.
_SECONDS = Between(0.5, 600.0, unit="seconds")
# The grades the generator makes (the grader's levels but "needs search", which it cannot make
# to order; tests/ui/test_ui_sudoku.py checks they agree with engine/sudoku/levels.py) and the shipped
# collections, one per grade (puzzles/sudoku_LEVEL.txt).
_SUDOKU_GRADES = ("trivial", "basic", "intermediate", "advanced", "extreme", "fiendish", "diabolical", "nightmare")
_SUDOKU_COLLECTIONS = tuple(f"sudoku_{level}.txt" for level in _SUDOKU_GRADES)

# A list, like python-chess's VARIANTS: everything reads it when it runs, never a copy.
# Each game's page of the help: its rules, its notation, what the numbers on screen mean (the help
# shows the current game's first).

_TICTACTOE_RULES = """\
# How to play Tic-tac-toe

**Rules.** X and O take turns to mark an empty cell; X moves first. Whoever gets *k* marks in
a row — across, down or diagonally — wins (3×3, 3 in a row is the classic game; o sets boards
from 3×3 to 7×7 and *k*). A full board without a row is a draw. **Misère** (reverse rules):
whoever completes a row *loses*.

**Notation.** A cell is its column letter and row number, as the board's edges show them:
`a1` top left, `b2` the centre of 3×3.

**The numbers.** *perfect* searches to the end of the game on boards of up to 16 cells (4×4):
its *win in 5* / *loss in 4* count plies (one mark each) and are proven. On bigger boards no
search finishes in a move's time: the opponent is called *deep search*, searches as deep as
its time allows, and its scores (*+12*) are estimates at the search horizon, marked
*not proven*.
"""

_CONNECT4_RULES = """\
# How to play Connect-4

**Rules.** Seven columns, six rows. Players drop a disc in turn (● first, then ○); it falls to
the lowest free cell of the column. Four in a row — across, down or diagonally — wins; a full
board without one is a draw. With perfect play the first player wins, starting in the centre,
with the 41st disc. **Full-board variant** (o): the game goes on until the board is full,
every four counts, and whoever made more fours wins; there is no exact solver for it, so the
strongest opponent is a *deep search*.

**Notation.** Columns are 1–7 from the left; a game is the columns played, in order:
`4453` is ● 4, ○ 4, ● 5, ○ 3.

**The numbers.** The hint under the board gives each column's exact value *in your own
moves*: *wins in 3* means your third disc from now wins, *loses in 7* that the opponent wins
after your seventh, *draw*. The search panel counts *plies* instead (both sides' discs):
*win in 5* is five discs from now. *score +14* is the solver's value in the standard
convention: a win with one's k-th disc scores 22 − k (so a faster win scores more), a loss
the negative, a draw 0. *solved (book)*: the value came from the opening book of every
12-disc position; *solved*: from the exact solver. *not solved*: only without the compiled
solver, a hard position ran out of time and the move is the heuristic search's best guess.
"""

_CHECKERS_RULES = """\
# How to play Checkers

**Rules** (American checkers, English draughts). Play is on the 32 dark squares; Black
moves first. A man steps one square diagonally *forward*. A capture jumps an adjacent enemy
piece to the empty square behind it, and **capturing is compulsory**: when any capture is
possible you must capture (any one you like), and a capture goes on jump after jump until the
piece can take nothing more. A man reaching the far row is crowned a **king** (B, W) — its
move ends there — and kings move and capture backwards too. You lose when you have no piece
or no legal move. **Draws**: the same position three times with the same side to move; the
**40-move rule** — 40 moves by each side with no capture and no man moved; or by agreement
(d offers one).

**Notation** (PDN). The dark squares are numbered 1–32, from Black's side: 1–4 is Black's
back row, 29–32 White's (# shows the numbers on the board, beside each piece). A move is
`11-15`; a capture `15x24`, a double jump `15x24x31`. Type one and press Enter.

**The numbers.** Scores are from the side to move, in hundredths of a man (*+100* is a man
ahead) and estimates unless shown as *win in N* (N plies, one move of either side each).
"""

_SUDOKU_RULES = """\
# How to play Sudoku

**Rules.** Fill every empty cell with a digit so that each row, each column and each 3×3 box
holds every digit 1–9 once. A good puzzle has exactly one solution, and it can be found by
reasoning alone.

**Notation.** A cell is `r4c7` (row 4, column 7); a hint says what it does: *place 7 at
r4c6*, *remove 3 from r2c5, r2c7*. A chain reads like `(2=6)r1c4-(6)r2c4`: *=* a strong link
(if one is false the other is true), *-* a weak one (both cannot be true).

**The numbers.** A hint names the technique and its rating on Sudoku Explainer's scale
(1.0–11; higher is harder); a puzzle's grade is its hardest step. Your time counts while the
puzzle is on screen (Space pauses). A puzzle finished after a hint played with i is counted as
*with hints* in Scores and is never a best time; one filled by the solver (S) is not counted.
"""

GAMES: list[GameSpec] = [
    GameSpec(
        key="tictactoe",
        title="Tic-tac-toe",
        blurb="m×n boards, k in a row, normal or reverse",
        aliases=("ttt", "tic-tac-toe"),
        engine="tui_games.engine.tictactoe",
        screen="tui_games.ui.screens.tictactoe:TicTacToeScreen",
        commands="tui_games.commands.tictactoe",
        tools_help="tic-tac-toe tools: the exact value of a position",
        play_help="tic-tac-toe on an m×n board, k in a row",
        bench="tui_games.bench.tictactoe:bench_tictactoe",
        arena="tui_games.engine.tictactoe.arena:TicTacToeArena",
        rules=_TICTACTOE_RULES,
        live_screen="tui_games.ui.screens.live_game:LiveTicTacToeScreen",
        settings={"rows": 3, "cols": 3, "k": 3, "misere": False, "opponent": "perfect", "first": "human",
                  "human_mark": "X", "seconds": 10.0},
        # The board sizes of tui_games.engine.tictactoe (MIN_SIZE, MAX_SIZE); k is fitted to the
        # board when the game opens.
        setting_rules={"rows": Between(3, 7, whole=True), "cols": Between(3, 7, whole=True),
                       "k": Between(3, 7, whole=True), "misere": Flag(), "opponent": _TTT_OPPONENTS,
                       "first": _FIRST, "human_mark": OneOf("X", "O"), "seconds": _SECONDS},
        setting_rows=(SettingRow("tictactoe", "seconds", "Tic-tac-toe perfect time"),),
        help="**Tic-tac-toe**: the arrows move the cursor, Enter / Space / a click plays the cell; o sets "
             "the board (3×3 to 7×7), k in a row, normal or reverse rules, the opponent and who starts.",
        probe=("play", "tictactoe", "--opponent", "human", "--size", "3x3"),
    ),
    GameSpec(
        key="connect4",
        title="Connect-4",
        blurb="classic or full board, exact solver",
        aliases=("c4", "connect-4"),
        engine="tui_games.engine.connect4",
        screen="tui_games.ui.screens.connect4:Connect4Screen",
        commands="tui_games.commands.connect4",
        tools_help="Connect-4 tools: exact scores of positions and of each column",
        play_help="Connect-4 (7×6)",
        bench="tui_games.bench.connect4:bench_connect4",
        arena="tui_games.data.connect4_book:connect4_arena",
        rules=_CONNECT4_RULES,
        live_screen="tui_games.ui.screens.live_game:LiveConnect4Screen",
        settings={"opponent": "perfect", "first": "human", "full_board": False, "heuristic": "default",
                  "seconds": 5.0},
        setting_rules={"opponent": _C4_OPPONENTS, "first": _FIRST, "full_board": Flag(),
                       "heuristic": OneOf("default", "simple", "aware"), "seconds": _SECONDS},
        setting_rows=(
            SettingRow("ui", "discs", "Connect-4 discs", (("shapes ● ○", "shapes"), ("letters X O", "letters"))),
            SettingRow("connect4", "seconds", "Connect-4 perfect time"),
        ),
        help="**Connect-4**: ← → (h l) move the column cursor, Enter / Space / ↓ drop a disc, 1–7 drop "
             "straight into a column; the hint lists every column's value counted in your own moves "
             '("wins in 3", "draw", "loses in 7").',
        probe=("play", "connect4", "--opponent", "human"),
    ),
    GameSpec(
        key="checkers",
        title="Checkers",
        blurb="American rules, PDN, a strong engine",
        aliases=("draughts",),
        engine="tui_games.engine.checkers",
        screen="tui_games.ui.screens.checkers:CheckersScreen",
        commands="tui_games.commands.checkers",
        tools_help="checkers tools: legal moves, perft, the engine's move",
        play_help="American checkers (English draughts)",
        bench="tui_games.bench.checkers:bench_checkers",
        # The adapter with the endgame tables on disk, opened outside the engine package.
        arena="tui_games.data.checkers_db:checkers_arena",
        rules=_CHECKERS_RULES,
        live_screen="tui_games.ui.screens.live_game:LiveCheckersScreen",
        # pieces: "letters" (b w, B W for kings) or "glyphs"; human: the side played against
        # the computer, "black" (moves first) or "white".
        # book: the strong player (and the hint) play the shipped opening book's moves.
        settings={"opponent": "strong", "human": "black", "seconds": 2.0, "pieces": "letters", "numbers": False,
                  "book": True},
        # seconds: the strong player's budget (tui_games.engine.checkers.players.check_seconds).
        setting_rules={"opponent": _CHECKERS_OPPONENTS, "human": OneOf("black", "white"),
                       "seconds": Between(0.5, 10.0, unit="seconds"), "pieces": OneOf("letters", "glyphs"),
                       "numbers": Flag(), "book": Flag()},
        setting_rows=(
            SettingRow("checkers", "pieces", "Checkers pieces",
                       (("letters b w, kings B W", "letters"), ("glyphs ● ○, kings ◆ ◇", "glyphs"))),
            SettingRow("checkers", "numbers", "Checkers square numbers"),
            SettingRow("checkers", "seconds", "Checkers strong time"),
            SettingRow("checkers", "book", "Checkers opening book"),
        ),
        help="**Checkers**: Enter (or a click) on one of your pieces picks it — only pieces that can move "
             "are underlined, only capturers when a capture is compulsory — then Enter on each landing "
             "square in turn (a multi-jump one jump at a time; the squares it may reach are highlighted). "
             "Escape puts the piece back. You can also type the move in PDN: `11-15`, `15x24x31`, then "
             "Enter. d offers a draw (the computer accepts when it is not better), f turns the board, "
             "the key # shows the square numbers, w saves the game as PDN, r loads one.",
        probe=("play", "checkers", "--opponent", "human"),
    ),
    GameSpec(
        key="sudoku",
        title="Sudoku",
        blurb="pencil marks, human hints, SAT solver",
        engine="tui_games.engine.sudoku",
        screen="tui_games.ui.screens.sudoku:SudokuScreen",
        commands="tui_games.commands.sudoku",
        tools_help="Sudoku tools: solve, grade, generate, hint",
        play_help="Sudoku: a generated puzzle, or one you give",
        bench="tui_games.bench.sudoku:bench_sudoku",
        no_arena="Sudoku is a one-player puzzle: there is no opponent to play against",
        rules=_SUDOKU_RULES,
        # source: where "new game" takes a puzzle: "generate" at ``grade``, or a shipped collection.
        # uniqueness: the hint may use techniques that assume one solution (unique rectangles, BUG+1).
        settings={"source": "generate", "grade": "basic", "count_mistakes": False, "uniqueness": True},
        setting_rules={"source": OneOf("generate", *_SUDOKU_COLLECTIONS), "grade": OneOf(*_SUDOKU_GRADES),
                       "count_mistakes": Flag(), "uniqueness": Flag()},
        setting_rows=(SettingRow("sudoku", "count_mistakes", "Sudoku mistakes counter"),
                      SettingRow("sudoku", "uniqueness", "Sudoku hints: uniqueness")),
        help="**Sudoku**: 1–9 write a digit, 0 / Backspace / Delete / x clear; p or Enter switches pencil "
             "mode (digits then toggle pencil marks), Shift+digit always toggles a mark; m pencils in every "
             "candidate. u undo, Ctrl+R redo, without limit. i shows the next human step with its rating "
             "on Sudoku Explainer's scale and highlights it — i again plays it; a chain is drawn on the board "
             "(= before a candidate: reached by a strong link, - by a weak one, > where the chain starts; "
             "×4: the 4 that goes) and v shows it whole. "
             "The search runs while you play: a move stops it. The setting *uniqueness* lets hints assume "
             "the puzzle has one solution (unique rectangles, BUG+1); c checks your digits against the solution; S (capital) lets the SAT "
             "solver fill the grid; C (capital) compares the SAT and SMT solvers on the puzzle; Space pauses "
             "the clock; n starts a new puzzle (generated at a grade, from the collections, a file, or a "
             "pasted line). In a Killer the cages are drawn dotted with their sum at the top of their "
             "first cell, and the status line gives the cursor's cage's need (`cage 17: 9 in 2`: 9 more in "
             "its 2 empty cells); a Jigsaw's regions are drawn heavy.",
        probe=("play", "sudoku", "--puzzle",
               "003020600900305001001806400008102900700000008006708200002609500800203009005010300"),
    ),
]


def game_keys() -> list[str]:
    return [spec.key for spec in GAMES]


def find_game(name: str) -> GameSpec:
    """The game called ``name`` (its key or an alias, any case); ValueError names the games."""
    want = name.strip().lower()
    for spec in GAMES:
        if want == spec.key or want in spec.aliases:
            return spec
    raise ValueError(f"no game called {name!r}; choose one of {', '.join(game_keys())}")


def arena_specs() -> list[GameSpec]:
    """The games two computer players can play against each other."""
    return [spec for spec in GAMES if spec.arena is not None]


_adapters: dict[str, GameAdapter] = {}


def arena_adapter(name: str) -> GameAdapter:
    """The :class:`~tui_games.engine.adapter.GameAdapter` of ``name`` (one instance per game);
    ValueError names the games that have one, or says why this one has none."""
    spec = find_game(name)
    if spec.arena is None:
        raise ValueError(f"{spec.no_arena}; the arena plays {', '.join(s.key for s in arena_specs())}")
    adapter = _adapters.get(spec.key)
    if adapter is None:
        factory: Any = load(spec.arena)
        adapter = _adapters[spec.key] = factory()
    return adapter
