"""Where a file a player names may be: the one place that decides (docs/DESIGN.md, "Serving others").

Every dialog that reads or writes a file the player names — checkers' PDN save and load, the
Lab's CSV export, Sudoku's "from a file", ``play sudoku --file`` — goes through
:func:`read_text` and :func:`write_text`.

- **Served** (``TUI_GAMES_SERVED=1``, set by ``serve --ssh`` and ``serve --web`` for every
  player's app): a file is a plain name inside the player's own folder, ``files/`` in their
  data directory. No directories, no ``..``, no absolute paths, no leading dot, no control
  characters; a name that is not plain is refused with one line saying where files go. Files
  are opened relative to that folder with ``O_NOFOLLOW`` (a symlink is refused, never
  followed), only regular files are read (a FIFO or a device is refused without blocking),
  and at most :data:`MAX_READ_BYTES`. The server's own files (host key, key lists,
  leaderboard, database) live outside every player's folder, so no name reaches them, and an
  error never says whether something exists outside it.
- **Local** (not served): any path the person types, ``~`` expanded, as before; the size cap
  and the regular-file check apply too.

Either way a write goes to a temporary file that replaces the target at once, and never over an
existing file unless the caller says so (the dialogs ask first).
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
from pathlib import Path

SERVED_ENV = "TUI_GAMES_SERVED"
HOME_ENV = "TUI_GAMES_HOME"
# A served player's data directory (files, saves, Lab runs, settings) holds at most this many
# megabytes (``serve --quota-mb``); unset or 0: no quota.
QUOTA_ENV = "TUI_GAMES_QUOTA_MB"
FILES_DIR = "files"
# Puzzle files and PDN games are small; a bigger "file" is a mistake or an attack.
MAX_READ_BYTES = 4 * 1024 * 1024
MAX_NAME = 100
PLAIN_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_. +-]*$")
HOW = "give a plain file name like game.pdn (letters, digits, '.', '_', '-', spaces)"


class FileRefused(ValueError):
    """A file that cannot be read or written here: the message is one line for the player."""


class FileExists(FileRefused):
    """The file to write is there already (the caller may ask, then write with overwrite)."""


def served() -> bool:
    """Whether this app runs for a player of ``tui-games serve``."""
    return os.environ.get(SERVED_ENV) == "1"


def player_folder() -> Path:
    """A served player's folder (made on first use, mode 0700)."""
    home = os.environ.get(HOME_ENV, "").strip()
    if not home:
        raise FileRefused("this served session has no data directory; files cannot be used")
    folder = Path(home) / FILES_DIR
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def quota_refusal(target: Path, size: int) -> str | None:
    """Why writing ``size`` bytes to ``target`` (replacing what is there) would take a served
    player past their quota, or None."""
    over = quota_excess(target, size)
    return None if over is None else over[1]


def quota_excess(target: Path, size: int) -> tuple[int, str] | None:
    """How many bytes writing ``size`` bytes to ``target`` would take a served player past
    their quota, and the refusal that says so; None if it fits (one walk of their home)."""
    try:
        megabytes = int(os.environ.get(QUOTA_ENV, "0"))
    except ValueError:
        return None
    home = os.environ.get(HOME_ENV, "").strip()
    if megabytes <= 0 or not served() or not home:
        return None
    try:
        replaced = target.lstat().st_size if target.is_file() else 0
    except OSError:
        replaced = 0
    used = _usage(Path(home)) - replaced
    excess = used + size - megabytes * 1024 * 1024
    if excess <= 0:
        return None
    return excess, f"over your {megabytes} MB on this server ({used / 2**20:.1f} MB used); delete old files or saves first"


def _usage(home: Path) -> int:
    """Bytes in the files under ``home`` (links not followed)."""
    total = 0
    for folder, _, names in os.walk(home):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                pass
    return total


def where() -> str:
    """A line for the dialogs: where files are read and written."""
    if served():
        return "Files stay in your own folder on the server: give a plain name like game.pdn."
    return "A path on this computer (~ for your home folder)."


def suggest(name: str, local_folder: Path | None = None) -> str:
    """What a save dialog proposes for the plain file name ``name`` (locally, in
    ``local_folder``, by default the home folder)."""
    return name if served() else str((local_folder or Path.home()) / name)


def label(text: str) -> str:
    """How to name the file ``text`` in a message: its name, as the player gave it."""
    return text.strip() if served() else str(Path(text.strip()).expanduser())


