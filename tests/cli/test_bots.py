"""Bot files as players (tui_games.bots): every way a bot can fail loses that game with one line
naming the file, the ply and the error, the run goes on, and ``--json`` carries the reason; a
file that cannot be played is a usage error before any game; an evaluation file is used."""

from __future__ import annotations

import json
import re
import textwrap

import pytest
from cli_support import assert_usage_error, run

from tui_games.bots import BotSpecError, parse_bot_spec, player_factory
from tui_games.engine.players import PlayerFailed
from tui_games.games import arena_adapter

BAD_BOTS = {
    "raises": (
        """
        def helper(position):
            raise ValueError("no idea what to play")

        def choose(position):
            return helper(position)
        """,
        re.escape("ValueError: no idea what to play (raises.py:2, in helper)"),
    ),
    "illegal": (
        """
        def choose(position):
            return 99
        """,
        "returned 99, not a legal move",
    ),
    # Spins for 0.3 s of its own CPU on a budget of 0.1 s: an answer, but a late one.
    "slow": (
        """
        import time

        def choose(position):
            start = time.thread_time()
            while time.thread_time() - start < 0.3:
                pass
            return position.legal_moves()[0]
        """,
        r"answered after [\d.]+ s(?: of CPU)?, over its (?:budget of 0\.1 s|ceiling of 1\.4 s)",
    ),
    "hangs": (
        """
        import threading

        def choose(position):
            threading.Event().wait()  # never set: the bot never answers
        """,
        re.escape("no answer to a move within 2.4 s: killed"),
    ),
    "prints": (
        """
        def choose(position):
            print("thinking...")
            return position.legal_moves()[0]
        """,
        re.escape("printed to standard output: 'thinking...'"),
    ),
    "crashes": (
        """
        import os
        import signal

        def choose(position):
            os.kill(os.getpid(), signal.SIGKILL)
        """,
        re.escape("its process died (signal SIGKILL)"),
    ),
    "dies": (
        """
        import os

        def choose(position):
            os._exit(3)
        """,
        re.escape("its process died (exit code 3)"),
    ),
}


