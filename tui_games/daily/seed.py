"""The day's random numbers: the same on every machine and every Python.

``hash()`` of a string changes between processes (PYTHONHASHSEED), so the seed is the first
eight bytes of SHA-256 of ``"GAME:YYYY-MM-DD"``; ``random.Random`` seeded by an int, with
``shuffle``, ``choice`` and ``randrange``, draws the same numbers on every CPython since 3.2.
"""

from __future__ import annotations

import datetime
import hashlib
import random

__all__ = ["day_rng", "day_seed", "local_day", "parse_day"]


def day_seed(game: str, day: datetime.date) -> int:
    digest = hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def day_rng(game: str, day: datetime.date) -> random.Random:
    return random.Random(day_seed(game, day))


def parse_day(text: str) -> datetime.date:
    """A date from ``YYYY-MM-DD``; ValueError naming the text otherwise."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"date {text[:40]!r} is not a day like 2026-12-02") from None


def local_day(now: datetime.datetime) -> tuple[datetime.date, str]:
    """The day ``now`` falls on in its time zone (an aware datetime: ``datetime.now().astimezone()``)
    and that zone as text, ``"time zone CET, UTC+01:00"``: a puzzle's day is the zone's."""
    offset = now.utcoffset() or datetime.timedelta()
    sign = "-" if offset < datetime.timedelta() else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    return now.date(), f"time zone {now.tzname()}, UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"
