"""The main menu: every game of the table (digits 1… open them), the Lab, settings, scores, help."""

from __future__ import annotations

from contextlib import suppress

from textual import events, messages, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.css.query import NoMatches
from textual.geometry import Region, Size
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from tui_games.games import GAMES, GameSpec, game_keys
from tui_games.ui.app_base import UsesApp
from tui_games.ui.runtime import textual_compat
from tui_games.ui.runtime.textual_compat import OpenOptionList, OpenScreen
from tui_games.ui.screens.games import GamesScreen
from tui_games.ui.screens.lab import LabScreen
from tui_games.ui.screens.lobby import LobbyScreen
from tui_games.ui.screens.puzzle import PuzzleScreen
from tui_games.ui.widgets.keys_footer import KeysFooter
from tui_games.ui.widgets.session_notice import SessionNotice

BANNER = """\
[b]tui-games[/b]
[dim]games with engines you can watch think[/dim]"""


class MenuList(OpenOptionList, OptionList):
    """The menu's list: an OptionList that keeps what it worked out for its width when a
    Resize says the width it was drawn at (OptionList forgets its lines and draws again at
    every Resize: as the menu first shows, just after its first frame, for nothing)."""

    _lines_width: int | None = None  # the content width its lines were worked out for

    def build_lines(self) -> None:
        built = self.lines_built
        super().build_lines()
        if not built and self.lines_built:
            self._lines_width = self.scrollable_content_region.width

    def forget_lines(self) -> None:
        self._lines_width = None
        super().forget_lines()

    def _on_resize(self, event: events.Resize | None = None) -> None:
        # (OptionList's handler takes no event; Textual passes this one the Resize.)
        if event is None or not textual_compat.enabled("first_frame"):
            return
        if self._lines_width is not None and self._lines_width == self.scrollable_content_region.width:
            event.prevent_default()  # (OptionList's handler comes after this one)


