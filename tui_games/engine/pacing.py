"""Searches give way to the user interface.

The engine runs in a thread of the app's process. CPython lets one thread run at a time and
switches every few milliseconds, so while a search runs, each keypress's repaint gets about
half the interpreter and can take a tenth of a second. The UI marks itself busy when a key
or click arrives (:func:`ui_busy`) and idle once the answer is drawn (:func:`ui_idle`); the
searches call :func:`give_way` at their regular stop checks (every thousand nodes or so),
which sleeps -- releasing the interpreter -- while the UI is busy, for at most
:data:`MAX_WAIT` seconds. Outside the app nobody marks anything and it costs one test.
"""

from __future__ import annotations

import time

# The longest a search waits for one keypress's repaint.
MAX_WAIT = 0.1

_busy_since: float | None = None


def ui_busy() -> None:
    global _busy_since
    if _busy_since is None:
        _busy_since = time.monotonic()


def ui_idle() -> None:
    global _busy_since
    _busy_since = None


def give_way() -> None:
    """Sleep while the UI is answering the user (see the module doc)."""
    since = _busy_since
    if since is None:
        return
    while _busy_since is not None and time.monotonic() - since < MAX_WAIT:
        time.sleep(0.001)
