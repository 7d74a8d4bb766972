"""``tui-games serve --web`` attacked the way a web page or a scripted client would, on loopback
only, with a real websocket client (aiohttp's, as textual-serve's page speaks it): foreign
origins and DNS-rebinding host names refused, the page's URLs from the request's Host and no
other host, sessions capped, idle tabs hung up, messages and window sizes bounded, each app
served (``TUI_GAMES_SERVED=1``) under its memory cap, and SIGTERM (or SIGKILL) of the real
command with a game in progress: saved and gone in seconds."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("textual_serve")
aiohttp = pytest.importorskip("aiohttp")
pyte = pytest.importorskip("pyte")

from aiohttp import WSMsgType  # noqa: E402

from tui_games.server import web  # noqa: E402
from tui_games.server.host import SessionLimits  # noqa: E402
from tui_games.server.origins import Gate, Refused, parse_host  # noqa: E402
from tui_games.server.web import WebConfig, WebGameServer  # noqa: E402
from tui_games.userdata.store import Store  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
posix_only = pytest.mark.skipif(os.name != "posix", reason="process groups and signals")


# -- the decisions, without a server ---------------------------------------------------------------

@pytest.mark.parametrize("header", [
    None, "", "a b", "<script>", "x\r\nSet-Cookie: a=b", "host:99999", "host:", "[::1", "[nothing]:80",
    "evil.example:8000/path", "user@host", "a" * 300, "ex ample.org",
])
def test_a_host_header_that_is_not_a_plain_host_is_refused_before_use(header):
    with pytest.raises(Refused) as refused:
        parse_host(header)
    assert refused.value.status == 400


def test_only_names_the_server_answers_to_pass_and_rebinding_names_do_not():
    gate = Gate(public_url="https://games.example.org/tui", allow_origins=["http://dash.lan:3000"],
                names={"mybox", "mybox.local"})
    for host in ("127.0.0.1:8000", "192.0.2.7", "[::1]:8000", "localhost:8000", "app.localhost",
                 "MyBox:8000", "mybox.local", "games.example.org", "dash.lan:8000"):
        gate.check_host(host)
    for host in ("evil.example:8000", "127.0.0.1.evil.example", "mybox.evil.example"):
        with pytest.raises(Refused) as refused:
            gate.check_host(host)
        assert refused.value.status == 403 and "--public-url" in str(refused.value)


def test_a_websocket_is_taken_only_from_the_page_itself_or_an_allowed_origin():
    gate = Gate(allow_origins=["https://dash.example"], names=set())
    here = gate.check_host("127.0.0.1:8000")
    gate.check_origin("http://127.0.0.1:8000", here)
    gate.check_origin("https://dash.example", here)
    gate.check_origin("https://dash.example:443", here)
    behind_proxy = gate.check_host("games.localhost")  # a proxy on 443 passing the Host on
    gate.check_origin("https://games.localhost", behind_proxy)
    for origin in (None, "", "null", "http://127.0.0.1:8001", "http://localhost:8000", "https://evil.example",
                   "http://127.0.0.1:8000.evil.example", "javascript:alert(1)", "https://dash.example:8443"):
        with pytest.raises(Refused):
            gate.check_origin(origin, here)


# -- a server in the test's loop, a websocket client ---------------------------------------------

@pytest.fixture
async def start_web(home):
    """Start WebGameServers on free ports of 127.0.0.1 (``await start_web(**WebConfig options)``);
    ``server.lines`` holds its log. At the end every server is closed and no app outlives it."""
    servers: list[WebGameServer] = []

    async def start(**options) -> WebGameServer:
        lines: list[str] = []
        limits, options = SessionLimits.split({"grace_seconds": 3.0, **options})
        config = WebConfig(home=home, port=0, log=lines.append, names=set(), sessions=limits, **options)
        server = WebGameServer(config)
        await server.start()
        server.lines = lines
        servers.append(server)
        return server

    yield start
    pids = [tab.app.pid for server in servers for tab in server.tabs if tab.app and tab.app.pid]
    for server in servers:
        await server.close()
    assert not [pid for pid in pids if _alive(pid)], "an app outlived the server"


async def _no_tabs(server: WebGameServer, timeout: float = 10.0) -> bool:
    """Whether the server has let go of every tab (it does so just after closing them)."""
    deadline = time.monotonic() + timeout
    while server.tabs and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return not server.tabs


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes.
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\nState:\tZ" in status.read_text())


class Tab:
    """A browser tab as textual.js is one: a websocket to /ws, its screen kept by pyte."""

    def __init__(self, websocket, columns: int = 80, rows: int = 24) -> None:
        self.websocket = websocket
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.texts: list = []
        self.close: tuple[int | None, str] | None = None

    @classmethod
    async def open(cls, session, port: int, origin: str | None = None, host: str | None = None,
                   columns: int = 80, rows: int = 24) -> Tab:
        origin = f"http://127.0.0.1:{port}" if origin is None else origin
        headers = {"Host": host} if host else {}
        websocket = await session.ws_connect(f"http://127.0.0.1:{port}/ws?width={columns}&height={rows}",
                                             origin=origin, headers=headers, autoclose=False)
        return cls(websocket, min(columns, 500), min(rows, 200))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def pump(self, until=lambda tab: False, timeout: float = 30.0) -> bool:
        """Take what the server sends until ``until(self)`` or the socket closes or time runs out."""
        deadline = time.monotonic() + timeout
        while not until(self):
            left = deadline - time.monotonic()
            if left <= 0 or self.close is not None:
                return False
            try:
                message = await self.websocket.receive(timeout=left)
            except asyncio.TimeoutError:
                return False
            if message.type is WSMsgType.BINARY:
                self.stream.feed(message.data)
            elif message.type is WSMsgType.TEXT:
                self.texts.append(json.loads(message.data))
            elif message.type is WSMsgType.CLOSE:
                self.close = (message.data, message.extra or "")
                await self.websocket.close()
            else:  # CLOSED, CLOSING, ERROR
                self.close = self.close or (self.websocket.close_code, "")
        return True

    async def shows(self, text: str, timeout: float = 30.0) -> bool:
        return await self.pump(lambda tab: text in tab.text(), timeout)

    async def closed(self, timeout: float = 30.0) -> tuple[int | None, str]:
        await self.pump(lambda tab: tab.close is not None, timeout)
        assert self.close is not None, "the server did not close the session"
        return self.close

    async def send(self, *envelope) -> None:
        await self.websocket.send_str(json.dumps(list(envelope)))


async def test_a_foreign_origin_is_refused_and_logged_and_starts_nothing(start_web):
    server = await start_web()
    async with aiohttp.ClientSession() as session:
        for origin in ("https://evil.example", "null", f"http://127.0.0.1:{server.port + 1}"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await Tab.open(session, server.port, origin=origin)
            assert refused.value.status == 403
        # No Origin at all (what no browser sends): refused as well.
        async with session.get(f"http://127.0.0.1:{server.port}/ws", headers={
                "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as response:
            assert response.status == 403
            assert "this server's own page" in await response.text()
        # A DNS-rebinding page: its own origin, but a name the server does not answer to.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await Tab.open(session, server.port, origin=f"http://rebind.example:{server.port}",
                           host=f"rebind.example:{server.port}")
        assert refused.value.status == 403
    assert not server.tabs
    log = "\n".join(server.lines)
    assert re.search(r"^refused from=127\.0\.0\.1 reason=\"foreign origin\" path=/ws host=127\.0\.0\.1:\d+ "
                     r"origin=https://evil\.example$", log, re.M), log
    assert "start " not in log


async def test_the_pages_own_origin_and_an_allowed_one_get_the_menu(start_web):
    server = await start_web(allow_origins=("https://dash.example",), max_sessions=2)
    async with aiohttp.ClientSession() as session:
        own = await Tab.open(session, server.port)
        other = await Tab.open(session, server.port, origin="https://dash.example")
        assert await own.shows("Sudoku") and await other.shows("Sudoku")
        assert len(server.tabs) == 2


async def test_the_page_for_any_interface_uses_the_requests_host_and_no_other():
    # Bound to every interface, the page must name the host the browser asked for (textual-serve
    # wrote http://0.0.0.0:PORT/); the app under test binds loopback only.
    server = WebGameServer(WebConfig(home=Path("."), host="0.0.0.0", port=8000, log=lambda line: None,
                                     names={"mybox"}))
    from aiohttp.test_utils import TestClient, TestServer

    async with TestClient(TestServer(await server.make_web_app(), host="127.0.0.1")) as client:
        for host in ("192.0.2.7:8000", "mybox:8000", "[2001:db8::7]:8000"):
            response = await client.get("/", headers={"Host": host})
            assert response.status == 200
            page = await response.text()
            assert f'src="http://{host}/static/js/textual.js"' in page
            assert f'data-session-websocket-url="ws://{host}/ws"' in page
            _assert_no_other_host(page, response.headers, host)
            # And each of them is there (textual-serve's script, style sheet, font, image).
            statics = set(re.findall(rf"http://{re.escape(host)}(/static/[^\"')]+)", page))
            assert len(statics) == 5, statics
            for url in statics:
                assert (await client.get(url, headers={"Host": host})).status == 200, url
        response = await client.get("/", headers={"Host": "evil.example:8000"})
        assert response.status == 403
        for host in ('x"><script>alert(1)</script>', "a b"):
            response = await client.get("/", headers={"Host": host})
            assert response.status == 400 and "<script>" not in await response.text()


def _assert_no_other_host(page: str, headers, host: str) -> None:
    """Every URL the page names is on ``host``, and its policy lets it reach nothing else."""
    urls = re.findall(r"""(?:src|href|url)\s*[=(]\s*["']?([a-z]+:[^"')\s]+)""", page)
    assert urls, page
    for url in urls:
        assert url.split("/")[2] == host or url.startswith("data:"), url
    assert not re.search(r"https?://(?!" + re.escape(host) + r")[\w.\[\]:-]+", page.replace("http://www.w3.org", "")), \
        "the page names another host"
    assert "googleapis" not in page and "gstatic" not in page
    policy = headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
    assert "http" not in policy.replace(f"ws://{host}", "")


async def test_a_client_that_dribbles_its_request_is_cut_off(start_web, monkeypatch):
    monkeypatch.setattr(web, "IDLE_CONNECTION_SECONDS", 1.0)
    server = await start_web()
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(b"GET / HTTP/1.1\r\nHo")
        for _ in range(40):  # a byte every 0.1 s: never a whole request
            await asyncio.sleep(0.1)
            if reader.at_eof():
                break
            writer.write(b"s")
            await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b""
    except ConnectionError:
        pass  # closed while we wrote: the same answer
    finally:
        writer.close()


async def test_public_url_names_the_pages_urls_and_its_origin_is_allowed(start_web):
    server = await start_web(public_url="https://games.example.org/tui")
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{server.port}/", headers={"Host": "games.example.org"}) as response:
            page = await response.text()
        assert 'src="https://games.example.org/tui/static/js/textual.js"' in page
        assert 'data-session-websocket-url="wss://games.example.org/tui/ws"' in page
        tab = await Tab.open(session, server.port, origin="https://games.example.org", host="games.example.org")
        assert await tab.shows("Sudoku")


async def test_past_the_session_cap_the_next_tab_is_told_the_server_is_full(start_web):
    server = await start_web(max_sessions=1)
    async with aiohttp.ClientSession() as session:
        first = await Tab.open(session, server.port)
        assert await first.shows("Sudoku")
        second = await Tab.open(session, server.port)
        code, reason = await second.closed()
        assert code == 1013 and reason == "The server is full (1 player at a time); try again later"
        assert len(server.tabs) == 1
    # The memory total counts too: 100 MB holds one session of the size expected before any is measured.
    busy = await start_web(memory_total_mb=100)
    assert busy.most_sessions == 1
    log = "\n".join(server.lines)
    assert 'session-refused from=127.0.0.1 reason="the server is full (1 player at a time); try again later"' in log


@posix_only
async def test_each_app_is_served_under_its_memory_cap_with_a_fresh_environment(start_web, home, monkeypatch):
    monkeypatch.setenv("SECRET_OF_THE_SERVER", "x")
    # A fresh process: /proc shows the environment a process was started with, and an app
    # forked from the zygote was started with the zygote's (test_server_host covers those).
    server = await start_web(memory_mb=768, zygote=False)
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        assert await tab.shows("Sudoku")
        (pid,) = [t.app.pid for t in server.tabs]
        if not Path(f"/proc/{pid}").exists():
            pytest.skip("no /proc here")
        env = dict(item.split("=", 1) for item in Path(f"/proc/{pid}/environ").read_text().split("\0") if "=" in item)
        assert env["TUI_GAMES_SERVED"] == "1" and env["TUI_GAMES_HOME"] == str(home)
        assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
        assert "SECRET_OF_THE_SERVER" not in env
        limits = Path(f"/proc/{pid}/limits").read_text()
        assert re.search(rf"Max address space\s+{768 * 1024 * 1024}\s+{768 * 1024 * 1024}", limits), limits
        assert os.getpgid(pid) == pid  # a group of its own: the hang-up reaches all of it


async def test_window_sizes_are_clamped_and_bad_messages_change_nothing(start_web, monkeypatch):
    sizes: list[tuple[int, int]] = []
    original = web.TabApp.set_terminal_size

    async def spy(self, width, height):
        sizes.append((width, height))
        await original(self, width, height)

    monkeypatch.setattr(web.TabApp, "set_terminal_size", spy)
    server = await start_web(zygote=False)  # its environment is read from /proc
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port, columns=100000, rows=100000)
        assert await tab.shows("Sudoku")
        (app,) = [t.app for t in server.tabs]
        environ = Path(f"/proc/{app.pid}/environ")
        if environ.exists():
            assert "\0COLUMNS=500\0ROWS=200\0" in "\0" + environ.read_text()
        for bad in ("not json", "[]", "{}", '["stdin", 5]', '["stdin"]', '["resize", [1, 2]]', '["resize", 7]',
                    '["resize", {"width": "x", "height": null}]', '["resize", {"width": true, "height": true}]',
                    '["ping", "' + "x" * 1000 + '"]', '["quit"]', '[{"a": 1}]', '["stdin", "\\ud800"]', "\x00"):
            await tab.websocket.send_str(bad)
        await tab.websocket.send_bytes(b"\x00" * 1000)
        await tab.send("resize", {"width": 10000, "height": 10000})
        await tab.send("resize", {"width": -5, "height": 0})
        await tab.send("ping", "alive")
        assert await tab.pump(lambda t: ["pong", "alive"] in t.texts, 10)
        assert len(server.tabs) == 1 and tab.close is None
        assert (500, 200) in sizes and all(0 < w <= 500 and 0 < h <= 200 for w, h in sizes), sizes


async def test_deeply_nested_json_is_dropped_without_a_traceback(start_web, capfd, caplog):
    # 60,000 brackets (under MAX_MESSAGE) once ended the tab with a RecursionError traceback.
    server = await start_web()
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        assert await tab.shows("Sudoku")
        for bad in ("[" * 60000, '["stdin", ' + "[" * 30000 + "]" * 30000 + "]", "{\"a\":" * 10000 + "1" + "}" * 10000,
                    '["ping", "' + "[" * 1000 + '"' + "]" * 40 + "]"):
            await tab.websocket.send_str(bad)
        await tab.send("ping", "still here")
        assert await tab.pump(lambda t: ["pong", "still here"] in t.texts, 10)
        assert len(server.tabs) == 1 and tab.close is None
    assert "Traceback" not in capfd.readouterr().err and "RecursionError" not in caplog.text


def test_the_depth_bound_parses_what_the_page_sends_and_nothing_deeper():
    assert web.bounded_json('["resize", {"width": 80, "height": 24}]') == ["resize", {"width": 80, "height": 24}]
    assert web.bounded_json(r'["stdin", "[[[[{{{\\\"]]]"]') == ["stdin", '[[[[{{{\\"]]]']
    assert web.bounded_json("[" * 5 + "]" * 5) == [[[[[]]]]]
    for bad in ("[" * 60000, "[" * 100 + "]" * 100, "not json", ""):
        with pytest.raises(ValueError):
            web.bounded_json(bad)


async def test_an_oversized_message_closes_the_session_and_hangs_the_app_up(start_web):
    server = await start_web()
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        assert await tab.shows("Sudoku")
        await tab.send("stdin", "j" * (web.MAX_MESSAGE + 1))
        code, _ = await tab.closed()
        assert code == 1009  # message too big
    assert await _no_tabs(server)
    assert re.search(r"hangup from=127\.0\.0\.1 reason=\"websocket error: .*", "\n".join(server.lines))


# An app that starts and then never reads a key: the server must hold the flood back.
DEAF_APP = "import sys, time; print('__GANGLION__', flush=True); time.sleep(120)"


async def test_a_flood_of_keys_is_held_back_and_a_flooder_that_leaves_is_hung_up(start_web, monkeypatch):
    # While the server holds a flooder back it reads nothing from it, so it learns the browser
    # has gone from the websocket's heartbeat (15 s; 3 s here).
    monkeypatch.setattr(web, "HEARTBEAT", 3.0)
    server = await start_web(app_argv=[sys.executable, "-c", DEAF_APP])
    session = aiohttp.ClientSession()
    try:
        tab = await Tab.open(session, server.port)
        reading = asyncio.create_task(tab.pump(timeout=60))  # as a browser does (it answers pings)
        keys = json.dumps(["stdin", "jjjjkkkk" * 4000])
        held_back = False
        for _ in range(1000):  # 32 MB: more than the kernel's socket buffers take
            try:
                await asyncio.wait_for(tab.websocket.send_str(keys), 3)
            except asyncio.TimeoutError:
                held_back = True  # the server stopped reading us
                break
        reading.cancel()
        assert held_back and tab.close is None
        (held,) = list(server.tabs)
        # The server holds the keys its buffers hold (the app's pipe and one message), no more.
        assert not held.request.transport.is_reading()
        assert held.app._stdin.transport.get_write_buffer_size() <= 64 * 1024 + web.MAX_MESSAGE
    finally:
        await session.close()  # gone without a goodbye
    assert await _no_tabs(server, 20)
    assert 'reason="disconnected while the app was behind on keys"' in "\n".join(server.lines)


async def test_an_idle_tab_is_hung_up_with_a_line_saying_why(start_web):
    server = await start_web(idle_seconds=1.0)
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        # Not waiting for the menu: on a loaded machine an app may take longer than the idle
        # second to draw it, and the hang-up is what is tested.
        code, reason = await tab.closed(timeout=30)
        assert code == 1000 and reason == "No keys for 1 second; your game is saved."
    assert 'hangup from=127.0.0.1 reason="no keys for 1 second"' in "\n".join(server.lines)


async def test_a_tab_hung_up_while_its_app_starts_still_hears_why(start_web, monkeypatch):
    """On a loaded machine the idle watchdog can end a tab between its app's fork and the end of
    its start-up; the page must still get the reason, not the bare close of a finished handler."""
    server = await start_web(idle_seconds=1.0)
    original_start = web.TabApp.start

    async def slow_start(self, columns, rows):
        await original_start(self, columns, rows)
        deadline = time.monotonic() + 30  # only bounds a broken run
        while not any(tab._hanging_up for tab in server.tabs) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    monkeypatch.setattr(web.TabApp, "start", slow_start)
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        code, reason = await tab.closed(timeout=30)
        assert (code, reason) == (1000, "No keys for 1 second; your game is saved.")
    assert 'hangup from=127.0.0.1 reason="no keys for 1 second"' in "\n".join(server.lines)
    assert await _no_tabs(server)


@pytest.mark.parametrize("program, reason, error", [
    ("import sys; sys.exit(3)", "The server could not start a game; try again later", None),
    ("import sys; print('__GANGLION__', flush=True); sys.stderr.write('Traceback\\nValueError: boom'); sys.exit(1)",
     "The game ended unexpectedly; your last save is kept", 'error="ValueError: boom"'),
])
async def test_an_app_that_fails_closes_its_tab_with_a_line_and_a_log(start_web, program, reason, error):
    server = await start_web(app_argv=[sys.executable, "-c", program])
    async with aiohttp.ClientSession() as session:
        tab = await Tab.open(session, server.port)
        code, said = await tab.closed()
        assert code == 1011 and said == reason
    log = "\n".join(server.lines)
    assert re.search(rf'^failed from=127\.0\.0\.1 reason="{reason.lower()[:20]}.*" status=\d', log, re.M | re.I), log
    assert error is None or error in log, log
    assert await _no_tabs(server)


@pytest.mark.e2e
@posix_only
async def test_sigterm_with_a_game_in_progress_saves_it_and_exits_in_seconds(home):
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_games", "serve", "--web", "--port", "0", "--max-sessions", "3",
        "--idle-minutes", "5", "--memory-mb", "1024", stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "TUI_GAMES_HOME": str(home)}, cwd=ROOT)
    try:
        line = (await asyncio.wait_for(server.stderr.readline(), 30)).decode()
        port = int(re.search(r"listening address=127\.0\.0\.1:(\d+)", line)[1])
        assert "players=\"3 at a time\"" in line
        async with aiohttp.ClientSession() as session:
            tab = await Tab.open(session, port)
            assert await tab.shows("Sudoku")
            await tab.send("stdin", "2")  # Connect-4
            assert await tab.shows("to move")
            await tab.send("stdin", "4")  # a disc in the middle column; the solver starts thinking
            save = home / "saves" / "connect4.json"
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (Store(home).peek_game("connect4") or {}).get("history") != [3]:
                await asyncio.sleep(0.05)
            save.unlink()  # what is there after the signal was written by the hang-up
            idle = await Tab.open(session, port)  # a second tab, at the menu
            assert await idle.shows("Sudoku")
            server.send_signal(signal.SIGTERM)
            code, reason = await tab.closed(timeout=15)
            assert code == 1001 and reason == "The server is shutting down; your game is saved."
            assert (await idle.closed(timeout=15))[0] == 1001
        # Textual-serve took 24.7 s here; the bound is loose for a loaded machine.
        assert await asyncio.wait_for(server.wait(), 15) == 0
        assert json.loads(save.read_text())["state"]["history"][:1] == [3]
        log = (await server.stderr.read()).decode()
        assert len(re.findall(r"hangup from=127\.0\.0\.1 reason=\"the server is shutting down\"", log)) == 2, log
        assert not _apps_of(home)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


