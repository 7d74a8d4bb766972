"""Key bindings and how to read the engine's panels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

HELP = """\
# Keys

| key | what it does |
|---|---|
| arrows, h j k l | move the cursor |
| Enter, Space, click | play the cell (tic-tac-toe) |
| u | undo (back to your last turn) |
| n | new game |
| o | game options (board, variant, opponent, who starts) |
| i | hint: the best move for whoever is to move |
| c | compare: re-run the last search with every algorithm |
| s | show or hide the search statistics |
| t | show or hide the search tree (Tab moves between board and tree) |
| ? | this help |
| Escape | back to the menu; q in the menu quits |

**Connect-4**: ← → (h l) move the column cursor, Enter / Space / ↓ drop a disc, 1–7 drop
straight into a column; the hint lists every column's value counted in your own moves
("wins in 3", "draw", "loses in 7").

**Checkers**: Enter (or a click) on one of your pieces picks it — only pieces that can move
are underlined, only capturers when a capture is compulsory — then Enter on each landing
square in turn (a multi-jump one jump at a time; the squares it may reach are highlighted).
Escape puts the piece back. You can also type the move in PDN: `11-15`, `15x24x31`, then
Enter. d offers a draw (the computer accepts when it is not better), f turns the board,
the key # shows the square numbers, w saves the game as PDN, r loads one.

**Sudoku**: 1–9 write a digit, 0 / Backspace / Delete / x clear; p or Enter switches pencil
mode (digits then toggle pencil marks), Shift+digit always toggles a mark; m pencils in every
candidate. u undo, Ctrl+R redo, without limit. i shows the next human step and highlights
it — i again plays it; c checks your digits against the solution; S (capital) lets the SAT
solver fill the grid; Space pauses the clock; n starts a new puzzle (generated at a grade,
from the collections, a file, or a pasted line).

**The Lab** (l in the menu, L in a game): *Arena* plays two computer players against each
other — r (or Enter in a field) runs, x or Escape cancels, Enter on a game replays it with
← → (Home/End: start/end), e writes the games as CSV. Players as on the command line:
`perfect`, `level5`, `random`, `rule-based`, `strong`, `baseline` …; Connect-4 adds
`:simple` or `:aware` for the heuristic, `@2` gives a player 2 s a move. *Compare* (c) runs
minimax, alpha-beta, + ordering, + TT and + deepening at depths 1..D on the game's position
or a library one: states, cutoffs, time, root value, and a bar per algorithm (a log scale
when the counts spread). a goes back to the arena.

# The search panel

*nodes* positions visited, *depth* plies searched (max: the deepest line),
*cutoffs* times alpha-beta stopped looking at a position's remaining moves,
*TT hits* positions answered from the transposition table.
A score is from the side to move: *win in 5* means the game is won 5 plies from now,
*+12* is a heuristic estimate at the search horizon.

# The search tree

Each line: the move, MAX (the player to move at the top) or MIN (the opponent),
its value from the top player's side, and the alpha-beta window it was searched with.
*≥ v* or *≤ v* is a bound: the search proved only that much, which was enough.
★ marks the move chosen at that node; ✂ lists the moves never searched because a
sibling already refuted the position (the cutoffs).
Press Escape to close this help.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 78; height: 90%; border: round $accent; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(HELP)

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
