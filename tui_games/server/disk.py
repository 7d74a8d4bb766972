"""A full disk, said as one line: what the server tells a player (command or app) and logs
when a write fails for want of space, instead of a silent exit 255.

SQLite reports it as SQLITE_FULL ("database or disk is full"; the transaction is rolled back,
so nothing is half written); the files as ENOSPC, or EDQUOT past a filesystem quota.
"""

from __future__ import annotations

import errno
import sqlite3

DISK_FULL = "the server's disk is full; try again later"
SQLITE_FULL = 13


def is_disk_full(error: BaseException) -> bool:
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EDQUOT)
    if isinstance(error, sqlite3.Error):
        return getattr(error, "sqlite_errorcode", None) == SQLITE_FULL or "disk is full" in str(error)
    return False
