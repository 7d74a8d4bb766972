"""The Sudoku board, drawn with Textual's line API.

Two layouts, picked by the room the terminal gives:

- compact (fits 80×24): one text line per cell row, four columns per cell (a space to
  keep neighbours apart, then three), lines only between boxes. A cell's pencil marks show
  as the digits when there are at most three, as ``(N)`` (how many) when there are more;
  the screen lists the cursor cell's marks in full under the board.
- large (about 100×44 and up): every cell is a small grid of its pencil marks, with dotted
  lines between cells and solid ones between boxes.

A hint's chain is drawn in its cells (:meth:`SudokuBoard.set_chain`): each candidate of a link
shows with the symbol of the link that reaches it, ``=`` strong (underlined) and ``-`` weak
(``>`` where the chain starts), so the cells read like the Eureka notation in the panel (``=4``, ``-4=6`` for a cell whose two
candidates are linked inside it), in colour and without. The candidates a hint removes show
as ``×4`` in their cells.

Only cells that change are repainted (``refresh_cells``); a cursor step repaints the two
cells and the cells holding the digits it leaves and reaches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from tui_games.engine.sudoku.grid import Grid, digit_char, mask_digits
from tui_games.engine.sudoku.techniques import Link
from tui_games.ui.widgets.grid_board import CURSOR_BINDINGS
from tui_games.ui.widgets.layers import LayeredStyles

LABEL_WIDTH = 2
# The large layout needs this much terminal for a 9×9 grid beside the side panel.
LARGE_MIN_WIDTH = 100
LARGE_MIN_HEIGHT = 44

# Junctions of a horizontal line (top, between boxes, bottom, inside a box) with the vertical
# lines (left edge, box line, cell line inside a box, right edge).
JUNCTIONS = {
    "top": ("┌", "┬", "─", "┐", "─"),
    "box": ("├", "┼", "─", "┤", "─"),
    "bottom": ("└", "┴", "─", "┘", "─"),
    "inner": ("│", "│", "·", "│", "┄"),
}

# What separates two cells of a Killer or Jigsaw grid (see SudokuBoard._boundary), and how it
# is drawn: a Jigsaw's regions heavy, boxes light, a cage's border dotted (·, ┆: a dot and a
# colon in --ascii, neither a box's - nor |), nothing inside a cage; a box line that one cage
# crosses has an opening there ("─ ─" across a column, a gap across a row).
EDGE, EDGE_HEAVY, REGION, BOX, BOX_OPEN, CAGE, OPEN = "edge", "edge!", "region", "box", "box open", "cage", "open"
VERTICAL = {EDGE: "│", EDGE_HEAVY: "┃", REGION: "┃", BOX: "│", BOX_OPEN: " ", CAGE: "┆", OPEN: " "}
_HORIZONTAL = {EDGE: "─", EDGE_HEAVY: "━", REGION: "━", BOX: "─", CAGE: "·", OPEN: " "}
SOLID = {EDGE, EDGE_HEAVY, REGION, BOX, BOX_OPEN}
HEAVY = {EDGE_HEAVY, REGION}
# Junctions by the solid lines meeting there (up, down, left, right), light and heavy.
_LIGHT_JUNCTIONS = dict(zip(
    [(1, 1, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0), (0, 1, 0, 1), (0, 1, 1, 0),
     (1, 0, 0, 1), (1, 0, 1, 0), (1, 1, 0, 0), (0, 0, 1, 1), (1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0),
     (0, 0, 0, 1)], "┼┬┴├┤┌┐└┘│─╵╷╴╶"))
_HEAVY_JUNCTIONS = dict(zip(_LIGHT_JUNCTIONS, "╋┳┻┣┫┏┓┗┛┃━╹╻╸╺"))


def horizontal_fill(kind: str, width: int) -> str:
    """A cell's width of the line between it and the cell above (or the edge)."""
    if kind == BOX_OPEN:
        return "─" + " " * (width - 2) + "─"
    return _HORIZONTAL.get(kind, " ") * width


def junction(up: str, down: str, left: str, right: str) -> str:
    """Where four edges of an outlined grid meet ("" for an arm off the grid)."""
    arms = (up, down, left, right)
    solid = (int(up in SOLID), int(down in SOLID), int(left in SOLID), int(right in SOLID))
    if any(solid):
        table = _HEAVY_JUNCTIONS if any(a in HEAVY for a in arms) else _LIGHT_JUNCTIONS
        return table[solid]
    return "·" if CAGE in arms else " "


