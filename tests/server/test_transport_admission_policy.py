"""The admission policy on its own (server/transport/admission.py): startups, early refusal,
displacement, the login grace, per-source penalties. A fake clock; no sockets (the same policy
through real connections: test_transport_admission.py)."""

from __future__ import annotations

import random

import pytest

from server.config import ServerConfig
from server.transport.admission import Admission, Startup, source_of


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make(**overrides) -> tuple[Admission, Clock]:
    clock = Clock()
    return Admission(ServerConfig(**overrides), clock=clock, rng=random.Random(1)), clock


def test_sources_group_ipv6_by_64_and_unmap_ipv4():
    assert source_of("127.0.0.9") == "127.0.0.9"
    assert source_of("::ffff:10.1.2.3") == "10.1.2.3"
    assert source_of("2001:db8:1:2:aaaa::1") == source_of("2001:db8:1:2:bbbb::7") == "2001:db8:1:2::/64"
    assert source_of("2001:db8:1:3::1") != source_of("2001:db8:1:2::1")
    assert source_of("not-an-address") == "not-an-address"


def test_per_source_cap():
    adm, _ = make(max_startups_per_source=2)
    assert isinstance(adm.accept("10.0.0.1"), Startup)
    assert isinstance(adm.accept("10.0.0.1"), Startup)
    assert adm.accept("10.0.0.1") == "source_startups"
    assert isinstance(adm.accept("10.0.0.2"), Startup)
    assert adm.refusals["source_startups"] == 1 and adm.startups == 3


def test_early_refusal_spares_sources_holding_none():
    adm, _ = make(startups_begin=10, max_startups=50, startups_refuse_percent=30, max_startups_per_source=50)
    for i in range(10):
        assert isinstance(adm.accept(f"10.0.1.{i}"), Startup)
    # From 10 on: a source already logging in is refused at 30 % and more...
    verdicts = [adm.accept("10.0.1.0") for _ in range(30)]
    refused = sum(v == "startups" for v in verdicts)
    assert 5 <= refused < 30
    # ...a source with none logging in never is, up to the cap.
    for i in range(10, 50):
        if adm.startups >= 50:
            break
        assert isinstance(adm.accept(f"10.0.2.{i}"), Startup)


def test_full_refuses_unless_the_oldest_is_old_enough_to_displace():
    adm, clock = make(startups_begin=2, max_startups=2, startup_displace_after_seconds=1.0)
    closed = []
    first = adm.accept("10.0.0.1")
    assert isinstance(first, Startup)
    first.closer = lambda: closed.append("first")
    second = adm.accept("10.0.0.2")
    assert isinstance(second, Startup)
    assert adm.accept("10.0.0.3") == "full"  # the oldest is too young
    clock.now += 1.5
    assert adm.accept("10.0.0.2") == "full"  # a source already logging in never displaces
    third = adm.accept("10.0.0.3")
    assert isinstance(third, Startup)
    assert closed == ["first"] and first.state == "closed"
    assert adm.refusals["displaced"] == 1 and adm.startups == 2


def test_at_full_a_newcomer_displaces_the_heaviest_source_whatever_its_age():
    adm, _ = make(startups_begin=3, max_startups=3, max_startups_per_source=3)
    closed = []
    heavy = [adm.accept("10.0.0.1") for _ in range(2)]
    light = adm.accept("10.0.0.2")
    for s in (*heavy, light):
        assert isinstance(s, Startup)
        s.closer = lambda s=s: closed.append(s)
    assert isinstance(adm.accept("10.0.0.3"), Startup)  # all are young: the heaviest source gives way
    assert closed == [heavy[0]]
    assert adm.accept("10.0.0.4") == "full"  # now one each, all young: refused
    assert closed == [heavy[0]] and adm.refusals["displaced"] == 1


def test_grace_closes_and_penalties_block_a_source_and_close_its_startups():
    adm, clock = make(
        login_timeout_seconds=10, penalty_grace_seconds=10, penalty_min_seconds=15, max_startups_per_source=5
    )
    closed: list[str] = []
    early = [adm.accept("10.0.0.7") for _ in range(2)]
    clock.now += 5
    late = adm.accept("10.0.0.7")
    for i, s in enumerate([*early, late]):
        assert isinstance(s, Startup)
        s.closer = lambda i=i: closed.append(i)
    clock.now += 5.5
    adm.sweep()  # the first two reach the grace: 20 s of penalty >= 15: blocked, the third closed too
    assert sorted(closed) == [0, 1, 2]
    assert adm.refusals["grace"] == 2 and adm.refusals["penalty"] == 1
    assert adm.is_penalised("10.0.0.7") and adm.penalised_sources() == 1
    assert adm.accept("10.0.0.7") == "penalty"
    assert isinstance(adm.accept("10.0.0.8"), Startup)  # another address is not concerned
    clock.now += 21
    assert not adm.is_penalised("10.0.0.7")
    assert isinstance(adm.accept("10.0.0.7"), Startup)