def write(folder, name: str, source: str):
    path = folder / name
    path.write_text(textwrap.dedent(source).lstrip(), encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", sorted(BAD_BOTS))
def test_a_bad_bot_loses_each_game_with_its_reason_and_the_run_goes_on(capsys, home, kind):
    source, reason = BAD_BOTS[kind]
    bot = write(home, f"{kind}.py", source)
    code, out, err = run(
        capsys, "arena", "tictactoe", "--a", f"{bot}@0.1", "--b", "random", "--games", "2", "--seed", "1", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 2 and data["b_wins"] == 2 and data["forfeits"] == 2
    # X in game 1 (the bot's first ply is ply 1), O in game 2 (ply 2).
    for game, ply in zip(data["game_list"], (1, 2)):
        assert re.fullmatch(f"{kind}\\.py, ply {ply}: {reason}", game["forfeit"]), game["forfeit"]
    assert [g["reason"] for g in data["game_list"]] == ["forfeit", "forfeit"]


def test_the_table_shows_each_forfeit_in_one_line(capsys, home):
    bot = write(home, "illegal.py", BAD_BOTS["illegal"][0])
    code, out, err = run(capsys, "arena", "tictactoe", "--a", str(bot), "--b", "random", "--games", "2", "--seed", "1")
    assert code == 0 and err == ""
    assert "game 1: forfeited: illegal.py, ply 1: returned 99, not a legal move" in out
    assert "game 2: forfeited: illegal.py, ply 2: returned 99, not a legal move" in out


def test_a_bot_that_plays_wins_and_loses_like_any_player(capsys, home):
    bot = write(
        home,
        "first.py",
        """
        def choose(position):
            return position.legal_moves()[0]
        """,
    )
    code, out, _ = run(
        capsys, "arena", "tictactoe", "--a", str(bot), "--b", "perfect", "--games", "2", "--seed", "1", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["a_name"] == "first.py" and data["forfeits"] == 0
    assert data["a_wins"] == 0 and data["b_wins"] + data["draws"] == 2
    assert all(g["forfeit"] is None for g in data["game_list"])


@pytest.mark.parametrize(
    ("name", "source", "fragment"),
    [
        ("missing.py", None, "bot file '{path}' does not exist"),
        ("nothing.py", "def play(position):\n    return 0\n", "defines no choose(position) and no class"),
        ("broken.py", "def choose(position)\n    return 0\n", "line 1"),
    ],
)
def test_a_file_that_cannot_be_played_is_one_line_before_any_game(capsys, home, name, source, fragment):
    path = home / name
    if source is not None:
        path.write_text(source, encoding="utf-8")
    code, out, err = run(capsys, "arena", "tictactoe", "--a", "random", "--b", str(path), "--games", "2")
    assert_usage_error(code, out, err, fragment.format(path=path))
    assert "--b" in err


def test_an_evaluation_file_without_evaluate_and_a_missing_name_are_refused(capsys, home):
    bot = write(home, "bot.py", "def choose(position):\n    return position.legal_moves()[0]\n")
    code, out, err = run(capsys, "arena", "tictactoe", "--a", f"level2:{bot}", "--b", "random")
    assert_usage_error(code, out, err, "defines no evaluate(position)")
    code, out, err = run(capsys, "arena", "tictactoe", "--a", f"{bot}:Missing", "--b", "random")
    assert_usage_error(code, out, err, "defines no Missing")
    code, out, err = run(capsys, "arena", "tictactoe", "--a", f"level13:{bot}", "--b", "random")
    assert_usage_error(code, out, err, "has no level13")


def test_an_evaluation_file_is_the_one_the_search_uses(capsys, home):
    """An evaluation that loves one corner (a1) above all: depth 1 must take it whenever it is free,
    which no built-in evaluation does (they all take the centre first)."""
    ev = write(
        home,
        "corner.py",
        """
        def evaluate(position):
            # Scored from the side to move: the side that just moved holding a1 is bad for it.
            mover = "XO"[1 - position.turn]
            return -1000 if position.mark_at(0) == mover else 0
        """,
    )
    code, out, err = run(
        capsys, "arena", "tictactoe", "--a", f"level1:{ev}", "--b", "level1", "--games", "2", "--seed", "4", "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["a_name"] == "level 1 (corner.py)"
    first, second = data["game_list"]
    assert first["moves"][0] == "a1"  # the bot is X
    assert second["moves"][:2] == ["b2", "a1"]  # the bot is O, level 1 opens in the centre
    # Without the file, level 1 opens in the centre.
    code, out, _ = run(
        capsys, "arena", "tictactoe", "--a", "level1", "--b", "level1", "--games", "1", "--seed", "4", "--json"
    )
    assert json.loads(out)["game_list"][0]["moves"][0] == "b2"


def test_the_class_forms_and_a_named_bot(capsys, home):
    bot = write(
        home,
        "forms.py",
        """
        from tui_games.engine.players import Decision, Player


        class Last:
            def __init__(self):
                self.moves = 0

            def choose(self, position, budget):
                assert budget.cpu > 0
                self.moves += 1
                return position.legal_moves()[-1]


        class Hooked(Player):
            name = "hooked"

            def choose(self, position, *, stop=None, on_progress=None, recorder=None):
                return Decision(position.legal_moves()[0], "the first move")
        """,
    )
    code, out, err = run(
        capsys,
        "arena",
        "tictactoe",
        "--a",
        f"{bot}:Last",
        "--b",
        f"{bot}:Hooked",
        "--games",
        "1",
        "--no-swap",
        "--seed",
        "1",
        "--json",
    )
    assert code == 0, err
    game = json.loads(out)["game_list"][0]
    assert game["forfeit"] is None
    assert game["moves"][:2] == ["c3", "a1"]
    assert game["notes"][1] == "the first move"
    code, out, err = run(capsys, "arena", "tictactoe", "--a", str(bot), "--b", "random")
    assert_usage_error(code, out, err, "several bot classes (Last, Hooked)")


def test_the_child_is_kept_from_move_to_move_and_the_position_is_a_copy(home):
    bot = write(
        home,
        "counter.py",
        """
        import os

        seen = []


        def choose(position):
            seen.append(os.getpid())
            move = position.legal_moves()[0]
            position.push(move)  # a copy: the game is not changed
            return move if len(set(seen)) == 1 else None
        """,
    )
    game = arena_adapter("tictactoe")
    player = player_factory(game)(str(bot), seed=1, seconds=1.0, variant={})
    try:
        position = game.start({})
        for _ in range(5):
            before = position.copy()
            move = player.choose(position).move
            assert position.key() == before.key()
            position.push(move)
    finally:
        player.close()


def test_a_failed_bot_raises_player_failed_and_plays_again_next_game(home):
    bot = write(
        home,
        "once.py",
        """
        import os

        def choose(position):
            if not position.history:
                os._exit(1)
            return position.legal_moves()[0]
        """,
    )
    game = arena_adapter("tictactoe")
    player = player_factory(game)(f"{bot}@0.5", seed=1, seconds=None, variant={})
    try:
        with pytest.raises(PlayerFailed, match=r"^once\.py, ply 1: its process died"):
            player.choose(game.start({}))
        position = game.start({})
        position.push(4)
        assert player.choose(position).move is not None
    finally:
        player.close()


def test_bot_specs_are_told_from_the_built_in_ones(tmp_path):
    assert parse_bot_spec("level6:aware@2") is None and parse_bot_spec("perfect") is None
    bot = parse_bot_spec(f"{tmp_path}/my@bot.py:Mine@0.5")
    assert bot is not None and bot.name == "Mine" and bot.seconds == 0.5 and bot.path.name == "my@bot.py"
    ev = parse_bot_spec("level4:eval.py")
    assert ev is not None and ev.level == 4 and ev.seconds is None
    with pytest.raises(BotSpecError, match="not a number"):
        parse_bot_spec("bot.py@soon")


def test_a_looping_bot_does_not_outlive_a_killed_parent(home):
    """The parent killed outright (no close, no kill of the child): the child notices it is an
    orphan and ends, even in the middle of a Python loop that never returns."""
    import os
    import signal
    import subprocess
    import sys
    import time

    mark = home / "looping"
    write(
        home,
        "loops.py",
        f"def choose(position):\n    open({str(mark)!r}, 'w').close()\n    while True:\n        pass\n",
    )
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import sys, threading
        from tui_games.bots import player_factory
        from tui_games.games import arena_adapter
        game = arena_adapter("tictactoe")
        player = player_factory(game)({str(home / "loops.py")!r} + "@60", seed=1, seconds=None, variant={{}})
        threading.Thread(target=player.choose, args=(game.start({{}}),), daemon=True).start()
        while player._process is None:
            pass
        print(player._process.pid, flush=True)
        threading.Event().wait()
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    child = int(parent.stdout.readline())
    deadline = time.monotonic() + 30
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists(), "the bot never started its move"
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        # A zombie (ended, not yet reaped by init) counts as gone.
        try:
            with open(f"/proc/{child}/stat") as stat:
                if stat.read().split(") ")[1].startswith("Z"):
                    break
        except OSError:
            break
        time.sleep(0.05)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the bot's process outlived its parent")


def test_a_search_in_the_child_reports_its_progress_to_the_parent(home):
    """levelN:eval.py searches in the child: its progress (the stats panel's live numbers) crosses
    the pipe while it thinks, and its result carries the search's statistics."""
    write(home, "flat.py", "def evaluate(position):\n    return 0\n")
    game = arena_adapter("connect4")
    player = player_factory(game)(f"level12:{home / 'flat.py'}@0.3", seed=1, seconds=None, variant={})
    seen = []
    try:
        decision = player.choose(game.start({}), on_progress=seen.append)
    finally:
        player.close()
    assert seen and all(stats.nodes > 0 for stats in seen)
    assert decision.result is not None and decision.result.stats.nodes >= seen[-1].nodes


def test_a_search_in_the_child_records_its_tree_for_the_inspector(home):
    """A levelN:eval.py search in the child, asked for its tree: the tree it recorded there
    crosses the pipe into the parent's recorder (the tree inspector shows it like a built-in
    player's), within the recorder's plies; a plain choose() bot records none."""
    from tui_games.engine.tree import TreeRecorder

    write(home, "flat.py", "def evaluate(position):\n    return 0\n")
    write(home, "first.py", "def choose(position):\n    return position.legal_moves()[0]\n")
    game = arena_adapter("tictactoe")
    searcher = player_factory(game)(f"level3:{home / 'flat.py'}", seed=1, seconds=None, variant={})
    plain = player_factory(game)(str(home / "first.py"), seed=1, seconds=None, variant={})
    try:
        recorder = TreeRecorder(max_plies=2)
        position = game.start({})
        decision = searcher.choose(position, recorder=recorder)
        root = recorder.root
        assert root is not None and recorder.depth == 3
        assert {child.move for child in root.children} == set(position.legal_moves())
        assert max(node.ply for node in root.walk()) <= 2
        assert decision.move in {child.move for child in root.children}
        none = TreeRecorder()
        plain.choose(position, recorder=none)
        assert none.root is None
    finally:
        searcher.close()
        plain.close()
