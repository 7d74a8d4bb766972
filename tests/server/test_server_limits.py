"""The server's bounds as plain logic: startups judged by progress, evictions, penalties that
add up, trust, IPv6 networks,
names, and the log's format and rate limit."""

from __future__ import annotations

import re

import pytest
from clock_support import HandClock

from tui_games.server.identity import IdentityError, canonical
from tui_games.server.limits import Admission, Limits, Startup, network_of, source_of
from tui_games.server.log import FAIL2BAN_REGEX, RateLimit, event


def test_sources_group_ipv6_by_64_and_unmap_ipv4():
    assert source_of("192.0.2.7") == "192.0.2.7"
    assert source_of("::ffff:192.0.2.7") == "192.0.2.7"
    assert source_of("2001:db8:1:2:aaaa::1") == source_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert source_of("2001:db8:1:3::1") != source_of("2001:db8:1:2::1")


def admitted(result) -> bool:
    return isinstance(result, Startup)


class Conn:
    """A connection as admission sees it: whether it has sent its version, whether it was
    dropped (and so closed, as the server's connection would be)."""

    def __init__(self, admission: Admission, address: str, *, version: bool = False) -> None:
        self.admission, self.version, self.dropped = admission, version, False
        self.startup = admission.admit(address, lambda: self.version, self.drop)

    def drop(self) -> None:
        self.dropped = True
        self.admission.closed(self.startup, failed_auth=False)


def test_sources_group_ipv6_48_as_a_network():
    assert network_of("2001:db8:1:2::1") == network_of("2001:db8:1:ffff::1") == "2001:db8:1::/48"
    assert network_of("192.0.2.7") is None and network_of("::ffff:192.0.2.7") is None


def test_per_source_cap_and_release():
    admission = Admission(Limits(per_source=3, start=100, full=6))
    firsts = [admission.admit("10.0.0.1") for _ in range(3)]
    assert all(map(admitted, firsts))
    assert "from this address (3)" in admission.admit("10.0.0.1")
    assert admitted(admission.admit("10.0.0.2"))  # another source is not held back
    admission.started(firsts[0])  # one of them started a game: a place is free again
    assert admitted(admission.admit("10.0.0.1"))


def test_per_source_caps_bite_only_when_half_the_places_are_taken():
    admission = Admission(Limits(per_source=2, start=100, full=20))
    assert all(admitted(admission.admit("10.0.0.1")) for _ in range(10))  # room for all: 16 bots start at once
    assert "from this address (2)" in admission.admit("10.0.0.1")
    assert admitted(admission.admit("10.0.0.2")) and admitted(admission.admit("10.0.0.2"))
    assert "from this address (2)" in admission.admit("10.0.0.2")


def test_a_source_at_its_cap_evicts_its_own_stale_connection():
    clock = HandClock(1000.0)
    admission = Admission(Limits(per_source=2, start=100, full=4), clock=clock)
    slow, talking = Conn(admission, "10.0.0.1"), Conn(admission, "10.0.0.1", version=True)
    clock.now += 4  # no version string in 3 s: stale; the other has 10 s to try to log in
    newcomer = Conn(admission, "10.0.0.1")
    assert admitted(newcomer.startup) and slow.dropped and not talking.dropped
    assert admission.owes("10.0.0.1") == 10  # the stale one cost its source, as sshd's grace-exceeded


def test_a_full_server_evicts_for_a_clean_newcomer_not_for_the_storm():
    clock = HandClock(1000.0)
    admission = Admission(Limits(full=4, per_source=10), clock=clock)
    storm = [Conn(admission, "10.0.0.9", version=True) for _ in range(4)]
    admission.penalise("10.0.0.9", 4)  # it has wasted connections before
    person = Conn(admission, "192.0.2.1")  # nothing is stale, yet a clean source gets in
    assert admitted(person.startup) and sum(c.dropped for c in storm) == 1
    again = Conn(admission, "10.0.0.9", version=True)  # the storm evicts only its own kind
    assert admitted(again.startup) and sum(c.dropped for c in storm) == 2 and not person.dropped
    # A newcomer owing more than every source present evicts no one, and pays for trying.
    admission.penalise("203.0.113.1", 9)
    assert "not yet playing (4)" in admission.admit("203.0.113.1")
    assert admission.owes("203.0.113.1") == 10 and not person.dropped


