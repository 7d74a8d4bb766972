"""Every private name of Textual, asyncio and textual-serve that tui-games touches, behind one door.

The app relies on a few internals of its libraries: the terminal driver's writer queue (so an
app whose terminal is gone can still exit), the input path's queues (so a flood of keys waits in
the terminal), the menu's first layout (a login's first frame drawn once), the stylesheet's
parse (shared across the zygote's children), the end of a batch of updates (the screens woken to
draw what it held back), asyncio's wakeup pipe (remade in a forked child),
textual-serve's process hooks (a tab's app started by the zygote). Each is listed in
:data:`PRIVATE_NAMES` with the feature that needs it, and nothing outside this module spells a
private name of those libraries (``tests/ui/test_textual_compat.py`` greps the package for it).
Where a subclass overrides a private hook, it puts one of this module's mixins (``OpenScreen``
…) before the library's class: the mixin gives the hook a public name.

:func:`check` runs as the app's module is imported (``tui_games.ui.app``), before any screen:
each name's owner must still have it (a method with the same parameters; an attribute its
code still sets or reads). This module imports none of the libraries itself (the SSH and web
servers use it and never import Textual). When a name is gone:

- a **required** feature (the hang-up-safe driver, bounded input, ordered input) stops the
  start-up with :class:`TextualCompatError`, naming the name and the library's version: running
  on would bring back a wedged app or lost keys;
- an **optional** one (an optimisation) is turned off: :func:`enabled` says False and its call
  site falls back to the library's own behaviour (correct, slower, or more bytes).

textual-serve is checked when the web server imports it (:func:`app_service_class`), not by
every app. The names are those of Textual 8.2 and textual-serve 1.1 (``pyproject.toml`` pins
``textual~=8.2.0`` and ``textual-serve~=1.1.3``): a new minor version is a change to review here.

Why asyncio's private calls and not a fresh event loop in the forked child: the prepared app
(:mod:`tui_games.ui.runtime.standby`) is a task suspended on its loop, with timers, futures and
Textual's driver bound to that loop; no public call moves them to another one. What the child
needs is only that loop's wakeup pipe not to be shared with its siblings, and that is what
:func:`own_wakeup_pipe` remakes.
"""

from __future__ import annotations

import asyncio
import asyncio.selector_events
import importlib
import inspect
import queue
from collections.abc import Iterable
from concurrent.futures import Future
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual import events
    from textual.app import App
    from textual.binding import Binding
    from textual.css.model import RuleSet
    from textual.css.stylesheet import CSSLocation, Stylesheet
    from textual.driver import Driver
    from textual.drivers._writer_thread import WriterThread
    from textual.drivers.linux_driver import LinuxDriver
    from textual.geometry import Size
    from textual.message import Message
    from textual.screen import Screen
    from textual.widget import Widget
    from textual.widgets import Footer


class TextualCompatError(RuntimeError):
    """A private name a required feature needs is gone from the installed library."""


@dataclass(frozen=True)
class Private:
    """One private name: ``owner`` is ``module:Class`` (or a module), ``params`` a method's
    parameter names (None: an attribute, checked as something the owner's code uses)."""

    owner: str
    name: str
    feature: str
    params: tuple[str, ...] | None = None

    def __str__(self) -> str:
        return f"{self.owner.replace(':', '.')}.{self.name}"


# What each feature is, and whether the app can run without it.
FEATURES: dict[str, tuple[bool, str]] = {
    "driver": (True, "the terminal driver that exits when its terminal is gone and bounds input "
                     "(tui_games.ui.runtime.driver)"),
    "ordered_input": (True, "editing keys kept in order with typed characters (ui/widgets/ordered_input)"),
    "standby": (False, "the zygote's prepared app, taken over by each login (tui_games.ui.runtime.standby)"),
    "stylesheet": (False, "parsed CSS shared by the apps of a process (tui_games.ui.runtime.warm_start)"),
    "partial_updates": (False, "only the changed part of a line sent (tui_games.ui.runtime.partial_updates)"),
    "first_frame": (False, "the menu laid out and drawn once as an app starts (ui/screens/menu, ui/app)"),
    "footer": (False, "the key bar composed in the first frame (ui/widgets/keys_footer)"),
    "batch_repaint": (False, "what a batch of updates held back drawn as it ends (tui_games.ui.runtime.batch_repaint)"),
    "web": (True, "a web tab's app started by the server's zygote (tui_games.server.web_app)"),
}

_SELECTOR_LOOP = "asyncio.selector_events:BaseSelectorEventLoop"
_APP_SERVICE = "textual_serve.app_service:AppService"

