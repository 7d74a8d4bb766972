"""The seek flood of ``bench server``, small: every seek under the cap reaches every watching
app, the one over the cap is refused, and no app is dropped (a slow app used to be cut off
when every change pushed every seek to everyone)."""

from __future__ import annotations

import asyncio

from tui_games.bench.server import seek_flood


def test_a_seek_flood_reaches_every_app_and_drops_none():
    latencies, posted, refused, connected, _, _, _ = asyncio.run(seek_flood._flood(seekers=8))
    assert posted == 8 * seek_flood.PER_SEEKER and refused == 8
    assert len(latencies) == posted  # each one held by all the watching apps
    assert connected == seek_flood.WATCHERS
