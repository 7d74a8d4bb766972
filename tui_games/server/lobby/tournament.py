"""Tournaments in the lobby: Swiss and arena, for every two-player game, with a Fischer clock.

A tournament is created by a player (``tournament create GAME --swiss 5 --clock 3+2`` or
``--arena 30m``) or scheduled by the operator (``serve --tournament FILE``,
tournament_file.py). Players join while it is open (an arena also while it runs); the creator
may seat house players (house.py), who then play their pairings like anyone. It starts at its
time (or when the creator says ``tournament start``) with at least two players; with fewer it
is cancelled.

- **Swiss**: a round at a time, paired by pairing.py (FIDE Dutch basics); the next round is
  paired when every game of the last is over; after the last round (or when nobody can be
  paired any more) it is over. A bye scores a point.
- **Arena**: for its duration, a player whose game ends is paired again at once with someone
  waiting (pairing.arena_pairs); points by lichess's rules (pairing.arena_points); a player
  may go berserk (``tournament berserk GAME``) before their first move: half their clock and
  no increment, a point more for a win. When the time is up the standings freeze: games still being played go
  on as rated games but score nothing.

Every game is rated as usual (Glicko-2, hub.py). A tournament game is not aborted: a first
move not made within hub.FIRST_MOVE_SECONDS loses it for the tournament (unrated, as any
game before both first moves). A player absent (no session open, nothing done) for
``grace`` seconds while it runs is withdrawn: not paired again, their results kept. Once over,
the standings (with every result, the crosstable) are kept in the tournament's row.

The state of a tournament is one JSON document in storage (``tournaments.data``), changed in
the lobby's transactions with the tournament's name held, so commands on any front end and the
director here never write over each other. The director (:class:`Director`) runs where the
lobby's clocks run (frontend.py's lease): it starts tournaments at their time, pairs, ends.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass, replace
from typing import Any, Callable

from tui_games.server.lobby import events as player_events
from tui_games.server.lobby.house import TIMED_PER_WORKER, WORKERS
from tui_games.server.lobby.hub import (
    HOUSE_NAME,
    HOUSE_PREFIX,
    Clock,
    Lobby,
    LobbyError,
    _game_key,
    _shown,
    _variant,
    atomic,
)
from tui_games.server.lobby.pairing import (
    ArenaGame,
    NoPairing,
    SwissGame,
    SwissHistory,
    arena_colours,
    arena_pairs,
    arena_points,
    on_fire,
    swiss_standings,
)
from tui_games.server.lobby.storage import GameRow, StorageUnavailable, TournamentRow
from tui_games.server.log import event

KINDS = ("swiss", "arena")
HOUSE_TOURNAMENTS = TIMED_PER_WORKER * WORKERS  # places of house players in open or running tournaments
FINISHED_LISTED = 10  # finished tournaments in a list, after the open and running ones
HOUSEHOLD = 4  # players behind one address (a family, a club's router) a tournament always has room for
DURATION = re.compile(r"^(?:(?P<h>\d{1,2})h)?(?:(?P<m>\d{1,4})m)?(?:(?P<s>\d{1,5})s)?$")


@dataclass(frozen=True)
class TournamentLimits:
    """What a player may reach; the operator's file is bound by the same, but for the counts."""

    name_length: int = 40
    created_per_player: int = 2  # open or running tournaments one player has created
    joined_per_player: int = 5  # open or running tournaments one player is in
    open_tournaments: int = 50  # open or running, all together
    players: int = 64
    # Under --register open a fresh key is a new player: what one address's players may hold,
    # in percent of the open tournaments (never fewer than a player's) and of one tournament's
    # places (never fewer than a household's).
    address_tournaments: int = 10
    address_places: int = 25
    rounds: int = 15
    min_arena_seconds: float = 60.0  # tests set it lower
    max_arena_seconds: float = 6 * 3600.0
    max_starts_in: float = 24 * 3600.0  # a player's tournament starts within a day
    grace: float = 180.0  # seconds absent while it runs before a player is withdrawn
    # An arena's games: its record (one JSON document, rewritten at each game's end) stays
    # bounded; an arena that reaches them ends there.
    arena_games: int = 2000

    @property
    def created_per_address(self) -> int:
        return max(self.created_per_player, self.open_tournaments * self.address_tournaments // 100)

    @property
    def players_per_address(self) -> int:
        return max(HOUSEHOLD, self.players * self.address_places // 100)


def parse_duration(text: str) -> float:
    """``30m``, ``1h30m``, ``45s``, ``2h`` → seconds; LobbyError otherwise."""
    found = DURATION.fullmatch(str(text).strip().lower())
    if not found or not any(found.groupdict().values()):
        raise LobbyError(f"{_shown(str(text))!r} is not a duration: give e.g. 30m, 1h30m or 90s")
    return int(found["h"] or 0) * 3600.0 + int(found["m"] or 0) * 60.0 + int(found["s"] or 0)


def duration_text(seconds: float) -> str:
    seconds = int(seconds)
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return "".join(f"{v}{u}" for v, u in ((h, "h"), (m, "m"), (s, "s")) if v) or "0s"


def _result_of(row: GameRow, lobby: Lobby) -> float | None:
    """The first player's score in a finished tournament game (an abort: the side that did not
    make its first move loses it); None for one still live."""
    if row.status != "over":
        return None
    if row.reason == "aborted":
        return 0.0 if lobby.position(row).turn == 0 else 1.0
    return {0: 1.0, 1: 0.0, None: 0.5}[row.winner]


# Where a pairing is told to each of its two players: ``publish(player, event)`` with
# ``event = {"event": "tournament-pairing", "data": {...}}``, the shape of the lobby's event
# bus (events.py, ``events --json``): the server passes ``lobby.events.publish``.
Publish = Callable[[str, dict], None]
PAIRING_EVENT = player_events.TOURNAMENT_PAIRING
# Where a creator or an entrant connected from (in the tournament's document while it is live,
# for the caps per address; dropped when it is over).
SOURCE = "from"


class Tournaments:
    """The tournaments' operations, for commands and the app (any front end) and the director."""

    def __init__(self, lobby: Lobby, limits: TournamentLimits | None = None, publish: Publish | None = None) -> None:
        self.lobby = lobby
        self.limits = limits or TournamentLimits()
        self.storage = lobby.storage
        self.publish: Publish = publish or (lambda player, event: None)
        self._finished: dict[str, TournamentRow] = {}  # the listed finished ones, without their games

    # -- reading --------------------------------------------------------------------------------

    def get(self, tournament_id: str, *, lock: bool = False) -> TournamentRow:
        if not isinstance(tournament_id, str):
            raise LobbyError("a tournament is named by its id")
        key = tournament_id.strip().lower()[:20]
        if lock:
            self.storage.lock_names("tournament:" + key)
        row = self.storage.tournament(key, lock=lock)
        if row is None:
            raise LobbyError(f"there is no tournament {_shown(tournament_id)!r}")
        return row

    def listed(self) -> list[TournamentRow]:
        """Open and running tournaments first (soonest first), then the FINISHED_LISTED latest
        finished. A finished one never changes: it is read once and kept without its games
        (an arena's 2,000 are 250 KB; reading the 200 latest whole at each list was 2.2 s of
        the lobby's CPU and 311 MB)."""
        live = sorted(self.live(), key=lambda r: r.starts)
        ids = self.storage.tournament_ids(status="over", limit=FINISHED_LISTED)
        known, self._finished = self._finished, {}
        for tournament_id in ids:
            row = known.get(tournament_id) or self.storage.tournament(tournament_id)
            if row is not None:
                self._finished[tournament_id] = replace(row, data={k: v for k, v in row.data.items() if k != "games"},
                                                        crosstable=None)
        return live + [self._finished[i] for i in ids if i in self._finished]

    def live(self) -> list[TournamentRow]:
        """The open and running tournaments (the finished ones are never read for a cap)."""
        return self.storage.tournaments(status="open", limit=10_000) + self.storage.tournaments(
            status="running", limit=10_000)

    @atomic
    def create_once(self, scheduled: str, make: Callable[[], TournamentRow]) -> TournamentRow | None:
        """``make()`` unless a live tournament was made for ``scheduled`` already: both under the
        tournaments' lock, so front ends starting together make each of the operator's once."""
        self.storage.lock_names("tournaments")
        if any(row.data.get("scheduled") == scheduled for row in self.live()):
            return None
        return make()

    def active(self, row: TournamentRow) -> list[str]:
        return [p["name"] for p in row.data["players"] if not p["withdrawn"]]

    # -- what players do -----------------------------------------------------------------------

    @atomic
    def create(self, player: str, game: str, *, kind: str, length: str, clock: str, name: str | None = None,
               starts_in: str = "5m", variant: str | None = None, operator: bool = False,
               starts_at: float | None = None, scheduled: str | None = None,
               source: str | None = None) -> TournamentRow:
        """A new tournament; ``length`` is the rounds of a Swiss or the duration of an arena.
        ``source`` is where the player connects from (their address, server/limits.source_of):
        its players together are held to a share of the places."""
        key = _game_key(game)
        if kind not in KINDS:
            raise LobbyError(f"{kind!r} is not a kind of tournament: give swiss or arena")
        parsed = Clock.parse(clock)
        if parsed.kind != "fischer":
            raise LobbyError("a tournament is played with a clock: give MINUTES+SECONDS, e.g. 3+2")
        limits = self.limits
        if kind == "swiss":
            if not str(length).isdigit() or not 1 <= int(length) <= limits.rounds:
                raise LobbyError(f"a Swiss has 1 to {limits.rounds} rounds; {_shown(str(length))!r} is not that")
            details: dict[str, Any] = {"rounds": int(length)}
        else:
            seconds = parse_duration(length)
            if not limits.min_arena_seconds <= seconds <= limits.max_arena_seconds:
                raise LobbyError(f"an arena lasts {duration_text(limits.min_arena_seconds)} to "
                                 f"{duration_text(limits.max_arena_seconds)}")
            details = {"duration": seconds}
        label = name if name is not None else f"{key} {kind} by {player.removeprefix(HOUSE_PREFIX)}"
        if not isinstance(label, str) or not label.strip() or len(label) > limits.name_length \
                or not label.isprintable():
            raise LobbyError(f"a tournament's name is 1 to {limits.name_length} printable characters")
        now = self.lobby.clock()
        if starts_at is None:
            delay = parse_duration(starts_in) if str(starts_in).strip() not in ("0", "now") else 0.0
            if delay > limits.max_starts_in and not operator:
                raise LobbyError(f"a tournament starts within {duration_text(limits.max_starts_in)}")
            starts_at = now + delay
        self.storage.lock_names("tournaments")  # the caps hold across front ends
        live = self.live()
        if not operator:
            if sum(r.creator == player for r in live) >= limits.created_per_player:
                raise LobbyError(f"you have {limits.created_per_player} tournaments open or running already "
                                 f"(the most a player may)")
            most = limits.created_per_address
            if source is not None and sum(r.data.get(SOURCE) == source for r in live) >= most:
                raise LobbyError(f"your address's players have {most} tournaments open or running already "
                                 f"(at most {most} from one address); try again when one is over")
            if len(live) >= limits.open_tournaments:
                raise LobbyError(f"{limits.open_tournaments} tournaments are open or running; try later")
        row = TournamentRow(self._new_id(), label.strip(), kind, key, player, "open", now, starts_at,
                            {"variant": _variant(key, variant), "clock": parsed.text, **details,
                             "players": [], "games": [], "byes": {}, "round": 0, "ends": None,
                             "reason": None, "scheduled": scheduled})
        if source is not None and not operator:
            row.data[SOURCE] = source
        self.storage.add_tournament(row)
        self._changed(row)
        return row

    @atomic
    def join(self, player: str, tournament_id: str, *, house: str | None = None, guest: bool = False,
             operator: bool = False, source: str | None = None) -> TournamentRow:
        """Join (or, with ``house``, seat that house player: the creator only); ``source`` as
        for :meth:`create` (a house player has none: its seat is the creator's to give)."""
        row = self.get(tournament_id, lock=True)
        who = player
        if house is not None:
            who = str(house).strip().lower()
            if not operator:
                self._creators_only(row, player, "may seat house players in it")
            if not HOUSE_NAME.fullmatch(who):
                raise LobbyError(f"{_shown(who)!r} is not a house player's name")
            # (the operator's file was checked against --house; the house may not be seated yet)
            if not operator and self.lobby.computers.get(who) != row.game:
                seated = [n for n, g in self.lobby.computers.items() if g == row.game]
                raise LobbyError(f"{_shown(who)!r} is not a house player of {row.game} here"
                                 + (f"; seated: {', '.join(sorted(seated))}" if seated else "; none is seated"))
        elif guest or player.startswith(HOUSE_PREFIX):
            raise LobbyError("tournament games are rated: guests cannot join; log in with a key")
        if row.status == "over" or (row.status == "running" and row.kind == "swiss"):
            raise LobbyError(f"{row.id} is {'over' if row.status == 'over' else 'under way'}: it takes nobody now")
        entry = next((p for p in row.data["players"] if p["name"] == who), None)
        if entry is not None and not entry["withdrawn"]:
            raise LobbyError(f"{who} is in {row.id} already")
        if entry is None and len(row.data["players"]) >= self.limits.players:
            raise LobbyError(f"{row.id} is full ({self.limits.players} players)")
        source = None if house is not None else source
        most = self.limits.players_per_address
        if entry is None and source is not None and sum(p.get(SOURCE) == source for p in row.data["players"]) >= most:
            raise LobbyError(f"{row.id} has {most} players from your address already (at most {most} from one "
                             f"address)")
        self.storage.lock_names("tournaments")
        others = [r for r in self.live() if r.id != row.id]
        if who.startswith(HOUSE_PREFIX):
            # A seat plays one game at a time in each: the house's seats together are in no
            # more tournaments than it has timed games to give (house.py), lest it lose on time.
            places = sum(1 for r in others for p in r.data["players"]
                         if p["name"].startswith(HOUSE_PREFIX) and not p["withdrawn"])
            if places >= HOUSE_TOURNAMENTS:
                raise LobbyError(f"the house players are in {HOUSE_TOURNAMENTS} tournaments already, as many as "
                                 f"they can serve in time; seat one when one of those is over")
        else:
            mine = sum(1 for r in others if any(p["name"] == who and not p["withdrawn"] for p in r.data["players"]))
            if mine >= self.limits.joined_per_player:
                raise LobbyError(f"you are in {self.limits.joined_per_player} tournaments already (the most)")
        self.lobby.act(player)
        if entry is None:
            rating, _ = self.storage.rating(who, row.game)
            row.data["players"].append({"name": who, "rating": round(rating.rating, 1), "withdrawn": False,
                                        "joined": self.lobby.clock()})
            if source is not None:
                row.data["players"][-1][SOURCE] = source
        else:
            entry["withdrawn"] = False
        self.storage.save_tournament(row)
        self._changed(row)
        if row.status == "running":
            self._pair_arena(row)
        return row

    @atomic
    def withdraw(self, player: str, tournament_id: str, *, house: str | None = None,
                 reason: str = "withdrew") -> TournamentRow:
        row = self.get(tournament_id, lock=True)
        who = player if house is None else str(house).strip().lower()
        if house is not None:
            self._creators_only(row, player, "may withdraw house players from it")
            if not HOUSE_NAME.fullmatch(who):  # the creator's for the house's seats, nobody else's
                raise LobbyError(f"{_shown(who)!r} is not a house player's name")
        entry = next((p for p in row.data["players"] if p["name"] == who and not p["withdrawn"]), None)
        if entry is None:
            raise LobbyError(f"{who} is not playing in {row.id}")
        if row.status == "over":
            raise LobbyError(f"{row.id} is over")
        if row.status == "open":  # before the start: simply gone
            row.data["players"].remove(entry)
        else:
            entry["withdrawn"] = True
            entry["why"] = reason
        self.storage.save_tournament(row)
        self._changed(row)
        return row

    @atomic
    def start(self, player: str, tournament_id: str) -> TournamentRow:
        """The creator starts it now rather than at its time."""
        row = self.get(tournament_id, lock=True)
        self._creators_only(row, player, "may start it early")
        if row.status != "open":
            raise LobbyError(f"{row.id} has started already")
        if len(row.data["players"]) < 2:
            raise LobbyError(f"{row.id} has {len(row.data['players'])} players; it needs two to start")
        self._begin(row)
        return row

    @atomic
    def berserk(self, player: str, game_id: str) -> GameRow:
        """Half one's clock and no increment in an arena game, before one's first move, for a
        point more if won."""
        found = self.storage.tournament_of_game(str(game_id).strip().lower()[:20])
        if found is None:
            raise LobbyError(f"{_shown(str(game_id))!r} is not a tournament game")
        row = self.get(found[0], lock=True)
        if row.kind != "arena":
            raise LobbyError("berserk is an arena's: a Swiss game is played on the whole clock")
        game = self.lobby.game(game_id, lock=True)
        if player not in game.players or game.status != "live":
            raise LobbyError(f"game {game.id} is not a live game of yours")
        side = game.players.index(player)
        mine = [ply for ply in range(game.opening, len(game.moves)) if ply % 2 == side]
        entry = next(g for g in row.data["games"] if g["id"] == game.id)
        if player in entry["berserk"]:
            raise LobbyError("you are berserk in this game already")
        if mine or game.played >= 2:
            raise LobbyError("berserk is before your first move")
        game.left[side] = (game.left[side] or 0.0) / 2
        game.berserk |= 1 << side  # and no increment (hub.Lobby.move)
        entry["berserk"].append(player)
        self.storage.save_game(game)
        self.storage.save_tournament(row)
        self.lobby.changed("game", game)
        self._changed(row)
        return game

    # -- the director's part ---------------------------------------------------------------------

    @atomic
    def due(self, tournament_id: str) -> None:
        """Whatever its time asks: start it, end an arena, withdraw the absent, pair the waiting."""
        row = self.get(tournament_id, lock=True)
        now = self.lobby.clock()
        if row.status == "open" and now >= row.starts:
            if len(self.active(row)) < 2:
                self._finish(row, "cancelled: fewer than two players")
                self._forget_unplayed(row)
            else:
                self._begin(row)
            return
        if row.status != "running":
            return
        if row.kind == "arena" and now >= (row.data["ends"] or 0.0):
            self._finish(row, "its time is up")
            return
        changed = False
        for entry in row.data["players"]:
            if entry["withdrawn"] or entry["name"].startswith(HOUSE_PREFIX):
                continue
            away = self.lobby.presence.away_for(entry["name"])
            if away is not None and away >= self.limits.grace:
                entry["withdrawn"] = True
                entry["why"] = f"absent for {duration_text(away)}"
                changed = True
        if changed:
            self.storage.save_tournament(row)
            self._changed(row)
        if row.kind == "arena":
            self._pair_arena(row)
        elif changed:
            self._next_round_if_done(row)

    @atomic
    def game_over(self, game: GameRow) -> None:
        """A tournament game ended: its result recorded, and the next pairings made."""
        found = self.storage.tournament_of_game(game.id)
        if found is None:
            return
        row = self.get(found[0], lock=True)
        entry = next((g for g in row.data["games"] if g["id"] == game.id), None)
        if entry is None or entry["result"] is not None:
            return
        if not self._record(row, entry, self.storage.game(game.id) or game):
            return
        self.storage.save_tournament(row)
        self._changed(row)
        if row.status != "running":
            return
        if row.kind == "arena":
            self._pair_arena(row)
        else:
            self._next_round_if_done(row)

    def _record(self, row: TournamentRow, entry: dict, game: GameRow) -> bool:
        """The result of a finished game in its entry (False: it is not finished). In an arena,
        a game that ended after the arena did scores nothing (``late``)."""
        result = _result_of(game, self.lobby)
        if result is None:
            return False
        entry["result"] = result
        entry["plies"] = [sum(1 for ply in range(game.opening, len(game.moves)) if ply % 2 == side)
                          for side in (0, 1)]
        if row.kind == "arena" and game.ended is not None and game.ended > (row.data["ends"] or 0.0):
            entry["late"] = True
        return True

    def _begin(self, row: TournamentRow) -> None:
        now = self.lobby.clock()
        row.status = "running"
        row.starts = min(row.starts, now)
        # Pairing numbers: the rating at the start, then who joined first.
        row.data["players"].sort(key=lambda p: (-p["rating"], p["joined"]))
        if row.kind == "arena":
            row.data["ends"] = now + row.data["duration"]
            self.storage.save_tournament(row)
            self._changed(row)
            self._pair_arena(row)
        else:
            row.data["rounds"] = min(row.data["rounds"], max(1, len(row.data["players"]) - 1))
            self.storage.save_tournament(row)
            self._changed(row)
            self._next_round_if_done(row)

    def _history(self, row: TournamentRow) -> SwissHistory:
        history = SwissHistory([p["name"] for p in row.data["players"]],
                               withdrawn={p["name"] for p in row.data["players"] if p["withdrawn"]})
        for number in range(1, row.data["round"] + 1):
            games = [SwissGame(g["first"], g["second"], g["result"]) for g in row.data["games"]
                     if g["round"] == number]
            history.rounds.append((games, row.data["byes"].get(str(number))))
        return history

    def _next_round_if_done(self, row: TournamentRow) -> None:
        if any(g["result"] is None for g in row.data["games"]):
            return
        if row.data["round"] >= row.data["rounds"]:
            self._finish(row, "every round is played")
            return
        number = row.data["round"] + 1
        try:
            made = self._history(row).next_round(last_round=number == row.data["rounds"])
        except NoPairing as error:
            self._finish(row, f"round {number} cannot be paired ({error})")
            return
        row.data["round"] = number
        if made.bye is not None:
            row.data["byes"][str(number)] = made.bye
        for white, black in made.pairs:
            self._pair(row, white, black, number)
        self.storage.save_tournament(row)
        self._changed(row)

    def _pair(self, row: TournamentRow, first: str, second: str, number: int) -> None:
        game = self.lobby.pair(first, second, row.game, row.data["variant"], row.data["clock"])
        self.storage.add_tournament_game(game.id, row.id, number)
        row.data["games"].append({"id": game.id, "round": number, "first": first, "second": second,
                                  "result": None, "berserk": [], "plies": [0, 0]})
        for side, (player, opponent) in enumerate(((first, second), (second, first))):
            self.publish(player, {"event": PAIRING_EVENT, "data": {
                "tournament": row.id, "name": row.name, "kind": row.kind, "round": number, "game": game.id,
                "opponent": opponent, "side": ("first", "second")[side]}})

    def _pair_arena(self, row: TournamentRow) -> None:
        if row.status != "running" or self.lobby.clock() >= (row.data["ends"] or 0.0):
            return
        if len(row.data["games"]) >= self.limits.arena_games:
            if not any(g["result"] is None for g in row.data["games"]):
                self._finish(row, f"it reached {self.limits.arena_games} games, the most an arena has")
            return
        busy = {p for g in row.data["games"] if g["result"] is None for p in (g["first"], g["second"])}
        active = self.active(row)
        waiting = [p for p in active if p not in busy]
        if len(waiting) < 2:
            return
        standings = self.arena_standings(row)
        rank = {s["player"]: i for i, s in enumerate(standings)}
        last: dict[str, str | None] = {}
        firsts: dict[str, int] = {}
        played: dict[str, int] = {}
        for g in row.data["games"]:
            last[g["first"]], last[g["second"]] = g["second"], g["first"]
            firsts[g["first"]] = firsts.get(g["first"], 0) + 1
            for p in (g["first"], g["second"]):
                played[p] = played.get(p, 0) + 1
        pairs = arena_pairs(waiting, rank, last, playing=len([p for p in active if p in busy]))
        for a, b in pairs:
            first, second = arena_colours(a, b, firsts, played)
            self._pair(row, first, second, len(row.data["games"]) + 1)
        if pairs:
            self.storage.save_tournament(row)
            self._changed(row)

    def _finish(self, row: TournamentRow, reason: str) -> None:
        # Games over whose news has not come yet (it comes at the next turn of the loop) count
        # now, before the standings freeze.
        for entry in row.data["games"]:
            if entry["result"] is None and (game := self.storage.game(entry["id"])) is not None:
                self._record(row, entry, game)
        row.status = "over"
        row.data["reason"] = reason
        row.data["ended"] = self.lobby.clock()
        row.crosstable = self.standings(row)
        # The addresses counted for the caps, needed no longer, are not kept with the results.
        for holder in (row.data, *row.data["players"]):
            holder.pop(SOURCE, None)
        self.storage.save_tournament(row)
        self._changed(row)

    # -- standings -------------------------------------------------------------------------------

    def standings(self, row: TournamentRow) -> list[dict]:
        if row.crosstable is not None:
            return row.crosstable
        return self.arena_standings(row) if row.kind == "arena" else self.swiss_standings(row)

    def swiss_standings(self, row: TournamentRow) -> list[dict]:
        withdrawn = {p["name"] for p in row.data["players"] if p["withdrawn"]}
        return [{"rank": s.rank, "player": s.player, "score": s.score, "buchholz": s.buchholz,
                 "buchholz_cut1": s.buchholz_cut1, "sonneborn_berger": s.sonneborn_berger,
                 "results": list(s.results), "withdrawn": s.player in withdrawn}
                for s in swiss_standings(self._history(row), row.data["rounds"])]

    def arena_standings(self, row: TournamentRow) -> list[dict]:
        sheets: dict[str, list[ArenaGame]] = {p["name"]: [] for p in row.data["players"]}
        for g in row.data["games"]:
            if g["result"] is None or g.get("late"):
                continue
            for side, player in enumerate((g["first"], g["second"])):
                mine = g["result"] if side == 0 else 1 - g["result"]
                sheets.setdefault(player, []).append(ArenaGame(
                    g["second"] if side == 0 else g["first"], {1.0: "win", 0.5: "draw", 0.0: "loss"}[mine],
                    player in g["berserk"], g["plies"][side]))
        rating = {p["name"]: p["rating"] for p in row.data["players"]}
        withdrawn = {p["name"] for p in row.data["players"] if p["withdrawn"]}
        rows = []
        for player, games in sheets.items():
            points = arena_points(games)
            rows.append({"player": player, "points": sum(points), "games": len(games),
                         "wins": sum(g.result == "win" for g in games), "sheet": "".join(map(str, points)),
                         "fire": on_fire(games), "berserks": sum(g.berserk for g in games),
                         "withdrawn": player in withdrawn, "rating": rating.get(player, 0.0)})
        # lichess: points, then performance; here the rating at the start stands in for it.
        rows.sort(key=lambda r: (-r["points"], -r["rating"], r["player"]))
        for i, r in enumerate(rows):
            r["rank"] = i + 1
            del r["rating"]
        return rows

    def summary(self, row: TournamentRow) -> dict:
        """A tournament in a list (``list --json``, the app's Tournaments tab)."""
        d = row.data
        return {"id": row.id, "name": row.name, "kind": row.kind, "game": row.game, "clock": d["clock"],
                "status": row.status, "creator": row.creator, "starts": row.starts, "ends": d.get("ends"),
                "rounds": d.get("rounds"), "round": d.get("round"), "duration": d.get("duration"),
                "players": sum(not p["withdrawn"] for p in d["players"]),
                "entrants": [p["name"] for p in d["players"] if not p["withdrawn"]]}

    def data(self, row: TournamentRow) -> dict:
        """What ``show --json`` and the app get."""
        d = row.data
        return {"id": row.id, "name": row.name, "kind": row.kind, "game": row.game, "clock": d["clock"],
                "creator": row.creator, "status": row.status, "starts": row.starts, "ends": d.get("ends"),
                "rounds": d.get("rounds"), "round": d.get("round"), "duration": d.get("duration"),
                "players": [{"name": p["name"], "rating": p["rating"], "withdrawn": p["withdrawn"]}
                            for p in d["players"]],
                "games": [{"id": g["id"], "round": g["round"], "first": g["first"], "second": g["second"],
                           "result": g["result"], "berserk": g["berserk"]} for g in d["games"]],
                "byes": d["byes"], "reason": d.get("reason"), "standings": self.standings(row),
                "grace": self.limits.grace}

    # -- the rest --------------------------------------------------------------------------------

    @staticmethod
    def _creators_only(row: TournamentRow, player: str, what: str) -> None:
        """LobbyError unless ``player`` created ``row``. The operator's (serve --tournament) are
        created as "server", a name a stranger may register: by command they are nobody's."""
        if row.data.get("scheduled") is not None:
            raise LobbyError(f"{row.id} is the operator's (serve --tournament): nobody {what} by command")
        if row.creator != player:
            raise LobbyError(f"only {row.creator}, who created {row.id}, {what}")

    def _forget_unplayed(self, cancelled: TournamentRow) -> None:
        """A player's tournaments cancelled before a game was played: only the latest is kept
        (for its creator to see why it ended). Created to start at once with nobody in it, one
        is cancelled within a second and its creator may create another: each would be kept for
        ever. The operator's are kept (a restart knows by them what it has made)."""
        for row in self.storage.unplayed_tournaments(cancelled.creator):
            if row.id != cancelled.id and row.data.get("scheduled") is None:
                self.storage.delete_tournament(row.id)

    def _changed(self, row: TournamentRow) -> None:
        self.lobby.changed("tournament", {"id": row.id, "status": row.status})

    def _new_id(self) -> str:
        while True:
            new = "t" + secrets.token_hex(3)
            if self.storage.tournament(new) is None:
                return new


SWEEP_SECONDS = 1.0  # the director's look at every running tournament (starts, ends, pairings)
ABSENCE_LOOK = 10.0  # ... and at who has been absent past the grace


class Director:
    """Runs the tournaments where the lobby's clocks run: a look every SWEEP_SECONDS, and the
    next pairings as soon as a tournament game ends."""

    def __init__(self, tournaments: Tournaments, log: Callable[[str], None] = lambda line: None) -> None:
        self.tournaments = tournaments
        self.lobby = tournaments.lobby
        self.log = log
        self._task: asyncio.Task | None = None
        self._stop: Callable[[], None] | None = None
        self._absence_looked: dict[str, float] = {}

    def start(self) -> None:
        if self._task is not None:
            return
        self._stop = self.lobby.listen(self._changed)
        self._task = asyncio.get_running_loop().create_task(self._sweep())

    def stop(self) -> None:
        if self._stop is not None:
            self._stop()
            self._stop = None
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _changed(self, kind: str, payload: Any) -> None:
        if kind == "game" and payload.status == "over":
            # After the change that ended it has been told to everyone (not inside it).
            asyncio.get_running_loop().call_soon(self._game_over, payload)

    def _game_over(self, row: GameRow) -> None:
        try:
            self.tournaments.game_over(row)
        except (LobbyError, StorageUnavailable) as error:
            self.log(event("tournament-error", game=row.id, error=str(error)[:160]))

    def look(self) -> None:
        """Every open or running tournament that may have something due, once."""
        for row in self.tournaments.live():
            if not self._may_be_due(row):
                continue
            try:
                self.tournaments.due(row.id)
            except (LobbyError, StorageUnavailable) as error:
                self.log(event("tournament-error", tournament=row.id, error=str(error)[:160]))

    def _may_be_due(self, row: TournamentRow) -> bool:
        """A look without the lock (most seconds nothing is due: no transaction then)."""
        now = self.lobby.clock()
        if row.status == "open":
            return now >= row.starts
        if row.kind == "arena":
            busy = {p for g in row.data["games"] if g["result"] is None for p in (g["first"], g["second"])}
            if now >= (row.data["ends"] or 0.0) or len([p for p in self.tournaments.active(row) if p not in busy]) >= 2:
                return True
        # Absence every ABSENCE_LOOK seconds only: with front ends sharing the lobby, each
        # player's presence is a query.
        if now - self._absence_looked.get(row.id, float("-inf")) < ABSENCE_LOOK:
            return False
        self._absence_looked[row.id] = now
        grace = self.tournaments.limits.grace
        return any((away := self.lobby.presence.away_for(p)) is not None and away >= grace
                   for p in self.tournaments.active(row) if not p.startswith(HOUSE_PREFIX))

    async def _sweep(self) -> None:
        while True:
            try:
                self.look()
            except StorageUnavailable:
                pass
            await asyncio.sleep(SWEEP_SECONDS)
