"""Building districts: which builds are legal, paying, and placing in a city.

Cards change these rules through hooks: cost (Factory), limit exemptions
(Stables, Trader), duplicates (Quarry, Wizard), other ways to pay (Framework,
Necropolis, Thieves' Den, Cardinal) and what happens to a paid district
(Magistrate), and after a district enters a city (Tax Collector).
"""

from __future__ import annotations

from . import caches
from .cards.districts import DISTRICTS
from .cards.editions import COST_TABLE
from .city import complete_at, size
from .commands import Build
from .distinct import distinct, none_in
from .events import Event
from .finals import BUILD, BUILT, EVENT
from .hooks import ROLES, UNIQUES, Role, Unique, card_of, role_of
from .state import Built, GameState, Turn


def cost_for(g: GameState, seat: int, name: str, uniques: list[Unique] | None = None) -> int:
    """What `seat` pays to build `name` (`uniques`: the seat's unique districts that change a cost, if known)."""
    cost = COST_TABLE[g.rules.edition][name]
    for u in caches.city(g, seat).cost_change if uniques is None else uniques:
        cost += u.cost_change(g, seat, name)
    return max(cost, 0)


def may_duplicate(g: GameState, t: Turn, uniques: list[Unique] | None = None) -> bool:
    role = ROLES.get(t.character) or role_of(t.character)
    if "allows_duplicates" in role.overridden and role.allows_duplicates(g, t):
        return True
    return any(u.allows_duplicates(g, t.seat) for u in (caches.city(g, t.seat).dup if uniques is None else uniques))


def exempt(g: GameState, t: Turn, name: str) -> bool:
    """True if building `name` does not count toward the build limit."""
    role = ROLES.get(t.character) or role_of(t.character)
    if "exempt_from_limit" in role.overridden and role.exempt_from_limit(g, t, name):
        return True
    u = UNIQUES.get(name)
    return u is not None and "exempt_from_limit" in u.overridden and u.exempt_from_limit(g, t)


CANNOT_NOW, DUPLICATE, LIMIT = "cannot now", "duplicate", "limit"  # district_refusals' codes


def turn_refusal(g: GameState, t: Turn, role: Role | None = None) -> str | None:
    """Why nothing can be built in this turn now, or None. One home for it: `options` (the
    legal builds) and `why_not` (the sentence for a refused build) both ask it. `role`: the
    turn's character's rules, when the caller has them."""
    if not t.gathered:
        return "Gather resources first: take 2 gold or draw cards."
    if t.gather_only is not None:
        return card_of(t.gather_only).gather_only_why
    if role is None:
        role = role_of(t.character)
    if t.paused:
        return role.paused_why or "Your turn is paused."
    if not role.can_build:
        return f"The {t.character} cannot build this turn."
    return None


def district_refusals(
    g: GameState, t: Turn, names: list[str], cc: caches.CityCache, role: Role | None = None
) -> list[str | None]:
    """Why each of `names` (cards in the hand, no two alike) cannot be built now whatever the
    payment: a short code (`why_not` words it) or None, in order. One home for these checks:
    `options` (the legal builds) and `why_not` both ask it. `cc`: the builder's city."""
    seat = t.seat
    in_city = cc.names
    full = t.builds >= t.limit
    if not full and none_in(names, in_city, caches.uniques_overriding("can_build")):
        return [None] * len(names)  # the common case, at C speed: none of the checks below refuses
    out: list[str | None] = []
    dup_ok: bool | None = None
    if role is None:
        role = role_of(t.character)
    role_exempt = "exempt_from_limit" in role.overridden
    for name in names:
        u = UNIQUES.get(name)
        if u is not None and "can_build" in u.overridden and not u.can_build(g, seat):
            out.append(CANNOT_NOW)
            continue
        if name in in_city:
            if dup_ok is None:
                dup_ok = may_duplicate(g, t, cc.dup)
            if not dup_ok:
                out.append(DUPLICATE)
                continue
        if (
            full
            and not (role_exempt and role.exempt_from_limit(g, t, name))
            and not (u is not None and u.exempt_from_limit(g, t))
        ):
            out.append(LIMIT)
            continue
        out.append(None)
    return out