@pytest.mark.e2e
@pytest.mark.skipif(not Path("/proc/self/environ").exists() or not sys.platform.startswith("linux"),
                    reason="the parent-death signal is Linux's")
async def test_a_killed_server_takes_its_apps_with_it_and_they_save(home):
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui_games", "serve", "--web", "--port", "0", stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "TUI_GAMES_HOME": str(home)}, cwd=ROOT)
    try:
        line = (await asyncio.wait_for(server.stderr.readline(), 30)).decode()
        port = int(re.search(r"listening address=127\.0\.0\.1:(\d+)", line)[1])
        # The app is forked from the zygote (which dies with the server and takes its apps along).
        while "zygote-ready" not in line:
            line = (await asyncio.wait_for(server.stderr.readline(), 120)).decode()
        async with aiohttp.ClientSession() as session:
            tab = await Tab.open(session, port)
            assert await tab.shows("Sudoku")
            assert "start=zygote-menu" in (await asyncio.wait_for(server.stderr.readline(), 30)).decode()
            await tab.send("stdin", "2")
            assert await tab.shows("to move")
            await tab.send("stdin", "4")
            save = home / "saves" / "connect4.json"
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and (Store(home).peek_game("connect4") or {}).get("history") != [3]:
                await asyncio.sleep(0.05)
            save.unlink()
            assert _apps_of(home)
            server.kill()
            await server.wait()
        deadline = time.monotonic() + 15
        while _apps_of(home) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        assert not _apps_of(home), "an app outlived its server"
        assert json.loads(save.read_text())["state"]["history"][:1] == [3]
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


