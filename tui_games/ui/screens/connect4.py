"""The Connect-4 screen: drop discs with the column cursor, digits or the mouse; the hint
shows what every column is worth, in moves."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from textual import on

from tui_games.bots import BOT_FILE, bot_choices, game_player, is_bot_spec, storable
from tui_games.data.connect4_book import default_book, installed_book
from tui_games.engine.budget import Budget
from tui_games.engine.connect4.players import COMPILED_SOLVER_CPU, PerfectPlayer, make_player, opponents_for
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.connect4.solver import Solver, to_search_score
from tui_games.engine.mcts_spec import mcts_choices, spec_family
from tui_games.engine.players import Decision
from tui_games.engine.search import EXACT, RootMove, SearchStats
from tui_games.engine.tree import TreeRecorder
from tui_games.ui.screens.bot_file import ask_bot_file
from tui_games.ui.screens.choices import Choice, ChoicesDialog
from tui_games.ui.screens.game_screen import GameScreen
from tui_games.ui.text import bound_text
from tui_games.ui.widgets.c4_board import DISCS, Connect4Board

HEURISTICS = [("default (threats and parity)", "default"), ("simple (4/3/2 points)", "simple"),
              ("aware (playable threes)", "aware")]
HINT_SECONDS = 10.0
# A missing or damaged opening book is reported once a process, on the first Connect-4 screen.
_book_problem_shown = False


@dataclass
class Connect4Options:
    opponent: str = "perfect"  # a player spec, or "human"
    first: str = "human"  # "human" or "computer"
    full_board: bool = False  # play on to a full board; more fours wins
    heuristic: str = "default"

    @classmethod
    def from_settings(cls, values: dict) -> "Connect4Options":
        known = {k: v for k, v in values.items() if k in cls.__dataclass_fields__}
        options = cls(**known)
        allowed = {spec for spec, _ in opponents_for(Connect4(full_board=bool(options.full_board)))} | {"human"}
        if spec_family(options.opponent) not in allowed and not is_bot_spec(options.opponent):
            options.opponent = "perfect"
        if options.heuristic not in {h for _, h in HEURISTICS}:
            options.heuristic = "default"
        if options.first not in ("human", "computer"):
            options.first = "human"
        return options

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def column_words(score: int | None, moves_played: int) -> str:
    """A column's exact score in the player's terms, counted in the mover's own moves.

    The score convention: a win with one's k-th disc scores 22 - k, a loss to the
    opponent's k-th disc -(22 - k). The mover has n // 2 discs down, the opponent
    (n + 1) // 2; the game ends on the mover's own M-th move for a win, and after the
    mover's M-th move (the opponent's M-th reply) for a loss.
    """
    if score is None:
        return "not solved"
    if score == 0:
        return "draw"
    if score > 0:
        moves = (22 - score) - moves_played // 2
        return f"wins in {moves}"
    moves = (22 + score) - (moves_played + 1) // 2
    return f"loses in {moves}"


def column_scores(position: Connect4, solver: Solver, stop: threading.Event, deadline: Budget) -> list[int | None]:
    """The exact score of each column for the side to move, as many as the budget allows
    (None for a full column or one not solved in time). Columns go centre first and share
    one solver (with the opening book: up to 12 discs every column is instant), so each
    warms the table for the next."""
    scores: list[int | None] = [None] * 7
    for col in (3, 2, 4, 1, 5, 0, 6):
        if stop.is_set() or deadline.passed() or not position.can_play(col):
            continue
        if position.is_winning_move(col):
            scores[col] = (43 - position.moves) // 2
            continue
        child = position.copy()
        child.push(col)
        result = solver.solve(child, stop=stop, deadline=deadline)
        if result.complete and result.score is not None:
            scores[col] = -result.score
    return scores


def exact_root_moves(stats: SearchStats, scores: list[int | None], moves_played: int) -> None:
    """Put the hint's exact column scores in the statistics, where the player's own search
    had only proven that the other columns are worse (an upper bound)."""
    solved = {c: RootMove(c, to_search_score(score, moves_played), EXACT)
              for c, score in enumerate(scores) if score is not None}
    merged = [solved.get(rm.move, rm) for rm in stats.root_moves]
    merged.sort(key=lambda rm: (rm.bound != EXACT, -rm.score))
    stats.root_moves = merged


class Connect4Screen(GameScreen):
    TITLE = "Connect-4"
    DEFAULT_CLASSES = "flush-board"
    GAME = "connect4"
    OPTIONS = Connect4Options

    def __init__(self, options: Connect4Options | None = None) -> None:
        settings = self.app.store.load_settings()
        self.seconds = float(settings.get("connect4", {}).get("seconds", 5.0))
        self.discs = settings["ui"].get("discs", "shapes")
        # The hint's perfect player, kept while its options hold: its solver's table stays warm.
        self._advisor: tuple[tuple, PerfectPlayer] | None = None
        super().__init__(options or Connect4Options.from_settings(settings.get("connect4", {})))

    def on_mount(self) -> None:
        # (Textual runs GameScreen.on_mount too: handlers of every class in the MRO are called.)
        global _book_problem_shown
        problem = default_book()[1]
        if problem is not None and not _book_problem_shown:
            _book_problem_shown = True
            self.notify(f"{problem}; the solver works without it (slower early in a game).",
                        severity="warning", timeout=8)

    @property
    def board(self) -> Connect4Board:
        return self.query_one(Connect4Board)

    def board_for(self, position):
        """Step mode's board: the same widget, showing ``position``."""
        return Connect4Board(position, discs=self.discs, id="step-board")

    def make_board(self) -> Connect4Board:
        return Connect4Board(self.position, discs=self.discs, id="board")

    def new_position(self) -> Connect4:
        return Connect4(full_board=self.options.full_board)

    def make_opponent(self):
        if self.options.opponent == "human":
            return None
        if is_bot_spec(self.options.opponent):
            try:
                return game_player("connect4", self.options.opponent, {"full_board": self.options.full_board})
            except ValueError as error:
                self.notify(f"{error}; perfect plays instead", severity="error")
                self.options.opponent = "perfect"
        return make_player(self.options.opponent, seconds=self.seconds, heuristic=self.options.heuristic,
                           full_board=self.options.full_board, book=installed_book())

    @property
    def human_player(self) -> int | None:
        if self.opponent is None:
            return None
        return 0 if self.options.first == "human" else 1

    def first_player(self) -> int:
        return 0  # the first player's discs are always the first colour

    def side_name(self, player: int) -> str:
        return DISCS.get(self.discs, DISCS["shapes"])[player]

    def title_text(self) -> str:
        variant = " · full board" if self.options.full_board else ""
        human = self.human_player
        if self.opponent is None or human is None:
            who = "two players"
        else:
            who = f"you {self.side_name(human)} vs {self.opponent.name}"
        return f"[b]{who}[/b]{variant}"

    def outcome_text(self, outcome) -> str:
        pos = self.position
        if self.options.full_board:
            counts = f" ({pos.count_fours(0)} fours to {pos.count_fours(1)})"
        else:
            counts = ""
        if outcome.winner is None:
            return f"Draw.{counts}"
        return f"{self.side_name(outcome.winner)} wins{counts}."

    def reset_board(self) -> None:
        self.board.set_position(self.position)

    def board_moved(self, *columns: int) -> None:
        self.board.moved(*columns)

    @on(Connect4Board.ColumnChosen)
    def column_chosen(self, event: Connect4Board.ColumnChosen) -> None:
        if not self.position.can_play(event.column) and self.position.outcome() is None:
            self.notify(f"Column {event.column + 1} is full.", timeout=2)
            return
        self.human_move(event.column)

    # -- the hint: every column's value --------------------------------------------------------

    def hint_job(self, position: Connect4, recorder: TreeRecorder):
        seconds = min(self.seconds, HINT_SECONDS)
        full_board = self.options.full_board
        heuristic = self.options.heuristic

        # Beside a perfect opponent the hint uses its solver: one 32 MB table, warm for both
        # (the two never search at once, and the solver stays correct if a cancelled search
        # is still unwinding when the next starts).
        shared = self.opponent.solver if isinstance(self.opponent, PerfectPlayer) and not full_board else None
        options = (seconds, full_board, heuristic, id(shared))
        if self._advisor is None or self._advisor[0] != options:
            self._advisor = (options, PerfectPlayer(seconds=seconds, heuristic=heuristic, full_board=full_board,
                                                    book=installed_book(), solver=shared))
        advisor = self._advisor[1]

        def job(stop: threading.Event, progress: Callable[[SearchStats], None]) -> tuple:
            budget = Budget(seconds)  # made here: it counts this worker thread's CPU time
            decision = advisor.choose(position, stop=stop, on_progress=progress, recorder=recorder)
            if full_board:
                return decision, recorder, position, None
            # The compiled solver is given what it may need (see COMPILED_SOLVER_CPU); the
            # Python one the rest of the hint's budget, and at least a second.
            columns = (Budget(COMPILED_SOLVER_CPU) if advisor.solver.compiled
                       else Budget(max(budget.cpu_left(), 1.0)))
            scores = column_scores(position, advisor.solver, stop, columns)
            if decision.result is not None:
                exact_root_moves(decision.result.stats, scores, position.moves)
            return decision, recorder, position, scores

        return job

    def show_hint(self, decision: Decision, position: Connect4, scores) -> None:
        """The best column under the cursor, and every column's value in the status area."""
        self.board.column = decision.move
        self.board.refresh_header()
        self.board.cursor = self.board._cursor_cell()
        if scores is None:  # the full-board game has no solver: show the search's estimates
            result = decision.result
            by_move = {rm.move: rm for rm in (result.root_moves if result else [])}
            words = {c: bound_text(rm.score, rm.bound) for c, rm in by_move.items()}
        elif all(score is None for score in scores):
            self.status_note = (f"no column solved in {min(self.seconds, HINT_SECONDS):g} s; "
                                f"best guess ★{self.move_name(decision.move)}: {decision.note}")
            return
        else:
            words = {c: column_words(scores[c], position.moves) for c in range(7) if position.can_play(c)}
        # Four rows of two, to fit under the board at 80×24; ★ marks the hinted column. The
        # exact values count the player's own moves (the panel counts plies), and say so.
        parts = [f"{'★' if c == decision.move else ' '}{c + 1} {words.get(c, 'full')}" for c in range(7)]
        if scores is not None:
            parts.append("(in your moves)")
        self.status_note = "\n".join("  ".join(f"{p:<16}" for p in parts[i:i + 2]).rstrip() for i in range(0, 8, 2))

    def action_options(self) -> None:
        o = self.options
        probe = Connect4(full_board=o.full_board)
        opponents = [("another person (same keyboard)", "human")] + [(label, spec) for spec, label in
                                                                      opponents_for(probe)] + mcts_choices(o.opponent) + bot_choices(o.opponent)
        dialog = ChoicesDialog("New Connect-4 game", [
            Choice("opponent", "Opponent", opponents, o.opponent),
            Choice("first", "Who starts", [("you", "human"), ("the computer", "computer")], o.first),
            Choice("full_board", "Variant", [("four in a row wins", False),
                                             ("full board: most fours wins", True)], o.full_board),
            Choice("heuristic", "Heuristic", HEURISTICS, o.heuristic),
        ])

        def chosen(values: dict | None) -> None:
            if values is None:
                return
            if values["opponent"] == BOT_FILE:
                ask_bot_file(self, "connect4", o.opponent, lambda spec: chosen({**values, "opponent": spec}))
                return
            self.options = Connect4Options.from_settings(values)
            self.app.store.update_settings("connect4", **storable(self.options.as_dict()))
            self._cancel_search()
            self._start_game()

        self.app.push_screen(dialog, chosen)
