"""The opening book's master lines: scripts/checkers_book_from_games.py books the masters'
most played moves from the ballots, follows their replies, passes over a move the engine's
check refutes, and skips (naming them) games it cannot read."""

from __future__ import annotations

from checkers_support import load_script

from tui_games.engine.checkers.book import book_lines
from tui_games.engine.checkers.position import CheckersPosition

BALLOT_001 = ["9-13", "21-17", "5-9"]


def _transcript(moves: list[str], result: str) -> str:
    """A game line in the transcripts' 0-31 numbering (the inverse of the importer's map)."""
    def theirs(square: int) -> str:
        row = (square - 1) // 4
        return str(8 * row + 4 - square)

    return " ".join("-".join(theirs(int(s)) for s in move.split("-")) for move in moves) + "\t" + result


def _fen(moves: list[str]) -> str:
    position = CheckersPosition()
    for move in moves:
        position.push_text(move)
    return position.fen()


def _build(tmp_path, games: list[str], *options: str) -> tuple[dict[str, str], str]:
    script = load_script("checkers_book_from_games")
    source = tmp_path / "games.txt"
    source.write_text("\n".join(games) + "\n")
    out = tmp_path / "book.txt"
    assert script.main([str(source), "--out", str(out), *options]) == 0
    text = out.read_text()
    return {fen: move for fen, move, _ in book_lines(text)}, text


# After ballot 001 and 24-19, 10-14 gives a man away (17-10 and 19-10 follow); 9-14 is sound.
GAMES = [_transcript([*BALLOT_001, "24-19", "10-14"], "0-1")] * 3 + [
    _transcript([*BALLOT_001, "24-19", "9-14"], "1/2-1/2"),
    _transcript([*BALLOT_001, "24-19", "9-14", "22-18"], "1-0"),
]


def test_the_masters_most_played_move_is_booked_and_their_replies_followed(tmp_path):
    book, text = _build(tmp_path, GAMES, "--min-games", "5", "--min-move", "2", "--check-depth", "0")
    assert book == {_fen(BALLOT_001): "24-19", _fen([*BALLOT_001, "24-19"]): "10-14"}
    # White won the three 10-14 games, drew one and lost one: 3.5 of 5 for 24-19, 0 for 10-14.
    assert "5/5 games, 0.70" in text and "3/5 games, 0.00" in text
    # Fewer games than --min-games at a position: nothing booked there, nothing followed.
    book, _ = _build(tmp_path, GAMES, "--min-games", "6", "--check-depth", "0")
    assert book == {}
    # A reply played fewer than --min-move times is not followed.
    book, _ = _build(tmp_path, GAMES, "--min-games", "5", "--min-move", "6", "--check-depth", "0")
    assert book == {_fen(BALLOT_001): "24-19"}


def test_a_master_move_the_engines_check_refutes_is_passed_over(tmp_path):
    book, text = _build(tmp_path, GAMES, "--min-games", "5", "--min-move", "2", "--check-depth", "6",
                        "--margin", "50")
    assert book == {_fen(BALLOT_001): "24-19", _fen([*BALLOT_001, "24-19"]): "9-14"}
    assert "1 master moves passed over" in text


def test_unreadable_games_are_skipped_and_named(tmp_path, capsys):
    bad = [_transcript([*BALLOT_001, "24-20", "9-9"], "1-0"), "10-13 21-17\tno result"]
    book, _ = _build(tmp_path, [*GAMES, *bad], "--min-games", "5", "--min-move", "2", "--check-depth", "0")
    assert book[_fen(BALLOT_001)] == "24-19"
    err = capsys.readouterr().err
    assert "line 6: skipped" in err and "line 7: skipped" in err
