"""Floods of the lobby's newer surfaces under --register open, where any stranger with a fresh
key is a player: tournaments created and joined by many keys from one address (and by one key
many times), tournaments made only to be cancelled, big finished arenas read at each list (and
at each start with the operator's schedule), the name the operator's tournaments are made
under, ``events`` streams held by one player or one address, and the puzzle of the day
answered again and again.

One server for the module (its limits lowered so that a flood is a few dozen logins); each
test floods from addresses of its own on loopback, so their counts do not meet. The floods
are asyncssh's client; what must get in, or be told why not in one line, is the real OpenSSH
client.
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import shutil

import pytest
import pytest_asyncio
from ssh_support import key_file, key_for, ssh_command, started_server, wait_until

asyncssh = pytest.importorskip("asyncssh")

from tui_games.daily import AnswerError, judge, puzzle  # noqa: E402
from tui_games.server.lobby import tournament_commands  # noqa: E402
from tui_games.server.lobby.puzzles import MAX_ANSWER, MOST_ATTEMPTS, server_day  # noqa: E402
from tui_games.server.lobby.tournament import TournamentLimits  # noqa: E402

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.e2e,
              pytest.mark.skipif(os.name != "posix", reason="the SSH server needs POSIX ptys"),
              pytest.mark.skipif(shutil.which("ssh") is None, reason="the OpenSSH client is not installed")]

# 20 tournaments open or running at most (50 by default) and 12 players a tournament (64); an
# address holds 8% of the server's 300 connections: 24, past a player's 16.
LIMITS = TournamentLimits(open_tournaments=20, players=12)
CREATE = "tournament create tictactoe --swiss 1 --clock 1+0"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("floods") / "server"
    logs: list[str] = []
    served = await started_server(root, logs.append, house="none", zygote=False, address_share=8,
                                  tournament_limits=LIMITS)
    try:
        yield served
    finally:
        await served.close()


async def command(port: int, user: str, line: str, source: str) -> tuple[int, str, str]:
    """``line`` run by ``user`` (their own key) with asyncssh's client from ``source``."""
    async with asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, config=None, agent_path=None,
                                client_keys=[key_for(user)], local_addr=(source, 0)) as conn:
        done = await conn.run(line)
    return done.exit_status, done.stdout, done.stderr


async def flood(port: int, runs: list[tuple[str, str]], source: str) -> list[tuple[int, str, str]]:
    """Every (user, command) of ``runs`` from ``source``, ten at a time."""
    said: list[tuple[int, str, str]] = []
    for start in range(0, len(runs), 10):
        said += await asyncio.gather(*(command(port, user, line, source) for user, line in runs[start:start + 10]))
    return said


async def register(port: int, users: list[str], source: str) -> None:
    """Each fresh key claims its name (one login each, so none is counted twice)."""
    for status, _, err in await flood(port, [(user, "who") for user in users], source):
        assert status == 0, err


def finish_all(server, ids) -> None:
    """The tournaments a test made end now: the next test finds the server's places free."""
    tournaments = tournament_commands.of(server.lobby)
    for tournament_id in ids:
        with server.lobby.transaction():
            row = tournaments.get(tournament_id, lock=True)
            if row.status != "over":
                tournaments._finish(row, "the test is over")


def live_ids(server) -> set[str]:
    return {row.id for row in tournament_commands.of(server.lobby).live()}


# -- tournaments -----------------------------------------------------------------------------------

