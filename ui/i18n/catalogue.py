"""`Catalogue`: the texts of one language, looked up by key (see the package's docstring)."""

from __future__ import annotations

import functools
from collections.abc import Callable

from engine.cards import editions
from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS
from engine.rules import RULESETS

from . import compiled
from .grammar import FORMATTER, CardName, Fields, contract

LANGUAGES = ("en", "es")
# A bot seat's name ends with this mark (the server's `BOT_MARK`; ui does not import server): a
# player's character goes inside the same brackets, "Mason (bot, Architect)", never "(bot) (Architect)".
BOT_SUFFIX = " (bot)"
Text = compiled.Text

# Keys whose text is a generic stand-in for something the catalogue does not know.
GENERIC = frozenset(
    {
        "ability.fallback",
        "ability.fallback_option",
        "ability.fallback_does",
        "event.fallback",
        "choice.fallback",
        "cmd.unknown",
        "cmd.unknown_does",
        "cmd.choose_does",
        "cmd.build_via",
        "cmd.build_via_does",
        "help.no_text",
    }
)


@functools.cache
def load(lang: str) -> tuple[dict[str, Text], Callable[[int], int]]:
    """One language's texts (key -> text, or its plural forms) and plural function: parsed once per
    process, shared by every app."""
    return compiled.load(lang)


def _load(lang: str) -> dict[str, Text]:
    """The texts of one language, key -> text (a tuple: the plural forms)."""
    return load(lang)[0]


