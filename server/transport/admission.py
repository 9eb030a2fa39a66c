"""Admission before login, after OpenSSH's LoginGraceTime, MaxStartups and PerSourcePenalties.

Connections that have not finished authenticating ("startups") are counted apart from sessions,
per source (an IPv4 address or an IPv6 /64) and in all. At accept, before any SSH work:

- a penalised source is refused;
- a source already holding ``max_startups_per_source`` startups is refused;
- from ``startups_begin`` startups on, a connection from a source that already holds one is
  refused at random (``startups_refuse_percent``, rising linearly to 100 % at ``max_startups``);
  a source holding none is never refused early: it is how a real player arrives;
- at ``max_startups``, a source holding none takes the place of the oldest startup of the source
  holding the most (if it holds two or more), else of the oldest startup if that one is older than
  ``startup_displace_after_seconds``; otherwise the connection is refused.

A startup that reaches the login grace is closed. Sources earn penalty seconds when one of their
startups reaches the grace, is displaced, or is closed by the client before authenticating; a
source whose penalty reaches ``penalty_min_seconds`` is refused until it runs out, and its
startups are closed at once. So silent connections from many addresses cost each address its
slots within one grace, and a player from any other address gets in meanwhile.

Refusals and closings are counted by cause (``refusals``) and logged as one line of counts per
interval, each penalty once (the first few of each interval by source, the others counted); this
module does no SSH: the server gives each startup a ``closer``.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import ipaddress
import logging
import random
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from server.config import ServerConfig
from server.logging_setup import log_event

log = logging.getLogger("citadels.server.admission")

# Every cause a connection (or, for "rate", a key) can be refused or closed for.
CAUSES = (
    "full",  # startups or sessions at their cap
    "per_address",  # sessions from one address at their cap
    "startups",  # MaxStartups' early random refusal
    "source_startups",  # startups from one source at their cap
    "penalty",  # a penalised source: refused at accept, or its startups closed
    "grace",  # not authenticated within the login grace
    "displaced",  # a startup closed to make room for a newcomer
    "no_session",  # authenticated, but no session started in time
    "banned",  # a banned key or address (the host's bans), refused at authentication
    "stopping",  # the server is shutting down
    "rate",  # keys dropped by a session's key rate limit
)

# What a connection refused at accept reads (before the SSH banner; OpenSSH clients do not show
# it, but it is what a raw connection or a log of the client sees).
# Penalties logged one by one per log interval; past it they are counted in the interval's line.
PENALTY_LOG_LINES = 10

REFUSAL_LINES = {
    "full": "The server is busy (too many connections logging in); please try again in a moment.",
    "startups": "The server is busy (too many connections logging in); please try again in a moment.",
    "source_startups": "Too many connections logging in from your address; please try again in a moment.",
    "penalty": "Too many unfinished logins from your address; please try again later.",
    "stopping": "The server is shutting down. Please reconnect in a moment.",
}
_REFUSAL_BYTES = {cause: (line + "\r\n").encode() for cause, line in REFUSAL_LINES.items()}


# A refused source is told why at most once in this many seconds; its other refusals are a close
# alone (the line is the costliest part of a refusal, and a flood needs it once).
REFUSAL_LINE_EVERY_SECONDS = 10.0

# Sources remembered for the above (the oldest forgotten first past it).
REFUSAL_LINE_SOURCES = 4096


# Addresses repeat (a flood comes from a few): parsing one is most of a refusal's own cost.
@functools.lru_cache(maxsize=8192)
def source_of(address: str, v4_prefix: int = 32, v6_prefix: int = 64) -> str:
    """The source an address belongs to: itself for IPv4 (or IPv4-mapped IPv6), its /64 for IPv6."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if isinstance(ip, ipaddress.IPv4Address):
        return str(ip) if v4_prefix >= 32 else str(ipaddress.ip_network(f"{ip}/{v4_prefix}", strict=False))
    return str(ipaddress.ip_network(f"{ip}/{v6_prefix}", strict=False))


class Startup:
    """One connection still logging in. ``closer`` (set once the SSH connection exists) aborts it."""

    __slots__ = ("address", "closer", "source", "started", "state")

    def __init__(self, address: str, source: str, started: float) -> None:
        self.address = address
        self.source = source
        self.started = started
        # pending -> authenticated | refused (by the session caps) | closed (by us) | gone (by the client)
        self.state = "pending"
        self.closer: Callable[[], None] | None = None


@dataclass(slots=True)
class _Penalty:
    until: float
    active: bool = False


