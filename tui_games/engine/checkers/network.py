"""A small integer neural network for the checkers evaluation, and its shipped image.

The network reads the board from the side to move (White's board turned round, so colour
symmetry holds by construction): :data:`INPUTS` = 128 inputs, one per square and kind of piece
(the side's man, the side's king, the opponent's man, the opponent's king; input
``32 · kind + bit index``), each 0 or 1. Two hidden layers of clipped ReLUs, then one output
in hundredths of a man, added to the evaluation's score (a residual: the evaluation stays,
the network corrects it; see evaluation.make_evaluator).

Everything is integer, so the compiled core (``_ckcore.c``) computes the same numbers:

    a1[j] = clamp(B1[j] + Σ W1[i][j] over the inputs i that are 1, 0, ACT)
    a2[k] = clamp(floor((B2[k] + Σ a1[j] · W2[j][k]) / 2**SHIFT2), 0, ACT)
    out   = clamp(floor((B3 + Σ a2[k] · W3[k]) / 2**SHIFT3), −LIMIT, LIMIT)

``ACT`` (127) stands for an activation of 1. The weights are 32-bit integers bounded so that
no sum can overflow (:func:`check`): the first layer's |W1| ≤ :data:`MAX_W1` and
|B1| ≤ :data:`MAX_B1` (its sums fit in 16 bits), the others' |W| ≤ 32767 and |B| ≤ 2**24 (32
bits), at most :data:`MAX_HIDDEN1` and :data:`MAX_HIDDEN2` units.

The image (written by ``scripts/checkers_train_net.py``): ``CKNN``, the format version (1),
the inputs and the two hidden widths (16 bits each, little-endian), the CRC-32 of the weights'
bytes, then the weights compressed by zlib (int32, little-endian: W1 an input at a time,
B1, W2 a first-layer unit at a time, B2, W3, B3). :func:`decode` refuses anything else with
a one-line ValueError. It ships in base 85 as ``_net_data.BLOB``: no file is opened.
"""

from __future__ import annotations

import array
import base64
import binascii
import struct
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

INPUTS = 128
ACT = 127
SHIFT2 = 6
SHIFT3 = 10
LIMIT = 500  # the network's largest correction, in hundredths of a man
MAX_HIDDEN1 = 256
MAX_HIDDEN2 = 64
MAX_WEIGHT = 32767
MAX_BIAS = 1 << 24
# The first layer's bounds: 32 inputs and the bias stay inside 16 bits (the compiled core
# sums them in 16-bit lanes).
MAX_W1 = 800
MAX_B1 = 7000

MAGIC = b"CKNN"
VERSION = 1
_HEADER = struct.Struct("<4sHHHHI")  # magic, version, inputs, hidden1, hidden2, crc32


def size(hidden1: int, hidden2: int) -> int:
    """How many integers a network of these widths has."""
    return INPUTS * hidden1 + hidden1 + hidden1 * hidden2 + hidden2 + hidden2 + 1


@dataclass(frozen=True)
class Network:
    """The widths and every weight, flat in the image's order (:func:`size` of them)."""

    hidden1: int
    hidden2: int
    weights: tuple[int, ...]

    def __post_init__(self) -> None:
        check(self.hidden1, self.hidden2, self.weights)


def check(hidden1: int, hidden2: int, weights: Sequence[int]) -> None:
    """ValueError unless the widths and weights make a network whose sums fit in 32 bits."""
    if not (1 <= hidden1 <= MAX_HIDDEN1 and 1 <= hidden2 <= MAX_HIDDEN2):
        raise ValueError(f"network widths {hidden1}x{hidden2} outside 1-{MAX_HIDDEN1} x 1-{MAX_HIDDEN2}")
    if len(weights) != size(hidden1, hidden2):
        raise ValueError(f"expected {size(hidden1, hidden2)} network weights, got {len(weights)}")
    b1 = INPUTS * hidden1
    w2 = b1 + hidden1
    b2 = w2 + hidden1 * hidden2
    w3 = b2 + hidden2
    for lo, hi, bound in ((0, b1, MAX_W1), (b1, w2, MAX_B1), (w2, b2, MAX_WEIGHT), (b2, w3, MAX_BIAS),
                          (w3, w3 + hidden2, MAX_WEIGHT), (w3 + hidden2, w3 + hidden2 + 1, MAX_BIAS)):
        if any(not -bound <= w <= bound for w in weights[lo:hi]):
            raise ValueError(f"network weights must lie within ±{bound} (weights {lo}-{hi - 1})")


def encode(net: Network) -> bytes:
    values = array.array("i", net.weights)
    if sys.byteorder != "little":
        values.byteswap()
    raw = values.tobytes()
    return _HEADER.pack(MAGIC, VERSION, INPUTS, net.hidden1, net.hidden2, zlib.crc32(raw)) + zlib.compress(raw, 9)