class MenuScreen(UsesApp, OpenScreen, Screen):
    # The menu looks the same at any width: no -narrow/-wide class, whose first setting would
    # restyle every widget of the screen just after the login's first frame.
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] = []
    BINDINGS = [
        Binding("q", "app.quit", "Quit"),
        Binding("question_mark", "app.help", "Help"),
        # Digits open the games in the table's order (read when pressed: the table may grow).
        *[Binding(str(number), f"pick_number({number})", show=False) for number in range(1, 10)],
        Binding("l", "pick('lab')", "Lab", show=False),
        Binding("o", "pick('lobby')", "Online", show=False),
        Binding("p", "pick('puzzle')", "Puzzle", show=False),
        Binding("g", "pick('games')", "Games", show=False),
        Binding("j", "cursor_down", show=False),
        Binding("k", "cursor_up", show=False),
    ]

    _resumed = False  # shown at least once
    _drawn_at: float | None = None  # when it was first laid out and drawn whole
    _skip_repaint = False  # the repaint Textual asks for just after the first layout has drawn it all

    def compose(self) -> ComposeResult:
        yield Header()
        yield SessionNotice()
        with Center(id="menu-box"):
            with Vertical(id="menu"):
                yield Static(BANNER, id="banner")
                options: list[Option | None] = [Option(self._game_prompt(spec), id=spec.key) for spec in GAMES]
                if self.app.lobby is not None:
                    options += [None, Option(f"{'Play online':<13}[dim]seek, challenge, watch other players[/dim]",
                                             id="lobby")]
                options += [None, Option(f"{'Puzzle':<13}[dim]of the day, the same for everyone[/dim]", id="puzzle"),
                            Option(f"{'Lab':<13}[dim]bot vs bot, algorithms compared[/dim]", id="lab"),
                            Option(f"{'Games':<13}[dim]your finished games, analysed[/dim]",
                                   id="games"),
                            None, Option("Settings", id="settings"), Option("Scores", id="scores"),
                            Option("Help", id="help"), Option("Quit", id="quit")]
                yield MenuList(*options, id="menu-list")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        # The first time, Textual would restyle the whole menu (its handler, after this one,
        # restyles a resumed screen for whatever changed while it was covered): it was styled
        # as it was mounted, a moment ago, and nothing covered it yet.
        if not self._resumed and textual_compat.enabled("first_frame"):
            self._resumed = True
            event.refresh_styles = False

    # The first layout draws the whole menu (the login's first frame), but Textual then laid it
    # out and drew all of it twice more for nothing (8 ms of the app's CPU and 7 KB over SSH):
    # every widget asked for a layout and a repaint as it was mounted and as that layout gave
    # it its size, and the screen for a repaint once laid out. Those requests, made before the
    # whole menu was laid out and drawn, are dropped; any made later is Textual's as ever.

    def lay_out(self, size: Size | None = None, scroll: bool = False) -> None:
        if not textual_compat.enabled("first_frame"):
            super().lay_out(size, scroll)
            return
        if self._drawn_at is None:
            # Textual shows or hides the notifications' rack just after the first frame (a
            # layout more, for an empty rack): it is laid out as it will be shown instead.
            rack = textual_compat.toast_rack_class()
            with suppress(NoMatches):
                if rack is not None:
                    self.get_child_by_type(rack).display = textual_compat.has_notifications(self.app)
        super().lay_out(size, scroll)
        if self._drawn_at is None and self.is_current and textual_compat.compositor_size(self):
            self._drawn_at = textual_compat.get_time()
            textual_compat.forget_pending_refreshes(self)
            # Only the repaint asked in the same turn (Textual's, just after this layout): a later
            # one is for a change.
            self._skip_repaint = True
            self.call_next(self._stop_skipping)

    def draw_once_on_next_layout(self) -> None:
        """Treat the next whole layout as the first (for an app taken over at another size
        than the one it was laid out at: see tui_games.ui.runtime.standby)."""
        self._drawn_at = None

    def _stop_skipping(self) -> None:
        self._skip_repaint = False

    def _asked_before_drawn(self, message: messages.Update | messages.Layout) -> bool:
        if self._drawn_at is not None and message.time < self._drawn_at:
            message.stop()
            message.prevent_default()  # (Textual's handler comes after this one)
            return True
        return False

    async def _on_update(self, message: messages.Update) -> None:
        self._asked_before_drawn(message)

    async def _on_layout(self, message: messages.Layout) -> None:
        self._asked_before_drawn(message)

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> MenuScreen:
        if self._skip_repaint:
            # Textual's handler repaints the whole screen once it is laid out as it first shows.
            self._skip_repaint = False
            if not regions and repaint and not layout and not recompose:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    async def _on_resize(self, event: events.Resize) -> None:
        # Textual lays the whole screen out again for every Resize the screen gets, and as an
        # app starts it gets two for the size it is laid out for already (the app's, and its
        # own first layout's): after a login's first frame, two frames for nothing.
        if textual_compat.enabled("first_frame") and self.stack_updates \
                and event.size == textual_compat.compositor_size(self):
            event.stop()
            event.prevent_default()  # (Textual's handler comes after this one)

    def _game_prompt(self, spec: GameSpec) -> str:
        # A game left in progress (quit, or the connection dropped) resumes when opened; say so.
        # Board games save as soon as they open: with no move played there is nothing to resume.
        saved = self.app.store.peek_game(spec.key)
        if saved is not None and saved.get("history") != []:
            return f"{spec.title:<13}[b]resume[/b] [dim]your game in progress[/dim]"
        return f"{spec.title:<13}[dim]{spec.blurb}[/dim]"

    def on_screen_resume(self) -> None:
        # Back from a game: it may have ended (nothing to resume) or been left half-played.
        self.show_saved_games()

    def show_saved_games(self) -> None:
        """Mark the games that have one in progress (the app calls this after a take-over too)."""
        options = self.query_one(OptionList)
        for spec in GAMES:
            options.replace_option_prompt(spec.key, self._game_prompt(spec))

    def action_cursor_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    @on(OptionList.OptionSelected)
    def chosen(self, event: OptionList.OptionSelected) -> None:
        self.action_pick(event.option.id or "")

    def action_pick_number(self, number: int) -> None:
        if number <= len(GAMES):
            self.action_pick(GAMES[number - 1].key)

    def action_pick(self, key: str) -> None:
        app = self.app
        if key in game_keys():
            app.open_game(key)
        elif key == "lab":
            app.push_screen(LabScreen())
        elif key == "puzzle":
            app.push_screen(PuzzleScreen())
        elif key == "games":
            app.push_screen(GamesScreen())
        elif key == "lobby" and app.lobby is not None:
            app.push_screen(LobbyScreen())
        elif key == "settings":
            app.action_settings()
        elif key == "scores":
            app.action_scores()
        elif key == "help":
            app.action_help()
        elif key == "quit":
            app.exit()
