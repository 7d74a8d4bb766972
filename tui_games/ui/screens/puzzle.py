"""The puzzle of the day in the app: today's puzzle of a game (g: the next game), played on
the game's own board, then right or wrong with the refutation shown on the board.

The puzzle and the verdict are :mod:`tui_games.daily`'s (the same as ``tui-games puzzle`` and
the lobby's). Making one may take a second (checkers' tables, Sudoku's generator), so it is
made in a thread; nothing animates while it is made.

Under a server with a lobby the day is the server's (asked of the lobby, which also starts
the player's solve time), and an answer played out here is sent to the lobby as one attempt
once it is right to the end or wrong (a Sudoku grid on Enter once it is full and repeats no
digit, so a typo in the last cell costs no attempt): the lobby judges it again (an app is never trusted)
and counts it for the streak and the leaderboard, as ``ssh host puzzle GAME --answer``.
Without a lobby the puzzle is the local date's, for practice.
"""

from __future__ import annotations

import asyncio
import datetime

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Header, Static

from tui_games.daily import GAMES, AnswerError, Puzzle, Verdict, judge, parse_day, puzzle
from tui_games.daily.seed import local_day
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.tictactoe.position import TicTacToe
from tui_games.online.client import LobbyUnavailable
from tui_games.ui.app_base import UsesApp
from tui_games.ui.widgets.c4_board import Connect4Board
from tui_games.ui.widgets.checkers_board import CheckersBoard
from tui_games.ui.widgets.grid_board import GridBoard
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.sudoku_board import SudokuBoard
from tui_games.ui.widgets.ttt_board import TicTacToeBoard

TITLES = {"tictactoe": "Tic-tac-toe", "connect4": "Connect-4", "checkers": "Checkers", "sudoku": "Sudoku"}


