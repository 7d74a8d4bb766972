"""The puzzle of the day (tui_games/daily): a function of the date alone, the same in another
process, and each answer proven: Connect-4's by a brute force that shares nothing with the
solver but the rules, tic-tac-toe's by the tests' own oracle, checkers' by the endgame
tables, Sudoku's by the SAT solver; and a wrong answer refuted by the reply that beats it."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
import ttt_oracle

from tui_games.daily import GAMES, AnswerError, daily_game, judge, parse_day, puzzle
from tui_games.daily.checkers import tables
from tui_games.daily.connect4 import WEEK as C4_WEEK
from tui_games.daily.sudoku import WEEK as SUDOKU_WEEK
from tui_games.engine.checkers.egdb import LOSS, WIN
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.connect4.position import Connect4
from tui_games.engine.sudoku import sat
from tui_games.engine.sudoku.grading import logic_grade
from tui_games.engine.sudoku.grid import Grid
from tui_games.engine.tictactoe.position import TicTacToe

ROOT = Path(__file__).resolve().parents[2]
DAY = datetime.date(2026, 12, 2)  # a Wednesday
WEEK = [datetime.date(2026, 11, 30) + datetime.timedelta(days=d) for d in range(7)]  # Monday first


def test_the_same_day_gives_the_same_puzzle_in_another_process_with_another_hash_seed():
    code = ("import json, datetime; from tui_games.daily import GAMES, puzzle; "
            "print(json.dumps({g: puzzle(g, datetime.date(2026, 12, 2)).data() for g in GAMES}))")
    # The other process makes the day's puzzles while this one makes its own (on another core).
    other = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=tempfile.gettempdir(), env={**os.environ, "PYTHONHASHSEED": "99"})
    try:
        here = {game: puzzle(game, DAY).data() for game in GAMES}
        out, err = other.communicate(timeout=600)
    finally:
        other.kill()
        other.wait()
    assert other.returncode == 0, err
    assert json.loads(out) == json.loads(json.dumps(here))


def test_the_days_differ_and_the_json_holds_what_the_issue_asks():
    for game in GAMES:
        data = puzzle(game, DAY).data()
        assert {"game", "date", "position", "goal"} <= data.keys() and data["date"] == "2026-12-02"
        assert not {"solution", "line"} & data.keys()  # the answer is what the player is to find
        assert len({puzzle(game, d).position for d in WEEK}) >= 5, game


def test_pinned_positions_do_not_drift():
    """A past day's puzzle is history (leaderboards point at it): these must never change."""
    assert puzzle("connect4", DAY).position == "4646323737742623"
    assert puzzle("tictactoe", DAY).position == "..X/.OX/.O."
    assert puzzle("checkers", DAY).position == "W:WK13,19:B1,5"


def _forces_four(pos: Connect4, moves: int) -> bool:
    """Brute force, no solver: the side to move makes four within ``moves`` of its moves
    whatever the other side replies."""
    for col in pos.legal_moves():
        if pos.is_winning_move(col):
            return True
    if moves == 1:
        return False
    for col in pos.legal_moves():
        pos.push(col)
        replies = pos.legal_moves()
        held = bool(replies) and all(_reply_loses(pos, r, moves - 1) for r in replies)
        pos.pop()
        if held:
            return True
    return False


def _reply_loses(pos: Connect4, reply: int, moves: int) -> bool:
    if pos.is_winning_move(reply):
        return False
    pos.push(reply)
    try:
        return _forces_four(pos, moves)
    finally:
        pos.pop()


@pytest.mark.parametrize("day", [d for d in WEEK if C4_WEEK[d.weekday()] <= 3])
def test_connect4_win_in_n_checked_by_brute_force(day):
    made = puzzle("connect4", day)
    n = made.details["moves"]
    assert made.goal.endswith(f"win in {n}") and n == C4_WEEK[day.weekday()]
    pos = Connect4.parse(made.position)
    assert not _forces_four(pos, n - 1), "wins faster than the goal says"
    for col in pos.legal_moves():
        pos.push(col)
        replies = pos.legal_moves()
        wins = not pos.outcome() and bool(replies) and all(_reply_loses(pos, r, n - 1) for r in replies)
        pos.pop()
        assert wins == (str(col + 1) == made.solution), f"column {col + 1}"
    line = Connect4.parse(made.position + "".join(made.line))
    assert line.outcome() is not None and line.outcome().winner == pos.turn and len(made.line) == 2 * n - 1


