"""A game against another player (or watched), on the game's own screen and board.

The screen of the game table (tic-tac-toe, Connect-4, checkers) is reused as it is, with
:class:`LiveGame` in front of it (declared below, one class per game: ``LiveConnect4Screen``
is ``LiveGame`` then ``Connect4Screen``; LiveGame overrides the hooks GameScreen declares for
its subclasses): a move on the board goes to the lobby, which checks it and
sends the game back to both players and the spectators; only then does it appear. Nothing is
saved locally (the server keeps the game); undo, new game and options do not apply; the
engine's help (hint, compare, stats and tree panels) is off for the players unless the game is
casual and its seek offered it (accepting is the other player's agreement); spectators have it. R resigns, D offers or accepts a draw, u asks to take your
last move back (or grants the opponent's asking), n after the end offers a rematch with the
sides swapped, C claims the win from an opponent gone for a minute, ! says something to the
game. Before both sides' first moves the clocks wait and A aborts the game (no result, no
rating); resigning, draws and takebacks come after.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from textual import work
from textual.binding import Binding

from tui_games.games import arena_adapter, find_game
from tui_games.online.client import LobbyUnavailable
from tui_games.ui.app_base import GamesApp
from tui_games.ui.archive import archive_texts, kept_recently
from tui_games.ui.screens.checkers import CheckersScreen
from tui_games.ui.screens.confirm import ConfirmDialog
from tui_games.ui.screens.connect4 import Connect4Screen
from tui_games.ui.screens.game_screen import GameScreen
from tui_games.ui.screens.input_dialog import InputDialog
from tui_games.ui.screens.tictactoe import TicTacToeScreen
from tui_games.ui.widgets.stats_panel import StatsPanel
from tui_games.ui.widgets.tree_inspector import TreeInspector


def clock_text(seconds: float | None) -> str:
    if seconds is None:
        return ""
    seconds = max(0.0, seconds)
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} d"
    if seconds >= 3600:
        return f"{int(seconds // 3600)}:{int(seconds % 3600 // 60):02d} h"
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


class LiveGame(GameScreen):
    """A game of the lobby on a game's own screen: each game's class puts this in front of its
    screen class (the classes below, each named by its game's ``live_screen`` in the game
    table). Its methods override GameScreen's hooks; ``super()`` reaches the game's own screen."""

    # Textual merges the BINDINGS of every class in the MRO: these add to the game's own.
    BINDINGS = [
        Binding("A", "abort", "Abort"),
        Binding("u", "undo", "Takeback"),
        Binding("n", "new_game", "Rematch"),
        Binding("R", "resign", "Resign"),
        Binding("D", "draw", "Draw"),
        Binding("C", "claim", "Claim win"),
        Binding("exclamation_mark", "chat", "Say"),
    ]

    def __init__(self, options: Any, game: dict, me: str) -> None:
        self.live = game
        self.me = me
        self.side = game["names"].index(me) if me in game["names"] else None  # None: watching
        self.adapter = arena_adapter(game["game"])
        # Kept in the archive when it ends here: a game opened over already is in it, or was
        # someone else's before this app saw it.
        self._keep_when_over = game["status"] == "live"
        super().__init__(options)

    # -- the game comes from the lobby, not from the screen ---------------------------------------

    def make_opponent(self):
        return None

    def first_player(self) -> int:
        return 0

    def _resume(self) -> bool:
        return False

    def save_progress(self) -> None:
        """Nothing to save here: the server keeps the game."""

    def has_progress(self) -> bool:
        return False

    # Textual calls on_mount and on_unmount of every class in the MRO, this one first: the game
    # screen's own set-up (which starts the game, see _start_game) follows.
    def on_mount(self) -> None:
        self.app.lobby_listeners.append(self._heard)
        self.set_interval(0.5, self._tick)
        self.call_after_refresh(self._hide_engine_help)

    def _hide_engine_help(self) -> None:
        if self.engine_help_barred:
            self.query_one(StatsPanel).display = False
            self.query_one(TreeInspector).display = False

    def on_unmount(self) -> None:
        if self._heard in self.app.lobby_listeners:
            self.app.lobby_listeners.remove(self._heard)
        lobby = self.app.lobby
        if self.side is None and lobby is not None and lobby.connected:
            game_id = self.live["id"]

            async def unwatch() -> None:
                await lobby.request("unwatch", game=game_id)

            # The app's worker: this screen's own are cancelled as it goes.
            self.app.run_worker(unwatch(), group="lobby", exit_on_error=False)

    def _start_game(self, history: list | None = None, first: int | None = None) -> None:
        """A fresh board, then every move the lobby has for this game."""
        super()._start_game()
        for text in self.live["moves"]:
            move = self.adapter.parse_move(self.position, text)
            self.position.push(move)
            self.board_moved(move)
        self._show_state()

    @property
    def engine_help_barred(self) -> bool:
        """Players of a live game get the engine's help only in a casual game whose seek offered
        it (accepting the seek is the other player's agreement); spectators always have it."""
        return self.side is not None and self.live["status"] == "live" and not self.live.get("assist")

    def title_text(self) -> str:
        first, second = self.live["names"]
        kind = "rated" if self.live["rated"] else "casual, engine help" if self.live.get("assist") else "casual"
        role = "" if self.side is not None else " · watching"
        return (f"{first} ({self.side_name(0)}) v {second} ({self.side_name(1)}) · "
                f"{self.live['clock']} {kind}{role}")

    def _heard(self, event: dict) -> None:
        # The lobby client calls this from its own task: the event is handled in this screen's
        # message loop, as Textual expects of anything that changes widgets (a DataTable filled
        # from outside it may never measure its new rows).
        self.call_later(self._event, event)

    def _event(self, event: dict) -> None:
        data = event.get("data") or {}
        if event.get("event") == "game" and data.get("id") == self.live["id"]:
            self._sync(data)
        elif event.get("event") == "chat" and data.get("game") == self.live["id"]:
            # markup=False: what others type is shown as typed, never interpreted.
            self.notify(f"{data['from']}: {data['text']}", timeout=8, markup=False)
        elif event.get("event") == "closed":
            self._set_status("[b]The lobby closed the connection.[/b] Esc goes back.")
        elif event.get("event") == "closing":
            self.notify(f"The lobby dropped this app: {data.get('reason', '')} Reconnecting…", timeout=6,
                        markup=False)
        elif event.get("event") == "reconnected":
            self._resync()

    @work(group="live-request")
    async def _resync(self) -> None:
        """Back on a new connection: watch the game again (a spectator's watch was the old
        connection's) and show it as the lobby has it now."""
        try:
            self._sync(await self.app.lobby_client().request("watch", game=self.live["id"]))
        except (LobbyUnavailable, AttributeError) as error:
            self.notify(str(error) or "the lobby is not reachable", severity="error", timeout=6, markup=False)

    def _sync(self, data: dict) -> None:
        """Show the game as the lobby has it: new moves played on the board, the end if it came."""
        before = (self.live["status"], self.played >= 2)
        self.live = data
        if (data["status"], self.played >= 2) != before:
            # Abort goes after both first moves, resign and draw come; all go when the game
            # ends, and engine help comes back.
            self.refresh_bindings()
        played = [self.adapter.move_text(*pair) for pair in self._moves_with_positions()]
        if played != data["moves"][:len(played)]:  # cannot happen with one authority; rebuild all
            self._start_game()
            return
        for text in data["moves"][len(played):]:
            move = self.adapter.parse_move(self.position, text)
            self.position.push(move)
            self.board_moved(move)
        self._show_state()

    def _moves_with_positions(self):
        replay = self.new_position()
        replay.turn = 0
        for move in self.position.history:
            yield replay.copy(), move
            replay.push(move)

    @property
    def played(self) -> int:
        """Moves the players made (a checkers ballot's opening moves are nobody's)."""
        return len(self.live["moves"]) - self.live.get("opening", 0)

    def _show_state(self) -> None:
        data = self.live
        if data["status"] != "live":
            self._archive_lobby_game()
            winner = data.get("winner")
            result = "Draw" if winner is None else f"{winner} wins"
            if self.side is not None and winner is not None:
                result = "You win" if winner == self.me else "You lose"
            self._set_status(f"[b]{result}[/b] ({data['reason']}). Esc: back to the lobby")
            return
        to_move = data["to_move"]
        whose = "your move" if to_move == self.me else f"{to_move} to move"
        if self.side is not None:
            if data.get("draw_offer") and data["draw_offer"] != self.me:
                whose += f" · {data['draw_offer']} offers a draw: D accepts"
            if data.get("takeback_offer") and data["takeback_offer"] != self.me:
                whose += f" · {data['takeback_offer']} asks to take a move back: u accepts"
            opponent = data["names"][1 - self.side]
            away = (data.get("away") or {}).get(opponent)
            if self.played < 2:
                whose += " · the clocks start after both first moves; A aborts"
            elif away is not None and to_move == opponent and not data["clock"].startswith("corr:"):
                wait = data.get("claim_after", 60) - (time.time() - data["last_move"])
                whose += (f" · {opponent} is away: C claims the win" if wait <= 0
                          else f" · {opponent} is away: C claims the win in {clock_text(wait)}")
        watching = data.get("spectators") or 0
        if watching:
            whose += f" · {watching} watching"
        self._set_status(f"{self._clocks()}{whose}")

    def _archive_lobby_game(self) -> None:
        """The game as this app saw it end, in the archive (once)."""
        if not self._keep_when_over:
            return
        self._keep_when_over = False
        data = self.live
        first, second = data["names"]
        winner = data.get("winner")
        result = "1/2-1/2" if winner is None else "1-0" if winner == first else "0-1"
        event = f"lobby game {data['id']}"
        if not data["moves"] or kept_recently(self.app.store, event):
            return
        with contextlib.suppress(ValueError):  # the lobby replays every move: cannot happen
            archive_texts(self.app.store, data["game"], data.get("variant") or {}, None, data["moves"],
                          first=first, second=second, mode="lobby", you=self.side, result=result,
                          reason=data.get("reason") or "", event=event,
                          clock="" if data.get("clock") in (None, "none") else data["clock"])
        for warning in self.app.store.take_warnings():
            self.notify(warning, title="Data file problem", severity="warning", timeout=10, markup=False)

    def _clocks(self) -> str:
        left = self.live.get("seconds_left") or [None, None]
        if left[0] is None:
            return ""
        shown = list(left)
        turn = self.position.turn
        if self.played >= 2:  # the clocks run from both first moves on
            shown[turn] = left[turn] - (time.time() - self.live["last_move"])
        first, second = self.live["names"]
        return f"{first} {clock_text(shown[0])} · {second} {clock_text(shown[1])} · "

    def _tick(self) -> None:
        if self.live["status"] == "live" and ((self.live.get("seconds_left") or [None])[0] is not None
                                              or self.live.get("away")):
            self._show_state()

    def _after_move(self) -> None:
        """Turns are the lobby's business: no engine to start, only the state to show."""
        if self.live["status"] == "live":
            self._show_state()

    # -- moves go to the lobby -------------------------------------------------------------------

    def human_move(self, move: Any) -> None:
        if self.side is None:
            self.notify("You are watching this game.", timeout=2)
            return
        if self.live["status"] != "live":
            self.app.bell()
            return
        if self.position.turn != self.side:
            self.notify(f"It is {self.live['to_move']}'s move.", timeout=2)
            return
        if move not in self.position.legal_moves():
            self.app.bell()
            return
        self._send("move", move=self.adapter.move_text(self.position, move))

    @work(group="live-request")
    async def _send(self, op: str, **args: Any) -> None:
        try:
            await self.app.lobby_client().request(op, game=self.live["id"], **args)
        except (LobbyUnavailable, AttributeError) as error:
            self.notify(str(error) or "the lobby is not reachable", severity="error", timeout=6, markup=False)

    def action_resign(self) -> None:
        if self.side is None or self.live["status"] != "live":
            return
        def answered(yes: bool | None) -> None:
            if yes:
                self._send("resign")

        self.app.push_screen(ConfirmDialog("Resign?", "Resign this game?", yes="Resign"), answered)

    def action_draw(self) -> None:
        if self.side is None or self.live["status"] != "live":
            return
        offer = self.live.get("draw_offer")
        self._send("draw", action="accept" if offer and offer != self.me else "offer")

    def action_claim(self) -> None:
        if self.side is not None and self.live["status"] == "live":
            self._send("claim")

    def action_abort(self) -> None:
        if self.side is not None and self.live["status"] == "live" and self.played < 2:
            self._send("abort")

    def action_chat(self) -> None:
        def said(text: str | None) -> None:
            if text:
                self._send("chat", text=text)

        self.app.push_screen(InputDialog("Say to this game", "One line (at most 200 characters):"), said)

    def action_undo(self) -> None:
        """Ask to take your last move back (or accept the opponent's asking)."""
        if self.side is None or self.live["status"] != "live":
            return
        asked = self.live.get("takeback_offer")
        self._send("takeback", action="accept" if asked and asked != self.me else "offer")

    def action_new_game(self) -> None:
        """After the end: a rematch, sides swapped."""
        if self.side is not None and self.live["status"] != "live":
            self._rematch()

    @work(group="live-request")
    async def _rematch(self) -> None:
        try:
            made = await self.app.lobby_client().request("rematch", game=self.live["id"])
        except (LobbyUnavailable, AttributeError) as error:
            self.notify(str(error) or "the lobby is not reachable", severity="error", timeout=6, markup=False)
            return
        if "names" in made:  # both asked: the rematch began
            self.app.pop_screen()
            open_live_game(self.app, made)
        else:
            self.notify(f"Rematch offered to {made['target']} ({made['id']}).", timeout=5)

    # -- what does not apply to a game between people ------------------------------------------------

    NOT_LIVE = {"options", "lab"}
    ENGINE_HELP = {"hint", "compare", "toggle_stats", "toggle_tree"}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that do nothing here leave the footer."""
        if action in self.NOT_LIVE:
            return False
        if action in self.ENGINE_HELP:
            return not self.engine_help_barred
        if action in ("resign", "draw", "undo", "claim"):
            return self.side is not None and self.live["status"] == "live" and self.played >= 2
        if action == "abort":
            return self.side is not None and self.live["status"] == "live" and self.played < 2
        if action == "new_game":
            return self.side is not None and self.live["status"] != "live"
        return super().check_action(action, parameters)

    def _not_here(self, what: str) -> None:
        self.notify(f"{what} does not apply to a game against a person.", timeout=3)

    def action_options(self) -> None:
        self._not_here("Changing the options")

    def action_lab(self) -> None:
        self._not_here("The Lab")

    def _barred(self) -> bool:
        if self.engine_help_barred:
            self.notify("No engine help for the players of this game.", timeout=3)
            return True
        return False

    def action_hint(self) -> None:
        if not self._barred():
            super().action_hint()

    def action_compare(self) -> None:
        if not self._barred():
            super().action_compare()

    def action_toggle_stats(self) -> None:
        if not self._barred():
            super().action_toggle_stats()

    def action_toggle_tree(self) -> None:
        if not self._barred():
            super().action_toggle_tree()


class LiveTicTacToeScreen(LiveGame, TicTacToeScreen):
    """Tic-tac-toe against a person (or watched)."""


class LiveConnect4Screen(LiveGame, Connect4Screen):
    """Connect-4 against a person (or watched)."""


class LiveCheckersScreen(LiveGame, CheckersScreen):
    """Checkers against a person (or watched)."""


def open_live_game(app: GamesApp, game: dict) -> None:
    """Push the screen of a live (or watched) game from the lobby's view of it (the game
    table's ``live_screen``)."""
    if any(isinstance(screen, LiveGame) and screen.live.get("id") == game["id"] for screen in app.screen_stack):
        return  # already open: the reply to an accept and the game's start both say it began
    cls = find_game(game["game"]).live_screen_class
    settings = app.store.load_settings().get(game["game"], {})
    options = cls.OPTIONS.from_settings({**settings, **game["variant"], "opponent": "human"})
    me = (app.lobby.player if app.lobby else None) or ""
    app.push_screen(cls(options, game, me))
