"""The screen of one seat never renders a card that only another seat's hand holds.

The test reads the true game state (the UI never does) to find the district
names that are, at this moment, only in other players' hands: not in your hand
or your drawn cards, not in any city, and never named in an event you were
shown. None of them may appear anywhere on your screen. Names that the UI
uses as ordinary words ("Keep" in "Keep the Manor", "the Keep" in a rule text)
are left out, since their presence proves nothing. As a control, your own hand
must be visible on the same screens, so the check is not vacuous.
"""

from __future__ import annotations

import re

import pytest
from ui_helpers import make_app, play_by_keys, screen_text

from ui.i18n import Catalogue, _load


def _word(name: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


def _vocabulary(lang: str) -> str:
    """Every sentence of the catalogue: words the UI shows whatever the cards."""
    return "\n".join(v if isinstance(v, str) else "\n".join(v) for v in _load(lang).values())  # each plural form


@pytest.mark.parametrize(
    "lang,seed,players",
    # whole games (slow); tests/server/test_game_seats.py checks a spectator's screen the same way (slow too),
    # test_replay.py a seat's replay in the fast tier
    [pytest.param("en", 21, 5, marks=pytest.mark.slow), pytest.param("es", 34, 4, marks=pytest.mark.slow)],
)
async def test_other_hands_never_rendered(lang, seed, players):
    app, table = make_app(players=players, seed=seed, lang=lang)
    cat = Catalogue(lang)
    vocab = _vocabulary(lang)
    me = table.human
    stats = {"checks": 0, "forbidden": 0, "own_seen": 0}

    def check() -> None:
        g = table.state
        text = screen_text(app)
        mine = set(g.players[me].hand)
        if g.turn is not None and g.turn.seat == me:
            mine |= set(g.turn.drawn)
        public = {b.name for p in g.players for b in p.city}
        for ev in app._events:  # exactly what this seat was told (redacted by the engine)
            public |= {c for c in (ev.district, ev.card, *ev.cards) if c}
        others = {c for s, p in enumerate(g.players) if s != me for c in p.hand}
        forbidden = {cat.district(c) for c in others - mine - public}
        forbidden = {n for n in forbidden if not _word(n).search(vocab)}
        leaked = sorted(n for n in forbidden if _word(n).search(text))
        assert not leaked, f"another seat's cards on screen: {leaked}\n{text}"
        stats["checks"] += 1
        stats["forbidden"] += len(forbidden)
        hand = g.players[me].hand
        if hand and len(hand) <= 8:
            assert all(_word(cat.district(c)).search(text) for c in hand), f"own hand not shown:\n{text}"
            stats["own_seen"] += 1

    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        await play_by_keys(app, table, pilot, seed=seed, before_key=check)
        check()
    assert stats["checks"] > 30
    assert stats["forbidden"] > 100  # there were hidden cards to leak, many times
    assert stats["own_seen"] > 10