def refusal(text: str) -> str | None:
    """Why ``text`` cannot name a file here (one line), or None: for a dialog to show at once."""
    if not served():
        return None
    try:
        _plain_name(text)
    except FileRefused as refused:
        return str(refused)
    return None


def write_refusal(text: str) -> str | None:
    """Why ``text`` cannot be written (a refused name, or something there that is not a plain
    file), or None; an existing plain file is not a refusal: the dialog asks before replacing."""
    if problem := refusal(text):
        return problem
    try:
        target = player_folder() / _plain_name(text) if served() else Path(text.strip()).expanduser()
    except FileRefused as refused:
        return str(refused)
    if os.path.lexists(target) and (os.path.islink(target) or not target.is_file()):
        return f"{_shown(target.name) if served() else target} is not a plain file: choose another name"
    return None


def _plain_name(text: str) -> str:
    name = text.strip()
    if not name:
        raise FileRefused("no file name given; " + HOW)
    if len(name) > MAX_NAME:
        raise FileRefused(f"a file name has at most {MAX_NAME} characters; " + HOW)
    if not PLAIN_NAME.fullmatch(name) or name in (".", ".."):
        raise FileRefused(f"{_shown(name)} is not a plain file name: files are kept in your own folder; " + HOW)
    return name


def _shown(text: str) -> str:
    """``text`` safe to print (no control characters reach the terminal)."""
    cleaned = "".join(ch if ch.isprintable() else "?" for ch in text)
    return repr(cleaned[:60] + ("…" if len(cleaned) > 60 else ""))


def _read_fd(fd: int, shown: str) -> str:
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{shown} is not a plain file")
        if info.st_size > MAX_READ_BYTES:
            raise FileRefused(f"{shown} is too big ({info.st_size:,} bytes; at most {MAX_READ_BYTES:,})")
        chunks, total = [], 0
        while chunk := os.read(fd, 65536):
            total += len(chunk)
            if total > MAX_READ_BYTES:  # it grew while we read
                raise FileRefused(f"{shown} is too big (at most {MAX_READ_BYTES:,} bytes)")
            chunks.append(chunk)
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(f"{shown} is not UTF-8 text") from None


# O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


def read_text(text: str) -> str:
    """The content of the file the player named; FileRefused (one line) if it cannot be."""
    if served():
        name = _plain_name(text)
        folder = os.open(player_folder(), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            try:
                fd = os.open(name, _READ_FLAGS, dir_fd=folder)
            except FileNotFoundError:
                raise FileRefused(f"there is no {_shown(name)} in your folder") from None
            except OSError as error:  # ELOOP: a symlink
                raise FileRefused(f"cannot read {_shown(name)}: {error.strerror or error}") from None
        finally:
            os.close(folder)
        return _read_fd(fd, _shown(name))
    path = Path(text.strip()).expanduser()
    try:
        fd = os.open(path, _READ_FLAGS & ~getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise FileRefused(f"cannot read {path}: {error.strerror or error}") from None
    return _read_fd(fd, str(path))


def exists(text: str) -> bool:
    """Whether writing ``text`` would replace a file (False for a name that is refused)."""
    try:
        if served():
            return os.path.lexists(player_folder() / _plain_name(text))
        return Path(text.strip()).expanduser().exists()
    except FileRefused:
        return False


def write_text(text: str, content: str, *, overwrite: bool = False) -> str:
    """Write ``content`` to the file the player named and return how to name it in a message.

    FileExists if it is there and ``overwrite`` is false; FileRefused for anything else."""
    if served():
        folder = player_folder()
        target = folder / _plain_name(text)
        shown = _shown(target.name)
    else:
        target = Path(text.strip()).expanduser()
        folder = target.parent
        shown = str(target)
    if os.path.lexists(target):
        if os.path.islink(target) or not target.is_file():
            raise FileRefused(f"{shown} is not a plain file: choose another name")
        if not overwrite:
            raise FileExists(f"{shown} exists already")
    over = quota_refusal(target, len(content.encode("utf-8")))
    if over:
        raise FileRefused(f"cannot write {shown}: {over}")
    try:
        handle, temporary = tempfile.mkstemp(prefix=".tui-games-", dir=folder)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(content)
            # mkstemp makes 0600: a player's file stays theirs; a local one reads like any other.
            os.chmod(temporary, 0o600 if served() else 0o644)
            # Replacing (not opening) the target: a symlink put there is replaced, never followed.
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as error:
        raise FileRefused(f"cannot write {shown}: {error.strerror or error}") from None
    return shown
