"""The pattern tables' storage: a small validated binary image of 16-bit weights.

The evaluation's pattern tables (:data:`evaluation.PATTERN_WINDOWS`) are 170,586 integers,
too many for a source tuple. They ship as :data:`_pattern_data.BLOB` (written by
``scripts/checkers_train_patterns.py``), the image below in base 85, and are decoded at
import: no file is opened, so the engine stays free of I/O.

The image: ``CKPT``, the format version (1), the number of windows and of states a window
(16 bits each, little-endian), the CRC-32 of the weights' bytes, then the weights
compressed by zlib (int16, little-endian, each window's states in order, an
(opening, endgame) pair a state). :func:`decode` refuses anything else with a ValueError
that says what is wrong: a short, truncated or corrupted image never becomes an evaluation.
"""

from __future__ import annotations

import array
import base64
import binascii
import struct
import sys
import zlib
from collections.abc import Sequence

MAGIC = b"CKPT"
VERSION = 1
_HEADER = struct.Struct("<4sHHII")  # magic, version, windows, states, crc32


def encode(weights: Sequence[int], windows: int, states: int) -> bytes:
    """The image of ``weights`` (``2 * windows * states`` of them, each in 16 bits)."""
    if len(weights) != 2 * windows * states:
        raise ValueError(f"expected {2 * windows * states} weights, got {len(weights)}")
    if any(not -32768 <= w <= 32767 for w in weights):
        raise ValueError("pattern weights must fit in 16 bits")
    values = array.array("h", weights)
    if sys.byteorder != "little":
        values.byteswap()
    raw = values.tobytes()
    return _HEADER.pack(MAGIC, VERSION, windows, states, zlib.crc32(raw)) + zlib.compress(raw, 9)


def decode(blob: bytes, windows: int, states: int) -> tuple[int, ...]:
    """The weights of an image made by :func:`encode` for this many windows and states."""
    if len(blob) < _HEADER.size:
        raise ValueError(f"pattern image too short ({len(blob)} bytes)")
    magic, version, n_windows, n_states, crc = _HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise ValueError("not a pattern image (bad magic)")
    if version != VERSION:
        raise ValueError(f"pattern image version {version}, expected {VERSION}")
    if (n_windows, n_states) != (windows, states):
        raise ValueError(f"pattern image for {n_windows} windows of {n_states} states, "
                         f"expected {windows} of {states}")
    try:
        raw = zlib.decompress(blob[_HEADER.size:])
    except zlib.error as exc:
        raise ValueError(f"pattern image corrupt: {exc}") from None
    if len(raw) != 4 * windows * states:
        raise ValueError(f"pattern image holds {len(raw) // 2} weights, expected {2 * windows * states}")
    if zlib.crc32(raw) != crc:
        raise ValueError("pattern image corrupt: checksum mismatch")
    values = array.array("h")
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    return tuple(values)


def decode_text(text: str, windows: int, states: int) -> tuple[int, ...]:
    """:func:`decode` of an image written in base 85 (the shipped module's form)."""
    try:
        blob = base64.b85decode("".join(text.split()))
    except (ValueError, binascii.Error) as exc:
        raise ValueError(f"pattern image is not base 85: {exc}") from None
    return decode(blob, windows, states)


def encode_text(weights: Sequence[int], windows: int, states: int, width: int = 100) -> str:
    """The image in base 85, in lines of ``width`` characters."""
    text = base64.b85encode(encode(weights, windows, states)).decode("ascii")
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))
