"""The archive of finished games (tui_games.userdata.game_archive, tui_games.ui.archive): bounded
by its count and the quota with the oldest dropped first, a torn entry skipped with one line, a
full disk leaving it as it was, and a game read back as it was played."""

from __future__ import annotations

import errno
import os
from datetime import datetime, timedelta, timezone

import pytest

from tui_games.engine.arena import replay_positions
from tui_games.games import arena_adapter
from tui_games.ui.archive import read_archived, record_text
from tui_games.userdata import game_archive, player_files
from tui_games.userdata.store import Store

T0 = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)


def ttt_game(cells: str, **tags) -> str:
    adapter = arena_adapter("tictactoe")
    start = adapter.start({})
    position, moves = start.copy(), []
    for text in cells.split():
        move = adapter.parse_move(position, text)
        moves.append(move)
        position.push(move)
    tags.setdefault("first", "alice")
    tags.setdefault("second", "perfect")
    tags.setdefault("mode", "computer")
    return record_text("tictactoe", start, moves, **tags)


def keep(store: Store, count: int, text: str | None = None) -> list[str]:
    names = []
    for i in range(count):
        name = store.archive_game(text or ttt_game("b2 b1 a1 c1 c3", event=f"game {i}"), when=T0 + timedelta(minutes=i))
        assert name is not None
        names.append(name)
    return names


def leftovers(root) -> list:
    return [p for p in root.rglob("*") if p.name.endswith(".tmp")]


def test_a_game_reads_back_as_played_and_replays(home):
    store = Store()
    # O moves first here: the notation of the start does not say so, the record does.
    adapter = arena_adapter("tictactoe")
    start = adapter.start({})
    start.turn = 1
    position, moves = start.copy(), []
    for text in "b2 a1 c3".split():
        moves.append(adapter.parse_move(position, text))
        position.push(moves[-1])
    name = store.archive_game(record_text("tictactoe", start, moves, first="perfect", second="bob",
                                          mode="computer", you=0))
    [entry] = store.archived_games(read_archived)
    assert entry.name == name and entry.game == "tictactoe" and entry.moves == ["b2", "a1", "c3"]
    assert entry.result == "*" and entry.you == 1 and entry.opponent == "perfect"
    result, record = entry.replay()
    final = replay_positions(adapter, record, result.config.variant)[-1]
    assert final.format() == position.format() and final.turn == position.turn


def test_the_oldest_go_first_past_the_count(home, monkeypatch):
    monkeypatch.setattr(game_archive, "MAX_GAMES", 3)
    store = Store()
    names = keep(store, 5)
    assert store.archive_names() == names[2:]
    events = [g.tags["Event"] for g in store.archived_games(read_archived)]
    assert events == ["game 4", "game 3", "game 2"]  # newest first


def test_the_oldest_go_first_past_the_quota(home, monkeypatch):
    monkeypatch.setenv(player_files.SERVED_ENV, "1")
    monkeypatch.setenv(player_files.QUOTA_ENV, "1")
    store = Store()
    # A record padded with comment lines (';' lines are skipped) to 100 KB: ten fill the quota.
    big = ttt_game("b2 b1") + "".join(f"; {'x' * 97}\n" for _ in range(1000))
    names = keep(store, 14, big)
    kept = store.archive_names()
    used = sum(p.stat().st_size for p in home.rglob("*") if p.is_file())
    assert used <= 1024 * 1024
    # Every new game was kept, and what went were the oldest, in order.
    assert kept == names[-len(kept):] and 7 <= len(kept) < 14


def test_a_game_bigger_than_the_whole_quota_is_refused_in_one_line(home, monkeypatch):
    monkeypatch.setenv(player_files.SERVED_ENV, "1")
    monkeypatch.setenv(player_files.QUOTA_ENV, "1")
    store = Store()
    (home / "files").mkdir(parents=True)
    (home / "files" / "big.pdn").write_bytes(b"x" * (1024 * 1024))
    assert store.archive_game(ttt_game("b2 b1")) is None
    [warning] = store.take_warnings()
    assert warning.startswith("could not keep the game in games/: over your 1 MB") and "\n" not in warning


