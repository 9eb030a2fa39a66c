"""What the bots do with the cards in play: a score for each ability, the cost of
building another way, and answers to small decisions (Choice) and card
selections (SelectCards). One entry per card, like `knowledge.py` (what the
cards are worth); cards without an entry get a generic treatment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..cards.characters import CHARACTERS
from ..cards.districts import TYPES
from ..commands import Ability, Build
from .knowledge import PICK_VALUE, dtype, generic_pick

if TYPE_CHECKING:
    from .ctx import Ctx

AbilityScore = Callable[[Ability, "Ctx"], float]  # fn(cmd, ctx) -> points
ChoiceFn = Callable[[list[str], "Ctx"], str]  # fn(options, ctx) -> the option
SelectFn = Callable[["Ctx", list[str], int, int], list[str]]  # fn(ctx, options, min, max) -> the cards


# --- turn abilities: fn(cmd, ctx) -> score; see the tiers in normal.py ----------------------------
# Tiers: > 60 used before gathering; 30-60 between gathering and building; builds are 30 + value;
# 5-30 after building; <= 0 never (EndTurn is 0).

PRE, MID, POST, NEVER = 70.0, 45.0, 8.0, -100.0


def _ab_assassin(cmd: Ability, ctx: Ctx) -> float:
    return PRE + ctx.character_harm(cmd.character, kind="kill")


def _ab_thief(cmd: Ability, ctx: Ctx) -> float:
    return PRE + ctx.character_harm(cmd.character, kind="rob")


def _ab_magician(cmd: Ability, ctx: Ctx) -> float:
    hand = len(ctx.hand)
    if cmd.option == "swap" and cmd.player is not None:
        theirs = ctx.players[cmd.player].hand_size
        gain = theirs - hand - 0.5 * sum(1 for c in ctx.hand if ctx.buildable(c) and ctx.affordable_now(c))
        return PRE + gain + 0.3 * ctx.leader_weight(cmd.player) if gain >= 2 else NEVER
    if cmd.option == "redraw":
        useless = sum(1 for c in ctx.hand if ctx.card_worth(c) < 2.5)
        return PRE - 2 + useless if useless else NEVER
    return PRE - 5


def _ab_merchant(cmd: Ability, ctx: Ctx) -> float:
    return PRE + 1


def _ab_architect(cmd: Ability, ctx: Ctx) -> float:
    return PRE + 1


def _ab_warlord(cmd: Ability, ctx: Ctx) -> float:
    s, d = cmd.player, cmd.district
    if s is None or d is None or s == ctx.me:
        return NEVER
    wall = "Great Wall" in {b.name for b in ctx.players[s].city} and d != "Great Wall"
    price = max(ctx.cost(d) - 1, 0) + (1 if wall else 0)
    if price > ctx.gold:
        return NEVER
    harm = (ctx.cost(d) + 1.5) * ctx.leader_weight(s) * (0.6 + 0.4 * ctx.style.aggression)
    score = harm - 1.1 * price - (1.5 if ctx.gold - price < 1 else 0)
    return POST + score if score > 0.8 else NEVER


def _target_player_leader(cmd: Ability, ctx: Ctx, base: float) -> float:
    if cmd.player is not None:
        return base + ctx.leader_weight(cmd.player)
    return base


def _ab_generic_character(cmd: Ability, ctx: Ctx, base: float) -> float:
    return base + (ctx.character_harm(cmd.character, kind="kill") if cmd.character else 0.0)


def _ab_laboratory(cmd: Ability, ctx: Ctx) -> float:
    if cmd.card is not None:
        w = ctx.card_worth(cmd.card)
        return MID + 2 - w if w < 2.0 else NEVER
    return MID if any(ctx.card_worth(c) < 2.0 for c in ctx.hand) else NEVER


def _ab_smithy(cmd: Ability, ctx: Ctx) -> float:
    return POST + 2 if ctx.gold >= 4 and ctx.rounds_left > 1 else NEVER


def _ab_museum(cmd: Ability, ctx: Ctx) -> float:
    if cmd.card is not None:
        return POST + 1 - ctx.card_worth(cmd.card) * 0.3 if ctx.card_worth(cmd.card) < 3 else NEVER
    return POST


def _ab_armory(cmd: Ability, ctx: Ctx) -> float:
    if cmd.player is None or cmd.player == ctx.me or cmd.district is None:
        return NEVER
    gain = (ctx.cost(cmd.district) + 1.5) * ctx.leader_weight(cmd.player) - 3 - 1.5
    return POST + gain if gain > 1 else NEVER


def _ab_emperor(cmd: Ability, ctx: Ctx) -> float:
    # gives the crown to someone: prefer the weakest other player; take gold unless short of cards
    base = MID + 2
    if cmd.player is not None:
        base -= ctx.leader_weight(cmd.player)
    opt = cmd.option or cmd.kind or ""
    if opt == "card":
        base += 0.5 if len(ctx.hand) < 2 else -0.3
    elif opt == "nothing":
        base -= 1.0
    return base


def _ab_navigator(cmd: Ability, ctx: Ctx) -> float:
    want_gold = ctx.needs_gold or len(ctx.hand) >= 3
    k = cmd.kind or cmd.option or ""
    if "gold" in k:
        return PRE + (2 if want_gold else 0)
    if "card" in k:
        return PRE + (0 if want_gold else 2)
    return PRE


def _ab_spy(cmd: Ability, ctx: Ctx) -> float:
    base = PRE
    if cmd.player is not None:
        base += 0.3 * ctx.players[cmd.player].hand_size + 0.3 * ctx.leader_weight(cmd.player)
    if cmd.kind:
        base += 0.2 * ctx.rng_jitter(cmd.kind)
    return base


def _ab_take_from_hand(cmd: Ability, ctx: Ctx) -> float:  # Wizard, Seer, ...
    base = PRE
    if cmd.player is not None:
        base += 0.4 * ctx.players[cmd.player].hand_size + 0.2 * ctx.leader_weight(cmd.player)
    return base


def _ab_marshal(cmd: Ability, ctx: Ctx) -> float:
    s, d = cmd.player, cmd.district
    if s is None or d is None or s == ctx.me:
        return NEVER
    price = ctx.cost(d)
    if price > ctx.gold:
        return NEVER
    gain = ctx.cost(d) + 1.0 + (ctx.cost(d) + 1) * 0.5 * ctx.leader_weight(s) - 1.0 * price
    return POST + gain if gain > 0.8 else NEVER


def _ab_diplomat(cmd: Ability, ctx: Ctx) -> float:
    # Ability(player=other, district=theirs, card=my own district given in exchange)
    s, theirs, mine = cmd.player, cmd.district, cmd.card
    if s is None or theirs is None or mine is None or s == ctx.me:
        return NEVER
    gain = ctx.cost(theirs) - ctx.cost(mine)
    pay = max(gain, 0) + (1 if "Great Wall" in {b.name for b in ctx.players[s].city} else 0)
    score = gain * (1 + 0.4 * ctx.leader_weight(s)) - pay + (0.8 if dtype(theirs) not in ctx.my_types else 0.0)
    return POST + score if score > 0.5 and pay <= ctx.gold else NEVER


def _ab_artist(cmd: Ability, ctx: Ctx) -> float:
    # beautify one of my districts: 1 gold for 1 point, for good
    cheapest = min((ctx.cost(c) for c in ctx.hand if ctx.buildable(c)), default=0)
    spare = ctx.gold - (cheapest if ctx.rounds_left > 1 else 0)
    return POST + 1 if spare >= 1 else NEVER


ABILITY_SCORE: dict[str, AbilityScore] = {
    "Assassin": _ab_assassin,
    "Thief": _ab_thief,
    "Magician": _ab_magician,
    "Merchant": _ab_merchant,
    "Architect": _ab_architect,
    "Warlord": _ab_warlord,
    "Witch": lambda cmd, ctx: _ab_generic_character(cmd, ctx, MID),
    "Blackmailer": lambda cmd, ctx: PRE + ctx.character_harm(cmd.character, kind="rob") if cmd.character else PRE,
    "Magistrate": lambda cmd, ctx: _ab_generic_character(cmd, ctx, PRE),
    "Spy": _ab_spy,
    "Wizard": _ab_take_from_hand,
    "Seer": _ab_take_from_hand,
    "Emperor": _ab_emperor,
    "Navigator": _ab_navigator,
    "Scholar": lambda cmd, ctx: PRE,
    "Marshal": _ab_marshal,
    "Diplomat": _ab_diplomat,
    "Artist": _ab_artist,
    "Tax Collector": lambda cmd, ctx: PRE,
    "Queen": lambda cmd, ctx: PRE,
    "Abbot": lambda cmd, ctx: MID + 1,
    "Alchemist": lambda cmd, ctx: POST,
    "Laboratory": _ab_laboratory,
    "Smithy": _ab_smithy,
    "Museum": _ab_museum,
    "Armory": _ab_armory,
}


def generic_ability(cmd: Ability, ctx: Ctx) -> float:
    """An ability the bots have no entry for: use it, aimed at the leader if it names a target."""
    score = MID if cmd.name in CHARACTERS else POST
    if cmd.player is not None:
        score += (0.5 if cmd.player != ctx.me else -1.0) * ctx.leader_weight(cmd.player)
    if cmd.character is not None:
        score += 0.3 * ctx.character_harm(cmd.character, kind="kill")
    if cmd.district is not None and cmd.player is not None and cmd.player != ctx.me:
        score += 0.1 * ctx.cost(cmd.district)
    return score


def ability_score(cmd: Ability, ctx: Ctx) -> float:
    f = ABILITY_SCORE.get(cmd.name)
    return f(cmd, ctx) if f is not None else generic_ability(cmd, ctx)


# Other ways to pay for a build (Build.via): the points lost by paying that way.
def _via_necropolis(cmd: Build, ctx: Ctx) -> float:
    return ctx.cost(cmd.using) + 1.0 if cmd.using else 4.0


VIA_COST: dict[str, Callable[[Build, Ctx], float]] = {
    "Framework": lambda cmd, ctx: 3.0 + 1.0,
    "Necropolis": _via_necropolis,
    "Thieves' Den": lambda cmd, ctx: 0.5,
    "Cardinal": lambda cmd, ctx: 1.0,
}


def via_cost(cmd: Build, ctx: Ctx) -> float:
    if cmd.via is None:
        return 0.0
    f = VIA_COST.get(cmd.via)
    return f(cmd, ctx) if f is not None else 1.5


# --- small decisions: Choice(about) and SelectCards(purpose) -------------------------------------
# choice fn(options, ctx) -> option ; select fn(ctx) -> the cards to select (from the options)


def _choice_bribe(options: list[str], ctx: Ctx) -> str:
    # Refusing loses all my gold half the time (one threat in two is real): bribing with half costs less.
    return "bribe" if "bribe" in options and ctx.gold >= 1 else options[-1]


def _reveal_if(marker: str) -> ChoiceFn:
    def f(options: list[str], ctx: Ctx) -> str:
        real = getattr(ctx.v.markers, marker)
        target = ctx.v.turn.character if ctx.v.turn is not None else None
        if "reveal" in options and (real is None or real == target):
            return "reveal"
        return "pass" if "pass" in options else options[0]

    return f


def _choice_name_character(kind: str) -> ChoiceFn:
    def f(options: list[str], ctx: Ctx) -> str:
        return max(options, key=lambda c: ctx.character_harm(c, kind=kind) if c in CHARACTERS else -99)

    return f


def _choice_best_card(options: list[str], ctx: Ctx) -> str:
    return max(options, key=ctx.card_worth)


def _choice_wizard_use(options: list[str], ctx: Ctx) -> str:
    return "build" if "build" in options else options[0]


def _choice_reveal(options: list[str], ctx: Ctx) -> str:
    yes = [o for o in options if "reveal" in o or o == "yes"]
    return yes[0] if yes else options[0]


CHOICE: dict[str, ChoiceFn] = {
    "Blackmailer.bribe": _choice_bribe,
    "Blackmailer.reveal": _reveal_if("flowered"),
    "Magistrate.reveal": _reveal_if("signed"),
    "Blackmailer.threat": _choice_name_character("rob"),
    "Magistrate.warrant": _choice_name_character("rob"),
    "Wizard.take": _choice_best_card,
    "Wizard.use": _choice_wizard_use,
    "Theater": lambda options, ctx: _choice_theater(options, ctx),
}


def _choice_theater(options: list[str], ctx: Ctx) -> str:
    """Swap (blind) when my character is weak, preferably with the leader; else pass."""
    mine = [c for c in ctx.my_chars()]
    best, best_v = "pass", 0.8
    for o in options:
        if o == "pass":
            continue
        seat_s, _, give = o.partition(":")
        try:
            s = int(seat_s)
        except ValueError:
            continue
        given = give or (mine[0] if mine else None)
        if given is None or s == ctx.me or not 0 <= s < ctx.n:
            continue
        f = PICK_VALUE.get(given)
        my_v = f(ctx) if f is not None else generic_pick(ctx, given)
        v = 2.5 - my_v + 0.3 * ctx.leader_weight(s)
        if v > best_v:
            best, best_v = o, v
    return best if best in options else options[0]


CHOICE_KEYWORDS: list[tuple[str, ChoiceFn]] = [
    ("bribe", _choice_bribe),
    ("reveal", _choice_reveal),
    ("confiscat", _choice_reveal),
]


def choose_option(about: str, options: list[str], ctx: Ctx) -> str:
    f = CHOICE.get(about)
    if f is None:
        for key, fn in CHOICE_KEYWORDS:
            if key in about.lower():
                f = fn
                break
    if f is not None:
        try:
            got = f(options, ctx)
            if got in options:
                return got
        except Exception:  # a handler that does not fit this card's options: fall back
            pass
    # Generic: an option that names a district type we lack or a resource we need, else the first.
    for o in options:
        if o in TYPES and o not in ctx.my_types:
            return o
    for o in options:
        if o == "gold" and ctx.needs_gold:
            return o
    return options[0]


def _select_magician(ctx: Ctx, options: list[str], lo: int, hi: int) -> list[str]:
    return [c for c in options if ctx.card_worth(c) < 2.5][:hi]


def _select_keep_best(ctx: Ctx, options: list[str], lo: int, hi: int) -> list[str]:
    return sorted(options, key=ctx.card_worth, reverse=True)[: max(lo, 1) if hi else 0]


SELECT: dict[str, SelectFn] = {"Magician": _select_magician, "Scholar": _select_keep_best}


def select_cards(purpose: str, ctx: Ctx, options: list[str], lo: int, hi: int) -> list[str]:
    """Which cards to end up selecting. Generic: as few as allowed, least valuable first (giving or
    discarding is the usual reason to select); `keep`-like purposes keep the best."""
    f = SELECT.get(purpose)
    if f is not None:
        try:
            return list(f(ctx, options, lo, hi))
        except Exception:
            pass
    if "keep" in purpose.lower():
        return sorted(options, key=ctx.card_worth, reverse=True)[: max(lo, 1)]
    return sorted(options, key=ctx.card_worth)[:lo]
