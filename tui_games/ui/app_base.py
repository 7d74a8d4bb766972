"""What the screens and widgets may use of the app, typed: :class:`GamesApp`, and
:class:`UsesApp`, the mixin whose ``app`` is one.

Textual types ``Widget.app`` as ``App[object]``, so ``self.app.store`` was unchecked in every
screen. The app (:class:`tui_games.ui.app.TuiGamesApp`) imports the screens, so they cannot
import it back (an import cycle); this module sits below both: the app's members the screens
use, declared here and given by ``TuiGamesApp``. A screen or widget that uses them puts
``UsesApp`` first among its bases.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, Callable

from textual import getters
from textual.app import App
from textual.message_pump import MessagePump

from tui_games.online.client import LobbyClient, LobbyUnavailable
from tui_games.userdata.store import Store


class GamesApp(App[object]):
    """The app, as its screens see it (``TuiGamesApp`` is the one kind)."""

    #: The player's settings, scores and saved games.
    store: Store
    #: The lobby connection, None when the app was not started from a server with one.
    lobby: LobbyClient | None
    #: Called with every lobby event (the lobby screen and the live games listen).
    lobby_listeners: list[Callable[[dict], None]]
    #: ASCII-only output (tui_games.ui.ascii).
    ascii: bool

    def lobby_client(self) -> LobbyClient:
        """The lobby, for a screen opened only from it (LobbyUnavailable if there is none)."""
        if self.lobby is None:
            raise LobbyUnavailable("not connected to a lobby")
        return self.lobby

    @abstractmethod
    def open_game(self, game: str, options: dict | None = None) -> None:
        """Open a game's screen with its saved settings, overridden by ``options``."""

    @abstractmethod
    def action_settings(self) -> None:
        """Open the settings."""

    @abstractmethod
    def action_scores(self) -> None:
        """Open the scores."""

    @abstractmethod
    def action_help(self) -> None:
        """Open the help (on the current game's page, from a game)."""


class UsesApp(MessagePump):
    """A screen's or widget's mixin (first among its bases): its ``app`` is a
    :class:`GamesApp`, for the type checker; at run time it is Textual's own ``app``. (A
    MessagePump itself, so that its ``app`` overrides MessagePump's.)"""

    if TYPE_CHECKING:
        app = getters.app(GamesApp)
