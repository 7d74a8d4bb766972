"""Play online: who is here, open seeks and challenges, your games, live games to watch, and a
chat line. Only under the SSH server (the app then has a lobby connection, see app.py).

Enter on a row does the obvious thing: accept an offer, open your game, watch a live game,
challenge a player, replay a finished game. s seeks a game (for everyone, or private: a code to
give a friend), a joins a private game by its code, x cancels or declines the offer under the
cursor, ! says something to everyone in the lobby. On the Tournaments tab, Enter shows a
tournament's standings (kept live while it is shown), j joins it and w withdraws.
"""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static, TabbedContent, TabPane

from tui_games.engine.arena import ArenaConfig, ArenaResult, GameRecord
from tui_games.games import arena_adapter, arena_specs, find_game
from tui_games.online.client import LobbyClient, LobbyUnavailable
from tui_games.online.tournament_text import standing_lines
from tui_games.ui.app_base import UsesApp
from tui_games.ui.screens.choices import Choice, ChoicesDialog
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.screens.live_game import open_live_game
from tui_games.ui.screens.replay import ReplayScreen
from tui_games.ui.widgets.keys_footer import KeysFooter

CLOCKS = [("no clock", "none"), ("3+2 (blitz)", "3+2"), ("5+3", "5+3"), ("10+5 (rapid)", "10+5"),
          ("15+10", "15+10"), ("1 day a move", "corr:1"), ("3 days a move", "corr:3"), ("7 days a move", "corr:7")]


COLUMNS = {
    "offers": [("id", 8), ("from", 22), ("game", 9), ("clock", 7), ("", 11), ("plays", 6)],
    "games": [("id", 6), ("game", 9), ("players", 26), ("clock", 7), ("state", 14), ("watching", 8)],
    "live": [("id", 6), ("game", 9), ("players", 26), ("clock", 7), ("moves", 5), ("watching", 8)],
    "online": [("player", 26), ("doing", 48)],
    "history": [("id", 6), ("game", 9), ("players", 24), ("clock", 6), ("result", 22), ("moves", 5)],
    "ratings": [("game", 9), ("player", 26), ("rating", 7), ("±", 4), ("games", 5)],
    "tournaments": [("id", 7), ("name", 20), ("game", 9), ("kind", 6), ("clock", 5), ("in", 3), ("state", 16)],
}


def tournament_state(t: dict, now: float, me: str) -> str:
    """A tournament's state in a few words, for its row."""
    mine = "*" if me in t.get("entrants", []) else ""
    if t["status"] == "open":
        return f"{mine}in {max(0, int(t['starts'] - now)) // 60}m{max(0, int(t['starts'] - now)) % 60:02d}s"
    if t["status"] == "running":
        if t["kind"] == "swiss":
            return f"{mine}round {t['round']}/{t['rounds']}"
        return f"{mine}{max(0, int((t['ends'] or now) - now)) // 60}m left"
    return f"{mine}over"


def tournament_lines(data: dict) -> list[str]:
    """The standings of one tournament, as the command prints them (tournament_commands)."""
    head = f"{data['name']} · {data['game']} {data['kind']} {data['clock']} · {data['status']}"
    if data.get("reason"):
        head += f" ({data['reason']})"
    return [head, *standing_lines(data["kind"], data["standings"])]


def seek_dialog(title: str, games: list[str], private_choice: bool = True) -> ChoicesDialog:
    variants: list[tuple[str, str]] = []
    for key in games:
        variants += [(f"{find_game(key).title}: {label}", f"{key}/{label}") for label, _ in arena_adapter(key).variants]
    return ChoicesDialog(title, [
        Choice("variant", "Game", variants, variants[0][1]),
        Choice("clock", "Clock", CLOCKS, "5+3"),
        Choice("rated", "Rated", [("rated", True), ("casual", False),
                                  ("casual, both may use the engine's help", "assist")], True),
        Choice("colour", "You play", [("either side", "random"), ("first", "first"), ("second", "second")],
               "random"),
        *([Choice("private", "Open to", [("everyone in the lobby", False), ("a friend with the code", True)],
                  False)] if private_choice else []),
    ])


async def _leave(lobby: LobbyClient) -> None:
    try:
        await lobby.request("leave")
    except LobbyUnavailable:  # gone: nothing is pushed to it anyway
        pass


