"""What each setting of settings.json may hold: a range of numbers or a set of choices.

Every setting has one rule: the game table gives each game's (``GameSpec.setting_rules``), the
store the app's own (``store.APP_SETTING_RULES``). The store checks every value it loads with
it (a bad one is reported and its default kept) and every value it is asked to save (the
Settings screen shows the refusal), so a file edited by hand cannot hand a game a time budget
of -5 seconds, a NaN or a 10⁹-node tree.

Plain classes, not dataclasses: the game table imports this on every command's start-up path.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from typing import Any

__all__ = ["Between", "Flag", "Named", "OneOf", "SettingError", "SettingRule"]


class SettingError(ValueError):
    """A value a setting may not hold; the message says what it must be."""


def shown(value: Any) -> str:
    """A value as a warning quotes it: JSON-like, and short."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = repr(value)
    elif isinstance(value, float):
        text = f"{value:g}"
    elif isinstance(value, int):
        # str() of an int past 4,300 digits raises; nobody wants to read one anyway.
        text = str(value) if abs(value) < 10**15 else \
            f"about {'-' if value < 0 else ''}1e{int(abs(value).bit_length() * math.log10(2))}"
    elif value is None:
        text = "null"
    else:
        text = type(value).__name__ if isinstance(value, (list, dict)) else repr(value)
        text = {"list": "a list", "dict": "an object"}.get(text, text)
    return text if len(text) <= 40 else text[:37] + "..."


class SettingRule(ABC):
    """``check(value)`` is the value to keep (a whole number where a number is wanted becomes a
    float) or SettingError saying what the setting must be (``describe()``)."""

    @abstractmethod
    def describe(self) -> str:
        """What the setting must be, to follow "must be"."""

    @abstractmethod
    def check(self, value: Any) -> Any:
        """The value to keep, or SettingError."""

    def refuse(self) -> SettingError:
        return SettingError(f"must be {self.describe()}")


class Flag(SettingRule):
    """On or off: JSON's true or false, nothing else (not 1, not "yes")."""

    def describe(self) -> str:
        return "true or false"

    def check(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.refuse()
        return value

    def __repr__(self) -> str:
        return "Flag()"


class OneOf(SettingRule):
    """One of a fixed set of values (strings, or numbers), compared with their types: ``true``
    is not 1."""

    def __init__(self, *values: Any) -> None:
        if not values:
            raise ValueError("OneOf needs at least one value")
        self.values = tuple(values)

    def describe(self) -> str:
        values = [shown(v) for v in self.values]
        if len(values) > 8:
            values = [*values[:6], "…", values[-1]]
        return "one of " + ", ".join(values)

    def check(self, value: Any) -> Any:
        for allowed in self.values:
            if type(value) is type(allowed) and value == allowed:
                return value
        raise self.refuse()

    def __repr__(self) -> str:
        return f"OneOf{self.values!r}"


class Between(SettingRule):
    """A finite number from ``low`` to ``high``; ``whole``: a whole number (JSON's 4, or 4.0).
    ``unit`` names what is counted, for the message ("seconds")."""

    def __init__(self, low: float, high: float, *, whole: bool = False, unit: str = "") -> None:
        if not low <= high:
            raise ValueError(f"empty range {low}..{high}")
        self.low, self.high, self.whole, self.unit = low, high, whole, unit

    def describe(self) -> str:
        what = "a whole number" if self.whole else "a number"
        if self.unit:
            what += f" of {self.unit}"
        return f"{what} from {self.low:,g} to {self.high:,g}"

    def check(self, value: Any) -> float | int:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.refuse()
        if isinstance(value, float) and not math.isfinite(value):  # NaN and ±Infinity (JSON extensions)
            raise self.refuse()
        if self.whole:
            if isinstance(value, float):
                if not value.is_integer():
                    raise self.refuse()
                value = int(value)
        if not self.low <= value <= self.high:
            raise self.refuse()
        return value if self.whole else float(value)

    def __repr__(self) -> str:
        return f"Between({self.low!r}, {self.high!r}, whole={self.whole!r})"


class Named(SettingRule):
    """A name of the form ``pattern`` (a lower-case letter, then letters, digits and '-', up to
    64 characters, by default): for a choice whose list only the UI knows (the themes)."""

    def __init__(self, what: str, pattern: str = r"[a-z][a-z0-9-]{0,63}") -> None:
        self.what = what
        self.pattern = re.compile(pattern)

    def describe(self) -> str:
        return f"{self.what} (lower-case letters, digits and '-')"

    def check(self, value: Any) -> str:
        if not isinstance(value, str) or not self.pattern.fullmatch(value):
            raise self.refuse()
        return value

    def __repr__(self) -> str:
        return f"Named({self.what!r})"
