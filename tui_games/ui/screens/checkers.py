"""The checkers screen: pick a piece and its landing squares with the keys or the mouse, or
type the move in PDN; a move list beside the board; draws offered and claimed; games saved
and loaded as PDN files other checkers programs read."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Callable

from textual import on
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from tui_games.bots import BOT_FILE, bot_choices, game_player, is_bot_spec, storable
from tui_games.data.checkers_book import shared_book
from tui_games.data.checkers_db import shared_db
from tui_games.data.resources import read_puzzles
from tui_games.engine.checkers.ballots import BALLOTS_FILE, parse_ballots
from tui_games.engine.checkers.bits import COLOUR_NAMES
from tui_games.engine.checkers.notation import CheckersError
from tui_games.engine.checkers.pdn import read_pdn_game, write_pdn
from tui_games.engine.checkers.players import OPPONENTS, make_player
from tui_games.engine.checkers.position import CheckersPosition, Move
from tui_games.engine.mcts_spec import mcts_choices, spec_family
from tui_games.engine.players import Decision
from tui_games.engine.search import SearchStats
from tui_games.engine.tree import TreeRecorder
from tui_games.ui.screens.bot_file import ask_bot_file
from tui_games.ui.screens.choices import Choice, ChoicesDialog
from tui_games.ui.screens.file_dialogs import ask_to_load, ask_to_save
from tui_games.ui.screens.game_screen import GameScreen
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.widgets.checkers_board import CheckersBoard

HINT_SECONDS = 3.0
# What a typed move may contain: square numbers joined by '-' or 'x'.
MOVE_KEYS = {**{str(d): str(d) for d in range(10)}, "minus": "-", "x": "x"}


@dataclass
class CheckersOptions:
    opponent: str = "strong"  # a player spec, or "human"
    human: str = "black"  # the side the human plays against the computer
    start: str = ""  # the start position's FEN; "" for the standard start
    opening: str = ""  # how the start was chosen, for the title ("ballot 012 (…)")

    @classmethod
    def from_settings(cls, values: dict) -> CheckersOptions:
        known = {k: v for k, v in values.items() if k in cls.__dataclass_fields__}
        options = cls(**known)
        if (spec_family(options.opponent) not in OPPONENTS and options.opponent != "human"
                and not is_bot_spec(options.opponent)):
            options.opponent = "strong"
        if options.human not in ("black", "white"):
            options.human = "black"
        if options.start:
            try:
                CheckersPosition(options.start)
            except CheckersError:
                options.start, options.opening = "", ""
        return options

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def move_list(position: CheckersPosition) -> str:
    """The game so far in PDN move text, a full move a line (``12. 11-15 23-19``)."""
    start = CheckersPosition(position.start_fen)
    lines: list[str] = []
    turn, number = start.turn, 1
    for move in position.history:
        if turn == 0:
            lines.append(f"{number:>3}. {move!s:<8}")
        else:
            if not lines:
                lines.append(f"{number:>3}. {'…':<8}")
            lines[-1] += f" {move}"
            number += 1
        turn ^= 1
    return "\n".join(lines)


class CheckersScreen(GameScreen):
    TITLE = "Checkers"
    DEFAULT_CLASSES = "flush-board"
    GAME = "checkers"
    OPTIONS = CheckersOptions

    BINDINGS = [
        Binding("enter,space", "choose", "Pick/land", show=False),
        Binding("d", "draw", "Draw"),
        Binding("f", "flip", "Flip", show=False),
        Binding("number_sign", "numbers", "Numbers", show=False),
        Binding("w", "save_pdn", "Save"),
        Binding("r", "load_pdn", "Load", show=False),
        Binding("backspace", "typed_back", show=False),
        *[Binding(key, f"typed('{char}')", show=False) for key, char in MOVE_KEYS.items()],
    ]

    def __init__(self, options: CheckersOptions | None = None) -> None:
        settings = self.app.store.load_settings()
        section = settings["checkers"]
        self.seconds = float(section["seconds"])
        self.book = shared_book() if section.get("book", True) else None
        self.pieces = section["pieces"]
        self.numbers = bool(section["numbers"])
        # The move being entered: the squares picked so far, or the PDN typed so far.
        self.path: list[int] = []
        self.typed = ""
        super().__init__(options or CheckersOptions.from_settings(section))
        self.set_class(self.numbers, "wide-board")

    # -- hooks ----------------------------------------------------------------------------------

    @property
    def board(self) -> CheckersBoard:
        return self.query_one(CheckersBoard)

    def board_for(self, position):
        """Step mode's board: the same widget, showing ``position``."""
        return CheckersBoard(position, pieces=self.pieces, flipped=self._flipped(), numbers=self.numbers,
                             id="step-board")

    def make_board(self) -> CheckersBoard:
        return CheckersBoard(self.position, pieces=self.pieces, flipped=self._flipped(), numbers=self.numbers,
                             id="board")

    def below_board(self) -> list[Widget]:
        return [Static("", id="moves", classes="moves")]

    def new_position(self) -> CheckersPosition:
        return CheckersPosition(self.options.start or None)

    def make_opponent(self):
        if self.options.opponent == "human":
            return None
        if is_bot_spec(self.options.opponent):
            try:
                return game_player("checkers", self.options.opponent, {})
            except ValueError as error:
                self.notify(f"{error}; strong plays instead", severity="error")
                self.options.opponent = "strong"
        return make_player(self.options.opponent, seconds=self.seconds if self.options.opponent == "strong" else None,
                           database=shared_db(), book=self.book)

    @property
    def human_player(self) -> int | None:
        if self.options.opponent == "human":
            return None
        return 0 if self.options.human == "black" else 1

    def first_player(self) -> int:
        return self.position.turn  # the start position says who moves

    def side_name(self, player: int) -> str:
        return COLOUR_NAMES[player]

    def move_name(self, move: Any) -> str:
        return str(move)

    def position_text(self, position: Any) -> str:
        return position.fen()

    def saved_move(self, move: Move) -> str:
        return str(move)

    def restored_move(self, item: Any, position: CheckersPosition) -> Move:
        return position.parse_move(str(item))

    def title_text(self) -> str:
        if self.opponent is None:
            who = "two players"
        else:
            who = f"you {self.options.human} vs {self.opponent.name}"
        opening = f" · {self.options.opening}" if self.options.opening else ""
        return f"[b]{who}[/b]{opening}"

    def outcome_text(self, outcome) -> str:
        reason = {"no moves": "no move left", "no pieces": "no piece left", "repetition": "threefold repetition",
                  "40-move rule": "the 40-move rule", "agreement": "agreement"}.get(outcome.reason, outcome.reason)
        if outcome.winner is None:
            return f"Draw by {reason}."
        return f"{self.side_name(outcome.winner)} wins ({self.side_name(1 - outcome.winner)}: {reason})."

    def _flipped(self) -> bool:
        # The human's side at the bottom; two players: Black, who moves first.
        return self.human_player == 1

    def reset_board(self) -> None:
        self.path, self.typed = [], ""
        board = self.board
        board.set_flipped(self._flipped())
        board.set_position(self.position)
        self._show_marks()

    def board_moved(self, *moves: Move) -> None:
        self.path, self.typed = [], ""
        self.board.refresh()  # a capture changes squares far apart; the board is small
        self._show_marks()

    def _after_move(self) -> None:
        super()._after_move()
        self._show_marks()

    def _show_marks(self) -> None:
        pos = self.position
        last = pos.history[-1] if pos.history else None
        human_turn = pos.outcome() is None and not self._is_computer_turn()
        movable = pos.movable_squares() if human_turn and not self.path else set()
        targets = pos.next_squares(self.path) if self.path else set()
        self.board.set_marks(movable=movable, picked=self.path, targets=targets,
                             last=set(last.path) if last else set(),
                             captured=set(last.captures) if last else set())
        self.query_one("#moves", Static).update(self._moves_text())

    def _moves_text(self) -> str:
        text = move_list(self.position)
        lines = text.splitlines()
        # The latest moves fit at 80×24; the whole game is in the saved PDN.
        return "\n".join(lines[-8:])

    # -- entering a move ------------------------------------------------------------------------------

    def action_choose(self) -> None:
        if self.typed:
            self._play_typed()
            return
        self.board.choose()

    @on(CheckersBoard.SquareChosen)
    def square_chosen(self, event: CheckersBoard.SquareChosen) -> None:
        pos = self.position
        square = event.square
        if pos.outcome() is not None:
            self.app.bell()
            return
        if self._is_computer_turn():
            self.notify("The computer is thinking; u undoes, n starts a new game.", timeout=2)
            return
        if square is None:
            self.app.bell()
            return
        if not self.path or (len(self.path) == 1 and square in pos.movable_squares() and square != self.path[0]):
            self._pick(square)
            return
        if len(self.path) == 1 and square == self.path[0]:
            self.path = []  # the same piece again: put it back
            self._show_marks()
            self._set_status(f"{self.side_name(pos.turn)} to move")
            return
        if square not in pos.next_squares(self.path):
            options = ", ".join(str(s) for s in sorted(pos.next_squares(self.path)))
            self._set_status(f"{square} is not a landing square for this piece: {options}.")
            return
        self.path.append(square)
        longer = [m for m in pos.matching_moves(self.path) if len(m.path) > len(self.path)]
        move = pos.find_move(self.path)
        if move is not None and not longer:
            self.human_move(move)
            return
        self._show_marks()
        self._set_status(f"{'x'.join(map(str, self.path))}: the capture goes on — pick the next landing square")

    def _pick(self, square: int) -> None:
        pos = self.position
        if square in pos.movable_squares():
            self.path = [square]
            self._show_marks()
            self._set_status(f"{square} picked: choose where it goes (Escape puts it back)")
            return
        piece = pos.piece_at(square)
        own = "bB" if pos.turn == 0 else "wW"
        if piece is None:
            message = f"{square} is empty: pick one of your pieces."
        elif piece not in own:
            message = f"{square} holds a {self.side_name(1 - pos.turn)} piece: pick one of yours."
        elif pos.must_capture():
            capturers = ", ".join(str(s) for s in sorted(pos.movable_squares()))
            message = f"A capture is compulsory: pick a piece that can take ({capturers})."
        else:
            message = f"The piece on {square} cannot move."
        self._set_status(message)

    def action_typed(self, char: str) -> None:
        if self.position.outcome() is not None or self._is_computer_turn():
            return
        self.typed += char
        self._set_status(f"move: {self.typed}▏ (Enter plays it, Escape clears)")

    def action_typed_back(self) -> None:
        if self.typed:
            self.typed = self.typed[:-1]
            self._set_status(f"move: {self.typed}▏ (Enter plays it, Escape clears)")

    def _play_typed(self) -> None:
        text, self.typed = self.typed, ""
        try:
            move = self.position.parse_move(text)
        except CheckersError as error:
            self._set_status(f"{self.side_name(self.position.turn)} to move")
            self.notify(str(error), severity="warning", timeout=4)
            return
        self.human_move(move)

    def action_back(self) -> None:
        if self.path or self.typed:
            self.path, self.typed = [], ""
            self._show_marks()
            self._set_status(f"{self.side_name(self.position.turn)} to move")
            return
        super().action_back()

    # -- hint ---------------------------------------------------------------------------------------

    def hint_job(self, position: CheckersPosition, recorder: TreeRecorder) -> Callable:
        seconds = min(self.seconds, HINT_SECONDS)

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            advisor = make_player("strong", seconds=max(0.5, seconds), database=shared_db(), book=self.book)
            decision = advisor.choose(position, stop=stop, on_progress=progress, recorder=recorder)
            return decision, recorder, position, None

        return job

    def show_hint(self, decision: Decision, position: CheckersPosition, extra: Any) -> None:
        super().show_hint(decision, position, extra)
        move = decision.move
        if move is not None:
            self.board.set_marks(targets=set(move.path[1:]), movable={move.path[0]})

    # -- draws, flipping, numbers ---------------------------------------------------------------------

    def action_draw(self) -> None:
        pos = self.position
        if pos.outcome() is not None:
            return
        if self.opponent is None:
            self.runner.cancel()
            pos.agree_draw()
            self.save_progress()
            self._after_move()
            return
        if self._is_computer_turn():
            self.notify("Offer a draw on your own turn.", timeout=2)
            return
        # The computer accepts when it does not think itself better: its static view of the
        # position (the side to move is the human, so the engine's view is the negation).
        if -pos.evaluate() <= 0:
            pos.agree_draw()
            self.status_note = f"{self.opponent.name} accepted the draw."
            self.save_progress()
            self._after_move()
        else:
            self.notify(f"{self.opponent.name} declines: it thinks it is better.", timeout=3)

    def action_flip(self) -> None:
        self.board.set_flipped(not self.board.flipped)

    def action_numbers(self) -> None:
        self.numbers = not self.numbers
        self.board.set_numbers(self.numbers)
        # The numbered board is 42 columns wide: the side column gives way for it.
        self.set_class(self.numbers, "wide-board")
        self._fit_board()
        self.app.store.update_settings("checkers", numbers=self.numbers)

    # -- PDN files ------------------------------------------------------------------------------------

    def action_save_pdn(self) -> None:
        def content() -> str:
            names = {0: "?", 1: "?"}
            human = self.human_player
            if self.opponent is not None and human is not None:
                names[human] = "You"
                names[1 - human] = f"tui-games {self.opponent.name}"
            return write_pdn(self.position, event="tui-games", date=f"{date.today():%Y.%m.%d}",
                             black=names[0], white=names[1])

        ask_to_save(self, "Save the game as PDN", f"checkers-{date.today():%Y%m%d}.pdn", content,
                    lambda shown: self.notify(f"Saved the game to {shown}.", timeout=4))

    def action_load_pdn(self) -> None:
        def loaded(game, shown: str) -> None:
            self._cancel_search()
            self.options.start = "" if game.start_fen == CheckersPosition().start_fen else game.start_fen
            self.options.opening = Path(shown).name
            self._start_game([str(m) for m in game.moves], CheckersPosition(self.options.start or None).turn)
            self.notify(f"Loaded {len(game.moves)} moves from {shown}.", timeout=4)

        ask_to_load(self, "Load a PDN game", "File to read (the first game in it).",
                    lambda text, shown: read_pdn_game(text), loaded)

    # -- options: opponent, side, start ----------------------------------------------------------------

    def action_options(self) -> None:
        o = self.options
        opponents = [("another person (same keyboard)", "human")] + [(label, spec) for spec, label in OPPONENTS.items()]
        opponents += mcts_choices(o.opponent) + bot_choices(o.opponent)
        dialog = ChoicesDialog("New checkers game", [
            Choice("opponent", "Opponent", opponents, o.opponent),
            Choice("human", "You play", [("Black (moves first)", "black"), ("White", "white")], o.human),
            Choice("start", "Start from", [("the standard position", "standard"),
                                           ("a random three-move ballot", "ballot"),
                                           ("a FEN you type", "fen")], "standard"),
        ])

        def chosen(values: dict | None) -> None:
            if values is None:
                return
            if values["opponent"] == BOT_FILE:
                ask_bot_file(self, "checkers", o.opponent, lambda spec: chosen({**values, "opponent": spec}))
                return
            start = values.pop("start")
            options = CheckersOptions.from_settings({**values})
            if start == "ballot":
                ballot = random.choice([b for b in parse_ballots(read_puzzles(BALLOTS_FILE)) if b.standard])
                options.start, options.opening = ballot.position().fen(), str(ballot)
                self._new(options)
            elif start == "fen":
                self._ask_fen(options)
            else:
                self._new(options)

        self.app.push_screen(dialog, chosen)

    def _ask_fen(self, options: CheckersOptions) -> None:
        def check(text: str) -> str | None:
            try:
                position = CheckersPosition(text)
            except CheckersError as error:
                return str(error)
            return "The game is already over in that position." if position.outcome() else None

        def chosen(text: str | None) -> None:
            if text is None:
                return
            options.start, options.opening = CheckersPosition(text).fen(), "from FEN"
            self._new(options)

        self.app.push_screen(InputDialog("Start from a FEN", 'e.g. B:W18,24,27,28,K10:B12,16,20,K22 '
                                         '(or [FEN "…"])', check=check), chosen)

    def _new(self, options: CheckersOptions) -> None:
        self.options = options
        self.app.store.update_settings("checkers", **storable({"opponent": options.opponent, "human": options.human}))
        self._cancel_search()
        self._start_game()