async def test_fresh_keys_from_one_address_cannot_take_every_tournament_place(server, tmp_path):
    """Ten fresh keys from one address create two tournaments each: without a cap per address
    they took all 20 places (50 by default: three addresses' keys of an hour's registrations),
    for a day each, and nobody else could create one. One address's players may have 10% of
    the places (never fewer than a player's 2); the rest are told why in one line. One key
    asking six times at once still gets its 2."""
    before = live_ids(server)
    users = [f"tc{number}" for number in range(10)]
    await register(server.port, users, "127.0.0.11")
    try:
        said = await flood(server.port, [(user, CREATE) for user in users for _ in range(2)], "127.0.0.11")
        created = [out for status, out, _ in said if status == 0]
        refused = [err for status, _, err in said if status != 0]
        assert len(created) == 2, refused[:3]
        assert all(err == "tui-games: your address's players have 2 tournaments open or running already (at most "
                          "2 from one address); try again when one is over\n" for err in refused), refused[:3]
        # Someone from another address creates one: the real client, at once.
        identity, _ = key_file(tmp_path, "tcperson")
        status, out, err = await ssh_command(server.port, "tcperson", identity, CREATE + " --json",
                                             source="127.0.0.12")
        assert status == 0, err
        assert json.loads(out)["creator"] == "tcperson"
        # One key, six at once: its two, then one line each.
        said = await flood(server.port, [("tcsolo", CREATE)] * 6, "127.0.0.13")
        assert sorted(status for status, _, _ in said) == [0, 0, 2, 2, 2, 2]
        assert all("you have 2 tournaments open or running already" in err for status, _, err in said if status)
    finally:
        finish_all(server, live_ids(server) - before)


async def test_fresh_keys_from_one_address_cannot_fill_a_tournament(server, tmp_path):
    """Twelve fresh keys from one address join one tournament of 12 places (64 by default):
    without a cap per address they filled it and the next player was told it was full. One
    address holds 25% of a tournament's places (never fewer than 4, a household); the rest are
    told why in one line, and a player from elsewhere joins. One key joining three times at
    once is in once."""
    identity, _ = key_file(tmp_path, "tsperson")
    status, out, err = await ssh_command(server.port, "tsperson", identity, CREATE + " --json", source="127.0.0.22")
    assert status == 0, err
    tournament = json.loads(out)["id"]
    try:
        users = [f"ts{number}" for number in range(12)]
        await register(server.port, users, "127.0.0.21")
        said = await flood(server.port, [(user, f"tournament join {tournament}") for user in users], "127.0.0.21")
        joined = [out for status, out, _ in said if status == 0]
        refused = [err for status, _, err in said if status != 0]
        assert len(joined) == 4, refused[:3]
        assert all(err == f"tui-games: {tournament} has 4 players from your address already (at most 4 from one "
                          "address)\n" for err in refused), refused[:3]
        said = await flood(server.port, [("tsperson", f"tournament join {tournament}")] * 3, "127.0.0.22")
        assert sorted(status for status, _, _ in said) == [0, 2, 2]
        assert all(f"tsperson is in {tournament} already" in err for status, _, err in said if status)
        other, _ = key_file(tmp_path, "tsother")
        status, out, err = await ssh_command(server.port, "tsother", other, f"tournament join {tournament} --json",
                                             source="127.0.0.23")
        assert status == 0, err
        assert len(json.loads(out)["players"]) == 6
    finally:
        finish_all(server, [tournament])


async def test_the_apps_of_one_address_are_held_to_the_same_share(server, tmp_path):
    """The app joins by the lobby socket, with the secret its session was given; the session's
    address comes with it, so five apps' players from one address are held to the same 4."""
    from tui_games.online.client import LobbyClient, LobbyUnavailable

    identity, _ = key_file(tmp_path, "taperson")
    status, out, err = await ssh_command(server.port, "taperson", identity, CREATE + " --json", source="127.0.0.25")
    assert status == 0, err
    tournament = json.loads(out)["id"]
    apps: list[LobbyClient] = []
    tokens: list[str] = []
    try:
        for number in range(5):
            server.lobby.seen(f"ta{number}")
            path, token = server.session_host.lobby_seat(f"ta{number}", False, "127.0.0.26")
            tokens.append(token)
            apps.append(LobbyClient(path, token, lambda event: None))
            await apps[-1].connect()
        for app in apps[:4]:
            await app.request("tournament-join", tournament=tournament)
        with pytest.raises(LobbyUnavailable, match=f"{tournament} has 4 players from your address already"):
            await apps[4].request("tournament-join", tournament=tournament)
    finally:
        for app in apps:
            await app.close()
        for token in tokens:
            server.session_host.revoke(token)
        finish_all(server, [tournament])


