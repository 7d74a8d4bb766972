"""The Textual application: menu, game screens, settings, scores, help."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Iterable
from functools import partial
from typing import Callable

from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.drivers.web_driver import WebDriver
from textual.filter import Monochrome
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from tui_games.engine import pacing
from tui_games.games import GAMES, find_game
from tui_games.online.client import LobbyClient, LobbyUnavailable
from tui_games.ui.app_base import GamesApp
from tui_games.ui.ascii import AsciiFilter
from tui_games.ui.no_color import Colourless
from tui_games.ui.runtime import partial_updates, textual_compat
from tui_games.ui.runtime.batch_repaint import RepaintAfterBatch
from tui_games.ui.runtime.driver import BoundedWebDriver, HangUpSafeDriver, catch_hang_up
from tui_games.ui.runtime.warm_start import SharedStylesheet, css_variables
from tui_games.ui.screens.help import HelpScreen
from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.menu import MenuScreen
from tui_games.ui.screens.saving import SavingScreen
from tui_games.ui.screens.scores import ScoresScreen
from tui_games.ui.screens.settings import SettingsScreen
from tui_games.ui.widgets.session_notice import SessionNotice
from tui_games.userdata.store import Store

# The private names of Textual and asyncio the app relies on, checked before any app exists.
textual_compat.check()

# Every screen is designed for this size; below it the app says so instead of drawing a
# squeezed board.
MIN_WIDTH, MIN_HEIGHT = 80, 24
# Ctrl+P's names for a screen's commands, where the key bar's word is too short.
PALETTE_TITLES = {"new_game": "New game", "hint": "Hint: the best move", "compare": "Compare the algorithms",
                  "options": "Game options", "toggle_stats": "Show or hide the statistics",
                  "toggle_tree": "Show or hide the search tree", "lab": "Lab on this position"}
SWITCH_INTERVAL = 0.001
NO_COLOR_FILTER = Colourless()
# The session holding the saved games looks for a take-over request this often (one stat); the
# asking one tries the lock this often and gives up after TAKEOVER_WAIT seconds without an answer.
# A read-only session looks whether the holder still runs every HOLDER_POLL seconds while it may
# take the games by itself (AUTO_TAKE_SECONDS), then every HOLDER_POLL_LATER (for its notice: a
# read of a small file, a kill(pid, 0); nothing is redrawn unless it changed). A look is a few
# microseconds of work (5 µs for the holder, 17 µs read-only); waking Textual's timer costs more,
# so the intervals are as long as a person waiting for T allows.
TAKEOVER_POLL = 1.0
HOLDER_POLL = 1.0
HOLDER_POLL_LATER = 3.0
# A session that starts read-only takes the saved games by itself if their holder ends within
# this long: a browser tab reloaded, or an SSH login again after a drop, while the old app is
# still saving and exiting. Later on, the player decides (T).
AUTO_TAKE_SECONDS = 10.0
TAKEOVER_STEP = 0.1
TAKEOVER_WAIT = 10.0


class TooSmallScreen(ModalScreen[None]):
    """Covers the app while the terminal is smaller than 80×24; goes when it grows."""

    DEFAULT_CSS = """
    TooSmallScreen { background: $background; }
    TooSmallScreen Static { width: auto; text-align: center; }
    """

    def compose(self) -> ComposeResult:
        with Middle(), Center():
            yield Static(id="too-small")

    def on_mount(self) -> None:
        self.show_size()

    def show_size(self) -> None:
        width, height = self.app.size
        self.query_one(Static).update(f"tui-games needs at least {MIN_WIDTH}×{MIN_HEIGHT}, "
                                      f"now {width}×{height}.\nMake the terminal larger (Ctrl+Q quits).")


class TuiGamesApp(RepaintAfterBatch, GamesApp):
    TITLE = "tui-games"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
                # Only while the saved games are read-only here (check_action); not a priority
                # binding, so a text field still gets a typed T.
                Binding("T", "take_over", "Take over")]
    # Nothing blinks or animates while idle: a blinking cursor costs bytes over SSH.
    ENABLE_COMMAND_PALETTE = False
    # Below 80 columns the side panels go under the board (see app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]

    def __init__(self, game: str | None = None, options: dict | None = None, store: Store | None = None,
                 *, ascii: bool | None = None, standby: bool = False) -> None:
        super().__init__()
        #: Built for nobody, up to its menu, to be forked and given a player (tui_games.ui.runtime.standby):
        #: nothing of a player's session starts until :meth:`take_player`.
        self.standby = standby
        # Taken over by a player, its first frame not drawn yet: until the driver says the
        # terminal's size, nothing drawn reaches the player (tui_games.ui.runtime.standby).
        self.first_frame_pending = False
        self._repaints_held = False
        # Parsed once a process, not once an app: the server's pre-started process has parsed
        # it all before it forks this app (tui_games.ui.runtime.warm_start).
        if textual_compat.enabled("stylesheet"):
            self.stylesheet = SharedStylesheet(variables=self.get_css_variables())
        partial_updates.install()
        # The engine thread and the UI share one interpreter lock; the default 5 ms between
        # switches adds up over the several hand-offs a keypress needs (input thread, event
        # loop, repaint) while a search runs. 1 ms keeps the answer to a key quick.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.store = store or Store()
        #: ASCII-only output (the --ascii flag, else the setting): see tui_games.ui.ascii.
        self.ascii = bool(self.store.load_settings()["ui"]["ascii"]) if ascii is None else ascii
        self._ascii_filter = AsciiFilter()
        # NO_COLOR (Textual reads it into no_color): app.tcss shows focus by attributes there.
        self.set_class(self.no_color, "-no-color")
        self.start_game = game
        self.start_options = options or {}
        # Under the SSH server: the connection to the lobby (games against other players), and
        # the screens that want its pushed events (the lobby, a live game).
        self.lobby: LobbyClient | None = LobbyClient.from_env(self._lobby_event)
        self.lobby_listeners: list[Callable[[dict], None]] = []
        # The session lock: watched while we hold it, tried while we ask for it; while another
        # session holds it, whether that one still runs.
        self._session_timer: Timer | None = None
        self._takeover_timer: Timer | None = None
        self._holder_timer: Timer | None = None
        self._holder_slow = False  # polling at HOLDER_POLL_LATER
        self._read_only_since: float | None = None

    def get_css_variables(self) -> dict[str, str]:
        variables = css_variables(self, self.current_theme)
        self.theme_variables = variables
        return variables

    def get_default_screen(self) -> Screen:
        return MenuScreen()

    def on_mount(self) -> None:
        if not self.standby:
            self._start_session()

    def take_player(self, driver: Driver) -> None:
        """In a process forked from a standby app, on its loop: this process's player (the
        store and the lobby from its environment), its terminal (``driver``), then the session
        as :meth:`on_mount` starts it, and the whole screen drawn."""
        self.standby = False
        self.store = Store()
        self.ascii = bool(self.store.load_settings()["ui"]["ascii"])
        self.lobby = LobbyClient.from_env(self._lobby_event)
        textual_compat.set_app_driver(self, driver)
        driver.start_application_mode()
        # Drawn whole on the player's terminal once the driver says its size (see _on_resize);
        # nothing before that reaches the player (tui_games.ui.runtime.standby.held), and nothing
        # is drawn at all meanwhile: the session's start asks for a repaint (its theme), which
        # Textual's update timer painted before the size arrived often enough (13 ms of CPU a
        # login, thrown away by the held driver, then the whole frame again).
        self.first_frame_pending = True
        if textual_compat.enabled("first_frame"):
            textual_compat.hold_repaints(self)
            self._repaints_held = True
        self._start_session()
        if isinstance(self.screen, MenuScreen):
            self.screen.show_saved_games()
        if self.ascii:  # what was drawn before has no ASCII filter: all of it again
            for widget in self.screen.walk_children(with_self=False):
                widget.refresh()
        self.refresh_bindings()

    def _start_session(self) -> None:
        # Before any screen: they show whether this session writes the saved games.
        self._open_session()
        settings = self.store.load_settings()
        # Read the scores now too, so a damaged file is found and reported at start.
        self.store.scores()
        theme = settings["ui"].get("theme", "textual-dark")
        if theme in self.available_themes:
            self.theme = theme
            # The ansi themes name the terminal's own 16 colours: let them through as they are.
            self.ansi_color = theme.startswith("ansi-")
        else:  # well formed (the store checked), but not one of this Textual's
            self.notify(f"settings.json: ui.theme is {theme!r}, which this version does not have; using "
                        f"{self.theme}", title="Data file problem", severity="warning", timeout=10)
        self._show_session()
        if self.start_game:
            self.open_game(self.start_game, self.start_options)
        self._show_store_warnings()
        self.check_size()
        self._catch_hang_up()
        if self.lobby is not None:
            self.run_worker(self._connect_lobby(), group="lobby", exit_on_error=False)

    def on_unmount(self) -> None:
        self.store.close_session()

    # -- one player, two sessions: who writes the saved games (tui_games.userdata.session_lock) --------

    def _open_session(self) -> None:
        held = self.store.open_session()
        self._watch_session()
        if held:
            return
        self._read_only_since = time.monotonic()
        holder = self.store.session_holder().describe()
        self.notify(f"Your saved games are open in another session{f' ({holder})' if holder else ''}, so this "
                    f"one is read-only: games played here are not saved. T takes them over (the other "
                    f"session saves first).", title="Read-only", severity="warning", timeout=12)

    def _watch_session(self) -> None:
        if self.store.read_only:
            self._stop_timer("_session_timer")
            if self._holder_timer is None:
                self._holder_timer = self.set_interval(HOLDER_POLL, self._watch_holder)
                self._holder_slow = False
        else:
            self._stop_timer("_holder_timer")
            if self._session_timer is None:
                self._session_timer = self.set_interval(TAKEOVER_POLL, self._check_takeover)

    def _watch_holder(self) -> None:
        early = self._read_only_since is not None and time.monotonic() - self._read_only_since < AUTO_TAKE_SECONDS
        if early and not self.store.handed_over and self._takeover_timer is None and self.store.take_over():
            self._taken_over("The session that had your saved games has ended: this one saves them now.")
            return
        if not early and not self._holder_slow:
            self._stop_timer("_holder_timer")
            self._holder_timer = self.set_interval(HOLDER_POLL_LATER, self._watch_holder)
            self._holder_slow = True
        self._show_session()

    def _show_session(self) -> None:
        for screen in self.screen_stack:
            for notice in screen.query(SessionNotice):
                notice.sync()

    def _stop_timer(self, name: str) -> None:
        timer = getattr(self, name)
        if timer is not None:
            timer.stop()
            setattr(self, name, None)

    def _check_takeover(self) -> None:
        if self.store.takeover_requested():
            self.hand_over()

    def hand_over(self) -> None:
        """Another session asked for the saved games: save every game in progress here, let
        them go, and say so. This session goes on read-only."""
        self._stop_timer("_session_timer")
        try:
            for screen in self.screen_stack:
                if isinstance(screen, SavingScreen):
                    screen.save_progress()
        finally:
            self.store.hand_over()
        self._watch_session()
        self._session_changed()
        self.notify("Another session took over your saved games; this one is now read-only", title="Read-only",
                    severity="warning", timeout=20)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "take_over":
            return self.store.read_only
        return True

    def action_take_over(self) -> None:
        """Ask the session holding the saved games to save them and hand them over."""
        if not self.store.read_only or self._takeover_timer is not None:
            return
        if self.store.take_over():  # the other session has ended: nobody to ask
            self._taken_over("The session that had your saved games has ended: this one saves them now.")
            return
        if not self.store.request_takeover():
            self.notify("Another session is taking over your saved games already; try again in a moment.",
                        severity="warning", timeout=6)
            return
        self.notify("Asking the other session to save your games and hand them over…", timeout=3)
        deadline = time.monotonic() + TAKEOVER_WAIT
        self._takeover_timer = self.set_interval(TAKEOVER_STEP, lambda: self._try_take_over(deadline))

    def _try_take_over(self, deadline: float) -> None:
        if self.store.take_over():
            self._stop_timer("_takeover_timer")
            self._taken_over()
        elif time.monotonic() > deadline:
            self._stop_timer("_takeover_timer")
            self.store.withdraw_takeover()
            self.notify(f"The other session did not hand over your saved games within {TAKEOVER_WAIT:g} s (is it "
                        f"stuck?); this one stays read-only. Close the other one, or press T again.",
                        title="Still read-only", severity="error", timeout=12)

    def _taken_over(self, message: str = "You took over your saved games: this session saves them now, and the "
                                         "other one is read-only.") -> None:
        # The other session saved before letting go: every screen shows the game as saved now,
        # so nothing played there is lost by what this one writes next.
        self._read_only_since = None
        for screen in self.screen_stack:
            if isinstance(screen, SavingScreen):
                screen.reload_progress()
        self._watch_session()
        self._session_changed()
        self.notify(message, title="Saved games", timeout=8)

    def _session_changed(self) -> None:
        self._show_session()
        for screen in self.screen_stack:
            if isinstance(screen, MenuScreen):
                screen.show_saved_games()
        self.refresh_bindings()

    async def _connect_lobby(self) -> None:
        if self.lobby is None:
            return
        try:
            await self.lobby.connect()
        except LobbyUnavailable as error:
            self.notify(f"Online play is not available now: {error}", severity="warning", timeout=6, markup=False)

    def _lobby_event(self, event: dict) -> None:
        """An event the lobby pushed: a challenge is announced wherever the player is."""
        data = event.get("data") or {}
        if event.get("event") == "challenge":
            kind = "rated" if data.get("rated") else "casual"
            self.notify(f"{data.get('owner')} challenges you to {data.get('game')} ({data.get('clock')}, {kind}). "
                        f"Play online (o on the menu) to accept or decline.", title="Challenge", timeout=15,
                        markup=False)
        for listener in list(self.lobby_listeners):
            listener(event)

    def get_driver_class(self):
        driver = super().get_driver_class()
        # A real terminal gets the driver that cannot wedge the app when the terminal goes away
        # (see tui_games.ui.runtime.driver); the web's and the tests' drivers stay as they are.
        if driver is WebDriver:  # the web's: its input waits for the app, as the terminal's does
            return BoundedWebDriver
        return HangUpSafeDriver if driver is LinuxDriver else driver

    def _catch_hang_up(self) -> None:
        """A hang-up (the terminal or the SSH connection closed) or SIGTERM saves every game in
        progress and exits within three seconds, so the next start resumes it. The save runs on
        the app's own loop, like every other save (see tui_games.ui.runtime.driver for how the signal
        gets through a stuck terminal). Not under run_test: the handlers would outlive the app
        in the test process."""
        # Signal handlers belong to the main thread, and Windows has no SIGHUP.
        if (self.is_headless or not hasattr(signal, "SIGHUP")
                or threading.current_thread() is not threading.main_thread()):
            return
        catch_hang_up(self.hang_up, lambda: getattr(textual_compat.app_driver(self), "output", None))

    def hang_up(self) -> None:
        """Save the game in progress of every game screen on the stack (not where the saved
        games are read-only: the store refuses), then exit."""
        try:
            for screen in self.screen_stack:
                if isinstance(screen, SavingScreen):
                    screen.save_progress()
        finally:
            self.exit()

    async def _on_resize(self, event: events.Resize) -> None:
        # The terminal's driver says the size when it starts, which the app has already laid
        # its first screen out for; Textual's handler (called after this one) would then lay
        # out and draw the whole screen again for the same size, after the first frame.
        if textual_compat.enabled("first_frame") and textual_compat.resize_known(self, event.size):
            event.prevent_default()
            if self.first_frame_pending:  # laid out already, for this size: drawn whole, once
                self.screen.refresh()
        elif self.first_frame_pending and isinstance(self.screen, MenuScreen):
            # Another size: Textual lays the menu out for it and draws all of it, and that
            # frame should be the only one, as an app's first is.
            self.screen.draw_once_on_next_layout()
        self.first_frame_done()

    def first_frame_done(self) -> None:
        """The terminal's size came (or the app ends before it did): draw from here on."""
        self.first_frame_pending = False
        if self._repaints_held:
            self._repaints_held = False
            textual_compat.release_repaints(self)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            # A running search gives way until this input's answer is on the screen.
            pacing.ui_busy()
            self.call_after_refresh(pacing.ui_idle)
        await super().on_event(event)
        if isinstance(event, events.Resize):
            # Textual applies a new size a moment later (it coalesces resizes); look then.
            self.set_timer(0.05, self.check_size)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        # A blinking text cursor redraws twice a second, forever, while a dialog waits:
        # bytes over SSH for nothing. The cursor shows steadily instead.
        if isinstance(event.widget, Input):
            event.widget.cursor_blink = False

    def get_line_filters(self):
        # NO_COLOR means no colour: Textual's Monochrome turns colours into greys, which a
        # 256-colour terminal gets as 38;5;245 (ui/no_color.py).
        filters = [NO_COLOR_FILTER if isinstance(f, Monochrome) else f for f in super().get_line_filters()]
        if self.ascii:
            filters.append(self._ascii_filter)
        return filters

    def check_size(self) -> None:
        if not self.screen_stack or not self.is_running:  # a late timer while the app closes
            return
        width, height = self.size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        showing = isinstance(self.screen, TooSmallScreen)
        if small and not showing:
            self.push_screen(TooSmallScreen())
        elif small and isinstance(self.screen, TooSmallScreen):
            self.screen.show_size()
        elif showing:
            self.pop_screen()

    def _show_store_warnings(self) -> None:
        for warning in self.store.take_warnings():
            self.notify(warning, title="Data file problem", severity="warning", timeout=10)

    def open_game(self, game: str, options: dict | None = None) -> None:
        """Open a game's screen (any name the game table knows) with its saved settings,
        overridden by ``options``."""
        spec = find_game(game)
        settings = self.store.load_settings()[spec.key]
        self.push_screen(spec.screen_class.for_game(settings, options or {}))
        self._show_store_warnings()

    def action_settings(self) -> None:
        self.push_screen(SettingsScreen())

    def action_scores(self) -> None:
        self.push_screen(ScoresScreen())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Ctrl+P: this screen's own commands (new game, hint, …, with their keys), every
        game, the Lab, settings, scores and help; then Textual's (theme, quit, …)."""
        seen: set[str] = set()
        for key, active in screen.active_bindings.items():
            binding = active.binding
            action = binding.action
            if action in seen or action.startswith("app.") or not binding.description or not active.enabled:
                continue
            seen.add(action)
            title = PALETTE_TITLES.get(action, binding.description)
            yield SystemCommand(title, f"{title} (key {binding.key_display or key})",
                                partial(self.run_action, action, active.node))
        for spec in GAMES:
            yield SystemCommand(f"Play {spec.title}", spec.blurb, partial(self.open_game, spec.key))
        yield SystemCommand("Lab", "computer players against each other; algorithms compared",
                            lambda: self.push_screen(LabScreen()))
        yield SystemCommand("Settings", "players' times, pieces, hints", self.action_settings)
        yield SystemCommand("Scores", "results, best times, arena runs", self.action_scores)
        yield SystemCommand("Help", "how to play, keys, the panels", self.action_help)
        yield from super().get_system_commands(screen)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            # From a game, the help opens on that game's How to play.
            game = self.screen.GAME if isinstance(self.screen, SavingScreen) else None
            self.push_screen(HelpScreen(game or None))


def run_app(game: str | None = None, options: dict | None = None, *, ascii: bool | None = None) -> None:
    TuiGamesApp(game, options, ascii=ascii).run()
