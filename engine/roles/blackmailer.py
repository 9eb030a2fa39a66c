"""Blackmailer (rank 2): puts two threat markers face down on two different
characters; both are threatened, only the flowered one is the real target.

Not on a rank-1 character, the killed or the bewitched one (nor a character
discarded face up); a warranted one is fine. A threatened player, when called,
must gather first (gathering-time district effects only), then resolve the
threat before any ability or build: bribe with half their gold rounded down (1
gold bribes 0), which removes the marker unrevealed; or refuse, and the
Blackmailer may reveal the marker, taking all their gold if it is the flowered
one. Bewitched, the Witch places the threats, receives the bribes and decides
the reveals: the seat that placed them is `Threats.owner`.

Placing: `Ability(Blackmailer, character=<flowered>)`, then one `Choice`
"Blackmailer.threat" for the other; the flowered one is the turn's
`ThreatDraft` meanwhile (never in a view). Engine decision: a threat on the
Blackmailer's own other character (2-3 players) is never resolved.

The threats' state (`Threats`), what a view shows of them (`Threats.show`) and
what a bot re-samples (`Blackmailer.sample`) are all here.

Events (kinds):
- `threats_placed`: seat (the Blackmailer), `cards` the two characters (public).
- `threat_flowered`: seat, `character` the flowered one (private to the Blackmailer).
- `bribed`: seat (threatened player) gives `gold` to `player` (the Blackmailer); `character` its marker, removed.
- `bribe_refused`: seat (threatened player) refuses to bribe `player` (the Blackmailer).
- `threat_revealed`: seat (the Blackmailer) reveals the marker on `character` held by `player`;
  `option` "flowered" (then `gold` taken: all of it) or "plain".
- `threat_kept`: seat (the Blackmailer) does not reveal the marker on `character` held by `player`.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from msgspec import field

from ..cards.characters import RANK
from ..cardstate import RoundScoped, TurnScoped
from ..commands import Ability
from ..decisions import Choice
from ..events import Event
from ..hooks import Events, Role, choice, role
from ..state import GameState, Turn, current_turn
from ._targets import nameable
from .witch import bewitched

if TYPE_CHECKING:
    from ..view import View

NAME = "Blackmailer"
THREAT = "Blackmailer.threat"
BRIBE = "Blackmailer.bribe"
REVEAL = "Blackmailer.reveal"
RESOLVED = "Blackmailer.threat_resolved"  # in Turn.used: the threat of this turn is settled


class Threats(RoundScoped):
    """The threats of this round: `characters` still marked (public; a bribe removes one),
    `flowered` the real one (known to the seat that placed them until revealed), `revealed` the
    markers turned face up, `owner` the seat that placed them (None: the Blackmailer's holder)."""

    characters: list[str]
    flowered: str | None  # None only in a bot's sampled world where no unrevealed threat is left
    revealed: list[str] = field(default_factory=list)
    owner: int | None = None

    def show(self, g: GameState, seat: int | None, v: View, everything: bool) -> None:
        v.markers.threats = list(self.characters)
        v.markers.threats_revealed = list(self.revealed)
        if self.flowered and (everything or self.flowered in self.revealed or (seat is not None and seat == owner(g))):
            v.markers.flowered = self.flowered


class ThreatDraft(TurnScoped):
    """The flowered threat, while the second one is being placed."""

    flowered: str


def owner(g: GameState) -> int:
    """The seat that placed the threats (-1: none)."""
    th = Threats.get(g)
    if th is not None and th.owner is not None:
        return th.owner
    return g.holders.get(NAME, -1)


def targets(g: GameState, exclude: tuple[str, ...] = ()) -> list[str]:
    killed, witched = g.markers.killed, bewitched(g)
    return [c for c in nameable(g, NAME, min_rank=2) if c != killed and c != witched and c not in exclude]


class Blackmailer(Role):
    name = "Blackmailer"

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        return [Ability(t.seat, self.name, character=c) for c in targets(g)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert cmd.character is not None
        t.used.append(self.name)
        ThreatDraft(flowered=cmd.character).put(t)
        g.pending = Choice(cmd.seat, THREAT, targets(g, (cmd.character,)))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        c = cmd.character
        if c in g.lineup and RANK[c] == 1:
            return "Threats cannot be put on the rank-1 character."
        if c == g.markers.killed:
            return "The killed character cannot be threatened."
        if c == bewitched(g):
            return "The bewitched character cannot be threatened."
        if c == self.name:
            return "The Blackmailer threatens other characters."
        if c in g.selection.faceup:
            return f"The {c} was discarded face up."
        return None

    def on_any_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        if self._threatened(g, t):
            t.gather_first = True  # gather, then resolve the threat, before anything else

    def on_any_gather(self, g: GameState, t: Turn, ev: Events) -> None:
        if not self._threatened(g, t) or RESOLVED in t.used:
            return
        t.used.append(RESOLVED)
        g.pending = Choice(t.seat, BRIBE, ["bribe", "refuse"])

    @staticmethod
    def _threatened(g: GameState, t: Turn) -> bool:
        th = Threats.get(g)
        if th is None or t.character not in th.characters or t.resumed or t.gather_only is not None:
            return False
        o = owner(g)
        return o >= 0 and o != t.seat

    def sample(self, view: View, g: GameState, rng: random.Random) -> None:
        m = view.markers
        if not m.threats:
            return
        unrevealed = [c for c in m.threats if c not in m.threats_revealed]
        flowered = m.flowered if m.flowered else (rng.choice(unrevealed) if unrevealed else None)
        th = Threats(characters=list(m.threats), flowered=flowered, revealed=list(m.threats_revealed))
        if m.flowered and m.flowered not in m.threats_revealed:
            th.owner = view.seat  # the view shows the real one to the seat that placed them only
        else:
            placer = g.holders.get("Witch", -1) if m.bewitched == NAME else g.holders.get(NAME, -1)
            th.owner = placer if placer != view.seat else -1
        th.put(g)


role(Blackmailer)


@choice(THREAT)
def choose_threat(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    draft = ThreatDraft.drop(t)
    assert draft is not None
    flowered = draft.flowered
    th = Threats(characters=sorted([flowered, option], key=lambda c: RANK[c]), flowered=flowered, owner=seat).put(g)
    ev.append(Event("threats_placed", seat=seat, cards=list(th.characters)))
    ev.append(Event("threat_flowered", seat=seat, character=flowered, private=[seat]))


@choice(BRIBE)
def choose_bribe(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    th = Threats.get(g)
    assert t is not None and th is not None
    o = owner(g)
    p = g.players[seat]
    if option == "bribe":
        gold = p.gold // 2
        p.gold -= gold
        g.players[o].gold += gold
        th.characters.remove(t.character)  # removed without revealing it
        ev.append(Event("bribed", seat=seat, player=o, character=t.character, gold=gold))
        return
    ev.append(Event("bribe_refused", seat=seat, player=o, character=t.character))
    g.pending = Choice(o, REVEAL, ["reveal", "pass"])


@choice(REVEAL)
def choose_reveal(g: GameState, seat: int, option: str, ev: Events) -> None:
    t = current_turn(g)
    m = Threats.get(g)
    assert t is not None and m is not None
    if option != "reveal":
        ev.append(Event("threat_kept", seat=seat, player=t.seat, character=t.character))
        return
    m.revealed.append(t.character)
    gold = 0
    if t.character == m.flowered:
        victim = g.players[t.seat]
        gold = victim.gold
        victim.gold = 0
        g.players[seat].gold += gold
    ev.append(
        Event(
            "threat_revealed",
            seat=seat,
            player=t.seat,
            character=t.character,
            gold=gold,
            option="flowered" if t.character == m.flowered else "plain",
        )
    )
