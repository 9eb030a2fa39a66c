"""Tax Collector (rank 9): while he is in the line-up (even not picked, discarded
face up or down, or killed), right after a district enters a player's city by
being built, that player puts 1 gold from their stash on the Tax Collector's
token (g.tax), if they have any gold left; once per district, even one not paid
for (Framework, Necropolis). The Tax Collector does not pay during his own turn;
in 2-3 player games his player still pays for his other character's builds.
A Magistrate's confiscation taxes the Magistrate (the district enters the
Magistrate's city: build.place calls after_build with the Magistrate's seat).
The token carries over rounds. During his turn (once, at any time) he may take
all the gold on the token.

Districts moved by the Diplomat, the Marshal or destroyed are not built: no tax.

2000 edition (The Dark City, rank 2; `004_...`): no token. Whenever another player
builds one or more districts in his own turn and still has gold, he gives the Tax
Collector's player 1 gold, once per turn (not per district). A rank-1 player who built
before the Tax Collector was revealed pays when he is revealed ("retroactively"; the
builders are noted in `g.flags[OWED]` as a bit mask, whoever holds the Tax Collector, so
nothing leaks). Open point decided: a killed, unpicked or face-down Tax Collector
collects nothing (he is never revealed during the turns). Bewitched, the Witch takes
over his power once she resumes (she is the payee). The Plague passes with each payment.

Events: taxed (seat paid 1 gold; 2000: player = the Tax Collector's seat), tax_collected (gold).
"""

from __future__ import annotations

from ..commands import Ability
from ..events import Event
from ..hooks import Role, contact, role

OWED = "Tax Collector.owed"  # 2000: seats (bit mask) who built before he was revealed
PAID = "Tax Collector.paid"  # Turn.extra: this turn's builder has been taxed


@role
class TaxCollector(Role):
    name = "Tax Collector"

    def after_build(self, g, seat, district, ev):
        if g.rules.edition == "2000":
            self._after_build_2000(g, seat, ev)
            return
        t = g.turn
        if t is not None and t.character == self.name and t.seat == seat:
            return  # the Tax Collector does not pay the tax in his own turn
        p = g.players[seat]
        if p.gold <= 0:
            return
        p.gold -= 1
        g.tax += 1
        ev.append(Event("taxed", seat=seat, district=district, gold=1, character=self.name))

    # --- 2000 -------------------------------------------------------------------
    def _payee(self, g) -> int | None:
        if self.name not in g.revealed:
            return None
        if g.markers.bewitched == self.name and "Witch" in g.holders:
            return g.holders["Witch"]  # she has his power this round (his player only gathers)
        return g.revealed[self.name]

    def _after_build_2000(self, g, seat, ev):
        t = g.turn
        if t is None or t.seat != seat or t.extra.get(PAID):
            return  # only builds in the builder's own turn, once per turn
        t.extra[PAID] = 1
        if self.name not in g.revealed:
            g.flags[OWED] = g.flags.get(OWED, 0) | (1 << seat)  # pays when he is revealed
            return
        self._pay(g, seat, self._payee(g), ev)

    def _pay(self, g, seat, payee, ev):
        p = g.players[seat]
        if payee is None or payee == seat or p.gold <= 0:
            return
        p.gold -= 1
        g.players[payee].gold += 1
        ev.append(Event("taxed", seat=seat, player=payee, gold=1, character=self.name))
        contact(g, payee, seat, self.name, ev)

    def on_reveal(self, g, t, ev):
        if g.rules.edition != "2000":
            return
        owed = g.flags.pop(OWED, 0)
        for s in range(len(g.players)):
            if owed >> s & 1:
                self._pay(g, s, self._payee(g), ev)

    def end_round(self, g, ev):
        g.flags.pop(OWED, None)
        return

    def abilities(self, g, t):
        if self.name in t.used or g.tax <= 0:
            return []
        return [Ability(t.seat, self.name)]

    def act(self, g, cmd, ev):
        g.turn.used.append(self.name)
        gold, g.tax = g.tax, 0
        g.players[cmd.seat].gold += gold
        ev.append(Event("tax_collected", seat=cmd.seat, character=self.name, gold=gold))

    def why(self, g, cmd):
        if g.tax <= 0:
            return "There is no gold on the Tax Collector's token."
        return None
