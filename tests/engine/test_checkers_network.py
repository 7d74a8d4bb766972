"""The evaluation's network: its integer arithmetic (the packed Python forward against the
plain one), the compiled core against the Python twin (evaluations and whole searches, with
random and extreme weights), colour symmetry, and the shipped image, refused when corrupt."""

from __future__ import annotations

import base64
import importlib
import json
import random
import struct

import pytest
from checkers_support import KING_POSITIONS, random_positions, search_summary

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
    # (128, 32), the shipped widths, are compiled apart in the C core (with AVX2 too, where the
    # processor has it); the others take its general loops.
    return [_random_net(rng, 32, 32), _random_net(rng, 5, 3), _random_net(rng, 32, 32, extreme=True),
            _random_net(rng, 128, 32), _random_net(rng, 128, 32, extreme=True),
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
@pytest.mark.parametrize("avx2", [True, False], ids=["avx2-if-present", "sse2-or-plain"])
def test_compiled_network_evaluation_agrees_with_python(avx2):
    from tui_games.engine.checkers import _ckcore

    _ckcore.use_avx2(avx2)
    try:
        for net in _nets():
            c = make_core(10, DEFAULT_WEIGHTS, compiled=True, net=net)
            ev = make_evaluator(DEFAULT_WEIGHTS, net)
            for pos in _positions():
                for turn in (0, 1):
                    assert c.evaluate(pos.black, pos.white, pos.kings, turn) == ev(pos.black, pos.white, pos.kings, turn)
    finally:
        _ckcore.use_avx2(True)



@compiled
def test_compiled_and_python_searches_agree_with_a_network():
    rng = random.Random(24)
    for net in (NETWORK, _random_net(rng, 16, 8), _random_net(rng, 128, 32)):
        fast = Engine(compiled=True, table_bits=12, net=net)
        slow = Engine(compiled=False, table_bits=12, net=net)
        assert fast.net is net and slow.net is net
        positions = random_positions(10, seed=25) + [CheckersPosition(f) for f in KING_POSITIONS[:3]]
        for i, pos in enumerate(positions):
            depth = 3 + i % 4
            assert search_summary(fast, pos, depth, i) == search_summary(slow, pos, depth, i), pos.fen()


def test_the_engine_names_the_network_evaluation():
    engine = Engine(evaluation="network", compiled=False)
    assert engine.net is NETWORK
    assert Engine().net is None
    other = _random_net(random.Random(32), 4, 4)
    assert Engine(net=other).net is other  # a network given with the default weights is kept
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
    # The widths the compiled core has a path of its own for, and an image that stays small.
    assert (NETWORK.hidden1, NETWORK.hidden2) == (128, 32)
    assert len(network.encode(NETWORK)) < 64_000


# -- the training script -------------------------------------------------------------------------

def test_the_training_inputs_are_the_networks_view(tmp_path):
    np = pytest.importorskip("numpy")  # the training's own dependency, not the project's
    script = importlib.import_module("tui_games.training.checkers_train_net")
    pos = _positions()[:50]
    data = {"black": np.array([p.black for p in pos], dtype=np.uint32),
            "white": np.array([p.white for p in pos], dtype=np.uint32),
            "kings": np.array([p.kings for p in pos], dtype=np.uint32),
            "turn": np.array([p.turn for p in pos], dtype=np.int8)}
    x = script.input_matrix(data, np)
    net = _random_net(random.Random(30), 6, 4)
    forward = network.make_forward(net)
    ev = make_evaluator(DEFAULT_WEIGHTS, net)
    for row, p in zip(x, pos):
        masks = [sum(1 << i for i in range(32) if row[32 * plane + i]) for plane in range(4)]
        assert forward(*masks) == ev(p.black, p.white, p.kings, p.turn) - evaluate(p.black, p.white, p.kings, p.turn)
    base = script.base_scores(data, np)
    assert base.tolist() == [evaluate(p.black, p.white, p.kings, p.turn) * (1 if p.turn == 0 else -1) for p in pos]


def test_the_quantised_network_computes_the_float_one():
    np = pytest.importorskip("numpy")
    torch = pytest.importorskip("torch")
    script = importlib.import_module("tui_games.training.checkers_train_net")
    torch.manual_seed(31)
    model = torch.nn.Sequential(torch.nn.Linear(network.INPUTS, 16), torch.nn.Hardtanh(0, 1),
                                torch.nn.Linear(16, 8), torch.nn.Hardtanh(0, 1), torch.nn.Linear(8, 1))
    with torch.no_grad():
        model[4].weight.mul_(100)
        model[4].bias.fill_(7)
    forward = network.make_forward(script.quantise(model, np))
    outs = []
    for p in _positions()[:80]:
        own, opp = (p.black, p.white) if p.turn == 0 else (_turn(p.white), _turn(p.black))
        k = p.kings if p.turn == 0 else _turn(p.kings)
        masks = (own & ~k, own & k, opp & ~k, opp & k)
        x = torch.tensor([[float(m >> i & 1) for m in masks for i in range(32)]])
        with torch.no_grad():
            expected = float(model(x)[0, 0])
        outs.append(expected)
        assert abs(forward(*masks) - expected) <= 2 + 0.03 * abs(expected)
    assert max(outs) - min(outs) > 10  # the test positions tell the network's outputs apart
    # --warm undoes the quantisation: a model started from these integers quantises to them.
    again = torch.nn.Sequential(torch.nn.Linear(network.INPUTS, 16), torch.nn.Hardtanh(0, 1),
                                torch.nn.Linear(16, 8), torch.nn.Hardtanh(0, 1), torch.nn.Linear(8, 1))
    with torch.no_grad():
        script.start_from(again, script.quantise(model, np), torch)
    assert script.quantise(again, np) == script.quantise(model, np)


def test_labelling_adds_the_search_score_and_resumes(tmp_path):
    script = importlib.import_module("tui_games.training.checkers_train_net")
    pos = _positions()[:12]
    games = tmp_path / "games.jsonl"
    games.write_text("".join('{"result": %s, "positions": [%s]}\n' % (r, ", ".join(
        f"[{p.black}, {p.white}, {p.kings}, {p.turn}]" for p in chunk)) for r, chunk in ((1.0, pos[:6]), (0.0, pos[6:]))))
    out = tmp_path / "labelled.jsonl"
    assert script.main(["label", str(games), "--out", str(out), "--nodes", "300", "--every", "1", "--limit", "1"]) == 0
    assert script.main(["label", str(games), "--out", str(out), "--nodes", "300", "--every", "1"]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["result"] for g in lines] == [1.0, 0.0]  # the second run went on from the second game
    for g, chunk in zip(lines, (pos[:6], pos[6:])):
        playable = [p for p in chunk if p.legal_moves()]
        assert [q[:4] for q in g["positions"]] == [[p.black, p.white, p.kings, p.turn] for p in playable]
        # Each game starts from a cleared engine: its first position scores as a fresh search,
        # for Black.
        first = playable[0]
        score = Engine(table_bits=script.TABLE_BITS).search(first, SearchLimits(nodes=300)).score
        assert g["positions"][0][4] == (score if first.turn == 0 else -score)



@pytest.mark.parametrize("option, bad, wants", [
    ("--lam", "1", "a number from 0 up to (not including) 1"),
    ("--lam", "-0.1", "a number from 0 up to (not including) 1"),
    ("--lam", "x", "a number from 0 up to (not including) 1"),
    ("--epochs", "-1", "a whole number, 0 or more"),
    ("--batch", "0", "a whole number, 1 or more"),
    ("--batch", "2.5", "a whole number, 1 or more"),
])
def test_a_bad_option_is_refused_before_any_games_are_read(tmp_path, capsys, option, bad, wants):
    script = importlib.import_module("tui_games.training.checkers_train_net")
    with pytest.raises(SystemExit) as stop:
        script.main(["fit", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "fit.json"), option, bad])
    assert stop.value.code == 2
    assert f"argument {option}: '{bad}': wants {wants}" in capsys.readouterr().err
    assert not (tmp_path / "fit.json").exists()
