"""The starting file ``tui-games new-bot GAME`` writes: a random bot, then a minimax to finish."""

from __future__ import annotations

# Per game: how its moves look, a depth the plain minimax finishes quickly at, and what the
# built-in evaluation is there to be replaced by.
GAME_NOTES = {
    "tictactoe": (
        "an int, the cell row * cols + col (0 is a1, the top left);\n"
        '#   position.mark_at(cell) is "X", "O" or ".", position.rows, .cols, .k, .misere',
        9,
        "lines still open for each side, a fork",
    ),
    "connect4": (
        "an int, the column 0-6; position.can_play(col), position.height(col),\n"
        "#   position.cell(row, col) is 0, 1 or None (row 0 at the bottom)",
        4,
        "threats (three discs and a hole in a line of four), the centre column",
    ),
    "checkers": (
        "a Move from position.legal_moves() (str(move) is PDN: 11-15, 15x24x31);\n"
        "#   position.piece_at(square) for squares 1-32, position.counts()",
        4,
        "material (a man 100, a king 150), men close to crowning, the back rank",
    ),
}

TEMPLATE = '''\
"""My {title} bot for tui-games.

Play it:
    tui-games arena {game} --a {path} --b random --games 20
    tui-games arena {game} --a {path}:minimax_choose --b level2 --games 20
    tui-games tournament {game} {path} {path}:minimax_choose level2 random

What a position offers (docs/bots.md has all of it):
    position.turn             the side to move: 0 moves first, 1 the other
    position.legal_moves()    the moves the side to move may play
    position.push(move)       play a move;  position.pop() takes it back
    position.outcome()        None while the game goes on; else outcome.value_for(side)
                              is +1 if side won, -1 if it lost, 0 for a draw
    position.evaluate()       the built-in heuristic, from the side to move
    position.key(), position.copy()
A move here is {moves}

The position you get is your own copy. Return one of position.legal_moves(); an exception, an
illegal move, a print() or an answer after the move's budget loses the game (with the reason),
and the run goes on. Write debugging output to sys.stderr, not stdout.
"""

import random

# Step 1: a random bot. It runs as it is: play it against random and watch it lose half.


def choose(position):
    return random.choice(position.legal_moves())


# Step 2: minimax, in negamax form (a score is always from the side to move's point of view).
# Finish score(), then play minimax_choose (PATH.py:minimax_choose), or rename it to choose.

WIN = 1_000_000
DEPTH = {depth}


def score(position):
    """How good ``position`` is for the side to move, when the search stops looking deeper.

    Yours to write: {idea}. The built-in evaluation stands in until then.
    """
    return position.evaluate()


def negamax(position, depth, ply=0):
    outcome = position.outcome()
    if outcome is not None:
        # A win sooner is better than a win later (and a loss later better than sooner).
        return outcome.value_for(position.turn) * (WIN - ply)
    if depth == 0:
        return score(position)
    best = -2 * WIN
    for move in position.legal_moves():
        position.push(move)
        best = max(best, -negamax(position, depth - 1, ply + 1))
        position.pop()
    return best


def minimax_choose(position):
    best_move, best_value = None, None
    for move in position.legal_moves():
        position.push(move)
        value = -negamax(position, DEPTH - 1, 1)
        position.pop()
        if best_value is None or value > best_value:
            best_move, best_value = move, value
    return best_move


# Step 3: alpha-beta. Pass (alpha, beta) down: stop looking at a node's moves as soon as one
# scores at least beta (the opponent will never let the game get here), and search the best
# move of the last search first. Or hand your score() to the project's own search:
#     tui-games arena {game} --a level6:{path} --b level6
# calls a function named evaluate(position) from this file (rename score to evaluate).
'''


def template(game: str, title: str, path: str) -> str:
    """The starting file for ``game`` to be written at ``path``."""
    moves, depth, idea = GAME_NOTES.get(game, ("whatever position.legal_moves() gives", 3, "your idea"))
    return TEMPLATE.format(game=game, title=title, path=path, moves=moves, depth=depth, idea=idea)