def test_a_game_that_cannot_fit_drops_no_old_game(home, monkeypatch):
    # The player's other files fill the quota: each finished game dropped every archived game,
    # one walk of the home a game, and was then refused all the same.
    monkeypatch.setenv(player_files.SERVED_ENV, "1")
    store = Store()
    names = keep(store, 3, ttt_game("b2 b1"))
    monkeypatch.setenv(player_files.QUOTA_ENV, "1")
    (home / "files").mkdir(parents=True)
    (home / "files" / "big.pdn").write_bytes(b"x" * (1024 * 1024))
    walks = []
    real_usage = player_files._usage
    monkeypatch.setattr(player_files, "_usage", lambda root: walks.append(root) or real_usage(root))
    assert store.archive_game(ttt_game("b2 b1")) is None
    assert store.archive_names() == names
    assert len(walks) == 1
    [warning] = store.take_warnings()
    assert warning.startswith("could not keep the game in games/: over your 1 MB")


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2].replace("[Result", "[Res"),   # torn mid-tag
    lambda text: "\udcff",                                              # not UTF-8 (written as bytes below)
    lambda text: text.replace('[Game "tictactoe"]', '[Game "chess"]'),  # edited by hand
    lambda text: "",                                                    # empty
])
def test_a_corrupt_entry_is_skipped_with_one_line(home, damage):
    store = Store()
    names = keep(store, 3)
    path = home / "games" / names[1]
    text = damage(path.read_text(encoding="utf-8"))
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    games = store.archived_games(read_archived)
    assert [g.name for g in games] == [names[2], names[0]]
    [warning] = store.take_warnings()
    assert warning.startswith(f"games/{names[1]} is unreadable (") and warning.endswith("; skipped it")
    assert "\n" not in warning and "Traceback" not in warning


def test_a_full_disk_leaves_the_archive_as_it_was(home, monkeypatch):
    store = Store()
    names = keep(store, 2)
    before = {name: (home / "games" / name).read_bytes() for name in names}

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    monkeypatch.setattr(game_archive, "MAX_GAMES", 2)  # full: and still no old game goes for a failed write
    assert store.archive_game(ttt_game("a1 b1"), when=T0 + timedelta(hours=1)) is None
    monkeypatch.undo()
    [warning] = store.take_warnings()
    assert "could not keep the game" in warning and "No space left on device" in warning
    assert store.archive_names() == names and not leftovers(home)
    assert {name: (home / "games" / name).read_bytes() for name in names} == before
    assert len(store.archived_games(read_archived)) == 2 and not store.take_warnings()


def test_other_files_in_the_folder_are_not_entries(home):
    store = Store()
    keep(store, 1)
    (home / "games" / "notes.txt").write_text("mine\n")
    assert len(store.archived_games(read_archived)) == 1 and not store.take_warnings()
    with pytest.raises(ValueError):
        store.archived_text("../settings.json")


def test_a_lab_run_keeps_every_game_as_played(home):
    from tui_games.engine.arena import ArenaConfig, run_arena
    from tui_games.ui.archive import archive_arena_games

    game = arena_adapter("connect4")
    run = run_arena(game, ArenaConfig("connect4", "level2", "random", 12, seed=3))
    store = Store()
    assert archive_arena_games(store, [run]) == 12
    entries = store.archived_games(read_archived)
    assert sorted(e.tags["Event"] for e in entries) == sorted(f"Lab game {n}" for n in range(1, 13))
    for entry in entries:
        record = run.records[int(entry.tags["Event"].split()[-1]) - 1]
        assert entry.moves == record.moves and entry.mode == "lab" and entry.lab and entry.you is None
        a_first = record.a_side == record.start_turn
        assert (entry.first, entry.second) == ((run.a_name, run.b_name) if a_first else (run.b_name, run.a_name))
        # The record's result, from the side that moved first, is the rules' own.
        final = replay_positions(game, record, {})[-1]
        outcome = final.outcome()
        expected = "1/2-1/2" if outcome.winner is None else "1-0" if outcome.winner == record.start_turn else "0-1"
        assert entry.result == expected


def lab_run(games: int, seed: int = 1):
    from tui_games.engine.arena import ArenaConfig, run_arena

    return run_arena(arena_adapter("tictactoe"), ArenaConfig("tictactoe", "random", "random", games, seed=seed))


