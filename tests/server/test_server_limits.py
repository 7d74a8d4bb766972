"""The server's bounds as plain logic: sshd-style startups, per-source caps and penalties,
names, and the log's format and rate limit."""

from __future__ import annotations

import random
import re

import pytest

from tui_games.server.identity import IdentityError, canonical
from tui_games.server.limits import Admission, Limits, source_of
from tui_games.server.log import FAIL2BAN_REGEX, RateLimit, event


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_sources_group_ipv6_by_64_and_unmap_ipv4():
    assert source_of("192.0.2.7") == "192.0.2.7"
    assert source_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert source_of("2001:db8:1:2:aaaa::1") == source_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert source_of("2001:db8:1:3::1") != source_of("2001:db8:1:2::1")


def test_per_source_cap_and_release():
    admission = Admission(Limits(per_source=3, start=100, full=200))
    assert [admission.admit("10.0.0.1") for _ in range(3)] == [None] * 3
    assert "from this address" in admission.admit("10.0.0.1")
    assert admission.admit("10.0.0.2") is None  # another source is not held back
    admission.started("10.0.0.1")  # one of them started a game: a place is free again
    assert admission.admit("10.0.0.1") is None


def test_random_early_drop_follows_maxstartups():
    limits = Limits(start=10, rate=30, full=100, per_source=10_000, max_connections=10_000)
    admission = Admission(limits, rng=random.Random(7))
    for number in range(10):
        assert admission.admit(f"10.0.{number}.1") is None  # below start: always
    # At exactly `start` startups a new one is dropped 30% of the time.
    trials = [Admission(limits, rng=random.Random(seed), startups=10) for seed in range(2000)]
    dropped = sum(trial.admit("10.9.9.9") is not None for trial in trials)
    assert 0.25 < dropped / 2000 < 0.35
    # Half-way to full: 30% + 70% × 0.5 = 65%.
    trials = [Admission(limits, rng=random.Random(seed), startups=55) for seed in range(2000)]
    dropped = sum(trial.admit("10.9.9.9") is not None for trial in trials)
    assert 0.60 < dropped / 2000 < 0.70
    full = Admission(limits, startups=100)
    assert "not yet playing (100)" in full.admit("10.9.9.9")


def test_penalties_grow_with_failures_run_down_and_are_capped():
    clock = Clock()
    admission = Admission(Limits(auth_fail=5, no_auth=1, threshold=15, max_penalty=60), clock=clock)
    for _ in range(3):
        assert admission.admit("203.0.113.5") is None
        admission.closed("203.0.113.5", was_startup=True, failed_auth=True, tried_auth=True)
    assert admission.owes("203.0.113.5") == 15
    assert admission.admit("203.0.113.5") is None  # 15 s owed: not past the threshold yet
    admission.closed("203.0.113.5", was_startup=True, failed_auth=True, tried_auth=True)
    assert "penalised for 20 s" in admission.admit("203.0.113.5")
    clock.now += 6
    assert admission.admit("203.0.113.5") is None  # ran down to 14 s
    admission.closed("203.0.113.5", was_startup=True, failed_auth=False, tried_auth=False)  # +1: never tried
    for _ in range(100):
        admission.penalise("203.0.113.5", 5)
    assert admission.owes("203.0.113.5") == 60
    # A login that worked (not a startup any more when it closes) costs nothing.
    assert admission.admit("198.51.100.1") is None
    admission.started("198.51.100.1")
    admission.closed("198.51.100.1", was_startup=False, failed_auth=False, tried_auth=True)
    assert admission.owes("198.51.100.1") == 0
    assert admission.connections == 0 and admission.startups == 0


def test_total_connections_are_capped():
    admission = Admission(Limits(max_connections=2, per_source=10))
    assert admission.admit("10.0.0.1") is None and admission.admit("10.0.0.2") is None
    assert "too many connections (2)" in admission.admit("10.0.0.3")


@pytest.mark.parametrize("name, expected", [("alice", "alice"), ("Alice", "alice"), ("A_b.c-9", "a_b.c-9")])
def test_names_are_case_insensitive(name, expected):
    assert canonical(name) == expected


@pytest.mark.parametrize("name", ["", "../etc", ".hidden", "a/b", "x" * 33, "guest-1234", "Guest-ab", "é", "a\x1b[2J"])
def test_names_that_cannot_be_players(name):
    with pytest.raises(IdentityError) as refused:
        canonical(name)
    assert "\x1b" not in str(refused.value) and "\n" not in str(refused.value)


def test_log_lines_cannot_be_forged_and_fail2ban_matches_them():
    forged = 'evil from=10.6.6.6 "x\nroot'
    line = event("auth-failed", user=forged, **{"from": "192.0.2.9"}, port=4, key="SHA256:x", reason=forged)
    assert "\n" not in line and line.count("from=") == 1 and line.count('"') == 4
    stamped = f"2026-11-23T07:00:00.000+00:00 tui-games[12]: {line}"
    pattern = FAIL2BAN_REGEX.replace("<HOST>", r"(?P<host>\S+)")
    assert re.match(pattern, stamped)["host"] == "192.0.2.9"
    refused = "2026-11-23T07:00:00.000+00:00 tui-games[12]: refused from=192.0.2.10 port=5 reason=x"
    assert re.match(pattern, refused)["host"] == "192.0.2.10"
    assert re.match(pattern, "2026-11-23T07:00:00.000+00:00 tui-games[12]: login user=a from=192.0.2.9") is None


def test_rate_limit_holds_back_and_counts():
    clock, lines = Clock(), []
    limited = RateLimit(lines.append, clock=clock)
    for _ in range(1000):
        limited("emfile", "accept failed")
    assert lines == ["accept failed"]
    clock.now += 1.01
    limited("emfile", "accept failed")
    assert lines[-1] == "accept failed (and 999 more like it)"
    limited("other", "x")
    assert lines[-1] == "x"
