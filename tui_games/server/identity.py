"""Who a login is: identity is the SSH key (docs/DESIGN.md, "Serving others").

- ``--auth keys`` (the default): a key listed in ``users/NAME/authorized_keys`` logs in as NAME
  and as no one else; ``tui-games serve add-key NAME FILE`` adds one (a player may have several).
- ``--register open``: any key may log in; the first key to use a free name owns it (its
  ``authorized_keys`` is written then), and that name with another key is refused. One key
  takes at most MAX_NAMES_PER_KEY names this way.
- Keys in the old shared ``authorized_keys`` (before names were bound to keys) keep working
  the way ``--register open`` does, so no server is locked out by the upgrade.
- ``--auth none``: everyone is a guest, ``guest-7f3a``, whatever name they typed.

Front ends sharing a lobby on PostgreSQL share the keys too: they live in the lobby's database
(:class:`SharedKeys`), so a player logs in on any front end with the same name, and the first
key to claim a name owns it everywhere. The keys of ``users/NAME/authorized_keys`` are copied
there on the first start (a name the database knows already keeps its own). A player's files
(settings, saves) stay on the front end's disk unless its directory is shared.

Names are case-insensitive for uniqueness: ``Alice`` is ``alice``, and a player's directory is
the lower-case name (an old ``users/Alice`` is renamed on that player's next login). A name
registered by a key (not the operator's ``add-key``) must not look like another: its
:func:`skeleton` (Unicode TR39's confusable skeleton, which for the names' ASCII letters folds
``1``, ``I`` and ``|`` to ``l``, ``0`` to ``o`` and ``m`` to ``rn``, with ASCII folds of ``i``
with ``l``, ``d`` with ``cl``, ``w`` with ``vv``, the separators ``.``, ``_``, ``-`` with each other
and none at the ends) must be no other name's. The refusal says "taken" and names no one.
"""

from __future__ import annotations

import base64
import fcntl
import os
import re
import secrets
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Protocol

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
# A key file's parsed keys are kept while its inode, size, mtime and ctime stay the same, and
# only once those times are this old: a file rewritten within the clock's tick (a few ms) of
# the last read could otherwise keep the same times and size and go unseen.
SETTLED_NS = 2_000_000_000
MAX_PARSED_FILES = 100_000


class SharedKeys(Protocol):
    """The players' keys kept where every front end reads them (the lobby's storage)."""

    def keys_of(self, name: str) -> set[bytes]: ...

    def names_of(self, key: bytes) -> list[str]: ...

    def any_keys(self) -> bool: ...

    def key_names(self) -> list[str]: ...

    def add_key(self, name: str, key: bytes, line: str, *, claim: bool = False, most_names: int = 0,
                now: float = 0.0) -> str | None: ...


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


# TR39's confusables.txt maps, among the characters a name may hold, 0 -> O, 1 -> l, I -> l and
# m -> rn (case folded here: names are lower case); the ASCII folds beside them are ours.
_SKELETON_LETTERS = str.maketrans({"0": "o", "1": "l", "i": "l", "|": "l", "_": ".", "-": "."})
_SKELETON_PAIRS = (("m", "rn"), ("d", "cl"), ("w", "vv"))
_SEPARATORS = re.compile(r"\.+")


def skeleton(name: str) -> str:
    """What ``name`` looks like: two names with one skeleton are one name to a reader
    (``alice``, ``a1ice``, ``alice.``, ``ALICE-`` and ``_alice`` all are ``allce``)."""
    folded = name.lower().translate(_SKELETON_LETTERS)
    for letter, pair in _SKELETON_PAIRS:
        folded = folded.replace(letter, pair)
    return _SEPARATORS.sub(".", folded).strip(".")


