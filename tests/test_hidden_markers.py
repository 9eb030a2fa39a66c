"""Hidden markers stay hidden: which warrant is signed and which threat is flowered.

In random games with the Magistrate and the Blackmailer, for every seat other
than the one that placed the markers, nothing it receives may depend on which
marker is the real one until it is revealed:

- static: the seat's view bytes are identical when the signed warrant (or the
  flowered threat) is moved to any other marked character;
- dynamic: a command by such a seat, applied to the real game and to a copy with
  the marker moved, is legal in both and leaves identical view bytes and
  identical redacted events for every such seat (so the engine does not behave
  differently, e.g. by asking the Magistrate only about the signed character);
- placing: the events of the command that places the markers, as another seat
  receives them, are unchanged when the real one and any other marked character
  swap names (a `warrant_signed` event shown to everyone would change).
"""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples

import engine  # noqa: F401
from engine.apply import apply
from engine.bots.random_bot import RandomBot
from engine.legal import legal_commands
from engine.roles import blackmailer, magistrate
from engine.setup import GameConfig, new_game
from engine.state import copy_state
from engine.view import redact_events, view_bytes

LINEUP = ["Magistrate", "Blackmailer", "Wizard", "King", "Bishop", "Merchant", "Architect", "Warlord"]
# The Witch may bewitch the Blackmailer: she then places the threats and only she knows the flowered one.
WITCH_LINEUP = ["Witch", "Blackmailer", "Seer", "Emperor", "Abbot", "Alchemist", "Navigator", "Marshal"]


def variants(g, placed_threats: list[str]) -> list[tuple[object, int]]:
    """Copies of `g` with the real marker moved, each with the seat allowed to see the difference."""
    out = []
    w = magistrate.Warrants.get(g)
    if w is not None and w.signed and not w.revealed:
        owner = magistrate.owner(g)
        for c in w.characters:
            if c != w.signed:
                v = copy_state(g)
                magistrate.Warrants.of(v).signed = c
                out.append((v, owner))
    th = blackmailer.Threats.get(g)
    if th is not None and th.flowered and not th.revealed:
        owner = blackmailer.owner(g)
        for c in placed_threats:
            if c != th.flowered:
                v = copy_state(g)
                blackmailer.Threats.of(v).flowered = c
                out.append((v, owner))
    return out


def _real(g, kind: str) -> str | None:
    """The real marker just placed: the signed warrant or the flowered threat."""
    if kind == "warrants_placed":
        w = magistrate.Warrants.get(g)
        return w.signed if w is not None else None
    th = blackmailer.Threats.get(g)
    return th.flowered if th is not None else None


PLACED = {"warrants_placed", "threats_placed"}


def _swap(events, a: str, b: str):
    """The events with the names a and b exchanged everywhere."""
    sw = {a: b, b: a}
    return [
        msgspec.structs.replace(
            e,
            character=sw.get(e.character, e.character),
            card=sw.get(e.card, e.card),
            option=sw.get(e.option, e.option),
            cards=[sw.get(c, c) for c in e.cards],
        )
        for e in events
    ]


def _norm(events) -> list:
    return sorted(msgspec.json.encode(msgspec.structs.replace(e, cards=sorted(e.cards))) for e in events)


def play_and_check(seed: int, n: int, max_commands: int = 4000, lineup: list[str] = LINEUP) -> int:
    if n == 2 and "Emperor" in lineup:
        lineup = [c if c != "Emperor" else "King" for c in lineup]
    chars = lineup + (["Artist"] if n in (3, 8) else [])
    g, _ = new_game(GameConfig(players=[f"P{i}" for i in range(n)], characters=chars, seed=seed))
    bots = [RandomBot(seed * 10 + s) for s in range(n)]
    placed_threats: list[str] = []
    checks = 0
    rnd = g.round
    for _ in range(max_commands):
        if g.phase == "over":
            break
        if g.round != rnd:
            rnd, placed_threats = g.round, []
        seat = g.pending.seat
        cmd = bots[seat].choose(legal_commands(g, seat))
        vs = variants(g, placed_threats)
        ev = apply(g, cmd, check=False)
        for e in ev:
            if e.kind == "threats_placed":
                placed_threats = list(e.cards)
            if e.kind in PLACED:  # the owner's own placing: its events must not tell the real one
                real = _real(g, e.kind)
                for alt in e.cards:
                    for s in range(n):
                        if s != e.seat:
                            assert _norm(redact_events(ev, s)) == _norm(_swap(redact_events(ev, s), real, alt)), (
                                f"seat {s}'s events tell the real marker"
                            )
                            checks += 1
        for v, owner in vs:
            others = [s for s in range(n) if s != owner]
            if cmd.seat == owner:
                continue  # the owner's own decisions may depend on what he knows
            assert cmd in legal_commands(v, cmd.seat), f"{cmd} legal only with the real marker"
            vev = apply(v, cmd, check=False)
            for s in others:
                assert view_bytes(v, s) == view_bytes(g, s), f"seat {s}'s view depends on the hidden marker"
                assert redact_events(vev, s) == redact_events(ev, s), f"seat {s}'s events depend on the marker"
            checks += 1
        for v, owner in variants(g, placed_threats):
            for s in range(n):
                if s != owner:
                    assert view_bytes(v, s) == view_bytes(g, s), f"seat {s} sees the hidden marker"
                    checks += 1
    return checks


@pytest.mark.slow  # a sweep: 30 whole games (test_markers_are_checked_at_all plays 6 in the fast tier)
@settings(max_examples=examples(30), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 8), lineup=st.sampled_from([LINEUP, WITCH_LINEUP]))
def test_real_marker_never_leaks(seed: int, n: int, lineup: list[str]) -> None:
    play_and_check(seed, n, lineup=lineup)


def test_markers_are_checked_at_all() -> None:
    # The property is vacuous if no game ever places markers: make sure it does.
    assert sum(play_and_check(seed, 4) for seed in range(3)) > 100
    assert sum(play_and_check(seed, 5, lineup=WITCH_LINEUP) for seed in range(3)) > 100
