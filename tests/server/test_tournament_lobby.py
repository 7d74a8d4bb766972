"""Tournaments in the lobby (server/lobby/tournament.py) on a real lobby (SQLite and PostgreSQL)
with a clock the test moves: Swiss rounds paired as the last ends, an arena re-pairing at once, berserk, the
absent withdrawn after the grace, the bounds, and the crosstable kept."""

from __future__ import annotations

import pytest
from clock_support import HandClock

from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import FIRST_MOVE_SECONDS, Lobby, LobbyError
from tui_games.server.lobby.storage import TournamentRow
from tui_games.server.lobby.tournament import TournamentLimits, Tournaments, parse_duration


@pytest.fixture
def lobby(lobby_database):
    storage = open_storage(lobby_database)  # SQLite, then PostgreSQL (conftest.py)
    clock = HandClock(1_000_000.0)
    lobby = Lobby(storage, clock=clock)
    lobby.test_clock = clock  # type: ignore[attr-defined]
    yield lobby
    storage.close()


def director(lobby: Lobby, told: list | None = None, **limits) -> Tournaments:
    tournaments = Tournaments(lobby, TournamentLimits(**limits),
                              publish=None if told is None else lambda player, event: told.append((player, event)))
    # What the Director does after each change (here at once, with no event loop).
    lobby.listen(lambda kind, row: tournaments.game_over(row) if kind == "game" and row.status == "over" else None)
    return tournaments


def players(lobby: Lobby, *names: str) -> None:
    for name in names:
        lobby.seen(name)


def started(lobby: Lobby, t: Tournaments, names: tuple[str, ...], game: str, **options) -> TournamentRow:
    """A tournament of ``game`` (``options``: create's) made by the first of ``names``, joined
    by them all, who have been seen in the lobby, and started."""
    players(lobby, *names)
    row = t.create(names[0], game, **options)
    for name in names:
        t.join(name, row.id)
    t.start(names[0], row.id)
    return row


def win(lobby: Lobby, game_id: str, winner: str) -> None:
    """Two first moves, then the loser resigns."""
    row = lobby.game(game_id)
    for _ in range(2):
        position = lobby.position(row)
        from tui_games.games import arena_adapter
        adapter = arena_adapter(row.game)
        move = adapter.move_text(position, next(iter(position.legal_moves())))
        row = lobby.move(row.players[position.turn], row.id, move)
    lobby.resign(row.players[1 - row.players.index(winner)], row.id)


def live_games(t: Tournaments, tid: str) -> list[dict]:
    return [g for g in t.get(tid).data["games"] if g["result"] is None]


def test_a_swiss_of_four_runs_three_rounds_and_keeps_its_crosstable(lobby):
    told: list = []
    t = director(lobby, told)
    row = started(lobby, t, ("ann", "bob", "cat", "dan"), "connect4", kind="swiss", length="3", clock="5+0")
    strength = {"ann": 4, "bob": 3, "cat": 2, "dan": 1}
    for number in (1, 2, 3):
        games = live_games(t, row.id)
        assert len(games) == 2 and {g["round"] for g in games} == {number}
        for g in games:  # the stronger always wins
            win(lobby, g["id"], max(g["first"], g["second"], key=strength.get))
    done = t.get(row.id)
    assert done.status == "over" and done.crosstable is not None
    assert [(s["player"], s["score"]) for s in done.crosstable] == [("ann", 3), ("bob", 2), ("cat", 1), ("dan", 0)]
    met = {frozenset((g["first"], g["second"])) for g in done.data["games"]}
    assert len(met) == 6  # a round robin: nobody met twice
    assert lobby.storage.tournament(row.id).crosstable == done.crosstable  # kept in storage
    assert lobby.storage.rating("ann", "connect4")[1] == 3  # each game rated as usual
    # Each pairing was told to both its players, as the event bus (events.py) carries it.
    assert len(told) == 12 and {player for player, _ in told} == set(strength)
    for player, event in told:
        assert event["event"] == "tournament-pairing" and event["data"]["tournament"] == row.id
        game = next(g for g in done.data["games"] if g["id"] == event["data"]["game"])
        assert player == game[event["data"]["side"]] and event["data"]["opponent"] in (game["first"], game["second"])


