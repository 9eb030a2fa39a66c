"""Building districts: which builds are legal, paying, and placing in a city.

Cards change these rules through hooks: cost (Factory), limit exemptions
(Stables, Trader), duplicates (Quarry, Wizard), other ways to pay (Framework,
Necropolis, Thieves' Den, Cardinal) and what happens to a paid district
(Magistrate), and after a district enters a city (Tax Collector).
"""

from __future__ import annotations

from .cards.districts import DISTRICTS
from .city import complete_at, owned_uniques, printed_cost, size
from .commands import Build
from .events import Event
from .hooks import ROLES, UNIQUES, Unique, card_of, role_of
from .state import Built, GameState, Turn


def cost_for(g: GameState, seat: int, name: str, uniques: list[Unique] | None = None) -> int:
    """What `seat` pays to build `name` (`uniques`: the seat's unique districts, if known)."""
    cost = printed_cost(g, name)
    for u in owned_uniques(g, seat) if uniques is None else uniques:
        cost += u.cost_change(g, seat, name)
    return max(cost, 0)


def may_duplicate(g: GameState, t: Turn, uniques: list[Unique] | None = None) -> bool:
    if role_of(t.character).allows_duplicates(g, t):
        return True
    return any(u.allows_duplicates(g, t.seat) for u in (owned_uniques(g, t.seat) if uniques is None else uniques))


def exempt(g: GameState, t: Turn, name: str) -> bool:
    """True if building `name` does not count toward the build limit."""
    if role_of(t.character).exempt_from_limit(g, t, name):
        return True
    u = UNIQUES.get(name)
    return u is not None and u.exempt_from_limit(g, t)


CANNOT_NOW, DUPLICATE, LIMIT = "cannot now", "duplicate", "limit"  # district_refusal's codes


def turn_refusal(g: GameState, t: Turn) -> str | None:
    """Why nothing can be built in this turn now, or None. One home for it: `options` (the
    legal builds) and `why_not` (the sentence for a refused build) both ask it."""
    if not t.gathered:
        return "Gather resources first: take 2 gold or draw cards."
    if t.gather_only is not None:
        return card_of(t.gather_only).gather_only_why
    role = role_of(t.character)
    if t.paused:
        return role.paused_why or "Your turn is paused."
    if not role.can_build:
        return f"The {t.character} cannot build this turn."
    return None


def district_refusal(
    g: GameState, t: Turn, name: str, in_city: set[str], uniques: list[Unique], dup_ok: list[bool]
) -> str | None:
    """Why `name`, a card in the hand, cannot be built now whatever the payment: a short code
    (`why_not` words it), or None. `in_city`: the names in the builder's city; `dup_ok` caches
    may_duplicate (empty: not known yet)."""
    u = UNIQUES.get(name)
    if u is not None and not u.can_build(g, t.seat):
        return CANNOT_NOW
    if name in in_city:
        if not dup_ok:
            dup_ok.append(may_duplicate(g, t, uniques))
        if not dup_ok[0]:
            return DUPLICATE
    if t.builds >= t.limit and not exempt(g, t, name):
        return LIMIT
    return None


def why_not(g: GameState, t: Turn, name: str) -> str | None:
    """Why `name` cannot be built at all now (before any payment), or None."""
    reason = turn_refusal(g, t)
    if reason is not None:
        return reason
    label = DISTRICTS[name].name if name in DISTRICTS else name
    if name not in g.players[t.seat].hand:
        return f"You have no {label} in your hand."
    city = {b.name for b in g.players[t.seat].city}
    code = district_refusal(g, t, name, city, owned_uniques(g, t.seat), [])
    if code == CANNOT_NOW:
        return f"The {label} cannot be built now."
    if code == DUPLICATE:
        return f"Your city already has a {label}."
    if code == LIMIT:
        return f"You have reached your build limit ({t.limit}) this turn."
    return None


def options(g: GameState, t: Turn) -> list[Build]:
    if turn_refusal(g, t) is not None:
        return []
    seat = t.seat
    p = g.players[seat]
    out: list[Build] = []
    role = role_of(t.character)
    uniques_here = owned_uniques(g, seat)
    in_city = {b.name for b in p.city}
    dup_ok: list[bool] = []
    for name in dict.fromkeys(p.hand):
        if district_refusal(g, t, name, in_city, uniques_here, dup_ok) is not None:
            continue
        u = UNIQUES.get(name)
        cost = cost_for(g, seat, name, uniques_here)
        if p.gold >= cost:
            out.append(Build(seat, name))
        for v in uniques_here:
            out.extend(v.build_options(g, t, name, cost, True))
        if u is not None:
            out.extend(u.build_options(g, t, name, cost, False))
        out.extend(role.build_options(g, t, name, cost))
    return out


def do_build(g: GameState, cmd: Build, ev: list[Event]) -> None:
    t = g.turn
    assert t is not None
    p = g.players[t.seat]
    cost = cost_for(g, t.seat, cmd.district)
    if cmd.via is None:
        p.gold -= cost
        paid: int | None = cost
    elif cmd.via in UNIQUES:
        paid = UNIQUES[cmd.via].pay(g, t, cmd, cost, ev)
    else:
        paid = role_of(cmd.via).pay(g, t, cmd, cost, ev)
    if paid is None:
        return  # the card waits for a further decision and finishes the build itself
    finish_build(g, t, cmd.district, paid, cmd.via, ev)


def finish_build(g: GameState, t: Turn, name: str, paid: int, via: str | None, ev: list[Event]) -> None:
    """The district is paid for: it leaves the hand and, unless intercepted, enters the city."""
    p = g.players[t.seat]
    p.hand.remove(name)
    if not exempt(g, t, name):
        t.builds += 1
    t.built.append(name)
    t.build_gold += paid
    for r in [ROLES[c] for c in g.lineup if c in ROLES]:
        if r.intercept_build(g, t, name, paid, via, ev):
            return
    place(g, t.seat, Built(name), ev, paid=paid, via=via)
    u = UNIQUES.get(name)
    if u is not None and g.rules.edition != "2016":
        u.on_built(g, t.seat, ev)  # older districts acting when built (Lighthouse, Bell Tower)


def place(
    g: GameState, seat: int, b: Built, ev: list[Event], paid: int = 0, via: str | None = None, taxed: bool = True
) -> None:
    """A district enters `seat`'s city."""
    g.players[seat].city.append(b)
    ev.append(Event("built", seat=seat, district=b.name, gold=paid, option=via))
    if taxed:
        for c in g.lineup:
            r = ROLES.get(c)
            if r is not None:
                r.after_build(g, seat, b.name, ev)
    check_complete(g, seat, ev)


def check_complete(g: GameState, seat: int, ev: list[Event]) -> None:
    if g.first_complete is None and size(g, seat) >= complete_at(g):
        g.first_complete = seat
        ev.append(Event("city_completed", seat=seat, option="first"))


def remove_built(g: GameState, seat: int, b: Built) -> Built:
    """Take this very district (not another copy of it) out of a city."""
    city = g.players[seat].city
    for i, x in enumerate(city):
        if x is b:
            city.pop(i)
            if b.name in UNIQUES:
                UNIQUES[b.name].on_removed(g, seat)
            return b
    raise KeyError(b.name)


def remove_district(g: GameState, seat: int, name: str) -> Built:
    """Take a district out of a city (for destruction, exchange, seizure)."""
    city = g.players[seat].city
    for i, b in enumerate(city):
        if b.name == name:
            city.pop(i)
            if name in UNIQUES:
                UNIQUES[name].on_removed(g, seat)
            return b
    raise KeyError(name)
