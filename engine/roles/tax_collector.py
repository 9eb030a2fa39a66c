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
builders are noted in the round's `TaxOwed`, whoever holds the Tax Collector, so
nothing leaks; the turn's `Taxed` says its builder was taxed). Open point decided: a killed, unpicked or face-down Tax Collector
collects nothing (he is never revealed during the turns). Bewitched, the Witch takes
over his power once she resumes (she is the payee). The Plague passes with each payment.

Events: taxed (seat paid 1 gold; 2000: player = the Tax Collector's seat), tax_collected (gold).
"""

from __future__ import annotations

from msgspec import field

from ..cardstate import RoundScoped, TurnScoped
from ..commands import Ability
from ..events import Event
from ..hooks import Events, Role, contact, role
from ..state import GameState, Turn
from .witch import bewitched


class TaxOwed(RoundScoped):
    """2000: the seats that built before he was revealed this round (they pay at his reveal)."""

    seats: list[int] = field(default_factory=list)


class Taxed(TurnScoped):
    """2000: this turn's builder has been taxed (once per turn)."""


class TaxCollector(Role):
    name = "Tax Collector"

    def after_build(self, g: GameState, seat: int, district: str, ev: Events) -> None:
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
    def _payee(self, g: GameState) -> int | None:
        if self.name not in g.revealed:
            return None
        if bewitched(g) == self.name and "Witch" in g.holders:
            return g.holders["Witch"]  # she has his power this round (his player only gathers)
        return g.revealed[self.name]

    def _after_build_2000(self, g: GameState, seat: int, ev: Events) -> None:
        t = g.turn
        if t is None or t.seat != seat or Taxed.get(t) is not None:
            return  # only builds in the builder's own turn, once per turn
        Taxed().put(t)
        if self.name not in g.revealed:
            owed = TaxOwed.of(g)  # pays when he is revealed
            if seat not in owed.seats:
                owed.seats.append(seat)
            return
        self._pay(g, seat, self._payee(g), ev)

    def _pay(self, g: GameState, seat: int, payee: int | None, ev: Events) -> None:
        p = g.players[seat]
        if payee is None or payee == seat or p.gold <= 0:
            return
        p.gold -= 1
        g.players[payee].gold += 1
        ev.append(Event("taxed", seat=seat, player=payee, gold=1, character=self.name))
        contact(g, payee, seat, self.name, ev)

    def on_reveal(self, g: GameState, t: Turn, ev: Events) -> None:
        if g.rules.edition != "2000":
            return
        owed = TaxOwed.drop(g)
        for s in range(len(g.players)):
            if owed is not None and s in owed.seats:
                self._pay(g, s, self._payee(g), ev)

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used or g.tax <= 0:
            return []
        return [Ability(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        assert g.turn is not None
        t.used.append(self.name)
        gold, g.tax = g.tax, 0
        g.players[cmd.seat].gold += gold
        ev.append(Event("tax_collected", seat=cmd.seat, character=self.name, gold=gold))

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if g.tax <= 0:
            return "There is no gold on the Tax Collector's token."
        return None


role(TaxCollector)