def test_an_arena_pairs_again_at_once_and_scores_by_lichess_rules(lobby):
    t = director(lobby, min_arena_seconds=10)
    row = started(lobby, t, ("ann", "bob", "cat", "dan"), "tictactoe", kind="arena", length="10m", clock="1+0")
    first = live_games(t, row.id)
    assert len(first) == 2
    game = first[0]
    winner = game["first"]
    win(lobby, game["id"], winner)
    # The two who finished wait: the only others are playing, and they just met each other.
    assert len(live_games(t, row.id)) == 1
    win(lobby, first[1]["id"], first[1]["first"])
    second = live_games(t, row.id)
    assert len(second) == 2
    assert all(frozenset((g["first"], g["second"])) not in
               {frozenset((f["first"], f["second"])) for f in first} for g in second)
    # Berserk before one's first move halves the clock.
    g = second[0]
    halved = t.berserk(g["first"], g["id"])
    assert halved.left[0] == 30.0
    with pytest.raises(LobbyError, match="already"):
        t.berserk(g["first"], g["id"])
    lobby.test_clock.now += 601  # the arena's time is up
    t.due(row.id)
    over = t.get(row.id)
    assert over.status == "over"
    points = {s["player"]: s["points"] for s in over.crosstable}
    assert points[winner] == 2 and sum(points.values()) == 4  # two wins of 2; the games still on count nothing


def test_an_absent_player_is_withdrawn_after_the_grace(lobby):
    t = director(lobby, grace=120)
    row = started(lobby, t, ("ann", "bob", "cat"), "connect4", kind="swiss", length="2", clock="5+0")
    lobby.test_clock.now += 90
    for name in ("ann", "bob"):
        lobby.seen(name)
    t.due(row.id)
    assert not any(p["withdrawn"] for p in t.get(row.id).data["players"])  # 90 s < the grace
    lobby.test_clock.now += 60
    lobby.seen("ann")
    lobby.seen("bob")
    t.due(row.id)
    gone = {p["name"]: p.get("why") for p in t.get(row.id).data["players"] if p["withdrawn"]}
    assert list(gone) == ["cat"] and "absent" in gone["cat"]


def test_a_first_move_not_made_loses_a_tournament_game_which_cannot_be_aborted(lobby):
    t = director(lobby)
    row = started(lobby, t, ("ann", "bob"), "connect4", kind="swiss", length="1", clock="5+0")
    game = live_games(t, row.id)[0]
    with pytest.raises(LobbyError, match="not aborted"):
        lobby.abort(game["first"], game["id"])
    lobby.test_clock.now += FIRST_MOVE_SECONDS + 1
    lobby.expire(game["id"])
    done = t.get(row.id)
    assert done.status == "over"
    assert {s["player"]: s["score"] for s in done.crosstable} == {game["first"]: 0.0, game["second"]: 1.0}


def test_what_a_player_reaches_is_bounded(lobby):
    t = director(lobby, created_per_player=1, players=2, min_arena_seconds=60)
    players(lobby, "ann", "bob", "cat")
    for kwargs, message in [
        ({"kind": "swiss", "length": "99", "clock": "3+2"}, "1 to 15 rounds"),
        ({"kind": "swiss", "length": "x", "clock": "3+2"}, "rounds"),
        ({"kind": "arena", "length": "10s", "clock": "3+2"}, "an arena lasts"),
        ({"kind": "arena", "length": "99h", "clock": "3+2"}, "an arena lasts"),
        ({"kind": "arena", "length": "soon", "clock": "3+2"}, "not a duration"),
        ({"kind": "arena", "length": "30m", "clock": "none"}, "with a clock"),
        ({"kind": "arena", "length": "30m", "clock": "3+2", "name": "x" * 41}, "1 to 40"),
        ({"kind": "arena", "length": "30m", "clock": "3+2", "name": "\x1b[2J"}, "printable"),
        ({"kind": "arena", "length": "30m", "clock": "3+2", "starts_in": "48h"}, "within"),
        ({"kind": "knockout", "length": "3", "clock": "3+2"}, "not a kind"),
    ]:
        with pytest.raises(LobbyError, match=message):
            t.create("ann", "connect4", **kwargs)
    with pytest.raises(LobbyError, match="not a game"):
        t.create("ann", "chess", kind="swiss", length="3", clock="3+2")
    row = t.create("ann", "connect4", kind="swiss", length="3", clock="3+2")
    with pytest.raises(LobbyError, match="1 tournaments open"):
        t.create("ann", "connect4", kind="swiss", length="3", clock="3+2")
    t.join("ann", row.id)
    with pytest.raises(LobbyError, match="already"):
        t.join("ann", row.id)
    t.join("bob", row.id)
    with pytest.raises(LobbyError, match="full"):
        t.join("cat", row.id)
    with pytest.raises(LobbyError, match="guests"):
        t.join("guest-1234", row.id, guest=True)
    with pytest.raises(LobbyError, match="only ann"):
        t.join("bob", row.id, house="house:connect4-perfect")
    with pytest.raises(LobbyError, match="not a house player"):
        t.join("ann", row.id, house="house:connect4-perfect")
    with pytest.raises(LobbyError, match="only ann"):
        t.start("bob", row.id)
    t.start("ann", row.id)
    with pytest.raises(LobbyError, match="under way"):
        t.join("cat", row.id)
    with pytest.raises(LobbyError, match="no tournament"):
        t.get("t" + "9" * 500)