STRONG, WEAK, START, REMOVED = "=", "-", ">", "×"
# The style of a chain candidate by the link that reaches it (START: no link does, the chain
# starts there), and of a candidate the hint removes.
CHAIN_STYLES = {STRONG: "board--strong", WEAK: "board--weak", START: "board--node", "": "board--node",
                REMOVED: "board--removed"}


def removed_chars(digits: list[int]) -> list[tuple[str, str]]:
    """A cell losing candidates: `` ×4 ``, ``×4×7``, or ``×`` and the first three."""
    digits = sorted(digits)
    if len(digits) == 1:
        return [(" ", ""), (REMOVED, REMOVED), (digit_char(digits[0]), REMOVED), (" ", "")]
    if len(digits) == 2:
        return [(REMOVED, REMOVED), (digit_char(digits[0]), REMOVED), (REMOVED, REMOVED),
                (digit_char(digits[1]), REMOVED)]
    return [(REMOVED, REMOVED), *[(digit_char(d), REMOVED) for d in digits[:3]]]


class ChainCell:
    """A cell's part of a chain: its candidates in the chain, each with the symbol of the
    first link reaching it, and the link inside the cell when two of them are linked there
    (an XY-chain's bivalue cell: ``(4=6)r3c7``)."""

    __slots__ = ("arrival", "inside")

    def __init__(self) -> None:
        self.arrival: dict[int, str] = {}  # digit -> STRONG, WEAK or "" (not reached by a link)
        self.inside: tuple[int, str, int] | None = None

    def chars(self, removed: Sequence[int] = ()) -> list[tuple[str, str]]:
        """Four (character, symbol whose style it takes) pairs: ``" =4 "``, ``" >4 "`` (the
        chain starts there), ``"-4=6"``, ``"=4-6"`` (two candidates, each with its link), or
        the first three candidates; ``"=9×5"``: one candidate of the chain, one ``removed``."""
        arrival = self.arrival
        if self.inside is not None:
            first, symbol, second = self.inside
            into = arrival.get(first) or START
            return [(into, into), (digit_char(first), into), (symbol, symbol), (digit_char(second), symbol)]
        digits = sorted(arrival)
        if len(digits) == 1:
            into = arrival[digits[0]] or START
            if removed:
                return [(into, into), (digit_char(digits[0]), into), (REMOVED, REMOVED),
                        (digit_char(min(removed)), REMOVED)]
            return [(" ", ""), (into, into), (digit_char(digits[0]), into), (" ", "")]
        if len(digits) == 2:
            out = []
            for digit in digits:
                into = arrival[digit] or START
                out += [(into, into), (digit_char(digit), into)]
            return out
        return [(" ", ""), *[(digit_char(d), arrival[d]) for d in digits[:3]]]


def chain_cells(links: Sequence[Link]) -> dict[int, ChainCell]:
    """What each cell of the links shows: every candidate at either end of a link, marked
    with the kind of the first link that reaches it, in the links' order."""
    cells: dict[int, ChainCell] = {}
    for link in links:
        symbol = STRONG if link.strong else WEAK
        for cell in link.cells_a:
            cells.setdefault(cell, ChainCell()).arrival.setdefault(link.digit_a, "")
        for cell in link.cells_b:
            part = cells.setdefault(cell, ChainCell())
            if not part.arrival.get(link.digit_b):
                part.arrival[link.digit_b] = symbol
        if len(link.cells_a) == 1 and link.cells_a == link.cells_b and link.digit_a != link.digit_b:
            part = cells[link.cells_a[0]]
            if part.inside is None:
                part.inside = (link.digit_a, symbol, link.digit_b)
    return cells


