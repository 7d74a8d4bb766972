"""Bot specs: a Python file where a player name goes, read and checked without running it.

    PATH.py            the file's choose(position), or its one class with a choose method
    PATH.py:NAME       the function or class NAME of the file
    levelN:PATH.py     the built-in depth-N alpha-beta judging its horizon with the file's
                       evaluate(position), scored from the side to move

Each may end in ``@SECONDS``, the move's budget, as every player spec may. :func:`parse_bot_spec`
tells a bot spec from a built-in one (None for a built-in); :func:`check_bot_file` reads the
file's syntax tree (the file is never run here: only its child process runs it) and says what
it will call, or refuses it in one line: a file that is not there, does not parse, or defines
nothing to call. Under a server (``TUI_GAMES_SERVED=1``) every bot spec is refused: servers
never load a file a player names.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass
from pathlib import Path

from tui_games.userdata.player_files import served

__all__ = ["BotSpec", "BotSpecError", "check_bot_file", "is_bot_spec", "parse_bot_spec"]

# The biggest bot file read (a bot is code a person wrote, not data).
MAX_BOT_BYTES = 1024 * 1024
_LEVEL = re.compile(r"level(\d+):(.+\.py)", re.IGNORECASE)
_FILE = re.compile(r"(.+\.py)(?::([A-Za-z_][A-Za-z0-9_]*))?")
SERVED_REFUSAL = "bot files are local only: a served session loads no file a player names"


class BotSpecError(ValueError):
    """A bot spec that cannot be played: the message is one line naming the file."""


@dataclass(frozen=True)
class BotSpec:
    """A bot spec read: the file (as given and resolved), what to call in it, its budget."""

    given: str  # the path as the spec gave it
    path: Path  # resolved
    name: str | None = None  # PATH.py:NAME
    level: int | None = None  # levelN:PATH.py (an evaluation file)
    seconds: float | None = None  # @SECONDS

    @property
    def file_label(self) -> str:
        """The file as reasons name it: its name, with :NAME."""
        return self.path.name + (f":{self.name}" if self.name else "")

    @property
    def spec(self) -> str:
        """The spec again, with the file's path made absolute (for a setting or a saved game)."""
        text = f"level{self.level}:{self.path}" if self.level is not None else str(self.path)
        if self.name:
            text += f":{self.name}"
        if self.seconds is not None:
            text += f"@{self.seconds:g}"
        return text

    @property
    def label(self) -> str:
        """The player's name as tables show it."""
        label = f"level {self.level} ({self.path.name})" if self.level is not None else self.file_label
        if self.seconds is not None:
            label += f" @{self.seconds:g}s"
        return label


def _split_budget(text: str) -> tuple[str, float | None]:
    """``bot.py@0.5`` -> ("bot.py", 0.5); an ``@`` inside the path is left alone."""
    head, at, tail = text.rpartition("@")
    if not at or "/" in tail or "\\" in tail or tail.lower().endswith(".py") or ".py:" in tail.lower():
        return text, None
    try:
        seconds = float(tail)
    except ValueError:
        raise BotSpecError(f"{tail!r} after '@' is not a number of seconds") from None
    if not (math.isfinite(seconds) and seconds > 0):
        raise BotSpecError(f"{tail!r} after '@' must be a positive number of seconds")
    return head.strip(), seconds


def is_bot_spec(spec: str) -> bool:
    """Whether ``spec`` names a file (PATH.py, PATH.py:NAME, levelN:PATH.py, with @S)."""
    try:
        return parse_bot_spec(spec) is not None
    except BotSpecError:
        return True


def parse_bot_spec(spec: str) -> BotSpec | None:
    """The bot spec ``spec`` is, or None for a built-in player's spec; BotSpecError for a
    bot spec with a bad budget. The file is not looked at (see :func:`check_bot_file`)."""
    text = spec.strip()
    if ".py" not in text.lower():
        return None
    text, seconds = _split_budget(text)
    level = None
    match = _LEVEL.fullmatch(text)
    if match:
        level, given, name = int(match.group(1)), match.group(2), None
    else:
        match = _FILE.fullmatch(text)
        if not match:
            return None
        given, name = match.group(1), match.group(2)
    path = Path(given).expanduser()
    return BotSpec(given, path.resolve() if path.exists() else path.absolute(), name, level, seconds)


def _top_level(tree: ast.Module) -> tuple[set[str], dict[str, ast.ClassDef]]:
    """The names the module defines at the top (functions, classes, assignments, imports),
    and its classes."""
    names: set[str] = set()
    classes: dict[str, ast.ClassDef] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            classes[node.name] = node
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names, classes


def _is_bot_class(node: ast.ClassDef) -> bool:
    """A class with a choose method, or one derived from the project's Player classes."""
    if any(isinstance(item, ast.FunctionDef) and item.name == "choose" for item in node.body):
        return True
    bases = {b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else "" for b in node.bases}
    return bool(bases & {"Player", "SearchPlayer"})


def check_bot_file(bot: BotSpec) -> str:
    """The name the child will call in ``bot``'s file (``choose``, ``evaluate``, a class or
    NAME), after reading the file's syntax tree; BotSpecError says in one line why it cannot
    be played (not there, not readable, not Python, nothing to call, or a served session)."""
    if served():
        raise BotSpecError(SERVED_REFUSAL)
    what = "evaluation file" if bot.level is not None else "bot file"
    where = f"{what} {bot.given!r}"
    if not bot.path.exists():
        raise BotSpecError(f"{where} does not exist")
    if not bot.path.is_file():
        raise BotSpecError(f"{where} is not a file")
    try:
        if bot.path.stat().st_size > MAX_BOT_BYTES:
            raise BotSpecError(f"{where} is over {MAX_BOT_BYTES // 1024} KB")
        source = bot.path.read_bytes()
    except OSError as error:
        raise BotSpecError(f"cannot read {where}: {error.strerror or error}") from None
    try:
        tree = ast.parse(source, str(bot.path))
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        raise BotSpecError(
            f"{where}{f' line {line}' if line else ''}: {getattr(error, 'msg', None) or error}"
        ) from None
    names, classes = _top_level(tree)
    if bot.name is not None:
        if bot.name not in names:
            raise BotSpecError(f"{where} defines no {bot.name}")
        return bot.name
    if bot.level is not None:
        if "evaluate" not in names:
            raise BotSpecError(f"{where} defines no evaluate(position)")
        return "evaluate"
    if "choose" in names:
        return "choose"
    bots = [name for name, node in classes.items() if _is_bot_class(node)]
    if len(bots) == 1:
        return bots[0]
    if bots:
        raise BotSpecError(
            f"{where} defines several bot classes ({', '.join(bots)}): name one, as {bot.given}:{bots[0]}"
        )
    hint = f"; for its evaluate, play level3:{bot.given}" if "evaluate" in names else ""
    raise BotSpecError(f"{where} defines no choose(position) and no class with a choose method{hint}")