class Catalogue:
    """The texts of one language. Cheap to create: the files are parsed once."""

    def __init__(self, lang: str = "en", rules: str | None = None, palette: str = "printed") -> None:
        if lang not in LANGUAGES:
            lang = "en"
        self.lang = lang
        self._texts, self._plural = load(lang)
        self._en, self._en_plural = load("en")
        self.audit: list[str] | None = None
        self.rules: str | None = None
        self.edition = "2016"
        self._pre = ""  # "<edition>:" for an older edition: its keys are looked up first
        self._names: dict[str, CardName] = {}
        self._articles: dict[tuple[str, str], str] = {}
        self.palette = palette  # the card colours (ui/cards.py: "printed" or "colour-blind")
        self.key = lang  # what rendered text depends on (widgets' caches): language, edition, palette
        self.set_rules(rules)
        self._rekey()

    def set_rules(self, rules: str | None) -> bool:
        """Follow the rule set in play (`View.rules`): its edition's names, ranks, costs and texts.
        True when the edition changed (whatever was rendered must be rendered again)."""
        self.rules = rules
        r = RULESETS.get(rules or "")
        edition = r.edition if r is not None else "2016"
        if edition == self.edition:
            return False
        self.edition = edition
        self._pre = "" if edition == "2016" else edition + ":"
        self._names = {}  # card names in this edition and language, as asked
        self._articles = {}  # (card, form) -> "la Reina", "a la Reina"
        self._rekey()
        return True

    def set_palette(self, palette: str) -> None:
        """The card colours this player chose (part of `key`: rendered lines depend on it)."""
        self.palette = palette
        self._rekey()

    def _rekey(self) -> None:
        key = self.lang if self.edition == "2016" else f"{self.lang}/{self.edition}"
        self.key = key if self.palette == "printed" else f"{key}+{self.palette}"

    def has(self, key: str) -> bool:
        if self._pre and (self._pre + key in self._texts or self._pre + key in self._en):
            return True
        return key in self._texts or key in self._en

    def first(self, *keys: str) -> str | None:
        """The first of `keys` the catalogue holds (None: none of them)."""
        for k in keys:
            if k in self._texts or k in self._en:
                return k
        return None

    def raw(self, key: str, fallback: str | None = None) -> Text:
        """The text of `key` as the catalogue holds it (a tuple: its plural forms), unformatted."""
        if self._pre:  # the edition's own text first
            ek = self._pre + key
            if ek in self._texts or ek in self._en:
                key = ek
        text = self._texts.get(key)
        if text is None:
            text = self._en.get(key)
            if self.audit is not None and text is not None:
                self.audit.append(f"english:{key}")
        if self.audit is not None and key in GENERIC:
            self.audit.append(f"generic:{key}")
        if text is None:
            if self.audit is not None:
                self.audit.append(f"missing:{key}")
            return key if fallback is None else fallback
        return text

    def t(self, key: str, fallback: str | None = None, n: int | None = None, **fields: object) -> str:
        """The text of `key` with its {fields} filled. `n` picks the plural form of a text that has
        them (the language's Plural-Forms) and fills {n}."""
        text = self.raw(key, fallback)
        if text.__class__ is tuple:
            text = self._form(key, text, n)  # type: ignore[arg-type]
        if n is not None:
            fields["n"] = n
        if not fields and "{" not in text:
            return text  # type: ignore[return-value]
        values = Fields(fields, self, key)
        try:  # str.format_map: C speed; amounts and card names format themselves (grammar.py)
            return text.format_map(values)  # type: ignore[union-attr]
        except (ValueError, TypeError, IndexError):  # a spec that does not fit its value: shown plain
            return FORMATTER.vformat(text, (), values)  # type: ignore[arg-type]

    def _form(self, key: str, forms: tuple[str, ...], n: int | None) -> str:
        if n is None:
            if self.audit is not None:
                self.audit.append(f"no-count:{key}")
            return forms[-1]
        own = key in self._texts or self._pre + key in self._texts
        i = (self._plural if own else self._en_plural)(n)
        return forms[i] if i < len(forms) else forms[-1]

    def article(self, name: CardName, form: str = "the") -> str:
        """A card's name with its definite article ("the": "la Reina"), after "to" ("to_the": "a la
        Reina", "al Rey") or "of" ("of_the": "del Templo"): `the.<Card>` and `grammar.<form>`."""
        done = self._articles.get((name.card, form))
        if done is not None:
            return done
        the = self.t(f"the.{name.card}", fallback=str(name), name=str(name))
        if form != "the":
            the = contract(self.lang, self.t(f"grammar.{form}", the=the))
        if self.audit is None:  # an audited catalogue records every lookup
            self._articles[(name.card, form)] = the
        return the

    # --- card names and types --------------------------------------------------
    def character(self, name: str | None) -> str:
        if name is None:
            return self.t("ui.unknown")
        return self._names.get(name) or self._card_name(name) if name in CHARACTERS else name

    def _card_name(self, name: str) -> CardName:
        """A card's name in this edition and language, which knows its articles (cached)."""
        if self._pre:
            text = editions.name_in(self.edition, name, self.lang)
        else:
            row = CHARACTERS.get(name) or DISTRICTS[name]
            text = row.es if self.lang == "es" else row.name
        return self._names.setdefault(name, CardName(text, name, self))

    def rank(self, name: str | None) -> int | None:
        c = CHARACTERS.get(name or "")
        if c is None:
            return None
        return editions.rank(self.edition, c.name) if self._pre else c.rank

    def ranked(self, name: str | None) -> str:
        """ "4 King": rank and name."""
        r = self.rank(name)
        return f"{r} {self.character(name)}" if r is not None else self.character(name)

    def district(self, name: str | None) -> str:
        if name is None:
            return self.t("ui.unknown")
        return self._names.get(name) or self._card_name(name) if name in DISTRICTS else name

    def cost(self, name: str | None) -> int | None:
        """A district's printed cost in this edition (None: not a district)."""
        d = DISTRICTS.get(name or "")
        if d is None:
            return None
        return editions.cost(self.edition, d.name) if self._pre else d.cost

    def income(self, character: str | None) -> tuple[str | None, str | None]:
        """A character's income in this edition: (district type, "gold" | "cards" | "mix"), or (None, None)."""
        if character not in CHARACTERS:
            return None, None
        return editions.income(self.edition, character)

    def card(self, name: str | None) -> str:
        """Any card name: a district or a character."""
        if name in CHARACTERS:
            return self.character(name)
        return self.district(name)

    def type_name(self, kind: str | None) -> str:
        return self.t(f"types.{kind}", fallback=kind or "?")

    def type_letter(self, kind: str | None) -> str:
        return self.t(f"type_letter.{kind}", fallback=(kind or "?")[:1].upper())

    def kind(self, kind: str | None) -> str:
        """A value of the `kind` field of an ability: a district type or a resource."""
        if kind in ("gold", "cards"):
            return self.t(f"resources.{kind}")
        return self.type_name(kind)

    def value(self, v: str | None) -> str:
        """A free value (an event's or a choice's option): a card, a character, a type, a resource."""
        if v is None:
            return "?"
        if v in CHARACTERS:
            return self.character(v)
        if v in DISTRICTS:
            return self.district(v)
        if self.has(f"types.{v}") or v in ("gold", "cards"):
            return self.kind(v)
        return v

    def character_text(self, name: str) -> str:
        key = f"character_text.{name}"
        return self.t(key) if self.has(key) else self.t("help.no_text")

    def district_text(self, name: str) -> str:
        return self.t(f"district_text.{name}", fallback="")

    def player_as(self, name: str, character: str) -> str:
        """A player's name with the character they play: "Ana (King)", "Mason (bot, Architect)"."""
        if name.endswith(BOT_SUFFIX):
            return self.t("ui.who_bot_as", name=name[: -len(BOT_SUFFIX)], character=self.character(character))
        return self.t("ui.who_as", name=name, character=self.character(character))

    def names(self, names: list[str], empty: str | None = None) -> str:
        if not names:
            return empty if empty is not None else self.t("ui.none")
        return ", ".join(names)

    def other(self) -> str:
        return "es" if self.lang == "en" else "en"
