"""The checkers board, drawn with Textual's line API: 8×8 squares, three columns each.

Dark squares carry the pieces (``b``/``w`` men and ``B``/``W`` kings, or glyphs), empty ones a
dot; light squares stay blank, so the board reads without colour. With the numbers overlay on
the squares are five columns wide and every dark square shows its number 1–32, beside its
piece if it has one (``b11``): a move typed as ``11-15`` names squares the player can see. The board turns round so the human's side is at the bottom (``flipped``
puts White there). The screen says what to highlight: the picked piece and its path so far,
where it may land next, the last move and the squares it captured.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from tui_games.engine.checkers.bits import row_col, square_of
from tui_games.ui.widgets.grid_board import CURSOR_BINDINGS, NO_UNDERLINE, cursor_shown
from tui_games.ui.widgets.layers import LayeredStyles

PIECES = {
    "letters": {"b": "b", "w": "w", "B": "B", "W": "W"},
    "glyphs": {"b": "●", "w": "○", "B": "◆", "W": "◇"},
}
# A piece on a big square: a disc three lines high, its mark (b w B W, or the glyphs) in the
# middle, so colour, man and king read in NO_COLOR and --ascii too; white's disc is shaded.
DISC_FILL = {"b": "█", "B": "█", "w": "░", "W": "░"}
CELL_W = 3
# With the numbers overlay: a piece, a two-digit number and the cursor's brackets.
NUMBERED_CELL_W = 5
# Squares on a terminal with room (``fit``): the number on the square's top line.
BIG_CELL_W, BIG_CELL_H = 7, 3
# Squares are named by their numbers (the overlay), not by files and ranks: no labels.
LEFT = 0


class CheckersBoard(LayeredStyles, Widget, can_focus=True):
    BINDINGS = CURSOR_BINDINGS

    COMPONENT_CLASSES = {
        "board--grid", "board--cursor", "board--dark", "board--light", "board--black",
        "board--white", "board--movable", "board--picked", "board--target", "board--last",
        "board--captured",
    }

    DEFAULT_CSS = """
    CheckersBoard { width: auto; height: auto; }
    CheckersBoard > .board--grid { color: $foreground-muted; }
    CheckersBoard > .board--cursor { text-style: reverse bold; }
    CheckersBoard > .board--dark { background: $panel; color: $text-muted; }
    CheckersBoard > .board--light { background: $background; }
    CheckersBoard > .board--black { color: $text-error; text-style: bold; }
    CheckersBoard > .board--white { color: $text; text-style: bold; }
    CheckersBoard > .board--movable { text-style: underline; }
    CheckersBoard > .board--picked { background: $accent 50%; text-style: bold underline; }
    CheckersBoard > .board--target { background: $success 35%; }
    CheckersBoard > .board--last { background: $warning 30%; }
    CheckersBoard > .board--captured { color: $text-warning; }
    """

    class SquareChosen(Message):
        """Enter, Space or a click on a square (its number, or None for a light square)."""

        def __init__(self, square: int | None) -> None:
            super().__init__()
            self.square = square

    # The cursor is a (row, col) of the displayed board: 0..63.
    cursor: reactive[int] = reactive(0, repaint=False)

    def __init__(self, position, *, pieces: str = "letters", flipped: bool = False, numbers: bool = False,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.position = position
        self.pieces = PIECES.get(pieces, PIECES["letters"])
        self.flipped = flipped
        self.numbers = numbers
        self.movable: set[int] = set()
        self.picked: list[int] = []
        self.targets: set[int] = set()
        self.last: set[int] = set()
        self.captured: set[int] = set()
        self.cursor = self.display_index(11 if not flipped else 22)

    # -- geometry ---------------------------------------------------------------------------------

    def display_index(self, square: int) -> int:
        """Where ``square`` is drawn, as row * 8 + col of the display."""
        row, col = row_col(square)
        if not self.flipped:  # Black at the bottom: the diagram turned round
            row, col = 7 - row, 7 - col
        return row * 8 + col

    def square_at_index(self, index: int) -> int | None:
        row, col = divmod(index, 8)
        if not self.flipped:
            row, col = 7 - row, 7 - col
        return square_of(row, col)

    @property
    def cursor_square(self) -> int | None:
        return self.square_at_index(self.cursor)

    big = False

    @property
    def cell_w(self) -> int:
        return BIG_CELL_W if self.big else NUMBERED_CELL_W if self.numbers else CELL_W

    @property
    def cell_h(self) -> int:
        return BIG_CELL_H if self.big else 1

    def fit(self, width: int, height: int) -> None:
        """Big squares when ``width`` × ``height`` holds them."""
        big = LEFT + 2 + 8 * BIG_CELL_W <= width and 2 + 8 * BIG_CELL_H <= height
        if big != self.big:
            self.big = big
            self.refresh(layout=True)

    def set_numbers(self, numbers: bool) -> None:
        if numbers != self.numbers:
            self.numbers = numbers
            self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return LEFT + 1 + 8 * self.cell_w + 1

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 8 * self.cell_h + 2

    def index_region(self, index: int) -> Region:
        row, col = divmod(index, 8)
        return Region(LEFT + 1 + col * self.cell_w, 1 + row * self.cell_h, self.cell_w, self.cell_h)

    def refresh_squares(self, squares: Iterable[int | None]) -> None:
        regions = [self.index_region(self.display_index(s)) for s in squares if s]
        if regions:
            self.refresh(*regions)

    def set_flipped(self, flipped: bool) -> None:
        if flipped != self.flipped:
            square = self.cursor_square
            self.flipped = flipped
            if square:
                self.cursor = self.display_index(square)
            self.refresh()

    # -- drawing ----------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        grid = base + self.get_component_rich_style("board--grid")
        if y == 0:
            return Strip([Segment("┌" + "─" * (8 * self.cell_w) + "┐", grid)])
        if y == 8 * self.cell_h + 1:
            return Strip([Segment("└" + "─" * (8 * self.cell_w) + "┘", grid)])
        if not 1 <= y <= 8 * self.cell_h:
            return Strip.blank(self.size.width, base)
        row, sub = divmod(y - 1, self.cell_h)
        segments = [Segment("│", grid)]
        for col in range(8):
            index = row * 8 + col
            text, style = self._square(index, sub)
            segments.append(Segment(text, base + style))
        segments.append(Segment("│", grid))
        return Strip(segments)

    def _square(self, index: int, sub: int = 0) -> tuple[str, Style]:
        """The text and style of line ``sub`` of the square at ``index``: the piece (and the
        cursor's brackets) on the middle line; on big squares the number on the top one."""
        square = self.square_at_index(index)
        is_cursor = index == self.cursor and cursor_shown(self)
        middle = sub == self.cell_h // 2
        inner = self.cell_w - 2
        if square is None:
            style = self._layer("board--light")
            text = f"[{' ' * inner}]" if is_cursor and middle else " " * self.cell_w
            if is_cursor:
                style += self._layer("board--cursor")
            return text, style
        style = self._layer("board--dark")
        piece = self.position.piece_at(square)
        if piece is not None:
            mark = self.pieces[piece]
            style += self._layer("board--black" if piece in "bB" else "board--white")
        elif square in self.captured:
            mark = "×"
            style += self._layer("board--captured")
        else:
            mark = " " if self.numbers and not self.big else "·"
        if self.numbers and not self.big:
            mark = f"{mark}{square:>2}"
        if square in self.last:
            style += self._layer("board--last")
        if square in self.movable:
            style += self._layer("board--movable")
        if square in self.targets:
            style += self._layer("board--target")
        if square in self.picked:
            style += self._layer("board--picked")
        if is_cursor:
            style += self._layer("board--cursor")
        if style.underline and sub != (self.cell_h - 1 if self.big else self.cell_h // 2):
            # A piece that may move is underlined once, under it: on every line of a big square
            # the underline struck through the disc.
            style += NO_UNDERLINE
        if self.big and piece is not None:
            return self._big_piece(piece, mark, sub, square, is_cursor), style
        if not middle:
            number = f"{square:>2}" if self.numbers and sub == 0 else ""
            return f"{number:>{self.cell_w}}" if number else " " * self.cell_w, style
        text = f"[{mark}]" if is_cursor else f" {mark} "
        return f"{text:^{self.cell_w}}", style

    def _big_piece(self, piece: str, mark: str, sub: int, square: int, is_cursor: bool) -> str:
        """Line ``sub`` of a piece on a big square: ▄▄▄ / ██b██ / ▀▀▀ (the number, when
        shown, at the top line's right end)."""
        fill = DISC_FILL[piece]
        if sub == 1:
            body = f"{fill * 2}{mark}{fill * 2}"
            return f"[{body}]" if is_cursor else f" {body} "
        edge = "▄▄▄" if sub == 0 else "▀▀▀"
        number = f"{square:>2}" if self.numbers and sub == 0 else "  "
        return f"  {edge}{number}"

    # -- what the screen sets ---------------------------------------------------------------------

    def set_position(self, position) -> None:
        self.position = position
        self.movable, self.picked, self.targets = set(), [], set()
        self.last, self.captured = set(), set()
        self.refresh()

    def set_marks(self, *, movable: set[int] | None = None, picked: list[int] | None = None,
                  targets: set[int] | None = None, last: set[int] | None = None,
                  captured: set[int] | None = None) -> None:
        """Replace some highlight sets; repaints only the squares whose look changed."""
        changed: set[int] = set()
        for name, new in (("movable", movable), ("targets", targets), ("last", last), ("captured", captured)):
            if new is not None:
                changed |= getattr(self, name) ^ new
                setattr(self, name, set(new))
        if picked is not None:
            changed |= set(self.picked) ^ set(picked)
            self.picked = list(picked)
        self.refresh_squares(changed)

    # -- input ------------------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        regions = [self.index_region(i) for i in {old, new} if 0 <= i < 64]
        self.refresh(*regions)

    def on_focus(self) -> None:
        self.refresh(self.index_region(self.cursor))

    def on_blur(self) -> None:
        self.refresh(self.index_region(self.cursor))

    def action_move(self, dr: int, dc: int) -> None:
        row, col = divmod(self.cursor, 8)
        self.cursor = ((row + dr) % 8) * 8 + (col + dc) % 8

    def choose(self) -> None:
        self.post_message(self.SquareChosen(self.cursor_square))

    def on_click(self, event: events.Click) -> None:
        col = (event.x - LEFT - 1) // self.cell_w
        row = (event.y - 1) // self.cell_h
        if event.x < LEFT + 1 or not (0 <= row < 8 and 0 <= col < 8):
            return
        self.focus()
        self.cursor = row * 8 + col
        self.choose()
