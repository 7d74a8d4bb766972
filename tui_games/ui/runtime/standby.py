"""An app built up to its menu before the fork, for a process that forks one app per player (the
game server's zygote): the child takes its player over instead of building the app.

Every login's app did the same work before its menu was on the screen: build the App, start
its loop, compose, mount, style and lay out the menu's widgets, and render them: about half of
the app's CPU a login. :func:`prepare` does all of it once, in the zygote, for nobody: an app
run to its menu's first frame in a throwaway folder, drawn to nowhere, with its event loop then
stopped between two turns. A child forked from it (:meth:`Standby.run`) makes its own wakeup
pipe for that loop, gives the app its player (settings, saved games, session lock, lobby, the
terminal's driver and size; :meth:`TuiGamesApp.take_player`), and lets the loop go on: the
menu is drawn once, on the player's terminal.

What the prepared app holds that depends on who plays is what a child replaces: the store (the
prepared one is an empty folder, deleted before any child exists), the lobby (a placeholder
that never connects), the driver, the session and its timers (never started in the zygote).
What it rendered depends on the terminal's colours (Rich's colour system, from ``TERM``,
``COLORTERM``, ``NO_COLOR``…): a player whose terminal differs from what was prepared
(:func:`profile`), or whose app has no lobby where the prepared one has, gets a fresh app built
the usual way in the child instead (every module is imported either way). A player who draws in
ASCII (a setting) has every widget drawn again, through the ASCII filter, before the first frame.

The prepared loop uses ``poll``, not ``epoll``: an epoll instance is one kernel object shared by
the zygote and every child, which would see each other's registrations; poll's set is plain
memory, each process its own copy. The loop's wakeup pipe is a socket pair made in the zygote,
shared the same way: each child makes its own (asyncio has no public call for that; see
:func:`tui_games.ui.runtime.textual_compat.own_wakeup_pipe`). No thread runs in the zygote's app: its driver starts none.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from textual.driver import Driver

from tui_games.online.client import LOBBY_ENV, LOBBY_TOKEN_ENV, LobbyClient
from tui_games.ui.app import TuiGamesApp
from tui_games.ui.runtime import textual_compat
from tui_games.ui.screens.menu import MenuScreen
from tui_games.userdata.store import Store

# The terminal prepared for: OpenSSH's default (its TERM, and no COLORTERM or NO_COLOR sent).
# One only: Rich keeps each style's terminal codes in the style, made for the first colour
# system it was drawn in, and styles are shared across a process (its caches), so a second app
# prepared in true colour drew much of its menu in the first one's 256 colours. 256 colours
# are also the safe side for the children built afresh (a true-colour terminal shows them).
STANDBY_ENV = {"TERM": "xterm-256color"}
STANDBY_SIZE = (80, 24)
# What Rich and Textual read from the environment when an App is built (its console's colours,
# Textual's feature flags): a player whose values differ gets a fresh app (what was rendered
# would be in the wrong colours). Textual's TEXTUAL_* settings are read as it is imported, in
# the zygote, for every app alike; the driver (TEXTUAL_DRIVER, the terminal's TERM_PROGRAM, the
# web's COLUMNS and ROWS) is the child's own.
PROFILE_NAMES = ("TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "TEXTUAL")
# The preparation waits this long at most for its first frame, then lets the menu settle (the
# messages its first frame left) for SETTLE_SECONDS, so that no child handles them again.
PREPARE_SECONDS = 30.0
SETTLE_SECONDS = 0.3
TURN = 0.005


# TERM's suffix as Rich reads it (its colour depth: "tmux-256color" draws as "xterm-256color"
# does); any other suffix is Rich's standard 8 colours.
TERM_DEPTHS = {"256color": "256", "kitty": "256"}


def term_depth(term: str) -> str:
    """What a TERM value means to Rich: "dumb" (no colour), or its colour depth. Only this
    reaches what an app renders, so a tmux or screen terminal takes the prepared menu too."""
    term = term.strip().lower()
    if term in ("dumb", "unknown"):
        return "dumb"
    return TERM_DEPTHS.get(term.rpartition("-")[2], "standard")


def profile(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """What of ``env`` decides how an app renders (see :data:`PROFILE_NAMES`)."""
    return tuple(sorted((name, term_depth(value) if name == "TERM" else value)
                        for name, value in env.items() if name in PROFILE_NAMES))


class StandbyDriver(Driver):
    """The prepared app's driver: draws to nowhere, counting frames, until a child gives it the
    player's driver (Textual keeps the driver it started with to stop it at the end)."""

    def __init__(self, app, **kwargs) -> None:
        super().__init__(app, **kwargs)
        self.frames = 0
        self.player: Driver | None = None

    @property
    def is_headless(self) -> bool:
        return False  # so Textual draws each frame (to nowhere), as for a terminal

    def write(self, data: str) -> None:
        if self.player is not None:
            self.player.write(data)
        else:
            self.frames += 1

    def flush(self) -> None:
        if self.player is not None:
            self.player.flush()

    def start_application_mode(self) -> None:
        if self.player is not None:
            self.player.start_application_mode()

    def stop_application_mode(self) -> None:
        if self.player is not None:
            self.player.stop_application_mode()

    def disable_input(self) -> None:
        if self.player is not None:
            self.player.disable_input()

    def close(self) -> None:
        if self.player is not None:
            self.player.close()


