"""The lobby's authority: seeks, challenges and games between players, with clocks and ratings.

Every move is checked against the game's own rules by replaying the game with the engine's
adapter (the game table's ``arena_adapter``): a client is never trusted. A problem is a
LobbyError with one line naming it, and nothing is changed.

Clocks (lichess's rules): they start after both sides' first moves; until then either player
may abort (no result, no rating), and a first move not made within FIRST_MOVE_SECONDS aborts the
game. :meth:`Lobby.deadline` says when a game ends by itself; the timers that end it at that
instant, with no request from anyone, are clocks.py's.

Every change runs as one transaction of the storage (storage.py): the game's row is read
locked, checked, written, and what changed is published to the other front ends in the same
transaction; the listeners here hear of it once it is committed. A transaction that lost to
another front end's is run again from the start (at most RETRIES times).
"""

from __future__ import annotations

import functools
import random
import re
import secrets
import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Callable, Iterator, TypeVar

from tui_games.data.resources import read_puzzles
from tui_games.games import arena_adapter, arena_specs, find_game
from tui_games.server.identity import GUEST_PREFIX, NAME
from tui_games.server.lobby import events as player_events
from tui_games.server.lobby.glicko2 import after_game
from tui_games.server.lobby.presence import Presence
from tui_games.server.lobby.storage import GameRow, LobbyStorage, Notice, Offer, StorageConflict

MAX_OFFERS_PER_PLAYER = 5
FIRST_MOVE_SECONDS = 60.0  # to make one's first move before the game is aborted
CLAIM_SECONDS = 60.0  # an absent player's clock must have run this long on their move before a claim
MAX_LIVE_GAMES_PER_PLAYER = 30
# A house player's clock is charged its thinking only (house.py): its flag falls this long
# after its time is up by the wall clock, for a worker that died or a queue gone wrong.
COMPUTER_GRACE = 60.0
# A house player's name (house.py): the ':' keeps every login name from being one.
HOUSE_PREFIX = "house:"
HOUSE_NAME = re.compile(r"^house:[a-z0-9_.-]{1,40}$")
RETRIES = 8  # a transaction that lost to another front end's is run again this many times at most
CLOCK = re.compile(r"^(?:(?P<none>none)|corr:(?P<days>\d{1,2})|(?P<minutes>\d{1,3})\+(?P<increment>\d{1,3}))$")


class LobbyError(ValueError):
    """A request the lobby refuses: the message is one line for the player."""


T = TypeVar("T")


def atomic(method: Callable[..., T]) -> Callable[..., T]:
    """Run a Lobby method (or a method of an object with a ``lobby``) as one transaction, again
    if it lost to another front end's."""

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        lobby: Lobby = getattr(self, "lobby", self)  # a Lobby's method, or one of a part of it (tournament.py)
        for attempt in range(RETRIES):
            try:
                with lobby.transaction():
                    return method(self, *args, **kwargs)
            except StorageConflict:
                if lobby.in_transaction or attempt == RETRIES - 1:
                    raise  # (an inner call: the outermost one runs it all again)
        raise LobbyError("the lobby is busy; try again")

    return run


@dataclass(frozen=True)
class Clock:
    """``none``; ``corr:D`` (D days per move); ``M+S`` (Fischer: M minutes, S seconds a move)."""

    text: str
    kind: str  # "none", "corr" or "fischer"
    base: float = 0.0  # seconds on each clock at the start (Fischer) or per move (corr)
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> "Clock":
        found = CLOCK.fullmatch(text.strip().lower())
        if not found:
            raise LobbyError(f"{text!r} is not a clock: give none, corr:DAYS (1-14) or MINUTES+SECONDS (e.g. 5+3)")
        if found["none"]:
            return cls("none", "none")
        if found["days"]:
            days = int(found["days"])
            if not 1 <= days <= 14:
                raise LobbyError("a correspondence clock gives 1 to 14 days a move")
            return cls(f"corr:{days}", "corr", days * 86400.0)
        minutes, increment = int(found["minutes"]), int(found["increment"])
        if not (0 < minutes <= 180 and increment <= 180):
            raise LobbyError("a Fischer clock gives 1 to 180 minutes and 0 to 180 seconds a move")
        return cls(f"{minutes}+{increment}", "fischer", minutes * 60.0, float(increment))


