"""The one file-lock helper (tui_games/userdata/file_lock.py) that the store and the session lock share."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tui_games.userdata import file_lock, session_lock, store


def _fd(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


def test_a_held_lock_refuses_a_second_open_file_until_let_go(tmp_path):
    path = tmp_path / "x.lock"
    first, second = _fd(path), _fd(path)
    try:
        assert file_lock.lock(first, wait=False)
        assert not file_lock.lock(second, wait=False), "the lock belongs to the open file"
        file_lock.unlock(first)
        assert file_lock.lock(second, wait=False)
    finally:
        os.close(first)
        os.close(second)


def test_hold_makes_the_file_and_lets_go_after_the_block(tmp_path):
    path = tmp_path / "dir" / ".lock"
    other = None
    with file_lock.hold(path) as locked:
        assert locked and path.exists()
        other = _fd(path)
        assert not file_lock.lock(other, wait=False)
    try:
        assert file_lock.lock(other, wait=False)
    finally:
        os.close(other)


def test_hold_goes_on_unlocked_where_no_file_can_be_made(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with file_lock.hold(blocker / "sub" / ".lock") as locked:
        assert locked is False


@pytest.mark.parametrize("module", [store, session_lock], ids=lambda m: m.__name__)
def test_one_copy_of_the_platform_locking(module):
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "fcntl" not in source and "msvcrt" not in source, f"{module.__name__} locks files itself"