async def test_a_tournament_made_to_be_cancelled_is_not_kept_for_each_time(server, tmp_path):
    """Created to start at once with nobody in it, a tournament is cancelled within a second,
    and its creator may create another: each was a row in the lobby's database for ever (a
    key doing it all day: ~170,000 rows). Of a player's tournaments cancelled unplayed only
    the latest is kept (`show` tells its creator why it ended)."""
    identity, _ = key_file(tmp_path, "churn")
    storage = server.lobby.storage
    made: list[str] = []
    for _ in range(4):
        status, out, err = await ssh_command(server.port, "churn", identity, CREATE + " --starts-in 0 --json",
                                             source="127.0.0.31")
        assert status == 0, err
        made.append(json.loads(out)["id"])
        await wait_until(lambda: (row := storage.tournament(made[-1])) is not None and row.status == "over", 60,
                         "the director to cancel it")
    assert [storage.tournament(tournament_id) is None for tournament_id in made] == [True, True, True, False]
    status, out, err = await ssh_command(server.port, "churn", identity, f"tournament show {made[-1]}",
                                         source="127.0.0.31")
    assert status == 0 and b"over (cancelled: fewer than two players)" in out, err


def finished_arenas(server, prefix: str, count: int, starts: float) -> list[str]:
    """``count`` finished arenas of 64 players and 2,000 games (250 KB each), started from
    ``starts`` on: their ids."""
    from tui_games.server.lobby.storage import TournamentRow

    players = [{"name": f"tl{n}", "rating": 1500.0, "withdrawn": False, "joined": 0.0} for n in range(64)]
    games = [{"id": f"tl{n:06d}", "round": n + 1, "first": f"tl{n % 64}", "second": f"tl{(n + 1) % 64}",
              "result": 1.0, "berserk": [], "plies": [5, 4]} for n in range(2000)]
    data = {"variant": {}, "clock": "1+0", "duration": 120.0, "players": players, "games": games, "byes": {},
            "round": 0, "ends": 1.0, "reason": "its time is up", "ended": 1.0, "scheduled": None}
    ids = [f"{prefix}{number:03x}" for number in range(count)]
    with server.lobby.transaction():
        for number, tournament in enumerate(ids):
            server.lobby.storage.add_tournament(TournamentRow(tournament, "big arena", "arena", "tictactoe", "tl0",
                                                              "over", starts, starts + number, data, []))
    return ids


def documents_read(monkeypatch) -> list[str]:
    """The ids of the tournaments read whole from storage from now on."""
    from tui_games.server.lobby import storage as storage_module

    read: list[str] = []
    real = storage_module._tournament_row

    def counted(row):
        read.append(row[0])
        return real(row)

    monkeypatch.setattr(storage_module, "_tournament_row", counted)
    return read


async def test_listing_tournaments_reads_no_finished_arena_whole_again(server, tmp_path, monkeypatch):
    """`tournament list` read the 200 latest tournaments whole: 200 finished arenas of 2,000
    games (two keys resigning at once make one in minutes) were 2.0 s of the lobby's CPU and
    311 MB at each list (measured in process on SQLite, load 20), and a player may list 30
    times a second. It reads the live ones and the latest 10 finished; a finished one, which
    never changes, once (kept without its games): 45 ms the first time, 0.6 ms after."""
    big = finished_arenas(server, "tfff", 30, server.lobby.clock() + 86400)  # the latest, whatever else there is
    read = documents_read(monkeypatch)
    identity, _ = key_file(tmp_path, "tlreader")
    for _ in range(2):
        read.clear()
        status, out, err = await ssh_command(server.port, "tlreader", identity, "tournament list --json",
                                             source="127.0.0.35")
        assert status == 0, err
        listed = json.loads(out)
        finished = [t for t in listed if t["status"] == "over"]
        assert [t["id"] for t in finished] == big[:-11:-1] and all(t["players"] == 64 for t in finished)
        assert len(set(read) & set(big)) <= 10
    assert not set(read) & set(big), "a finished tournament read whole again"


