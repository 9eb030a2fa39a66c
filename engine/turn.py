"""A character's turn: gathering, income, abilities, building, ending it."""

from __future__ import annotations

from typing import Final

from . import build, caches, deck, flow
from .cards.editions import INCOME_TABLE
from .city import count_type
from .commands import Ability, Command, Income
from .events import Event
from .finals import DRAW_CARDS, END_TURN, EVENT, INCOME, KEEP_CARDS, TAKE_GOLD
from .hooks import ROLES, UNIQUES, card_of, role_of
from .state import GameState, Turn

GATHER_FIRST: Final = "Gather resources first: take 2 gold or draw cards."


_NO_INCOME: Final[tuple[str | None, str | None]] = (None, None)


def income_of(g: GameState, character: str) -> tuple[str | None, str | None]:
    """(district type, "gold" | "cards" | "mix") of a character's income in the edition in play."""
    return INCOME_TABLE[g.rules.edition].get(character, _NO_INCOME)


def income_count(g: GameState, t: Turn) -> int:
    kind = income_of(g, t.character)[0]
    return count_type(g, t.seat, kind) if kind else 0


def income_options(g: GameState, t: Turn, cc: caches.CityCache | None = None) -> list[Income]:
    income_type, income_kind = INCOME_TABLE[g.rules.edition].get(t.character, _NO_INCOME)  # income_of
    if income_type is None or "income" in t.used:
        return []
    n = count_type(g, t.seat, income_type, cc)
    if n == 0:
        return []
    if income_kind == "mix":  # the Abbot declares how many are gold, the rest cards
        return [INCOME(t.seat, gold=k) for k in range(n, -1, -1)]
    return [INCOME(t.seat)]


def take_income(g: GameState, t: Turn, cmd: Income, ev: list[Event]) -> None:
    income_kind = income_of(g, t.character)[1]
    n = income_count(g, t)
    t.used.append("income")
    gold = n if income_kind == "gold" else (cmd.gold or 0) if income_kind == "mix" else 0
    cards = n - gold
    p = g.players[t.seat]
    p.gold += gold
    got = deck.gain_cards(g, t.seat, cards) if cards else []
    ev.append(
        EVENT("income", seat=t.seat, character=t.character, gold=gold, count=len(got), cards=got, private=[t.seat])
    )


def abilities(g: GameState, t: Turn) -> list[Ability]:
    out = list(role_of(t.character).abilities(g, t))
    for u in caches.city(g, t.seat).abilities:
        out.extend(u.abilities(g, t))
    return out


def only_gathering(g: GameState, t: Turn) -> str | None:
    """Why the turn offers nothing but gathering now (None: it offers more). One home for the
    restrictions a card puts on a turn: `legal` and `apply.explain` both ask it."""
    if t.gather_only is not None:
        return card_of(t.gather_only).gather_only_why
    if t.gather_first and not t.gathered:
        return GATHER_FIRST
    return None


def district_effect_refusal(g: GameState, t: Turn, name: str) -> str | None:
    """Why a "once per turn, in your own turn" district effect (Laboratory, Smithy, Museum, Armory)
    may not be used now, or None: it is used once a turn, from the player's city, in a full turn
    (not the bewitched player's short turn nor the Witch's paused one: only gathering-time effects
    then). The districts' `abilities` and `apply.explain` both ask it."""
    if not any(b.name == name for b in g.players[t.seat].city):
        return f"You have no {name} in your city."
    if name in t.used:
        return f"You have already used the {name} this turn."
    if t.paused or t.gather_only is not None:
        return f"You cannot use the {name} now."
    return None


def legal(g: GameState, t: Turn) -> list[Command]:
    seat = t.seat
    gathered = t.gathered
    if gathered:
        out: list[Command] = []
    else:
        out = [TAKE_GOLD[seat], DRAW_CARDS[seat]] if g.deck else [TAKE_GOLD[seat]]
    if (t.gather_only is not None or t.gather_first) and only_gathering(g, t) is not None:
        return out
    role = ROLES.get(t.character) or role_of(t.character)  # role_of, without a call in the common case
    overridden = role.overridden  # ask a character only what its card changes
    if "abilities" in overridden:
        out.extend(role.abilities(g, t))
    if not t.paused:  # a paused turn (the Witch's) offers only the character's own ability: no district effects
        cc = caches.city(g, seat)
        for u in cc.abilities:
            out.extend(u.abilities(g, t))
        if "income" not in t.used:
            out.extend(income_options(g, t, cc))
        if gathered:  # build.turn_refusal: nothing is built before gathering
            out.extend(build.options(g, t, role, cc))
    if gathered and ("must" not in overridden or role.must(g, t) is None):
        out.append(END_TURN[seat])
    return out


def take_gold(g: GameState, t: Turn, ev: list[Event]) -> None:
    n = 2
    for u in caches.city(g, t.seat).gather:
        n += u.gather_gold(g, t.seat)
    g.players[t.seat].gold += n
    ev.append(EVENT("gathered_gold", seat=t.seat, gold=n))
    flow.finish_gather(g, t, ev)


def draw_cards(g: GameState, t: Turn, ev: list[Event]) -> None:
    n = 2
    keep_all = False
    keep_n = 1
    for u in caches.city(g, t.seat).gather:
        n = u.draw_count(g, t.seat, n)
        keep_all = keep_all or u.keep_all(g, t.seat)
        keep_n = u.keep_count(g, t.seat, keep_n)
    drawn = deck.draw(g, n)
    if keep_all or len(drawn) <= keep_n:
        g.players[t.seat].hand.extend(drawn)
        ev.append(EVENT("gathered_cards", seat=t.seat, count=len(drawn), cards=drawn, private=[t.seat]))
        flow.finish_gather(g, t, ev)
        return
    t.drawn = drawn
    t.keep = keep_n
    ev.append(EVENT("drew_cards", seat=t.seat, count=len(drawn), cards=list(drawn), private=[t.seat]))
    g.pending = KEEP_CARDS(t.seat, keep_n)


def keep(g: GameState, t: Turn, card: str, ev: list[Event]) -> None:
    t.drawn.remove(card)
    g.players[t.seat].hand.append(card)
    t.keep -= 1
    if t.keep > 0 and t.drawn:
        ev.append(EVENT("kept_card", seat=t.seat, card=card, count=1, private=[t.seat]))
        g.pending = KEEP_CARDS(t.seat, t.keep)
        return
    rest = t.drawn
    t.drawn = []
    deck.to_bottom(g, rest)
    ev.append(EVENT("kept_card", seat=t.seat, card=card, count=len(rest), private=[t.seat]))
    flow.finish_gather(g, t, ev)


def act(g: GameState, t: Turn, cmd: Ability, ev: list[Event]) -> None:
    u = UNIQUES.get(cmd.name)
    if u is not None:
        u.act(g, t, cmd, ev)
    else:
        (ROLES.get(t.character) or role_of(t.character)).act(g, t, cmd, ev)


def why_not_end(g: GameState, t: Turn) -> str | None:
    if not t.gathered:
        return GATHER_FIRST
    return role_of(t.character).must(g, t)