def decode(blob: bytes) -> Network:
    """The network of an image made by :func:`encode`."""
    if len(blob) < _HEADER.size:
        raise ValueError(f"network image too short ({len(blob)} bytes)")
    magic, version, inputs, hidden1, hidden2, crc = _HEADER.unpack_from(blob)
    if magic != MAGIC:
        raise ValueError("not a network image (bad magic)")
    if version != VERSION:
        raise ValueError(f"network image version {version}, expected {VERSION}")
    if inputs != INPUTS:
        raise ValueError(f"network image for {inputs} inputs, expected {INPUTS}")
    try:
        raw = zlib.decompress(blob[_HEADER.size:])
    except zlib.error as exc:
        raise ValueError(f"network image corrupt: {exc}") from None
    if zlib.crc32(raw) != crc:
        raise ValueError("network image corrupt: checksum mismatch")
    if not (1 <= hidden1 <= MAX_HIDDEN1 and 1 <= hidden2 <= MAX_HIDDEN2) or len(raw) != 4 * size(hidden1, hidden2):
        raise ValueError(f"network image holds {len(raw) // 4} weights, not a {hidden1}x{hidden2} network")
    values = array.array("i")
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    return Network(hidden1, hidden2, tuple(values))


def decode_text(text: str) -> Network:
    """:func:`decode` of an image written in base 85 (the shipped module's form)."""
    try:
        blob = base64.b85decode("".join(text.split()))
    except (ValueError, binascii.Error) as exc:
        raise ValueError(f"network image is not base 85: {exc}") from None
    return decode(blob)


def encode_text(net: Network, width: int = 100) -> str:
    text = base64.b85encode(encode(net)).decode("ascii")
    return "\n".join(text[i:i + width] for i in range(0, len(text), width))


def make_forward(net: Network) -> Callable[[int, int, int, int], int]:
    """``forward(own_men, own_kings, opp_men, opp_kings) -> int``: the network's output for
    the side to move, the masks seen from that side (as Black).

    The first layer sums whole rows at once: each row is packed into one Python integer of
    32-bit lanes, each weight offset by 2**15 so every lane stays non-negative (at most 32
    rows: below 2**21 a lane, no carry), and the offsets are taken off after unpacking. The
    second layer does the same with the rows of W2 scaled by each activation (at most
    ACT · 2**16 · MAX_HIDDEN1 < 2**32 a lane)."""
    h1, h2 = net.hidden1, net.hidden2
    w = net.weights
    b1_at = INPUTS * h1
    w2_at = b1_at + h1
    b2_at = w2_at + h1 * h2
    w3_at = b2_at + h2
    bias1 = w[b1_at:w2_at]
    bias2 = w[b2_at:w3_at]
    out_w = w[w3_at:w3_at + h2]
    out_b = w[w3_at + h2]
    offset = 1 << 15

    def pack(values: Sequence[int]) -> int:
        return int.from_bytes(array.array("I", [v + offset for v in values]).tobytes(), sys.byteorder)

    rows1 = tuple(pack(w[i * h1:(i + 1) * h1]) for i in range(INPUTS))
    rows2 = tuple(pack(w[w2_at + j * h2:w2_at + (j + 1) * h2]) for j in range(h1))
    nbytes1, nbytes2 = 4 * h1, 4 * h2

    def forward(om: int, ok: int, pm: int, pk: int) -> int:
        acc = 0
        count = 0
        for mask, base in ((om, 0), (ok, 32), (pm, 64), (pk, 96)):
            while mask:
                low = mask & -mask
                mask ^= low
                acc += rows1[base + low.bit_length() - 1]
                count += 1
        lanes = array.array("I")
        lanes.frombytes(acc.to_bytes(nbytes1, sys.byteorder))
        off = count * offset
        acc2 = 0
        total = 0
        for j, (lane, b) in enumerate(zip(lanes, bias1)):
            a = lane - off + b
            if a > 0:
                if a > ACT:
                    a = ACT
                acc2 += a * rows2[j]
                total += a
        lanes2 = array.array("I")
        lanes2.frombytes(acc2.to_bytes(nbytes2, sys.byteorder))
        off2 = total * offset
        out = out_b
        for lane, b, v in zip(lanes2, bias2, out_w):
            s = lane - off2 + b
            if s > 0:
                a = s >> SHIFT2
                out += (a if a < ACT else ACT) * v
        out >>= SHIFT3
        return LIMIT if out > LIMIT else -LIMIT if out < -LIMIT else out

    return forward


def forward_reference(net: Network, om: int, ok: int, pm: int, pk: int) -> int:
    """The same as :func:`make_forward`, written out plainly (the tests' yardstick)."""
    h1, h2, w = net.hidden1, net.hidden2, net.weights
    b1_at = INPUTS * h1
    w2_at = b1_at + h1
    b2_at = w2_at + h1 * h2
    w3_at = b2_at + h2
    active = [32 * kind + i for kind, mask in enumerate((om, ok, pm, pk)) for i in range(32) if mask >> i & 1]
    a1 = [min(max(w[b1_at + j] + sum(w[i * h1 + j] for i in active), 0), ACT) for j in range(h1)]
    a2 = [min(max((w[b2_at + k] + sum(a1[j] * w[w2_at + j * h2 + k] for j in range(h1))) // (1 << SHIFT2), 0), ACT)
          for k in range(h2)]
    out = (w[w3_at + h2] + sum(a2[k] * w[w3_at + k] for k in range(h2))) // (1 << SHIFT3)
    return min(max(out, -LIMIT), LIMIT)
