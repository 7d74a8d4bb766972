"""The evaluation's network: its integer arithmetic (the packed Python forward against the
plain one), the compiled core against the Python twin (evaluations and whole searches, with
random and extreme weights), colour symmetry, and the shipped image, refused when corrupt."""

from __future__ import annotations

import base64
import random
import struct

import pytest
from checkers_support import KING_POSITIONS, random_positions

from tui_games.engine.checkers import core as core_module
from tui_games.engine.checkers import network
from tui_games.engine.checkers.core import make_core
from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.evaluation import (
    DEFAULT_WEIGHTS,
    EVALUATORS,
    NETWORK,
    _turn,
    evaluate,
    make_evaluator,
)
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits

compiled = pytest.mark.skipif(not core_module.COMPILED, reason="the C core was not built (no compiler)")


def _random_net(rng: random.Random, h1: int, h2: int, extreme: bool = False) -> network.Network:
    """Random weights; ``extreme``: every weight at one end of its bound."""
    b1 = network.INPUTS * h1
    w2 = b1 + h1
    b2 = w2 + h1 * h2
    w3 = b2 + h2
    out = []
    for i in range(network.size(h1, h2)):
        bound = (network.MAX_W1 if i < b1 else network.MAX_B1 if i < w2 else
                 network.MAX_BIAS if b2 <= i < w3 or i == w3 + h2 else network.MAX_WEIGHT)
        out.append(rng.choice((-bound, bound)) if extreme else rng.randint(-min(bound, 400), min(bound, 400)))
    return network.Network(h1, h2, tuple(out))


def _positions() -> list[CheckersPosition]:
    return random_positions(200, seed=21) + [CheckersPosition(f) for f in KING_POSITIONS]


def _nets() -> list[network.Network]:
    rng = random.Random(22)
    return [_random_net(rng, 32, 32), _random_net(rng, 5, 3), _random_net(rng, 32, 32, extreme=True),
            _random_net(rng, network.MAX_HIDDEN1, network.MAX_HIDDEN2, extreme=True), NETWORK]


def test_the_packed_forward_is_the_plain_arithmetic():
    rng = random.Random(23)
    for net in _nets():
        forward = network.make_forward(net)
        for pos in _positions()[:60]:
            men, kings = (pos.black | pos.white) & ~pos.kings, pos.kings
            masks = (pos.black & men, pos.black & kings, pos.white & men, pos.white & kings)
            assert forward(*masks) == network.forward_reference(net, *masks)
        # Every square taken (more than a board holds): the sums' bounds still hold.
        full = rng.getrandbits(32)
        assert forward(full, ~full & 0xFFFFFFFF, 0, 0) == network.forward_reference(net, full, ~full & 0xFFFFFFFF, 0, 0)


def test_a_network_of_zeros_changes_nothing():
    zero = network.Network(8, 4, (0,) * network.size(8, 4))
    with_zero = make_evaluator(DEFAULT_WEIGHTS, zero)
    for pos in _positions()[:80]:
        assert with_zero(pos.black, pos.white, pos.kings, pos.turn) == evaluate(pos.black, pos.white, pos.kings, pos.turn)


def test_the_network_evaluation_is_colour_symmetric():
    # The position with colours swapped and the board turned round scores the same for the
    # side to move: the network reads the board from the side to move.
    for net in _nets():
        ev = make_evaluator(DEFAULT_WEIGHTS, net)
        for pos in _positions()[:80]:
            b, w, k = pos.black, pos.white, pos.kings
            assert ev(b, w, k, pos.turn) == ev(_turn(w), _turn(b), _turn(k), 1 - pos.turn), pos.fen()


def test_the_network_corrects_the_evaluation():
    # The shipped network is not zero: it moves some scores, by at most its limit.
    ev = EVALUATORS["network"]
    diffs = [ev(p.black, p.white, p.kings, p.turn) - evaluate(p.black, p.white, p.kings, p.turn) for p in _positions()]
    assert any(diffs)
    assert all(abs(d) <= network.LIMIT for d in diffs)


@compiled
def test_compiled_network_evaluation_agrees_with_python():
    for net in _nets():
        c = make_core(10, DEFAULT_WEIGHTS, compiled=True, net=net)
        ev = make_evaluator(DEFAULT_WEIGHTS, net)
        for pos in _positions():
            for turn in (0, 1):
                assert c.evaluate(pos.black, pos.white, pos.kings, turn) == ev(pos.black, pos.white, pos.kings, turn)


