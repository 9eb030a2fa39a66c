"""Fair input through real asyncssh sessions: window changes merged (the Resize events an app
gets are counted), resize reports typed into the input ignored, a key flood limited with a
notice while another session stays responsive, and the loop time an abusive session's input
costs bounded by its budget."""

from __future__ import annotations

import asyncio
import time

import pytest
from textual.events import Key

from server.transport.demo_app import DemoApp
from server.transport.input_pipeline import MAX_EVENTS_PER_TURN
from server.transport.session import SessionInfo


class Recorder:
    """An app factory that keeps the apps it made (``app_class`` for the users named in ``only``)."""

    def __init__(self, app_class: type[DemoApp] = DemoApp, only: tuple[str, ...] = ()) -> None:
        self.app_class = app_class
        self.only = only
        self.apps: list[DemoApp] = []

    def __call__(self, info: SessionInfo) -> DemoApp:
        cls = self.app_class if not self.only or info.username in self.only else DemoApp
        app = cls(info)
        self.apps.append(app)
        return app


async def _echo_time(term, key: str, timeout: float = 10.0) -> float:
    term.mark()
    t0 = time.monotonic()
    term.send(key)
    await term.wait_for(f"last key: {key}", timeout)
    return time.monotonic() - t0


@pytest.mark.slow  # a storm of 301 window changes, held and paced over seconds
async def test_a_resize_storm_is_merged_and_the_last_size_wins(start, open_terminal, wait_until):
    apps = Recorder()
    server = await start(app_factory=apps)
    term = await open_terminal(server, size=(80, 24))
    await term.wait_for("size: 80x24")
    app = apps.apps[0]
    before = app.resizes
    sizes = [(100, 30), (90, 28)] * 150
    for width, height in sizes:
        term.resize(width, height)
    term.resize(120, 40)
    term.mark()
    await term.wait_for("size: 120x40", timeout=10)
    stats = server.session_stats()[0]
    await wait_until(lambda: server.session_stats()[0]["resize_requests"] >= len(sizes) + 1, what="requests seen")
    got = app.resizes - before
    assert 1 <= got <= 30, got  # 301 window changes, a handful of Resize events
    assert stats["resizes_posted"] == got
    assert stats["connection_holds"] >= 1  # past the 200 a storm may send at once, it waited
    assert stats["input_tier"] == "paced"  # and the session's input has no burst of loop time for a while
    # Another change later is applied on its own.
    term.resize(81, 25)
    await term.wait_for("size: 81x25")


async def test_resize_reports_typed_into_the_input_are_ignored(start, open_terminal):
    apps = Recorder()
    server = await start(app_factory=apps)
    term = await open_terminal(server, size=(80, 24))
    await term.wait_for("size: 80x24")
    before = apps.apps[0].resizes
    term.send(b"\x1b[48;20000;20000;0;0t")  # xterm's in-band resize report, 20000x20000: never asked for
    await _echo_time(term, "k")
    assert apps.apps[0].resizes == before
    assert apps.apps[0].term_size == (80, 24)