class SudokuBoard(LayeredStyles, Widget, can_focus=True):
    """The grid with a cursor. The screen owns the game and sets what to highlight."""

    BINDINGS = CURSOR_BINDINGS

    COMPONENT_CLASSES = {
        "board--grid", "board--label", "board--cursor", "board--given", "board--entered",
        "board--mark", "board--conflict", "board--wrong", "board--same", "board--hint",
        "board--target", "board--diagonal", "board--strong", "board--weak", "board--node",
        "board--removed", "board--cage", "board--sum",
    }

    DEFAULT_CSS = """
    SudokuBoard { width: auto; height: auto; }
    SudokuBoard > .board--grid { color: $foreground-muted; }
    SudokuBoard > .board--label { color: $text-muted; }
    SudokuBoard > .board--cursor { text-style: reverse bold; }
    SudokuBoard > .board--given { text-style: bold; }
    SudokuBoard > .board--entered { color: $text-accent; }
    SudokuBoard > .board--mark { color: $text-muted; text-style: dim; }
    SudokuBoard > .board--conflict { color: $text-error; text-style: bold underline; }
    SudokuBoard > .board--wrong { color: $text-error; text-style: strike; }
    SudokuBoard > .board--diagonal { background: $foreground 15%; }
    SudokuBoard > .board--same { background: $primary 35%; }
    SudokuBoard > .board--cage { background: $secondary 12%; }
    SudokuBoard > .board--sum { color: $text; text-style: bold; }
    SudokuBoard > .board--hint { background: $success 35%; text-style: bold; }
    SudokuBoard > .board--target { background: $warning 30%; }
    /* Chains: colours that stay apart in 16 colours too (bright green, bright cyan, bright red);
       the symbols = - × and the underline say the same without colour. */
    SudokuBoard > .board--strong { color: $success-lighten-2; text-style: bold underline; }
    SudokuBoard > .board--weak { color: $primary-lighten-3; text-style: bold; }
    SudokuBoard > .board--node { color: $foreground; text-style: bold; }
    SudokuBoard > .board--removed { color: $error-lighten-2; text-style: bold; }
    SudokuBoard:light > .board--strong { color: $success-darken-2; }
    SudokuBoard:light > .board--weak { color: $primary-darken-2; }
    SudokuBoard:light > .board--removed { color: $error-darken-2; }
    """

    class CursorMoved(Message):
        def __init__(self, cell: int) -> None:
            super().__init__()
            self.cell = cell

    cursor: reactive[int] = reactive(0, repaint=False)

    def __init__(self, grid: Grid, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.grid = grid
        self.marks: list[int] = [0] * len(grid.values)
        self.conflicts: set[int] = set()
        self.wrong: set[int] = set()
        self.hint_cells: set[int] = set()
        self.targets: set[int] = set()
        self.chain: dict[int, ChainCell] = {}
        self.removed: dict[int, list[int]] = {}
        self.large = False
        self._layout()

    # -- what the screen sets -------------------------------------------------------------------

    def set_grid(self, grid: Grid, marks: list[int]) -> None:
        # A Killer or Jigsaw grid has a line between every two cells: another layout.
        resized = grid.size != self.grid.size or (grid.variant is None) != (self.grid.variant is None)
        self.grid = grid
        self.marks = marks
        self.conflicts = set()
        self.wrong = set()
        self.hint_cells = set()
        self.targets = set()
        self.chain = {}
        self.removed = {}
        if resized:
            self.cursor = min(self.cursor, len(grid.values) - 1)
            self._layout()
            self.refresh(layout=True)
        else:
            self.refresh()

    def set_large(self, large: bool) -> None:
        if large != self.large:
            self.large = large
            self._layout()
            self.refresh(layout=True)

    def set_highlights(self, *, conflicts: set[int] | None = None, wrong: set[int] | None = None,
                       hint_cells: set[int] | None = None, targets: set[int] | None = None) -> None:
        """Replace some highlight sets; repaints the cells whose highlight changed."""
        changed: set[int] = set()
        for name, new in (("conflicts", conflicts), ("wrong", wrong), ("hint_cells", hint_cells),
                          ("targets", targets)):
            if new is not None:
                old = getattr(self, name)
                changed |= old ^ new
                setattr(self, name, set(new))
        self.refresh_cells(changed)

    def set_chain(self, links: Sequence[Link], removed: Iterable[tuple[int, int]] = ()) -> None:
        """Draw these links and the candidates ``removed`` ((cell, digit) pairs); nothing
        takes them away."""
        before = set(self.chain) | set(self.removed)
        self.chain = chain_cells(links)
        self.removed = {}
        for cell, digit in removed:
            if not self.grid.values[cell]:
                self.removed.setdefault(cell, []).append(digit)
        self.refresh_cells(before | set(self.chain) | set(self.removed))

    def same_digit_cells(self, cell: int) -> set[int]:
        digit = self.grid.values[cell]
        if not digit:
            return set()
        return {c for c, v in enumerate(self.grid.values) if v == digit}

    # -- geometry -------------------------------------------------------------------------------

    @property
    def outlined(self) -> bool:
        """A Killer or Jigsaw grid: a line between every two cells, drawn by what they share."""
        return self.grid.variant is not None

    def _layout(self) -> None:
        """Where every cell starts, in widget columns and lines, for the current layout."""
        geo = self.grid.geometry
        n = geo.size
        self.cell_w, self.cell_h = (5, 3) if self.large else (3 if self.outlined else 4, 1)
        inner = self.large or self.outlined
        # x: the left label, then a border, then cells with a line before each box (and in the
        # large layout before every cell).
        xs, x = [], LABEL_WIDTH + 1
        col_lines = []  # kind of the vertical line before column c (c >= 1)
        for c in range(n):
            if c:
                kind = "box" if c % geo.box_cols == 0 else "inner"
                if kind == "box" or inner:
                    col_lines.append((x, kind))
                    x += 1
            xs.append(x)
            x += self.cell_w
        self.width = x + 1
        self.cell_x = xs
        self.col_lines = col_lines
        # y: the column labels, then the top border, then rows with lines likewise.
        # An outlined grid at 80×24 needs a line more than there is: its column labels go in
        # its bottom line.
        self.labels_below = self.outlined and not self.large
        rows: list[tuple] = [] if self.labels_below else [("labels",)]
        rows.append(("outline", 0) if self.outlined else ("border", "top"))
        ys = []
        for r in range(n):
            if r:
                kind = "box" if r % geo.box_rows == 0 else "inner"
                if self.outlined:
                    rows.append(("outline", r))
                elif kind == "box" or inner:
                    rows.append(("border", kind))
            ys.append(len(rows))
            rows.extend(("cell", r, sub) for sub in range(self.cell_h))
        rows.append(("outline", n) if self.outlined else ("border", "bottom"))
        self.cell_y = ys
        self.lines = rows

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines)

    def cell_region(self, cell: int) -> Region:
        r, c = divmod(cell, self.grid.size)
        return Region(self.cell_x[c], self.cell_y[r], self.cell_w, self.cell_h)

    def cell_at(self, x: int, y: int) -> int | None:
        n = self.grid.size
        for r in range(n):
            top = self.cell_y[r]
            if top <= y < top + self.cell_h:
                for c in range(n):
                    left = self.cell_x[c]
                    if left <= x < left + self.cell_w:
                        return r * n + c
        return None

    def refresh_cells(self, cells: Iterable[int]) -> None:
        total = len(self.grid.values)
        regions = [self.cell_region(c) for c in cells if c is not None and 0 <= c < total]
        if regions:
            self.refresh(*regions)

    # -- drawing ----------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        base = self.rich_style
        if y >= len(self.lines):
            return Strip.blank(self.size.width, base)
        line = self.lines[y]
        label = base + self.get_component_rich_style("board--label")
        grid_style = base + self.get_component_rich_style("board--grid")
        if line[0] == "labels":
            text = [" "] * self.width
            for c, x in enumerate(self.cell_x):
                text[x + self.cell_w // 2] = digit_char(c + 1)
            return Strip([Segment("".join(text), label)])
        if line[0] == "outline":
            return self._outline(line[1], base, grid_style)
        if line[0] == "border":
            left, box, cross, right, fill = JUNCTIONS[line[1]]
            out = [" " * LABEL_WIDTH, left]
            lines_at = dict(self.col_lines)
            x = LABEL_WIDTH + 1
            while x < self.width - 1:
                kind = lines_at.get(x)
                if kind is None:
                    out.append(fill)
                elif kind == "box":
                    out.append(box)
                else:
                    out.append(cross)
                x += 1
            out.append(right)
            return Strip([Segment(out[0], base), Segment("".join(out[1:]), grid_style)])
        _, row, sub = line
        n = self.grid.size
        middle = sub == self.cell_h // 2
        outlined = self.outlined
        first = VERTICAL[self._boundary(None, row * n)] if outlined else "│"
        segments = [Segment(f"{digit_char(row + 1) if middle else ' ':<{LABEL_WIDTH}}", label),
                    Segment(first, grid_style)]
        cursor_digit = self.grid.values[self.cursor]
        for c in range(n):
            cell = row * n + c
            cell_text, style = self._cell(cell, sub, cursor_digit)
            part = self.chain.get(cell)
            if part is not None and middle and not self.grid.values[cell]:
                segments.extend(self._chain_segments(part.chars(self.removed.get(cell, ())), base + style))
            elif cell in self.removed and middle and not self.grid.values[cell]:
                segments.extend(self._chain_segments(removed_chars(self.removed[cell]), base + style))
            else:
                segments.append(Segment(cell_text, base + style))
            if outlined:
                segments.append(Segment(VERTICAL[self._boundary(cell, cell + 1 if c + 1 < n else None)], grid_style))
            elif c + 1 < n:
                boundary = "box" if (c + 1) % self.grid.geometry.box_cols == 0 else "inner"
                if boundary == "box":
                    segments.append(Segment("│", grid_style))
                elif self.large:
                    segments.append(Segment("┆", grid_style))
        if not outlined:
            segments.append(Segment("│", grid_style))
        return Strip(segments)

    # -- Killer cages and Jigsaw regions ----------------------------------------------------------

    def _boundary(self, a: int | None, b: int | None) -> str:
        """What separates two neighbouring cells (None: off the grid): the grid's edge, a region
        or box line (one cage on both sides: an opening in it), a cage's border, or nothing."""
        grid = self.grid
        if a is None or b is None:
            return EDGE_HEAVY if grid.geometry.jigsaw else EDGE
        geo = grid.geometry
        variant = grid.variant
        cage_of = variant.cage_of if variant is not None and variant.cages else None
        same_cage = cage_of is not None and cage_of[a] == cage_of[b] and cage_of[a] >= 0
        if geo.box_of(a) != geo.box_of(b):
            if same_cage:
                return BOX_OPEN
            return REGION if geo.jigsaw else BOX
        if cage_of is not None and not same_cage:
            return CAGE
        return OPEN

    def _outline(self, r: int, base: Style, grid_style: Style) -> Strip:
        """The line above row ``r`` (``size``: below the last row) of a Killer or Jigsaw grid:
        each cell's edge by what it separates, the junctions by the lines meeting there, and a
        cage's sum at the top of its first cell."""
        n = self.grid.size
        variant = self.grid.variant
        sums: dict[int, int] = {}
        if variant is not None and r < n:
            for cage in variant.cages:
                if cage.cells[0] // n == r:
                    sums[cage.cells[0] % n] = cage.total
        above = [(r - 1) * n + c if r > 0 else None for c in range(n)]
        below = [r * n + c if r < n else None for c in range(n)]

        def across(c: int) -> str:  # the horizontal edge under column c
            if c < 0 or c >= n:
                return ""
            return self._boundary(above[c], below[c])

        def upright(cells: list[int | None], c: int) -> str:  # the vertical edge left of column c
            if cells[0] is None:
                return ""
            left = cells[c - 1] if c > 0 else None
            right = cells[c] if c < n else None
            return self._boundary(left if c > 0 else None, right)

        segments = [Segment(" " * LABEL_WIDTH, base)]
        sum_style = grid_style + self._layer("board--sum")
        for c in range(n + 1):
            segments.append(Segment(junction(upright(above, c), upright(below, c), across(c - 1), across(c)),
                                    grid_style))
            if c == n:
                break
            kind = across(c)
            fill = horizontal_fill(kind, self.cell_w)
            if r == n and self.labels_below:
                middle = self.cell_w // 2
                fill = fill[:middle] + digit_char(c + 1) + fill[middle + 1:]
            total = sums.get(c)
            if total is None:
                segments.append(Segment(fill, grid_style))
            else:
                label = str(total)
                segments.append(Segment(label, sum_style))
                segments.append(Segment(fill[len(label):], grid_style))
        return Strip(segments)

    def cage_cells(self, cell: int) -> set[int]:
        """The cells of ``cell``'s Killer cage (empty outside a Killer)."""
        variant = self.grid.variant
        if variant is None or not variant.cages or variant.cage_of[cell] < 0:
            return set()
        return set(variant.cages[variant.cage_of[cell]].cells)

    def _cell(self, cell: int, sub: int, cursor_digit: int) -> tuple[str, Style]:
        """The text of one line of one cell, and its style."""
        grid = self.grid
        value = grid.values[cell]
        w = self.cell_w
        style = Style()
        is_cursor = cell == self.cursor and self.has_focus_within_board
        middle = sub == self.cell_h // 2
        if value:
            kind = "board--given" if grid.givens[cell] else "board--entered"
            style += self._layer(kind)
            if middle:
                mark = digit_char(value)
                text = f"[{mark}]" if is_cursor else f" {mark} "
                text = f"{text:>{w}}" if not self.large else f"{text:^{w}}"
            else:
                text = " " * w
        elif cell in self.chain or cell in self.removed:
            # The chain's candidates take the middle line (render_line); the marks give way.
            text = " " * w
        else:
            mask = self.marks[cell]
            style += self._layer("board--mark")
            text = self._marks_text(mask, sub, is_cursor)
        if grid.diagonal:
            row, col = divmod(cell, grid.size)
            if row == col or row + col == grid.size - 1:  # the X variant's two extra units
                style += self._layer("board--diagonal")
        if cursor_digit and value == cursor_digit and cell != self.cursor:
            style += self._layer("board--same")
        if cell in self.cage_cells(self.cursor):
            style += self._layer("board--cage")
        if cell in self.hint_cells:
            style += self._layer("board--hint")
        if cell in self.targets:
            style += self._layer("board--target")
        if cell in self.conflicts:
            style += self._layer("board--conflict")
        if cell in self.wrong:
            style += self._layer("board--wrong")
        if is_cursor:
            style += self._layer("board--cursor")
        return text, style

    def _chain_segments(self, chars: list[tuple[str, str]], style: Style) -> list[Segment]:
        """The middle line of a chain cell or a cell losing candidates: (character, symbol)
        pairs, each styled by its symbol, centred in the large layout's five columns."""
        while len(chars) > self.cell_w:  # an outlined cell is three wide: a space goes first
            blank = next((i for i, (ch, _) in enumerate(chars) if ch == " "), len(chars) - 1)
            chars = chars[:blank] + chars[blank + 1:]
        out = [Segment(ch, style + self._layer(CHAIN_STYLES[symbol]) if ch != " " else style)
               for ch, symbol in chars]
        pad = self.cell_w - len(out)
        if pad > 0:
            out.insert(0, Segment(" " * (pad // 2), style))
            out.append(Segment(" " * (pad - pad // 2), style))
        return out

    def _marks_text(self, mask: int, sub: int, is_cursor: bool) -> str:
        w = self.cell_w
        if self.large:
            # A mini grid: three digits a line, each in its place whether marked or not.
            first = sub * 3 + 1
            chars = [digit_char(d) if mask >> (d - 1) & 1 else " "
                     for d in range(first, first + 3) if d <= self.grid.size]
            text = " ".join(chars)
            if is_cursor and sub == self.cell_h // 2 and not mask:
                return f"{'[ ]':^{w}}"
            return f"{text:^{w}}"
        digits = mask_digits(mask)
        lead = " " * (w - 3)  # the classic layout's space between cells; an outlined one has its lines
        if not digits:
            return f"{lead}[ ]" if is_cursor else " " * w
        if len(digits) <= 3:
            return f"{lead}{''.join(digit_char(d) for d in digits):<3}"
        # More than fit: the first two and an ellipsis (a count like "(4)" read as the mark 4).
        return f"{lead}{''.join(digit_char(d) for d in digits[:2])}…"

    @property
    def has_focus_within_board(self) -> bool:
        return self.has_focus or self.screen.focused is None

    # -- input ------------------------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        total = len(self.grid.values)
        if not (0 <= old < total):
            old = new
        # The same-digit highlight follows the cursor: repaint the cells it leaves and reaches.
        self.refresh_cells({old, new} | self.same_digit_cells(old) | self.same_digit_cells(new)
                           | self.cage_cells(old) | self.cage_cells(new))
        self.post_message(self.CursorMoved(new))

    def on_focus(self) -> None:
        self.refresh_cells([self.cursor])

    def on_blur(self) -> None:
        self.refresh_cells([self.cursor])

    def action_move(self, dr: int, dc: int) -> None:
        n = self.grid.size
        r, c = divmod(self.cursor, n)
        self.cursor = ((r + dr) % n) * n + (c + dc) % n

    def on_click(self, event: events.Click) -> None:
        cell = self.cell_at(event.x, event.y)
        if cell is not None:
            self.focus()
            self.cursor = cell
