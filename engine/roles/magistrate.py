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
"Magistrate.warrant" for the unsigned ones. The partial placement is kept in
the turn's `extra` (never in a view), so nobody sees which one came first.

Hiding the signed warrant: the reveal question ("Magistrate.reveal") is asked
after the first paid build of *every* warranted character, with options
["reveal", "pass"] for the signed one and ["pass"] for the others; only the
Magistrate sees the options. Engine decision: nothing is confiscated from the
Magistrate's own other character (2-3 players): he cannot confiscate from himself.

Events (kinds):
- `warrants_placed`: seat (the Magistrate), `cards` the three characters (public).
- `warrant_signed`: seat, `character` the signed one (private to the Magistrate).
- `warrant_revealed`: seat (Magistrate) reveals the signed warrant on `character` held by `player`,
  confiscates `district`; `gold` returned to the player (public).
- `warrant_passed`: seat (Magistrate) leaves the warrant on `player`'s `district` unrevealed (public).
"""

from __future__ import annotations

from ..build import place
from ..cards.characters import RANK
from ..city import has
from ..commands import Ability
from ..decisions import Choice
from ..events import Event
from ..hooks import Role, choice, role
from ..state import Built
from ._targets import nameable

REVEAL = "Magistrate.reveal"
WARRANT = "Magistrate.warrant"


def _owner(g) -> int:
    return g.flags.get("warrant_owner", g.holders.get("Magistrate", -1))


@role
class Magistrate(Role):
    name = "Magistrate"

    def abilities(self, g, t):
        if self.name in t.used:
            return []
        return [Ability(t.seat, self.name, character=c) for c in nameable(g, self.name)]

    def act(self, g, cmd, ev):
        t = g.turn
        t.used.append(self.name)
        t.extra["Magistrate.signed"] = g.lineup.index(cmd.character)
        _ask_warrant(g, cmd.seat, [cmd.character])

    def why(self, g, cmd):
        if cmd.character == self.name:
            return "The Magistrate puts warrants on other characters."
        if cmd.character in g.selection.faceup:
            return f"The {cmd.character} was discarded face up."
        return None

    def intercept_build(self, g, t, district, paid, via, ev):
        m = g.markers
        if m.warrant_revealed or t.character not in m.warrants or t.paid_builds != 1:
            return False
        owner = _owner(g)
        if owner < 0 or owner == t.seat or has(g, owner, district):
            return False
        if via is not None and not _paid_via(via):
            return False  # built without paying: the next paid one may still be taken
        t.aside.append(district)
        t.extra["Magistrate.paid"] = paid
        options = ["reveal", "pass"] if t.character == m.signed else ["pass"]
        g.pending = Choice(owner, REVEAL, options)
        return True


def _paid_via(via: str) -> bool:
    from ..hooks import UNIQUES

    return via not in UNIQUES or UNIQUES[via].build_is_paid()


def _placed(g, t) -> list[str]:
    chars = [g.lineup[t.extra["Magistrate.signed"]]]
    if "Magistrate.second" in t.extra:
        chars.append(g.lineup[t.extra["Magistrate.second"]])
    return chars


def _ask_warrant(g, seat: int, placed: list[str]) -> None:
    options = [c for c in nameable(g, "Magistrate") if c not in placed]
    g.pending = Choice(seat, WARRANT, options)


@choice(WARRANT)
def choose_warrant(g, seat, option, ev):
    t = g.turn
    placed = _placed(g, t)
    if len(placed) == 1:
        t.extra["Magistrate.second"] = g.lineup.index(option)
        _ask_warrant(g, seat, placed + [option])
        return
    signed = placed[0]
    chars = sorted(placed + [option], key=lambda c: RANK[c])
    del t.extra["Magistrate.signed"], t.extra["Magistrate.second"]
    m = g.markers
    m.warrants = chars
    m.signed = signed
    m.warrant_revealed = False
    g.flags["warrant_owner"] = seat
    ev.append(Event("warrants_placed", seat=seat, cards=list(chars)))
    ev.append(Event("warrant_signed", seat=seat, character=signed, private=[seat]))


@choice(REVEAL)
def choose_reveal(g, seat, option, ev):
    t = g.turn
    district = t.aside.pop()
    paid = t.extra.pop("Magistrate.paid", 0)
    if option != "reveal":
        ev.append(Event("warrant_passed", seat=seat, player=t.seat, district=district))
        place(g, t.seat, Built(district), ev, paid=paid)
        return
    m = g.markers
    m.warrant_revealed = True
    g.players[t.seat].gold += paid  # all the gold paid for it comes back
    t.build_gold -= paid  # it was not gold spent on a district (Alchemist)
    ev.append(Event("warrant_revealed", seat=seat, player=t.seat, character=m.signed, district=district, gold=paid))
    place(g, seat, Built(district), ev, paid=0, via="Magistrate")
