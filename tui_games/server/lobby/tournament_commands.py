"""``ssh host tournament …``: the lobby's tournaments by command (tournament.py), each with --json.

    tournament create GAME (--swiss ROUNDS | --arena DURATION) --clock M+S [--name NAME]
                      [--starts-in DURATION] [--variant V]
    tournament list                      open, running and the 10 latest finished
    tournament show ID                   its players, games and standings
    tournament standings ID              the standings (a Swiss's with its tiebreaks and crosstable)
    tournament join ID [--house NAME]    join; the creator may seat a house player of its game
    tournament withdraw ID [--house NAME]
    tournament start ID                  the creator starts it before its time
    tournament berserk GAME              in an arena, before your first move: half your clock, no increment
"""

from __future__ import annotations

import argparse
import json
import weakref
from typing import Any, Callable

from tui_games.online.tournament_text import standing_lines
from tui_games.server.lobby.hub import Lobby, LobbyError
from tui_games.server.lobby.storage import TournamentRow
from tui_games.server.lobby.tournament import TournamentLimits, Tournaments, duration_text

_ATTACHED: "weakref.WeakKeyDictionary[Lobby, Tournaments]" = weakref.WeakKeyDictionary()


def attach(lobby: Lobby, limits: TournamentLimits | None = None,
           publish: Callable[[str, dict], None] | None = None) -> Tournaments:
    """The lobby's tournaments, with the server's limits and where their pairings are told to
    the players (ssh.py, at start; tournament.Tournaments)."""
    _ATTACHED[lobby] = Tournaments(lobby, limits, publish)
    return _ATTACHED[lobby]


def of(lobby: Lobby) -> Tournaments:
    """The lobby's tournaments (made with the default limits if the server attached none)."""
    if lobby not in _ATTACHED:
        attach(lobby)
    return _ATTACHED[lobby]


def add_parser(commands: Any, parser_class: type) -> None:
    """The ``tournament`` command and its actions, in the lobby's parser (commands.py)."""
    top = commands.add_parser("tournament", add_help=False)
    actions = top.add_subparsers(dest="action", parser_class=parser_class)
    actions.required = True

    def add(name: str, *arguments: str) -> argparse.ArgumentParser:
        sub = actions.add_parser(name, add_help=False)
        for argument in arguments:
            sub.add_argument(argument)
        sub.add_argument("--json", action="store_true")
        return sub

    create = add("create", "game")
    kind = create.add_mutually_exclusive_group(required=True)
    kind.add_argument("--swiss", metavar="ROUNDS")
    kind.add_argument("--arena", metavar="DURATION")
    create.add_argument("--clock", required=True)
    create.add_argument("--name", default=None)
    create.add_argument("--starts-in", default="5m")
    create.add_argument("--variant", default=None)
    add("list")
    add("show", "tournament_id")
    add("standings", "tournament_id")
    for name in ("join", "withdraw"):
        add(name, "tournament_id").add_argument("--house", default=None)
    add("start", "tournament_id")
    add("berserk", "game_id")


def run(lobby: Lobby, player: str, args: argparse.Namespace, result: Any, *, guest: bool, online: Any) -> None:
    """One ``tournament`` action for ``player``; LobbyError for anything refused."""
    tournaments = of(lobby)
    action = args.action
    if action == "create":
        if guest:
            raise LobbyError("tournament games are rated: guests cannot create one; log in with a key")
        kind, length = ("swiss", args.swiss) if args.swiss is not None else ("arena", args.arena)
        row = tournaments.create(player, args.game, kind=kind, length=length, clock=args.clock, name=args.name,
                                 starts_in=args.starts_in, variant=args.variant, source=args.source)
        _out(result, args, tournaments.data(row), _line(row, lobby))
    elif action == "list":
        rows = tournaments.listed()
        if args.json:
            result.out.append(json.dumps([tournaments.summary(r) for r in rows]))
        else:
            result.out.extend(_line(r, lobby) for r in rows)
            if not rows:
                result.out.append("no tournaments; create one with: tournament create GAME --arena 30m --clock 3+2")
    elif action == "show":
        row = tournaments.get(args.tournament_id)
        data = tournaments.data(row)
        if args.json:
            result.out.append(json.dumps(data))
            return
        result.out.append(_line(row, lobby))
        result.out.append("players: " + (", ".join(p["name"] + (" (withdrawn)" if p["withdrawn"] else "")
                                                    for p in data["players"]) or "none yet"))
        result.out.extend(standing_lines(row.kind, data["standings"]))
        live = [g for g in data["games"] if g["result"] is None]
        result.out.extend(f"playing: {g['id']}  {g['first']} v {g['second']}" for g in live)
    elif action == "standings":
        row = tournaments.get(args.tournament_id)
        standings = tournaments.standings(row)
        if args.json:
            result.out.append(json.dumps(standings))
        else:
            result.out.extend(standing_lines(row.kind, standings) or ["nobody has joined"])
    elif action in ("join", "withdraw"):
        operation = tournaments.join if action == "join" else tournaments.withdraw
        kwargs: dict[str, Any] = {"house": args.house}
        if action == "join":
            kwargs["guest"], kwargs["source"] = guest, args.source
        row = operation(player, args.tournament_id, **kwargs)
        who = args.house or player
        _out(result, args, tournaments.data(row),
             f"{who} {'joined' if action == 'join' else 'withdrew from'} {row.id} ({row.name})")
    elif action == "start":
        row = tournaments.start(player, args.tournament_id)
        _out(result, args, tournaments.data(row), _line(row, lobby))
    elif action == "berserk":
        game = tournaments.berserk(player, args.game_id)
        side = game.players.index(player)
        _out(result, args, {"game": game.id, "left": game.left[side]},
             f"berserk in {game.id}: {game.left[side]:.0f} s on your clock")


def _out(result: Any, args: argparse.Namespace, data: Any, text: str) -> None:
    result.out.append(json.dumps(data) if args.json else text)


def _line(row: TournamentRow, lobby: Lobby) -> str:
    d = row.data
    length = f"{d['rounds']} rounds" if row.kind == "swiss" else duration_text(d["duration"])
    now = lobby.clock()
    if row.status == "open":
        when = f"starts in {duration_text(max(0.0, row.starts - now))}"
    elif row.status == "running":
        when = (f"round {d['round']} of {d['rounds']}" if row.kind == "swiss"
                else f"{duration_text(max(0.0, (d['ends'] or now) - now))} left")
    else:
        when = f"over ({d.get('reason') or 'finished'})"
    players = sum(not p["withdrawn"] for p in d["players"])
    return (f"{row.id}  {row.name[:40]}  {row.game} {row.kind} {length} {d['clock']}  "
            f"{players} players  {when}")
