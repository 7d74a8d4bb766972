"""A status line that wraps between phrases, never inside one.

At 80×24 the board column is 36 cells wide and Textual wraps at the last space that fits:
"level 5 played b2: depth 5: score" / "+24 (heuristic)". :func:`phrase_lines` breaks a
paragraph at its strongest boundaries first — the end of a sentence ("You lose." / "n: new
game · u: undo"), then after a labelled part ("depth 5:"), then between list items — and
only a phrase longer than the whole width is wrapped at its spaces. A " · " separator at a
line's end or start is dropped.
"""

from __future__ import annotations

import re

from textual.content import Content
from textual.strip import Strip
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

# Break points, strongest first; each pattern matches the gap a line may end at.
LEVELS = (
    re.compile(r"(?<=[.;…!?])\s+|\s+(?=— )"),  # sentences, and before a dash
    re.compile(r":\s+"),  # after a labelled part ("depth 5:"; see _label_colon)
    re.compile(r"(?<=,)\s+|\s+(?=· )"),  # list items
    re.compile(r"\s+"),  # words: only inside a phrase longer than the line
)


def _label_colon(text: str, start: int, colon: int) -> bool:
    """A ": " ends a labelled part ("depth 5:", "level 5 played b2:"), not a key ("n:")."""
    return " " in text[start:colon].strip()


def _gaps(text: str, start: int, end: int, level: int) -> list[tuple[int, int]]:
    """(gap start, gap end) of the breaks of ``level`` inside text[start:end]."""
    if level == 1:
        gaps, part = [], start
        for match in LEVELS[1].finditer(text[start:end]):
            colon = start + match.start()
            if _label_colon(text, part, colon):
                gaps.append((colon + 1, start + match.end()))
                part = start + match.end()
        return gaps
    return [(start + m.start(), start + m.end()) for m in LEVELS[level].finditer(text[start:end]) if m.end() > m.start()]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """A line's span without spaces, or a "·" separator, at its ends."""
    while True:
        before = (start, end)
        while start < end and text[start] == " ":
            start += 1
        while end > start and text[end - 1] == " ":
            end -= 1
        if text.startswith("· ", start) or text[start:end] == "·":
            start += 1
        if text[start:end].endswith(" ·"):
            end -= 1
        if (start, end) == before:
            return start, end


def _pack(text: str, start: int, end: int, width: int, level: int) -> list[tuple[int, int]]:
    start, end = _trim(text, start, end)
    if end - start <= width or start >= end:
        return [(start, end)] if start < end else []
    if level >= len(LEVELS):  # one word longer than the line: fold it
        return [(i, min(i + width, end)) for i in range(start, end, width)]
    pieces, at = [], start
    for gap_start, gap_end in _gaps(text, start, end, level):
        pieces.append((at, gap_start))
        at = gap_end
    pieces.append((at, end))
    if len(pieces) == 1:
        return _pack(text, start, end, width, level + 1)
    lines: list[tuple[int, int]] = []
    line: tuple[int, int] | None = None
    for piece in pieces:
        if line is not None:
            joined = _trim(text, line[0], piece[1])
            if joined[1] - joined[0] <= width:
                line = joined
                continue
            lines.append(line)
        trimmed = _trim(text, *piece)
        if trimmed[1] - trimmed[0] > width:
            *full, last = _pack(text, *trimmed, width, level + 1)
            lines += full
            line = last
        else:
            line = trimmed
    if line is not None and line[0] < line[1]:
        lines.append(line)
    return lines


def phrase_lines(text: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each line of ``text`` (its own newlines kept) at ``width`` cells."""
    lines: list[tuple[int, int]] = []
    at = 0
    for paragraph in text.split("\n"):
        found = _pack(text, at, at + len(paragraph), max(width, 1), 0)
        lines += found or [(at, at)]
        at += len(paragraph) + 1
    return lines


class PhraseWrapped(Visual):
    """``content`` laid out by :func:`phrase_lines` for whatever width it is given."""

    def __init__(self, content: Content) -> None:
        self.content = content

    def _lines(self, width: int) -> Content:
        plain = self.content.plain
        return Content("\n").join(self.content[start:end] for start, end in phrase_lines(plain, width))

    def render_strips(self, width: int, height: int | None, style, options: RenderOptions) -> list[Strip]:
        return self._lines(width).render_strips(width, height, style, options)

    def get_optimal_width(self, rules, container_width: int) -> int:
        return self.content.get_optimal_width(rules, container_width)

    def get_minimal_width(self, rules) -> int:
        return self.content.get_minimal_width(rules)

    def get_height(self, rules, width: int) -> int:
        return self._lines(width).get_height(rules, width)


class PhraseStatus(Static):
    """A Static (markup and all) whose lines break between phrases."""

    def render(self):
        visual = self.visual
        return PhraseWrapped(visual) if isinstance(visual, Content) else visual