class PuzzleScreen(UsesApp, Screen):
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("g", "next_game", "Next game"),
        # The checkers board leaves Enter to its screen (the grids bind it themselves).
        Binding("enter,space", "choose", "Pick/land", show=False),
        # Sudoku only (check_action): a full grid waits for this, to be corrected first.
        Binding("enter", "judge", "Judge the grid"),
        Binding("r", "again", "Again"),
    ]

    DEFAULT_CSS = """
    PuzzleScreen #puzzle-box { height: 1fr; }
    PuzzleScreen #puzzle-head { width: 78; height: auto; }
    PuzzleScreen #puzzle-board { width: auto; height: auto; }
    PuzzleScreen #puzzle-verdict { width: 78; height: auto; min-height: 2; }
    """

    def __init__(self, game: str = GAMES[1], *, day: datetime.date | None = None) -> None:
        super().__init__()
        self.game = game
        self.day, self.zone = (day, "the date given") if day is not None else \
            local_day(datetime.datetime.now().astimezone())
        self.made: Puzzle | None = None
        self.verdict: Verdict | None = None
        self.picked: list[int] = []  # checkers: the squares of the move so far
        self.played: list[str] = []  # connect4, tictactoe: the player's moves so far (right ones)
        self.entered: Grid | None = None  # sudoku: the grid being filled
        self.fixed_day = day is not None
        self.recorded: dict | None = None  # the lobby's answer to the last attempt sent
        self.lobby_note = ""  # why the lobby does not count this (unreachable, a guest, …)

    def compose(self) -> ComposeResult:
        yield Header()
        with Center(id="puzzle-box"):
            with Vertical(id="puzzle-column"):
                yield Static("", id="puzzle-head")
                yield Static("", id="puzzle-board-slot")
                yield Static("", id="puzzle-verdict")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.load(self.game)

    # -- making the puzzle ----------------------------------------------------------------------

    def load(self, game: str) -> None:
        self.game, self.made, self.verdict, self.picked, self.entered = game, None, None, [], None
        self.played = []
        self.query_one("#puzzle-head", Static).update(
            f"[b]Puzzle of the day[/b]  {TITLES[game]}, {self.day.isoformat()} ({self.zone})\n"
            "making it…")
        self.query_one("#puzzle-verdict", Static).update("")
        for old in self.query(".puzzle-board"):
            old.remove()
        self.recorded = None
        self.refresh_bindings()
        self._make(game)

    @work(exclusive=True, group="puzzle")
    async def _make(self, game: str) -> None:
        lobby = self.app.lobby
        day, zone = self.day, self.zone
        if lobby is not None and not self.fixed_day:
            try:
                if not lobby.connected:
                    await lobby.connect()
                data = await lobby.request("puzzle", game=game)
                day, zone = parse_day(data["date"]), data["zone"]
                self.lobby_note = "" if not lobby.guest else "a guest's answers are practice: log in with a key"
            except LobbyUnavailable as error:
                data = None
                self.lobby_note = f"the lobby is not reachable ({error}): practice only"
        else:
            data = None
        made = await asyncio.to_thread(puzzle, game, day)
        if data is not None and data["position"] != made.position:
            # Only a server of another version could give another puzzle for the same day.
            self.lobby_note = "the server's puzzle differs from this app's: practice only"
            data = None
        self.counted = data is not None and not self.lobby_note
        self.day, self.zone = day, zone
        self._show(made)

    counted = False  # answers go to the lobby

    def _show(self, made: Puzzle) -> None:
        if made.game != self.game:
            return
        self.made = made
        where = "counted in the lobby" if self.counted else self.lobby_note or "practice"
        self.query_one("#puzzle-head", Static).update(
            f"[b]Puzzle of the day[/b]  {TITLES[made.game]}, {made.date.isoformat()} "
            f"({self.zone.split(', ')[-1]}) · {where}\n[b]{made.goal}[/b]\n[dim]{self._how()}[/dim]")
        for old in self.query(".puzzle-board"):
            old.remove()
        board = self._board(made)
        board.add_class("puzzle-board")
        self.query_one("#puzzle-column", Vertical).mount(board, after="#puzzle-head")
        board.focus()

    def _how(self) -> str:
        if self.game == "sudoku":
            return "arrows move, 1-9 write a digit, 0 or backspace clears; enter judges the full grid"
        if self.game == "checkers":
            return "arrows move, enter picks the piece then each square of the move"
        first = "● first, ○ second; " if self.game == "connect4" else ""
        return first + "arrows move, enter plays; right moves get a reply"

    def _board(self, made: Puzzle) -> Widget:
        if made.game == "connect4":
            return Connect4Board(Connect4.parse(made.position))
        if made.game == "tictactoe":
            return TicTacToeBoard(TicTacToe.parse(made.position, 3, misere=True))
        if made.game == "checkers":
            board = CheckersBoard(CheckersPosition.parse(made.position), numbers=True)
            board.set_marks(movable={m.start for m in board.position.legal_moves()})
            return board
        self.entered = Grid([0 if ch == "." else int(ch) for ch in made.position])
        return SudokuBoard(self.entered)

    # -- answers --------------------------------------------------------------------------------

    def answer(self, text: str) -> None:
        """Judge the player's moves so far with ``text`` after them. A right move that does
        not end the game is answered by the defender on the board, and the player goes on."""
        if self.made is None or self.verdict is not None:
            return
        moves = self.played + [text]
        try:
            verdict = judge(self.made, " ".join(moves))
        except AnswerError as error:
            self.query_one("#puzzle-verdict", Static).update(f"[b]{error}[/b]")
            return
        self._replay(verdict)
        status = self.query_one("#puzzle-verdict", Static)
        if verdict.correct and not verdict.finished:
            self.played = moves
            reply = verdict.line[-1]
            status.update(f"[b $success]Right.[/b $success] {verdict.why}\nThe reply: {reply}. Your move.")
            return
        self.verdict = verdict
        if verdict.correct:
            status.update(f"[b $success]Solved.[/b $success] {verdict.why}")
        else:
            status.update(f"[b $error]Wrong.[/b $error] {verdict.why}\n[dim]r: try again[/dim]")
        if self.counted:
            self._record(self.made, verdict.answer, status.content)

    @work(exclusive=True, group="puzzle-record")
    async def _record(self, made: Puzzle, answer: str, shown: object) -> None:
        """The attempt counted by the lobby; what it says goes under the verdict. The puzzle's
        date goes with it: past the server's midnight the lobby refuses it rather than judge
        the answer against the new day's puzzle."""
        lobby = self.app.lobby
        assert lobby is not None
        game = made.game
        try:
            self.recorded = await lobby.request("puzzle_answer", game=game, answer=answer,
                                                date=made.date.isoformat())
            said = "; ".join(self.recorded["lines"][1:])
        except LobbyUnavailable as error:
            self.recorded = {"error": str(error)}
            said = f"not counted: {error}"
        if game == self.game:
            self.query_one("#puzzle-verdict", Static).update(f"{shown}\n[dim]lobby:[/dim] {said}")

    def _replay(self, verdict: Verdict) -> None:
        """The play so far, and a refuting reply, on the board."""
        board = self.query_one(".puzzle-board")
        assert self.made is not None
        moves = list(verdict.line) + ([verdict.refutation] if verdict.refutation and not verdict.correct else [])
        if isinstance(board, Connect4Board):
            board.set_position(Connect4.parse(self.made.position + "".join(moves)))
            board.moved(*range(7))
        elif isinstance(board, TicTacToeBoard):
            cells = TicTacToe.parse(self.made.position, 3, misere=True)
            for move in moves:
                cells.push(cells.parse_move(move))
            board.set_position(cells)
        elif isinstance(board, CheckersBoard):
            squares = CheckersPosition.parse(self.made.position)
            for move in moves:
                squares.push_text(move)
            board.set_position(squares)
            board.set_marks(last=set(squares.history[-1].path) if squares.history else set())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "judge":
            return self.game == "sudoku"
        if action == "choose":
            return self.game != "sudoku"
        return True

    def action_judge(self) -> None:
        """Sudoku: the full grid judged (sent to the lobby as an attempt), unless it repeats a
        digit: that is surely wrong, and the marked cells say what to correct."""
        if self.entered is None or self.verdict is not None:
            return
        status = self.query_one("#puzzle-verdict", Static)
        if not self.entered.is_complete():
            left = self.entered.values.count(0)
            status.update(f"{left} cell{'s' if left > 1 else ''} to fill before enter judges the grid")
        elif self.entered.conflicts():
            status.update(self._full_note())
        else:
            self.answer(self.entered.format())

    def _full_note(self) -> str:
        """What a full grid waits for (nothing for a grid still being filled)."""
        assert self.entered is not None
        if not self.entered.is_complete():
            return ""
        if self.entered.conflicts():
            return "The grid is full, but the marked cells repeat a digit: correct them, then enter."
        sent = ": one of today's attempts in the lobby" if self.counted else ""
        return f"The grid is full: enter to judge it{sent}, or correct a cell first."

    def action_again(self) -> None:
        if self.made is not None:
            self.load(self.game)

    def action_choose(self) -> None:
        for board in self.query(CheckersBoard):
            board.choose()

    def action_next_game(self) -> None:
        self.load(GAMES[(GAMES.index(self.game) + 1) % len(GAMES)])

    @on(Connect4Board.ColumnChosen)
    def _column(self, event: Connect4Board.ColumnChosen) -> None:
        self.answer(str(event.column + 1))

    @on(GridBoard.CellChosen)
    def _cell(self, event: GridBoard.CellChosen) -> None:
        board = event.board
        if isinstance(board, TicTacToeBoard):
            self.answer(board.position.move_name(event.cell))

    @on(CheckersBoard.SquareChosen)
    def _square(self, event: CheckersBoard.SquareChosen) -> None:
        board = self.query_one(".puzzle-board", CheckersBoard)
        if event.square is None or self.verdict is not None:
            return
        pos = board.position
        picked = self.picked + [event.square]
        if not pos.matching_moves(picked):
            picked = [event.square] if pos.moves_from(event.square) else []
        self.picked = picked
        move = pos.find_move(picked) if len(picked) > 1 else None
        if move is not None:
            self.picked = []
            self.answer(str(move))
            return
        board.set_marks(picked=picked, targets=pos.next_squares(picked) if picked else set())

    def on_key(self, event) -> None:
        if self.game != "sudoku" or self.entered is None or self.verdict is not None:
            return
        key = event.key
        digit = int(key) if len(key) == 1 and key.isdigit() else None
        if key == "backspace":
            digit = 0
        if digit is None:
            return
        board = self.query_one(SudokuBoard)
        cell = board.cursor
        if self.entered.givens[cell]:
            return
        event.stop()
        event.prevent_default()
        self.entered.values[cell] = digit
        board.set_highlights(conflicts=self.entered.conflicts())
        board.refresh_cells([cell])
        self.query_one("#puzzle-verdict", Static).update(self._full_note())
