"""Events as plain sentences, one per kind, from the message catalogue.

`LogWriter` turns redacted events into `LogLine`s. It remembers which
character each seat revealed this round, so that "Ben (Warlord) destroyed Ana's
Market for 1 gold" names the character even when the event does not. An event
whose hidden fields were blanked for this seat uses the `<kind>_hidden`
sentence; one whose fields this seat alone may see is marked private. Unknown
kinds get a generic sentence.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .i18n import Catalogue

# Kinds that are bookkeeping rather than news: shown dimmed.
QUIET = {"called", "turn_ended"}


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

    def line(self, ev: Any, names: list[str]) -> LogLine:
        cat = self.cat
        kind = ev.kind
        if kind == "round_started":
            self.playing = {}
        elif kind == "revealed" and ev.character:
            self.playing[ev.seat] = ev.character
        hidden = ev.private is not None and (self.seat is None or self.seat not in ev.private)
        private = ev.private is not None and not hidden
        character = ev.character or self.playing.get(ev.seat)
        who = self._name(names, ev.seat)
        if character and kind not in ("revealed", "character_picked", "character_discarded", "called",
                                      "killed", "robbed", "round_started", "game_started"):
            who = f"{who} ({cat.character(character)})"
        if kind in ("killed", "robbed"):
            actor = self.playing.get(ev.seat)
            if actor:
                who = f"{who} ({cat.character(actor)})"
        fields = {
            "who": who,
            "player": self._name(names, ev.player),
            "character": cat.character(ev.character) if ev.character else "?",
            "rank": cat.rank(ev.character) or ev.count,
            "district": cat.district(ev.district) if ev.district else "?",
            "card": cat.card(ev.card) if ev.card else "?",
            "cards": cat.names([cat.card(c) for c in ev.cards]),
            "gold": ev.gold,
            "count": ev.count,
            "option": cat.card(ev.option) if ev.option else "",
            "kind": kind,
        }
        keys = []
        if kind == "character_discarded" and ev.seat >= 0 and not ev.character and ev.count:
            keys.append("event.character_discarded_rest")
        if hidden or (ev.private is not None and not ev.character and not ev.card and not ev.cards
                      and kind in ("character_picked", "character_discarded", "kept_card")):
            keys.append(f"event.{kind}_hidden")
        if kind == "characters_discarded" and not ev.cards:
            keys.append("event.characters_discarded_none")
        if ev.option:
            keys.append(f"event.{kind}_{ev.option}")
            if kind == "built":
                keys.append("event.built_via")
        keys.append(f"event.{kind}")
        for k in keys:
            if cat.has(k):
                text = cat.t(k, **fields)
                break
        else:
            detail = []
            for f in ("player", "character", "district", "card"):
                v = getattr(ev, f, None)
                if v not in (None, -1):
                    detail.append(str(fields[f]))
            if ev.gold:
                detail.append(cat.t("ui.gold_n", n=ev.gold))
            text = cat.t("event.fallback", kind=kind, who=self._name(names, ev.seat) if ev.seat >= 0 else "",
                         detail=(" " + ", ".join(detail)) if detail else "")
        if kind == "revealed" and ev.option == "heir":
            self.playing[ev.seat] = ev.character or ""
        return LogLine(text=text, private=private, quiet=kind in QUIET, kind=kind)