def test_penalties_add_up_for_a_steady_storm():
    """20 sources × 5 connections that say their version and stop, each opened again when
    dropped, for 30 s: every source that keeps knocking ends up refused at the door for good
    once its first connections went stale (10 s), and a person gets in."""
    clock = HandClock(1000.0)
    admission = Admission(Limits(), clock=clock)
    live: list[Conn] = []
    held = []  # how many the storm holds, each tenth of a second
    for _ in range(300):
        clock.now += 0.1
        admission.sweep()
        live = [conn for conn in live if not conn.dropped]
        for source in range(20):
            address = f"10.0.1.{source}"
            while sum(conn.startup.source == address for conn in live) < 5:
                conn = Conn(admission, address, version=True)
                if not admitted(conn.startup):
                    break
                live.append(conn)
        held.append(len(live))
    assert held[-150:] == [0] * 150  # the last 15 s: shut out
    assert all(admission.owes(f"10.0.1.{n}") > admission.limits.threshold for n in range(20))
    assert admitted(Conn(admission, "192.0.2.1").startup)


def test_sweep_drops_stale_startups_only_under_pressure():
    clock = HandClock(1000.0)
    admission = Admission(Limits(start=3, per_source=10), clock=clock)
    quiet = [Conn(admission, "10.0.0.1") for _ in range(2)]
    clock.now += 5
    assert admission.sweep() == 0 and not any(c.dropped for c in quiet)  # no pressure: they may take their time
    trying = Conn(admission, "10.0.0.2")
    admission.tried(trying.startup)
    clock.now += 5
    assert admission.sweep() == 2 and all(c.dropped for c in quiet) and not trying.dropped


def test_a_source_that_logged_in_may_hold_more():
    admission = Admission(Limits(per_source=2, per_trusted_source=20, start=100, full=40))
    first = admission.admit("10.0.0.5")
    admission.started(first)
    assert all(admitted(admission.admit("10.0.0.5")) for _ in range(20))
    assert "from this address (20)" in admission.admit("10.0.0.5")


def test_an_ipv6_network_is_capped_and_penalised_as_a_whole():
    clock = HandClock(1000.0)
    admission = Admission(Limits(per_source=2, per_network=4, start=100, full=8), clock=clock)
    assert all(admitted(admission.admit(f"2001:db8:1:{n}::1")) for n in range(4))
    assert "2001:db8:1::/48 (4)" in admission.admit("2001:db8:1:99::1")
    assert admitted(admission.admit("2001:db8:2::1"))  # another site
    wasted = 0
    while isinstance(startup := admission.admit(f"2001:db8:3:{wasted}::1"), Startup):
        admission.closed(startup, failed_auth=False)  # one wasted by each /64: each owes little
        wasted += 1
    limits = admission.limits
    assert wasted == int(limits.threshold * limits.network_factor / limits.unused) + 1 and "network 2001:db8:3::/48 penalised" in startup  # the /48 more than 4 × 10 s
    assert admission.owes("2001:db8:3:1::1") <= admission.limits.threshold


def test_penalties_grow_with_failures_run_down_and_are_capped():
    clock = HandClock(1000.0)
    admission = Admission(Limits(auth_fail=5, unused=2, threshold=10, max_penalty=60), clock=clock)
    for _ in range(2):
        startup = admission.admit("203.0.113.5")
        admission.tried(startup)
        admission.closed(startup, failed_auth=True)
    assert admission.owes("203.0.113.5") == 10
    startup = admission.admit("203.0.113.5")  # 10 s owed: not past the threshold yet
    admission.closed(startup, failed_auth=True)
    assert "penalised for 15 s" in admission.admit("203.0.113.5")  # and +1 for knocking
    clock.now += 7
    startup = admission.admit("203.0.113.5")  # ran down to 9 s
    admission.closed(startup, failed_auth=False)  # +2: never tried
    assert admission.owes("203.0.113.5") == 11
    for _ in range(100):
        admission.penalise("203.0.113.5", 5)
    assert admission.owes("203.0.113.5") == 60
    # A login that worked (not a startup any more when it closes) costs nothing.
    startup = admission.admit("198.51.100.1")
    admission.started(startup)
    admission.closed(startup, failed_auth=False)
    assert admission.owes("198.51.100.1") == 0
    assert admission.connections == 0 and admission.startups == 0


def test_total_connections_are_capped():
    admission = Admission(Limits(max_connections=2, per_source=10))
    assert admitted(admission.admit("10.0.0.1")) and admitted(admission.admit("10.0.0.2"))
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
    clock, lines = HandClock(1000.0), []
    limited = RateLimit(lines.append, clock=clock)
    for _ in range(1000):
        limited("emfile", "accept failed")
    assert lines == ["accept failed"]
    clock.now += 1.01
    limited("emfile", "accept failed")
    assert lines[-1] == "accept failed (and 999 more like it)"
    limited("other", "x")
    assert lines[-1] == "x"
