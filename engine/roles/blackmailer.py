"""Blackmailer (rank 2): puts two threat markers face down on two different
characters; both are threatened, only the flowered one is the real target.

Not on a rank-1 character, the killed or the bewitched one (nor a character
discarded face up); a warranted one is fine. A threatened player, when called,
must gather first (gathering-time district effects only), then resolve the
threat before any ability or build: bribe with half their gold rounded down (1
gold bribes 0), which removes the marker unrevealed; or refuse, and the
Blackmailer may reveal the marker, taking all their gold if it is the flowered
one. Bewitched, the Witch places the threats, receives the bribes and decides
the reveals: the seat that placed them is `g.flags["threat_owner"]`.

Placing: `Ability(Blackmailer, character=<flowered>)`, then one `Choice`
"Blackmailer.threat" for the other; the flowered one is kept in the turn's
`extra` meanwhile (never in a view). Engine decision: a threat on the
Blackmailer's own other character (2-3 players) is never resolved.

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

from ..cards.characters import RANK
from ..commands import Ability
from ..decisions import Choice
from ..events import Event
from ..hooks import Role, choice, role
from ._targets import nameable

THREAT = "Blackmailer.threat"
BRIBE = "Blackmailer.bribe"
REVEAL = "Blackmailer.reveal"
RESOLVED = "Blackmailer.threat_resolved"  # in Turn.used: the threat of this turn is settled


def owner(g) -> int:
    return g.flags.get("threat_owner", g.holders.get("Blackmailer", -1))


def targets(g, exclude: tuple = ()) -> list[str]:
    m = g.markers
    return [
        c for c in nameable(g, "Blackmailer", min_rank=2) if c != m.killed and c != m.bewitched and c not in exclude
    ]


@role
class Blackmailer(Role):
    name = "Blackmailer"

    def abilities(self, g, t):
        if self.name in t.used:
            return []
        return [Ability(t.seat, self.name, character=c) for c in targets(g)]

    def act(self, g, cmd, ev):
        t = g.turn
        t.used.append(self.name)
        t.extra["Blackmailer.flowered"] = g.lineup.index(cmd.character)
        g.pending = Choice(cmd.seat, THREAT, targets(g, (cmd.character,)))

    def why(self, g, cmd):
        m = g.markers
        c = cmd.character
        if c in g.lineup and RANK[c] == 1:
            return "Threats cannot be put on the rank-1 character."
        if c == m.killed:
            return "The killed character cannot be threatened."
        if c == m.bewitched:
            return "The bewitched character cannot be threatened."
        if c == self.name:
            return "The Blackmailer threatens other characters."
        if c in g.selection.faceup:
            return f"The {c} was discarded face up."
        return None

    def on_any_reveal(self, g, t, ev):
        if self._threatened(g, t):
            t.gather_first = True  # gather, then resolve the threat, before anything else

    def on_any_gather(self, g, t, ev):
        if not self._threatened(g, t) or RESOLVED in t.used:
            return
        t.used.append(RESOLVED)
        g.pending = Choice(t.seat, BRIBE, ["bribe", "refuse"])

    @staticmethod
    def _threatened(g, t) -> bool:
        if t.character not in g.markers.threats or t.resumed or t.bewitched:
            return False
        o = owner(g)
        return o >= 0 and o != t.seat


@choice(THREAT)
def choose_threat(g, seat, option, ev):
    t = g.turn
    flowered = g.lineup[t.extra.pop("Blackmailer.flowered")]
    m = g.markers
    m.threats = sorted([flowered, option], key=lambda c: RANK[c])
    m.flowered = flowered
    m.threats_revealed = []
    g.flags["threat_owner"] = seat
    ev.append(Event("threats_placed", seat=seat, cards=list(m.threats)))
    ev.append(Event("threat_flowered", seat=seat, character=flowered, private=[seat]))


@choice(BRIBE)
def choose_bribe(g, seat, option, ev):
    t = g.turn
    o = owner(g)
    p = g.players[seat]
    if option == "bribe":
        gold = p.gold // 2
        p.gold -= gold
        g.players[o].gold += gold
        g.markers.threats.remove(t.character)  # removed without revealing it
        ev.append(Event("bribed", seat=seat, player=o, character=t.character, gold=gold))
        return
    ev.append(Event("bribe_refused", seat=seat, player=o, character=t.character))
    g.pending = Choice(o, REVEAL, ["reveal", "pass"])


@choice(REVEAL)
def choose_reveal(g, seat, option, ev):
    t = g.turn
    m = g.markers
    if option != "reveal":
        ev.append(Event("threat_kept", seat=seat, player=t.seat, character=t.character))
        return
    m.threats_revealed.append(t.character)
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
