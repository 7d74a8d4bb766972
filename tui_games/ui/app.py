"""The Textual application: menu, game screens, settings, scores, help."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding

from tui_games.store import Store

GAME_TITLES = {"tictactoe": "Tic-tac-toe"}


class TuiGamesApp(App):
    TITLE = "tui-games"
    CSS_PATH = "app.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", show=False, priority=True)]
    # Nothing blinks or animates while idle: a blinking cursor costs bytes over SSH.
    ENABLE_COMMAND_PALETTE = False
    # Below 80 columns the side panels go under the board (see app.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]

    def __init__(self, game: str | None = None, options: dict | None = None, store: Store | None = None) -> None:
        super().__init__()
        self.store = store or Store()
        self.start_game = game
        self.start_options = options or {}

    def on_mount(self) -> None:
        settings = self.store.load_settings()
        # Read the scores now too, so a damaged file is found and reported at start.
        self.store.scores()
        theme = settings["ui"].get("theme", "textual-dark")
        if theme in self.available_themes:
            self.theme = theme
        from tui_games.ui.screens.menu import MenuScreen

        self.push_screen(MenuScreen())
        if self.start_game:
            self.open_game(self.start_game, self.start_options)
        self._show_store_warnings()

    def _show_store_warnings(self) -> None:
        for warning in self.store.take_warnings():
            self.notify(warning, title="Data file problem", severity="warning", timeout=10)

    def open_game(self, game: str, options: dict | None = None) -> None:
        """Open a game's screen with the saved options, overridden by ``options``."""
        if game == "tictactoe":
            from tui_games.ui.screens.tictactoe import GameOptions as Options
            from tui_games.ui.screens.tictactoe import TicTacToeScreen as GameScreen
        elif game == "connect4":
            from tui_games.ui.screens.connect4 import Connect4Options as Options
            from tui_games.ui.screens.connect4 import Connect4Screen as GameScreen
        else:
            self.notify(f"{game} is coming soon.")
            return
        settings = self.store.load_settings()[game]
        self.push_screen(GameScreen(Options.from_settings({**settings, **(options or {})})))
        self._show_store_warnings()

    def action_settings(self) -> None:
        from tui_games.ui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen())

    def action_scores(self) -> None:
        from tui_games.ui.screens.scores import ScoresScreen

        self.push_screen(ScoresScreen())

    def action_help(self) -> None:
        from tui_games.ui.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def run_app(game: str | None = None, options: dict | None = None) -> None:
    TuiGamesApp(game, options).run()