def test_connect4_a_wrong_column_is_refuted_by_the_reply_that_saves_the_opponent():
    made = puzzle("connect4", DAY)
    pos = Connect4.parse(made.position)
    wrong = [str(c + 1) for c in pos.legal_moves() if str(c + 1) != made.solution]
    assert judge(made, made.solution).correct
    for answer in wrong:
        verdict = judge(made, answer)
        assert not verdict.correct and verdict.refutation and f"answers {verdict.refutation}" in verdict.why
        after = Connect4.parse(made.position + answer + verdict.refutation)
        # After the refutation the mover no longer wins in the moves left.
        assert not _forces_four(after, made.details["moves"] - 1), answer
    with pytest.raises(AnswerError, match="one column, 1-7"):
        judge(made, "8")


def test_connect4_an_answer_may_go_on_to_the_win_against_the_best_defence():
    made = puzzle("connect4", DAY)
    mine = made.line[0::2]
    first = judge(made, mine[0])
    assert first.correct and not first.finished and first.line == made.line[:2]
    whole = judge(made, " ".join(mine))
    assert whole.correct and whole.finished and whole.line == made.line
    assert judge(made, "".join(mine)) == whole.__class__(**{**whole.__dict__, "answer": " ".join(mine)})
    # A second move that lets the win slip is refuted where it fails.
    pos = Connect4.parse(made.position + "".join(made.line[:2]))
    slip = next(str(c + 1) for c in pos.legal_moves() if not _forces_four_after(pos, c, len(mine) - 1))
    verdict = judge(made, f"{mine[0]} {slip}")
    assert not verdict.correct and verdict.line == (*made.line[:2], slip) and "answers" in verdict.why
    with pytest.raises(AnswerError, match="the game is over"):
        judge(made, " ".join(mine) + " 1")


def _forces_four_after(pos: Connect4, col: int, moves: int) -> bool:
    if pos.is_winning_move(col):
        return True
    pos.push(col)
    try:
        replies = pos.legal_moves()
        return bool(replies) and all(_reply_loses(pos, r, moves) for r in replies)
    finally:
        pos.pop()


def test_tictactoe_an_answer_may_go_on_until_the_defender_must_make_three():
    made = puzzle("tictactoe", DAY)
    whole = judge(made, " ".join(made.line[0::2]))
    assert whole.correct and whole.finished and whole.line == made.line
    pos = TicTacToe.parse(made.position + "", 3, misere=True)
    for move in made.line:
        pos.push(pos.parse_move(move))
    assert pos.outcome().winner == TicTacToe.parse(made.position, 3, misere=True).turn


@pytest.mark.parametrize("day", WEEK[:3])
def test_tictactoe_misere_win_checked_by_the_oracle(day):
    made = puzzle("tictactoe", day)
    pos = TicTacToe.parse(made.position, 3, misere=True)
    assert ttt_oracle.solve(pos)[0] == 1
    results = ttt_oracle.move_results(pos)
    assert [pos.move_name(m) for m, (value, _) in results.items() if value == 1] == [made.solution]
    for move, (value, _) in results.items():
        verdict = judge(made, pos.move_name(move))
        assert verdict.correct == (value == 1)
        if verdict.refutation:  # the reply leaves the mover no win, by the oracle
            after = pos.copy()
            after.push(move)
            after.push(after.parse_move(verdict.refutation))
            assert ttt_oracle.solve(after)[0] < 1
    with pytest.raises(AnswerError, match="taken"):
        judge(made, next(pos.move_name(c) for c in range(9) if c not in pos.legal_moves()))