PRIVATE_NAMES: tuple[Private, ...] = (
    # The driver (ui/runtime/driver.py).
    Private("textual.driver:Driver", "_app", "driver"),
    Private("textual.driver:Driver", "_loop", "driver"),
    Private("textual.message_pump:MessagePump", "_post_message", "driver", ("self", "message")),
    Private("textual.drivers.linux_driver:LinuxDriver", "_file", "driver"),
    Private("textual.drivers.linux_driver:LinuxDriver", "_writer_thread", "driver"),
    Private("textual.drivers._writer_thread:WriterThread", "_queue", "driver"),
    Private("textual.app:App", "_driver", "driver"),
    # Input (ui/widgets/ordered_input.py).
    Private("textual.widgets:Input", "_on_key", "ordered_input", ("self", "event")),
    Private("textual.dom:DOMNode", "_bindings", "ordered_input"),
    # The prepared app (ui/runtime/standby.py).
    Private(_SELECTOR_LOOP, "_close_self_pipe", "standby", ("self",)),
    Private(_SELECTOR_LOOP, "_make_self_pipe", "standby", ("self",)),
    Private("textual.app:App", "_exit", "standby"),
    # The shared stylesheet (ui/runtime/warm_start.py).
    Private("textual.css.stylesheet:Stylesheet", "_parse_rules", "stylesheet",
            ("self", "css", "read_from", "is_default_rules", "tie_breaker", "scope")),
    Private("textual.css.stylesheet:Stylesheet", "_variables", "stylesheet"),
    Private("textual.css.stylesheet:Stylesheet", "_invalid_css", "stylesheet"),
    Private("textual.css.stylesheet:Stylesheet", "_rules", "stylesheet"),
    Private("textual.css.stylesheet:Stylesheet", "_rules_map", "stylesheet"),
    Private("textual.css.stylesheet:Stylesheet", "_require_parse", "stylesheet"),
    # Partial line updates (ui/runtime/partial_updates.py).
    Private("textual._compositor", "ChopsUpdate", "partial_updates"),
    # The first frame (ui/screens/menu.py, ui/app.py).
    Private("textual._time", "get_time", "first_frame"),
    Private("textual.widgets._toast", "ToastRack", "first_frame"),
    Private("textual.app:App", "_notifications", "first_frame"),
    Private("textual.app:App", "_size", "first_frame"),
    Private("textual.app:App", "_resize_event", "first_frame"),
    Private("textual.app:App", "_on_resize", "first_frame", ("self", "event")),
    Private("textual.app:App", "_begin_batch", "first_frame", ("self",)),
    Private("textual.app:App", "_end_batch", "first_frame", ("self",)),
    Private("textual.screen:Screen", "_refresh_layout", "first_frame", ("self", "size", "scroll")),
    Private("textual.screen:Screen", "_compositor", "first_frame"),
    Private("textual.screen:Screen", "_dirty_widgets", "first_frame"),
    Private("textual.screen:Screen", "_on_resize", "first_frame", ("self", "event")),
    Private("textual.screen:Screen", "_on_update", "first_frame", ("self", "message")),
    Private("textual.screen:Screen", "_on_layout", "first_frame", ("self", "message")),
    Private("textual.screen:Screen", "_on_screen_resume", "first_frame", ("self", "event")),
    Private("textual.widget:Widget", "_layout_required", "first_frame"),
    Private("textual.widget:Widget", "_repaint_required", "first_frame"),
    Private("textual.widgets:OptionList", "_line_cache", "first_frame"),
    Private("textual.widgets:OptionList", "_update_lines", "first_frame", ("self",)),
    Private("textual.widgets:OptionList", "_clear_caches", "first_frame", ("self",)),
    Private("textual.widgets:OptionList", "_on_resize", "first_frame", ("self",)),
    # Textual calls a class's ``_on_<event>`` before its ``on_<event>`` (the overrides above).
    Private("textual.message_pump:MessagePump", "_get_dispatch_methods", "first_frame",
            ("self", "method_name", "message")),
    # The key bar (ui/widgets/keys_footer.py).
    Private("textual.widgets._footer", "FooterKey", "footer"),
    Private("textual.widgets:Footer", "_bindings_ready", "footer"),
    # Repaints held back by a batch of updates (ui/runtime/batch_repaint.py).
    Private("textual.app:App", "_batch_count", "batch_repaint"),
    Private("textual.app:App", "_end_batch", "batch_repaint", ("self",)),
    # textual-serve (server/web_app.py), checked when the web server imports it.
    Private(_APP_SERVICE, "_build_environment", "web", ("self", "width", "height")),
    Private(_APP_SERVICE, "_open_app_process", "web", ("self", "width", "height")),
    Private(_APP_SERVICE, "_stdin", "web"),
    Private(_APP_SERVICE, "_task", "web"),
    Private(_APP_SERVICE, "_download_manager", "web"),
)


