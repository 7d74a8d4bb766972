"""How to play each game: the rules, the notation, and what the numbers on screen mean.

The help screen shows these first, the current game's on top when ``?`` is pressed in a game.
"""

from __future__ import annotations

RULES: dict[str, str] = {
    "tictactoe": """\
# How to play Tic-tac-toe

**Rules.** X and O take turns to mark an empty cell; X moves first. Whoever gets *k* marks in
a row — across, down or diagonally — wins (3×3, 3 in a row is the classic game; o sets boards
from 3×3 to 7×7 and *k*). A full board without a row is a draw. **Misère** (reverse rules):
whoever completes a row *loses*.

**Notation.** A cell is its column letter and row number, as the board's edges show them:
`a1` top left, `b2` the centre of 3×3.

**The numbers.** *perfect* searches to the end of the game on boards of up to 16 cells (4×4):
its *win in 5* / *loss in 4* count plies (one mark each) and are proven. On bigger boards no
search finishes in a move's time: the opponent is called *deep search*, searches as deep as
its time allows, and its scores (*+12*) are estimates at the search horizon, marked
*not proven*.
""",
    "connect4": """\
# How to play Connect-4

**Rules.** Seven columns, six rows. Players drop a disc in turn (● first, then ○); it falls to
the lowest free cell of the column. Four in a row — across, down or diagonally — wins; a full
board without one is a draw. With perfect play the first player wins, starting in the centre,
with the 41st disc. **Full-board variant** (o): the game goes on until the board is full,
every four counts, and whoever made more fours wins; there is no exact solver for it, so the
strongest opponent is a *deep search*.

**Notation.** Columns are 1–7 from the left; a game is the columns played, in order:
`4453` is ● 4, ○ 4, ● 5, ○ 3.

**The numbers.** The hint under the board gives each column's exact value *in your own
moves*: *wins in 3* means your third disc from now wins, *loses in 7* that the opponent wins
after your seventh, *draw*. The search panel counts *plies* instead (both sides' discs):
*win in 5* is five discs from now. *score +14* is the solver's value in the standard
convention: a win with one's k-th disc scores 22 − k (so a faster win scores more), a loss
the negative, a draw 0. *solved (book)*: the value came from the opening book of every
12-disc position; *solved*: from the exact solver. *not solved*: only without the compiled
solver, a hard position ran out of time and the move is the heuristic search's best guess.
""",
    "checkers": """\
# How to play Checkers

**Rules** (American checkers, English draughts). Play is on the 32 dark squares; Black
moves first. A man steps one square diagonally *forward*. A capture jumps an adjacent enemy
piece to the empty square behind it, and **capturing is compulsory**: when any capture is
possible you must capture (any one you like), and a capture goes on jump after jump until the
piece can take nothing more. A man reaching the far row is crowned a **king** (B, W) — its
move ends there — and kings move and capture backwards too. You lose when you have no piece
or no legal move. **Draws**: the same position three times with the same side to move; the
**40-move rule** — 40 moves by each side with no capture and no man moved; or by agreement
(d offers one).

**Notation** (PDN). The dark squares are numbered 1–32, from Black's side: 1–4 is Black's
back row, 29–32 White's (# shows the numbers on the board, beside each piece). A move is
`11-15`; a capture `15x24`, a double jump `15x24x31`. Type one and press Enter.

**The numbers.** Scores are from the side to move, in hundredths of a man (*+100* is a man
ahead) and estimates unless shown as *win in N* (N plies, one move of either side each).
""",
    "sudoku": """\
# How to play Sudoku

**Rules.** Fill every empty cell with a digit so that each row, each column and each 3×3 box
holds every digit 1–9 once. A good puzzle has exactly one solution, and it can be found by
reasoning alone.

**Notation.** A cell is `r4c7` (row 4, column 7); a hint says what it does: *place 7 at
r4c6*, *remove 3 from r2c5, r2c7*. A chain reads like `(2=6)r1c4-(6)r2c4`: *=* a strong link
(if one is false the other is true), *-* a weak one (both cannot be true).

**The numbers.** A hint names the technique and its rating on Sudoku Explainer's scale
(1.0–11; higher is harder); a puzzle's grade is its hardest step. Your time counts while the
puzzle is on screen (Space pauses). A puzzle finished after a hint played with i is counted as
*with hints* in Scores and is never a best time; one filled by the solver (S) is not counted.
""",
}


def rules_for(game: str | None) -> list[str]:
    """Every game's section, ``game``'s first."""
    order = sorted(RULES, key=lambda key: key != game)
    return [RULES[key] for key in order]
