"""``tui-games checkers engine|play --evaluation``: the network on top of the evaluation, by name."""

from __future__ import annotations

import json
import random

from cli_support import assert_usage_error, run

from tui_games.engine.checkers.engine import Engine
from tui_games.engine.checkers.position import CheckersPosition
from tui_games.engine.search import SearchLimits


def _reply(capsys, monkeypatch, *options: str) -> dict[str, str]:
    code, out, _ = run(capsys, "checkers", "engine", "--no-book", "--no-database", "--seed", "1", *options,
                       stdin="new\nmove 11-15\ngo depth 6\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    words = out.splitlines()[2].split()
    return dict(zip(words[::2], words[1::2]))


def test_the_engine_mode_searches_with_the_network_when_asked(capsys, monkeypatch):
    pos = CheckersPosition()
    pos.push_text("11-15")
    for name in ("default", "network"):
        expected = Engine(evaluation=name).search(pos, SearchLimits(depth=6), rng=random.Random(1))
        reply = _reply(capsys, monkeypatch, "--evaluation", name)
        assert (reply["bestmove"], int(reply["eval"]), int(reply["nodes"])) == (
            str(expected.move), expected.score, expected.stats.nodes)
    # Without the option: the network, the timed engine's evaluation (the same move, score and nodes).
    plain, network = _reply(capsys, monkeypatch), _reply(capsys, monkeypatch, "--evaluation", "network")
    assert {k: v for k, v in plain.items() if k != "cpu"} == {k: v for k, v in network.items() if k != "cpu"}
    default = _reply(capsys, monkeypatch, "--evaluation", "default")
    assert (default["eval"], default["nodes"]) != (network["eval"], network["nodes"])


def test_play_searches_with_the_network_unless_told_otherwise(capsys):
    pos = CheckersPosition()
    pos.push_text("11-15")
    replies = {}
    for options in ((), ("--evaluation", "network"), ("--evaluation", "default")):
        code, out, _ = run(capsys, "checkers", "play", "start", "11-15", "--depth", "6", "--seed", "1", "--json",
                           "--no-book", "--no-database", *options)
        assert code == 0
        reply = json.loads(out)
        replies[options[1] if options else "plain"] = (reply["move"], reply["score"], reply["nodes"])
    for name in ("network", "default"):
        expected = Engine(evaluation=name).search(pos, SearchLimits(depth=6), rng=random.Random(1))
        assert replies[name] == (str(expected.move), expected.score, expected.stats.nodes)
    assert replies["plain"] == replies["network"] != replies["default"]


def test_an_unknown_evaluation_is_a_usage_error(capsys):
    for tool in ("engine", "play"):
        code, out, err = run(capsys, "checkers", tool, *(["start"] if tool == "play" else []), "--evaluation", "neural")
        assert_usage_error(code, out, err, "--evaluation")