async def test_a_restart_with_the_operators_schedule_reads_no_finished_tournament(server, monkeypatch):
    """At each start the operator's schedule (serve --tournament FILE) read up to 10,000
    tournaments whole to know which of its entries were made: with finished arenas of 2,000
    games, 250 KB each, 2.5 GB. An entry whose start has passed is skipped whether made or not,
    so only the open and running ones are read."""
    from tui_games.server.lobby.tournament_file import Scheduled, schedule

    big = finished_arenas(server, "tfee", 20, 1.0)
    tournaments = tournament_commands.of(server.lobby)
    entries = [Scheduled(f"Weekly {number}", "tictactoe", "arena", "30m", "1+0", server.lobby.clock() + 3600 * number)
               for number in (-1, 1)]
    with server.lobby.transaction():
        [made] = schedule(tournaments, entries)
    read = documents_read(monkeypatch)
    with server.lobby.transaction():
        assert schedule(tournaments, entries) == []  # a restart makes none again
    assert not set(read) & set(big)
    finish_all(server, [made])


async def test_a_stranger_named_server_does_not_own_the_operators_tournaments(server, tmp_path):
    """The operator's tournaments (serve --tournament FILE) are created as "server", a name
    any fresh key could register: it then started them early and seated or unseated their
    house players as their creator. The operator's are nobody's to run by command."""
    from tui_games.server.lobby.tournament_file import Scheduled, schedule

    tournaments = tournament_commands.of(server.lobby)
    seat = "house:tictactoe-perfect"
    entry = Scheduled("Operator's arena", "tictactoe", "arena", "30m", "1+0", server.lobby.clock() + 3600,
                      house=(seat,))
    with server.lobby.transaction():
        [tournament] = schedule(tournaments, [entry])
    try:
        source = "127.0.0.37"
        for user in ("so1", "so2"):
            identity, _ = key_file(tmp_path, user)
            status, out, err = await ssh_command(server.port, user, identity, f"tournament join {tournament}",
                                                 source=source)
            assert status == 0, err
        identity, _ = key_file(tmp_path, "server")
        for line in (f"tournament start {tournament}", f"tournament withdraw {tournament} --house {seat}",
                     f"tournament join {tournament} --house house:tictactoe-magic-square"):
            status, out, err = await ssh_command(server.port, "server", identity, line, source=source)
            assert status == 2 and err.decode().count("\n") == 1, (line, err)
            assert f"{tournament} is the operator's (serve --tournament)" in err.decode(), (line, err)
        row = tournaments.get(tournament)
        assert row.status == "open" and [p["name"] for p in row.data["players"]] == [seat, "so1", "so2"]
    finally:
        finish_all(server, [tournament])


# -- events streams --------------------------------------------------------------------------------

class Stream:
    """``events --json`` held open by asyncssh's client: refused (a line on stderr, an exit) or
    let in (subscribed, and silent until something is addressed to its player)."""

    def __init__(self, user: str, conn, process) -> None:
        self.user, self.conn, self.process = user, conn, process
        self.err = ""
        self.ended = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            self.err = await self.process.stderr.read()
            await self.process.wait()
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.ended.set()

    async def close(self) -> None:
        self.conn.abort()
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


async def events(port: int, user: str, source: str) -> Stream:
    conn = await asyncssh.connect("127.0.0.1", port, username=user, known_hosts=None, config=None, agent_path=None,
                                  client_keys=[key_for(user)], local_addr=(source, 0))
    return Stream(user, conn, await conn.create_process("events --json"))


