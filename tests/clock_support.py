"""A clock the test moves by hand, for what reads the time through a callable it is given
(the lobby, the server's session limits, the house's patience)."""

from __future__ import annotations


class HandClock:
    """Stands at ``now`` until the test moves it (``clock.now += seconds``)."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