def _apps_of(home: Path) -> list[int]:
    """Pids of live processes working in ``home``, as every app does (Linux /proc; [] elsewhere).
    Not their environment: /proc shows an app forked from the zygote with the zygote's."""
    pids = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if os.readlink(entry / "cwd") == str(home) and _alive(int(entry.name)):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


# -- in a real browser, where there is one -----------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.mark.e2e
@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt install chromium)")
async def test_in_chromium_keys_work_without_a_click_and_nothing_else_is_asked(start_web):
    from browser_cdp import Browser

    server = await start_web(max_sessions=1)
    browser = Browser(CHROMIUM)
    await browser.start()
    try:
        await browser.open(f"http://127.0.0.1:{server.port}/")
        assert await browser.wait_for("document.body.classList.contains('-first-byte')"), browser.console()
        assert await browser.evaluate("document.activeElement.className") == "xterm-helper-textarea"
        assert await browser.evaluate("document.fonts.check('16px \"Roboto Mono\"')")
        # A second tab past the cap is told why, in the page.
        second = Browser(CHROMIUM)
        await second.start()
        try:
            await second.open(f"http://127.0.0.1:{server.port}/")
            assert await second.wait_for("document.body.classList.contains('-closed')")
            assert await second.evaluate("document.querySelector('.closed-dialog .message').textContent") == \
                "The server is full (1 player at a time); try again later"
        finally:
            await second.close()
        await browser.key("q")  # no click first: the menu's q quits
        assert await browser.wait_for("document.body.classList.contains('-closed')", 15)
        hosts = {url.split("/")[2] for url in browser.requested_urls() if url.startswith("http")}
        assert hosts == {f"127.0.0.1:{server.port}"}, browser.requested_urls()
        problems = [line for line in browser.console() if "Content Security Policy" in line or "exception" in line]
        assert not problems, problems
    finally:
        await browser.close()


