"""Floods of the lobby's newer surfaces under --register open, where any stranger with a fresh
key is a player: tournaments created and joined by many keys from one address (and by one key
many times), tournaments made only to be cancelled, ``events`` streams held by one player or
one address, and the puzzle of the day answered again and again.

One server for the module (its limits lowered so that a flood is a few dozen logins); each
test floods from addresses of its own on loopback, so their counts do not meet. The floods
are asyncssh's client; what must get in, or be told why not in one line, is the real OpenSSH
client.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil

import pytest
import pytest_asyncio
from ssh_support import key_file, key_for, ssh_command, started_server, wait_until

asyncssh = pytest.importorskip("asyncssh")

from tui_games.server.lobby import tournament_commands  # noqa: E402
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
