"""Who a login is: identity is the SSH key (docs/DESIGN.md, "Serving others").

- ``--auth keys`` (the default): a key listed in ``users/NAME/authorized_keys`` logs in as NAME
  and as no one else; ``tui-games serve add-key NAME FILE`` adds one (a player may have several).
- ``--register open``: any key may log in; the first key to use a free name owns it (its
  ``authorized_keys`` is written then), and that name with another key is refused. One key
  takes at most MAX_NAMES_PER_KEY names this way.
- Keys in the old shared ``authorized_keys`` (before names were bound to keys) keep working
  the way ``--register open`` does, so no server is locked out by the upgrade.
- ``--auth none``: everyone is a guest, ``guest-7f3a``, whatever name they typed.

Names are case-insensitive for uniqueness: ``Alice`` is ``alice``, and a player's directory is
the lower-case name (an old ``users/Alice`` is renamed on that player's next login).
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

try:
    import asyncssh
except ImportError:  # ssh.py says which extra to install before anything gets here
    asyncssh = None  # type: ignore[assignment]

USERS_DIR = "users"
KEYS_FILE = "authorized_keys"
GUEST_PREFIX = "guest-"
# A name becomes a directory: no dots in front, no slashes, nothing odd; "guest-" is ours.
NAME = re.compile(r"^[a-z0-9_][a-z0-9_.-]{0,31}$")
# Names one key may take by itself under --register open (the operator's add-key is not
# counted): enough for a player and a bot or two, not a seek flood under a thousand names.
MAX_NAMES_PER_KEY = 3


class IdentityError(ValueError):
    """A name or key that cannot be used: one line for the person at the terminal."""


def canonical(name: str) -> str:
    """The player name ``name`` stands for (lower case); IdentityError if it cannot be one."""
    lowered = name.lower()
    if not NAME.fullmatch(lowered):
        shown = "".join(ch if ch.isprintable() else "?" for ch in name[:40])
        raise IdentityError(f"{shown!r} cannot be a player name here; use up to 32 letters, digits, "
                            f"'.', '_' or '-'")
    if lowered.startswith(GUEST_PREFIX):
        raise IdentityError(f"names starting with {GUEST_PREFIX!r} are for guests; choose another")
    return lowered


def guest_name(taken: set[str]) -> str:
    while True:
        name = GUEST_PREFIX + secrets.token_hex(2)
        if name not in taken:
            return name


def fingerprint(key) -> str:
    """The key's SHA-256 fingerprint as OpenSSH prints it (``SHA256:...``)."""
    return key.get_fingerprint("sha256")


def _key_blobs(text: str) -> set[bytes]:
    """The public keys (wire format) of an authorized_keys text; options and comments ignored."""
    blobs = set()
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # "[options] keytype base64 [comment]": the key starts at the first known type word.
        words = line.split()
        for start in range(len(words)):
            try:
                key = asyncssh.import_public_key(" ".join(words[start:start + 2]))
            except (asyncssh.KeyImportError, ValueError):
                continue
            blobs.add(key.public_data)
            break
    return blobs


class Registry:
    """The key lists under the server's directory, read afresh at every login (adding a key
    needs no restart)."""

    def __init__(self, root: Path, *, register_open: bool = False, legacy_keys: Path | None = None) -> None:
        self.root = root
        self.users = root / USERS_DIR
        self.register_open = register_open
        self.legacy_keys = legacy_keys if legacy_keys is not None else root / KEYS_FILE

    def home(self, name: str) -> Path:
        return self.users / name

    def keys_of(self, name: str) -> set[bytes]:
        try:
            return _key_blobs((self.home(name) / KEYS_FILE).read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return set()

    def names_of(self, key) -> list[str]:
        """The names ``key`` may log in as, sorted."""
        return sorted(home.name for home in self._homes() if key.public_data in self.keys_of(home.name))

    def legacy(self) -> set[bytes]:
        try:
            return _key_blobs(self.legacy_keys.read_text(encoding="utf-8", errors="replace"))
        except OSError:
            return set()

    def may_claim(self, key) -> bool:
        """Whether ``key`` may take a free name."""
        return self.register_open or key.public_data in self.legacy()

    def allows(self, name: str, key) -> bool:
        """Whether ``key`` may log in as ``name`` (a name owned by other keys: never)."""
        owners = self.keys_of(name)
        if owners:
            return key.public_data in owners
        return self.may_claim(key)

    def anyone_can_log_in(self) -> bool:
        if self.register_open or self.legacy():
            return True
        return any(self.keys_of(home.name) for home in self._homes())

    def _homes(self) -> list[Path]:
        try:
            return [path for path in self.users.iterdir() if path.is_dir()]
        except OSError:
            return []

    def claim(self, name: str, key) -> None:
        """Make ``key`` an owner of ``name`` if the name is free (after a successful login).

        IdentityError if another key took the name in the meantime."""
        with self._locked():
            self._adopt_old_directory(name)
            owners = self.keys_of(name)
            if owners:
                if key.public_data not in owners:
                    raise IdentityError(f"the name {name!r} belongs to another key; log in with another name")
                return
            if not self.may_claim(key):
                raise IdentityError(f"no key is registered for {name!r}")
            owned = self.names_of(key)
            if len(owned) >= MAX_NAMES_PER_KEY:
                raise IdentityError(f"this key already owns {len(owned)} names: {', '.join(owned)}; "
                                    f"log in as one of them")
            self._append_key(name, key)

    def add_key(self, name: str, key) -> bool:
        """Register ``key`` for ``name`` (the operator's ``serve add-key``); False if it was there."""
        with self._locked():
            self._adopt_old_directory(name)
            if key.public_data in self.keys_of(name):
                return False
            self._append_key(name, key)
            return True

    def _append_key(self, name: str, key) -> None:
        home = self.home(name)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        line = key.export_public_key("openssh").decode("ascii").strip() + "\n"
        path = home / KEYS_FILE
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "a", encoding="ascii") as handle:
            handle.write(line)

    def _adopt_old_directory(self, name: str) -> None:
        """Before names were case-insensitive, ``users/Alice`` could exist: it becomes ``alice``
        (only when exactly one spelling exists, so no data is ever merged or lost)."""
        if self.home(name).exists():
            return
        spellings = [home for home in self._homes() if home.name.lower() == name]
        if len(spellings) == 1:
            spellings[0].rename(self.home(name))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.users.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.users / ".claims.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)
