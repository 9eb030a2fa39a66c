"""Message catalogues: every user-facing sentence of the UI, per language, in gettext catalogues.

`locale/citadels.pot` is the English catalogue and the template of the others
(`locale/<lang>/LC_MESSAGES/citadels.po`): each message's `msgctxt` is the key the code asks for
("section.key"), its `msgid` the English text (`msgid_plural` for plural forms), its `msgstr` the
translation. Babel compiles them to `.mo` files (`compiled.py`: at first use, and again whenever a
source changes) and finds the keys the code uses (`keys.py`: the extractor and the dynamic families).
The workflow for adding a key or a language is in ui/README.md.

`Catalogue(lang)` (each language parsed once per process and shared by every app) answers
`t("section.key", **fields)`, and `t(key, n=3)` for a text with plural forms (the language's
Plural-Forms pick the form). Fields carry their grammar (`grammar.py`): `{count:cards}` is "3 cards"
/ "3 cartas", `{district:the}` "la Guarida de Ladrones". A key missing in a language falls back to
English (as does a fuzzy or untranslated message); a key missing everywhere returns the `fallback`
given by the caller (or the key itself), so a new card or event kind never breaks the screen.
Card names come from the engine's tables (`engine.cards`): English names are the code's names,
Spanish names the 2016 rulebook's; their articles from `the.<Card>`.

Editions: `Catalogue.set_rules(view.rules)` makes the catalogue follow the rule set in play. For an
older edition ("classic", "2000": `RuleSet.edition`) card names, ranks, costs and income come from
`engine.cards.editions`, and a key `k` is first looked up as `"<edition>:k"` (the older texts, one
home for every text).

`Catalogue.audit`: set it to a list and every generic fallback, missing key, English stand-in for a
translated text, unfilled {placeholder} and plural text asked without a number is recorded there
(the coverage test reads it; `None`, the default, costs nothing).
"""

from __future__ import annotations

from .catalogue import GENERIC, LANGUAGES, Catalogue, _load, load

__all__ = ["GENERIC", "LANGUAGES", "Catalogue", "_load", "load"]
