"""Queen (rank 9): gains 3 gold if she is seated next to the player who revealed
the rank-4 character (King, Emperor or Patrician); if that character was killed,
she gains it at round end when its card is revealed. Never with fewer than 5
players (setup.check_lineup).

In her turn the 3 gold is an ability (once, at any time of the turn). At round
end it is automatic, after the rank-4 character's own end-of-round reveal
(end_round runs in rank order).

Open point decided here: a bewitched rank-4 character is revealed by its holder
when called (flow.begin_turn records g.revealed), and the Witch resumes without
revealing it; so the Queen's neighbour test uses that holder's seat.

2000 edition (The Dark City; `004_...` "possessore della corona"): she gains 3 gold if
seated next to the crown holder (after rank 4 has acted: the King, or the player the
Emperor crowned). If the rank-4 character was killed, this is checked and paid at round
end (after the heir takes the crown). Open point decided: with no rank-4 character in
play this round (unpicked or face down) she is paid if seated next to the crown holder.

Events: queen_gold (gold=3, player = the rank-4 character's player, character = that character).
"""

from __future__ import annotations

from ..cards.characters import RANK
from ..commands import Ability
from ..finals import ABILITY, EVENT
from ..hooks import Events, Role, role
from ..state import GameState, Turn


def rank4(g: GameState) -> str | None:
    return next((c for c in g.lineup if RANK[c] == 4), None)


def neighbours(g: GameState, a: int, b: int) -> bool:
    n = len(g.players)
    return a != b and ((a - b) % n == 1 or (b - a) % n == 1)


class Queen(Role):
    name = "Queen"

    def _rank4_seat(self, g: GameState) -> int | None:
        c = rank4(g)
        return g.revealed.get(c) if c is not None else None

    def abilities(self, g: GameState, t: Turn) -> list[Ability]:
        if self.name in t.used:
            return []
        if g.rules.edition == "2000":
            c = rank4(g)
            if c is not None and g.markers.killed == c and c in g.holders:
                return []  # checked at round end
            return [ABILITY(t.seat, self.name)] if neighbours(g, t.seat, g.crown) else []
        s = self._rank4_seat(g)
        if s is None or not neighbours(g, t.seat, s):
            return []
        return [ABILITY(t.seat, self.name)]

    def act(self, g: GameState, t: Turn, cmd: Ability, ev: Events) -> None:
        t.used.append(self.name)
        g.players[cmd.seat].gold += 3
        c = rank4(g)
        assert c is not None  # abilities() offers it only with a rank-4 character in play
        who = g.crown if g.rules.edition == "2000" else g.revealed[c]
        ev.append(EVENT("queen_gold", seat=cmd.seat, player=who, character=c, gold=3))

    def end_round(self, g: GameState, ev: Events) -> bool:
        c = rank4(g)
        if c is None or g.markers.killed != c or c not in g.holders:
            return False
        queen = g.holders.get(self.name)
        seat = g.holders.get(c) if g.rules.edition != "2000" else g.crown
        if queen is None or seat is None or not neighbours(g, queen, seat):
            return False
        g.players[queen].gold += 3
        ev.append(EVENT("queen_gold", seat=queen, player=seat, character=c, gold=3, option="round_end"))
        return False

    def why(self, g: GameState, cmd: Ability) -> str | None:
        if g.rules.edition == "2000":
            return "The Queen gains 3 gold only when seated next to the crown holder."
        return "The Queen gains 3 gold only when seated next to the player who revealed the rank-4 character."


role(Queen)
