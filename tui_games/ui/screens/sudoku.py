"""The Sudoku screen: keyboard-first entry with pencil marks, human-style hints, the SAT
solver's answer with its encoding sizes, a timer and best times per grade.

Puzzles are made or loaded in the engine worker (generation takes up to seconds); every
edit is saved at once, and the game in progress comes back on the next start.

The hint runs in the engine worker too: a forcing net can take a while, and the screen stays
live meanwhile. Asking again, any edit, a new puzzle or leaving stops the search (the stepper
checks the runner's stop event and raises ``Cancelled``). The panel shows the step with its
rating, the chain folded to fit (``v`` opens it whole, :mod:`.sudoku_hint`), and the board
draws the chain's links.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any, cast

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Horizontal, Vertical
from textual.widgets import Header, Static

from tui_games.data.resources import read_puzzles as read_collection
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.formats import SudokuFormatError, parse_grid, read_puzzles
from tui_games.engine.sudoku.game import SudokuGame
from tui_games.engine.sudoku.generator import GenerationError, generate
from tui_games.engine.sudoku.grading import grade as grade_puzzle
from tui_games.engine.sudoku.grid import Grid, digit_char, mask_digits
from tui_games.engine.sudoku.seeds import seed_puzzles
from tui_games.engine.sudoku.stepper import next_step
from tui_games.engine.sudoku.techniques import Cancelled, Step
from tui_games.engine.sudoku.variant_generator import generate_jigsaw, generate_killer
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.saving import SavingScreen
from tui_games.ui.screens.sudoku_compare import comparison, run_solvers
from tui_games.ui.screens.sudoku_hint import ChainView, hint_text, hint_title
from tui_games.ui.screens.sudoku_new import LINE_VARIANTS, NewPuzzle, NewSudokuDialog, line_variant
from tui_games.ui.text import seconds_text
from tui_games.ui.widgets.engine_runner import EngineRunner
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.phrase_status import PhraseStatus
from tui_games.ui.widgets.session_notice import SessionNotice
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.sudoku_board import (
    LARGE_MIN_HEIGHT,
    LARGE_MIN_WIDTH,
    SudokuBoard,
)
from tui_games.userdata import player_files

GAME = "sudoku"
# The hint panel's text width at 80 columns (the side column, less its border and padding).
HINT_WIDTH = 32
# Shift+digit arrives as the shifted character on most terminals (US layout), as shift+N
# where the terminal reports modifiers.
SHIFTED_DIGITS = ["exclamation_mark", "at", "number_sign", "dollar_sign", "percent_sign",
                  "circumflex_accent", "ampersand", "asterisk", "left_parenthesis"]


def cage_need(grid: Grid, cell: int) -> str:
    """`` (cage 17: 9 in 2)`` -- what the cursor cell's Killer cage still needs (its sum less
    the digits placed, in the cells left); "" outside a Killer."""
    variant = grid.variant
    if variant is None or not variant.cages or variant.cage_of[cell] < 0:
        return ""
    cage = variant.cages[variant.cage_of[cell]]
    left = [c for c in cage.cells if not grid.values[c]]
    need = cage.total - sum(grid.values[c] for c in cage.cells)
    if not left:
        return f" (cage {cage.total}: full)"
    if need < len(left):  # the digits placed leave too little: a mistake shows as such
        return f" (cage {cage.total}: {cage.total - need} placed, too much)"
    return f" (cage {cage.total}: {need} in {len(left)})"


def minutes_text(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def load_puzzle(choice: NewPuzzle, rng: random.Random,
                stop: threading.Event | None = None) -> tuple[Grid, list[int], str, str]:
    """(puzzle, solution, grade, source label) for the player's choice. Runs in the worker.

    Raises ValueError with a one-line message for a bad file, line or puzzle.
    """
    if choice.source == "generate" and choice.variant in LINE_VARIANTS:
        make = generate_killer if choice.variant == "killer" else generate_jigsaw
        made = make(choice.grade, rng, stop=stop)
        return made.puzzle, made.solution, made.grade.level or choice.grade, "generated"
    if choice.source == "generate":
        made = generate(choice.grade, rng, size=choice.size, diagonal=choice.diagonal, stop=stop,
                        seeds=seed_puzzles(choice.grade, read_collection))
        return made.puzzle, made.solution, made.grade.level or choice.grade, "generated"
    if choice.source == "paste":
        variant = line_variant(choice.text, choice.variant)
        if variant is None:
            puzzle = parse_grid(choice.text, "pasted puzzle")
        else:
            entries = read_puzzles(choice.text, "pasted puzzle", variant=variant)
            if not entries or entries[0].error is not None:
                raise (entries[0].error if entries else None) or SudokuFormatError("no puzzle in the text",
                                                                                   source="pasted puzzle")
            puzzle = cast(Grid, entries[0].grid)  # (an entry without an error has a grid)
        label = "pasted"
    elif choice.source == "file":
        try:
            text = player_files.read_text(choice.text)
        except player_files.FileRefused as refused:
            raise ValueError(str(refused)) from None
        shown = player_files.label(choice.text)
        entries = read_puzzles(text, shown, variant=line_variant(text, choice.variant))
        good = [e for e in entries if e.grid is not None]
        if not good:
            raise (entries[0].error if entries else None) or SudokuFormatError("no puzzle in the file", source=shown)
        puzzle = cast(Grid, good[0].grid)  # (an entry without an error has a grid)
        label = f"{Path(shown).name} #{good[0].number}"
    else:
        text = read_collection(choice.source)
        entries = [e for e in read_puzzles(text, choice.source, variant=line_variant(text, "")) if e.grid is not None]
        if not entries:
            raise ValueError(f"the collection {choice.source} has no puzzles")
        entry = rng.choice(entries)
        puzzle = cast(Grid, entry.grid)
        label = f"{choice.source.removeprefix('sudoku_').removesuffix('.txt').replace('_', ' ')} #{entry.number}"
    result = sat.solve(puzzle)
    if result.status is sat.Status.NONE:
        raise ValueError(f"{label}: the puzzle has no solution")
    if result.status is sat.Status.SEVERAL:
        raise ValueError(f"{label}: the puzzle has several solutions")
    graded = grade_puzzle(puzzle, stop=stop)
    return puzzle, list(result.solution or []), graded.level or "unrated", label


class SudokuScreen(SavingScreen):
    TITLE = "Sudoku"
    DEFAULT_CLASSES = "flush-board wide-board"

    GAME = GAME

    BINDINGS = [
        *[Binding(str(d), f"digit({d})", show=False) for d in range(1, 10)],
        *[Binding(f"{key},shift+{d}", f"mark({d})", show=False) for d, key in enumerate(SHIFTED_DIGITS, 1)],
        Binding("0,backspace,delete,x", "erase", "Clear", show=False),
        Binding("p,enter", "pencil", "Pencil"),
        Binding("m", "fill_marks", "Marks"),
        Binding("u", "undo", "Undo"),
        # In the footer only while there is something to redo (check_action), so that at 80
        # columns it fits beside a chain hint's v.
        Binding("ctrl+r", "redo", "Redo"),
        Binding("i", "hint", "Hint"),
        Binding("v", "chain", "Chain"),
        Binding("c", "check", "Check"),
        # Giving up is in the help, not the footer: at 80 columns the footer needs its room for
        # Redo and a chain hint's v together.
        Binding("S", "solve", "Solve", show=False),
        # Both solvers on the puzzle, in the side panel (in the help, not the footer: no room).
        Binding("C", "compare", "Compare", show=False),
        Binding("n", "new_game", "New"),
        Binding("space", "pause", "Pause"),
        Binding("s", "toggle_stats", "Stats", show=False),
        Binding("question_mark", "app.help", "Help"),
        Binding("escape", "back", "Back", show=False),
    ]

    @classmethod
    def for_game(cls, settings: dict, options: dict) -> SudokuScreen:
        # Options name a puzzle to start at once; none: resume, or what the settings choose.
        return cls(NewPuzzle(**options) if options else None, fresh=bool(options))

    def __init__(self, choice: NewPuzzle | None = None, *, fresh: bool = False) -> None:
        """``choice``: what "new game" makes; ``fresh`` starts it even if a game was saved."""
        super().__init__()
        self.fresh = fresh
        settings = self.app.store.load_settings()[GAME]
        self.choice = choice or NewPuzzle(source=settings["source"], grade=settings["grade"])
        self.count_mistakes = bool(settings["count_mistakes"])
        self.game: SudokuGame | None = None
        self.pencil = False
        self.pending_hint: Step | None = None
        self.paused = False
        self.running_since: float | None = None
        self.runner = EngineRunner()
        self.rng = random.Random()

    # -- layout ----------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield SessionNotice()
        with Horizontal(id="game-body"):
            with Vertical(id="board-column"):
                yield Static(id="game-title", classes="game-title")
                with Center(classes="board-box"):
                    yield SudokuBoard(Grid(), id="board")
                yield Static("", id="paused")
                yield PhraseStatus(id="status", classes="status")
            with Vertical(id="side-column"):
                yield StatsPanel(id="stats")
        yield self.runner
        yield KeysFooter(compact=True)

    @property
    def board(self) -> SudokuBoard:
        return self.query_one(SudokuBoard)

    @property
    def panel(self) -> StatsPanel:
        return self.query_one(StatsPanel)

    def on_mount(self) -> None:
        ui = self.app.store.load_settings()["ui"]
        self.panel.display = bool(ui.get("show_stats", True))
        self.query_one("#paused").display = False
        self._fit_board()
        self.board.focus()
        # The clock's display moves once a minute; every key updates it too (no idle redraws).
        self.set_interval(60, self._show_title)
        if self.fresh or not self._resume():
            self._start(self.choice)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_board()

    def _fit_status(self) -> None:
        # A Killer's or Jigsaw's board is outlined cell by cell, 19 lines at 80×24: its status
        # comes right under it, or its second line would fall under the footer.
        outlined = self.game is not None and self.game.grid.variant is not None
        self.query_one("#status").styles.margin = (0 if outlined else 1, 0, 0, 0)

    def _fit_board(self) -> None:
        size = self.app.size
        self.board.set_large(size.width >= LARGE_MIN_WIDTH and size.height >= LARGE_MIN_HEIGHT)

    # -- the clock -------------------------------------------------------------------------------

    def _clock_running(self) -> bool:
        return self.running_since is not None

    def _start_clock(self) -> None:
        if self.game is not None and not self.paused and not self.game.is_solved() and self.running_since is None:
            self.running_since = time.monotonic()

    def _stop_clock(self) -> None:
        if self.running_since is not None and self.game is not None:
            self.game.elapsed += time.monotonic() - self.running_since
        self.running_since = None

    def elapsed(self) -> float:
        if self.game is None:
            return 0.0
        extra = time.monotonic() - self.running_since if self.running_since is not None else 0.0
        return self.game.elapsed + extra

    def on_screen_suspend(self) -> None:
        self._stop_clock()
        self.save_progress()

    def on_screen_resume(self) -> None:
        self._start_clock()

    def on_app_blur(self) -> None:
        self._stop_clock()

    def on_app_focus(self) -> None:
        self._start_clock()

    # -- starting, saving, resuming ----------------------------------------------------------------

    def _start(self, choice: NewPuzzle) -> None:
        self.choice = choice
        what = f"a {choice.grade} puzzle" if choice.source == "generate" else "the puzzle"
        self._status(f"Preparing {what}…")
        rng = random.Random(self.rng.getrandbits(64))

        def job(stop: threading.Event, progress) -> Any:
            try:
                return load_puzzle(choice, rng, stop)
            except (ValueError, GenerationError) as error:
                return str(error)

        self.runner.start("load", job)

    def _begin(self, puzzle: Grid, solution: list[int], grade: str, source: str) -> None:
        self._stop_clock()
        self.game = SudokuGame(puzzle, solution, grade=grade, source=source)
        self._set_hint(None)
        self.board.set_grid(self.game.grid, self.game.marks)
        self._fit_status()
        self.board.cursor = next((c for c, v in enumerate(self.game.grid.values) if not v), 0)
        self.panel.show_text("Puzzle", self._puzzle_info())
        self._refresh_all()
        self._start_clock()
        self.save_progress()

    def _resume(self) -> bool:
        saved = self.saved_progress()
        if not saved:
            return False
        try:
            game = SudokuGame.from_dict(saved)
        except (KeyError, TypeError, ValueError):
            self.discard_progress()
            return False
        self.game = game
        self.board.set_grid(game.grid, game.marks)
        self._fit_status()
        self.panel.show_text("Puzzle", self._puzzle_info())
        self._refresh_all()
        self._start_clock()
        self.notify("Resumed your puzzle in progress; n starts a new one.", timeout=4)
        return True

    def has_progress(self) -> bool:
        return self.game is not None

    def reload_progress(self) -> None:
        saved = self.saved_progress()
        if saved is None:
            if self.game is not None:
                self.save_progress()
            return  # still preparing a puzzle: it is saved when it starts
        self.runner.cancel()
        self._stop_clock()
        self.paused = False
        self.query_one("#paused").display = False
        self.board.display = True
        self._set_hint(None)
        if not self._resume():  # unusable: set aside by _resume; keep what is on the board
            if self.game is None:
                self._start(self.choice)
            else:
                self.save_progress()
                self._start_clock()

    def progress_state(self) -> dict | None:
        game = self.game
        if game is None or game.is_solved():
            return None
        state = game.to_dict()
        state["elapsed"] = round(self.elapsed(), 1)
        return state

    # -- drawing ---------------------------------------------------------------------------------

    def _puzzle_info(self) -> Text:
        game = self.game
        assert game is not None
        givens = sum(game.grid.givens)
        size = f"{game.size}×{game.size}" + (" diagonal" if game.grid.diagonal else "")
        variant = game.grid.variant
        if variant is not None:
            size += f" {variant.kind}" + (f", {len(variant.cages)} cages" if variant.cages else "")
        return Text.assemble(("grade ", "dim"), (game.grade or "unrated", "bold"), ("\nfrom ", "dim"), game.source,
                             ("\n", ""), (f"{size}, {givens} givens", "dim"),
                             ("\n\ni hint · c check · S solve · m all marks\nC compares the solvers", "dim italic"))

    def _show_title(self) -> None:
        game = self.game
        if game is None:
            return
        parts = [f"[b]{game.grade or 'unrated'}[/b]", game.source, minutes_text(self.elapsed())]
        if self.count_mistakes:
            parts.append(f"mistakes {game.mistakes}")
        if self.paused:
            parts.append("paused")
        self.query_one("#game-title", Static).update(" · ".join(parts))

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _refresh_all(self) -> None:
        """Highlights, title and status from the game (after a load, undo or any edit)."""
        game = self.game
        if game is None:
            return
        self.board.set_highlights(conflicts=game.conflicts(), wrong=set(), hint_cells=set(), targets=set())
        self.board.refresh()
        self._show_title()
        self._show_status()
        self.refresh_bindings()  # Redo comes and goes with the history

    def _show_status(self, note: str = "") -> None:
        game = self.game
        if game is None:
            return
        if game.is_solved():
            if game.revealed:
                self._status("[b]Solved by the solver.[/b] n: new puzzle")
            else:
                self._status(f"[b]Solved in {minutes_text(game.elapsed)}![/b] n: new puzzle")
            return
        cell = self.board.cursor
        mode = "[reverse] pencil [/reverse]" if self.pencil else "digits"
        where = game.grid.cell_name(cell)
        if game.grid.values[cell]:
            about = "given" if game.is_given(cell) else "your digit"
        else:
            marks = mask_digits(game.marks[cell])
            about = "marks " + " ".join(digit_char(d) for d in marks) if marks else "empty"
        line = f"{where}{cage_need(game.grid, cell)}: {about} · mode {mode}"
        self._status(line + (f"\n{note}" if note else ""))

    @on(SudokuBoard.CursorMoved)
    def _cursor_moved(self) -> None:
        self._show_status()

    # -- editing ---------------------------------------------------------------------------------

    def _editable(self) -> SudokuGame | None:
        """The game, if the player may change it now (None: no game yet, one loading, or paused)."""
        if self.game is None or self.runner.tag == "load":
            return None
        if self.paused:
            self.notify("Paused: space resumes.", timeout=2)
            return None
        return self.game

    def _after_edit(self, action, note: str = "", applied: Step | None = None) -> None:
        game = self.game
        assert game is not None
        if action is None:
            self.app.bell()
            return
        self._drop_hint(applied)
        self.board.set_highlights(conflicts=game.conflicts(), wrong=set())
        # The digit under the cursor may have changed, and the same-digit highlight with it.
        cursor = self.board.cursor
        before = {v0 for cell, v0, *_ in action.changes if cell == cursor and v0}
        self.board.refresh_cells(set(action.cells) | self.board.same_digit_cells(cursor)
                                 | {c for c, v in enumerate(game.grid.values) if v in before})
        if game.is_solved():
            self._finished()
        else:
            self._start_clock()
        self.save_progress()
        self._show_title()
        self._show_status(note)

    def _finished(self) -> None:
        game = self.game
        assert game is not None
        self._stop_clock()
        self.discard_progress()
        if game.revealed:
            return
        assisted = game.hints > 0
        record, best = self.app.store.record_time(GAME, game.grade or "unrated", game.elapsed, assisted=assisted)
        text = f"Solved in {minutes_text(game.elapsed)}"
        if assisted:
            text += f" with {game.hints} hint{'s' * (game.hints > 1)}: counted, not a best time"
        elif best and record["solved"] > 1:
            text += " — a new best for this grade!"
        self.notify(text, timeout=6)

    def action_digit(self, digit: int) -> None:
        game = self._editable()
        if game is None:
            return
        if digit > game.size:
            self.app.bell()
            return
        cell = self.board.cursor
        if game.is_given(cell):
            self.notify(f"{game.grid.cell_name(cell)} is a given.", timeout=2)
            return
        if self.pencil:
            self._after_edit(game.toggle_mark(cell, digit))
            return
        if game.grid.values[cell] == digit:
            return
        self._after_edit(game.place(cell, digit))

    def action_mark(self, digit: int) -> None:
        game = self._editable()
        if game is None:
            return
        cell = self.board.cursor
        if digit > game.size or game.grid.values[cell]:
            self.app.bell()
            return
        self._after_edit(game.toggle_mark(cell, digit))

    def action_erase(self) -> None:
        game = self._editable()
        if game is None:
            return
        cell = self.board.cursor
        if game.is_given(cell):
            self.notify(f"{game.grid.cell_name(cell)} is a given.", timeout=2)
            return
        self._after_edit(game.clear(cell))

    def action_pencil(self) -> None:
        self.pencil = not self.pencil
        self._show_status()

    def action_fill_marks(self) -> None:
        game = self._editable()
        if game is not None:
            self._after_edit(game.fill_marks(), "Pencilled in every candidate.")

    def action_undo(self) -> None:
        game = self._editable()
        if game is None:
            return
        action = game.undo()
        if action is None:
            self._show_status("Nothing to undo.")
            return
        self._drop_hint()
        self._refresh_all()
        self._show_status(f"Undid: {action.label}.")
        self.save_progress()

    def action_redo(self) -> None:
        game = self._editable()
        if game is None:
            return
        action = game.redo()
        if action is None:
            self._show_status("Nothing to redo.")
            return
        self._drop_hint()
        self._refresh_all()
        if game.is_solved():
            self._finished()
        self._show_status(f"Redid: {action.label}.")
        self.save_progress()

    # -- hint, check, solve ----------------------------------------------------------------------

    @property
    def hint_running(self) -> bool:
        return self.runner.tag == "hint"

    def _set_hint(self, step: Step | None) -> None:
        """Show ``step`` on the board (its cells, its targets, its chain), or nothing."""
        self.pending_hint = step
        board = self.board
        if step is None:
            board.set_highlights(hint_cells=set(), targets=set())
            board.set_chain(())
        else:
            board.set_highlights(hint_cells=set(step.cells),
                                 targets={c for c, _ in step.placements} | {c for c, _ in step.eliminations})
            board.set_chain(step.links, step.eliminations)
        self.refresh_bindings()

    def _drop_hint(self, applied: Step | None = None) -> None:
        """The grid changed (by playing the hint ``applied``, or otherwise): a hint shown or
        being looked for no longer applies."""
        if self.hint_running:
            self.runner.cancel()
            self.panel.show_text("Hint", Text("Stopped looking: the grid changed. i asks again.", style="dim"))
        if self.pending_hint is not None:
            self._set_hint(None)
            if applied is not None and self.game is not None:
                self.panel.show_text("Hint", Text.assemble(
                    ("Played ", "dim"), (applied.technique, "bold"), (f": {applied.changes(self.game.size)}.", "dim"),
                    ("\ni shows the next step", "dim italic")))
            else:
                self.panel.show_text("Hint", Text("The grid changed: i shows the next step.", style="dim"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "chain":  # in the footer only while a hint with a chain is showing
            step = self.pending_hint
            return step is not None and bool(step.chain or step.links)
        if action == "redo":
            return self.game is not None and bool(self.game.redo_stack)
        return super().check_action(action, parameters)

    def _bad_notes(self) -> set[int]:
        """Empty cells whose pencil marks leave out the solution's digit."""
        game = self.game
        if game is None or game.solution is None:
            return set()
        return {c for c, (v, m) in enumerate(zip(game.grid.values, game.marks))
                if not v and m and not m >> (game.solution[c] - 1) & 1}

    def action_hint(self) -> None:
        game = self._editable()
        if game is None:
            return
        if self.pending_hint is not None:
            step = self.pending_hint
            self._after_edit(game.apply(step), f"Applied: {step.technique} — {step.changes(game.size)}.", step)
            return
        if game.is_solved():
            return
        wrong = game.wrong_cells()
        if wrong:
            self.board.set_highlights(wrong=wrong)
            cells = ", ".join(game.grid.cell_name(c) for c in sorted(wrong))
            self._show_status(f"Fix the wrong digit{'s' * (len(wrong) > 1)} first: {cells}.")
            return
        bad = self._bad_notes()
        if bad:
            self.board.set_highlights(wrong=bad)
            cells = ", ".join(game.grid.cell_name(c) for c in sorted(bad))
            self._show_status(f"Your marks in {cells} leave out the right digit.")
            return
        # A copy of the position for the worker: the player keeps editing the real one.
        # The setting is read now: it may have changed in Settings since the screen opened.
        uniqueness = bool(self.app.store.load_settings()[GAME]["uniqueness"])
        grid, candidates = game.grid.copy(), game.candidates()

        def job(stop: threading.Event, progress) -> Any:
            try:
                return next_step(grid, candidates, stop=stop, uniqueness=uniqueness)
            except Cancelled:
                return None  # stale: whoever stopped it has moved on

        again = self.hint_running
        self.runner.start("hint", job)  # a search still running for an older request stops
        self.panel.display = True
        self.panel.show_text("Hint", Text.assemble(
            ("thinking…", "bold"), ("\n\nkeep playing: a move, i again or n stops the search", "dim italic")))
        self._show_status("Hint: thinking… (asked again)" if again else "Hint: thinking…")

    def _show_hint(self, step: Step | None) -> None:
        game = self.game
        if game is None:
            return
        if step is None:
            self.panel.show_text("Hint", "No technique I know applies here: this puzzle needs trial "
                                         "and error from now on (S shows the solution).")
            self._show_status()
            return
        self._set_hint(step)
        self.panel.display = True
        self.panel.show_text(hint_title(step), hint_text(step, game.size, HINT_WIDTH))
        self._show_status(f"Hint: {step.technique}. i applies it.")

    def action_chain(self) -> None:
        step = self.pending_hint
        if step is None or self.game is None:
            return
        self.app.push_screen(ChainView(step, self.game.size))

    def action_check(self) -> None:
        game = self._editable()
        if game is None:
            return
        wrong = game.wrong_cells()
        self.board.set_highlights(wrong=wrong)
        filled = sum(1 for c, v in enumerate(game.grid.values) if v and not game.is_given(c))
        if wrong:
            cells = ", ".join(game.grid.cell_name(c) for c in sorted(wrong))
            self._show_status(f"{len(wrong)} wrong: {cells}.")
        else:
            self._show_status(f"All {filled} of your digits are right.")

    def action_solve(self) -> None:
        game = self._editable()
        if game is None or game.is_solved():
            return
        puzzle = game.grid.puzzle()
        self._status("Solving with the SAT solver…")

        def job(stop: threading.Event, progress) -> Any:
            return sat.solve(puzzle)

        self.runner.start("solve", job)

    def action_compare(self) -> None:
        game = self.game
        if game is None or self.runner.tag == "load":
            return
        puzzle = game.grid.puzzle()
        self._status("Comparing the SAT and SMT solvers…")

        def job(stop: threading.Event, progress) -> Any:
            return run_solvers(puzzle)

        self.runner.start("compare", job)

    def _show_solve(self, result: sat.SolveResult) -> None:
        stats = result.stats
        table = Table.grid(padding=(0, 1))
        table.add_column(style="dim", no_wrap=True)
        table.add_column(justify="right", no_wrap=True)
        table.add_row("variables", f"{stats.variables:,}")
        table.add_row("clauses", f"{stats.clauses:,}")
        table.add_row("literals", f"{stats.literals:,}")
        table.add_row("by propagation", f"{stats.propagated} cells")  # fits the 36-column panel
        table.add_row("time", seconds_text(result.seconds))
        table.add_row("solutions", {sat.Status.UNIQUE: "exactly one", sat.Status.SEVERAL: "several",
                                    sat.Status.NONE: "none"}.get(result.status, result.status.value))
        self.panel.display = True
        self.panel.show_text("SAT solver · pycosat", Group(
            Text("One variable per open cell and digit; each cell, row, column and box must "
                 "hold every digit once.", style="dim"), table))

    def on_engine_runner_finished(self, message: EngineRunner.Finished) -> None:
        if not self.runner.done(message):
            return
        if message.tag == "load":
            if isinstance(message.payload, str):
                self._load_failed(message.payload)
                return
            self._begin(*message.payload)
        elif message.tag == "hint":
            self._show_hint(message.payload)
        elif message.tag == "compare":
            self.panel.display = True
            self.panel.show_text("Compare · SAT and SMT", comparison(message.payload))
            self._show_status()
        elif message.tag == "solve":
            result: sat.SolveResult = message.payload
            self._show_solve(result)
            game = self.game
            if result.solution is None or game is None:
                return
            game.solution = game.solution or result.solution
            game.fill_solution()
            self._set_hint(None)
            self._refresh_all()
            if game.is_solved():
                self._finished()
            self.save_progress()

    def on_engine_runner_failed(self, message: EngineRunner.Failed) -> None:
        if self.runner.done(message):
            self.notify(f"Engine error: {message.error}", severity="error")

    def _load_failed(self, problem: str) -> None:
        self._status(f"[b]Could not start:[/b] {problem}")
        if self.game is None:
            # Nothing to go back to: offer the dialog again with the problem shown.
            self.app.push_screen(NewSudokuDialog(self.choice, problem), self._chosen)
        else:
            self.notify(problem, severity="error", timeout=6)

    # -- the rest --------------------------------------------------------------------------------

    def action_new_game(self) -> None:
        self.app.push_screen(NewSudokuDialog(self.choice), self._chosen)

    def in_progress(self) -> bool:
        """A puzzle the player has started on and not finished: a new one would drop it."""
        game = self.game
        return game is not None and not game.is_solved() and bool(game.undo_stack or game.redo_stack)

    def _chosen(self, choice: NewPuzzle | None) -> None:
        if choice is None:
            if self.game is None:
                # The dialog came up because the puzzle given could not start: nothing to
                # play here, so back to where the player came from, not an empty grid.
                self.action_back()
            return
        game = self.game
        if game is None or not self.in_progress():
            self._replace(choice)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._replace(choice)

        done = sum(1 for c, v in enumerate(game.grid.values) if v and not game.is_given(c))
        self.app.push_screen(ConfirmDialog(
            "New puzzle", f"Drop the puzzle in progress ({done} digits written, "
            f"{minutes_text(self.elapsed())})? It cannot be resumed afterwards.", yes="Drop it"), answered)

    def _replace(self, choice: NewPuzzle) -> None:
        self.paused = False
        self.query_one("#paused").display = False
        self.board.display = True
        if choice.source == "generate":
            self.app.store.update_settings(GAME, source="generate", grade=choice.grade)
        elif choice.source.startswith("sudoku_"):
            self.app.store.update_settings(GAME, source=choice.source)
        self._start(choice)

    def action_pause(self) -> None:
        if self.game is None or self.game.is_solved():
            return
        self.paused = not self.paused
        paused = self.query_one("#paused", Static)
        if self.paused:
            self._stop_clock()
            self.save_progress()
            paused.update(f"\n\n[b]Paused[/b] at {minutes_text(self.elapsed())}\n\nspace resumes")
        else:
            self._start_clock()
        self.board.display = not self.paused
        paused.display = self.paused
        self._show_title()

    def action_toggle_stats(self) -> None:
        panel = self.panel
        panel.display = not panel.display
        self.app.store.update_settings("ui", show_stats=bool(panel.display))

    def action_back(self) -> None:
        self.runner.cancel()
        self._stop_clock()
        self.save_progress()
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.runner.cancel()
        self._stop_clock()
        self.save_progress()
