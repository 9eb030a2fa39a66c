"""Who plays each seat now, as everyone at the table sees it, and what the table says when it changes.

One home for a seat's state (`seat_state`): the actor asks it whether a bot must play for an
absent person (`Table._decider`), and `PresenceBoard` turns its changes into the `Presence`
message every session gets (the seats, the number of spectators) and the notices of the log
("ana is away: a bot plays for them in 60 s", "a bot plays for ana", "ana is back").

A countdown is sent as the seconds left when the state changes, never as a stream of ticks: each
session counts down on its own clock (ui/countdown.py), and the actor wakes up only when an idle
wait ends (`PresenceBoard.next_change`).
"""

from __future__ import annotations

from server.tables.messages import Notice, Presence, SeatPresence
from server.tables.seats import SeatSlot

EPSILON = 1e-6


def seat_state(s: SeatSlot, now: float, idle_wait: float, playing: bool) -> SeatPresence:
    """The state of seat `s` at `now` (monotonic seconds) in a game that is `playing` or not."""
    if s.bot is not None:
        return SeatPresence("replaced" if s.person_seat else "bot")
    if s.client is not None:
        return SeatPresence("here")
    if not playing or s.away_since is None:
        return SeatPresence("away")
    due = s.away_since + idle_wait
    if now >= due - EPSILON:
        return SeatPresence("bot_for")
    return SeatPresence("away", bot_in=due - now)


def _notice(s: SeatSlot, old: str, new: str, idle_wait: float) -> Notice | None:
    name: dict[str, str | int | float] = {"name": s.name}
    if new == "away" and old == "here":
        return Notice("away", {**name, "seconds": round(idle_wait)})
    if new == "bot_for" and old in ("here", "away"):
        return Notice("bot_for", name)
    if new == "here" and old in ("away", "bot_for"):
        return Notice("back", name)
    if new == "replaced" and old != "replaced":
        return Notice("guest_left" if s.guest else "replaced", name)
    return None


class PresenceBoard:
    """The last presence the table's sessions were told, and the notices of each change."""

    def __init__(self) -> None:
        self._states: list[str] | None = None
        self._key: tuple | None = None
        # Seats whose session was at the table when it changed owner (`SeatSlot.resuming`, read at the first
        # update): away until they resume here, and their return is no news ("X is back" is only said of a
        # seat that was away; once a bot played for it, its return is said again).
        self._resuming: set[int] = set()

    def update(
        self, seats: list[SeatSlot], watchers: int, now: float, idle_wait: float, playing: bool
    ) -> tuple[Presence | None, list[tuple[int, Notice]]]:
        """(the Presence to send, or None if nothing changed; each change's seat and notice).

        Nothing is announced the first time (the states at the start of a game or a resumed one)
        nor while the game is not playing."""
        present = [seat_state(s, now, idle_wait, playing) for s in seats]
        deadlines = [
            (p.state, None if p.bot_in is None else round((s.away_since or 0.0) + idle_wait, 3))
            for p, s in zip(present, seats)
        ]
        key = (tuple(deadlines), watchers)
        notices: list[tuple[int, Notice]] = []
        old = self._states
        if old is None:
            self._resuming = {i for i, s in enumerate(seats) if s.resuming}
        if old is not None and playing and len(old) == len(present):
            for i, (s, was, now_p) in enumerate(zip(seats, old, present)):
                if was != now_p.state:
                    n = _notice(s, was, now_p.state, idle_wait)
                    if n is not None and not (n.key == "back" and i in self._resuming):
                        notices.append((i, n))
        for i, p in enumerate(present):
            if p.state != "away":  # here again, or a bot plays for it: no longer resuming
                self._resuming.discard(i)
        self._states = [p.state for p in present]
        if key == self._key:
            return None, notices
        self._key = key
        return Presence(present, watchers), notices

    def told(self, seat: int) -> str | None:
        """The state of `seat` the table's sessions were last told (None: nothing told yet)."""
        states = self._states
        return states[seat] if states is not None and 0 <= seat < len(states) else None

    def current(self, seats: list[SeatSlot], watchers: int, now: float, idle_wait: float, playing: bool) -> Presence:
        """The presence now, for a session that just arrived (the board is not changed)."""
        return Presence([seat_state(s, now, idle_wait, playing) for s in seats], watchers)

    @staticmethod
    def next_change(seats: list[SeatSlot], now: float, idle_wait: float, playing: bool) -> float | None:
        """When the next away seat's idle wait ends (the actor wakes up to tell it), None if none runs."""
        if not playing:
            return None
        times = [
            s.away_since + idle_wait
            for s in seats
            if s.bot is None and s.client is None and s.away_since is not None and s.away_since + idle_wait > now
        ]
        return min(times) if times else None
