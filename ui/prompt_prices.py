"""The gold a targeted rank-8 ability costs its user, from the view alone, by the engine's own rules.

A confirmation must say what the Warlord, the Marshal or the Diplomat will pay.
Legal commands name the target (player, district, which copy) but not the
price, and the engine's price rules read only public facts: the rule set (the
edition's printed costs) and the cities (beautified copies, a Great Wall). So
the view's cities are handed to those rules (`engine.city.value`,
`rank8_price`, `find_copy`, `engine.roles.warlord.destroy_price`) in a game
that holds only those (the compiled engine checks that it is handed a
`GameState`); the Marshal's and the Diplomat's sums are the two
lines of their modules. tests/ui/test_prompt_prices.py checks every price named
against the gold the engine really takes, over many random games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.city import find_copy, rank8_price, value
from engine.commands import Ability
from engine.decisions import GameOver
from engine.roles.warlord import destroy_price
from engine.rules import RULESETS
from engine.state import GameState, Player


def _public_game(view: Any) -> GameState:
    """What the price rules read from a game, taken from a view: the rule set and the players' cities."""
    return GameState(
        rules=RULESETS.get(view.rules) or RULESETS["2016"],
        lineup=[],
        uniques=[],
        players=[Player(p.name, city=p.city) for p in view.players],
        deck=[],
        crown=0,
        rng=0,
        pending=GameOver(),
    )


@dataclass(frozen=True)
class Price:
    total: int  # the gold the player pays
    to_owner: int  # the part of it that goes to the district's owner (the rest to the bank)


def ability_price(view: Any, cmd: Any) -> Price | None:
    """What `cmd` costs its user, for the abilities that pay for a district of another city; else None."""
    if not isinstance(cmd, Ability) or cmd.name not in ("Warlord", "Marshal", "Diplomat"):
        return None
    if cmd.player is None or not 0 <= cmd.player < len(view.players):
        return None
    g = _public_game(view)
    theirs = find_copy(g, cmd.player, cmd.district, cmd.option)
    if theirs is None:
        return None
    if cmd.name == "Warlord":
        return Price(destroy_price(g, cmd.player, theirs), 0)
    extra = rank8_price(g, cmd.player, theirs)
    if cmd.name == "Marshal":  # engine.roles.marshal._candidates: its cost to the owner, the extra to the bank
        cost = value(theirs)
        return Price(cost + extra, cost)
    if not 0 <= cmd.seat < len(view.players):
        return None
    mine = find_copy(g, cmd.seat, cmd.card, cmd.kind)
    if mine is None:
        return None
    diff = max(value(theirs, g) - value(mine, g), 0)  # engine.roles.diplomat._price
    return Price(diff + extra, diff)
