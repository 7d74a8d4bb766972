"""Several front ends sharing one lobby (issue 26), on each backend: SQLite (one file, one
machine) and PostgreSQL (a real server started by the tests, see pg_support.py). The same
game from seek to rating on both; a move's check-and-write atomic across front ends; ratings
counted once; changes pushed from one front end's apps to another's; the clocks' lease taken
over when its holder dies, and a flag still falls; presence across front ends; the DSN's
password never shown."""

from __future__ import annotations

import asyncio
import random
import threading
import time

import pytest
from lobby_support import join

from tui_games.server.lobby import commands
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.frontend import FrontEnd
from tui_games.server.lobby.house import House, parse_house
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.hub_socket import HubSocket
from tui_games.server.lobby.storage import SCHEMA_VERSION, GameRow, redact


def test_a_game_from_seek_to_rating_on_either_backend(lobby_database):
    storage = open_storage(lobby_database)
    lobby = Lobby(storage, rng=random.Random(3))
    try:
        for name in ("alice", "bob"):
            lobby.seen(name)
        offer = lobby.seek("alice", "connect4", colour="first")
        row = lobby.accept("bob", offer.id)
        with pytest.raises(LobbyError, match="it is alice's move"):
            lobby.move("bob", row.id, "4")
        for column in "4455667":
            row = lobby.move(lobby.to_move(row), row.id, column)
        assert row.status == "over" and row.winner == 0
        again = open_storage(lobby_database)  # another front end reads what this one wrote
        assert again.game(row.id).moves == list("4455667") and again.game(row.id).status == "over"
        assert again.rating("alice", "connect4")[1] == 1 and again.rating("bob", "connect4")[0].rating < 1500
        assert [h.id for h in Lobby(again).history("bob")] == [row.id]
        assert commands.run(Lobby(again), "carol", f"export {row.id}").stdout == "4455667\n"
        again.close()
    finally:
        storage.close()


def test_the_schema_is_versioned_and_reopening_keeps_everything(lobby_database):
    storage = open_storage(lobby_database)
    lobby = Lobby(storage)
    offer = lobby.seek("alice", "tictactoe", rated=False)
    storage.close()
    again = open_storage(lobby_database)  # a second start runs the migrations again: nothing changes
    assert [o.id for o in again.offers()] == [offer.id]
    if lobby_database.startswith("postgresql"):
        assert again.db.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
    else:
        assert again.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    again.close()


