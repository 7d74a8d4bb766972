"""An app's answer to the puzzle it was shown, sent after the server's midnight: the lobby judges
the day's puzzle, so an answer to yesterday's is refused in one line and counts nothing (it
was judged against another puzzle and cost one of the new day's attempts)."""

from __future__ import annotations

import datetime
import time

import pytest
from lobby_support import join

from tui_games.daily import puzzle
from tui_games.online.client import LobbyUnavailable
from tui_games.server.lobby.backends import open_storage
from tui_games.server.lobby.hub import Lobby
from tui_games.server.lobby.hub_socket import HubSocket

DAY = datetime.date(2026, 12, 2)


@pytest.fixture
async def hub(tmp_path, monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    now = [datetime.datetime(2026, 12, 2, 23, 59, tzinfo=datetime.timezone.utc).timestamp()]
    storage = open_storage(str(tmp_path / "lobby.sqlite3"))
    hub = HubSocket(Lobby(storage, clock=lambda: now[0]), tmp_path / "lobby.sock", online=list)
    hub.test_now = now  # type: ignore[attr-defined]
    await hub.start()
    yield hub
    await hub.close()
    storage.close()
    monkeypatch.delenv("TZ")
    time.tzset()


async def test_an_answer_to_yesterdays_puzzle_is_refused_and_counts_nothing(hub):
    alice, _ = await join(hub, "alice")
    shown = await alice.request("puzzle", game="tictactoe")
    assert shown["date"] == DAY.isoformat()
    hub.test_now[0] += 120  # past midnight while she thinks
    with pytest.raises(LobbyUnavailable, match="2026-12-02.* is over"):
        await alice.request("puzzle_answer", game="tictactoe", answer=puzzle("tictactoe", DAY).solution,
                            date=shown["date"])
    assert hub.lobby.storage.puzzle_days("tictactoe", "2026-12-03") == []
    # Today's, with today's date: judged and counted.
    today = DAY + datetime.timedelta(days=1)
    done = await alice.request("puzzle_answer", game="tictactoe", answer=puzzle("tictactoe", today).solution,
                               date=today.isoformat())
    assert done["verdict"]["correct"] and done["date"] == today.isoformat()
    with pytest.raises(LobbyUnavailable, match="date"):
        await alice.request("puzzle_answer", game="tictactoe", answer="b2", date="yesterday")
    await alice.close()
