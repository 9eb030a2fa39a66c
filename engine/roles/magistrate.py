"""Magistrate (rank 1): puts three warrants face down on three different characters;
only the signed one targets.

When the signed target pays to build a district in its turn, the Magistrate may
reveal the warrant: he takes that district into his own city for free (it never
enters the target's city but counts toward the target's build limit) and the
target gets back all the gold paid for it. Only the first district the target
pays for; districts built without paying (Framework, Necropolis: their
`build_is_paid` is False) do not count, so the next paid one can be taken. Not
if the Magistrate already has a district of that name. The Magistrate pays the
Tax Collector's tax on it (the district enters his city).

Placing: `Ability(Magistrate, character=<signed>)`, then two `Choice`s
"Magistrate.warrant" for the unsigned ones. The partial placement is the turn's
`WarrantDraft` (never in a view), so nobody sees which one came first.

Hiding the signed warrant: the reveal question ("Magistrate.reveal") is asked
after the first paid build of *every* warranted character, with options
["reveal", "pass"] for the signed one and ["pass"] for the others; only the
Magistrate sees the options. Engine decision: nothing is confiscated from the
Magistrate's own other character (2-3 players): he cannot confiscate from himself.

This module is the one home of the warrants: their state (`Warrants`), what a
view shows of them (`Warrants.show`) and what a bot re-samples (`Magistrate.sample`).

Events (kinds):
- `warrants_placed`: seat (the Magistrate), `cards` the three characters (public).
- `warrant_signed`: seat, `character` the signed one (private to the Magistrate).
- `warrant_revealed`: seat (Magistrate) reveals the signed warrant on `character` held by `player`,
  confiscates `district`; `gold` returned to the player (public).
- `warrant_passed`: seat (Magistrate) leaves the warrant on `player`'s `district` unrevealed (public).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from msgspec import field

from ..build import place
from ..cards.characters import RANK
from ..cardstate import RoundScoped, TurnScoped
from ..city import has
from ..commands import Ability
from ..decisions import Choice
from ..events import Event
from ..hooks import UNIQUES, Events, Role, choice, role
from ..state import Built, GameState, Turn, current_turn
from ._targets import nameable

if TYPE_CHECKING:
    from ..view import View

NAME = "Magistrate"
REVEAL = "Magistrate.reveal"
WARRANT = "Magistrate.warrant"


class Warrants(RoundScoped):
    """The warrants of this round: `characters` (public, in rank order), `signed` the real one
    (known to the seat that placed them until revealed), `owner` that seat (None: the Magistrate's
    holder; the Witch when she resumed as a bewitched Magistrate)."""

    characters: list[str]
    signed: str
    revealed: bool = False
    owner: int | None = None

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        v.markers.warrants = list(self.characters)
        if everything or self.revealed or (seat is not None and seat == owner(g)):
            v.markers.signed = self.signed


class WarrantDraft(TurnScoped):
    """Warrants being placed: the signed one first, then the unsigned ones."""

    placed: list[str] = field(default_factory=list)


class Confiscation(TurnScoped):
    """This turn's paid builds, and the gold paid for the district waiting under a warrant."""

    paid_builds: int = 0
    paid: int = 0


def warrants(g: GameState) -> Warrants | None:
    return Warrants.get(g)


def owner(g: GameState) -> int:
    """The seat that placed the warrants (-1: none)."""
    w = Warrants.get(g)
    if w is not None and w.owner is not None:
        return w.owner
    return g.holders.get(NAME, -1)


class Magistrate(Role):
    name = NAME

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        return [Ability(t.seat, self.name, character=c) for c in nameable(g, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.character is not None
        t.used.append(self.name)
        WarrantDraft(placed=[cmd.character]).put(t)
        _ask_warrant(g, cmd.seat, [cmd.character])

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if cmd.character == self.name:
            return "The Magistrate puts warrants on other characters."
        if cmd.character in g.selection.faceup:
            return f"The {cmd.character} was discarded face up."
        return None

    def intercept_build(self, g: GameState, t: Turn, district: str, paid: int, via: str | None, ev: Events) -> bool:
        if via is not None and via in UNIQUES and not UNIQUES[via].build_is_paid():
            return False  # built without paying: the next paid one may still be taken
        c = Confiscation.of(t)
        c.paid_builds += 1
        w = Warrants.get(g)
        if w is None or w.revealed or t.character not in w.characters or c.paid_builds != 1:
            return False
        o = owner(g)
        if o < 0 or o == t.seat or has(g, o, district):
            return False
        t.aside.append(district)
        c.paid = paid
        options = ["reveal", "pass"] if t.character == w.signed else ["pass"]
        g.pending = Choice(o, REVEAL, options)
        return True

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        m = view.markers
        if not m.warrants:
            return
        mine = [c for c in view.players[view.seat].characters if c] if view.seat is not None else []
        signed = m.signed if m.signed else rng.choice(m.warrants)
        revealed = bool(m.signed) and NAME not in mine
        w = Warrants(characters=list(m.warrants), signed=signed, revealed=revealed)
        if m.signed and not revealed:
            w.owner = view.seat  # the view shows the real one to the seat that placed them only
        else:
            placer = g.holders.get("Witch", -1) if m.bewitched == NAME else g.holders.get(NAME, -1)
            w.owner = placer if placer != view.seat else -1
        w.put(g)
        if g.turn is not None and view.turn is not None and view.turn.builds:
            Confiscation(paid_builds=view.turn.builds).put(g.turn)


role(Magistrate)


def _ask_warrant(g: GameState, seat: int, placed: list[str]) -> None:
    options = [c for c in nameable(g, NAME) if c not in placed]
    g.pending = Choice(seat, WARRANT, options)


@choice(WARRANT)
def choose_warrant(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    draft = WarrantDraft.of(t)
    if len(draft.placed) == 1:
        draft.placed.append(option)
        _ask_warrant(g, seat, draft.placed)
        return
    signed = draft.placed[0]
    chars = sorted([*draft.placed, option], key=lambda c: RANK[c])
    WarrantDraft.drop(t)
    Warrants(characters=chars, signed=signed, owner=seat).put(g)
    ev.append(Event("warrants_placed", seat=seat, cards=list(chars)))
    ev.append(Event("warrant_signed", seat=seat, character=signed, private=[seat]))


@choice(REVEAL)
def choose_reveal(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    district = t.aside.pop()
    c = Confiscation.of(t)
    paid, c.paid = c.paid, 0
    if option != "reveal":
        ev.append(Event("warrant_passed", seat=seat, player=t.seat, district=district))
        place(g, t.seat, Built(district), ev, paid=paid)
        return
    w = Warrants.get(g)
    assert w is not None
    w.revealed = True
    g.players[t.seat].gold += paid  # all the gold paid for it comes back
    t.build_gold -= paid  # it was not gold spent on a district (Alchemist)
    ev.append(Event("warrant_revealed", seat=seat, player=t.seat, character=w.signed, district=district, gold=paid))
    place(g, seat, Built(district), ev, paid=0, via=NAME)
