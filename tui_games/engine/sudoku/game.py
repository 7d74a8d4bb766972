"""A Sudoku being played: the grid, the player's pencil marks, unlimited undo and redo.

The screen only draws this and sends it keys. Each edit is one :class:`Action` -- the
before and after of every cell it touched -- so undo and redo are exact even for edits that
touch many cells (placing a digit takes it out of the peers' pencil marks; "fill all
candidates" writes every empty cell). The whole game, history included, round-trips through
:meth:`SudokuGame.to_dict` so a saved game resumes with its undo history, a Killer's cages
and a Jigsaw's regions included (``variant`` and ``layout``: the Killer's line, or the
Jigsaw's 81 region digits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tui_games.engine.sudoku.formats import SudokuFormatError, format_killer, parse_jigsaw, parse_killer
from tui_games.engine.sudoku.grid import DIGITS, Grid
from tui_games.engine.sudoku.techniques import Step
from tui_games.engine.sudoku.variants import JIGSAW, KILLER, Variant

__all__ = ["Action", "Change", "SudokuGame"]

# (cell, value before, marks before, value after, marks after)
Change = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Action:
    """One edit: what it was (for the status line) and every cell it changed."""

    label: str
    changes: tuple[Change, ...]

    @property
    def cells(self) -> list[int]:
        return [change[0] for change in self.changes]


class SudokuGame:
    """The puzzle (its givens), the digits and marks written so far, and the history.

    ``solution`` is the puzzle's solution when known (the check, the mistakes counter and
    the hint's sanity check need it). ``mistakes`` counts digits written that differ from it.
    """

    def __init__(self, puzzle: Grid, solution: Sequence[int] | None = None, *, grade: str | None = None,
                 source: str = "") -> None:
        self.grid = puzzle.puzzle()
        self.solution = list(solution) if solution is not None else None
        self.grade = grade
        self.source = source
        self.marks: list[int] = [0] * len(self.grid.values)
        self.undo_stack: list[Action] = []
        self.redo_stack: list[Action] = []
        self.mistakes = 0
        self.elapsed = 0.0
        # Set once the computer filled the grid ("solve"): such a finish is no record.
        self.revealed = False
        # Hints played (``apply``): a finish with any is kept off the best times (assisted).
        self.hints = 0

    # -- reading ---------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        return self.grid.size

    def is_given(self, cell: int) -> bool:
        return self.grid.givens[cell]

    def is_solved(self) -> bool:
        if self.solution is not None:
            return self.grid.values == self.solution
        return self.grid.is_solved()

    def conflicts(self) -> set[int]:
        return self.grid.conflicts()

    def wrong_cells(self) -> set[int]:
        """Written digits that differ from the solution (empty if it is not known)."""
        if self.solution is None:
            return set()
        return {c for c, (v, s) in enumerate(zip(self.grid.values, self.solution))
                if v and not self.grid.givens[c] and v != s}

    def candidates(self) -> list[int]:
        """What the player's notes say each empty cell may hold: the pencil marks where the
        player made some, else every digit no peer holds -- always without the digits a peer
        holds now. Filled cells are 0."""
        grid = self.grid
        out = []
        for cell, value in enumerate(grid.values):
            if value:
                out.append(0)
                continue
            allowed = grid.candidate_mask(cell)
            marks = self.marks[cell]
            out.append(marks & allowed if marks else allowed)
        return out

    # -- editing ---------------------------------------------------------------------------------

    def _commit(self, label: str, before: dict[int, tuple[int, int]]) -> Action | None:
        changes = tuple((cell, v0, m0, self.grid.values[cell], self.marks[cell])
                        for cell, (v0, m0) in sorted(before.items())
                        if (v0, m0) != (self.grid.values[cell], self.marks[cell]))
        if not changes:
            return None
        action = Action(label, changes)
        self.undo_stack.append(action)
        self.redo_stack.clear()
        return action

    def _remember(self, before: dict[int, tuple[int, int]], cell: int) -> None:
        before.setdefault(cell, (self.grid.values[cell], self.marks[cell]))

    def _write(self, before: dict[int, tuple[int, int]], cell: int, digit: int) -> None:
        """Put ``digit`` in ``cell`` and take it out of the peers' marks."""
        self._remember(before, cell)
        self.grid.set(cell, digit)
        self.marks[cell] = 0
        bit = 1 << (digit - 1)
        for peer in self.grid.geometry.peers[cell]:
            if self.marks[peer] & bit:
                self._remember(before, peer)
                self.marks[peer] &= ~bit

    def place(self, cell: int, digit: int) -> Action | None:
        """Write ``digit`` in ``cell`` (None if it is a given or already holds it)."""
        if self.is_given(cell) or self.grid.values[cell] == digit or not 1 <= digit <= self.size:
            return None
        before: dict[int, tuple[int, int]] = {}
        self._write(before, cell, digit)
        if self.solution is not None and digit != self.solution[cell]:
            self.mistakes += 1
        return self._commit(f"{digit} at {self.grid.cell_name(cell)}", before)

    def clear(self, cell: int) -> Action | None:
        """Empty ``cell`` (its digit, else its marks)."""
        if self.is_given(cell):
            return None
        before: dict[int, tuple[int, int]] = {}
        self._remember(before, cell)
        if self.grid.values[cell]:
            self.grid.set(cell, 0)
        else:
            self.marks[cell] = 0
        return self._commit(f"cleared {self.grid.cell_name(cell)}", before)

    def toggle_mark(self, cell: int, digit: int) -> Action | None:
        """Add or remove a pencil mark in an empty cell."""
        if self.grid.values[cell] or not 1 <= digit <= self.size:
            return None
        before: dict[int, tuple[int, int]] = {}
        self._remember(before, cell)
        self.marks[cell] ^= 1 << (digit - 1)
        return self._commit(f"mark {digit} at {self.grid.cell_name(cell)}", before)

    def fill_marks(self) -> Action | None:
        """Pencil in every candidate of every empty cell."""
        before: dict[int, tuple[int, int]] = {}
        for cell, value in enumerate(self.grid.values):
            if not value:
                self._remember(before, cell)
                self.marks[cell] = self.grid.candidate_mask(cell)
        return self._commit("all candidates", before)

    def apply(self, step: Step) -> Action | None:
        """Play a hint: its placements, and its eliminations written as pencil marks."""
        before: dict[int, tuple[int, int]] = {}
        candidates = self.candidates()
        for cell, digit in step.eliminations:
            if not self.grid.values[cell]:
                self._remember(before, cell)
                self.marks[cell] = candidates[cell] & ~(1 << (digit - 1))
                candidates[cell] = self.marks[cell]
        for cell, digit in step.placements:
            if not self.is_given(cell):
                self._write(before, cell, digit)
        self.hints += 1
        return self._commit(step.technique, before)

    def fill_solution(self) -> Action | None:
        """Write the solution into every cell (the "solve" button); no record afterwards."""
        if self.solution is None:
            return None
        before: dict[int, tuple[int, int]] = {}
        for cell, digit in enumerate(self.solution):
            if self.grid.values[cell] != digit and not self.is_given(cell):
                self._remember(before, cell)
                self.grid.set(cell, digit)
            if self.marks[cell]:
                self._remember(before, cell)
                self.marks[cell] = 0
        self.revealed = True
        return self._commit("solution", before)

    # -- history -----------------------------------------------------------------------------

    def _restore(self, action: Action, after: bool) -> None:
        for cell, v0, m0, v1, m1 in action.changes:
            self.grid.values[cell] = v1 if after else v0
            self.marks[cell] = m1 if after else m0

    def undo(self) -> Action | None:
        if not self.undo_stack:
            return None
        action = self.undo_stack.pop()
        self._restore(action, after=False)
        self.redo_stack.append(action)
        return action

    def redo(self) -> Action | None:
        if not self.redo_stack:
            return None
        action = self.redo_stack.pop()
        self._restore(action, after=True)
        self.undo_stack.append(action)
        return action

    # -- saving ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        variant = self.grid.variant
        saved: dict[str, Any] = {}
        if variant is not None and variant.cages:
            saved = {"variant": KILLER, "layout": format_killer(self.grid.puzzle())}
        elif variant is not None and variant.region_of is not None:
            saved = {"variant": JIGSAW, "layout": "".join(str(r + 1) for r in variant.region_of)}
        return {
            **saved,
            "size": self.size,
            "diagonal": self.grid.diagonal,
            "puzzle": self.grid.puzzle().format(),
            "values": self.grid.format(),
            "marks": list(self.marks),
            "solution": self.solution,
            "grade": self.grade,
            "source": self.source,
            "mistakes": self.mistakes,
            "elapsed": round(self.elapsed, 1),
            "revealed": self.revealed,
            "hints": self.hints,
            "undo": [[a.label, [list(c) for c in a.changes]] for a in self.undo_stack],
            "redo": [[a.label, [list(c) for c in a.changes]] for a in self.redo_stack],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SudokuGame:
        """A game from :meth:`to_dict`; ValueError (or KeyError, TypeError) if it is damaged."""
        size = int(data["size"])
        diagonal = bool(data["diagonal"])
        variant = _saved_variant(data)
        if variant is not None:
            size, diagonal = variant.size, variant.diagonal
        puzzle = _grid_from_text(data["puzzle"], size, diagonal, variant)
        solution = data.get("solution")
        if solution is not None and (len(solution) != size * size or not all(isinstance(d, int) for d in solution)):
            raise ValueError("the saved solution does not fit the grid")
        game = cls(puzzle, solution, grade=data.get("grade"), source=str(data.get("source", "")))
        values = _grid_from_text(data["values"], size, diagonal, variant).values
        for cell, value in enumerate(values):
            if game.grid.givens[cell] and value != game.grid.values[cell]:
                raise ValueError(f"the saved grid changes the given at {game.grid.cell_name(cell)}")
            game.grid.values[cell] = value
        marks = [int(m) for m in data["marks"]]
        if len(marks) != size * size or any(not 0 <= m < 1 << size for m in marks):
            raise ValueError("the saved pencil marks do not fit the grid")
        game.marks = marks
        game.mistakes = int(data.get("mistakes", 0))
        game.elapsed = float(data.get("elapsed", 0.0))
        game.revealed = bool(data.get("revealed", False))
        game.hints = max(0, int(data.get("hints", 0)))
        game.undo_stack = [_action(item, size) for item in data.get("undo", [])]
        game.redo_stack = [_action(item, size) for item in data.get("redo", [])]
        return game


def _saved_variant(data: dict[str, Any]) -> Variant | None:
    """The Killer or Jigsaw a saved game names, or None; ValueError if its layout is damaged."""
    kind = data.get("variant")
    if kind is None:
        return None
    layout = data.get("layout")
    if not isinstance(layout, str):
        raise ValueError("the saved game names a variant but no layout")
    try:
        if kind == KILLER:
            grid = parse_killer(layout)
        elif kind == JIGSAW:
            grid = parse_jigsaw(f"{layout} {'.' * 81}")
        else:
            raise ValueError(f"the saved game is of an unknown variant {kind!r}")
    except SudokuFormatError as error:
        raise ValueError(f"the saved {kind} layout is damaged: {error.problem}") from None
    return grid.variant


def _grid_from_text(text: str, size: int, diagonal: bool, variant: Variant | None = None) -> Grid:
    if len(text) != size * size:
        raise ValueError(f"a saved {size}x{size} grid has {size * size} cells, not {len(text)}")
    values = [0 if ch in ".0" else DIGITS.index(ch) + 1 for ch in text]
    return Grid(values, size=size, diagonal=diagonal, variant=variant)


def _action(item: list[Any], size: int) -> Action:
    label, changes = item
    out = []
    for change in changes:
        cell, v0, m0, v1, m1 = (int(x) for x in change)
        if not 0 <= cell < size * size:
            raise ValueError(f"a saved edit names cell {cell}")
        out.append((cell, v0, m0, v1, m1))
    return Action(str(label), tuple(out))
