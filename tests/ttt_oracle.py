"""An independent brute-force tic-tac-toe solver for the tests: plain memoised negamax with
no pruning, no table tricks and no symmetry, so it shares nothing with the engine's search
but the rules (push/pop/outcome: one move generator per game)."""

from __future__ import annotations

from tui_games.engine.tictactoe import TicTacToe


def solve(pos: TicTacToe, memo: dict | None = None) -> tuple[int, int]:
    """(value, plies) for the side to move: +1/0/-1, and the plies to the end when the
    winner wins fastest and the loser holds out longest (a draw fills the board)."""
    memo = {} if memo is None else memo
    key = pos.key()
    if key in memo:
        return memo[key]
    outcome = pos.outcome()
    if outcome is not None:
        answer = (outcome.value_for(pos.turn), 0)
    else:
        answer = max((rank(*child_result(pos, m, memo)) for m in pos.legal_moves()))[1]
    memo[key] = answer
    return answer


def child_result(pos: TicTacToe, move: int, memo: dict) -> tuple[int, int]:
    """(value, plies) for the side to move at ``pos`` after playing ``move``."""
    pos.push(move)
    value, plies = solve(pos, memo)
    pos.pop()
    return -value, plies + 1


def rank(value: int, plies: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """A sort key (bigger is better) paired with the result: win fast, lose slow."""
    return ((value, -plies if value > 0 else plies), (value, plies))


def move_results(pos: TicTacToe, memo: dict | None = None) -> dict[int, tuple[int, int]]:
    memo = {} if memo is None else memo
    return {m: child_result(pos, m, memo) for m in pos.legal_moves()}


def reachable(pos: TicTacToe) -> list[TicTacToe]:
    """Every position reachable from ``pos`` with the game still running (``pos`` included)."""
    seen: set = set()
    found: list[TicTacToe] = []

    def walk() -> None:
        key = pos.key()
        if key in seen or pos.outcome() is not None:
            return
        seen.add(key)
        found.append(pos.copy())
        for m in pos.legal_moves():
            pos.push(m)
            walk()
            pos.pop()

    walk()
    return found