@pytest.mark.slow  # a soak: 20,000 keys read at the bucket's rate (~15 s)
async def test_a_key_flood_is_limited_with_a_notice_and_others_stay_responsive(start, open_terminal, wait_until):
    # A loop-time share that lets the flood's bytes be read (and dropped) within seconds.
    server = await start(key_rate_per_second=30, key_burst=60, input_cpu_share=0.5)
    flooder = await open_terminal(server, username="flood")
    other = await open_terminal(server, username="other")
    await flooder.wait_for("size: 80x24")
    await other.wait_for("size: 80x24")
    flooder.mark()
    t0 = time.monotonic()
    for _ in range(40):
        flooder.send(b"x" * 500)  # 20,000 keys at once
    slowest = 0.0
    for key in "abcde":
        slowest = max(slowest, await _echo_time(other, key))
    await flooder.wait_for("some keys were ignored", timeout=10)
    assert server.refusals["rate"] > 1000
    # The flood reached the app no faster than the bucket allows: burst + rate x elapsed.
    stats = next(s for s in server.session_stats() if s["user"] == "flood")
    elapsed = time.monotonic() - t0
    assert stats["keys_accepted"] <= 60 + 30 * elapsed + 1
    assert stats["keys_dropped"] > 1000
    assert stats["input_tier"] == "paced"  # a flood has no burst of loop time, whatever its budget
    assert slowest < 2.0, slowest

    # The flooder's session still works: a key after the flood is handled once the flood is read
    # (dropped by the bucket, or dropped as stale after a long hold).
    def flood_read() -> bool:
        flood = next(s for s in server.session_stats() if s["user"] == "flood")
        return not flood["input_reading_paused"] and flood["input_waiting"] == 0

    await wait_until(flood_read, timeout=60, what="the flood read")
    await _echo_time(flooder, "z", timeout=20)


class Costly(DemoApp):
    """Every key costs 30 ms of the event loop (a screen that is expensive to change)."""

    handled = 0

    def on_key(self, event: Key) -> None:
        Costly.handled += 1
        end = time.perf_counter() + 0.03
        while time.perf_counter() < end:
            pass
        super().on_key(event)


@pytest.mark.slow  # loop time measured over 2 s of real time (test_reconnecting_does_not_refill_the_budget keeps the budget in the fast tier)
async def test_expensive_input_is_held_to_the_sessions_budget(start, open_terminal):
    Costly.handled = 0
    server = await start(
        app_factory=Recorder(Costly, only=("abuser",)),
        input_cpu_share=0.02,
        input_cpu_burst_seconds=0.3,
        key_rate_per_second=1000,
        key_burst=1000,
    )
    abuser = await open_terminal(server, username="abuser")
    other = await open_terminal(server, username="other")
    await abuser.wait_for("size: 80x24")
    await other.wait_for("size: 80x24")
    base = Costly.handled
    t0 = time.monotonic()
    abuser.send(b"q" * 500)  # 15 s of loop time if every key were handled
    await asyncio.sleep(2.0)
    slowest = 0.0
    for key in "vwxyz":
        slowest = max(slowest, await _echo_time(other, key))
    elapsed = time.monotonic() - t0
    handled = Costly.handled - base
    # Burst + share x elapsed, in 30 ms keys, + one turn's keys handed over before their cost was
    # known (the first turn guesses a cheap key) + the turns the estimate takes to learn.
    bound = (0.3 + 0.02 * elapsed) / 0.03 + MAX_EVENTS_PER_TURN + 3
    assert handled <= bound, (handled, bound)
    stats = next(s for s in server.session_stats() if s["user"] == "abuser")
    assert stats["input_holds"] >= 1
    await abuser.wait_for("holds your input", timeout=5)
    assert slowest < 2.0, slowest  # one 30 ms key at a time stands in its way (a loaded test machine)


async def test_reconnecting_does_not_refill_the_budget(start, open_terminal, wait_until):
    server = await start(
        app_factory=Recorder(Costly), input_cpu_share=0.001, input_cpu_burst_seconds=0.2, key_burst=1000
    )

    def left(user: str) -> float:
        return next(s for s in server.session_stats() if s["user"] == user)["input_budget_left_s"]

    first = await open_terminal(server, username="spender", local_addr=("127.0.0.40", 0))
    await first.wait_for("size: 80x24")
    assert left("spender") > 0.19
    first.send(b"q" * 20)  # 20 keys of 30 ms: past the 0.2 s budget
    await wait_until(lambda: left("spender") < 0, timeout=10, what="the budget spent")
    first.close()
    await wait_until(lambda: server.session_count == 0, what="the session gone")
    again = await open_terminal(server, username="spender", local_addr=("127.0.0.40", 0))
    await again.wait_for("size: 80x24")
    assert left("spender") < 0.05  # what the last session left, not a fresh budget
    other = await open_terminal(server, username="neighbour", local_addr=("127.0.0.41", 0))
    await other.wait_for("size: 80x24")
    assert left("neighbour") > 0.19