def test_the_labs_games_are_bounded_apart_and_never_push_out_yours(home, monkeypatch):
    from tui_games.ui.archive import archive_arena_games

    monkeypatch.setattr(game_archive, "MAX_GAMES", 3)
    monkeypatch.setattr(game_archive, "MAX_LAB_GAMES", 4)
    store = Store()
    mine = keep(store, 2)
    # A run bigger than the Lab's bound: its newest games are kept, and only those are written.
    run = lab_run(9)
    assert archive_arena_games(store, [run]) == 4
    names = store.archive_names()
    assert [n for n in names if not game_archive.is_lab_entry(n)] == mine
    labs = [g for g in store.archived_games(read_archived) if g.lab]
    assert [g.tags["Event"] for g in labs] == [f"Lab game {n}" for n in (9, 8, 7, 6)]
    # Another run drops the Lab's oldest, still none of yours; a game of yours drops your oldest.
    assert archive_arena_games(store, [lab_run(2, seed=2)]) == 2
    more = [store.archive_game(ttt_game("a1 b1"), when=T0 + timedelta(hours=h)) for h in (1, 2)]
    assert [n for n in store.archive_names() if not game_archive.is_lab_entry(n)] == [mine[1], *more]
    assert len([n for n in store.archive_names() if game_archive.is_lab_entry(n)]) == 4


def test_under_the_quota_the_labs_games_go_first_and_never_take_a_place_of_yours(home, monkeypatch):
    monkeypatch.setenv(player_files.SERVED_ENV, "1")
    monkeypatch.setenv(player_files.QUOTA_ENV, "1")
    store = Store()
    # Records padded with comment lines (';' lines are skipped) to 100 KB: ten fill the quota.
    pad = "".join(f"; {'x' * 97}\n" for _ in range(1000))
    lab = ttt_game("b2 b1", mode="lab") + pad
    labs = [store.archive_game(lab, when=T0 + timedelta(minutes=i), lab=True) for i in range(6)]
    assert all(labs) and all(game_archive.is_lab_entry(n) for n in labs)
    mine = keep(store, 6, ttt_game("b2 b1") + pad)
    # Room for yours was made from the Lab's, oldest first; yours are all there.
    names = store.archive_names()
    assert set(mine) <= set(names) and [n for n in names if n in labs] == labs[len(labs) - (len(names) - 6):]
    # With no Lab game left to drop, a Lab game is refused rather than push out one of yours.
    mine += keep(store, 4, ttt_game("b2 b1") + pad)  # ten: the quota's whole
    before = store.archive_names()
    assert before == sorted(mine)  # the Lab's all gone, and not one of yours
    assert store.archive_game(lab, when=T0 + timedelta(hours=1), lab=True) is None
    [*_, warning] = store.take_warnings()
    assert warning.startswith("could not keep the game in games/: over your 1 MB")
    assert store.archive_names() == before


def test_a_checkers_entry_is_pdn_as_other_programs_read_it(home):
    from tui_games.engine.checkers.pdn import read_pdn_game
    from tui_games.engine.checkers.position import CheckersPosition

    adapter = arena_adapter("checkers")
    start = CheckersPosition("W:W19,23:BK3,K7")  # White to move: White is the record's first side
    position, moves = start.copy(), []
    for text in ("19-16", "7-10", "23-19"):
        moves.append(adapter.parse_move(position, text))
        position.push(moves[-1])
    store = Store()
    name = store.archive_game(record_text("checkers", start, moves, first="ann", second="level5", mode="computer",
                                          you=1, clock="5+3"))
    text = store.archived_text(name)
    pdn = read_pdn_game(text)
    assert [str(m) for m in pdn.moves] == ["19-16", "7-10", "23-19"] and pdn.start_fen == start.fen()
    assert (pdn.tags["White"], pdn.tags["Black"], pdn.tags["GameType"]) == ("ann", "level5", "21")
    [entry] = store.archived_games(read_archived)
    assert (entry.first, entry.you, entry.tags["Clock"]) == ("ann", 0, "5+3")


def test_a_lobby_game_is_found_kept_past_a_lab_run_since(home):
    from tui_games.ui.archive import RECENT, archive_arena_games, kept_recently

    store = Store()
    store.archive_game(ttt_game("b2 b1", mode="lobby", event="lobby game 7"))
    archive_arena_games(store, [lab_run(RECENT + 5)])
    # Its other session, seeing the same end later, must not keep it twice.
    assert kept_recently(store, "lobby game 7")