def why_not(g: GameState, t: Turn, name: str) -> str | None:
    """Why `name` cannot be built at all now (before any payment), or None."""
    reason = turn_refusal(g, t)
    if reason is not None:
        return reason
    label = DISTRICTS[name].name if name in DISTRICTS else name
    if name not in g.players[t.seat].hand:
        return f"You have no {label} in your hand."
    code = district_refusals(g, t, [name], caches.city(g, t.seat))[0]
    if code == CANNOT_NOW:
        return f"The {label} cannot be built now."
    if code == DUPLICATE:
        return f"Your city already has a {label}."
    if code == LIMIT:
        return f"You have reached your build limit ({t.limit}) this turn."
    return None


def options(g: GameState, t: Turn, role: Role | None = None, cc: caches.CityCache | None = None) -> list[Build]:
    """The legal builds, card by card in hand order: paying gold, then the other ways (the city's
    cards, the card itself, the character), asking only the cards that change a rule (caches.py).
    `role`, `cc`: the turn's character's rules and the builder's city, when the caller has them."""
    if role is None:
        role = role_of(t.character)
    if turn_refusal(g, t, role) is not None:
        return []
    seat = t.seat
    p = g.players[seat]
    if not p.hand:
        return []
    out: list[Build] = []
    if cc is None:
        cc = caches.city(g, seat)
    if t.builds >= t.limit and "exempt_from_limit" not in role.overridden:
        # at the build limit only a district exempt from it may be built (district_refusals' last check)
        exempt_ones = caches.limit_exempt()
        if exempt_ones.isdisjoint(p.hand):
            return out
        names = [n for n in distinct(p.hand) if n in exempt_ones]
    else:
        names = distinct(p.hand)
    cost_changes = cc.cost_change
    costs = COST_TABLE[g.rules.edition]
    via_city = cc.build_options
    role_ways = "build_options" in role.overridden
    own_ways = caches.uniques_overriding("build_options")  # cards built their own way (Necropolis...)
    gold = p.gold
    for name, refused in zip(names, district_refusals(g, t, names, cc, role)):
        if refused is not None:
            continue
        # the printed cost when no district of the city changes costs (else cost_for, the rule)
        cost = cost_for(g, seat, name, cost_changes) if cost_changes else costs[name]
        if gold >= cost:
            out.append(BUILD(seat, name))
        for v in via_city:
            out.extend(v.build_options(g, t, name, cost, True))
        if name in own_ways:
            out.extend(UNIQUES[name].build_options(g, t, name, cost, False))
        if role_ways:
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
    for r in caches.lineup(g).intercept_build:
        if r.intercept_build(g, t, name, paid, via, ev):
            return
    place(g, t.seat, BUILT(name), ev, paid=paid, via=via)
    u = UNIQUES.get(name)
    if u is not None and g.rules.edition != "2016":
        u.on_built(g, t.seat, ev)  # older districts acting when built (Lighthouse, Bell Tower)


def place(
    g: GameState, seat: int, b: Built, ev: list[Event], paid: int = 0, via: str | None = None, taxed: bool = True
) -> None:
    """A district enters `seat`'s city."""
    caches.add_district(g, seat, b)
    ev.append(EVENT("built", seat=seat, district=b.name, gold=paid, option=via))
    if taxed:
        for r in caches.lineup(g).after_build:
            r.after_build(g, seat, b.name, ev)
    check_complete(g, seat, ev)


def check_complete(g: GameState, seat: int, ev: list[Event]) -> None:
    if g.first_complete is None and size(g, seat) >= complete_at(g):
        g.first_complete = seat
        ev.append(EVENT("city_completed", seat=seat, option="first"))


def remove_built(g: GameState, seat: int, b: Built) -> Built:
    """Take this very district (not another copy of it) out of a city."""
    city = g.players[seat].city
    for i, x in enumerate(city):
        if x is b:
            city.pop(i)
            caches.city_changed(g.players[seat])
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
            caches.city_changed(g.players[seat])
            if name in UNIQUES:
                UNIQUES[name].on_removed(g, seat)
            return b
    raise KeyError(name)