@pytest.mark.e2e
@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt install chromium)")
async def test_in_chromium_the_page_logs_no_error_and_every_request_is_answered(start_web):
    # The terminal takes the keyboard while its websocket is still connecting, and the Restart
    # button takes it back after the close: textual.js sent "focus"/"blur" on a socket that
    # could not send ("Still in CONNECTING state", "already in CLOSING or CLOSED state").
    # And the browser asks for /favicon.ico, which was a 404.
    from browser_cdp import Browser

    server = await start_web()
    browser = Browser(CHROMIUM)
    await browser.start()
    try:
        await browser.open(f"http://127.0.0.1:{server.port}/")
        assert await browser.wait_for("document.body.classList.contains('-first-byte')"), browser.console()
        await browser.key("q")
        assert await browser.wait_for("document.body.classList.contains('-closed')", 15)
        assert await browser.wait_for("document.activeElement.id === 'restart'")
        # The tab's icon is asked for once the page has loaded.
        icons = ("/favicon.ico", "/favicon.svg")
        assert await browser.wait_for("performance.getEntriesByType('resource')"
                                      f".some(entry => {list(icons)!r}.some(icon => entry.name.endsWith(icon)))")
        assert await browser.wait_for("true")  # one more round trip: every event has arrived
        failed = [(status, url) for status, url in browser.responses() if status >= 400]
        assert not failed, failed
        assert any(url.endswith(icons) for _, url in browser.responses()), browser.responses()
        errors = [line for line in browser.console() if line.startswith(("error:", "exception:"))]
        assert not errors, errors
    finally:
        await browser.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the zygote is Linux's")
