"""``tui-games serve --web``: the app in a browser, through textual-serve, bounded like the SSH server.

textual-serve (1.1) gives the page, its terminal (xterm.js) and one app process per tab,
spoken to over a websocket. :class:`WebGameServer` subclasses its ``Server`` and
:class:`~tui_games.server.web_app.TabApp` its ``AppService``, keeping its static files, its
packet protocol and its download route, and changes what a server on a network needs. Each
change works around a textual-serve limitation, named here so it can go when upstream moves:

- **Origin and Host** (origins.py): a websocket is accepted only from the page's own origin,
  ``--public-url``'s or an ``--allow-origin``; every request's Host must be a name this server
  answers to (DNS rebinding); refusals are HTTP 403 (400 for a malformed Host) and a log line.
  textual-serve checks neither (``Server.handle_websocket``; no upstream issue found).
- **The page's URLs** come from the request's Host, or ``--public-url``: textual-serve builds
  them from the bind address, so ``--host 0.0.0.0`` gave other devices ``http://0.0.0.0:…``
  (Textualize/textual-serve#42; wss for https public URLs was #10).
- **No external requests**: textual-serve's template loads Roboto Mono from Google Fonts
  (the app waited for it; every visit was reported there). Our page (web_page.html) takes the
  same font from textual-serve's own static files, sends a Content-Security-Policy that lets
  the page reach no other host, and drops textual.js's ``?ping=URL`` fetch.
- **Keyboard focus** on the terminal at load (Textualize/textual-web#16, the same front end).
  textual.js then sends "focus" on a socket still connecting (an uncaught "Still in CONNECTING
  state" in the console) and "blur" on a closed one: the page holds the first until the socket
  opens and drops the second. The page has an icon (favicon.svg; textual-serve's was a 404).
- **Limits**: ``--max-sessions`` and ``--memory-total-mb`` (a refused tab is told "the server
  is busy" in the page), ``--idle-minutes`` (hung up, saved), ``--memory-mb`` per app; every
  message bounded (:data:`MAX_MESSAGE` bytes; bigger frames close the session), resize
  requests clamped to 500×200, malformed messages (and any nested deeper than :data:`MAX_DEPTH`,
  counted before parsing) ignored (textual-serve had none of these).
- **Environment**: each app runs with ``TUI_GAMES_SERVED=1`` and an environment built afresh
  (web_app.py); textual-serve passes the server's own.
- **Stopping**: SIGTERM, SIGINT or SIGHUP hangs every tab up at once (each app saves and
  exits; SIGKILL after the grace period) and the server exits in about a second.
  textual-serve's ``serve`` waited for every tab's app to notice on its own (24.7 s measured
  with tabs open; no upstream issue found).

Every tab plays with the data directory of whoever runs the server: the web has no names to
tell players apart, so this is for one person or a household. Files the player names stay in
``files/`` there (player_files.py); the server's own files (``server/``) are out of reach.

The log is the SSH server's (log.py): ``listening``, ``start``, ``quit``, ``hangup``,
``failed``, ``session-refused`` (busy) and ``refused`` (a foreign origin or host name; at most
one line a second per address, and matched by the fail2ban filter in docs/serving.md).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import secrets
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from tui_games.server import EXTRA_HINT, ServerError, run_until_signal
from tui_games.server.host import SessionHost, SessionLimits
from tui_games.server.limits import raise_open_file_limit
from tui_games.server.log import RateLimit, elapsed, event, make_logger, server_event
from tui_games.server.origins import Address, Gate, Refused, origin_text
from tui_games.server.sessions import clamp_size
from tui_games.server.web_app import TabApp, preload_env

try:
    import aiohttp_jinja2
    import jinja2
    from aiohttp import WSMsgType, web
    from textual_serve.server import Server
except ImportError:  # serve() turns this into one line naming the extra
    Server = None  # type: ignore[assignment,misc]

PAGE = "web_page.html"
ICON = Path(__file__).with_name("favicon.svg")
# A key, a paste, a resize: a browser's messages are small. A bigger frame closes the session
# (aiohttp refuses it from its header, before reading it).
MAX_MESSAGE = 64 * 1024
MAX_PING = 64
FONT_SIZES = range(6, 65)
HEARTBEAT = 15.0  # seconds between websocket pings: a vanished browser is noticed in ~30 s
# A connection without a whole request in this long is closed: from its start (a client that
# sends its headers a byte at a time, or nothing) and between requests. aiohttp's default
# is an hour; a websocket, once open, is not affected.
IDLE_CONNECTION_SECONDS = 20.0
# The close frame's reason is at most 123 bytes.
MAX_REASON = 123
# textual.js's messages nest two deep (["resize", {...}]): deeper is not one of them, and
# deep enough overflows json's recursive parser (a RecursionError: 60,000 "[" under
# MAX_MESSAGE did).
MAX_DEPTH = 8
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
CLOSE_NORMAL, CLOSE_GOING_AWAY, CLOSE_ERROR, CLOSE_TRY_AGAIN = 1000, 1001, 1011, 1013
SHUTTING_DOWN = "the server is shutting down"


@dataclass
class WebConfig:
    home: Path  # every tab's TUI_GAMES_HOME: the data directory of whoever runs the server
    host: str = "127.0.0.1"
    port: int = 8000  # 0: any free port (tests); WebGameServer.port tells which
    public_url: str | None = None  # where browsers reach the server, if not the Host they ask for
    allow_origins: tuple[str, ...] = ()  # other pages that may open a game (scheme://host[:port])
    sessions: SessionLimits = field(default_factory=SessionLimits)  # shared with SSH (host.py)
    zygote: bool = True  # fork tabs' apps from a pre-started app (zygote.py); False: a fresh process each
    app_argv: list[str] = field(default_factory=lambda: [sys.executable, "-m", "tui_games"])
    log: Callable[[str], None] = field(default_factory=make_logger)
    names: set[str] | None = None  # host names answered besides IPs and localhost; None: this machine's


def require_textual_serve() -> None:
    if Server is None:
        raise ServerError(f"serving on the web needs textual-serve: {EXTRA_HINT}")


def _sentence(text: str) -> str:
    """A close reason for the page: one capitalised line of at most MAX_REASON bytes."""
    text = text[:1].upper() + text[1:]
    data = text.encode()
    if len(data) > MAX_REASON:
        text = data[:MAX_REASON - 3].decode(errors="ignore") + "..."
    return text


def bounded_json(text: str, max_depth: int = MAX_DEPTH) -> object:
    """``text`` parsed as JSON if it nests at most ``max_depth`` deep; else ValueError (the
    depth is counted before parsing, over the brackets outside strings)."""
    outside = _STRINGS.sub("", text)
    steps = (1 if bracket in "[{" else -1 for bracket in _BRACKETS.findall(outside))
    if max(itertools.accumulate(steps), default=0) > max_depth:
        raise ValueError(f"nested deeper than {max_depth}")
    return json.loads(text)


def _to_int(value: object, default: int) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    try:
        return int(str(value)[:6])
    except ValueError:
        return default


class WebGameServer(Server if Server is not None else object):  # type: ignore[misc]
    """The listening web server, its tabs and their limits (see the module docstring)."""

    def __init__(self, config: WebConfig) -> None:
        require_textual_serve()
        try:
            self.gate = Gate(config.public_url, config.allow_origins, config.names)
        except ValueError as error:
            raise ServerError(str(error)) from None
        super().__init__(" ".join(config.app_argv), host=config.host, port=config.port, title="tui-games",
                         public_url=config.public_url, templates_path=Path(__file__).parent)
        self.config = config
        # The seats, the watchdog and the app's start, shared with the SSH server (host.py);
        # the zygote forks only the real app (a test's app_argv runs as given).
        real_app = config.app_argv == WebConfig(home=config.home).app_argv
        self.session_host = SessionHost(config.sessions, config.log, preload_env=preload_env(),
                                        zygote=config.zygote and real_app)
        self.tabs: set[Tab] = self.session_host.sessions
        self.limited = RateLimit(config.log)
        self._icon = ICON.read_bytes()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None

    @property
    def most_sessions(self) -> int:
        return self.session_host.most_sessions

    # -- starting and stopping -----------------------------------------------------------------

    async def make_web_app(self) -> web.Application:
        app = web.Application(middlewares=[self._check_host], client_max_size=MAX_MESSAGE)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.get("/download/{key}", self.handle_download, name="download"),
            # The page names /favicon.svg; a browser or tool that did not read it asks for .ico.
            web.get("/favicon.svg", self.handle_icon, name="icon"),
            web.get("/favicon.ico", self.handle_icon),
            web.static("/static", self.statics_path, show_index=False, name="static"),
        ])
        return app

    async def start(self) -> None:
        config = self.config
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_error)
        files = raise_open_file_limit()
        # Tabs are hung up by close() before the runner's cleanup: nothing is left for it to wait on.
        self._runner = web.AppRunner(await self.make_web_app(), access_log=None, shutdown_timeout=2.0,
                                     keepalive_timeout=IDLE_CONNECTION_SECONDS)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, config.host, config.port)
        try:
            await self._site.start()
        except OSError as error:
            await self._runner.cleanup()
            raise ServerError(f"cannot listen on {config.host}:{config.port}: {error.strerror or error}") from None
        # textual-serve's ``port`` attribute: the port listened on (port 0 picks a free one).
        self.port = next((address[1] for address in self._runner.addresses), config.port)
        await self.session_host.start()
        shown = config.host if ":" not in config.host else f"[{config.host}]"
        anywhere = config.host in ("0.0.0.0", "::", "")
        url = config.public_url or f"http://{'ADDRESS' if anywhere else shown}:{self.port}/"
        config.log(server_event("listening", address=f"{shown}:{self.port}", url=url,
                         origins=" ".join(config.allow_origins) or None,
                         **self.session_host.listening_fields(names=False), open_files=files[1] if files else None,
                         data=config.home))

    async def close(self, reason: str = SHUTTING_DOWN) -> None:
        """Stop listening, hang up every tab at once (each app saves) and wait for them."""
        if self._site is not None:
            await self._site.stop()
        await self.session_host.close(reason)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _loop_error(self, loop, context: dict) -> None:
        """asyncio's reports (a failed accept when out of file descriptors, above all): one line
        a second at most, never a traceback per attempt."""
        error = context.get("exception")
        message = context.get("message", "error")
        detail = f"{type(error).__name__}: {error}" if error else ""
        self.limited(f"loop:{message}", event("server-error", what=message, error=detail or None))

    def refusal(self, peer: str) -> str | None:
        """Why one more tab from ``peer`` cannot have a game now, or None."""
        return self.session_host.refusal(None, peer)

    # -- requests ------------------------------------------------------------------------------

    def _refuse(self, request: web.Request, refused: Refused) -> web.Response:
        peer = request.remote or "?"
        self.limited(f"refused:{peer}", event("refused", **{"from": peer}, reason=refused.why,
                                               path=request.path, host=request.headers.get("Host"),
                                               origin=request.headers.get("Origin")))
        return web.Response(status=refused.status, text=f"tui-games: {refused}\n")

    @web.middleware
    async def _check_host(self, request: web.Request, handler):
        try:
            self.gate.check_host(request.headers.get("Host"))
        except Refused as refused:
            return self._refuse(request, refused)
        return await handler(request)

    def _address(self, request: web.Request) -> Address:
        """The request's Host, which the middleware has let through."""
        return self.gate.check_host(request.headers.get("Host"))

    def _page_origin(self, address: Address) -> tuple[str, str]:
        """(origin, path prefix) of the page's URLs: --public-url's, or the Host asked for."""
        if self.gate.public is not None:
            scheme, public, prefix = self.gate.public
            return origin_text(scheme, public), prefix
        return f"http://{address.netloc()}", ""

    async def handle_index(self, request: web.Request) -> web.Response:
        origin, prefix = self._page_origin(self._address(request))
        ws_origin = origin.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
        size = _to_int(request.query.get("fontsize", "16"), 16)
        nonce = secrets.token_urlsafe(16)
        context = {"title": self.title, "static_url": f"{origin}{prefix}/static/", "icon_url": f"{origin}{prefix}/favicon.svg",
                   "websocket_url": f"{ws_origin}{prefix}/ws", "font_size": size if size in FONT_SIZES else 16,
                   "nonce": nonce}
        response = aiohttp_jinja2.render_template(PAGE, request, context)
        here = "'self'" if self.gate.public is None else f"'self' {origin}"
        response.headers.update({
            # The page may load and reach only this server: no font service, no ping URL,
            # no other site's scripts; and no other site may frame it (and so take its keys).
            "Content-Security-Policy": (
                f"default-src 'none'; script-src {here} 'nonce-{nonce}'; style-src {here} 'unsafe-inline'; "
                f"font-src {here}; img-src {here} data:; connect-src {here} {ws_origin}; "
                "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
            "X-Frame-Options": "DENY",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
        })
        return response

    async def handle_icon(self, request: web.Request) -> web.Response:
        return web.Response(body=self._icon, content_type="image/svg+xml", headers={
            "Cache-Control": "max-age=86400", "X-Content-Type-Options": "nosniff",
            # An SVG opened on its own is a document: this one may run and load nothing.
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        try:
            self.gate.check_origin(request.headers.get("Origin"), self._address(request))
        except Refused as refused:
            return self._refuse(request, refused)
        websocket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        if not websocket.can_prepare(request).ok:
            return web.Response(status=400, text="tui-games: this address takes websockets only\n")
        await websocket.prepare(request)
        await Tab(self, request, websocket).run()
        return websocket


class Tab:
    """One websocket and its app: admitted or refused, fed the browser's messages (checked),
    hung up when the browser goes, the player idles, or the server stops."""

    def __init__(self, server: WebGameServer, request: web.Request, websocket: web.WebSocketResponse) -> None:
        self.server, self.websocket, self.request = server, websocket, request
        self.peer = request.remote or "?"
        self.user: str | None = None  # the web has no player names
        self.query = request.query
        self.id = secrets.token_hex(4)
        self.app: TabApp | None = None
        self.began = self.last_input = time.monotonic()
        self._ending: asyncio.Task | None = None
        self._error: str | None = None  # why the websocket failed, if it did
        self._quit = False  # the app ended by itself (the player quit)
        self._hanging_up = False  # end() has begun: it closes the websocket with its reason
        self._finished = False  # the last log line for this tab is written

    @property
    def pid(self) -> int | None:
        return self.app.pid if self.app is not None else None

    def _log(self, name: str, **fields) -> None:
        self.server.config.log(event(name, **{"from": self.peer}, **fields, session=self.id))

    async def _close(self, code: int, reason: str = "") -> None:
        if not self.websocket.closed:
            try:
                await asyncio.wait_for(self.websocket.close(code=code, message=_sentence(reason).encode()), 2.0)
            except (asyncio.TimeoutError, ConnectionError, RuntimeError):
                pass

    async def run(self) -> None:
        server, config = self.server, self.server.config
        reason = server.refusal(self.peer)
        if reason is not None:
            self._log("session-refused", reason=reason)
            await self._close(CLOSE_TRY_AGAIN, reason)
            return
        server.tabs.add(self)  # counted from now: two tabs at once cannot both take the last place
        columns, rows = clamp_size(_to_int(self.query.get("width"), 80), _to_int(self.query.get("height"), 24))
        memory = config.sessions.memory_mb * 1024 * 1024 if config.sessions.memory_mb else None
        self.app = TabApp(argv=config.app_argv, home=config.home, memory_bytes=memory, on_end=self._app_ended,
                          host=server.session_host,
                          write_bytes=self.websocket.send_bytes, write_str=self.websocket.send_str,
                          close=self._app_closed, download_manager=server.download_manager)
        try:
            await self.app.start(columns, rows)
        except OSError as error:
            server.tabs.discard(self)
            self._finish("failed", reason=f"could not start the app: {error}")
            await self._close(CLOSE_ERROR, "the server could not start a game; try again later")
            return
        if self._hanging_up:  # idle or shutting down while the app was starting
            # Wait for that ending: it closes the websocket with its reason, and a handler that
            # returned first would close it bare (aiohttp's 1000 with no reason).
            await self.end("disconnected")
            return
        self.last_input = time.monotonic()  # idle time counts from a running game
        self._log("start", sessions=f"{len(server.tabs)}/{server.most_sessions}", size=f"{columns}x{rows}",
                  start=self.app.started_by)
        try:
            await self._read_messages()
        finally:
            await self.end("disconnected")

    async def _read_messages(self) -> None:
        while not self.websocket.closed and self._error is None:
            message = await self.websocket.receive()
            if message.type is WSMsgType.TEXT:
                await self._handle(message.data)
            elif message.type is WSMsgType.ERROR:  # a frame over MAX_MESSAGE, a protocol error
                self._error = f"websocket error: {message.data}"
                return
            elif message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            # Binary frames mean nothing to the app: dropped.

    async def _handle(self, text: str) -> None:
        """One message from the page, as textual.js sends them; anything else is dropped."""
        try:
            envelope = bounded_json(text)
        except (ValueError, RecursionError):  # not JSON, or too deep for it: dropped
            return
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            return
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        app = self.app
        if app is None:
            return
        if kind == "stdin" and isinstance(data, str):
            self.last_input = time.monotonic()
            # A lone surrogate from the page cannot be UTF-8: replaced, not fatal.
            await self._send_keys(app, data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            columns, rows = clamp_size(_to_int(data.get("width"), 0), _to_int(data.get("height"), 0))
            await app.set_terminal_size(columns, rows)
        elif kind == "ping" and isinstance(data, str) and len(data) <= MAX_PING:
            await self.websocket.send_json(["pong", data])
        elif kind == "focus":
            await app.focus()
        elif kind == "blur":
            await app.blur()

    async def _send_keys(self, app: TabApp, keys: bytes) -> None:
        """Give the app its keys, waiting while it is behind (no more websocket messages are
        read meanwhile: the browser's TCP window fills, and the server holds about 64 KiB of a
        tab's keys at most); but not for a browser that has gone, which must be hung up now."""
        sending = asyncio.ensure_future(app.send_bytes(keys))
        while not sending.done():
            await asyncio.wait({sending}, timeout=1.0)
            transport = self.request.transport
            if not sending.done() and (transport is None or transport.is_closing()):
                sending.cancel()
                self._error = "disconnected while the app was behind on keys"
                return

    def end(self, reason: str) -> asyncio.Task:
        """Hang the app up (it saves), tell a still-open page why, forget the tab."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(reason))
        return self._ending

    async def _end(self, reason: str) -> None:
        self._hanging_up = True
        reason = self._error or reason
        app = self.app
        quit = self._quit or (app is not None and app.returncode is not None)
        if app is not None:
            await app.hang_up(self.server.config.sessions.grace_seconds)
        self.server.tabs.discard(self)
        after = elapsed(time.monotonic() - self.began)
        if quit:
            self._finish("quit", status=app.returncode if app is not None else None, after=after)
            await self._close(CLOSE_NORMAL)
        else:
            self._finish("hangup", reason=reason, after=after)
            code = CLOSE_GOING_AWAY if reason == SHUTTING_DOWN else CLOSE_NORMAL
            await self._close(code, f"{reason}; your game is saved.")

    def _finish(self, name: str, **fields) -> None:
        if not self._finished:
            self._finished = True
            self._log(name, **fields)

    async def _app_closed(self) -> None:
        """The app said it is done (its driver's "exit"): the player quit, unless we hung it up."""
        if not self._hanging_up:
            self._quit = True
            await self._close(CLOSE_NORMAL)

    async def _app_ended(self, status: int | None, reason: str | None) -> None:
        """The app is gone by itself: after a quit, a crash, or a failed start."""
        if self._hanging_up:
            return
        if reason is not None and self.app is not None:
            tail = self.app.stderr_text().strip().splitlines()
            self._finish("failed", reason=reason, status=status, error=tail[-1][:200] if tail else None)
            await self._close(CLOSE_ERROR, reason)
        else:
            self._quit = True
            await self._close(CLOSE_NORMAL)


def make_server(config: WebConfig) -> WebGameServer:
    """The web server for ``config`` (not yet listening)."""
    return WebGameServer(config)


def serve(config: WebConfig) -> None:
    """Run until SIGINT, SIGTERM or SIGHUP; then every tab is hung up (and so saved) at once
    before the process ends."""
    require_textual_serve()
    asyncio.run(_serve(config))


async def _serve(config) -> None:
    server = make_server(config)
    await run_until_signal(server, config.log, lambda: len(server.tabs))
