"""Issue 52, "any tree out": ``--tree FILE`` on the commands that search writes the recorded
tree as JSON (checked against docs/search-tree.schema.json) or Graphviz DOT (checked by
``dot -Tsvg`` where Graphviz is installed; CI installs it)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from cli_support import assert_usage_error, run
from json_schema_check import errors

SCHEMA = json.loads((Path(__file__).parents[2] / "docs" / "search-tree.schema.json").read_text(encoding="utf-8"))

COMMANDS = {
    "tictactoe": ("tictactoe", "solve", "X../.O./..."),
    "connect4": ("connect4", "analyze", "4444"),
    "checkers": ("checkers", "play", "start", "--depth", "5"),
}


def walk(node):
    yield node
    for child in node["children"]:
        yield from walk(child)


def test_the_schema_checker_catches_what_it_should():
    good = {"schema": "tui-games/search-tree/1", "position": "", "depth": 0, "partial": False, "proven": False,
            "max_plies": 4, "max_nodes": 1, "nodes": 0, "root": None}
    assert errors(good, SCHEMA) == []
    assert errors({**good, "depth": -1}, SCHEMA)
    assert errors({**good, "extra": 1}, SCHEMA)
    assert errors({**good, "root": {"move": None}}, SCHEMA)


@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_tree_json_meets_its_schema(capsys, tmp_path, game):
    target = tmp_path / "tree.json"
    code, out, err = run(capsys, *COMMANDS[game], "--tree", str(target))
    assert code == 0, err
    document = json.loads(target.read_text(encoding="utf-8"))
    assert errors(document, SCHEMA) == []
    nodes = list(walk(document["root"]))
    assert len(nodes) == document["nodes"] and len(nodes) > 7
    assert all(node["ply"] <= document["max_plies"] for node in nodes)
    assert any(node["chosen"] for node in nodes)
    for node in nodes:
        assert node["side"] == ("MAX" if node["ply"] % 2 == 0 else "MIN")
        assert "250000" not in node["value_text"] and "∞" not in node["window"]["text"]
    if game != "connect4":  # the solver records only the root and its columns
        assert any(node["pruned"] for node in nodes)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
@pytest.mark.parametrize("game", sorted(COMMANDS))
def test_tree_dot_is_drawn_by_graphviz(capsys, tmp_path, game):
    target = tmp_path / "tree.dot"
    code, out, err = run(capsys, *COMMANDS[game], "--tree", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("digraph search {") and "style=\"bold\"" in text
    if game != "connect4":
        assert "style=dashed" in text  # the pruned moves
    drawn = subprocess.run(["dot", "-Tsvg", str(target)], capture_output=True, text=True, timeout=60)
    assert drawn.returncode == 0, drawn.stderr
    assert "<svg" in drawn.stdout


def test_a_tree_file_of_another_kind_or_place_is_one_line(capsys, tmp_path):
    code, out, err = run(capsys, "tictactoe", "solve", "X../.O./...", "--tree", str(tmp_path / "tree.txt"))
    assert_usage_error(code, out, err, "must end in .json or .dot")
    code, out, err = run(capsys, "tictactoe", "solve", "X../.O./...", "--tree", str(tmp_path / "no" / "t.json"))
    assert code == 2 and "cannot write --tree" in err and "Traceback" not in err
    code, out, err = run(capsys, "connect4", "analyze", "44", "--weak", "--tree", str(tmp_path / "t.json"))
    assert_usage_error(code, out, err, "leave out --weak")


def test_no_tree_option_records_nothing(monkeypatch, capsys):
    # Recording costs nothing when off: without --tree the search gets no recorder.
    import tui_games.commands.tictactoe as ttt

    seen = []
    real = ttt.search
    monkeypatch.setattr(ttt, "search", lambda *a, **kw: seen.append(kw.get("recorder")) or real(*a, **kw))
    code, _, _ = run(capsys, "tictactoe", "solve", "X../.O./...")
    assert code == 0 and seen == [None]


def test_the_schema_names_every_kind_of_node_the_searches_close():
    from tui_games.engine.tree import KINDS

    kinds = SCHEMA["$defs"]["node"]["properties"]["kind"]["enum"]
    assert sorted(kinds) == sorted(KINDS)


def test_arena_tree_json_holds_each_move_of_the_one_game(capsys, tmp_path):
    target = tmp_path / "game.json"
    code, out, err = run(capsys, "arena", "tictactoe", "--a", "level4", "--b", "perfect", "--games", "1",
                         "--seed", "1", "--no-save", "--tree", str(target))
    assert code == 0, err
    document = json.loads(target.read_text(encoding="utf-8"))
    assert errors(document, SCHEMA) == []
    assert document["schema"] == "tui-games/arena-trees/1" and sorted(document["players"]) == ["level 4", "perfect"]
    plies = [move["ply"] for move in document["moves"]]
    assert plies == list(range(len(plies))) and len(plies) >= 5
    for move in document["moves"]:
        tree = move["tree"]
        assert tree is not None and tree["root"]["children"]
        chosen = [child["move"] for child in tree["root"]["children"] if child["chosen"]]
        assert chosen == [move["move"]]  # the tree is the search behind the move played


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
def test_arena_tree_dot_is_a_graph_per_move(capsys, tmp_path):
    target = tmp_path / "game.dot"
    code, out, err = run(capsys, "arena", "connect4", "--a", "level3", "--b", "level2", "--games", "1", "--seed", "2",
                         "--no-save", "--tree", str(target))
    assert code == 0, err
    text = target.read_text(encoding="utf-8")
    graphs = text.count("digraph ply")
    assert graphs >= 7
    drawn = subprocess.run(["dot", "-Tsvg", str(target)], capture_output=True, text=True, timeout=120)
    assert drawn.returncode == 0, drawn.stderr
    assert drawn.stdout.count("<svg") == graphs


def test_arena_tree_is_for_one_game(capsys, tmp_path):
    assert_usage_error(*run(capsys, "arena", "tictactoe", "--a", "random", "--b", "random", "--games", "2",
                            "--no-save", "--tree", str(tmp_path / "t.json")), "give --games 1")