# -- the shape check -------------------------------------------------------------------------------


def _resolve(owner: str) -> ModuleType | type | None:
    module_name, _, qualname = owner.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
        for part in filter(None, qualname.split(".")):
            target = getattr(target, part)
    except (ImportError, AttributeError):
        return None
    return target


def _code_names(code: Any) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if inspect.iscode(const):
            names |= _code_names(const)
    return names


@cache
def _class_names(cls: type) -> frozenset[str]:
    """The names a class and its bases define, and the attribute names their code uses."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is object:
            continue
        names.update(vars(klass))
        for value in vars(klass).values():
            for function in (value, getattr(value, "fget", None), getattr(value, "__func__", None)):
                code = getattr(function, "__code__", None)
                if code is not None:
                    names |= _code_names(code)
    return frozenset(names)


def _present(private: Private) -> bool:
    owner = _resolve(private.owner)
    if owner is None:
        return False
    if isinstance(owner, ModuleType):
        return hasattr(owner, private.name)
    if private.params is None:
        return private.name in _class_names(owner)
    method = inspect.getattr_static(owner, private.name, None)
    if method is None or not callable(method):
        return False
    try:
        return tuple(inspect.signature(method).parameters) == private.params
    except (TypeError, ValueError):
        return False


def missing(names: Iterable[Private] = PRIVATE_NAMES) -> list[Private]:
    """The names of ``names`` the installed libraries no longer have (in their shape)."""
    return [private for private in names if not _present(private)]


_disabled: set[str] = set()
_checked: set[str] = set()  # "textual" (Textual's and asyncio's names), "web" (textual-serve's)


def _versions() -> str:
    found = []
    for name in ("textual", "textual_serve"):
        try:
            from importlib.metadata import version

            found.append(f"{name.replace('_', '-')} {version(name.replace('_', '-'))}")
        except Exception:
            continue
    return ", ".join(found) or "unknown versions"


def check(names: Iterable[Private] | None = None, *, web: bool = False) -> None:
    """Check the private names: Textual's and asyncio's, or with ``web`` textual-serve's only.
    Raise TextualCompatError if a required feature lost one; turn an optional feature off if it
    did (see the module). The app calls this as it starts; the web server with ``web``."""
    if names is None:
        _checked.add("web" if web else "textual")
        names = [private for private in PRIVATE_NAMES if (private.feature == "web") == web]
    gone = missing(names)
    fatal = [private for private in gone if FEATURES[private.feature][0]]
    if fatal:
        lines = "; ".join(f"{private} (for {FEATURES[private.feature][1]})" for private in fatal)
        raise TextualCompatError(
            f"tui-games needs private names its libraries no longer have: {lines}. Installed: {_versions()}; "
            "tui-games is made for textual~=8.2.0 and textual-serve~=1.1.3")
    _disabled.update(private.feature for private in gone)


def enabled(feature: str) -> bool:
    """Whether an optional feature's private names are all there (checked on first use if the
    app has not checked them yet)."""
    if feature not in FEATURES:
        raise KeyError(feature)
    if "textual" not in _checked and feature != "web":
        check()
    return feature not in _disabled


# -- the driver ------------------------------------------------------------------------------------


def driver_app(driver: Driver) -> App:
    """The app a driver sends its events to."""
    return driver._app


def post_input(driver: Driver, message: Message) -> Future:
    """``Driver.send_message`` for an input event, from the driver's input thread: the future
    is done once the app has queued it."""
    return asyncio.run_coroutine_threadsafe(driver._app._post_message(message), loop=driver._loop)


def driver_file(driver: LinuxDriver) -> Any:
    """The file a terminal driver's writer thread writes to."""
    return driver._file


def set_driver_file(driver: LinuxDriver, file: Any) -> None:
    """Make the writer thread (started later, in application mode) write to ``file``."""
    driver._file = file


def writer_thread(driver: LinuxDriver) -> WriterThread | None:
    """The driver's writer thread (None outside application mode)."""
    return driver._writer_thread


def writer_queue(writer: WriterThread) -> queue.Queue:
    """The queue of writes the writer thread takes from (``None`` ends the thread)."""
    return writer._queue


def app_driver(app: App) -> Driver | None:
    """The driver an app runs with (None before it has started)."""
    return app._driver


