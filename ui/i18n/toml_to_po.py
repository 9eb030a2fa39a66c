"""Convert the old TOML catalogues (`ui/i18n/*.<lang>.toml`) into the gettext template and PO files.

Kept only while other branches may still add TOML keys: run it on their TOML files after a merge
(`python -m ui.i18n.toml_to_po ui/i18n/lobby.en.toml ui/i18n/lobby.es.toml ...`, or with no argument
every `*.toml` left in ui/i18n/) and it appends to `locale/citadels.pot` and to each language's
`citadels.po` the keys the template does not hold yet (a key it already holds is left as it is and
named on stderr when the TOML text differs). English files give the template (msgctxt = key, msgid =
the English text), the other languages' files their translations (msgstr). Then delete the TOML files.

A TOML file holds sections of keys: `[section]` then `key = "text"`, giving the key
"section.key" (an edition's section "2000:ability" gives "2000:ability.Key").
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from .compiled import DOMAIN, LOCALE_DIR, po_path, template_path

HEADER = """\
# Citadels over SSH: every user-facing text of the UI (domain citadels).
# msgctxt: the key the code looks up ("section.key", see ui/README.md);
# msgid: the English text; msgstr: the translation.
# {name}: a named field the UI fills. {gold:gold}, {count:cards}: a
# number with its unit (amount.<unit>, plural forms). {card:the},
# {character:to_the}, {district:of_the}: a card's name with its article
# (the.<Card>).
#"""


def flatten(path: Path) -> dict[str, str]:
    """The keys of one TOML catalogue file, "section.key" -> text."""
    with open(path, "rb") as f:
        data = tomllib.load(f)
    flat: dict[str, str] = {}
    for section, entries in data.items():
        for key, text in entries.items():
            flat[f"{section}.{key}"] = text.strip("\n") if isinstance(text, str) else str(text)
    return flat


def _lang_of(path: Path) -> str:
    """`cards.es.toml` -> "es"; `en.toml` -> "en"."""
    parts = path.name.split(".")
    return parts[-2]


def _read(path: Path, locale: str | None) -> Catalog:
    if path.exists():
        with open(path, "rb") as f:
            return read_po(f, locale=locale, domain=DOMAIN)
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project="citadels-ssh",
        version="0.1.0",
        header_comment=HEADER,
        fuzzy=False,
    )


def _write(path: Path, cat: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        write_po(f, cat, sort_output=False, include_previous=True)


def convert(files: list[Path]) -> None:
    english: dict[str, str] = {}
    others: dict[str, dict[str, str]] = {}
    for path in files:
        lang = _lang_of(path)
        target = english if lang == "en" else others.setdefault(lang, {})
        for key, text in flatten(path).items():
            if key in target:
                raise SystemExit(f"{path.name}: {key!r} is defined in two TOML files")
            target[key] = text
    template = _read(template_path(), None)
    held = {m.context for m in template if m.id}
    added = []
    for key, text in english.items():
        if key in held:
            if template.get(text, context=key) is None:
                print(f"kept the template's text of {key!r} (the TOML's differs)", file=sys.stderr)
            continue
        template.add(text, context=key)
        added.append(key)
    _write(template_path(), template)
    by_key = {m.context: m for m in template if m.id}
    for lang, texts in others.items():
        po = _read(po_path(lang), lang)
        have = {m.context for m in po if m.id}
        for key in english:
            if key not in have and key in by_key:
                po.add(by_key[key].id, texts.get(key, ""), context=key)
        _write(po_path(lang), po)
    print(f"{len(added)} keys added to {template_path().relative_to(LOCALE_DIR.parent)}")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    here = Path(__file__).parent
    files = [Path(a) for a in args] or [here / f"{lang}.toml" for lang in ("en", "es")] + sorted(
        p for p in here.glob("*.*.toml")
    )
    # English first (the template must hold a key before a translation of it is added), the
    # screen's own words before the cards', the lobby's and the players' screens'.
    convert(sorted((f for f in files if f.exists()), key=lambda p: (_lang_of(p) != "en", p.name.count("."))))


if __name__ == "__main__":
    main()