class Standby:
    """An app at its menu, its loop stopped between two turns (see the module)."""

    def __init__(self, app: TuiGamesApp, loop: asyncio.AbstractEventLoop, task: asyncio.Task,
                 env: Mapping[str, str], online: bool, captured: tuple) -> None:
        self.app, self.loop, self.task = app, loop, task
        # Textual's stand-ins for sys.stdout and sys.stderr while the app runs (it puts them in
        # place as it starts, and the stopped app had: they are put back in the child).
        self.captured = captured
        self.profile, self.online = profile(env), online

    def fits(self, env: Mapping[str, str]) -> bool:
        """Whether a player's app with environment ``env`` can be this one (see the module;
        the player's ASCII setting is applied as the app takes the player over)."""
        online = bool(env.get(LOBBY_ENV) and env.get(LOBBY_TOKEN_ENV))
        return profile(env) == self.profile and online == self.online and not self.task.done()

    def run(self) -> int:
        """In a forked child whose environment, descriptors and directory are the player's:
        run this app as the player's, to its end; the exit status."""
        loop = self.loop
        textual_compat.own_wakeup_pipe(loop)
        asyncio.set_event_loop(loop)
        sys.stdout, sys.stderr = self.captured
        # Handled by the app's own loop, in its context (Textual's current app, which its
        # timers and workers look up), as the first thing it does again.
        self.app.call_later(self._take_player)
        try:
            loop.run_until_complete(self.task)
        finally:
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
        return self.app.return_code or 0

    def discard(self) -> None:
        """End the prepared app in this process, which will fork no more children of it."""
        _discard(self.loop, self.task)

    def _take_player(self) -> None:
        app = self.app
        standby = textual_compat.app_driver(app)
        assert isinstance(standby, StandbyDriver)
        player = held(app.get_driver_class(), app)(app, debug=False, mouse=True, size=None)
        standby.player = player
        app.take_player(player)


def held(driver_class: type[Driver], app: TuiGamesApp) -> type[Driver]:
    """``driver_class``, holding back what the app draws between the take-over and the
    terminal's size (``TuiGamesApp.first_frame_pending``): on a busy machine the loop could
    paint a frame or a footer at the size prepared first, on rows the player's terminal does
    not have where it is larger. The first frame after the size is whole (``_on_resize``)."""

    class Held(driver_class):  # type: ignore[valid-type,misc]
        def write(self, data: str) -> None:
            if not app.first_frame_pending:
                super().write(data)

        def stop_application_mode(self) -> None:
            app.first_frame_done()  # an app ending before its first frame says goodbye
            super().stop_application_mode()

    return Held


def prepare(*, online: bool, size: tuple[int, int] = STANDBY_SIZE) -> Standby | None:
    """Build an app up to its menu's first frame, drawn to nowhere (see the module); None if it
    did not get there (the children then build their apps themselves), or if the libraries'
    private names it needs are gone (textual_compat)."""
    if not textual_compat.enabled("standby"):
        return None
    saved, streams = dict(os.environ), (sys.stdout, sys.stderr)
    loop = asyncio.SelectorEventLoop(selectors.PollSelector())
    try:
        # The environment the rendering is prepared for, while the App reads it.
        for name in PROFILE_NAMES:
            os.environ.pop(name, None)
        os.environ.update(STANDBY_ENV)
        env = dict(os.environ)
        with tempfile.TemporaryDirectory(prefix="tui-games-standby-") as home:
            asyncio.set_event_loop(loop)
            app = TuiGamesApp(store=Store(root=Path(home), user="standby"), standby=True)
            # Nobody's lobby: a placeholder so the menu has its online entry; never connected.
            app.lobby = LobbyClient("", "", app._lobby_event, reconnect=True) if online else None
            app.driver_class = StandbyDriver
            task = loop.create_task(app.run_async(size=size))
            drawn = loop.run_until_complete(_first_frame(app))
            captured = (sys.stdout, sys.stderr)
        if not drawn or task.done():
            _discard(loop, task)
            return None
        return Standby(app, loop, task, env, online, captured)
    except Exception:
        with contextlib.suppress(Exception):
            loop.close()
        return None
    finally:
        os.environ.clear()
        os.environ.update(saved)
        sys.stdout, sys.stderr = streams
        asyncio.set_event_loop(None)


async def _first_frame(app: TuiGamesApp) -> bool:
    """Wait until the menu is mounted and drawn, then let it settle; True if it was drawn."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PREPARE_SECONDS
    while loop.time() < deadline:
        driver = textual_compat.app_driver(app)
        if isinstance(driver, StandbyDriver) and driver.frames and app.screen_stack \
                and isinstance(app.screen, MenuScreen) and app.screen.is_mounted:
            await asyncio.sleep(SETTLE_SECONDS)
            return not textual_compat.exiting(app)
        await asyncio.sleep(TURN)
    return False


def _discard(loop: asyncio.AbstractEventLoop, task: asyncio.Task) -> None:
    with contextlib.suppress(Exception):
        task.cancel()
        loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
    with contextlib.suppress(Exception):
        loop.close()