@pytest.mark.slow  # a soak: three abusers measured over 4 s of real time
async def test_sessions_past_their_light_tier_share_the_pools(start, open_terminal):
    Costly.handled = 0
    abusers = ("a1", "a2", "a3")
    server = await start(
        app_factory=Recorder(Costly, only=abusers),
        input_cpu_share=0.05,  # each alone could spend 5 % of a core...
        input_cpu_burst_seconds=0.3,
        input_light_seconds=0.03,  # ...one key at once...
        input_burst_pool_share=0.01,  # ...then, all three together, 1 % in the burst tier...
        input_burst_pool_seconds=0.05,
        paced_input_share=0.01,  # ...and 1 % past three quarters of their budgets
        key_rate_per_second=1000,
        key_burst=1000,
    )
    terms = [
        await open_terminal(server, username=name, local_addr=(f"127.0.0.{50 + i}", 0))
        for i, name in enumerate(abusers)
    ]
    for term in terms:
        await term.wait_for("size: 80x24")
    t0 = time.monotonic()
    for term in terms:
        term.send(b"q" * 300)
    await asyncio.sleep(4.0)
    elapsed = time.monotonic() - t0
    # Each: its light tier at once (+ a turn's overshoot); then all together: each pool's burst and share.
    unpaced = len(abusers) * (0.03 / 0.03 + MAX_EVENTS_PER_TURN)
    pooled = 2 * (0.05 + 0.01 * elapsed) / 0.03 + 2 * len(abusers)
    assert Costly.handled <= unpaced + pooled, (Costly.handled, unpaced + pooled)
    separately = len(abusers) * (0.3 + 0.05 * elapsed) / 0.03  # what three separate budgets would allow
    # (without the pools the three would get close to `separately`; the exact bound is the one above:
    # with the pools 32-34 of 50 were seen on a loaded CI machine on uvloop, 0.64-0.68)
    assert Costly.handled < separately * 0.75, (Costly.handled, separately)


@pytest.mark.slow  # a soak: a held key, then the budget refilled in real time (~12 s)
async def test_input_held_long_is_dropped_not_handed_over_late(start, open_terminal, wait_until):
    # A held key at a screen whose every key costs 30 ms, with a small budget: once the budget
    # holds the session for more than a second, the keys pressed meanwhile are dropped (and the
    # player told) instead of trickling out for a minute; a key pressed after that goes through.
    Costly.handled = 0
    server = await start(
        app_factory=Recorder(Costly),
        input_cpu_share=0.01,
        input_cpu_burst_seconds=0.15,
        input_light_seconds=0.15,
        key_rate_per_second=1000,
        key_burst=1000,
    )
    term = await open_terminal(server, username="holder")
    await term.wait_for("size: 80x24")

    def stats() -> dict:
        return next(s for s in server.session_stats() if s["user"] == "holder")

    term.mark()
    t0 = time.monotonic()
    for i in range(60):  # two seconds of a held key, ~1.8 s of loop time if all were handled
        term.send(b"q")
        while time.monotonic() < t0 + (i + 1) / 30:
            await term.read_some(0.01)
    await term.wait_for("were ignored", timeout=30)
    assert stats()["stale_input_dropped"] > 0
    handled = Costly.handled
    # Burst + share x the time it took, in 30 ms keys, + a turn's overshoot: far from all 60.
    assert handled < 40, handled
    await asyncio.sleep(1.0)
    assert Costly.handled == handled  # nothing held trickles out afterwards
    await wait_until(lambda: stats()["input_budget_left_s"] > 0.05, timeout=30, what="the budget back")
    term.mark()
    term.send(b"z")
    await term.wait_for("last key: z", timeout=10)
