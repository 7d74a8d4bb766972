"""A tic-tac-toe bot: plain minimax to the end of the game, with a memo of the positions seen.

    tui-games arena tictactoe --a examples/tictactoe_minimax.py --b perfect --games 10

Minimax gives every position its value with best play by both sides: +1 when the side to move
wins, -1 when it loses, 0 for a draw. The 3×3 game has only 5,478 positions, so remembering
each one's value (by ``position.key()``) makes the whole tree cost a fraction of a second, once;
it never loses, and against ``perfect`` every game is a draw.
"""

WIN = 100  # a win now is worth 100; each ply later, one less (win fast, lose slowly)

memo = {}


def value(position):
    """The value of ``position`` for the side to move (minimax in negamax form)."""
    key = position.key()
    if key in memo:
        return memo[key]
    outcome = position.outcome()
    if outcome is not None:
        # The game is over: +1/-1/0 for the side to move, scaled.
        best = WIN * outcome.value_for(position.turn)
    else:
        best = -WIN - 1
        for move in position.legal_moves():
            position.push(move)
            # What is good for the opponent is bad for us; -1 a ply prefers the quicker win.
            score = -value(position)
            position.pop()
            score -= 1 if score > 0 else -1 if score < 0 else 0
            best = max(best, score)
    memo[key] = best
    return best


def choose(position):
    """The move with the best minimax value (the first of equal ones)."""
    best_move, best_score = None, None
    for move in position.legal_moves():
        position.push(move)
        score = -value(position)
        position.pop()
        if best_score is None or score > best_score:
            best_move, best_score = move, score
    return best_move
