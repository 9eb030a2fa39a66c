"""The gettext catalogues on disk, compiled with Babel, loaded once per process.

Files (one domain, `citadels`): `locale/citadels.pot`, the template, is the English catalogue (English
is the source language: each message's `msgctxt` is its key, its `msgid` the English text, with
`msgid_plural` where the text has plural forms); `locale/<lang>/LC_MESSAGES/citadels.po` translates it.

Each is compiled to a `.mo` beside it (`citadels.mo`; English from the template, every message
translated by itself) the first time a process needs it and whenever its source changed: the `.mo`
records the SHA-256 of its source in its `Project-Id-Version` header, so an edited `.po` is never
shadowed by an old `.mo` (a `.mo` written by `pybabel compile` is simply compiled again). Writing is
atomic (a temporary file, then a rename), and where the package's folder cannot be written the
catalogue is compiled in memory. Fuzzy and untranslated messages are left out, as `pybabel compile`
does: their key falls back to English.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

DOMAIN = "citadels"
LOCALE_DIR = Path(__file__).parent / "locale"
SOURCE = "en"  # the template's language
_STAMP = "citadels-src"  # Project-Id-Version: "citadels-src <sha256 of the source>"
_FORMAT = "1"  # bump when the way of compiling changes: every .mo is compiled again

Text = str | tuple[str, ...]  # a text, or its plural forms (msgstr[0], msgstr[1], ...)


def template_path() -> Path:
    return LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def source_path(lang: str) -> Path:
    return template_path() if lang == SOURCE else po_path(lang)


def _digest(source: bytes) -> str:
    return hashlib.sha256(_FORMAT.encode() + b"\0" + source).hexdigest()


def compile_catalogue(lang: str, source: bytes) -> bytes:
    """The `.mo` bytes of one language, from its `.po` (or, for English, the template)."""
    cat = read_po(io.BytesIO(source), locale=lang, domain=DOMAIN)
    if lang == SOURCE:  # the template: every message is its own translation
        for m in cat:
            if m.id:
                m.string = m.id
                m.flags.discard("fuzzy")
    cat.project, cat.version = _STAMP, _digest(source)
    buf = io.BytesIO()
    write_mo(buf, cat)
    return buf.getvalue()


def _read(mo: bytes) -> Catalog | None:
    try:
        return read_mo(io.BytesIO(mo))
    except Exception:  # an unreadable .mo is compiled again
        return None


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def compiled(lang: str) -> Catalog:
    """The up-to-date compiled catalogue of one language (its `.mo` parsed once), compiled (and
    written, if possible) when stale."""
    source = source_path(lang).read_bytes()
    mo = mo_path(lang)
    try:
        cat = _read(mo.read_bytes())
    except OSError:
        cat = None
    if cat is not None and cat.version == _digest(source):
        return cat
    data = compile_catalogue(lang, source)
    try:
        mo.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(mo, data)
    except OSError:  # a read-only install: the catalogue lives in memory only
        pass
    return read_mo(io.BytesIO(data))


def load(lang: str) -> tuple[dict[str, Text], Callable[[int], int]]:
    """(key -> text or plural forms, the language's plural function n -> form index)."""
    cat = compiled(lang)
    texts: dict[str, Text] = {}
    for m in cat:
        if not m.id or m.context is None:
            continue
        key = m.context.decode() if isinstance(m.context, bytes) else m.context  # read_mo leaves it bytes
        string = m.string
        texts[key] = tuple(string) if isinstance(string, (tuple, list)) else string or ""
    return texts, gettext.c2py(cat.plural_expr)
