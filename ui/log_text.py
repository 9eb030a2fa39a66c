"""Events as plain sentences, one per kind, from the message catalogue.

`LogWriter` turns redacted events into `LogLine`s. It remembers which
character each seat revealed this round, so that "Ben (Warlord) destroyed Ana's
Market for 1 gold" names the character even when the event does not (an
event's own `character` names the actor only for the kinds in `ACTOR_KINDS`;
elsewhere it is a target: "kills the King").

Private events: the engine lists in `private` the seats that may see an
event's hidden fields (`character`, `card`, `cards`) and blanks them for
everyone else. A seat in `private` gets the full sentence, marked private
("only you"); any other seat gets the `<kind>_hidden` sentence, a public
account that names nothing hidden ("Ben receives another character
(Theater)"). Then `<kind>_<option>` and `<kind>`; unknown kinds get a generic
sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from .i18n import Catalogue
from .widgets.shared_memo import Memo

_enc = msgspec.msgpack.Encoder()
# (writer class, catalogue key, event, hidden, names, actor) -> LogLine: every seat's app of a table
# tells the same event; seats that see it alike (hidden or not, in one language) share the sentence.
_lines = Memo(4096)

# Kinds that are bookkeeping rather than news: shown dimmed.
QUIET = {"called", "turn_ended"}
# Kinds whose `character` is the actor's own character (elsewhere it is a target or a subject).
ACTOR_KINDS = {
    "income",
    "extra_gold",
    "extra_cards",
    "turn_ended",
    "beautified",
    "abbot_tithe",
    "scholar_drew",
    "scholar_kept",
    "tax_collected",
    "alchemist_refund",
    "exchanged",
    "seized",
    "destroyed",
}
# Kinds told by another sentence when no gold changes hands (`event.<kind>_free`; the Magician's
# redraw of no card: `event.redrew_none`).
FREE_KINDS = {"built", "destroyed", "exchanged", "stole", "thieves_den", "redrew"}
# Kinds that name the actor alone, without a character.
PLAIN_WHO = {
    "revealed",
    "character_picked",
    "character_discarded",
    "called",
    "round_started",
    "game_started",
    "took_facedown",
    "theater",
    "theater_received",
    "theater_passed",
    "game_ended",
    "city_completed",
    "crown_moved",
    "crown_kept",
    "ballroom_thanks",
    "plague_passed",
    "plague_started",
}


@dataclass(frozen=True)
class LogLine:
    text: str
    private: bool = False
    quiet: bool = False
    kind: str = ""


class LogWriter:
    def __init__(self, cat: Catalogue, seat: int | None) -> None:
        self.cat = cat
        self.seat = seat
        self.playing: dict[int, str] = {}  # seat -> character revealed this round

    def _name(self, names: list[str], seat: int) -> str:
        if 0 <= seat < len(names):
            return names[seat]
        return self.cat.t("ui.nobody")

    def keys(self, ev: Any, hidden: bool) -> list[str]:
        """The catalogue keys that may tell this event, best first."""
        kind = ev.kind
        keys = []
        if kind == "character_discarded" and ev.seat >= 0 and not ev.character and ev.count:
            keys.append("event.character_discarded_rest")
        if hidden or (
            ev.private is not None
            and not ev.character
            and not ev.card
            and not ev.cards
            and kind in ("character_picked", "character_discarded", "kept_card")
        ):
            if ev.option:
                keys.append(f"event.{kind}_{ev.option}_hidden")
            keys.append(f"event.{kind}_hidden")
        if kind == "characters_discarded" and not ev.cards:
            keys.append("event.characters_discarded_none")
        if kind == "redrew" and not hidden and len(ev.cards) > ev.count:  # the cards: the discarded, then the drawn
            keys.append("event.redrew_named")
        if kind == "income":  # a zero is not said: "takes income: 2 gold", not "2 gold and 0 cards"
            if not ev.gold and not ev.count:
                keys.append("event.income_nothing")
            elif not ev.count:
                keys.append("event.income_gold")
            elif not ev.gold:
                keys.append("event.income_cards")
        if kind == "taxed" and not ev.district and ev.player >= 0:
            keys.append("event.taxed_to")  # 2000: the tax is paid to the Tax Collector's player
        if ev.option and not (kind == "built" and ev.option == ev.district):
            # a way of building is named only when it is not the card itself (the Thieves' Den)
            keys.append(f"event.{kind}_{ev.option}")
            if kind == "built":
                keys.append("event.built_via")
        keys.append(f"event.{kind}")
        way = kind == "built" and ev.option and ev.option != ev.district  # "using the Framework" says more
        if kind in FREE_KINDS and not ev.gold and not way:
            # told first: "builds the Den without paying gold", not "for 0 gold"
            if kind == "redrew":
                keys[:0] = ["event.redrew_none"] if not ev.count else []
            else:
                keys.insert(0, f"event.{kind}_free_hidden" if hidden else f"event.{kind}_free")
        return keys

    def line(self, ev: Any, names: list[str]) -> LogLine:
        cat = self.cat
        kind = ev.kind
        if kind == "round_started":
            self.playing = {}
        elif kind == "revealed" and ev.character:
            self.playing[ev.seat] = ev.character
        hidden = ev.private is not None and (self.seat is None or self.seat not in ev.private)
        actor = None
        if kind not in PLAIN_WHO:
            actor = ev.character if kind in ACTOR_KINDS and ev.character else self.playing.get(ev.seat)
        if cat.audit is not None:  # an audit sees every lookup
            out = self._line(ev, names, hidden, actor)
        else:
            # everything the sentence is made from (`keys` may be a subclass's: the class too)
            key = (type(self), cat.key, _enc.encode(ev), hidden, tuple(names), actor)
            out = _lines.get(key) or _lines.put(key, self._line(ev, names, hidden, actor))
        if kind == "revealed" and ev.option == "heir":
            self.playing[ev.seat] = ev.character or ""
        return out

    def _line(self, ev: Any, names: list[str], hidden: bool, actor: str | None) -> LogLine:
        """The sentence of `ev`, told to a seat that does not see its hidden fields when `hidden`,
        its actor playing `actor` (None: not named with a character)."""
        cat = self.cat
        kind = ev.kind
        private = ev.private is not None and not hidden
        who = self._name(names, ev.seat)
        if actor:
            who = cat.player_as(who, actor)
        fields = {
            "who": who,
            "seat": self._name(names, ev.seat),
            "player": self._name(names, ev.player),
            # the player with the character they were hit as: "Ben (bot, King)", named once
            "victim": cat.player_as(self._name(names, ev.player), ev.character) if ev.character else None,
            "character": cat.character(ev.character) if ev.character else None,
            "rank": cat.rank(ev.character) or ev.count,
            "district": cat.district(ev.district) if ev.district else None,
            "card": cat.card(ev.card) if ev.card else None,
            "cards": cat.names([cat.card(c) for c in ev.cards]),
            # a redraw's cards: the first `count` went, the rest came
            "discarded": cat.names([cat.card(c) for c in ev.cards[: ev.count]]),
            "drawn": cat.names([cat.card(c) for c in ev.cards[ev.count :]]),
            "gold": ev.gold,
            "count": ev.count,
            "option": cat.value(ev.option) if ev.option else "",
            "kind": kind,
        }
        key = cat.first(*self.keys(ev, hidden))
        if key is not None:
            text = cat.t(key, n=ev.count, **fields)  # a sentence with plural forms follows its count
        else:
            detail = []
            for f in ("player", "character", "district", "card"):
                v = getattr(ev, f, None)
                if v not in (None, -1):
                    detail.append(str(fields[f]))
            if ev.gold:
                detail.append(cat.t("ui.gold_n", n=ev.gold))
            text = cat.t(
                "event.fallback",
                kind=kind,
                who=self._name(names, ev.seat) if ev.seat >= 0 else "",
                detail=(" " + ", ".join(detail)) if detail else "",
            )
        return LogLine(text=text, private=private, quiet=kind in QUIET, kind=kind)