def test_penalties_below_the_minimum_do_not_block_and_are_capped():
    adm, clock = make(penalty_noauth_seconds=1, penalty_min_seconds=15, penalty_max_seconds=30)
    for _ in range(10):  # ten clients giving up at once: 10 s, not blocked
        s = adm.accept("10.0.0.5")
        assert isinstance(s, Startup)
        adm.gone(s)
    assert not adm.is_penalised("10.0.0.5")
    for _ in range(100):
        s = adm.accept("10.0.0.5")
        if isinstance(s, str):
            break
        adm.gone(s)
    assert adm.is_penalised("10.0.0.5")
    clock.now += 30.5  # never more than penalty_max_seconds
    assert not adm.is_penalised("10.0.0.5")


def test_authenticated_and_refused_connections_earn_no_penalty():
    adm, _ = make(penalty_noauth_seconds=100, penalty_min_seconds=1)
    s = adm.accept("10.0.0.4")
    assert isinstance(s, Startup)
    adm.authenticated(s)
    adm.gone(s)
    t = adm.accept("10.0.0.4")
    assert isinstance(t, Startup)
    adm.refused(t)
    adm.gone(t)
    assert not adm.is_penalised("10.0.0.4") and adm.startups == 0


def test_exempt_networks_are_neither_capped_nor_penalised():
    adm, clock = make(admission_exempt=("10.9.0.0/16",), max_startups_per_source=1, penalty_grace_seconds=100)
    for _ in range(5):
        assert isinstance(adm.accept("10.9.1.1"), Startup)
    clock.now += 100
    adm.sweep()
    assert adm.refusals["grace"] == 5 and not adm.is_penalised("10.9.1.1")


def test_the_penalty_table_is_bounded():
    adm, clock = make(max_penalised_sources=4, penalty_noauth_seconds=20, penalty_min_seconds=15)
    for i in range(10):
        s = adm.accept(f"10.0.3.{i}")
        assert isinstance(s, Startup)
        adm.gone(s)
    assert len(adm._penalties) <= 4
    assert adm.penalised_sources() == 4  # the rest are let through (OpenSSH's "permissive")


def test_config_refuses_a_begin_past_the_cap():
    with pytest.raises(ValueError):
        ServerConfig(startups_begin=200, max_startups=100)


def test_refusals_and_penalties_are_logged_as_counts(caplog):
    import logging

    caplog.set_level(logging.INFO, logger="citadels.server.admission")
    adm, _ = make(penalty_noauth_seconds=20, penalty_min_seconds=15, max_startups_per_source=1)
    for i in range(30):  # thirty sources penalised, and as many refusals
        s = adm.accept(f"10.0.5.{i}")
        assert isinstance(s, Startup)
        adm.gone(s)
        assert adm.accept(f"10.0.5.{i}") == "penalty"
    adm.close()  # flushes the counts
    penalised = [r for r in caplog.records if r.getMessage() == "source penalised"]
    assert len(penalised) == 10
    (summary,) = [r for r in caplog.records if r.getMessage() == "refusals"]
    assert summary.fields["penalty"] == 30 and summary.fields["more_sources_penalised"] == 20


def test_a_refused_source_reads_the_line_once_per_interval():
    from server.transport.admission import REFUSAL_LINE_EVERY_SECONDS, REFUSAL_LINES

    adm, clock = make()
    line = adm.refusal_line("full", "10.0.0.1")
    assert line == (REFUSAL_LINES["full"] + "\r\n").encode()
    # The same source again (another cause too): closed without a line; another source is told.
    assert adm.refusal_line("full", "10.0.0.1") is None
    assert adm.refusal_line("penalty", "10.0.0.1") is None
    assert adm.refusal_line("full", "10.0.0.2") is not None
    # IPv6 addresses of one /64 are one source.
    assert adm.refusal_line("full", "2001:db8::1") is not None
    assert adm.refusal_line("full", "2001:db8::2") is None
    clock.now += REFUSAL_LINE_EVERY_SECONDS
    assert adm.refusal_line("full", "10.0.0.1") == line
    # Causes that are not refusals at accept have no line.
    assert adm.refusal_line("grace", "10.0.0.9") is None