def lookalike_refusal(name: str, others) -> str | None:
    """Why ``name`` may not be registered beside ``others`` (names already taken), or None; the
    line says only "taken", never which name it looks like."""
    mine = skeleton(name)
    if any(other != name and skeleton(other) == mine for other in others):
        return f"the name {name!r} is taken; choose another"
    return None


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
    """The key lists under the server's directory, looked at afresh at every login (adding or
    removing a key needs no restart). A file is parsed again only when it has changed: a new
    name's registration looks at every player's keys (to count the names of its key), and
    parsing them all made each registration cost O(players) key parses."""

    def __init__(self, root: Path, *, register_open: bool = False, legacy_keys: Path | None = None,
                 shared: SharedKeys | None = None) -> None:
        self.root = root
        self.users = root / USERS_DIR
        self._users_prefix = f"{self.users}{os.sep}"
        self.register_open = register_open
        self.legacy_keys = legacy_keys if legacy_keys is not None else root / KEYS_FILE
        self.shared = shared
        # path -> (its version, its text while it is not yet settled, its keys)
        self._parsed: dict[str, tuple[tuple[int, int, int, int], str | None, frozenset[bytes]]] = {}

    def home(self, name: str) -> Path:
        return self.users / name

    def _file_keys(self, name: str) -> frozenset[bytes]:
        path = f"{self._users_prefix}{name}{os.sep}{KEYS_FILE}"  # (no Path: this runs for every player)
        try:
            status = os.stat(path)
            version = (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
            known = self._parsed.get(path)
            if known is not None and known[0] == version and known[1] is None:
                return known[2]
            # Read after the stat: what is read is at least as new as the version kept with it.
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return frozenset()
        # A file written in the last SETTLED_NS is read at every look (its times may not show
        # the next write), but parsed again only if its text changed: at 4 registrations a
        # second the last few players' files are that recent, and parsing them at each
        # registration was most of its cost.
        keys = known[2] if known is not None and known[1] == text else frozenset(_key_blobs(text))
        settled = time.time_ns() - max(status.st_mtime_ns, status.st_ctime_ns) > SETTLED_NS
        if known is None and len(self._parsed) >= MAX_PARSED_FILES:
            self._parsed.clear()
        self._parsed[path] = (version, None if settled else text, keys)
        return keys

    def keys_of(self, name: str) -> set[bytes] | frozenset[bytes]:
        return self.shared.keys_of(name) if self.shared is not None else self._file_keys(name)

    def names_of(self, key) -> list[str]:
        """The names ``key`` may log in as, sorted."""
        if self.shared is not None:
            return self.shared.names_of(key.public_data)
        blob = key.public_data  # (encoded afresh at each use: once, not once a player)
        return sorted(name for name in self._home_names() if blob in self._file_keys(name))

    def copy_to_shared(self) -> int:
        """Copy the keys of ``users/NAME/authorized_keys`` to the shared store, for each name it
        has no key of yet; the number of keys copied."""
        if self.shared is None:
            return 0
        copied = 0
        for home in sorted(self._homes()):
            keys = self._file_keys(home.name)
            if not keys or self.shared.keys_of(home.name) or not NAME.fullmatch(home.name):
                continue
            for blob in sorted(keys):
                self.shared.add_key(home.name, blob, _blob_line(blob))
                copied += 1
        return copied

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
        if self.shared is not None:
            return self.shared.any_keys()
        return any(self.keys_of(home.name) for home in self._homes())

    def _homes(self) -> list[Path]:
        return [self.users / name for name in self._home_names()]

    def _home_names(self) -> list[str]:
        try:
            with os.scandir(self.users) as entries:  # (the directory's entries say which are folders)
                return [entry.name for entry in entries if entry.is_dir()]
        except OSError:
            return []

    def claim(self, name: str, key) -> None:
        """Make ``key`` an owner of ``name`` if the name is free (after a successful login).

        IdentityError if another key took the name in the meantime."""
        if self.shared is not None:  # the database decides, for every front end at once
            if self.shared.keys_of(name) and key.public_data in self.shared.keys_of(name):
                return
            if not self.shared.keys_of(name) and not self.may_claim(key):
                raise IdentityError(f"no key is registered for {name!r}")
            if not self.shared.keys_of(name):
                lookalike = lookalike_refusal(name, self.shared.key_names())
                if lookalike:
                    raise IdentityError(lookalike)
            refusal = self.shared.add_key(name, key.public_data, _line(key), claim=True, most_names=MAX_NAMES_PER_KEY)
            if refusal:
                raise IdentityError(refusal)
            return
        with self._locked():
            self._adopt_old_directory(name)
            owners = self.keys_of(name)
            if owners:
                if key.public_data not in owners:
                    raise IdentityError(f"the name {name!r} belongs to another key; log in with another name")
                return
            if not self.may_claim(key):
                raise IdentityError(f"no key is registered for {name!r}")
            lookalike = lookalike_refusal(name, self._home_names())
            if lookalike:
                raise IdentityError(lookalike)
            owned = self.names_of(key)
            if len(owned) >= MAX_NAMES_PER_KEY:
                raise IdentityError(f"this key already owns {len(owned)} names: {', '.join(owned)}; "
                                    f"log in as one of them")
            self._append_key(name, key)

    def add_key(self, name: str, key) -> bool:
        """Register ``key`` for ``name`` (the operator's ``serve add-key``); False if it was there."""
        if self.shared is not None:
            if key.public_data in self.shared.keys_of(name):
                return False
            self.shared.add_key(name, key.public_data, _line(key))
            return True
        with self._locked():
            self._adopt_old_directory(name)
            if key.public_data in self.keys_of(name):
                return False
            self._append_key(name, key)
            return True

    def _append_key(self, name: str, key) -> None:
        home = self.home(name)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        line = _line(key) + "\n"
        path = home / KEYS_FILE
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "a", encoding="ascii") as handle:
            handle.write(line)

    def _adopt_old_directory(self, name: str) -> None:
        """Before names were case-insensitive, ``users/Alice`` could exist: it becomes ``alice``
        (only when exactly one spelling exists, so no data is ever merged or lost)."""
        if self.home(name).exists():
            return
        spellings = [self.home(other) for other in self._home_names() if other.lower() == name]
        if len(spellings) == 1:
            spellings[0].rename(self.home(name))

    def where(self, name: str) -> str:
        """Where ``name``'s keys are kept (for the operator)."""
        return "the lobby's database" if self.shared is not None else str(self.home(name) / KEYS_FILE)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.users.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.users / ".claims.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


def _blob_line(blob: bytes) -> str:
    """A key in the SSH wire format as an authorized_keys line (its type is the first string)."""
    size = int.from_bytes(blob[:4], "big")
    return f"{blob[4:4 + size].decode('ascii', 'replace')} {base64.b64encode(blob).decode()}"


def _line(key) -> str:
    """The key as one authorized_keys line."""
    return key.export_public_key("openssh").decode("ascii").strip()
