"""The gettext catalogues: the keys the code uses against the template, every translation complete
and current, the compiled .mo following its .po, and pybabel's workflow (ui/README.md) keeping
translations when the template changes."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from ui.i18n import LANGUAGES, _load, compiled
from ui.i18n.grammar import ARTICLE_FORMS
from ui.i18n.keys import EDITIONS, FAMILIES, family_of

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{(\w*)(?::([^{}]*))?\}")


def _extracted() -> list[tuple[str, str]]:
    """(key, where) for every key the UI's code looks up, through pybabel's extraction (babel.cfg)."""
    with open(ROOT / "ui" / "i18n" / "babel.cfg") as f:
        method_map, options_map = parse_mapping_cfg(f)
    out = []
    for filename, lineno, key, _comments, _ctx in extract_from_dir(str(ROOT), method_map, options_map, keywords={}):
        out.append((key, f"{filename}:{lineno}"))
    assert len(out) > 250, "the extractor found too few keys: is babel.cfg's pattern right?"
    return out


def _template():
    with open(compiled.template_path(), "rb") as f:
        return read_po(f)


def _po(lang: str):
    with open(compiled.po_path(lang), "rb") as f:
        return read_po(f, locale=lang)


def _forms(text) -> tuple[str, ...]:
    return tuple(text) if isinstance(text, (tuple, list)) else (text,)


def test_every_literal_key_the_code_uses_is_in_the_template():
    held = {m.context for m in _template() if m.id}
    missing = sorted({(k, w) for k, w in _extracted() if "*" not in k and k not in held})
    assert not missing, missing


def test_every_key_built_at_run_time_belongs_to_a_listed_family():
    built = sorted({(k, w) for k, w in _extracted() if "*" in k})
    patterns = {k for k, _ in built}
    assert built
    bad = [(k, w) for k, w in built if family_of(k.replace("*", "x")) is None]
    assert not bad, f"add these to ui/i18n/keys.py FAMILIES: {bad}"
    # and every family is still built somewhere (a stale family would hide unused keys): an f-string
    # of the UI or a literal key matches it
    import ast

    for path in (ROOT / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.JoinedStr):
                patterns.add("".join(v.value if isinstance(v, ast.Constant) else "*" for v in node.values))
    literal = {k for k, _ in _extracted()}
    unbuilt = [
        f
        for f in FAMILIES
        if not any(fnmatch.fnmatchcase(p.replace("*", "x"), f) for p in patterns)
        and not any(fnmatch.fnmatchcase(k, f) for k in literal)
    ]
    assert not unbuilt, unbuilt


def test_every_template_key_is_used_literally_or_by_a_family():
    import ast

    strings = set()  # every string literal of the UI (keys also sit in lists: log_text's keys, GENERIC)
    for path in (ROOT / "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                strings.add(node.value)
    used = {k for k, _ in _extracted()} | strings
    unused = []
    for m in _template():
        if not m.id:
            continue
        key = m.context
        base = key
        for edition in EDITIONS:
            base = base.removeprefix(edition)
        if key not in used and base not in used and family_of(key) is None:
            unused.append(key)
    assert not unused, f"keys no code asks for (remove them, or list their family in keys.py): {unused}"


def test_template_texts_are_english_with_known_fields():
    units = {m.context.removeprefix("amount.") for m in _template() if m.context and m.context.startswith("amount.")}
    assert {"gold", "cards", "points"} <= units
    for m in _template():
        if not m.id:
            continue
        assert m.context, f"{m.id!r}: every message has its key as msgctxt"
        for form in _forms(m.id):
            for name, spec in FIELD.findall(form):
                assert name, f"{m.context}: empty field"
                assert not spec or spec in units or spec in ARTICLE_FORMS, f"{m.context}: unknown spec {spec!r}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != compiled.SOURCE])
def test_every_translation_is_complete_current_and_uses_the_same_fields(lang):
    template = {m.context: m for m in _template() if m.id}
    po = _po(lang)
    nplurals = po.num_plurals
    got = {m.context: m for m in po if m.id}
    assert set(got) == set(template), sorted(set(got) ^ set(template))
    units = {k.removeprefix("amount.") for k in template if k.startswith("amount.")}
    problems = []
    for key, m in got.items():
        t = template[key]
        if m.id != t.id:
            problems.append(f"{key}: translated from an older English text (run pybabel update)")
        if m.fuzzy:
            problems.append(f"{key}: fuzzy (check the translation, then remove the mark)")
        forms = _forms(m.string)
        if isinstance(t.id, tuple) and len(forms) != nplurals:
            problems.append(f"{key}: {len(forms)} plural forms, {lang} has {nplurals}")
        if not all(forms):
            problems.append(f"{key}: not translated")
        allowed = {name for form in _forms(t.id) for name, _ in FIELD.findall(form)}
        if isinstance(t.id, tuple):
            allowed.add("n")
        for form in forms:
            for name, spec in FIELD.findall(form):
                if name not in allowed:
                    problems.append(f"{key}: field {{{name}}} the English text does not have")
                if spec and spec not in units and spec not in ARTICLE_FORMS:
                    problems.append(f"{key}: unknown spec {spec!r}")
    assert not problems, "\n".join(problems)


def test_catalogue_is_parsed_once_and_every_language_has_every_key():
    assert _load("en") is _load("en")
    assert set(_load("en")) == set(_load("es"))


def test_the_compiled_mo_follows_its_po(tmp_path, monkeypatch):
    """An edited .po is compiled again at the next load; an untouched one is read as it is."""
    locale = tmp_path / "locale"
    shutil.copytree(compiled.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    monkeypatch.setattr(compiled, "LOCALE_DIR", locale)
    texts, _ = compiled.load("es")
    assert texts["ui.round"] == "Ronda {n}"
    mo = compiled.mo_path("es")
    first = mo.read_bytes()
    assert compiled.load("es")[0] == texts and mo.read_bytes() == first  # not compiled again
    po = compiled.po_path("es")
    po.write_text(po.read_text().replace('msgstr "Ronda {n}"', 'msgstr "Vuelta {n}"'))
    assert compiled.load("es")[0]["ui.round"] == "Vuelta {n}"
    assert mo.read_bytes() != first
    # an English text changed in the template: English follows at once
    pot = compiled.template_path()
    pot.write_text(pot.read_text().replace('msgid "Round {n}"', 'msgid "Turn {n}"'))
    assert compiled.load("en")[0]["ui.round"] == "Turn {n}"


def _pybabel(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, capture_output=True)


def test_pybabel_update_keeps_translations_and_marks_changed_english_fuzzy(tmp_path, monkeypatch):
    """The workflow of ui/README.md with pybabel itself: a changed English text keeps its Spanish
    as fuzzy (not compiled: English shows until a translator checks it); a new key is added empty."""
    locale = tmp_path / "locale"
    shutil.copytree(compiled.LOCALE_DIR, locale, ignore=shutil.ignore_patterns("*.mo"))
    pot = locale / "citadels.pot"
    text = pot.read_text()
    text = text.replace('msgid "Round {n}"', 'msgid "Round {n} of the game"')
    text += '\nmsgctxt "ui.brand_new"\nmsgid "A new text"\nmsgstr ""\n'
    pot.write_text(text)
    _pybabel("update", "-i", str(pot), "-d", str(locale), "-D", "citadels", "-l", "es", "--previous")
    es = read_po((locale / "es" / "LC_MESSAGES" / "citadels.po").open("rb"), locale="es")
    changed = es.get("Round {n} of the game", context="ui.round")
    assert changed is not None and changed.fuzzy and changed.string == "Ronda {n}"
    new = es.get("A new text", context="ui.brand_new")
    assert new is not None and (new.fuzzy or new.string == "")  # pybabel may guess a close text, fuzzy
    kept = es.get("{n} card", context="ui.cards_n")
    assert kept is not None and not kept.fuzzy and tuple(kept.string) == ("{n} carta", "{n} cartas")
    _pybabel("compile", "-d", str(locale), "-D", "citadels", "-l", "es")
    monkeypatch.setattr(compiled, "LOCALE_DIR", locale)
    texts, _ = compiled.load("es")  # our own compile agrees: fuzzy and empty are left out
    assert "ui.round" not in texts and "ui.brand_new" not in texts and texts["ui.deck"] == "Mazo {n}"