def test_a_tournament_without_two_players_is_cancelled_at_its_time(lobby):
    t = director(lobby)
    players(lobby, "ann")
    row = t.create("ann", "connect4", kind="arena", length="30m", clock="3+2", starts_in="1m")
    t.join("ann", row.id)
    t.due(row.id)
    assert t.get(row.id).status == "open"
    lobby.test_clock.now += 61
    t.due(row.id)
    assert t.get(row.id).status == "over" and "cancelled" in t.get(row.id).data["reason"]


def test_durations():
    assert parse_duration("30m") == 1800 and parse_duration("1h30m") == 5400 and parse_duration("45s") == 45
    with pytest.raises(LobbyError):
        parse_duration("")


def test_the_house_is_seated_in_no_more_tournaments_than_it_can_serve_in_time(lobby, monkeypatch):
    from tui_games.server.lobby import tournament as tournament_module

    monkeypatch.setattr(tournament_module, "HOUSE_TOURNAMENTS", 1)
    t = director(lobby)
    players(lobby, "ann")
    lobby.computers["house:connect4-perfect"] = "connect4"  # (seated, as house.py does)
    first = t.create("ann", "connect4", kind="arena", length="30m", clock="3+2")
    second = t.create("ann", "connect4", kind="arena", length="30m", clock="3+2")
    t.join("ann", first.id, house="house:connect4-perfect")
    with pytest.raises(LobbyError, match="as many as they can serve in time"):
        t.join("ann", second.id, house="house:connect4-perfect")


def test_an_arena_ends_at_its_most_games(lobby):
    t = director(lobby, arena_games=2)
    row = started(lobby, t, ("ann", "bob", "cat", "dan"), "tictactoe", kind="arena", length="30m", clock="1+0")
    first = live_games(t, row.id)
    win(lobby, first[0]["id"], first[0]["first"])
    assert t.get(row.id).status == "running" and len(live_games(t, row.id)) == 1  # no third game
    win(lobby, first[1]["id"], first[1]["second"])
    over = t.get(row.id)
    assert over.status == "over" and "2 games" in over.data["reason"] and len(over.data["games"]) == 2


def test_berserk_cancels_the_increment(lobby):
    # lichess: "Going Berserk in time controls with an increment also cancels the increment."
    t = director(lobby)
    row = started(lobby, t, ("ann", "bob"), "connect4", kind="arena", length="30m", clock="1+2")
    game = live_games(t, row.id)[0]
    first, second = game["first"], game["second"]
    t.berserk(first, game["id"])
    for mover, column in ((first, "1"), (second, "2"), (first, "1"), (second, "2")):
        lobby.test_clock.now += 1.0
        lobby.move(mover, game["id"], column)
    left = lobby.game(game["id"]).left
    assert left[0] == 30.0 - 1.0  # halved, and its one timed move gained no increment
    assert left[1] == 60.0 - 1.0 + 2.0  # the other keeps the increment