async def test_event_streams_are_bounded_per_player_and_per_address(server, tmp_path):
    """Twenty `events --json` of one player and ten of another, from one address: 16 of the
    first (a player's connections) and 8 of the second (the address's 24) are let in, the rest
    told why in one line; the player's and the address's next login are refused in one line
    with the real client, someone from another address gets in, and once the streams are
    closed the player is welcome again."""
    source, bus = "127.0.0.41", server.lobby.events
    opened: list[Stream] = []

    def settled(user: str, count: int) -> bool:
        mine = [s for s in opened if s.user == user]
        return len(mine) == count and bus.subscribers(user) + sum(s.ended.is_set() for s in mine) == count

    try:
        for user, count in (("ev0", 20), ("ev1", 10)):
            for start in range(0, count, 10):
                done = min(count, start + 10)
                opened += await asyncio.gather(*(events(server.port, user, source) for _ in range(start, done)))
                await wait_until(lambda user=user, done=done: settled(user, done), 60,
                                 f"{user}'s streams to be let in or refused")
        assert (bus.subscribers("ev0"), bus.subscribers("ev1")) == (16, 8)
        refused = [s.err for s in opened if s.ended.is_set()]
        assert len(refused) == 6
        assert sum(err.startswith("tui-games: ev0 already has 16 connections open (at most 16 a player") for err in
                   refused) == 4
        assert sum(err.startswith("tui-games: your address already has 24 connections open (at most 24") for err in
                   refused) == 2
        for user, said in (("ev0", "ev0 already has 16 connections open"),
                           ("ev2", "your address already has 24 connections open")):
            identity, _ = key_file(tmp_path, user)
            status, out, err = await ssh_command(server.port, user, identity, "events --json", source=source)
            assert status == 1 and err.decode().count("\n") == 1 and said in err.decode(), err
        carol, _ = key_file(tmp_path, "evcarol")
        status, out, err = await ssh_command(server.port, "evcarol", carol, "who", source="127.0.0.42")
        assert status == 0, err
    finally:
        await asyncio.gather(*(stream.close() for stream in opened))
    await wait_until(lambda: not bus.subscribers("ev0") and not server.held_by_player["ev0"], 60,
                     "the streams to close")
    identity, _ = key_file(tmp_path, "ev0")
    status, out, err = await ssh_command(server.port, "ev0", identity, "who", source=source)
    assert status == 0, err


# -- the puzzle of the day -------------------------------------------------------------------------

def wrong_answers(game: str, day: datetime.date) -> list[str]:
    """Moves of today's puzzle that can be played and do not solve it."""
    made = puzzle(game, day)
    wrong = []
    for cell in (f"{column}{row}" for column in "abc" for row in "123"):
        try:
            if not judge(made, cell).correct:
                wrong.append(cell)
        except AnswerError:  # an occupied cell: no answer
            pass
    return wrong


async def test_the_puzzle_counts_three_answers_a_day_however_they_come(server, tmp_path):
    """Six wrong answers at once from one player: three are judged and counted, three refused
    in one line; an answer past 200 characters is refused and counts nothing; nobody answers
    for another player: mal logging in as bob with his own key is refused, and an option
    naming a player is no option."""
    source = "127.0.0.51"
    day, _ = server_day(server.lobby)
    wrong = wrong_answers("tictactoe", day)
    assert wrong
    identity, _ = key_file(tmp_path, "bob")
    status, out, err = await ssh_command(server.port, "bob", identity, "puzzle tictactoe", source=source)
    assert status == 0, err
    for line, said in ((f"puzzle tictactoe --answer {'b' * (MAX_ANSWER + 1)}",
                        f"tui-games: an answer has at most {MAX_ANSWER} characters\n"),
                       (f"puzzle tictactoe --answer {wrong[0]} --player mal",
                        "tui-games: unrecognized arguments: --player mal\n")):
        status, out, err = await ssh_command(server.port, "bob", identity, line, source=source)
        assert (status, out, err.decode()) == (2, b"", said)
    mal, _ = key_file(tmp_path, "mal")
    status, out, err = await ssh_command(server.port, "bob", mal, f"puzzle tictactoe --answer {wrong[0]}",
                                         source=source)
    assert status == 255, err  # Permission denied
    assert not [row for row in server.lobby.storage.puzzle_days("tictactoe", day.isoformat()) if row.attempts]
    said = await flood(server.port, [("bob", f"puzzle tictactoe --answer {wrong[n % len(wrong)]}")
                                     for n in range(6)], source)
    assert sorted(status for status, _, _ in said) == [1] * MOST_ATTEMPTS + [2] * (6 - MOST_ATTEMPTS)
    assert all(err.startswith("tui-games: no attempts left at today's tictactoe puzzle") and err.count("\n") == 1
               for status, _, err in said if status == 2)
    [row] = server.lobby.storage.puzzle_days("tictactoe", day.isoformat())
    assert (row.player, row.attempts, row.solved) == ("bob", MOST_ATTEMPTS, None)
