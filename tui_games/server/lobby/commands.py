"""``ssh -p PORT NAME@host COMMAND``: the lobby for scripts and bots, each command with --json.

    who                                   who is online and what they are doing
    games                                 your live games (whose move, clocks) and open offers
    offers                                open seeks, and challenges to and from you
    show GAME                             one game: players, moves, the board, whose move
    seek GAME [--variant V] [--clock C] [--casual [--assist]] [--colour first|second|random] [--private]
    challenge PLAYER GAME [same options]
    accept ID | decline ID                an offer (a seek, or a challenge to you)
    move GAME MOVE                        in the game's own notation: a column, a cell, PDN
    resign GAME
    draw GAME offer|accept|decline
    takeback GAME offer|accept|decline    ask to take your last move back, or answer the asking
    rematch GAME                          after the end: the same game again, sides swapped
    abort GAME                            before both first moves: the game ends with no result
    claim GAME                            win a game the opponent left (on their move, after a minute)
    watch GAME [--json]                   the game's events as they happen (one JSON object a line
                                          with --json: game, move, offer, chat, end) until it ends
    events [--json]                       what is addressed to you as it happens (challenges, seeks
                                          taken, your games' starts and ends, tournament pairings),
                                          after the challenges waiting for you and your live games
    ratings [GAME]
    history [PLAYER]
    export GAME                           PDN for checkers, move strings for the others
    tournament create|list|show|standings|join|withdraw|start|berserk …   (tournament_commands.py)
    puzzle GAME [--answer A]              the puzzle of the day (server time zone), or an answer judged
                                          and recorded: streak, solve time; a wrong one told why
    puzzle leaderboard GAME               who solved today's puzzle, fastest first, with streaks

A bad command, a move out of turn, an illegal move, an unknown game or someone else's game:
one line on stderr naming the problem, exit status 2, nothing changed. So is a command beyond a
player's budget (presence.COMMAND_RATE a second, in bursts): bots may run many at once, not
without end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
from dataclasses import asdict, dataclass, field
from typing import Any, Awaitable, Callable

from tui_games.games import arena_adapter
from tui_games.server.lobby import events as player_events
from tui_games.server.lobby import puzzles, tournament_commands
from tui_games.server.lobby.hub import Lobby, LobbyError, lobby_games
from tui_games.server.lobby.presence import COMMAND_BURST, COMMAND_RATE
from tui_games.server.lobby.storage import GameRow, Offer, StorageUnavailable
from tui_games.server.lobby.views import game_data, offer_data, online_view
from tui_games.server.log import duration as _duration

MAX_COMMAND = 1000  # characters: a command line is short; anything longer is refused
EXIT_OK, EXIT_IDLE, EXIT_USAGE = 0, 1, 2
EXIT_DROPPED = 1  # a stream whose reader fell behind: ended with a line saying why


class _Refused(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("tui-games").strip()
        raise _Refused(f"{command}: {message}" if command else message)

    def exit(self, status: int = 0, message: str | None = None) -> None:  # type: ignore[override]
        raise _Refused(message.strip() if message else "")


# Writes text to the client; a stream (``watch``) calls it as events come.
Write = Callable[[str], None]


@dataclass
class Result:
    status: int = EXIT_OK
    out: list[str] = field(default_factory=list)
    err: list[str] = field(default_factory=list)
    # A command that goes on (``watch``): the caller runs stream(write or a WatchClient) after
    # printing ``out``; it returns the exit status when the game ends (or the watch does).
    stream: Callable[..., Awaitable[int]] | None = None

    @property
    def stdout(self) -> str:
        return "".join(line + "\n" for line in self.out)

    @property
    def stderr(self) -> str:
        return "".join(line + "\n" for line in self.err)


def _parser() -> _Parser:
    parser = _Parser(prog="tui-games", add_help=False)
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    def add(name: str, *arguments: tuple[str, dict]) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, add_help=False)
        for argument, options in arguments:
            sub.add_argument(argument, **options)
        sub.add_argument("--json", action="store_true")
        return sub

    add("who")
    add("games")
    add("offers")
    add("show", ("game_id", {}))
    for name, extra in (("seek", ()), ("challenge", (("player", {}),))):
        sub = add(name, *extra, ("game", {}))
        sub.add_argument("--variant", default=None)
        sub.add_argument("--clock", default="none")
        sub.add_argument("--casual", action="store_true")
        sub.add_argument("--assist", action="store_true", help="casual: both players may use the engine's help")
        if name == "seek":
            sub.add_argument("--private", action="store_true")
        sub.add_argument("--colour", "--color", default="random", choices=("first", "second", "random"))
    add("accept", ("offer_id", {}))
    add("decline", ("offer_id", {}))
    add("move", ("game_id", {}), ("move", {}))
    add("resign", ("game_id", {}))
    add("draw", ("game_id", {}), ("action", {"choices": ("offer", "accept", "decline")}))
    add("takeback", ("game_id", {}), ("action", {"choices": ("offer", "accept", "decline")}))
    add("rematch", ("game_id", {}))
    add("abort", ("game_id", {}))
    add("claim", ("game_id", {}))
    add("watch", ("game_id", {}))
    add("events")
    add("ratings", ("game", {"nargs": "?"}))
    add("history", ("player", {"nargs": "?"}))
    add("export", ("game_id", {}))
    tournament_commands.add_parser(commands, _Parser)  # tournaments: their own module
    # The puzzle of the day (puzzles.py): `puzzle GAME [--answer A]`, `puzzle leaderboard GAME`.
    sub = add("puzzle", ("words", {"nargs": "+"}))
    sub.add_argument("--answer", default=None)
    return parser


def run(lobby: Lobby, player: str, command: str, *, guest: bool = False,
        online: Callable[[], list[tuple[str, str]]] = list, watch_idle: float | None = None,
        source: str | None = None) -> Result:
    """Run one command line for ``player``; never raises for anything a client can send.
    ``source`` is where they connect from (server/limits.source_of): what one address's players
    together may hold is bounded by it (tournaments)."""
    result = Result()
    if len(command) > MAX_COMMAND:
        return _refuse(result, f"a command has at most {MAX_COMMAND} characters")
    try:
        words = shlex.split(command)
    except ValueError as error:
        return _refuse(result, f"cannot read the command: {error}")
    if not words:
        return _refuse(result, "no command given; try: " + ", ".join(_COMMANDS))
    if words[0] not in _COMMANDS:
        return _refuse(result, f"{words[0][:40]!r} is not a command; try: " + ", ".join(_COMMANDS))
    if not lobby.presence.allow(player):
        return _refuse(result, f"too many commands: at most {COMMAND_RATE:g} a second for each player "
                               f"(in bursts of {COMMAND_BURST}); wait a moment")
    try:
        lobby.seen(player, guest=guest)
    except StorageUnavailable as error:
        return _refuse(result, str(error))
    try:
        args = _parser().parse_args(words)
    except _Refused as refused:
        return _refuse(result, str(refused) or "bad command")
    args.watch_idle, args.source = watch_idle, source
    try:
        _COMMANDS[args.command](lobby, player, args, result, guest=guest, online=online)
    except (LobbyError, StorageUnavailable) as error:
        return _refuse(result, str(error))
    return result


def _refuse(result: Result, line: str) -> Result:
    result.status = EXIT_USAGE
    result.err.append("tui-games: " + "".join(ch if ch.isprintable() else "?" for ch in line))
    return result


def _say(result: Result, args, data, text: str) -> None:
    result.out.append(json.dumps(data) if args.json else text)


# -- what each command prints ----------------------------------------------------------------------

def _game_line(lobby: Lobby, row: GameRow, player: str | None = None) -> str:
    first, second = row.players
    head = f"{row.id}  {row.game:<9} {first} v {second}  {row.clock}{'' if row.rated else ' casual'}"
    if row.status != "live":
        winner = "draw" if row.winner is None else f"{row.players[row.winner]} won"
        return f"{head}  {winner} ({row.reason}), {len(row.moves)} moves"
    to_move = lobby.to_move(row)
    whose = "your move" if to_move == player else f"{to_move} to move"
    return f"{head}  {whose}, {len(row.moves)} moves"


def _offer_line(offer: Offer) -> str:
    to = f" to {offer.target}" if offer.target else ""
    return (f"{offer.id}  {offer.kind}{to} by {offer.owner}: {offer.game} {offer.clock}"
            f"{' rated' if offer.rated else ' casual'}{', engine help' if offer.assist else ''}, "
            f"{offer.owner} plays {offer.colour}")


def _who(lobby, player, args, result, *, guest, online) -> None:
    people = online_view(lobby, online())
    if args.json:
        result.out.append(json.dumps(people))
    else:
        result.out.extend(f"{p['name']}  {p['status']}" for p in people) if people else result.out.append("nobody")


def _games(lobby, player, args, result, *, guest, online) -> None:
    rows, offers = lobby.games(player), lobby.offers(player)
    if args.json:  # a list of "show" objects; open offers are `offers --json`
        result.out.append(json.dumps([game_data(lobby, r) for r in rows]))
        return
    result.out.extend(_game_line(lobby, row, player) for row in rows)
    result.out.extend(_offer_line(offer) for offer in offers)
    if not rows and not offers:
        result.out.append(f"no games and no offers; start one with: seek {lobby_games()[0]}")


def _offers(lobby, player, args, result, *, guest, online) -> None:
    offers = lobby.offers(player)
    if args.json:
        result.out.append(json.dumps([offer_data(o) for o in offers]))
        return
    result.out.extend(_offer_line(offer) for offer in offers)
    if not offers:
        result.out.append("no open offers")


def _show(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.game(args.game_id)
    if args.json:
        result.out.append(json.dumps(game_data(lobby, row)))
        return
    result.out.append(_game_line(lobby, row, player))
    result.out.append("moves: " + (" ".join(row.moves) or "none yet"))
    result.out.extend(arena_adapter(row.game).diagram(lobby.position(row)).splitlines())


def _seek(lobby, player, args, result, *, guest, online) -> None:
    if guest:  # nobody could cancel it: the next command is another guest
        raise LobbyError("a guest's seek would outlive the command; seek in the app (ssh -t), or log in with a key")
    offer = lobby.seek(player, args.game, variant=args.variant, clock=args.clock, rated=not args.casual,
                       colour=args.colour, guest=guest, target=getattr(args, "player", None),
                       private=getattr(args, "private", False), assist=args.assist)
    _say(result, args, offer_data(offer), _offer_line(offer))


def _accept(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.accept(player, args.offer_id, guest=guest)
    _say(result, args, {"game": row.id, "players": game_data(lobby, row)["players"]}, _game_line(lobby, row, player))


def _decline(lobby, player, args, result, *, guest, online) -> None:
    offer = lobby.decline(player, args.offer_id)
    _say(result, args, offer_data(offer), f"{offer.id} withdrawn" if offer.owner == player else f"{offer.id} declined")


def _move(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.move(player, args.game_id, args.move)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _resign(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.resign(player, args.game_id)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _draw(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.draw(player, args.game_id, args.action)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _takeback(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.takeback(player, args.game_id, args.action)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _rematch(lobby, player, args, result, *, guest, online) -> None:
    made = lobby.rematch(player, args.game_id)
    if isinstance(made, GameRow):  # they had asked for it too: the game began
        _say(result, args, game_data(lobby, made), _game_line(lobby, made, player))
    else:
        _say(result, args, offer_data(made), _offer_line(made))


def _abort(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.abort(player, args.game_id)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _claim(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.claim(player, args.game_id)
    _say(result, args, game_data(lobby, row), _game_line(lobby, row, player))


def _watch(lobby, player, args, result, *, guest, online) -> None:
    row = lobby.game(args.game_id)
    idle = getattr(args, "watch_idle", None)
    result.stream = lambda client: watch_stream(lobby, player, row, client, as_json=args.json, idle=idle)


@dataclass
class WatchClient:
    """Where a ``watch`` writes, and whether its client is keeping up: while ``has_room()`` is
    false (what the server holds for it is past its bound) events are not written but
    skipped, and once ``when_room``'s callback is called the client gets the game as it is
    then. So a watcher that stops reading costs the server a bounded buffer, not every event."""

    write: Write
    write_err: Write | None = None
    has_room: Callable[[], bool] = lambda: True
    when_room: Callable[[Callable[[], None]], None] = lambda callback: None
    on_behind: Callable[[], None] = lambda: None  # it has just fallen behind (a log line)


def _copy(row: GameRow) -> GameRow:
    return GameRow(**{**row.__dict__, "moves": list(row.moves), "left": list(row.left)})


async def watch_stream(lobby: Lobby, player: str, row: GameRow, write: Write | WatchClient, *, as_json: bool,
                       idle: float | None = None) -> int:
    """The events of a game as they happen, until it ends: a bot waits for its turn here
    instead of asking again and again. Watching is not playing: it does not make the watcher
    present for claims (presence.py), what they do does. After ``idle`` seconds with nothing happening in the
    game the watch ends (exit status 1, a line on the client's stderr saying why): a watch
    holds a connection, and a game may sleep for ever. A client that falls behind skips
    events and is given the game as it is when it catches up (:class:`WatchClient`). A
    database that cannot be reached ends it the same way, with the reason."""
    client = write if isinstance(write, WatchClient) else WatchClient(write)
    changes: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
    stop = lobby.listen(lambda kind, payload: changes.put_nowait((kind, payload)))
    client.when_room(lambda: changes.put_nowait(("room", None)))
    loop = asyncio.get_running_loop()
    behind = False
    try:
        last = row
        _emit(lobby, player, client.write, "game", row, as_json)
        quiet_since = loop.time()
        while last.status == "live":
            try:
                wait = None if idle is None else max(0.0, quiet_since + idle - loop.time())
                kind, payload = await asyncio.wait_for(changes.get(), wait)
            except asyncio.TimeoutError:
                (client.write_err or client.write)(
                    f"tui-games: watch ended: nothing happened in {row.id} for {_duration(idle or 0)}; "
                    "watch again to go on\n")
                return EXIT_IDLE
            if kind == "room":
                if behind and client.has_room():  # caught up: the game as it is now
                    behind = False
                    last = _copy(lobby.storage.game(row.id) or last)
                    _emit(lobby, player, client.write, "game", last, as_json)
                continue
            if kind == "resync":  # changes elsewhere may have been missed: the game as it is now
                kind, payload = "game", lobby.storage.game(row.id) or last
            ours = (kind == "chat" and payload.get("game") == row.id) or (kind == "game" and payload.id == row.id)
            if not ours:
                continue
            quiet_since = loop.time()
            ended = kind == "game" and payload.status != "live"
            if (behind or not client.has_room()) and not ended:  # the end is always told
                if not behind:
                    behind = True
                    client.on_behind()
                if kind == "game":
                    last = _copy(payload)
                continue
            if kind == "chat":
                client.write(json.dumps({"event": "chat", "data": payload}) + "\n" if as_json
                             else f"{payload['from']}: {payload['text']}\n")
            else:
                what = "end" if ended else "move" if payload.moves != last.moves else "offer"
                _emit(lobby, player, client.write, what, payload, as_json)
                last = _copy(payload)
        return EXIT_OK
    except StorageUnavailable as error:  # (the game is read again at a resync or a catch-up)
        (client.write_err or client.write)(f"tui-games: watch ended: {error}; watch again to go on\n")
        return EXIT_IDLE
    finally:
        stop()


def _emit(lobby: Lobby, player: str, write: Write, what: str, row: GameRow, as_json: bool) -> None:
    if as_json:
        write(json.dumps({"event": what, "data": game_data(lobby, row)}) + "\n")
    else:
        write(_game_line(lobby, row, player) + "\n")


# -- events: what is addressed to the player, as it happens (issue 58, events.py) -------------------

def _events(lobby, player, args, result, *, guest, online) -> None:
    if guest:  # the next command is another guest: nothing would ever be addressed to this one
        raise LobbyError("a guest's events end with the command; log in with a key to follow yours")
    result.stream = lambda client: events_stream(lobby, player, client, as_json=args.json)


async def events_stream(lobby: Lobby, player: str, write: Write | WatchClient, *, as_json: bool) -> int:
    """Everything addressed to ``player`` from now on, one line an event (docs/schemas/events.json
    with --json), after what is waiting already: the challenges to them and their live games
    (as game-start), so that a bot that connects late, or again, misses none. After a gap in
    the front ends' notices (a resync) those are sent again: a bot knows them by their ids.

    It goes on until the client leaves. A reader that falls behind is not buffered for: once
    the server holds more than its bound for it (:class:`WatchClient`), or more events wait
    than the bus holds (events.MAX_QUEUED), the stream ends with a line on stderr saying why
    (exit status 1): events cannot be skipped the way a watch skips moves. So it does, with
    the reason, when the lobby's database cannot be reached."""
    client = write if isinstance(write, WatchClient) else WatchClient(write)
    subscription = lobby.events.subscribe(player)

    def sent(events: list[dict]) -> bool:
        for event in events:
            if not client.has_room():
                subscription.drop("the server holds all it may of your unread events")
                return False
            _send_event(lobby, player, client.write, event, as_json)
        return True

    try:
        if sent(_waiting(lobby, player)):
            while (event := await subscription.get()) is not None:
                if not sent(_waiting(lobby, player) if event["event"] == player_events.RESYNC else [event]):
                    break
        client.on_behind()
        why = f"you fell behind ({subscription.dropped})"
    except StorageUnavailable as error:  # (what is waiting is read again at a resync: a likely time)
        why = str(error)
    finally:
        subscription.close()
    (client.write_err or client.write)(
        f"tui-games: events ended: {why}; connect again: the challenges waiting for you and your live "
        "games come first\n")
    return EXIT_DROPPED


def _waiting(lobby: Lobby, player: str) -> list[dict]:
    """What is addressed to ``player`` now, as events: the challenges to them, their live games."""
    waiting = [{"event": player_events.CHALLENGE, "data": {"offer": asdict(offer)}} for offer in lobby.offers(player)
               if offer.kind == "challenge" and offer.target == player]
    return waiting + [{"event": player_events.GAME_START, "data": {"game": row.id}} for row in lobby.games(player)]


def _send_event(lobby: Lobby, player: str, write: Write, event: dict, as_json: bool) -> None:
    """One event as its client reads it: the bus carries references (an offer's fields, a game's
    id); the line carries the offer as ``offers --json`` shows it, the game as ``show --json``."""
    kind, data = event["event"], event["data"]
    if "offer" in data:
        offer = Offer(**data["offer"])
        shown: dict = offer_data(offer)
        if "game" in data:
            shown = {"offer": shown, "game": data["game"], "by": data.get("by")}
        text = f"{kind}: {_offer_line(offer)}" + (f" (game {data['game']}, by {data.get('by')})" if "game" in data
                                                   else "")
    elif kind in (player_events.GAME_START, player_events.GAME_END):
        row = lobby.storage.game(str(data.get("game")))
        if row is None:
            return
        shown, text = game_data(lobby, row), f"{kind}: {_game_line(lobby, row, player)}"
    else:  # a tournament's pairing: theirs as published
        shown, text = data, f"{kind}: " + " ".join(f"{key}={value}" for key, value in data.items())
    # (JSON escapes control characters; the text line is cleaned of them, since a tournament's
    # data may hold a name someone typed, and this reaches a terminal)
    write(json.dumps({"event": kind, "data": shown}) + "\n" if as_json
          else "".join(ch if ch.isprintable() else "?" for ch in text) + "\n")


def _ratings(lobby, player, args, result, *, guest, online) -> None:
    rows = lobby.ratings(args.game)
    if args.json:
        result.out.append(json.dumps([{"player": p, "game": g, "rating": round(r.rating, 1), "rd": round(r.rd, 1),
                                       "games": n} for p, g, r, n in rows]))
        return
    result.out.extend(f"{g:<9} {p:<20} {r} (±{r.rd:.0f}, {n} games)" for p, g, r, n in rows)
    if not rows:
        result.out.append("no rated games yet")


def _history(lobby, player, args, result, *, guest, online) -> None:
    rows = lobby.history(args.player or player)
    if args.json:
        result.out.append(json.dumps([game_data(lobby, r) for r in rows]))
        return
    result.out.extend(_game_line(lobby, row) for row in rows)
    if not rows:
        result.out.append("no finished games")


def _export(lobby, player, args, result, *, guest, online) -> None:
    text = lobby.export(args.game_id)
    if args.json:
        result.out.append(json.dumps({"id": args.game_id, "text": text}))
    else:
        result.out.append(text.rstrip("\n"))


# -- the puzzle of the day -------------------------------------------------------------------------

def _puzzle(lobby, player, args, result, *, guest, online) -> None:
    words = args.words
    if words[0] == "leaderboard":
        if len(words) != 2 or args.answer is not None:
            raise LobbyError("puzzle leaderboard: give one game, as in: puzzle leaderboard connect4")
        data, lines = puzzles.leaderboard_lines(lobby, puzzles.check_game(words[1]))
        result.out.append(json.dumps(data)) if args.json else result.out.extend(lines)
        return
    if len(words) != 1:
        raise LobbyError("puzzle: give one game (puzzle connect4) or: puzzle leaderboard GAME")
    game = puzzles.check_game(words[0])

    def stream(client: Write | WatchClient) -> Awaitable[int]:
        to = client if isinstance(client, WatchClient) else WatchClient(client)
        return puzzles.puzzle_stream(lobby, player, game, args.answer, as_json=args.json, guest=guest,
                                     write=to.write, write_err=to.write_err or to.write)

    result.stream = stream


_COMMANDS = {"who": _who, "games": _games, "offers": _offers, "show": _show, "seek": _seek, "challenge": _seek, "accept": _accept,
             "decline": _decline, "move": _move, "resign": _resign, "draw": _draw, "takeback": _takeback,
             "rematch": _rematch, "ratings": _ratings, "history": _history, "export": _export, "abort": _abort,
             "claim": _claim, "watch": _watch, "events": _events, "tournament": tournament_commands.run,
             "puzzle": _puzzle}
