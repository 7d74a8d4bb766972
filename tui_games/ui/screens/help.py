"""How to play each game, the key bindings, and how to read the engine's panels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from tui_games.games import GAMES
from tui_games.ui.screens.rules import rules_for

_HELP = """\
# Keys

| key | what it does |
|---|---|
| arrows, h j k l | move the cursor |
| Enter, Space, click | play (each game's paragraph below says how) |
| u | undo (back to your last turn) |
| n | new game |
| o | game options (board, variant, opponent, who starts) |
| i | hint: the best move for whoever is to move |
| c | compare: re-run the last search with every algorithm |
| s | show or hide the search statistics |
| t | show or hide the search tree (Tab moves between board and tree) |
| ? | this help |
| Escape | back to the menu; q in the menu quits |
| T | take over your saved games from another session of yours (when this one says READ-ONLY) |

{games}

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
The window, in the same values: *[any]* a full search; *[≥ v]* only a value of at
least v mattered (below v the move was already refuted), *[≤ v]* only one of at most v,
*[v to w]* only one from v to w.
In a proven search *[< draw]* says only a value below a draw mattered.
★ marks the move chosen at that node; ✂ lists the moves never searched because a
sibling already refuted the position (the cutoffs).
Keys in the tree (t puts them there): arrows move, Tab or Space folds a node open
or shut, Enter shows the node's position on the board, e writes the tree to a file
(.json or .dot), Escape goes back to the board.
*v* plays the search back node by node on the board (step mode): into, over, out,
back, run, the next cut-off, each cut-off said in words.
Press Escape to close this help.
"""


def help_text(game: str | None = None) -> str:
    """How to play every game (``game``'s first), then the keys, with each game's paragraph
    from the game table."""
    keys = _HELP.replace("{games}", "\n\n".join(spec.help for spec in GAMES))
    return "\n\n".join([*rules_for(game), keys])


class HelpScreen(ModalScreen[None]):
    """The help; opened from a game (``game``), on that game's own section."""
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 100%; max-width: 100; height: 100%; max-height: 50; border: round $accent; background: $surface;
    }
    """

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Markdown(help_text(self.game))

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()
