"""The Sudoku hint as the side panel shows it, and the whole chain in a scrollable view.

A hint names its technique with its rating on Sudoku Explainer's scale, its level, the
sentence that explains it and what it changes. A chain is written in Eureka notation
(``(4)r1c2=(4)r1c7-(4=6)r3c7``, :mod:`~tui_games.engine.sudoku.notation`); the panel at 80×24
has about 32 columns, so a long chain is folded by the notation's :func:`fold` to its head and
tail around the number of links left out, then broken into lines between links; ``v`` opens
:class:`ChainView` with every chain in full and every link numbered.
"""

from __future__ import annotations

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui_games.engine.sudoku.notation import fold, node_text
from tui_games.engine.sudoku.techniques import Link, Step

__all__ = ["ChainView", "chain_pieces", "fold_chain", "hint_text", "link_text", "wrap_pieces"]

# How much of the chain the panel shows: up to six lines, for one chain or shared by the first
# three of several (a forcing chain's branches).
CHAIN_LINES = 6
BRANCHES_SHOWN = 3


def chain_pieces(chain: str) -> list[str]:
    """The chain cut before each link symbol and space outside parentheses: the first node,
    then each link with the node it reaches (``(4)r1c2``, ``=(4)r1c7``, ``-(4=6)r3c7``), and
    a folded chain's `` …9 links…`` on its own. A chain without such links is one piece."""
    pieces: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(chain):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0 and i > start and (ch in "=-" or chain[i:i + 2] in (" …", " (")):
            pieces.append(chain[start:i])
            start = i
    pieces.append(chain[start:])
    return [p for p in pieces if p]


def wrap_pieces(pieces: list[str], width: int) -> list[str]:
    """Lines of at most ``width`` characters, broken between pieces where one fits (a piece
    longer than a line is cut); a line does not start with a space."""
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece.lstrip(" ") if not line else piece
        while len(line) > width:
            lines.append(line[:width])
            line = line[width:]
    if line:
        lines.append(line)
    return lines


def fold_chain(chain: str, width: int, lines: int) -> list[str]:
    """The chain in at most ``lines`` lines of ``width``, broken between links: whole if it
    fits, else folded (``(4)r1c2=(4)r1c7 …9 links… (6)r9c6``) as long as still fits."""
    budget = width * lines
    while True:
        out = wrap_pieces(chain_pieces(fold(chain, budget)), width)
        if len(out) <= lines or budget <= width:
            return out[:lines]
        budget -= 2  # the breaks between lines wasted room: fold a little shorter


def link_text(link: Link, size: int) -> str:
    """One link: ``(4)r1c2 = (4)r1c7`` (strong), ``(4)r1c7 - (4)r3c7`` (weak)."""
    return (f"{node_text(link.cells_a, link.digit_a, size)} {'=' if link.strong else '-'} "
            f"{node_text(link.cells_b, link.digit_b, size)}")


def rating_text(step: Step) -> str:
    return f"{step.rating:.1f}" if step.rating else ""


def hint_title(step: Step) -> str:
    """The panel's title: ``Hint · XY-wing · 4.2``."""
    rating = rating_text(step)
    return f"Hint · {step.technique}" + (f" · {rating}" if rating else "")


def hint_text(step: Step, size: int, width: int) -> Text:
    """The panel's text for a hint: level and rating, the explanation, what changes, and the
    chain(s) folded to ``width`` columns."""
    rating = rating_text(step)
    out = Text.assemble((step.level, "dim"), (f" · rating {rating}" if rating else "", "dim"), "\n",
                        step.explanation, "\n", (step.changes(size), "bold"))
    if step.chain:
        out.append("\n")
        branches = step.chain[:BRANCHES_SHOWN]
        for chain in branches:
            if len(branches) == 1:
                out.append("\n" + "\n".join(fold_chain(chain, width, CHAIN_LINES)), style="bold")
            else:  # each branch's next lines indented, so that the branches stand apart
                folded = fold_chain(chain, width - 1, CHAIN_LINES // len(branches))
                out.append("\n" + "\n ".join(folded))
        notes = []
        if len(step.chain) > len(branches):
            more = len(step.chain) - len(branches)
            notes.append(f"+{more} chain{'s' * (more > 1)}")
        notes.append("v shows it all")
        out.append("\n" + " · ".join(notes), style="dim italic")
    out.append("\ni again applies it", style="dim italic")
    return out


class ChainView(ModalScreen[None]):
    """Every chain of a hint in full, wrapped between links, and its links numbered."""

    BINDINGS = [Binding("escape,q,v,enter", "dismiss", "Close"),
                Binding("j", "scroll('down')", show=False), Binding("k", "scroll('up')", show=False)]
    DEFAULT_CSS = """
    ChainView { align: center middle; }
    ChainView > VerticalScroll {
        width: 100; max-width: 100%; height: auto; max-height: 100%;
        border: round $accent; background: $surface; padding: 0 1; scrollbar-gutter: stable;
    }
    """

    def __init__(self, step: Step, size: int) -> None:
        super().__init__()
        self.step = step
        self.grid_size = size

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = hint_title(self.step)
            scroll.border_subtitle = "↑↓ scroll · v or Esc closes"
            yield Static(id="chain-text")

    def content(self, width: int) -> Group:
        step = self.step
        parts: list[Text] = [Text.assemble((step.level, "dim"), (f" · rating {rating_text(step)}", "dim"), "\n",
                                           step.explanation, "\n", (step.changes(self.grid_size), "bold"))]
        several = len(step.chain) > 1
        for number, chain in enumerate(step.chain, 1):
            head = f"chain {number} of {len(step.chain)}" if several else "chain"
            lines = wrap_pieces(chain_pieces(chain), width)
            parts.append(Text.assemble(("\n" + head + "\n", "dim"), ("\n".join(lines), "bold")))
        if step.links:
            table = Text("\nlinks (= strong: if one is false the other is true; "
                         "- weak: if one is true the other is false)", style="dim")
            for number, link in enumerate(step.links, 1):
                table.append(f"\n{number:>3}. {link_text(link, self.grid_size)}")
            parts.append(table)
        return Group(*parts)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()

    def on_resize(self) -> None:
        # The chains break between links at the width the view has (the terminal's, up to 100).
        width = self.query_one(VerticalScroll).scrollable_content_region.width
        self.query_one("#chain-text", Static).update(self.content(max(20, width)))

    def action_scroll(self, where: str) -> None:
        scroll = self.query_one(VerticalScroll)
        if where == "down":
            scroll.scroll_down()
        else:
            scroll.scroll_up()
