"""Determinization: from one seat's `View`, a full `GameState` consistent with it.

What the seat cannot see is sampled at random: the unseen district cards are
dealt to the other hands (keeping their sizes) and to the deck (keeping its
size); the characters it cannot see are dealt to the other players' hidden
slots and to the face-down discards (and to the pool being passed, during
selection), consistently with what the view shows:
- its own characters, the face-up discards, the revealed characters and (while
  it chooses) the pool passed to it are fixed;
- a hidden character of another player was not called yet (its rank is above
  the rank being called) unless it is the killed one (a killed character stays
  silent);
- each card in play rebuilds its own state from the view (its `sample` hook, in
  line-up order, then the deck's unique districts, then the variants): warrants
  and threats keep their public positions, the signed warrant and the flowered
  threat, when the view does not show them, being one of them at random
  (engine/roles/magistrate.py, blackmailer.py); the robbery, the bewitchment,
  the Plague, the Bell Tower's announcement, the Hospital's turn likewise.

Card state the view does not carry (a pending card's bookkeeping, turn counters)
starts empty: the hard bot treats a sampled world that fails as a failed sample.

Rule sets: the state's rule set is the view's (`View.rules`) with the view's
variants (`View.variants`: short games, the Plague), and ranks and costs are
those of its edition (`engine/cards/editions.py`: the Dark City Tax Collector
is rank 2, so he is not a hidden character once rank 2 has been called).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..cards.districts import BASE_DISTRICTS, base_deck
from ..decisions import Choice, Decision, GameOver, KeepCards, PickCharacter, PlayTurn, SelectCards
from ..hooks import ROLES, active_variants, unique_of
from ..rules import RULESETS, with_variants
from ..selection import plan_steps
from ..state import Built, GameState, Markers, Player, Selection, Turn
from ..view import View
from . import knowledge as K


def _unseen_cards(view: View, me: int, rng: random.Random) -> list[str]:
    full = Counter(base_deck() + list(view.uniques))
    known: Counter[str] = Counter(view.players[me].hand or [])
    for p in view.players:
        for b in p.city:
            known[b.name] += 1
            known.update(c for c in b.under if c)  # another seat's Museum cards show as "" (face down)
    if view.turn is not None and view.turn.seat == me:
        known.update(view.turn.drawn)
    pv = view.pending
    if pv is not None and pv.kind == "select_cards" and pv.seat == me:
        # cards offered from a source other than my hand (e.g. cards set aside for me) are seen too
        hand = Counter(view.players[me].hand or [])
        drawn = Counter(view.turn.drawn if view.turn is not None and view.turn.seat == me else [])
        extra = Counter(pv.options) - hand - drawn
        known.update(extra)
    unseen = list((full - known).elements())
    rng.shuffle(unseen)
    return unseen


def _deal_cards(
    view: View, me: int, rng: random.Random, spare: list[str] | None = None
) -> tuple[list[list[str]], list[str]]:
    """Deal the unseen cards; `spare` receives one card per face-down card under a Museum."""
    unseen = _unseen_cards(view, me, rng)
    hidden_under = sum(1 for p in view.players for b in p.city for c in b.under if not c)
    need = sum(p.hand_size for p in view.players if p.seat != me) + view.deck_size + hidden_under
    fillers = list(BASE_DISTRICTS)
    while len(unseen) < need:  # a deck the view cannot account for (another edition): pad plausibly
        unseen.append(rng.choice(fillers))
    hands = []
    for p in view.players:
        if p.seat == me:
            hands.append(list(p.hand or []))
        else:
            hands.append([unseen.pop() for _ in range(p.hand_size)])
    deck = unseen[: view.deck_size]
    if spare is not None:
        spare.extend(unseen[view.deck_size : view.deck_size + hidden_under])
    return hands, deck


Slot = tuple[int, int]  # (seat, index among its characters)


def _assign(
    slots: list[Slot], chars: list[str], allowed: Callable[[Slot, str], bool], rng: random.Random
) -> dict[Slot, str] | None:
    """Deal `chars` to `slots` at random, respecting allowed(slot, char). None if impossible."""
    for _ in range(30):
        pool = list(chars)
        rng.shuffle(pool)
        out = {}
        order = list(slots)
        rng.shuffle(order)
        ok = True
        for sl in order:
            for i, c in enumerate(pool):
                if allowed(sl, c):
                    out[sl] = pool.pop(i)
                    break
            else:
                ok = False
                break
        if ok:
            return out
    return None


def determinize(view: View, rng: random.Random) -> GameState:
    me = view.seat
    if me is None:
        raise ValueError("a spectator's view cannot be determinized for a seat")
    rules = with_variants(RULESETS[view.rules], getattr(view, "variants", None) or ())
    ranks = K.RANKS[rules.edition]
    under_cards: list[str] = []
    hands, deck = _deal_cards(view, me, rng, under_cards)
    mine = [c for c in view.players[me].characters if c]
    faceup = list(view.faceup)
    revealed_by: dict[str, int] = {}
    for p in view.players:
        for c in p.revealed:
            revealed_by[c] = p.seat
    selecting = view.phase == "selection"
    pool_known = list(view.pool) if selecting and view.pool else None
    hidden = [c for c in view.lineup if c not in faceup and c not in mine and c not in revealed_by]
    if pool_known is not None:
        for c in pool_known:
            if c in hidden:
                hidden.remove(c)
    slots = [(p.seat, i) for p in view.players if p.seat != me for i, c in enumerate(p.characters) if c is None]
    called_rank = ranks.get(view.called, 0) if (view.phase == "turns" and view.called) else 0
    killed = view.markers.killed

    def allowed(sl: Slot, c: str) -> bool:
        return selecting or ranks[c] > called_rank or c == killed

    dealt = _assign(slots, hidden, allowed, rng) if len(hidden) >= len(slots) else None
    if dealt is None:  # inconsistent or unexpected: ignore the call-order constraint
        dealt = _assign(slots, hidden, lambda sl, c: True, rng) if len(hidden) >= len(slots) else {}
        dealt = dealt or {}
    rest = [c for c in hidden if c not in dealt.values()]
    rng.shuffle(rest)

    players = []
    holders: dict[str, int] = {}
    for p in view.players:
        chars = []
        for i, shown in enumerate(p.characters):
            name = shown if shown is not None else dealt.get((p.seat, i))
            if name is not None:
                chars.append(name)
                holders[name] = p.seat
        players.append(
            Player(
                name=p.name,
                gold=p.gold,
                hand=hands[p.seat],
                city=[Built(b.name, b.beautified, [c or under_cards.pop() for c in b.under]) for b in p.city],
                characters=chars,
            )
        )

    sel = Selection(faceup=faceup)
    if selecting:
        if pool_known is not None:
            sel.pool = pool_known
        else:
            sel.pool = rest[: view.pool_size]
            rest = rest[view.pool_size :]
    sel.facedown = rest

    turn = None
    tv = view.turn
    if tv is not None:
        turn = Turn(
            seat=tv.seat,
            character=tv.character,
            gathered=tv.gathered,
            builds=tv.builds,
            limit=tv.limit,
            built=list(tv.built),
            used=list(tv.used),
            resumed=tv.resumed,
            paused=tv.paused,
            drawn=list(tv.drawn),
        )
        turn.build_gold = sum(K.dcost(b, rules.edition) for b in tv.built)
        if tv.seat == me and not tv.gathered and view.legal:
            kinds = {type(c).__name__ for c in view.legal}
            turn.gather_first = kinds <= {"TakeGold", "DrawCards"}
        if tv.drawn and tv.seat != me:  # another player's drawn cards: unseen, take them from the deck
            turn.drawn = [deck.pop() if deck else "Tavern" for _ in tv.drawn]

    g = GameState(
        rules=rules,
        lineup=list(view.lineup),
        uniques=list(view.uniques),
        players=players,
        deck=deck,
        crown=view.crown,
        rng=0,
        pending=GameOver(),
        round=view.round,
        phase=view.phase,
        selection=sel,
        turn=turn,
        holders=holders,
        revealed=dict(revealed_by),
        markers=Markers(killed=view.markers.killed),
        first_complete=view.first_complete,
        tax=view.tax,
        seq=view.seq,
    )
    # Each card rebuilds its own state from the view (the hidden parts drawn with `rng`).
    for c in view.lineup:
        if c in ROLES:
            ROLES[c].sample(view, g, rng)
    for u in dict.fromkeys(view.uniques):
        unique_of(u).sample(view, g, rng)
    for v in active_variants(g):
        v.sample(view, g, rng)
    g.rng = rng.getrandbits(64)
    g.called = (view.lineup.index(view.called) + 1) if (view.called and view.called in view.lineup) else 0
    g.pending = _pending(view, g)
    if selecting:
        sel.steps = _remaining_steps(g, view)
    if turn is not None and isinstance(g.pending, KeepCards):
        turn.keep = g.pending.keep
    return g


def _pending(view: View, g: GameState) -> Decision:
    pv = view.pending
    if pv is None:
        return GameOver()
    k = pv.kind
    if k == "pick_character":
        return PickCharacter(pv.seat, pv.mode or "pick")
    if k == "play_turn":
        return PlayTurn(pv.seat)
    if k == "keep_cards":
        return KeepCards(pv.seat, pv.min or 1)
    if k == "choice":
        return Choice(pv.seat, pv.about or "", list(pv.options))
    if k == "select_cards":
        me = view.seat
        hand = (view.players[me].hand if me is not None else None) or []
        drawn = view.turn.drawn if view.turn is not None else []
        opts = list(pv.options)
        if sorted(opts) == sorted(hand):
            source = "hand"
        elif drawn and sorted(opts) == sorted(drawn):
            source = "drawn"
        else:
            source = "offered"
        return SelectCards(
            pv.seat,
            purpose=pv.about or "",
            min=pv.min,
            max=pv.max,
            selected=list(pv.selected),
            source=source,
            offered=opts if source == "offered" else [],
        )
    return GameOver()


def _remaining_steps(g: GameState, view: View) -> list[list[Any]]:
    """The selection steps still to come, from the planned list and the picks made so far."""
    planned = plan_steps(g)
    picks = sum(len(p.characters) for p in g.players)
    pv = view.pending
    mode = (pv.mode or "pick") if pv is not None and pv.kind == "pick_character" else None
    deciding = pv.seat if pv is not None else -1
    seen = 0
    for i, (kind, seat) in enumerate(planned):
        if kind == "pick":
            if seen == picks and mode == "pick" and seat == deciding:
                return [list(s) for s in planned[i:]]
            seen += 1
        elif kind == "discard" and mode == "discard" and seen == picks and seat == deciding:
            return [list(s) for s in planned[i:]]
    # Not found (a procedure this module does not know): the picks still to come, in order.
    seen = 0
    for i, (kind, _seat) in enumerate(planned):
        if kind == "pick":
            if seen == picks:
                return [list(s) for s in planned[i:]]
            seen += 1
    return []
