"""A rehearsal of an app, for a process about to fork many (the server's zygote): one app run
to its first menu frame, drawn to nowhere, in a throwaway folder, as nobody. What every app
works out the same way on its way to the menu (the parsed CSS and the theme's variables: see
tui_games.ui.runtime.warm_start; Textual's and Rich's caches; the modules Textual imports on first
use) is then in place before the fork, in pages the children share. Only the default theme's
CSS is parsed: parsing every theme's too made each child's private memory 3 MB larger (its
allocations fill the holes the parsing left in the zygote's pages, copying each page).

It leaves nothing of itself: its folder (settings, session lock) is deleted, it installs no
signal handler, and it starts no thread that outlives it. Nothing of a player is in it: it
runs before any player's process exists.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

from textual.drivers.headless_driver import HeadlessDriver

from tui_games.ui.app import TuiGamesApp
from tui_games.ui.runtime import textual_compat
from tui_games.ui.screens.menu import MenuScreen
from tui_games.userdata.store import Store

# The rehearsal stops waiting for its first frame after this many idle turns of its loop.
REHEARSAL_TURNS = 200


class _NowhereDriver(HeadlessDriver):
    """Draws every frame as a terminal's driver does (Textual skips that when headless), and
    throws it away, counting them."""

    def __init__(self, app, **kwargs) -> None:
        super().__init__(app, **kwargs)
        self.frames = 0

    @property
    def is_headless(self) -> bool:
        return False

    def write(self, data: str) -> None:
        self.frames += 1


def rehearse(size: tuple[int, int] = (80, 24)) -> bool:
    """Run one app to its first menu frame, to nowhere, with a throwaway folder as its home;
    True if the frame was drawn."""
    with tempfile.TemporaryDirectory(prefix="tui-games-rehearsal-") as home:
        app = TuiGamesApp(store=Store(root=Path(home), user="rehearsal"))
        app.lobby = None  # nobody's lobby, whatever the environment says
        app.driver_class = _NowhereDriver
        # Not this process's signal handlers: it is not a player's app.
        app._catch_hang_up = lambda: None  # type: ignore[method-assign]

        drawn = False

        async def first_frame(pilot) -> None:
            nonlocal drawn
            driver, before = textual_compat.app_driver(pilot.app), None
            assert isinstance(driver, _NowhereDriver)
            for _ in range(REHEARSAL_TURNS):
                if before is None and isinstance(pilot.app.screen, MenuScreen) and pilot.app.screen.is_mounted:
                    before = driver.frames  # the next frame has the menu on it, all of it
                    pilot.app.refresh(repaint=True)
                elif before is not None and driver.frames > before:
                    drawn = True
                    break
                await pilot.pause()
            pilot.app.exit()

        with contextlib.suppress(Exception):  # a rehearsal that fails only costs the speed-up
            app.run(size=size, auto_pilot=first_frame)
    return drawn