async def test_tabs_forked_from_the_zygote_play_on_when_it_dies_and_new_tabs_still_open(start_web):
    server = await start_web()
    zygote = server.session_host.zygote
    await asyncio.wait_for(zygote.wait_ready(), 120)
    async with aiohttp.ClientSession() as session:
        first = await Tab.open(session, server.port)
        assert await first.shows("Sudoku")
        assert "start=zygote-menu" in [line for line in server.lines if line.startswith("start ")][-1]
        os.kill(zygote.process.pid, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while not any(line.startswith("zygote-died") for line in server.lines) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # The tab's app outlived its zygote (it hangs itself up only when the server goes).
        await first.send("stdin", "2")
        assert await first.shows("to move")
        second = await Tab.open(session, server.port)
        assert await second.shows("Sudoku")
        assert first.close is None and len(server.tabs) == 2


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the app's memory from /proc")
async def test_a_key_flood_does_not_grow_the_app(start_web):
    """Keys as fast as a websocket carries them: the app takes them as fast as it handles them
    (its input waits), so its memory stays put."""
    server = await start_web()
    session = aiohttp.ClientSession()
    try:
        tab = await Tab.open(session, server.port)
        assert await tab.shows("Sudoku")
        (held,) = list(server.tabs)
        pid = held.app.pid

        def rss() -> float:
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except FileNotFoundError:  # hung up (see below)
                return 0.0
            return int(status.split("VmRSS:")[1].split()[0]) / 1024 if "VmRSS:" in status else 0.0

        before = peak = rss()
        reading = asyncio.create_task(tab.pump(timeout=60))
        keys = json.dumps(["stdin", "jk" * 16384])
        dropped = False
        for _ in range(120):  # ~4 MB of keys at most
            try:
                await asyncio.wait_for(tab.websocket.send_str(keys), 0.5)
            except asyncio.TimeoutError:
                pass
            except aiohttp.ClientConnectionError:
                # While the app is behind, the server reads nothing from the tab, pongs included:
                # on a machine busy enough that the app stays behind past the heartbeat (~22 s),
                # the flooder is hung up as gone. Fine for a flood; a crash would not be.
                dropped = True
                break
            peak = max(peak, rss())
        for _ in range(30):  # and while the app works through what it has taken
            await asyncio.sleep(0.1)
            peak = max(peak, rss())
        reading.cancel()
        if dropped:
            # The tab's hangup, which the server began when the socket went (the same task
            # if so; begun here if it has not yet noticed): awaited, not polled.
            await asyncio.wait_for(held.end("disconnected"), 60)
        if any(line.startswith("hangup ") for line in server.lines):  # dropped, as above
            assert not any(line.startswith("failed ") for line in server.lines), server.lines
        else:
            assert _alive(pid), "the app died under the flood"
        assert peak - before < 30, f"app RSS {before:.0f} → {peak:.0f} MB"
    finally:
        await session.close()
