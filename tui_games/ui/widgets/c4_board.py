"""The Connect-4 board: a column cursor above seven columns of six cells.

Discs are shapes (● first player, ○ second) or letters (X, O) as a setting, so the two
sides differ without colour. The row of column numbers doubles as the cursor: the chosen
column's number is bracketed and reversed.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip

from tui_games.ui.widgets.grid_board import GridBoard

DISCS = {"shapes": ("●", "○"), "letters": ("X", "O")}


class Connect4Board(GridBoard):
    BINDINGS = [
        Binding("left,h", "column(-1)", "Left", show=False),
        Binding("right,l", "column(1)", "Right", show=False),
        Binding("enter,space,down,j", "drop", "Drop", show=True),
        *[Binding(str(n), f"drop_in({n - 1})", show=False) for n in range(1, 8)],
    ]

    COMPONENT_CLASSES = GridBoard.COMPONENT_CLASSES | {"board--first", "board--second", "board--last",
                                                      "board--win", "board--hint"}

    DEFAULT_CSS = """
    Connect4Board > .board--first { color: $error; text-style: bold; }
    Connect4Board > .board--second { color: $warning; text-style: bold; }
    Connect4Board > .board--last { text-style: underline; }
    Connect4Board > .board--win { background: $success 40%; text-style: bold; }
    """

    class ColumnChosen(Message):
        def __init__(self, board: "Connect4Board", column: int) -> None:
            super().__init__()
            self.board = board
            self.column = column

        @property
        def control(self) -> "Connect4Board":
            return self.board

    def __init__(self, position, *, discs: str = "shapes", id: str | None = None) -> None:
        super().__init__(6, 7, id=id)
        self.position = position
        self.discs = DISCS.get(discs, DISCS["shapes"])
        self.win_cells: set[tuple[int, int]] = set()
        # The column whose top disc carries the last-move cue: it repaints when the cue moves.
        self.cued: int | None = self._last_column()
        self.column = 3
        self.cursor = self._cursor_cell()

    def _last_column(self) -> int | None:
        return self.position.history[-1] if self.position.history else None

    LADDER = ((3, 1), (5, 2), (7, 3))

    @staticmethod
    def cell_size(rows: int, cols: int) -> tuple[int, int]:
        return 3, 1

    # The header row shows column numbers; there are no row labels.
    @property
    def label_rows(self) -> int:
        return 1

    @property
    def left(self) -> int:
        return 1

    @property
    def row_labels(self) -> bool:
        return False

    def set_position(self, position) -> None:
        self.position = position
        self.win_cells = set()
        self.cued = self._last_column()
        self.cursor = self._cursor_cell()
        self.refresh()

    def _cursor_cell(self) -> int:
        """The cell a disc dropped in the cursor column would land in (the top if full)."""
        height = self.position.height(self.column)
        row_from_top = max(0, 5 - height)
        return row_from_top * 7 + self.column

    def moved(self, *columns: int) -> None:
        """Discs were dropped or taken back in ``columns``: repaint those columns."""
        before = self.win_cells
        self.win_cells = set(self.position.winning_cells())
        previous_cue, self.cued = self.cued, self._last_column()
        changed = set(columns) | {c for c in (previous_cue, self.cued) if c is not None}
        changed |= {col for _, col in before ^ self.win_cells}
        for col in changed:
            self.refresh_cell(*(r * 7 + col for r in range(6)))
        self.cursor = self._cursor_cell()

    def cell_text(self, cell: int) -> str:
        row_from_top, col = divmod(cell, 7)
        owner = self.position.cell(5 - row_from_top, col)
        return " " if owner is None else self.discs[owner]

    def cell_art(self, cell: int) -> list[str] | None:
        if self.discs != DISCS["shapes"]:
            return None  # letters stay letters, on the middle line
        row_from_top, col = divmod(cell, 7)
        owner = self.position.cell(5 - row_from_top, col)
        if owner is None:
            return [" " * self.cell_w] * self.cell_h
        return disc_art(owner == 0, self.cell_w, self.cell_h)

    def cell_style(self, cell: int) -> Style:
        row_from_top, col = divmod(cell, 7)
        row = 5 - row_from_top
        owner = self.position.cell(row, col)
        style = Style()
        if owner is not None:
            style = self.get_component_rich_style("board--first" if owner == 0 else "board--second")
        # Layers add only what their rule sets: an underlined disc keeps its colour.
        if (row, col) in self.win_cells:
            style += self._layer("board--win")
        elif col == self.cued and row == self.position.height(col) - 1:
            style += self._layer("board--last")
        return style

    def render_line(self, y: int) -> Strip:
        if y != 0:
            return super().render_line(y)
        base = self.rich_style
        label = base + self.get_component_rich_style("board--label")
        cursor = base + self.get_component_rich_style("board--cursor")
        segments = [Segment(" " * self.left + " ", base)]
        pad = (self.cell_w - 3) // 2
        for col in range(7):
            segments.append(Segment(" " * pad, base))
            if col == self.column and self.has_focus_within_board:
                segments.append(Segment(f"[{col + 1}]", cursor))
            else:
                segments.append(Segment(f" {col + 1} ", label))
            segments.append(Segment(" " * (self.cell_w - 3 - pad) + " ", base))
        return Strip(segments)

    # -- input -----------------------------------------------------------------------------

    def action_column(self, step: int) -> None:
        old, self.column = self.column, (self.column + step) % 7
        self.refresh_header(old, self.column)
        self.cursor = self._cursor_cell()

    def refresh_header(self, *columns: int) -> None:
        """Repaint the labels of ``columns`` (the cursor's old and new), or the whole row."""
        if not columns:
            self.refresh(Region(0, 0, self.size.width, 1))
            return
        self.refresh(*(Region(self.left + 1 + c * (self.cell_w + 1), 0, self.cell_w, 1) for c in columns))

    def action_drop(self) -> None:
        self.post_message(self.ColumnChosen(self, self.column))

    def action_drop_in(self, column: int) -> None:
        old, self.column = self.column, column
        self.refresh_header(old, column)
        self.cursor = self._cursor_cell()
        self.post_message(self.ColumnChosen(self, column))

    def action_move(self, dr: int, dc: int) -> None:
        self.action_column(dc)

    def on_click(self, event: events.Click) -> None:
        x = event.x - self.left
        if x < 0:
            return
        column = x // (self.cell_w + 1)
        if 0 <= column < 7:
            self.focus()
            self.action_drop_in(column)


def disc_art(first: bool, width: int, height: int) -> list[str]:
    """A big disc: solid for the first player, a ring for the second, so the two differ
    without colour; a column free each side (where the cursor's brackets go)."""
    inner = width - 2
    if first:
        lines = (["▟" + "█" * (inner - 2) + "▙"] + ["█" * inner] * (height - 2)
                 + ["▜" + "█" * (inner - 2) + "▛"])
    else:
        lines = (["╭" + "─" * (inner - 2) + "╮"] + ["│" + " " * (inner - 2) + "│"] * (height - 2)
                 + ["╰" + "─" * (inner - 2) + "╯"])
    return [f" {line} " for line in lines]
