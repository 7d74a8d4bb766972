"""The server's log: one line per event, for an operator and for fail2ban.

Every line is ``<ISO 8601 time> tui-games[<pid>]: <event> key=value ...``, for example::

    2026-11-23T07:12:03.512+00:00 tui-games[4711]: login user=alice from=192.0.2.7 port=50122 key=SHA256:... session=3f2a9c01
    2026-11-23T07:12:09.100+00:00 tui-games[4711]: auth-failed user=root from=198.51.100.9 port=40022 key=SHA256:...

Values with spaces are quoted; text a client sent (a user name) is shown with its control
characters replaced, so nobody can forge a line. ``--log FILE`` writes to FILE with size-based
rotation from the standard library; otherwise lines go to stderr.
"""

from __future__ import annotations

import logging
import logging.handlers
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

LOG_BYTES = 10 * 1024 * 1024
LOG_BACKUPS = 5
# fail2ban: a filter with this failregex bans the sources of failed logins and of refusals.
FAIL2BAN_REGEX = r'^\S+ tui-games\[\d+\]: (?:auth-failed|refused) (?:user=(?:"[^"]*"|\S+) )?from=<HOST>\s'


class _Formatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="milliseconds")
        return f"{moment} tui-games[{record.process}]: {record.getMessage()}"


class _LogFile(logging.handlers.RotatingFileHandler):
    def handleError(self, record: logging.LogRecord) -> None:
        """A line the disk cannot take (it is full) is lost, not a traceback on stderr per line."""


def make_logger(path: Path | None = None) -> Callable[[str], None]:
    """A function that logs one line, to ``path`` (rotated) or stderr."""
    logger = logging.getLogger(f"tui_games.server.{id(path)}")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    if path is None:
        handler: logging.Handler = logging.StreamHandler(sys.stderr)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = _LogFile(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
        path.chmod(0o600)  # a log written before the server kept its files private
    handler.setFormatter(_Formatter())
    logger.handlers[:] = [handler]
    return logger.info


# What a value may show of text a client sent (a user name, a command): enough to recognise it.
CLIENT_TEXT = 64
# The server's own values (a path, a sentence saying how it listens) are shown whole up to this.
SERVER_TEXT = 1024


def clean(text: object, limit: int = CLIENT_TEXT) -> str:
    """``text`` for a log line: printable, one word or quoted, bounded."""
    # No quote, backslash or "=" inside a value: a client cannot fake a field (a from=).
    shown = "".join(ch if ch.isprintable() and ch not in "\"\\=" else "?" for ch in str(text)[:limit])
    return shown if shown and " " not in shown else f'"{shown}"'


def event(name: str, **fields: object) -> str:
    """``name key=value ...`` with every value cleaned and cut at :data:`CLIENT_TEXT` (it may
    hold a client's text); None values left out."""
    return _line(name, CLIENT_TEXT, fields)


def server_event(name: str, **fields: object) -> str:
    """A line of the server's own values only (``listening``): cleaned, but shown whole up to
    :data:`SERVER_TEXT` (the 64-character cut lost "any key may register a free name")."""
    return _line(name, SERVER_TEXT, fields)


def _line(name: str, limit: int, fields: dict[str, object]) -> str:
    return " ".join([name, *(f"{key}={clean(value, limit)}" for key, value in fields.items() if value is not None)])


class RateLimit:
    """At most one line a second for each kind of event (a flood of failures, accept errors):
    the next line that passes says how many were held back."""

    def __init__(self, log: Callable[[str], None], seconds: float = 1.0, clock=time.monotonic) -> None:
        self.log, self.seconds, self.clock = log, seconds, clock
        self._last: dict[str, float] = {}
        self._held: dict[str, int] = {}

    def __call__(self, kind: str, line: str) -> None:
        now = self.clock()
        if now - self._last.get(kind, -self.seconds) < self.seconds:
            self._held[kind] = self._held.get(kind, 0) + 1
            return
        self._last[kind] = now
        held = self._held.pop(kind, 0)
        self.log(line + (f" (and {held} more like it)" if held else ""))
        if len(self._last) > 4096:  # kinds keyed by address: forget the old ones
            cutoff = now - 60
            self._last = {k: t for k, t in self._last.items() if t > cutoff}


def duration(seconds: float) -> str:
    """A limit for a person: "30 minutes", "1 second"."""
    amount, unit = (seconds / 60, "minute") if seconds >= 60 else (seconds, "second")
    return f"{amount:g} {unit}{'' if amount == 1 else 's'}"


def elapsed(seconds: float) -> str:
    """How long something lasted, for a log line: "0m42s", "1h03m10s"."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"