def replay_screen(game: dict) -> ReplayScreen:
    """A finished game of the lobby in the Lab's replay screen."""
    adapter = arena_adapter(game["game"])
    first, second = game["names"]
    winner = {None: None, first: "a", second: "b"}[game["winner"]]
    config = ArenaConfig(game["game"], first, second, 1, swap=False, variant=game["variant"])
    result = ArenaResult(config, find_game(game["game"]).title, adapter.side_names, first, second, seed=0)
    moves = list(game["moves"])
    result.records.append(GameRecord(1, 0, f"lobby game {game['id']}", "", 0, moves, winner, game["reason"] or "",
                                     0.0, [0.0] * len(moves), [0] * len(moves), [""] * len(moves)))
    return ReplayScreen(result, result.records[0])


class LobbyScreen(UsesApp, Screen):
    BINDINGS = [
        Binding("s", "seek", "Seek"),
        Binding("a", "accept_code", "Code"),
        Binding("x", "withdraw", "Cancel/decline"),
        Binding("exclamation_mark", "chat", "Say"),
        Binding("j", "tournament('tournament-join')", "Join"),
        Binding("w", "tournament('tournament-withdraw')", "Withdraw"),
        Binding("r", "refresh", "Refresh"),
        # The lists use rows only: ← → always switch tabs, wherever the focus is.
        Binding("left", "tab(-1)", "Tab", show=False, priority=True),
        Binding("right", "tab(1)", "Tab", show=False, priority=True),
        Binding("escape", "app.pop_screen", "Back"),
    ]

    DEFAULT_CSS = """
    LobbyScreen #lobby-status { height: auto; padding: 0 1; color: $text-muted; }
    LobbyScreen #lobby-chat { dock: bottom; height: 3; padding: 0 1; color: $text-muted; }
    LobbyScreen DataTable { height: 1fr; }
    /* The list and, under it, the standings of the one chosen: both above the docked chat line. */
    LobbyScreen #tournaments { height: 7; }
    LobbyScreen #tournament-standings { height: auto; max-height: 8; padding: 0 1; }
    """
    LISTS_FRESH = 10.0  # seconds History and Ratings stay as loaded before a visit asks again

    def __init__(self) -> None:
        super().__init__()
        self.state: dict = {"games": [], "live": [], "offers": [], "online": []}
        self.history: list[dict] = []
        self.chat_lines: list[str] = []
        self.tournaments: list[dict] = []
        self.shown_tournament: str | None = None  # whose standings are shown (and kept live)
        self._lists_loaded = -LobbyScreen.LISTS_FRESH  # monotonic time of the last load

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static("Connecting to the lobby…", id="lobby-status")
            with TabbedContent(id="lobby-tabs"):
                with TabPane("Offers", id="tab-offers"):
                    yield DataTable(id="offers", cursor_type="row", zebra_stripes=True)
                with TabPane("Your games", id="tab-games"):
                    yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
                with TabPane("Watch", id="tab-live"):
                    yield DataTable(id="live", cursor_type="row", zebra_stripes=True)
                with TabPane("Players", id="tab-online"):
                    yield DataTable(id="online", cursor_type="row", zebra_stripes=True)
                with TabPane("History", id="tab-history"):
                    yield DataTable(id="history", cursor_type="row", zebra_stripes=True)
                with TabPane("Ratings", id="tab-ratings"):
                    yield DataTable(id="ratings", cursor_type="row", zebra_stripes=True)
                with TabPane("Tournaments", id="tab-tournaments"):
                    yield DataTable(id="tournaments", cursor_type="row", zebra_stripes=True)
                    yield Static("Enter: standings · j: join · w: withdraw", id="tournament-standings")
            yield Static("", id="lobby-chat")
        yield KeysFooter(compact=True)

    def on_mount(self) -> None:
        # Fixed widths (for 80 columns): a table filled as events come never waits on measuring.
        for table, columns in COLUMNS.items():
            widget = self.query_one(f"#{table}", DataTable)
            for label, width in columns:
                widget.add_column(label, width=width)
        self.app.lobby_listeners.append(self._heard)
        self.query_one("#offers", DataTable).focus()
        self.action_refresh()

    def action_tab(self, step: int) -> None:
        tabs = self.query_one(TabbedContent)
        panes = [pane.id or "" for pane in tabs.query(TabPane)]
        tabs.active = panes[(panes.index(tabs.active) + step) % len(panes)]

    @on(TabbedContent.TabActivated)
    def _tab_changed(self, event: TabbedContent.TabActivated) -> None:
        # A burst of → keys leaves activations behind the tab now in view: acting on a stale one
        # (focusing its list) would make TabbedContent switch back to it, and so on for ever.
        if event.pane.id != event.tabbed_content.active:
            return
        # Keys go to the list of the tab in view: Enter on a row, arrows to move.
        event.pane.query_one(DataTable).focus()
        if event.pane.id == "tab-tournaments":
            self._load_tournaments()
        if event.pane.id in ("tab-history", "tab-ratings") and time.monotonic() - self._lists_loaded > self.LISTS_FRESH:
            self._lists_loaded = time.monotonic()
            self._load_lists()

    @work(exclusive=True, group="lobby-lists")
    async def _load_lists(self) -> None:
        try:
            history = await self.app.lobby_client().request("history")
            ratings = await self.app.lobby_client().request("ratings")
        except (LobbyUnavailable, AttributeError) as error:
            self.notify(str(error) or "the lobby is not reachable", severity="error", timeout=6, markup=False)
            return
        self.history = history
        table = self.query_one("#history", DataTable)
        table.clear()
        for g in history:
            result = "draw" if g["winner"] is None else f"{g['winner']} won"
            table.add_row(g["id"], g["game"], " v ".join(g["names"]), g["clock"], f"{result} ({g['reason']})",
                          str(len(g["moves"])), key=g["id"])
        table = self.query_one("#ratings", DataTable)
        table.clear()
        for r in ratings:
            unsure = "?" if r["rd"] > 110 else ""
            table.add_row(r["game"], r["player"], f"{r['rating']:.0f}{unsure}", f"{r['rd']:.0f}", str(r["games"]))

    # -- tournaments ----------------------------------------------------------------------------------

    @work(exclusive=True, group="lobby-tournaments")
    async def _load_tournaments(self) -> None:
        try:
            self.tournaments = await self.app.lobby_client().request("tournaments")
        except (LobbyUnavailable, AttributeError) as error:
            self.notify(str(error) or "the lobby is not reachable", severity="error", timeout=6, markup=False)
            return
        self._fill_tournaments()

    def _fill_tournaments(self) -> None:
        table = self.query_one("#tournaments", DataTable)
        row = table.cursor_row
        table.clear()
        now = time.time()
        for t in self.tournaments:
            table.add_row(t["id"], Text(t["name"][:20]), t["game"], t["kind"], t["clock"], str(t["players"]),
                          tournament_state(t, now, self.me), key=t["id"])
        if row is not None and self.tournaments:
            table.move_cursor(row=min(row, len(self.tournaments) - 1))

    async def _asked(self, op: str, **args: Any) -> Any:
        """The lobby's answer to ``op``, or None once the player has been told why there is none."""
        try:
            return await self.app.lobby_client().request(op, **args)
        except LobbyUnavailable as error:
            self.notify(str(error), severity="error", timeout=6, markup=False)
            return None

    @work(exclusive=True, group="lobby-tournament")
    async def _show_tournament(self, tournament_id: str) -> None:
        data = await self._asked("tournament", tournament=tournament_id)
        if data is None:
            return
        self.shown_tournament = tournament_id
        # Text: names are the players' own, shown as typed, never read as markup.
        self.query_one("#tournament-standings", Static).update(Text("\n".join(tournament_lines(data)[:8])))

    def _tournament_under_cursor(self) -> dict | None:
        table = self.query_one("#tournaments", DataTable)
        if not self.tournaments or table.cursor_row is None:
            return None
        return self.tournaments[min(table.cursor_row, len(self.tournaments) - 1)]

    def action_tournament(self, op: str) -> None:
        if self.query_one(TabbedContent).active != "tab-tournaments":
            self.notify("j and w join and withdraw on the Tournaments tab", timeout=4)
            return
        chosen = self._tournament_under_cursor()
        if chosen is not None:
            self._tournament_request(op, chosen["id"])

    @work(group="lobby-request")
    async def _tournament_request(self, op: str, tournament_id: str) -> None:
        data = await self._asked(op, tournament=tournament_id)
        if data is None:
            return
        verb = "joined" if op == "tournament-join" else "withdrew from"
        self.notify(f"You {verb} {data['name']}.", timeout=4, markup=False)
        self._show_tournament(tournament_id)

    def on_unmount(self) -> None:
        if self._heard in self.app.lobby_listeners:
            self.app.lobby_listeners.remove(self._heard)
        # Who is online is pushed only to the apps showing it (the state request asked for it).
        lobby = self.app.lobby
        if lobby is not None and lobby.connected:
            self.app.run_worker(_leave(lobby), group="lobby", exit_on_error=False)

    @property
    def me(self) -> str:
        return self.app.lobby.player or "" if self.app.lobby else ""

    # -- what the lobby says -------------------------------------------------------------------------

    def _heard(self, event: dict) -> None:
        # The lobby client calls this from its own task: the event is handled in this screen's
        # message loop, as Textual expects of anything that changes widgets (a DataTable filled
        # from outside it may never measure its new rows).
        self.call_later(self._event, event)

    def _event(self, event: dict) -> None:
        kind = event.get("event")
        data: Any = event.get("data")  # (its shape is the event's: lobby/views.py)
        if kind == "offer":  # a delta: one offer opened, or gone
            offers = [o for o in self.state["offers"] if o["id"] != data["id"]]
            self.state["offers"] = offers if data.get("gone") else offers + [data]
        elif kind == "online":
            self.state["online"] = data
        elif kind == "game":
            mine = self.me in data["names"]
            began = mine and data["status"] == "live" and not any(g["id"] == data["id"] for g in self.state["games"])
            games = [g for g in self.state["games"] if g["id"] != data["id"]]
            if data["status"] == "live" and mine:
                games.insert(0, data)
            self.state["games"] = games
            # The Watch list follows every game that begins or ends, with no refresh.
            live = [g for g in self.state.get("live", []) if g["id"] != data["id"]]
            self.state["live"] = [data] + live if data["status"] == "live" else live
            if began and len(data["moves"]) == data.get("opening", 0):
                # A game just began for us (someone took our seek): go to it.
                if not isinstance(self.app.screen, ChoicesDialog):
                    open_live_game(self.app, data)
        elif kind == "tournament":
            self.tournaments = [data] + [t for t in self.tournaments if t["id"] != data["id"]]
            self.tournaments.sort(key=lambda t: (t["status"] == "over", t["starts"]))
            self._fill_tournaments()
            if data["id"] == self.shown_tournament:
                self._show_tournament(data["id"])
            return
        elif kind == "chat" and data.get("game") is None:
            self.chat_lines = (self.chat_lines + [f"{data['from']}: {data['text']}"])[-3:]
            # Text, not markup: what others type is shown as typed, never interpreted.
            self.query_one("#lobby-chat", Static).update(Text("\n".join(self.chat_lines)))
            return
        elif kind == "closing":
            self.query_one("#lobby-status", Static).update(
                Text(f"The lobby dropped this app: {data.get('reason', '')} Reconnecting…"))
            return
        elif kind == "reconnected":
            self.action_refresh()
            return
        elif kind == "closed":
            self.query_one("#lobby-status", Static).update("The lobby closed the connection.")
            return
        else:
            return
        self._fill()

    @work(exclusive=True, group="lobby-refresh")
    async def action_refresh(self) -> None:
        lobby = self.app.lobby
        if lobby is None:
            self.query_one("#lobby-status", Static).update("Online play needs the game server (ssh).")
            return
        try:
            if not lobby.connected:
                await lobby.connect()
            self.state = await lobby.request("state")
        except LobbyUnavailable as error:
            self.query_one("#lobby-status", Static).update(Text(f"Online play is not available: {error}"))
            return
        self._fill()

    def _fill(self) -> None:
        me = self.me
        status = f"You are [b]{me}[/b]" + (" (a guest: casual games only)" if self.app.lobby_client().guest else "")
        status += f" · {len(self.state['online'])} online · ←/→ tabs · Enter: accept, open, watch, challenge"
        self.query_one("#lobby-status", Static).update(status)
        offers = self.query_one("#offers", DataTable)
        offers.clear()
        for o in self.state["offers"]:
            to = f"→ {o['target']}" if o.get("target") else ""
            offers.add_row(o["id"], f"{o['owner']} {to}".strip(), o["game"], o["clock"],
                           "rated" if o["rated"] else "casual+help" if o.get("assist") else "casual", o["colour"],
                           key=o["id"])
        games = self.query_one("#games", DataTable)
        games.clear()
        for g in self.state["games"]:
            whose = "your move" if g.get("to_move") == me else f"{g.get('to_move')} to move"
            games.add_row(g["id"], g["game"], " v ".join(g["names"]), g["clock"], whose, str(g.get("spectators", 0)),
                          key=g["id"])
        live = self.query_one("#live", DataTable)
        live.clear()
        for g in self.state.get("live", []):
            live.add_row(g["id"], g["game"], " v ".join(g["names"]), g["clock"], str(len(g["moves"])),
                         str(g.get("spectators", 0)), key=g["id"])
        online = self.query_one("#online", DataTable)
        online.clear()
        for person in {person["name"]: person for person in self.state["online"]}.values():
            online.add_row(person["name"], person["status"], key=person["name"])

    # -- what the player does ---------------------------------------------------------------------------

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        table = event.data_table.id
        if table == "offers":
            self._request("accept", offer=key)
        elif table == "games":
            game = next((g for g in self.state["games"] if g["id"] == key), None)
            if game:
                open_live_game(self.app, game)
        elif table == "live":
            self._watch(key)
        elif table == "online" and key is not None and key != self.me:
            self._challenge(key)
        elif table == "history":
            game = next((g for g in self.history if g["id"] == key), None)
            if game:
                self.app.push_screen(replay_screen(game))
        elif table == "tournaments" and key is not None:
            self._show_tournament(key)

    def action_seek(self) -> None:
        self._offer_dialog("Seek a game", None)

    def _challenge(self, player: str) -> None:
        self._offer_dialog(f"Challenge {player}", player)

    def _offer_dialog(self, title: str, target: str | None) -> None:
        def chosen(values: dict | None) -> None:
            if values is None:
                return
            game, variant = values["variant"].split("/", 1)
            rated = values["rated"] is True and not self.app.lobby_client().guest
            args = {"game": game, "variant": variant, "clock": values["clock"], "rated": rated,
                    "assist": values["rated"] == "assist",
                    "colour": values["colour"], "private": bool(values.get("private"))}
            if target:
                args["target"] = target
            self._request("seek", **args)

        games = [spec.key for spec in arena_specs()]
        self.app.push_screen(seek_dialog(title, games, private_choice=target is None), chosen)

    def action_accept_code(self) -> None:
        def given(code: str | None) -> None:
            if code:
                self._request("accept", offer=code.strip().lower())

        self.app.push_screen(InputDialog("Join a private game", "The code your friend gave you:"), given)

    def action_withdraw(self) -> None:
        table = self.query_one("#offers", DataTable)
        if not self.state["offers"] or table.cursor_row is None:
            return
        offer = self.state["offers"][min(table.cursor_row, len(self.state["offers"]) - 1)]
        self._request("decline", offer=offer["id"])

    def action_chat(self) -> None:
        def said(text: str | None) -> None:
            if text:
                self._request("chat", text=text)

        self.app.push_screen(InputDialog("Say to the lobby", "One line (at most 200 characters):"), said)

    @work(group="lobby-request")
    async def _request(self, op: str, **args) -> None:
        data = await self._asked(op, **args)
        if data is None:
            return
        if op == "accept" or op == "seek" and "names" in data:  # (a crossing rematch is a game)
            open_live_game(self.app, data)
        elif op == "seek" and data["kind"] == "private":
            self.notify(f"Give your friend the code [b]{data['id']}[/b]: they press a in Play online and type it "
                        f"(or: ssh … accept {data['id']}). x cancels it.", timeout=30)
        elif op == "seek":
            who = f"{args['target']}" if args.get("target") else "anyone"
            self.notify(f"Offer {data['id']} is open to {who}; x cancels it.", timeout=5)

    @work(group="lobby-request")
    async def _watch(self, game_id: str) -> None:
        data = await self._asked("watch", game=game_id)
        if data is None:
            return
        open_live_game(self.app, data)