@pytest.mark.parametrize("day", WEEK[:4])
def test_checkers_win_proven_by_the_tables(day):
    made = puzzle("checkers", day)
    db = tables()
    pos = CheckersPosition.parse(made.position)
    assert db.probe(pos) == WIN and len(pos.legal_moves()) >= 2
    for move in pos.legal_moves():
        pos.push(move)
        lost_for_them = db.probe(pos) == LOSS
        pos.pop()
        verdict = judge(made, str(move))
        assert verdict.correct == lost_for_them == (str(move) == made.solution)
        if not verdict.correct:
            pos.push(move)
            pos.push(pos.parse_move(verdict.refutation))
            assert db.probe(pos) != WIN  # the mover's win is gone
            pos.pop()
            pos.pop()
    with pytest.raises(AnswerError, match="answer"):
        judge(made, "1-2")


def test_sudoku_climbs_the_week_and_its_answer_is_the_one_solution():
    grades = [puzzle("sudoku", day).details["grade"] for day in WEEK]
    # An advanced day that finds no advanced puzzle in ADVANCED_GRIDS grids is extreme instead.
    assert all(g == want or (want, g) == ("advanced", "extreme") for g, want in zip(grades, SUDOKU_WEEK)), grades
    assert grades[:3] == ["trivial", "basic", "intermediate"] and grades[-1] == "extreme"
    assert "advanced" in grades
    made = puzzle("sudoku", DAY)
    grid = Grid([0 if ch == "." else int(ch) for ch in made.position])
    result = sat.solve(grid)
    assert result.status is sat.Status.UNIQUE and "".join(map(str, result.solution)) == made.solution
    assert logic_grade(grid).level == made.details["grade"]
    assert judge(made, made.solution).correct
    swapped = made.solution[1] + made.solution[0] + made.solution[2:]
    verdict = judge(made, swapped)
    assert not verdict.correct and ("twice" in verdict.why or "is a clue" in verdict.why)
    with pytest.raises(AnswerError, match="81 digits"):
        judge(made, "123")


def test_bad_names_are_one_line_errors():
    with pytest.raises(ValueError, match="no puzzle of the day for 'chess'"):
        daily_game("chess")
    with pytest.raises(ValueError, match="is not a day like"):
        parse_day("2026-02-30")


def test_every_game_of_the_table_has_a_daily_puzzle():
    from tui_games.games import game_keys

    assert list(GAMES) == list(game_keys())


def test_a_day_asked_for_by_two_threads_at_once_is_made_once(monkeypatch):
    """The lobby makes puzzles in its executor's threads and a day's first requests come
    together: the second waits for the first's puzzle instead of making it again."""
    from tui_games.daily import cache, connect4

    day = datetime.date(2031, 3, 4)  # no other test's: not in the cache yet
    real_find = connect4.Connect4Daily.find
    calls: list[int] = []
    first_in, second, release = threading.Event(), threading.Event(), threading.Event()

    def find(self, rng, n):
        calls.append(n)
        if len(calls) == 1:
            first_in.set()
            assert release.wait(60)
        else:
            second.set()  # made a second time: what the test catches
        return real_find(self, rng, n)

    class SeenLock:
        """A day's lock that says when a second request waits on it."""

        def __init__(self) -> None:
            self.lock = threading.Lock()

        def __enter__(self) -> None:
            if self.lock.locked():
                second.set()
            self.lock.acquire()

        def __exit__(self, *exc) -> None:
            self.lock.release()

    monkeypatch.setattr(cache, "Lock", SeenLock)
    monkeypatch.setattr(connect4.Connect4Daily, "find", find)
    results = []
    threads = [threading.Thread(target=lambda: results.append(connect4.CONNECT4.make(day))) for _ in range(2)]
    threads[0].start()
    assert first_in.wait(60)
    threads[1].start()
    assert second.wait(60)  # the second request waits for the day, or makes it again
    release.set()
    for thread in threads:
        thread.join()
    assert len(calls) == 1 and len(results) == 2 and results[0] is results[1]
