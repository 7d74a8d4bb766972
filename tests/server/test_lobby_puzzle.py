"""The puzzle of the day in the lobby (issue 58), with the real OpenSSH client against two
``serve --ssh`` processes sharing one lobby (a SQLite file, then PostgreSQL): the puzzle the
same on both front ends and offline, its answer proven (Connect-4's by the exact solver,
checkers' by the endgame tables), a wrong answer told why, the attempts bounded across front
ends, the solve time from the first look, streaks and the day's leaderboard; and hostile
input refused in one line."""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

import json_schema_check
import pytest
from serve_support import ServeProcess, absolute_pythonpath
from ssh_support import key_file, ssh_command

pytest.importorskip("asyncssh")

from tui_games.daily import judge, parse_day, puzzle  # noqa: E402
from tui_games.daily.checkers import tables  # noqa: E402
from tui_games.daily.connect4 import own_moves  # noqa: E402
from tui_games.engine.checkers.egdb import LOSS, WIN  # noqa: E402
from tui_games.engine.checkers.position import CheckersPosition  # noqa: E402
from tui_games.engine.connect4.position import Connect4  # noqa: E402
from tui_games.engine.connect4.solver import Solver  # noqa: E402
from tui_games.server.lobby.backends import open_storage  # noqa: E402
from tui_games.server.lobby.puzzles import MOST_ATTEMPTS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
needs_ssh = pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")
SCHEMA = json.loads((ROOT / "docs" / "schemas" / "puzzle.json").read_text())


def conforms(data):
    """``data`` is a document of docs/schemas/puzzle.json; returned for the asserts."""
    assert json_schema_check.errors(data, SCHEMA) == [], data
    return data


_offline: dict[tuple[str, ...], tuple[int, str]] = {}


async def offline(*argv: str) -> tuple[int, str]:
    """``tui-games puzzle ARGV`` in a process of its own, from the installed package. Its output
    is a function of ARGV alone (a day is given), whichever lobby the test runs on: one run of
    each serves both backends' tests."""
    if argv not in _offline:
        done = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui_games", "puzzle", *argv, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, cwd=tempfile.gettempdir(), env={**os.environ, **absolute_pythonpath()})
        out, err = await asyncio.wait_for(done.communicate(), 300)
        _offline[argv] = done.returncode, (out + err).decode()
    return _offline[argv]


