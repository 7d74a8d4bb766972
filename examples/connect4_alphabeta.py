"""A Connect-4 bot: alpha-beta, deepening one ply at a time while its budget lasts, judging the
horizon by counting threats.

    tui-games arena connect4 --a examples/connect4_alphabeta.py@1 --b level3 --games 10

A *threat* is a window of four cells (a row, a column or a diagonal) holding three discs of one
side and an empty cell: one move from a four. The evaluation is my threats minus yours, with
the centre column's discs as a small tie-break. The search is negamax with alpha-beta pruning,
the centre columns first (they take part in the most fours, so the cut-offs come early).
"""

WIN = 10_000
ROWS, COLUMNS = 6, 7
ORDER = (3, 2, 4, 1, 5, 0, 6)  # the centre first

# Every window of four cells, as (row, column) cells.
WINDOWS = []
for r in range(ROWS):
    for c in range(COLUMNS):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
            cells = [(r + i * dr, c + i * dc) for i in range(4)]
            if all(0 <= rr < ROWS and 0 <= cc < COLUMNS for rr, cc in cells):
                WINDOWS.append(cells)


class OutOfTime(Exception):
    pass


def threats(position):
    """(threats of the side to move, threats of the other side)."""
    me = position.turn
    mine = yours = 0
    for cells in WINDOWS:
        held = [position.cell(r, c) for r, c in cells]
        if held.count(None) == 1:
            if held.count(me) == 3:
                mine += 1
            elif held.count(1 - me) == 3:
                yours += 1
    return mine, yours


def evaluate(position):
    """From the side to move: threats count 10 each, a centre disc 1."""
    mine, yours = threats(position)
    centre = sum(
        1 if position.cell(r, 3) == position.turn else -1 for r in range(ROWS) if position.cell(r, 3) is not None
    )
    return 10 * (mine - yours) + centre


class AlphaBeta:
    def __init__(self):
        self.nodes = 0

    def search(self, position, depth, alpha, beta, ply, budget):
        self.nodes += 1
        if self.nodes % 256 == 0 and budget.cpu_left() < 0.05:
            raise OutOfTime
        outcome = position.outcome()
        if outcome is not None:
            value = outcome.value_for(position.turn)
            return value * (WIN - ply)
        if depth == 0:
            return evaluate(position)
        best = -2 * WIN
        for move in (m for m in ORDER if position.can_play(m)):
            position.push(move)
            score = -self.search(position, depth - 1, -beta, -alpha, ply + 1, budget)
            position.pop()
            if score > best:
                best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break  # the opponent will not let us get here
        return best

    def choose(self, position, budget):
        moves = [m for m in ORDER if position.can_play(m)]
        for move in moves:  # a four now: play it
            if position.is_winning_move(move):
                return move
        best = moves[0]
        depth = 1
        try:
            while depth <= 42 - len(position.history):
                scores = {}
                for move in moves:
                    position.push(move)
                    scores[move] = -self.search(position, depth - 1, -2 * WIN, 2 * WIN, 1, budget)
                    position.pop()
                best = max(moves, key=lambda m: scores[m])
                # Search the best move first next time.
                moves = sorted(moves, key=lambda m: -scores[m])
                depth += 1
        except OutOfTime:
            pass  # the deepest finished depth's move stands
        return best
