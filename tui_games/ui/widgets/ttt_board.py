"""The tic-tac-toe board: marks as the letters X and O, so they differ without colour."""

from __future__ import annotations

from rich.style import Style

from tui_games.engine.tictactoe import TicTacToe
from tui_games.ui.widgets.grid_board import GridBoard


class TicTacToeBoard(GridBoard):
    COMPONENT_CLASSES = GridBoard.COMPONENT_CLASSES | {"board--x", "board--o", "board--last", "board--win",
                                                      "board--hint"}

    DEFAULT_CSS = """
    TicTacToeBoard > .board--x { color: $primary; text-style: bold; }
    TicTacToeBoard > .board--o { color: $warning; text-style: bold; }
    TicTacToeBoard > .board--last { text-style: underline; }
    TicTacToeBoard > .board--win { background: $success 40%; text-style: bold; }
    TicTacToeBoard > .board--hint { background: $accent 30%; }
    """

    def __init__(self, position: TicTacToe, *, id: str | None = None) -> None:
        super().__init__(position.rows, position.cols, id=id)
        self.position = position
        self.win_cells: set[int] = set()
        self.hint: int | None = None
        # The cell drawn with the last-move cue: when another move takes the cue, it repaints too.
        self.cued: int | None = None
        self.cursor = position.geo.centre_order[0]

    def set_position(self, position: TicTacToe) -> None:
        """A new game (possibly a new board size): repaint everything."""
        self.position = position
        self.win_cells = set()
        self.hint = None
        self.cued = position.history[-1] if position.history else None
        self.resize_board(position.rows, position.cols)
        self.cursor = position.geo.centre_order[0]
        self.refresh()

    def moved(self, *cells: int) -> None:
        """Marks changed at ``cells`` (a move or an undo): repaint them and the last-move cue."""
        previous_hint = self.hint
        self.hint = None
        history = self.position.history
        previous_cue, self.cued = self.cued, history[-1] if history else None
        changed = set(cells) | {c for c in (previous_cue, self.cued, previous_hint) if c is not None}
        was_won = self.win_cells
        self.win_cells = set(self.position.cells_of(self.position.winning_line()))
        changed |= was_won ^ self.win_cells
        self.refresh_cell(*changed)

    def show_hint(self, cell: int | None) -> None:
        old, self.hint = self.hint, cell
        self.refresh_cell(*(c for c in (old, cell) if c is not None))

    def cell_text(self, cell: int) -> str:
        mark = self.position.mark_at(cell)
        return " " if mark == "." else mark

    def cell_art(self, cell: int) -> list[str] | None:
        mark = self.position.mark_at(cell)
        if mark == ".":
            return [" " * self.cell_w] * self.cell_h
        return mark_art(mark, self.cell_w, self.cell_h)

    def cell_style(self, cell: int) -> Style:
        mark = self.position.mark_at(cell)
        style = Style()
        if mark == "X":
            style = self.get_component_rich_style("board--x")
        elif mark == "O":
            style = self.get_component_rich_style("board--o")
        # Layers add only what their rule sets: an underlined O keeps its colour.
        if cell in self.win_cells:
            style += self._layer("board--win")
        elif cell == self.cued:
            style += self._layer("board--last")
        if cell == self.hint:
            style += self._layer("board--hint")
        return style


def mark_art(mark: str, width: int, height: int) -> list[str]:
    """X as two crossing strokes, O as a rounded box, filling a ``width`` × ``height`` cell
    but a column each side (where the cursor's brackets go)."""
    inner = max(1, min(2 * height - 1, width - 2))
    if mark == "X":
        lines = []
        for row in range(height):
            left = round(row * (inner - 1) / max(1, height - 1))
            right = inner - 1 - left
            chars = [" "] * inner
            if left == right:
                chars[left] = "╳"
            else:
                chars[left], chars[right] = "╲", "╱"
            lines.append("".join(chars))
    else:
        middle = inner - 2
        lines = (["╭" + "─" * middle + "╮"] + ["│" + " " * middle + "│"] * (height - 2)
                 + ["╰" + "─" * middle + "╯"])
    return [f"{line:^{width}}" for line in lines]