@needs_ssh
async def test_the_puzzle_across_two_front_ends_and_offline(lobby_database, tmp_path):
    fronts = [ServeProcess(tmp_path / name, lobby_database, env={"TZ": "UTC"}) for name in ("one", "two")]
    keys = {name: key_file(tmp_path, name)[0] for name in ("alice", "bob", "carol")}

    async def run(front: ServeProcess, user: str, command: str, expect: int | None = 0) -> str:
        # A front end's first puzzle of a game is made as it is asked for (the checkers tables
        # built, the solver run) in that process: on a busy machine that is more than a minute.
        status, out, err = await ssh_command(front.port, user, keys[user], command, timeout=300)
        if expect is not None:
            assert status == expect, (command, out, err)
        return (out + err).decode()

    try:
        await asyncio.gather(*(front.start() for front in fronts))
        one, two = fronts
        shown = {}
        for game in ("connect4", "checkers", "tictactoe"):
            # Both front ends at once (each makes the puzzle in its own process; her first look
            # is recorded once whichever comes first), then the same day offline.
            said = await asyncio.gather(*(run(front, "alice", f"puzzle {game} --json") for front in fronts))
            seen = [conforms(json.loads(text)) for text in said]
            assert seen[0] == seen[1] and seen[0]["zone"] == "time zone UTC, UTC+00:00"
            shown[game] = seen[0]
        made_offline = await asyncio.gather(*(offline(game, "--date", seen["date"], "--json")
                                              for game, seen in shown.items()))
        for (code, text), seen in zip(made_offline, shown.values()):
            assert code == 0 and {k: v for k, v in seen.items() if k != "zone"} == json.loads(text)
        day = parse_day(shown["connect4"]["date"])
        assert day == datetime.datetime.now(datetime.timezone.utc).date() or day == (
            datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=5)).date()  # near midnight
        text = await run(one, "alice", "puzzle connect4")
        assert text.splitlines()[0] == f"connect4 puzzle of {day} (time zone UTC, UTC+00:00)"

        # Connect-4: the answer proven by the exact solver, from the position the server showed.
        c4 = puzzle("connect4", day)
        pos = Connect4.parse(shown["connect4"]["position"])
        n = shown["connect4"]["moves"]
        root = Solver().root(pos)
        assert root.best == [int(c4.solution) - 1] and own_moves(root.score, pos.moves) == n
        answered = conforms(json.loads(await run(two, "alice", f"puzzle connect4 --answer {c4.solution} --json")))
        assert answered["verdict"]["correct"] and answered["streak"] == 1 and answered["attempts"] == 1
        assert answered["seconds"] is not None and answered["seconds"] >= 0  # from her first look, on the other front
        refused = await run(one, "alice", f"puzzle connect4 --answer {c4.solution}", expect=2)
        assert "solved today's connect4 puzzle already" in refused and len(refused.splitlines()) == 1

        # A wrong answer is told why: the reply the solver finds, after which no win in N is left.
        wrong = next(str(c + 1) for c in pos.legal_moves() if str(c + 1) != c4.solution)
        said = await run(one, "bob", f"puzzle connect4 --answer {wrong}", expect=1)
        verdict = judge(c4, wrong)
        assert said.splitlines()[0] == f"wrong: {verdict.why}" and f"{MOST_ATTEMPTS - 1} attempts left" in said
        after = Connect4.parse(pos.format() + wrong + verdict.refutation)
        left = own_moves(Solver().solve(after).score, after.moves)
        assert left is None or left > n - 1  # no win in the moves left

        # The attempts are bounded across both front ends; the last wrong one shows the answer.
        await run(two, "bob", f"puzzle connect4 --answer {wrong}", expect=1)
        last = await run(one, "bob", f"puzzle connect4 --answer {wrong} --json", expect=1)
        assert conforms(json.loads(last))["solution"] == c4.solution and json.loads(last)["attempts_left"] == 0
        over = await run(two, "bob", f"puzzle connect4 --answer {c4.solution}", expect=2)
        assert f"no attempts left at today's connect4 puzzle ({MOST_ATTEMPTS} a day)" in over

        # Checkers: the server's right answer is the tables' one winning move.
        ck = puzzle("checkers", day)
        board = CheckersPosition.parse(shown["checkers"]["position"])
        db = tables()
        assert db.probe(board) == WIN
        board.push(board.parse_move(ck.solution))
        assert db.probe(board) == LOSS
        right = await run(one, "carol", f"puzzle checkers --answer {ck.solution}")
        assert right.startswith(f"right: {ck.solution} keeps the win") and "streak 1 day" in right

        board = conforms(json.loads(await run(two, "carol", "puzzle leaderboard connect4 --json")))
        assert [e["player"] for e in board["entries"]] == ["alice"] and board["entries"][0]["streak"] == 1
        text = await run(one, "bob", "puzzle leaderboard checkers")
        assert "1 solved" in text and "carol" in text

        # Hostile input: one line each, nothing recorded.
        for command, problem in (("puzzle chess", "no puzzle of the day for 'chess'"),
                                 ("puzzle ../../etc/passwd", "no puzzle of the day"),
                                 ("puzzle checkers --answer " + "1" * 300, "at most 200 characters"),
                                 ("puzzle checkers --answer '9-14\x1b[2J'", "answer"),
                                 ("puzzle tictactoe --answer zz", "answer"),
                                 ("puzzle leaderboard", "give one game"),
                                 ("puzzle connect4 checkers", "give one game")):
            said = await run(one, "bob", command, expect=2)
            assert problem in said and len(said.strip().splitlines()) == 1 and "\x1b" not in said, (command, said)
    finally:
        for front in fronts:
            await front.kill()
    storage = open_storage(lobby_database)
    try:
        rows = {(r.player, r.attempts) for r in storage.puzzle_days("checkers", day.isoformat())}
        # Bob's refused answers counted nothing (his first look started his clock, no more).
        assert rows == {("carol", 1), ("alice", 0), ("bob", 0)}
    finally:
        storage.close()


async def test_a_streak_counts_consecutive_days_and_survives_the_open_day(tmp_path):
    """Days solved, with the lobby's clock moved day by day (no OpenSSH needed for the arithmetic)."""
    import random

    from tui_games.server.lobby import commands
    from tui_games.server.lobby.hub import Lobby

    now = [datetime.datetime(2026, 12, 1, 12, tzinfo=datetime.timezone.utc).timestamp()]
    lobby = Lobby(open_storage(str(tmp_path / "lobby.sqlite3")), clock=lambda: now[0], rng=random.Random(1))
    out: list[str] = []

    async def answer_today() -> int:
        day = datetime.datetime.fromtimestamp(now[0]).astimezone().date()
        result = commands.run(lobby, "dora", f"puzzle tictactoe --answer {puzzle('tictactoe', day).solution} --json")
        return await result.stream(out.append)

    try:
        for _ in range(3):
            assert await answer_today() == 0
            now[0] += 86400
        assert json.loads(out[-1])["streak"] == 3
        # The next day still open: the streak stands; a day missed: it is gone.
        result = commands.run(lobby, "dora", "puzzle leaderboard tictactoe --json")
        assert json.loads(result.stdout)["entries"] == []
        now[0] += 86400
        assert await answer_today() == 0 and json.loads(out[-1])["streak"] == 1
    finally:
        lobby.storage.close()