def _race(lobby_database, actions) -> list:
    """Run each action(lobby) at the same moment, each on a front end (a connection) of its own."""
    barrier = threading.Barrier(len(actions))
    results: list = [None] * len(actions)

    def run(index: int, action) -> None:
        storage = open_storage(lobby_database)
        try:
            lobby = Lobby(storage)
            barrier.wait()
            try:
                results[index] = action(lobby)
            except LobbyError as error:
                results[index] = error
        finally:
            storage.close()

    threads = [threading.Thread(target=run, args=(i, action)) for i, action in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


def test_two_front_ends_taking_a_move_at_once_take_one(lobby_database):
    """The same player sends two different moves through two front ends at the same moment: one
    is taken, the other is refused as out of turn; the game holds exactly one of them."""
    storage = open_storage(lobby_database)
    lobby = Lobby(storage)
    row = lobby.accept("bob", lobby.seek("alice", "connect4", colour="first").id)
    storage.close()
    game = row.id
    for _ in range(5):  # several times: each race is decided differently
        check = open_storage(lobby_database)
        before = len(check.game(game).moves)
        check.close()
        mover = "alice" if before % 2 == 0 else "bob"
        results = _race(lobby_database, [lambda lobby, m=mover: lobby.move(m, game, "1"),
                                         lambda lobby, m=mover: lobby.move(m, game, "2")])
        taken = [r for r in results if isinstance(r, GameRow)]
        refused = [r for r in results if isinstance(r, LobbyError)]
        assert len(taken) == 1 and len(refused) == 1 and "move in game" in str(refused[0])
        check = open_storage(lobby_database)
        assert len(check.game(game).moves) == before + 1 and check.game(game).moves[-1] == taken[0].moves[-1]
        check.close()


def test_a_flag_seen_by_two_front_ends_at_once_counts_the_ratings_once(lobby_database):
    storage = open_storage(lobby_database)
    now = time.time()
    storage.add_game(GameRow("abc123", "connect4", {}, ("alice", "bob"), "1+0", True, moves=["4", "4"],
                             left=[0.0, 60.0], last_move=now - 1, created=now - 10))
    storage.close()
    results = _race(lobby_database, [lambda lobby: lobby.expire("abc123")] * 4)
    assert all(r.status == "over" and r.reason == "time" for r in results)
    check = open_storage(lobby_database)
    assert check.rating("alice", "connect4")[1] == 1 and check.rating("bob", "connect4")[1] == 1
    check.close()


def test_one_offer_accepted_by_two_front_ends_at_once_starts_one_game(lobby_database):
    storage = open_storage(lobby_database)
    lobby = Lobby(storage)
    for name in ("alice", "bob", "carol"):
        lobby.seen(name)
    offer = lobby.seek("alice", "connect4")
    results = _race(lobby_database, [lambda lobby: lobby.accept("bob", offer.id),
                                     lambda lobby: lobby.accept("carol", offer.id)])
    assert sum(isinstance(r, GameRow) for r in results) == 1
    assert len(storage.games(player="alice")) == 1
    storage.close()


# -- two front ends, each with its socket and its apps ------------------------------------------------

class FrontEnds:
    """Front ends in this process, each with a storage connection, a lobby, a socket and the
    sharing of frontend.py (notices, heartbeat, leases)."""

    def __init__(self, database: str, tmp_path) -> None:
        self.database, self.tmp_path = database, tmp_path
        self.running: list[tuple[HubSocket, FrontEnd]] = []

    async def start(self, name: str, house: str = "none") -> tuple[HubSocket, FrontEnd]:
        storage = open_storage(self.database)
        lobby = Lobby(storage, origin=name)
        hub = HubSocket(lobby, self.tmp_path / f"{name}.sock", run_clocks=False)
        await hub.start()
        frontend = FrontEnd(lobby, hub.clocks, House(lobby, parse_house(house)))
        await frontend.start()
        self.running.append((hub, frontend))
        return hub, frontend

    async def kill(self, hub: HubSocket, frontend: FrontEnd) -> None:
        """As if its process died: no lease given back, no heartbeat any more."""
        for task in frontend._tasks:
            task.cancel()
        await asyncio.gather(*frontend._tasks, return_exceptions=True)
        frontend._tasks = []
        frontend.held.clear()
        await hub.close()
        hub.lobby.storage.close()
        self.running.remove((hub, frontend))

    async def close(self) -> None:
        for hub, frontend in self.running:
            await frontend.close()
            await hub.close()
            hub.lobby.storage.close()


@pytest.fixture
async def fronts(lobby_database, tmp_path):
    made = FrontEnds(lobby_database, tmp_path)
    yield made
    await made.close()


async def until(condition, timeout: float = 20.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_game_across_two_front_ends_with_a_spectator_on_the_second(fronts):
    one, _ = await fronts.start("one")
    two, _ = await fronts.start("two")
    alice, alice_events = await join(one, "alice")
    bob, bob_events = await join(two, "bob")
    carol, carol_events = await join(two, "carol")
    offer = await alice.request("seek", game="connect4", colour="first", rated=False)
    await bob_events.wait("offer", lambda d: d.get("id") == offer["id"])  # alice's seek reached bob's front end
    game = await bob.request("accept", offer=offer["id"])
    await alice_events.wait("game", lambda d: d["id"] == game["id"])
    await carol.request("watch", game=game["id"])
    for number, column in enumerate("4455667"):
        mover = (alice, bob)[number % 2]
        await mover.request("move", game=game["id"], move=column)
        other_events = (bob_events, alice_events)[number % 2]
        await other_events.wait("game", lambda d, n=number: len(d["moves"]) == n + 1)
        await carol_events.wait("game", lambda d, n=number: len(d["moves"]) == n + 1)
    end = await carol_events.wait("game", lambda d: d["status"] == "over")
    assert end["winner"] == "alice" and end["moves"] == list("4455667")
    seen_by_carol = sorted({len(e["data"]["moves"]) for e in carol_events.seen
                            if e["event"] == "game" and e["data"]["id"] == game["id"]})
    assert seen_by_carol[-7:] == [1, 2, 3, 4, 5, 6, 7]  # every move
    # Chat in the game crosses too.
    await alice.request("chat", text="gg", game=game["id"])
    await carol_events.wait("chat", lambda d: d["text"] == "gg" and d["from"] == "alice")
    for client in (alice, bob, carol):
        await client.close()


async def test_the_clocks_move_to_another_front_end_when_their_holder_dies(fronts):
    one, first = await fronts.start("one")
    await until(lambda: "clocks" in first.held, what="the first front end to take the clocks")
    two, second = await fronts.start("two")
    assert "clocks" not in second.held and not second.clocks.timers
    alice, _ = await join(one, "alice")
    bob, bob_events = await join(two, "bob")
    offer = await alice.request("seek", game="connect4", clock="1+0", colour="first")
    game = await bob.request("accept", offer=offer["id"])
    await alice.request("move", game=game["id"], move="4")
    await bob.request("move", game=game["id"], move="4")
    await until(lambda: game["id"] in first.clocks.timers, what="the holder to arm the game's timer")
    await alice.close()
    await fronts.kill(one, first)  # mid-game, with alice's clock running
    # Alice's minute runs out with nobody asking: the second front end takes the clocks over
    # (after the lease's expiry) and the flag falls there.
    for lobby in (two.lobby,):
        lobby.clock = lambda: time.time() + 58.0
    second.lobby.presence.clock = two.lobby.clock
    await until(lambda: "clocks" in second.held, what="the second front end to take the clocks over")
    ended = await bob_events.wait("game", lambda d: d["id"] == game["id"] and d["status"] == "over", timeout=20)
    assert ended["reason"] == "time" and ended["winner"] == "bob"
    row = two.lobby.storage.game(game["id"])
    assert row.moves == ["4", "4"] and row.status == "over"  # nothing acknowledged was lost
    assert two.lobby.storage.rating("bob", "connect4")[1] == 1
    await bob.close()


async def test_the_house_players_sit_on_one_front_end_and_play_people_on_the_other(fronts):
    one, first = await fronts.start("one", house="tictactoe:perfect")
    two, second = await fronts.start("two", house="tictactoe:perfect")
    assert "house" in first.held and "house" not in second.held
    await until(lambda: second.lobby.computers == {"house:tictactoe-perfect": "tictactoe"},
                what="the second front end to know the house players seated on the first")
    bob, bob_events = await join(two, "bob")
    offer = await bob.request("seek", game="tictactoe", colour="first", rated=False)
    started = await bob_events.wait("game", lambda d: "house:tictactoe-perfect" in d["names"], timeout=30)
    await bob.request("move", game=started["id"], move="b2")
    answered = await bob_events.wait("game", lambda d: d["id"] == started["id"] and len(d["moves"]) == 2,
                                     timeout=30)
    assert answered["to_move"] == "bob" and offer["id"]
    await bob.close()


async def test_a_player_on_one_front_end_is_present_on_the_other(fronts):
    one, _ = await fronts.start("one")
    two, _ = await fronts.start("two")
    alice, _ = await join(one, "alice")
    assert one.lobby.presence.away_for("alice") is None
    assert two.lobby.presence.away_for("alice") is None  # her app's session, on the other front end
    await alice.close()
    await until(lambda: one.lobby.presence.open.get("alice") is None, what="her session to close")
    # Gone from both, but she acted just now: present for a minute still, on both.
    assert two.lobby.presence.away_for("alice") is None
    two.lobby.presence.clock = lambda: time.time() + 120.0
    assert two.lobby.presence.away_for("alice") >= 60


async def test_presence_is_written_without_waiting_for_the_disk_and_games_and_ratings_with_it(tmp_path):
    # Issue 27: a login wrote its presence four times (the session and its app's lobby
    # connection, each with its notice to the other front ends), each commit an fsync of the
    # SQLite log (synchronous=FULL) that held the server's loop for 5-15 ms. Presence may be
    # lost in a crash of the machine; a game or a rating may not.
    fronts = FrontEnds(str(tmp_path / "lobby.sqlite3"), tmp_path)
    try:
        one, _ = await fronts.start("one")
        storage = one.lobby.storage
        mode, writes = ["FULL"], []

        def trace(sql: str) -> None:
            if sql.startswith("PRAGMA synchronous="):
                mode[0] = sql.split("=")[1]
            elif sql.startswith(("INSERT", "UPDATE", "DELETE", "COMMIT")):
                writes.append((" ".join(sql.split()[:3]), mode[0]))

        storage.db.set_trace_callback(trace)
        alice, _ = await join(one, "alice")
        bob, _ = await join(one, "bob")
        presence = [write for write in writes if "presence" in write[0] or "feed" in write[0]]
        assert len(presence) >= 4 and {sync for _, sync in presence} == {"NORMAL"}, writes
        writes.clear()
        offer = one.lobby.seek("alice", "connect4", colour="first")
        row = one.lobby.accept("bob", offer.id)
        for column in "4455667":
            row = one.lobby.move(one.lobby.to_move(row), row.id, column)
        assert row.status == "over"
        commits = [sync for statement, sync in writes if statement == "COMMIT"]
        assert commits and set(commits) == {"FULL"}, writes
        assert storage.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL between writes
        await alice.close()
        await bob.close()
    finally:
        await fronts.close()


@pytest.mark.parametrize("dsn, shown", [
    ("postgresql://games:s3cret@db.example.org:5432/lobby", "postgresql://games:***@db.example.org:5432/lobby"),
    ("postgresql://games@db/lobby?password=s3cret&sslmode=require",
     "postgresql://games@db/lobby?password=***&sslmode=require"),
    ("host=db user=games password='se cret' dbname=lobby", "host=db user=games password=*** dbname=lobby"),
    ("postgresql://db/lobby", "postgresql://db/lobby"),
])
def test_a_dsn_is_shown_without_its_password(dsn, shown):
    assert redact(dsn) == shown and "s3cret" not in redact(dsn)


async def test_the_bench_of_two_front_ends_measures_games_within_one_and_across_two(lobby_database):
    from tui_games.bench.server import online_fronts

    latencies = await online_fronts._run(lobby_database, 2, 0.5, seed=1)
    assert latencies["within"] and latencies["across"]  # every game played to its end, both kinds


async def test_the_database_restarting_costs_a_one_line_refusal_and_nothing_else(postgres, tmp_path):
    """PostgreSQL goes away mid-game and comes back: meanwhile a move gets one line saying so
    (nothing changed, no traceback); then the next move is taken and reaches the other front end."""
    fronts = FrontEnds(postgres.new_database(), tmp_path)
    try:
        one, _ = await fronts.start("one")
        two, _ = await fronts.start("two")
        alice, _ = await join(one, "alice")
        bob, bob_events = await join(two, "bob")
        offer = await alice.request("seek", game="connect4", colour="first", rated=False)
        game = await bob.request("accept", offer=offer["id"])
        await alice.request("move", game=game["id"], move="4")
        postgres.stop("fast")
        try:
            out = commands.run(one.lobby, "bob", f"move {game['id']} 4")
            assert out.status == 2 and out.stderr.count("\n") == 1 and "cannot be reached" in out.stderr
            assert "Traceback" not in out.stderr and "hunter" not in out.stderr
        finally:
            postgres.restart()
        moved = await until(lambda: commands.run(two.lobby, "bob", f"move {game['id']} 4").status == 0,
                            what="the move to be taken once the database is back")
        assert moved
        assert one.lobby.storage.game(game["id"]).moves == ["4", "4"]
        await alice.request("move", game=game["id"], move="5")  # alice's front end reconnected too
        await bob_events.wait("game", lambda d: d["moves"] == ["4", "4", "5"], timeout=20)  # NOTIFY again
        await alice.close()
        await bob.close()
    finally:
        await fronts.close()


def test_a_name_claimed_on_one_front_end_is_the_same_player_on_another(lobby_database, tmp_path):
    """Keys in the lobby's database (identity.py): two front ends with directories of their own."""
    asyncssh = pytest.importorskip("asyncssh")
    from tui_games.server.identity import MAX_NAMES_PER_KEY, IdentityError, Registry

    alice, eve = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    # An old front end's file keys are copied in at the first start (bob's, added by the operator).
    old = Registry(tmp_path / "one")
    bob = asyncssh.generate_private_key("ssh-ed25519")
    old.add_key("bob", bob)
    storages = [open_storage(lobby_database), open_storage(lobby_database)]
    try:
        one = Registry(tmp_path / "one", register_open=True, shared=storages[0])
        two = Registry(tmp_path / "two", register_open=True, shared=storages[1])
        assert one.copy_to_shared() == 1 and two.allows("bob", bob) and not two.allows("bob", alice)
        one.claim("alice", alice)
        assert two.allows("alice", alice) and two.names_of(alice) == ["alice"]
        assert not two.allows("alice", eve)
        with pytest.raises(IdentityError, match="belongs to another key"):
            two.claim("alice", eve)
        for number in range(MAX_NAMES_PER_KEY - 1):
            two.claim(f"alice{number}", alice)
        with pytest.raises(IdentityError, match="already owns"):
            one.claim("alice-bot", alice)
        assert not (tmp_path / "two" / "users" / "alice" / "authorized_keys").exists()  # not on the disk
    finally:
        for storage in storages:
            storage.close()


@pytest.mark.parametrize("argv, problem", [
    (["bench", "online", "--lobby", "postgresql://u:pw@db/x"], "--lobby goes with --fronts"),
    (["bench", "tictactoe", "--fronts", "2"], "--fronts does not apply to the tictactoe benchmark"),
    (["serve", "--ssh", "--lobby", "mysql://u:pw@db/x"], "a SQLite file or a postgresql://"),
    (["serve", "--web", "--lobby", "postgresql://u:pw@db/x"], "--lobby is for --ssh"),
])
def test_lobby_and_fronts_options_are_checked_and_a_dsn_is_never_echoed(argv, problem, capsys, home):
    from tui_games.cli import main

    try:
        code = main(argv)
    except SystemExit as error:  # (argparse's own refusals exit)
        code = error.code
    assert code == 2
    err = capsys.readouterr().err
    assert problem in err and "pw" not in err.replace("postgresql://", "")


async def test_a_front_end_that_cannot_reach_its_database_says_so_without_the_password(start_server, postgres):
    from tui_games.server import ServerError

    dsn = f"postgresql://tui:s3cret-pw@127.0.0.1:{postgres.port}/no_such_database"
    with pytest.raises(ServerError) as raised:
        await start_server(lobby=dsn)
    assert "cannot be reached" in str(raised.value) and "s3cret-pw" not in str(raised.value)
    assert "postgresql://tui:***@127.0.0.1" in str(raised.value)


def test_the_dsn_in_the_servers_environment_never_reaches_a_players_app(monkeypatch, tmp_path):
    from tui_games.server.ssh import Player, SSHConfig, session_env

    dsn = "postgresql://games:s3cret-pw@db.example.org/lobby"
    monkeypatch.setenv("TUI_GAMES_LOBBY_DB", dsn)
    config = SSHConfig(root=tmp_path / "server", lobby=dsn)
    env = session_env(config, Player("alice", tmp_path / "alice"), "xterm", {"LANG": "C.UTF-8"},
                      ("/tmp/lobby.sock", "secret"))
    assert not any("s3cret-pw" in value for value in env.values()) and "TUI_GAMES_LOBBY_DB" not in env
