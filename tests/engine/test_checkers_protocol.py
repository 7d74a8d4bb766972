"""The engine's line protocol (``tui-games checkers engine``): replies, bad input, and a game
whose table carries from move to move."""

from __future__ import annotations

from tui_games.engine.checkers.protocol import MAX_LINE, EngineSession


def test_a_game_through_the_protocol():
    session = EngineSession(seed=1)
    assert session.handle("new") == "ok"
    assert session.handle("moves") == "moves 9-13 10-14 11-15 12-16 9-14 10-15 11-16"
    assert session.handle("move 11-15") == "ok"
    assert session.handle("fen") == "fen W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    reply = session.handle("go depth 6").split()
    assert reply[0] == "bestmove" and reply[1] in session.handle("moves").split()[1:]
    info = dict(zip(reply[2::2], reply[3::2]))
    assert set(info) == {"eval", "depth", "seldepth", "nodes", "cpu"} and info["depth"] == "6"
    # go does not play the move; the table remembers the search: the same question again
    # is answered with far fewer nodes.
    again = dict(zip(*[iter(session.handle("go depth 6").split()[2:])] * 2))
    assert int(again["nodes"]) < int(info["nodes"])
    assert session.handle("move " + reply[1]) == "ok"
    assert session.handle("go 0.05").startswith("bestmove ")
    assert session.handle("quit") is None


def test_new_from_a_fen_and_the_game_over():
    session = EngineSession()
    assert session.handle("new W:W29:B25,22") == "ok"
    assert session.handle("moves") == "moves"
    assert session.handle("go depth 3").startswith("bestmove none ")


def test_bad_input_gets_one_line_and_changes_nothing():
    session = EngineSession()
    before = session.handle("fen")
    for line, words in [
        ("", "empty"),
        ("fly", "unknown command"),
        ("move 21-17", "not legal"),
        ("move", "usage"),
        ("new B:W99:B1", "bad FEN"),
        ("go", "usage"),
        ("go -1", "seconds"),
        ("go nan", "seconds"),
        ("go 1e9", "seconds"),
        ("go depth 0", "depth"),
        ("go depth 1000", "depth"),
        ("x" * (MAX_LINE + 1), "too long"),
    ]:
        reply = session.handle(line)
        assert reply is not None and reply.startswith("error ") and words in reply, (line, reply)
        assert "\n" not in reply
    assert session.handle("fen") == before


def _forty_quiet_moves() -> list[str]:
    """King moves from KINGS, no capture offered and no position seen twice, until the 40-move rule
    ends the game (a seeded search over random games)."""
    import random

    from tui_games.engine.checkers.position import CheckersPosition

    for seed in range(50):
        rng = random.Random(seed)
        pos = CheckersPosition(KINGS)
        played: list[str] = []
        while pos.outcome() is None:
            moves = [m for m in pos.legal_moves() if not m[1]]
            fresh = []
            for m in moves:
                pos.push(m)
                replies = pos.legal_moves()
                if pos.repetitions() < 2 and (not replies or not replies[0][1]):  # no capture offered
                    fresh.append(m)
                pos.pop()
            if not fresh:
                break
            move = rng.choice(fresh)
            pos.push(move)
            played.append(str(move))
        outcome = pos.outcome()
        if outcome is not None and outcome.reason == "40-move rule":
            return played
    raise AssertionError("no game reached the 40-move rule")


KINGS = "B:WK29,K30,K31:BK2,K3,K4"


def test_the_result_names_a_draw_by_the_forty_move_rule():
    session = EngineSession()
    assert session.handle(f"new {KINGS}") == "ok" and session.handle("result") == "result none"
    moves = _forty_quiet_moves()
    assert len(moves) == 80
    for move in moves:
        assert session.handle(f"move {move}") == "ok"
    assert session.handle("moves") == "moves"
    assert session.handle("result") == "result draw 40-move rule"
    assert session.handle("new W:W29:B25,22") == "ok" and session.handle("result") == "result black no moves"
