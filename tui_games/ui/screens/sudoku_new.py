"""The "new Sudoku" dialog: a generated puzzle of a grade, one from a shipped collection,
a file, or a pasted line. It only gathers the choice; the screen loads the puzzle (in its
worker) and reports a bad file or line back here as one line of text."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from tui_games.data.resources import puzzle_names
from tui_games.engine.sudoku.levels import LEVELS, SEARCH
from tui_games.ui.widgets.ordered_input import OrderedInput
from tui_games.userdata import player_files

GRADES = [level for level in LEVELS if level != SEARCH]
VARIANTS = [("9×9", "9"), ("9×9 diagonal (X)", "9x"), ("6×6 (2×3 boxes)", "6"), ("4×4", "4"),
            ("Killer (cages with sums)", "killer"), ("Jigsaw (irregular regions)", "jigsaw")]
#: The grids read from a line of their own format (engine/sudoku/formats.py): a file or a
#: pasted line is read that way when one of these is chosen, or when the line looks like one.
LINE_VARIANTS = ("killer", "jigsaw")
PLACEHOLDERS = {"9": "81 characters, . or 0 for a blank",
                "killer": "81 cage labels, a space, the sums in order: AABB… 3,15,…",
                "jigsaw": "81 region digits 1-9, a space, the 81 givens"}
COLLECTION_PREFIX = "sudoku_"


def line_variant(text: str, chosen: str) -> str | None:
    """How to read a file or a pasted line: ``killer`` or ``jigsaw`` when chosen so or when its
    first line looks like one (two fields, the sums comma-separated, or 81 region digits and
    81 givens), None for the classic formats."""
    if chosen in LINE_VARIANTS:
        return chosen
    first = next((line.split() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")),
                 [])
    if len(first) != 2 or len(first[0]) != 81:
        return None
    if "," in first[1]:
        return "killer"
    if len(first[1]) == 81 and first[0].isdigit():
        return "jigsaw"
    return None


def collections() -> list[tuple[str, str]]:
    """(label, file name) of the shipped Sudoku collections."""
    out = []
    for name in puzzle_names():
        if name.startswith(COLLECTION_PREFIX) and name.endswith(".txt"):
            label = name.removeprefix(COLLECTION_PREFIX).removesuffix(".txt").replace("_", " ")
            out.append((f"collection: {label}", name))
    return out


@dataclass
class NewPuzzle:
    """What the player asked for: ``source`` is "generate", "file", "paste" or a collection."""

    source: str
    grade: str = "basic"
    variant: str = "9"
    text: str = ""  # the file path or the pasted line

    @property
    def size(self) -> int:
        return 9 if self.variant in LINE_VARIANTS else int(self.variant.rstrip("x"))

    @property
    def diagonal(self) -> bool:
        return self.variant.endswith("x")


class NewSudokuDialog(ModalScreen[NewPuzzle | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "start", "Start")]

    DEFAULT_CSS = """
    NewSudokuDialog { align: center middle; }
    NewSudokuDialog #new-dialog {
        width: 70; height: auto; max-height: 100%;
        border: round $accent; padding: 0 1; background: $surface;
    }
    NewSudokuDialog #new-grid { grid-size: 2; grid-columns: 12 1fr; grid-rows: auto; height: auto; grid-gutter: 0 1; }
    NewSudokuDialog #new-grid Label { height: 1; }
    NewSudokuDialog #new-text { margin-top: 1; }
    NewSudokuDialog #new-error { color: $text-error; height: auto; }
    NewSudokuDialog #new-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    NewSudokuDialog #new-buttons Button { margin-left: 1; }
    """

    def __init__(self, last: NewPuzzle, error: str = "") -> None:
        super().__init__()
        self.last = last
        self.error = error

    def compose(self) -> ComposeResult:
        sources = [("generate a new puzzle", "generate"), *collections(),
                   ("a file (81-character lines, .sdk, Project Euler)", "file"),
                   ("paste a puzzle line", "paste")]
        known = {value for _, value in sources}
        with Vertical(id="new-dialog") as dialog:
            dialog.border_title = "New Sudoku"
            with Grid(id="new-grid"):
                yield Label("Puzzle")
                yield Select(sources, value=self.last.source if self.last.source in known else "generate",
                             allow_blank=False, compact=True, id="source")
                yield Label("Grade")
                yield Select([(g, g) for g in GRADES], value=self.last.grade if self.last.grade in GRADES else "basic",
                             allow_blank=False, compact=True, id="grade")
                yield Label("Grid")
                yield Select(VARIANTS, value=self.last.variant if self.last.variant in {value for _, value in VARIANTS}
                             else "9", allow_blank=False, compact=True, id="variant")
            yield OrderedInput(self.last.text, placeholder="", id="new-text", compact=True)
            yield Static(self.error, id="new-error")
            with Horizontal(id="new-buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Start", id="start", variant="primary", compact=True)

    def on_mount(self) -> None:
        self._update_fields()
        self.query_one("#source", Select).focus()

    @on(Select.Changed, "#source")
    def _source_changed(self) -> None:
        self._update_fields()
        if self.query_one("#new-text", Input).display:
            # A file or a pasted line: the next thing to do is to type it.
            self.query_one("#new-text", Input).focus()
        elif self.focused is None or not self.focused.display:
            # The field that had focus is hidden now: focus stays in the dialog, where the
            # choice was made, not nowhere (keys would then go to no field at all).
            self.query_one("#source", Select).focus()

    def _update_fields(self) -> None:
        source = self.query_one("#source", Select).value
        text = self.query_one("#new-text", Input)
        text.display = source in ("file", "paste")
        if source == "file":
            text.placeholder = "file name (in your folder)" if player_files.served() else "path of the puzzle file"
            text.tooltip = player_files.where()
        else:
            text.placeholder, text.tooltip = PLACEHOLDERS.get(str(self.query_one("#variant", Select).value),
                                                              PLACEHOLDERS["9"]), None
        grade = self.query_one("#grade", Select)
        grade.disabled = source != "generate"
        # A file or a pasted line may be a Killer or a Jigsaw: the grid says how to read it.
        self.query_one("#variant", Select).disabled = source not in ("generate", "file", "paste")

    @on(Select.Changed, "#variant")
    def _variant_changed(self) -> None:
        self._update_fields()

    def result(self) -> NewPuzzle:
        return NewPuzzle(
            source=str(self.query_one("#source", Select).value),
            grade=str(self.query_one("#grade", Select).value),
            variant=str(self.query_one("#variant", Select).value),
            text=self.query_one("#new-text", Input).value.strip(),
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        choice = self.result()
        if choice.source in ("file", "paste") and not choice.text:
            self.query_one("#new-error", Static).update(
                f"Give a file. {player_files.where()}" if choice.source == "file" else "Paste a puzzle line.")
            return
        if choice.source == "file" and (problem := player_files.refusal(choice.text)):
            self.query_one("#new-error", Static).update(problem)
            return
        self.dismiss(choice)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