class Admission:
    """Startups, per-source penalties and refusal counts for one server."""

    def __init__(
        self,
        config: ServerConfig,
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self._loop = loop
        self._clock = clock
        self._rng = rng or random.Random()
        self._exempt = [ipaddress.ip_network(n, strict=False) for n in config.admission_exempt]
        self._exempt_cache: dict[str, bool] = {}
        self._told: OrderedDict[str, float] = OrderedDict()  # source -> when it last read a refusal line
        self._inflight: OrderedDict[int, Startup] = OrderedDict()  # oldest first
        self._per_source: Counter[str] = Counter()
        self._penalties: dict[str, _Penalty] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._log_timer: asyncio.TimerHandle | None = None
        self._unlogged: Counter[str] = Counter()
        self._penalties_logged = 0
        self._penalties_unlogged = 0
        self.refusals: Counter[str] = Counter()
        self.penalties_given = 0
        self.stopping = False

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Run the grace and log timers on ``loop`` (the server's)."""
        self._loop = loop
        self._schedule()

    # ------------------------------------------------------------------ at accept

    def accept(self, address: str) -> Startup | str:
        """A new connection from ``address``: its Startup, or the cause of its refusal."""
        now = self._clock()
        if self.stopping:
            return self._refuse("stopping")
        cfg = self.config
        source = source_of(address)
        exempt = self._is_exempt(address)
        if not exempt and self._blocked(source, now):
            return self._refuse("penalty")
        held = 0 if exempt else self._per_source[source]
        if held >= cfg.max_startups_per_source:
            return self._refuse("source_startups")
        count = len(self._inflight)
        if count >= cfg.max_startups:
            victim = None if held else self._displaceable(now)
            if victim is None:
                return self._refuse("full")
            self._close(victim, "displaced")
            self._penalise(victim.source, victim.address, cfg.penalty_displaced_seconds, "displaced", now)
        elif held and count >= cfg.startups_begin:
            span = cfg.max_startups - cfg.startups_begin
            rate = cfg.startups_refuse_percent
            chance = rate + (100 - rate) * (count - cfg.startups_begin) / span if span else 100.0
            if self._rng.random() * 100 < chance:
                return self._refuse("startups")
        startup = Startup(address, source, now)
        self._inflight[id(startup)] = startup
        self._per_source[source] += 1
        self._schedule()
        return startup

    def refusal_line(self, cause: str, address: str) -> bytes | None:
        """The line a connection refused at accept for ``cause`` reads, or None (its source read
        one less than REFUSAL_LINE_EVERY_SECONDS ago: it is closed without one)."""
        line = _REFUSAL_BYTES.get(cause)
        if line is None:
            return None
        source, now = source_of(address), self._clock()
        told = self._told.get(source)
        if told is not None and now - told < REFUSAL_LINE_EVERY_SECONDS:
            return None
        self._told[source] = now
        self._told.move_to_end(source)
        if len(self._told) > REFUSAL_LINE_SOURCES:
            self._told.popitem(last=False)
        return line

    def _displaceable(self, now: float) -> Startup | None:
        """The startup a newcomer may take the place of: the oldest of the source holding the most
        (if it holds two or more), else the oldest of all if it is old enough."""
        source, held = self._per_source.most_common(1)[0]
        if held >= 2:
            return next(s for s in self._inflight.values() if s.source == source)
        oldest = next(iter(self._inflight.values()))
        if now - oldest.started >= self.config.startup_displace_after_seconds:
            return oldest
        return None

    # ------------------------------------------------------------------ afterwards

    def authenticated(self, startup: Startup) -> None:
        """The connection authenticated: it is no longer a startup."""
        if startup.state == "pending":
            self._forget(startup)
            startup.state = "authenticated"

    def refused(self, startup: Startup) -> None:
        """The server refused it after accept (the session caps): no penalty."""
        if startup.state == "pending":
            self._forget(startup)
            startup.state = "refused"

    def gone(self, startup: Startup) -> None:
        """The connection ended. Still logging in: the client gave up (a small penalty)."""
        if startup.state == "pending":
            self._forget(startup)
            startup.state = "gone"
            self._penalise(startup.source, startup.address, self.config.penalty_noauth_seconds, "noauth", self._clock())

    def count(self, cause: str, n: int = 1) -> None:
        """Count a refusal the server decided elsewhere (session caps, no session, key rate)."""
        if n > 0:
            self.refusals[cause] += n
            self._unlogged[cause] += n
            self._schedule_log()

    def sweep(self) -> None:
        """Close startups past the login grace (called by a timer; tests call it directly)."""
        now = self._clock()
        grace = self.config.login_timeout_seconds
        while self._inflight:
            oldest = next(iter(self._inflight.values()))
            if now - oldest.started < grace:
                break
            self._close(oldest, "grace")
            self._penalise(oldest.source, oldest.address, self.config.penalty_grace_seconds, "grace", now)
        if len(self._penalties) > self.config.max_penalised_sources // 2:
            self._prune(now)

    def close(self) -> None:
        """Stop the timers and log what was not logged yet."""
        self.stopping = True
        for handle in (self._timer, self._log_timer):
            if handle is not None:
                handle.cancel()
        self._timer = self._log_timer = None
        self._flush_log()

    # ------------------------------------------------------------------ figures

    @property
    def startups(self) -> int:
        return len(self._inflight)

    def penalised_sources(self) -> int:
        now = self._clock()
        return sum(1 for p in self._penalties.values() if p.active and p.until > now)

    def is_penalised(self, address: str) -> bool:
        return self._blocked(source_of(address), self._clock())

    def stats(self) -> dict[str, object]:
        return {
            "startups": self.startups,
            "penalised_sources": self.penalised_sources(),
            "penalties_given": self.penalties_given,
            "refused": {cause: self.refusals[cause] for cause in CAUSES if self.refusals[cause]},
        }

    # ------------------------------------------------------------------ inside

    def _refuse(self, cause: str) -> str:
        self.count(cause)
        return cause

    def _forget(self, startup: Startup) -> None:
        if self._inflight.pop(id(startup), None) is not None:
            left = self._per_source[startup.source] - 1
            if left > 0:
                self._per_source[startup.source] = left
            else:
                del self._per_source[startup.source]

    def _close(self, startup: Startup, cause: str) -> None:
        self._forget(startup)
        startup.state = "closed"
        self.count(cause)
        closer, startup.closer = startup.closer, None
        if closer is not None:
            try:
                closer()
            except Exception:  # pragma: no cover - a connection already gone
                log.debug("closing a startup failed", exc_info=True)

    def _is_exempt(self, address: str) -> bool:
        if not self._exempt:
            return False
        exempt = self._exempt_cache.get(address)
        if exempt is None:
            try:
                ip = ipaddress.ip_address(address.split("%", 1)[0])
            except ValueError:
                exempt = False
            else:
                exempt = any(ip in network for network in self._exempt if network.version == ip.version)
            if len(self._exempt_cache) >= REFUSAL_LINE_SOURCES:
                self._exempt_cache.clear()
            self._exempt_cache[address] = exempt
        return exempt

    def _blocked(self, source: str, now: float) -> bool:
        penalty = self._penalties.get(source)
        if penalty is None or not penalty.active:
            return False
        if penalty.until > now:
            return True
        del self._penalties[source]
        return False

    def _penalise(self, source: str, address: str, seconds: float, reason: str, now: float) -> None:
        if seconds <= 0 or self._is_exempt(address):
            return
        cfg = self.config
        penalty = self._penalties.get(source)
        if penalty is None:
            if len(self._penalties) >= cfg.max_penalised_sources:
                self._prune(now)
                if len(self._penalties) >= cfg.max_penalised_sources:
                    return  # permissive when full, as OpenSSH's default
            penalty = self._penalties[source] = _Penalty(now)
        penalty.until = min(max(penalty.until, now) + seconds, now + cfg.penalty_max_seconds)
        if penalty.active or penalty.until - now < cfg.penalty_min_seconds:
            return
        penalty.active = True
        self.penalties_given += 1
        if self._penalties_logged < PENALTY_LOG_LINES:
            self._penalties_logged += 1
            log_event(
                log, logging.INFO, "source penalised", source=source, seconds=round(penalty.until - now), reason=reason
            )
        else:
            self._penalties_unlogged += 1
        self._schedule_log()
        for startup in [s for s in self._inflight.values() if s.source == source]:
            self._close(startup, "penalty")

    def _prune(self, now: float) -> None:
        for source in [s for s, p in self._penalties.items() if p.until <= now]:
            del self._penalties[source]

    # ------------------------------------------------------------------ timers

    def _schedule(self) -> None:
        if self._loop is None or self._timer is not None or not self._inflight:
            return
        oldest = next(iter(self._inflight.values()))
        delay = max(0.0, oldest.started + self.config.login_timeout_seconds - self._clock()) + 0.01
        # From a clean context: never an app's (these callbacks outlive any session).
        self._timer = self._loop.call_later(delay, self._on_timer, context=contextvars.Context())

    def _on_timer(self) -> None:
        self._timer = None
        self.sweep()
        self._schedule()

    def _schedule_log(self) -> None:
        if self._loop is None or self._log_timer is not None or self.stopping:
            return
        self._log_timer = self._loop.call_later(
            self.config.refusal_log_interval_seconds, self._on_log_timer, context=contextvars.Context()
        )

    def _on_log_timer(self) -> None:
        self._log_timer = None
        self._flush_log()

    def _flush_log(self) -> None:
        self._penalties_logged = 0
        if not self._unlogged and not self._penalties_unlogged:
            return
        counts = {cause: self._unlogged[cause] for cause in CAUSES if self._unlogged[cause]}
        self._unlogged.clear()
        unlogged, self._penalties_unlogged = self._penalties_unlogged, 0
        log_event(
            log,
            logging.INFO,
            "refusals",
            **counts,
            logging_in=len(self._inflight),
            penalised_sources=self.penalised_sources(),
            **({"more_sources_penalised": unlogged} if unlogged else {}),
        )