def _summary(engine: Engine, pos: CheckersPosition, depth: int, seed: int) -> tuple:
    result = engine.search(pos, SearchLimits(depth=depth), rng=random.Random(seed))
    stats = result.stats
    return (str(result.move), result.score, [str(m) for m in result.pv], stats.nodes, stats.leaves, stats.cutoffs,
            stats.tt_hits, stats.seldepth, [(str(rm.move), rm.score, rm.bound) for rm in result.root_moves])


@compiled
def test_compiled_and_python_searches_agree_with_a_network():
    rng = random.Random(24)
    for net in (NETWORK, _random_net(rng, 16, 8)):
        fast = Engine(compiled=True, table_bits=12, net=net)
        slow = Engine(compiled=False, table_bits=12, net=net)
        positions = random_positions(10, seed=25) + [CheckersPosition(f) for f in KING_POSITIONS[:3]]
        for i, pos in enumerate(positions):
            depth = 3 + i % 4
            assert _summary(fast, pos, depth, i) == _summary(slow, pos, depth, i), pos.fen()


def test_the_engine_names_the_network_evaluation():
    engine = Engine(evaluation="network", compiled=False)
    assert engine.net is NETWORK
    assert Engine().net is None
    pos = CheckersPosition()
    assert engine.core.evaluate(pos.black, pos.white, pos.kings, pos.turn) == EVALUATORS["network"](
        pos.black, pos.white, pos.kings, pos.turn)


# -- the image ------------------------------------------------------------------------------------

def test_the_image_round_trips():
    net = _random_net(random.Random(26), 6, 5)
    assert network.decode(network.encode(net)) == net
    assert network.decode_text(network.encode_text(net)) == net


@pytest.mark.parametrize("damage, message", [
    (lambda b: b[:10], "too short"),
    (lambda b: b"XXXX" + b[4:], "bad magic"),
    (lambda b: b[:4] + struct.pack("<H", 2) + b[6:], "version 2"),
    (lambda b: b[:6] + struct.pack("<H", 64) + b[8:], "64 inputs"),
    (lambda b: b[:-3], "corrupt"),
    (lambda b: b[:14] + bytes([b[14] ^ 1]) + b[15:], "checksum"),
    (lambda b: b[:8] + struct.pack("<H", 7) + b[10:], "not a 7x5 network"),
])
def test_a_damaged_image_is_refused(damage, message):
    blob = network.encode(_random_net(random.Random(27), 6, 5))
    with pytest.raises(ValueError, match=message):
        network.decode(damage(blob))


def test_text_that_is_not_base85_is_refused():
    with pytest.raises(ValueError, match="not base 85"):
        network.decode_text("not base 85 ~~~ {")
    assert network.decode_text(base64.b85encode(network.encode(NETWORK)).decode()) == NETWORK


def test_weights_out_of_bounds_are_refused():
    net = _random_net(random.Random(28), 4, 4)
    too_big = list(net.weights)
    too_big[0] = network.MAX_W1 + 1
    with pytest.raises(ValueError, match="within"):
        network.Network(4, 4, tuple(too_big))
    with pytest.raises(ValueError, match="expected"):
        network.Network(4, 4, net.weights[:-1])
    with pytest.raises(ValueError, match="widths"):
        network.Network(0, 4, ())


@compiled
def test_the_compiled_core_refuses_a_bad_network():
    ckcore = core_module._ckcore
    net = _random_net(random.Random(29), 4, 4)
    too_big = list(net.weights)
    too_big[0] = network.MAX_W1 + 1
    with pytest.raises(ValueError, match="out of range"):
        ckcore.Core(10, DEFAULT_WEIGHTS, (4, 4, tuple(too_big)))
    with pytest.raises(ValueError, match="expected"):
        ckcore.Core(10, DEFAULT_WEIGHTS, (4, 4, net.weights[:-1]))
    with pytest.raises(ValueError, match="widths"):
        ckcore.Core(10, DEFAULT_WEIGHTS, (0, 4, ()))


def test_the_shipped_network_is_small():
    assert NETWORK.hidden1 <= 64 and NETWORK.hidden2 <= 64
    assert len(network.encode(NETWORK)) < 64_000