def lobby_games() -> list[str]:
    """The games two players can play here: those of the game table with an arena adapter."""
    return [spec.key for spec in arena_specs()]


def _game_key(name: str) -> str:
    try:
        spec = find_game(name)
    except ValueError:
        spec = None
    if spec is None or spec.key not in lobby_games():
        raise LobbyError(f"{name!r} is not a game to play against someone; choose one of {', '.join(lobby_games())}")
    return spec.key


def _variant(game: str, label: str | None) -> dict:
    adapter = arena_adapter(game)
    if label is None:
        return adapter.check_variant(adapter.variants[0][1])
    if not isinstance(label, str):
        raise LobbyError(f"a variant is named by text; {game} has {', '.join(n for n, _ in adapter.variants)}")
    for name, variant in adapter.variants:
        if name.lower() == label.strip().lower():
            return adapter.check_variant(variant)
    names = ", ".join(repr(name) for name, _ in adapter.variants)
    raise LobbyError(f"{game} has no variant {label!r}; choose one of {names}")


@functools.cache
def _openings(game: str) -> tuple[tuple[str, ...], ...]:
    """The drawn openings of ``game`` (checkers' three-move ballots) as moves in its notation;
    empty for a game without (its adapter's ``openings_file``)."""
    adapter = arena_adapter(game)
    if adapter.openings_file is None:
        return ()
    openings = []
    for _, position in adapter.parse_openings(read_puzzles(adapter.openings_file)):
        replay = adapter.start({})
        names = []
        for move in position.history:
            names.append(adapter.move_text(replay, move))
            replay.push(move)
        openings.append(tuple(names))
    return tuple(openings)


def _shown(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text[:40])