def set_app_driver(app: App, driver: Driver) -> None:
    """Give a running app another driver (a prepared app taking its player's terminal)."""
    app._driver = driver


# -- the prepared app ------------------------------------------------------------------------------


def own_wakeup_pipe(loop: asyncio.AbstractEventLoop) -> None:
    """Give this process's copy of a selector event loop a wakeup pipe of its own (after a
    fork: the inherited one is shared with every other child of the same parent)."""
    assert isinstance(loop, asyncio.selector_events.BaseSelectorEventLoop)
    loop._close_self_pipe()  # type: ignore[attr-defined]
    loop._make_self_pipe()  # type: ignore[attr-defined]


def exiting(app: App) -> bool:
    """Whether the app has been asked to exit."""
    return bool(app._exit)


# -- the shared stylesheet -------------------------------------------------------------------------


class OpenStylesheet:
    """Put before Textual's ``Stylesheet`` in a subclass's bases: its parts a subclass needs
    under public names: the variables, the parse of one source (:meth:`parse_source`, called for
    each) and :meth:`adopt`."""

    if TYPE_CHECKING:  # (Stylesheet's, for the type checker)
        _variables: dict[str, str]
        _invalid_css: set[str]
        _rules: list[RuleSet]
        _rules_map: dict[str, list[RuleSet]] | None
        _require_parse: bool
        source: Any

    @property
    def variables(self) -> dict[str, str]:
        return self._variables

    def _parse_rules(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        return self.parse_source(css, read_from, is_default_rules, tie_breaker, scope)

    def parse_source(self, css: str, read_from: CSSLocation, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[RuleSet]:
        """Parse one source into rules (Textual's, unless a subclass keeps them)."""
        return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)  # type: ignore[misc]

    def adopt(self, fresh: Stylesheet) -> None:
        """Take the parsed rules and sources of ``fresh``, parsed afresh (as Textual's
        ``reparse`` does with the sheet it parses into)."""
        self._rules, self._rules_map, self.source = fresh.rules, None, fresh.source
        self._require_parse = False

    def keep_errors(self, fresh: Stylesheet) -> None:
        """Report the sources ``fresh`` found invalid as this sheet's (a failed reparse)."""
        self._invalid_css.update(fresh._invalid_css)


# -- the first frame -------------------------------------------------------------------------------

def get_time() -> float:
    """Now, on the clock of ``Message.time``."""
    from textual._time import get_time

    return get_time()


@cache
def toast_rack_class() -> type[Widget] | None:
    """The widget that holds an app's notifications on a screen (None where gone)."""
    try:
        from textual.widgets._toast import ToastRack
    except ImportError:  # pragma: no cover
        return None
    return ToastRack


@cache
def footer_key_class() -> type[Widget] | None:
    """The widget of one key in Textual's footer (None where gone)."""
    try:
        from textual.widgets._footer import FooterKey
    except ImportError:  # pragma: no cover
        return None
    return FooterKey


@cache
def chops_update_class() -> Any:
    """The compositor's update of changed line spans (None where gone)."""
    try:
        from textual._compositor import ChopsUpdate
    except ImportError:  # pragma: no cover
        return None
    return ChopsUpdate


def has_notifications(app: App) -> bool:
    """Whether the app has notifications to show (the toast rack is displayed for them)."""
    return bool(app._notifications)


def resize_known(app: App, size: Size) -> bool:
    """Whether the app is laid out for ``size`` already and no resize is under way."""
    return app._size is not None and size == app._size and app._resize_event is None


def hold_repaints(app: App) -> None:
    """Draw nothing until :func:`release_repaints` (``App.batch_update`` is a ``with`` block,
    and this spans a take-over and the size its terminal sends later)."""
    app._begin_batch()


def release_repaints(app: App) -> None:
    """Draw again what was asked meanwhile (see :func:`hold_repaints`)."""
    app._end_batch()


def compositor_size(screen: Screen) -> Size:
    """The size the screen was last laid out at (zero before its first layout)."""
    return screen._compositor.size


def forget_pending_refreshes(screen: Screen) -> None:
    """Drop the layouts and repaints the screen's widgets asked for so far (the layout that
    just ran drew all of them)."""
    from textual.widget import Widget

    for node in screen.walk_children(Widget, with_self=True):
        node._layout_required = node._repaint_required = False
    screen._dirty_widgets.clear()


class OpenScreen:
    """Put before Textual's ``Screen`` in a subclass's bases: its layout under a public name,
    :meth:`lay_out`."""

    def _refresh_layout(self, size: Size | None = None, scroll: bool = False) -> None:
        self.lay_out(size, scroll)

    def lay_out(self, size: Size | None = None, scroll: bool = False) -> None:
        """Lay the screen out and draw it (Textual's, unless a subclass adds to it)."""
        super()._refresh_layout(size, scroll)  # type: ignore[misc]


class OpenOptionList:
    """Put before Textual's ``OptionList`` in a subclass's bases: its line cache's hooks under
    public names."""

    if TYPE_CHECKING:  # (OptionList's, for the type checker)
        _line_cache: Any

    @property
    def lines_built(self) -> bool:
        """Whether the option lines for the current width are worked out."""
        return bool(self._line_cache.lines)

    def _update_lines(self) -> None:
        self.build_lines()

    def _clear_caches(self) -> None:
        self.forget_lines()

    def build_lines(self) -> None:
        """Work out the option lines (Textual's)."""
        super()._update_lines()  # type: ignore[misc]

    def forget_lines(self) -> None:
        """Forget the lines and their sizes (Textual's)."""
        super()._clear_caches()  # type: ignore[misc]


# -- repaints held back by a batch ------------------------------------------------------------------


class OpenApp:
    """Put before Textual's ``App`` in a subclass's bases: the end of the last batch of updates
    under way under a public name, :meth:`batch_ended` (called while the feature
    ``batch_repaint`` is on)."""

    if TYPE_CHECKING:  # (App's, for the type checker)
        _batch_count: int

    def _end_batch(self) -> None:
        super()._end_batch()  # type: ignore[misc]
        if not self._batch_count and enabled("batch_repaint"):
            self.batch_ended()

    def batch_ended(self) -> None:
        """No batch of updates is under way any more: drawing goes on."""


# -- the key bar and input -------------------------------------------------------------------------


def bindings_ready(footer: Footer) -> None:
    """Let a footer show its screen's bindings as it composes (without waiting for the first
    "bindings updated")."""
    footer.set_reactive(type(footer)._bindings_ready, True)


def key_bindings(widget: Widget, key: str) -> list[Binding]:
    """The widget's own bindings of ``key`` (not its ancestors')."""
    return widget._bindings.key_to_bindings.get(key, [])


class OpenInput:
    """Put before Textual's ``Input`` in a subclass's bases: its key handler under a public
    name, :meth:`key_typed`."""

    async def _on_key(self, event: events.Key) -> None:
        await self.key_typed(event)

    async def key_typed(self, event: events.Key) -> None:
        """A key reached the input (Textual's: insert a printable character)."""
        await super()._on_key(event)  # type: ignore[misc]


# -- textual-serve ---------------------------------------------------------------------------------


@cache
def app_service_class() -> type | None:
    """textual-serve's ``AppService`` with its process hooks under public names (None without
    textual-serve); checks textual-serve's names first (see :func:`check`)."""
    try:
        from textual_serve.app_service import AppService
    except ImportError:
        return None
    check(web=True)

    class OpenAppService(AppService):
        """``environment(width, height)``: the app's environment; ``open_app_process``: start it;
        ``set_stdin``, ``task``, ``cancel_downloads``: what the subclass's process needs."""

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            return self.environment(width, height)

        def environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            return AppService._build_environment(self, width, height)

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            return await self.open_app_process(width, height)

        async def open_app_process(self, width: int = 80, height: int = 24) -> Any:
            return await AppService._open_app_process(self, width, height)

        def set_stdin(self, writer: asyncio.StreamWriter) -> None:
            self._stdin = writer

        @property
        def task(self) -> asyncio.Task | None:
            return self._task

        @task.setter
        def task(self, task: asyncio.Task | None) -> None:
            self._task = task

        async def cancel_downloads(self) -> None:
            await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)

    return OpenAppService


def driver_environment() -> dict[str, str]:
    """The environment textual-serve gives an app (its driver's variables), without an app."""
    service = app_service_class()
    if service is None:
        return {}
    return service(command="", write_bytes=None, write_str=None, close=None, download_manager=None).environment()


__all__ = ["FEATURES", "PRIVATE_NAMES", "OpenApp", "OpenInput", "OpenOptionList", "OpenScreen", "OpenStylesheet", "Private",
           "TextualCompatError", "app_driver", "app_service_class", "bindings_ready", "check", "chops_update_class",
           "compositor_size", "driver_app", "driver_environment", "driver_file", "enabled", "exiting",
           "footer_key_class", "forget_pending_refreshes", "get_time", "has_notifications", "key_bindings", "missing",
           "own_wakeup_pipe", "post_input", "resize_known", "set_app_driver", "set_driver_file",
           "toast_rack_class", "writer_queue", "writer_thread"]
