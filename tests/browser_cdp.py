"""Headless Chromium driven over the Chrome DevTools Protocol with aiohttp's websocket client:
enough to load a page, watch every request and console line, read the DOM and type keys the
way a person does (to whatever has the focus)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import aiohttp


class Browser:
    def __init__(self, executable: str) -> None:
        self.executable = executable
        self.profile = tempfile.mkdtemp(prefix="tui-games-chromium-")
        self.events: list[dict] = []
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future] = {}
        self.process: subprocess.Popen | None = None
        self.http: aiohttp.ClientSession | None = None
        self.websocket = None
        self._reader: asyncio.Task | None = None

    async def start(self) -> None:
        # --no-sandbox: CI containers run as root, where Chromium's sandbox will not start.
        self.process = subprocess.Popen(
            [self.executable, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-default-apps", "--remote-debugging-address=127.0.0.1",
             "--remote-debugging-port=0", f"--user-data-dir={self.profile}", "--window-size=1000,700",
             "about:blank"],
            # Its own session, so close() ends its helpers with it; its own TMPDIR inside the
            # profile, so the files it keeps there go when the profile does.
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, "TMPDIR": self.profile})
        active = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (active.exists() and active.read_text().count("\n") >= 1):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("Chromium did not start")
            await asyncio.sleep(0.1)
        port = int(active.read_text().split()[0])
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as response:
            pages = [target for target in await response.json() if target["type"] == "page"]
        self.websocket = await self.http.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.create_task(self._read())
        for domain in ("Network", "Runtime", "Log", "Page"):
            await self.send(f"{domain}.enable")
        # A headless window never has the focus, so focus and blur events would never fire:
        # behave as the front window of a person's browser does.
        await self.send("Emulation.setFocusEmulationEnabled", enabled=True)

    async def _read(self) -> None:
        async for message in self.websocket:
            data = json.loads(message.data)
            if data.get("id") in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif "method" in data:
                self.events.append(data)

    async def send(self, method: str, **params) -> dict:
        number = next(self._ids)
        reply = asyncio.get_running_loop().create_future()
        self._waiting[number] = reply
        await self.websocket.send_json({"id": number, "method": method, "params": params})
        result = await asyncio.wait_for(reply, 30)
        if "error" in result:
            raise RuntimeError(f"{method}: {result['error']}")
        return result.get("result", {})

    async def open(self, url: str) -> None:
        await self.send("Page.navigate", url=url)

    async def evaluate(self, expression: str):
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result.get("result", {}).get("value")

    async def wait_for(self, expression: str, timeout: float = 30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if await self.evaluate(f"Boolean(document.body && ({expression}))"):
                return True
            await asyncio.sleep(0.1)
        return False

    async def key(self, char: str) -> None:
        """Type one printable character, as the keyboard would."""
        code = f"Key{char.upper()}" if char.isalpha() else ""
        await self.send("Input.dispatchKeyEvent", type="keyDown", key=char, code=code, text=char)
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=char, code=code)

    def requested_urls(self) -> list[str]:
        return [event["params"]["request"]["url"] for event in self.events
                if event["method"] == "Network.requestWillBeSent"]

    def responses(self) -> list[tuple[int, str]]:
        """(HTTP status, URL) of every response the page received."""
        return [(event["params"]["response"]["status"], event["params"]["response"]["url"])
                for event in self.events if event["method"] == "Network.responseReceived"]

    def console(self) -> list[str]:
        lines = []
        for event in self.events:
            params = event["params"]
            if event["method"] == "Log.entryAdded":
                lines.append(f"{params['entry']['level']}: {params['entry']['text']}")
            elif event["method"] == "Runtime.consoleAPICalled":
                lines.append(f"console.{params['type']}: "
                             + " ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"]))
            elif event["method"] == "Runtime.exceptionThrown":
                details = params["exceptionDetails"]
                what = details.get("exception", {}).get("description") or details.get("text", "")
                lines.append(f"exception: {what.splitlines()[0] if what else ''} at {details.get('url', '?')}")
        return lines

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
        if self.websocket is not None:
            await self.websocket.close()
        if self.http is not None:
            await self.http.close()
        if self.process is not None:
            # The whole group: a renderer or crash handler left behind would write into the
            # profile after it is removed.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