class Lobby:
    def __init__(self, storage: LobbyStorage, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, origin: str | None = None) -> None:
        self.storage = storage
        # This front end's name in what it publishes (the others' notices are told apart by it).
        self.origin = origin or secrets.token_hex(6)
        self.clock = clock
        self.rng = rng or random.Random()
        self.presence = Presence(clock)
        # Told of every change: "game" (the row), "offer" (a new offer), "offer-gone" (one that
        # went), "chat" (a line said): the socket pushes them to the apps, clocks.py re-arms its
        # timers, a `watch` stream writes them out.
        self.listeners: list[Callable[[str, Any], None]] = []
        self._known: set[str] = set()
        self.computers: dict[str, str] = {}  # the house players seated now, and their game
        self._pending: list[tuple[str, Any]] | None = None  # changes of the open transaction
        # Events addressed to one player (events.py): what `events --json` streams to a bot.
        self.events = player_events.EventBus(self)

    def listen(self, listener: Callable[[str, Any], None]) -> Callable[[], None]:
        """Call ``listener(kind, payload)`` on every change; returns what stops it."""
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener) if listener in self.listeners else None

    def changed(self, kind: str, payload: Any) -> None:
        """A change made here: published to the other front ends, and the listeners told (at
        the commit of the transaction it is part of)."""
        if self._pending is not None:
            self._pending.append((kind, payload))
            return
        self.publish(kind, payload)
        self._tell(kind, payload)

    def _tell(self, kind: str, payload: Any) -> None:
        for listener in list(self.listeners):
            listener(kind, payload)

    def publish(self, kind: str, payload: Any) -> None:
        """Tell the other front ends only (with the open transaction, if any)."""
        if kind in ("game", "offer"):
            data = {"id": payload.id}
        elif kind == "offer-gone":
            data = asdict(payload)
        else:  # "chat", "presence": small dicts
            data = payload
        self.storage.publish(Notice(kind, data, self.origin))

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction of the storage; the changes made in it are published with it and
        told to the listeners once it is committed (and forgotten if it is not)."""
        if self._pending is not None:
            with self.storage.transaction():
                yield
            return
        pending: list[tuple[str, Any]] = []
        self._pending = pending
        try:
            with self.storage.transaction():
                yield
                for kind, payload in pending:
                    self.publish(kind, payload)
        finally:
            self._pending = None
        for kind, payload in pending:
            self._tell(kind, payload)

    def remote(self, notice: Notice) -> None:
        """A change another front end made: the listeners here are told of it as it is now in
        the database (a game or an offer is read afresh)."""
        if notice.origin == self.origin:
            return
        data = notice.data
        if notice.kind == "game":
            row = self.storage.game(str(data.get("id")))
            if row is not None:
                self._tell("game", row)
        elif notice.kind == "offer":
            offer = self.storage.offer(str(data.get("id")))
            if offer is not None:
                self._tell("offer", offer)
        elif notice.kind == "offer-gone":
            try:
                self._tell("offer-gone", Offer(**data))
            except TypeError:
                return
        elif notice.kind in ("chat", "presence", "tournament", player_events.NOTICE_KIND):
            self._tell(notice.kind, data)
        elif notice.kind == "resync":  # notices may have been missed: each listener looks afresh
            self._tell("resync", None)

    # -- players ---------------------------------------------------------------------------------

    def seen(self, player: str, *, guest: bool = False, computer: bool = False) -> None:
        """``player`` is here (logged in, ran a command): remembered for good, and present."""
        self.presence.act(player)
        if player not in self._known:
            kind = "computer" if computer else "guest" if guest or player.startswith(GUEST_PREFIX) else "human"
            self.storage.add_player(player, kind, self.clock())
            self._known.add(player)

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (an inner atomic call leaves its retry to the outer)."""
        return self._pending is not None

    def act(self, player: str) -> None:
        """``player`` did something: they are here (and known from now on)."""
        if player in self._known:
            self.presence.act(player)
        else:
            self.seen(player)

    def player(self, name: str) -> str:
        """The player ``name`` stands for (names are case-insensitive); LobbyError for one who has
        never been here or a name that cannot be one."""
        if not isinstance(name, str):
            raise LobbyError("a player is named by text")
        lowered = name.strip().lower()
        if not (NAME.fullmatch(lowered) or HOUSE_NAME.fullmatch(lowered)):
            raise LobbyError(f"{_shown(name)!r} cannot be a player's name")
        if lowered not in self._known and self.storage.player_kind(lowered) is None:
            raise LobbyError(f"there is no player {lowered!r} here")
        return lowered

    def is_computer(self, player: str) -> bool:
        return self.storage.player_kind(player) == "computer"

    def new_guest_name(self) -> str:
        """A guest's name never used before on this server (64 random bits, checked against every
        player it has seen), so that no guest inherits another's games."""
        while True:
            name = GUEST_PREFIX + secrets.token_hex(8)
            if self.storage.player_kind(name) is None:
                return name

    # -- offers --------------------------------------------------------------------------------

    @atomic
    def seek(self, player: str, game: str, *, variant: str | None = None, clock: str = "none",
             rated: bool = True, colour: str = "random", guest: bool = False,
             target: str | None = None, private: bool = False, assist: bool = False) -> Offer:
        """Open a seek (or, with ``target``, a challenge to that player; ``private``: a game for
        whoever has its code, listed to no one else)."""
        key = _game_key(game)
        self.act(player)
        if target is not None:
            target = self.player(target)
        if colour not in ("first", "second", "random"):
            raise LobbyError(f"{colour!r} is not a side: give first, second or random")
        if guest and rated:
            raise LobbyError("guests play casual games only: add --casual")
        if target is not None and target == player:
            raise LobbyError("you cannot challenge yourself")
        self.storage.lock_names(player)  # the cap holds across front ends
        if sum(offer.owner == player for offer in self.storage.offers()) >= MAX_OFFERS_PER_PLAYER:
            raise LobbyError(f"you have {MAX_OFFERS_PER_PLAYER} open offers already (the most a player may "
                             f"have); cancel one first")
        if private and target:
            raise LobbyError("a private game is for whoever has its code: give no player")
        if assist and rated:
            raise LobbyError("the engine's help is for casual games only")
        kind = "challenge" if target else "private" if private else "seek"
        offer = Offer(self._new_id(8 if private else 6), kind, player, target, key,
                      _variant(key, variant), Clock.parse(clock).text, rated, colour, self.clock(), assist)
        self.storage.add_offer(offer)
        self.changed("offer", offer)
        if target is not None:
            self._tell_offer(target, player_events.CHALLENGE, offer)
        return offer

    def offers(self, player: str | None = None) -> list[Offer]:
        """Open seeks, and the challenges to or from ``player``."""
        return [o for o in self.storage.offers()
                if o.kind == "seek" or player is None or player in (o.owner, o.target)]

    @atomic
    def accept(self, player: str, offer_id: str, *, guest: bool = False) -> GameRow:
        self.act(player)
        self.storage.lock_names(player)
        offer = self._offer(offer_id)
        if offer.owner == player:
            raise LobbyError("that is your own offer; cancel it with decline")
        if offer.kind == "challenge" and offer.target != player:
            raise LobbyError(f"offer {offer_id} is a challenge to {offer.target}, not to you")
        if guest and offer.rated:
            raise LobbyError("guests play casual games only: this offer is rated")
        if len(self.storage.games(player=player, status="live")) >= MAX_LIVE_GAMES_PER_PLAYER:
            raise LobbyError(f"you have {MAX_LIVE_GAMES_PER_PLAYER} games going already; finish one first")
        if not self.storage.remove_offer(offer.id):  # someone accepted it a moment ago
            raise LobbyError(f"offer {offer_id} is gone")
        owner_first = {"first": True, "second": False}.get(offer.colour, self.rng.random() < 0.5)
        players = (offer.owner, player) if owner_first else (player, offer.owner)
        row = self._new_game(players, offer.game, offer.variant, offer.clock, offer.rated, offer.assist)
        self.changed("offer-gone", offer)
        self.changed("game", row)
        taken = player_events.ACCEPTED if offer.kind == "challenge" else player_events.SEEK_TAKEN
        self._tell_offer(offer.owner, taken, offer, game=row.id, by=player)
        self._tell_game(row, player_events.GAME_START)
        return row

    def _new_game(self, players: tuple[str, str], game: str, variant: dict, clock_text: str, rated: bool,
                  assist: bool = False) -> GameRow:
        clock = Clock.parse(clock_text)
        now = self.clock()
        left: list[float | None] = [clock.base, clock.base] if clock.kind != "none" else [None, None]
        openings = _openings(game)
        opening = list(self.rng.choice(openings)) if openings else []
        row = GameRow(self._new_id(), game, variant, players, clock.text, rated,
                      moves=opening, left=left, last_move=now, created=now, assist=assist,
                      opening=len(opening))
        self.storage.add_game(row)
        return row

    # -- tournaments (tournament.py): games nobody offered ------------------------------------

    def pair(self, first: str, second: str, game: str, variant: dict, clock: str, *, rated: bool = True) -> GameRow:
        """A tournament's pairing: a game between two players, begun at once (inside the
        caller's transaction, which records it as the tournament's)."""
        row = self._new_game((first, second), game, variant, clock, rated)
        self.changed("game", row)
        self._tell_game(row, player_events.GAME_START)  # a bot on `events` hears its pairing's game
        return row

    @atomic
    def decline(self, player: str, offer_id: str) -> Offer:
        """Cancel your own offer, or decline a challenge to you."""
        offer = self._offer(offer_id)
        if player not in (offer.owner, offer.target):
            raise LobbyError(f"offer {offer_id} is not yours to decline")
        self.storage.remove_offer(offer.id)
        self.changed("offer-gone", offer)
        if offer.target is not None and player == offer.owner:
            self._tell_offer(offer.target, player_events.WITHDRAWN, offer)
        elif offer.target is not None:
            self._tell_offer(offer.owner, player_events.DECLINED, offer)
        return offer

    def _offer(self, offer_id: str) -> Offer:
        if not isinstance(offer_id, str):
            raise LobbyError("an offer is named by its id")
        offer = self.storage.offer(offer_id.strip().lower())
        if offer is None:
            raise LobbyError(f"there is no offer {offer_id!r}")
        return offer

    # -- games ---------------------------------------------------------------------------------

    def game(self, game_id: str, *, lock: bool = False) -> GameRow:
        """The game (ended first if its time is up); ``lock``: held to the end of the
        transaction, to be changed."""
        if not isinstance(game_id, str):
            raise LobbyError("a game is named by its id")
        row = self.storage.game(game_id.strip().lower(), lock=lock)
        if row is None:
            raise LobbyError(f"there is no game {game_id!r}")
        self._check_time(row)
        return row

    def position(self, row: GameRow) -> Any:
        """The game's position, every move replayed by the rules."""
        adapter = arena_adapter(row.game)
        position = adapter.start(row.variant)
        for text in row.moves:
            position.push(adapter.parse_move(position, text))
        return position

    def to_move(self, row: GameRow) -> str | None:
        return None if row.status != "live" else row.players[self.position(row).turn]

    @atomic
    def move(self, player: str, game_id: str, text: str, *, thought: float | None = None) -> GameRow:
        """``player``'s move; a house player's (house.py) gives the seconds it ``thought``, which
        is all its clock is charged (not the time its move waited for a worker)."""
        row = self._own_live_game(player, game_id)
        adapter = arena_adapter(row.game)
        position = self.position(row)
        side = row.players.index(player) if row.players[0] != row.players[1] else position.turn
        if position.turn != side:
            raise LobbyError(f"it is {row.players[position.turn]}'s move in game {row.id}")
        try:
            move = adapter.parse_move(position, text)
        except ValueError as error:
            raise LobbyError(f"{text!r} in game {row.id}: {error}") from None
        now = self.clock()
        clock = Clock.parse(row.clock)
        if row.played < 2:  # the clocks start after both sides' first moves
            pass
        elif clock.kind == "fischer":
            used = now - row.last_move
            if thought is not None and self.is_computer(player):
                used = min(used, max(0.0, thought))
            before = row.left[side]
            assert before is not None  # a Fischer clock's sides are timed from the start
            # (a side that went berserk in an arena has no increment: tournament.py)
            row.left[side] = before - used + (0.0 if row.berserk & (1 << side) else clock.increment)
        elif clock.kind == "corr":
            row.left[side] = clock.base
        row.moves.append(adapter.move_text(position, move))
        position.push(move)
        row.last_move = now
        row.draw_offer = row.takeback_offer = None
        outcome = position.outcome()
        if outcome is not None:
            self._end(row, outcome.winner, outcome.reason)
        else:
            self.storage.save_game(row)
            self.changed("game", row)
        return row

    @atomic
    def resign(self, player: str, game_id: str) -> GameRow:
        row = self._own_live_game(player, game_id)
        if row.played < 2:
            raise LobbyError(f"game {row.id} has not begun (both first moves): abort it instead, with no result")
        self._end(row, 1 - row.players.index(player), "resignation")
        return row

    @atomic
    def abort(self, player: str, game_id: str) -> GameRow:
        """End a game before both sides' first moves: no result, no rating."""
        row = self._own_live_game(player, game_id)
        if row.played >= 2:
            raise LobbyError(f"both first moves are made in game {row.id}: resign or offer a draw instead")
        if self.storage.tournament_of_game(row.id) is not None:  # (an abort would choose who scores)
            raise LobbyError(f"game {row.id} is a tournament's: it is not aborted; a first move not made in "
                             f"{FIRST_MOVE_SECONDS:.0f} s loses it")
        self._end(row, None, "aborted")
        return row

    @atomic
    def draw(self, player: str, game_id: str, action: str) -> GameRow:
        row = self._own_live_game(player, game_id)
        if action == "offer":
            if row.draw_offer == player:
                raise LobbyError("you have offered a draw already")
            if row.draw_offer is not None:  # both offered: that is an agreement
                self._end(row, None, "agreement")
                return row
            row.draw_offer = player
        elif action == "accept":
            if row.draw_offer is None or row.draw_offer == player:
                raise LobbyError(f"there is no draw offer to accept in game {row.id}")
            self._end(row, None, "agreement")
            return row
        elif action == "decline":
            if row.draw_offer is None or row.draw_offer == player:
                raise LobbyError(f"there is no draw offer to decline in game {row.id}")
            row.draw_offer = None
        else:
            raise LobbyError(f"{action!r}: say offer, accept or decline")
        self.storage.save_game(row)
        self.changed("game", row)
        return row

    @atomic
    def takeback(self, player: str, game_id: str, action: str) -> GameRow:
        """Ask to take back your last move; the opponent accepts or declines. Accepted, the
        game goes back to the asker's last turn (one move or two)."""
        row = self._own_live_game(player, game_id)
        side = row.players.index(player)
        if action == "offer":
            mine = [ply for ply in range(row.opening, len(row.moves)) if ply % 2 == side]
            if not mine:
                raise LobbyError("you have no move to take back")
            row.takeback_offer = player
        elif action in ("accept", "decline"):
            if row.takeback_offer is None or row.takeback_offer == player:
                raise LobbyError(f"there is no takeback request to {action} in game {row.id}")
            if action == "accept":
                asker = row.players.index(row.takeback_offer)
                del row.moves[max(i for i in range(row.opening, len(row.moves)) if i % 2 == asker):]
                row.last_move = self.clock()
            row.takeback_offer = None
        else:
            raise LobbyError(f"{action!r}: say offer, accept or decline")
        self.storage.save_game(row)
        self.changed("game", row)
        return row

    @atomic
    def rematch(self, player: str, game_id: str) -> Offer | GameRow:
        """After a game: challenge the same opponent to the same game, sides swapped. If they have
        asked for that rematch already, the two requests are an agreement: the game starts."""
        row = self.game(game_id)
        if player not in row.players:
            raise LobbyError(f"game {row.id} is not yours")
        if row.status == "live":
            raise LobbyError(f"game {row.id} is still being played")
        opponent = row.players[1 - row.players.index(player)]
        colour = "second" if row.players[0] == player else "first"
        label = arena_adapter(row.game).variant_label(row.variant)
        theirs = next((o for o in self.storage.offers()
                       if o.kind == "challenge" and o.owner == opponent and o.target == player and o.game == row.game
                       and o.variant == row.variant and o.clock == row.clock and o.rated == row.rated
                       and o.colour == ("first" if colour == "second" else "second")), None)
        if theirs is not None:
            return self.accept(player, theirs.id)
        return self.seek(player, row.game, variant=label, clock=row.clock, rated=row.rated, colour=colour,
                         target=opponent, assist=row.assist)

    @atomic
    def claim(self, player: str, game_id: str) -> GameRow:
        """Win a game the opponent left: only on their move, after their clock has run
        CLAIM_SECONDS on it, while they are absent (no session of theirs open, nothing done for
        presence.PRESENT_SECONDS). A correspondence game is not claimed: its deadline ends it."""
        row = self._own_live_game(player, game_id)
        mine = row.players.index(player)
        opponent = row.players[1 - mine]
        if self.position(row).turn == mine:
            raise LobbyError(f"it is your move in game {row.id}: only a player who keeps you waiting on their "
                             f"move can be claimed against")
        if row.played < 2:
            raise LobbyError(f"game {row.id} has not begun: abort it (no result), or it aborts by itself after "
                             f"{FIRST_MOVE_SECONDS:.0f} s")
        if Clock.parse(row.clock).kind == "corr":
            deadline = self.deadline(row) or 0.0
            raise LobbyError(f"a correspondence game ends by its clock: {opponent} has "
                             f"{(deadline - self.clock()) / 3600:.0f} h left to move")
        waited = self.clock() - row.last_move
        if waited < CLAIM_SECONDS:
            raise LobbyError(f"{opponent} has had the move for {waited:.0f} s; you may claim the win after "
                             f"{CLAIM_SECONDS:.0f} s, if they are gone")
        away = self.presence.away_for(opponent)
        if away is None:
            raise LobbyError(f"{opponent} is here (a session open or active in the last minute); "
                             f"wait for their move")
        self._end(row, mine, "abandoned")
        return row

    def say(self, player: str, text: str, game_id: str | None = None) -> dict:
        """A line of chat (already cleaned by the caller), to the lobby or to one game."""
        self.act(player)
        game = self.game(game_id).id if game_id is not None else None
        data = {"from": player, "game": game, "text": text}
        self.changed("chat", data)
        return data

    def games(self, player: str | None = None, live: bool = True) -> list[GameRow]:
        rows = self.storage.games(player=player, status="live" if live else None)
        for row in rows:
            self._check_time(row)
        return [row for row in rows if not live or row.status == "live"]

    def history(self, player: str | None = None, limit: int = 50) -> list[GameRow]:
        return self.storage.games(player=player, status="over", limit=limit)

    def ratings(self, game: str | None = None):
        return self.storage.ratings(_game_key(game) if game else None)

    def export(self, game_id: str) -> str:
        """The game in its field's format: PDN for checkers, move strings for the others."""
        row = self.game(game_id)
        result: int | None | str = row.winner if row.status == "over" else "*"
        return arena_adapter(row.game).export(
            self.position(row), row.moves, players=row.players, result=result,
            event=f"tui-games lobby {row.id}", date=time.strftime("%Y.%m.%d", time.gmtime(row.created)))

    # -- the end of a game ---------------------------------------------------------------------

    def _own_live_game(self, player: str, game_id: str) -> GameRow:
        self.act(player)
        row = self.game(game_id, lock=True)
        if player not in row.players:
            raise LobbyError(f"game {row.id} is between {row.players[0]} and {row.players[1]}, not yours")
        if row.status != "live":
            raise LobbyError(f"game {row.id} is over ({row.reason})")
        return row

    def deadline(self, row: GameRow) -> float | None:
        """When the game ends by itself (the lobby's clock), or None: before both first moves,
        the abort of a first move not made; then the flag of the side to move."""
        if row.status != "live":
            return None
        clock = Clock.parse(row.clock)
        if row.played < 2:
            return row.last_move + (clock.base if clock.kind == "corr" else FIRST_MOVE_SECONDS)
        if clock.kind == "none":
            return None
        turn = self.position(row).turn
        left = row.left[turn]
        if row.players[turn].startswith(HOUSE_PREFIX):  # charged its thinking only (house.py)
            return row.last_move + (left or 0.0) + COMPUTER_GRACE
        return row.last_move + (left or 0.0)

    def expire(self, game_id: str) -> GameRow | None:
        """End the game if its time is up (clocks.py calls this at the deadline)."""
        row = self.storage.game(game_id)
        if row is not None:
            self._check_time(row)
        return row

    def _check_time(self, row: GameRow) -> None:
        """A clock that ran out ends the game; so does a first move not made (an abort). ``row``
        becomes the game as it is then."""
        deadline = self.deadline(row)
        if deadline is None or self.clock() < deadline:
            return
        self._time_up(row)

    @atomic
    def _time_up(self, row: GameRow) -> None:
        # Looked at again with the row held: another front end may have ended it, or a move
        # have come, since it was read.
        fresh = self.storage.game(row.id, lock=True)
        if fresh is None:
            return
        row.__dict__.update(fresh.__dict__)
        deadline = self.deadline(row)
        if deadline is None or self.clock() < deadline:
            return
        if row.played < 2:
            self._end(row, None, "aborted")
            return
        turn = self.position(row).turn
        row.left[turn] = 0.0
        self._end(row, 1 - turn, "time")

    def _end(self, row: GameRow, winner: int | None, reason: str) -> None:
        row.status, row.winner, row.reason, row.ended = "over", winner, reason, self.clock()
        row.draw_offer = row.takeback_offer = None
        ratings = None
        if row.rated and row.played >= 2 and reason != "aborted" and row.players[0] != row.players[1]:
            self.storage.lock_names(*row.players)  # their other games may end at this moment elsewhere
            (first, n_first), (second, n_second) = (self.storage.rating(p, row.game) for p in row.players)
            score = {0: 1.0, 1: 0.0, None: 0.5}[winner]
            new_first, new_second = after_game(first, second, score)
            ratings = {row.players[0]: (new_first, n_first + 1), row.players[1]: (new_second, n_second + 1)}
        self.storage.finish(row, ratings)
        self.changed("game", row)
        self._tell_game(row, player_events.GAME_END)

    # -- events addressed to players (events.py) -----------------------------------------------

    def _tell_offer(self, player: str, kind: str, offer: Offer, **more: str) -> None:
        self.events.publish(player, {"event": kind, "data": {"offer": asdict(offer), **more}})

    def _tell_game(self, row: GameRow, kind: str) -> None:
        for player in dict.fromkeys(row.players):  # (a game against oneself is told once)
            self.events.publish(player, {"event": kind, "data": {"game": row.id}})

    def _new_id(self, length: int = 6) -> str:
        """A short id; a private game's code is longer, so that guessing one takes years at the
        socket's request limit."""
        while True:
            new = secrets.token_hex(length // 2)
            if self.storage.game(new) is None and self.storage.offer(new) is None:
                return new
