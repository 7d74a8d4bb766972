"""A rectangular board of cells drawn with Textual's line API.

Only the lines of cells that changed are repainted (``refresh_cell``): a cursor step
repaints two cells, not the screen, which keeps the bytes sent over SSH small.
Subclasses say what a cell shows (``cell_text``) and how it is styled (``cell_style``).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from tui_games.ui.widgets.layers import LayeredStyles

BOX = {"tl": "┌", "tr": "┐", "bl": "└", "br": "┘", "h": "─", "v": "│",
       "t": "┬", "b": "┴", "l": "├", "r": "┤", "x": "┼"}
LABEL_WIDTH = 2
# Takes the underline off a line of a tall cell that does not carry the mark.
NO_UNDERLINE = Style(underline=False)
# Arrows and vi keys move a board's cursor (every board binds these to its action_move).
CURSOR_BINDINGS: list[BindingType] = [
    Binding("up,k", "move(-1, 0)", "Up", show=False),
    Binding("down,j", "move(1, 0)", "Down", show=False),
    Binding("left,h", "move(0, -1)", "Left", show=False),
    Binding("right,l", "move(0, 1)", "Right", show=False),
]


def cursor_shown(board: Widget) -> bool:
    """Whether a board draws its cursor: while it has focus, and always when nothing else is
    focused; a board that takes no focus (step mode's, a replay's) is read-only: no cursor."""
    return board.can_focus and (board.has_focus or board.screen.focused is None)


class GridBoard(LayeredStyles, Widget, can_focus=True):
    """A cursor-driven grid. Posts ``CellChosen`` on Enter/Space or a click."""

    BINDINGS = [
        *CURSOR_BINDINGS,
        Binding("enter,space", "choose", "Play", show=True),
    ]

    COMPONENT_CLASSES = {"board--grid", "board--label", "board--cursor"}

    DEFAULT_CSS = """
    GridBoard {
        width: auto;
        height: auto;
    }
    GridBoard > .board--grid { color: $foreground-muted; }
    GridBoard > .board--label { color: $text-muted; }
    GridBoard > .board--cursor { text-style: reverse bold; }
    GridBoard:focus > .board--cursor { text-style: reverse bold; }
    """

    class CellChosen(Message):
        def __init__(self, board: "GridBoard", cell: int) -> None:
            super().__init__()
            self.board = board
            self.cell = cell

        @property
        def control(self) -> "GridBoard":
            return self.board

    cursor: reactive[int] = reactive(0, repaint=False)

    # Cell sizes (width, height inside the borders), smallest first: a board starts at the
    # size ``cell_size`` gives and grows up the ladder while the terminal has room (``fit``).
    LADDER: tuple[tuple[int, int], ...] = ((3, 1), (5, 3), (7, 3), (11, 5), (15, 7))
    # How many steps up from the base size a bigger terminal may take a board.
    MAX_STEPS = 2

    def __init__(self, rows: int, cols: int, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows = rows
        self.cols = cols
        self.cell_w, self.cell_h = self.cell_size(rows, cols)
        self.coordinates = True
        self.room: tuple[int, int] | None = None  # the space fit() was last given

    @staticmethod
    def cell_size(rows: int, cols: int) -> tuple[int, int]:
        """Big cells for small boards; 80×24 must hold a 7×7 board with room to spare."""
        if max(rows, cols) <= 3:
            return 7, 3
        if max(rows, cols) <= 4:
            return 5, 3
        return 3, 1

    def _size_for(self, cell: tuple[int, int]) -> tuple[int, int]:
        w, h = cell
        return self.left + self.cols * (w + 1) + 1, self.label_rows + self.rows * (h + 1) + 1

    def fit(self, width: int, height: int) -> None:
        """Take the biggest cells up the ladder (at most MAX_STEPS above the base size) with
        which the board fits ``width`` × ``height``; the base size when nothing bigger does."""
        self.room = (width, height)
        base = self.cell_size(self.rows, self.cols)
        start = self.LADDER.index(base) if base in self.LADDER else 0
        chosen = base
        for cell in self.LADDER[start + 1:start + 1 + self.MAX_STEPS]:
            w, h = self._size_for(cell)
            if w <= width and h <= height:
                chosen = cell
        if chosen != (self.cell_w, self.cell_h):
            self.cell_w, self.cell_h = chosen
            self.refresh(layout=True)

    def resize_board(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cell_w, self.cell_h = self.cell_size(rows, cols)
        self.cursor = min(self.cursor, rows * cols - 1)
        if self.room is not None:
            self.fit(*self.room)
        self.refresh(layout=True)

    def cell_art(self, cell: int) -> list[str] | None:
        """The cell drawn across its whole inside (``cell_h`` lines of ``cell_w``), for big
        cells; None: the mark alone, on the middle line."""
        return None

    # -- what subclasses provide -----------------------------------------------------------

    def cell_text(self, cell: int) -> str:
        return " "

    def cell_style(self, cell: int) -> Style:
        return Style()

    # -- geometry --------------------------------------------------------------------------

    @property
    def label_rows(self) -> int:
        return 1 if self.coordinates else 0

    @property
    def left(self) -> int:
        return LABEL_WIDTH if self.coordinates else 0

    @property
    def row_labels(self) -> bool:
        """Row numbers down the left edge (with the coordinates)."""
        return self.coordinates

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.left + self.cols * (self.cell_w + 1) + 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.label_rows + self.rows * (self.cell_h + 1) + 1

    def cell_region(self, cell: int) -> Region:
        """The cell with its border, in widget coordinates."""
        r, c = divmod(cell, self.cols)
        return Region(self.left + c * (self.cell_w + 1), self.label_rows + r * (self.cell_h + 1),
                      self.cell_w + 2, self.cell_h + 2)

    def cell_at(self, x: int, y: int) -> int | None:
        x -= self.left
        y -= self.label_rows
        if x < 0 or y < 0:
            return None
        c, cx = divmod(x, self.cell_w + 1)
        r, cy = divmod(y, self.cell_h + 1)
        if cx == 0 or cy == 0 or not (0 <= r < self.rows and 0 <= c < self.cols):
            return None
        return r * self.cols + c

    def refresh_cell(self, *cells: int) -> None:
        # Only the inside of each cell: its borders never change, and every line repainted
        # costs bytes over SSH.
        regions = [self.cell_region(c).shrink((1, 1, 1, 1)) for c in cells
                   if c is not None and 0 <= c < self.rows * self.cols]
        if regions:
            self.refresh(*regions)

    # -- drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        # Every segment carries a style: the monochrome filter (NO_COLOR) needs one, and the
        # widget's own style keeps the background right under every theme.
        base = self.rich_style
        grid = base + self.get_component_rich_style("board--grid")
        label = base + self.get_component_rich_style("board--label")
        cw, ch = self.cell_w, self.cell_h
        segments: list[Segment] = []
        if self.label_rows:
            if y == 0:
                text = " " * self.left + "".join(
                    f" {chr(ord('a') + c):^{cw}}" for c in range(self.cols))
                return Strip([Segment(text, label)])
            y -= 1
        row, sub = divmod(y, ch + 1)
        if row > self.rows or (row == self.rows and sub > 0) or y < 0:
            return Strip.blank(self.size.width, self.rich_style)
        if sub == 0:
            # A border line: top, between rows, or bottom.
            left, mid, right = (("tl", "t", "tr") if row == 0 else ("bl", "b", "br") if row == self.rows
                                else ("l", "x", "r"))
            text = BOX[left] + BOX[mid].join(BOX["h"] * cw for _ in range(self.cols)) + BOX[right]
            if self.left:
                segments.append(Segment(" " * self.left, base))
            segments.append(Segment(text, grid))
            return Strip(segments)
        if self.left:
            number = self.row_labels and sub == (ch + 1) // 2
            segments.append(Segment(f"{row + 1:<{self.left}}" if number else " " * self.left, label))
        segments.append(Segment(BOX["v"], grid))
        middle = sub == (ch + 1) // 2
        # Pieces are drawn big only on cells grown past the board's usual size (fit).
        grown = (cw, ch) != self.cell_size(self.rows, self.cols)
        # A layer: the cursor on a mark shows the mark's own colour, reversed.
        cursor_style = self._layer("board--cursor")
        for c in range(self.cols):
            cell = row * self.cols + c
            style = base + self.cell_style(cell)
            is_cursor = cell == self.cursor and self.has_focus_within_board
            art = self.cell_art(cell) if grown else None
            if art is not None:
                text = art[sub - 1]
                if is_cursor and middle:
                    text = f"[{text[1:-1]}]"
            elif middle:
                mark = self.cell_text(cell)
                text = f"[{mark}]" if is_cursor else f" {mark} "
                text = f"{text:^{cw}}"
            else:
                text = " " * cw
            if style.underline and sub != (ch if art is not None else (ch + 1) // 2):
                # An underline (the last move's cue) goes under the mark once: on every line of
                # a tall cell it struck through the piece.
                style = style + NO_UNDERLINE
            if is_cursor:
                style = style + cursor_style
            segments.append(Segment(text, style))
            segments.append(Segment(BOX["v"], grid))
        return Strip(segments)

    @property
    def has_focus_within_board(self) -> bool:
        return cursor_shown(self)

    # -- input -----------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_cell(old, new)

    def on_focus(self) -> None:
        self.refresh_cell(self.cursor)

    def on_blur(self) -> None:
        self.refresh_cell(self.cursor)

    def action_move(self, dr: int, dc: int) -> None:
        r, c = divmod(self.cursor, self.cols)
        self.cursor = ((r + dr) % self.rows) * self.cols + (c + dc) % self.cols

    def action_choose(self) -> None:
        self.post_message(self.CellChosen(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.focus()
            self.cursor = cell
            self.post_message(self.CellChosen(self, cell))
