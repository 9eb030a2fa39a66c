"""The one sanitiser for text a person types that other people or the host see.

Player names, chat lines, table names, save names and names read from save
files all pass through here before anyone else sees them (the lobby, the
table, the logs, `citadels save show`). What it does:

- drops C0 and C1 controls (ESC, U+009B CSI, U+009D OSC...), Unicode format
  characters (bidi overrides and isolates such as U+202E, zero-width U+200B,
  joiners, U+FEFF), surrogates, private-use and unassigned code points, the
  variation selectors and the few "blank" letters that draw as nothing;
- turns every kind of whitespace (tabs, newlines, U+2028, U+00A0, U+3000...)
  into one ASCII space, trims the ends;
- keeps at most `MAX_MARKS` combining marks on a character (no "Zalgo"
  towers spilling over other rows), after NFC normalisation;
- bounds the length.

`name_problem` holds the rules a name must also follow: at least one letter or
digit and starting with one (so "*", the author of server notices, and lines
like "* server" cannot be names), no reserved word ("server", "host",
"admin"...) and no bot mark.

Pure (standard library only): the engine, the UI, the server and the command
line may all use it.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 20  # a player's name
MAX_TABLE_NAME = 40
MAX_CHAT = 300
MAX_MARKS = 2  # combining marks kept on one base character

# Categories dropped outright: controls, format (bidi, zero-width), surrogates, private use, unassigned.
_DROP = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_MARKS = frozenset({"Mn", "Mc", "Me"})
# Letters and marks that draw as nothing (Hangul fillers, braille blank, the combining grapheme
# joiner, Khmer inherent vowels, Mongolian selectors) and the variation selectors.
_INVISIBLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x2800, 0x3164, 0xFFA0]
    + list(range(0xFE00, 0xFE10))
    + list(range(0xE0100, 0xE01F0))
)

RESERVED_NAMES = frozenset(
    {"server", "host", "admin", "administrator", "system", "citadels", "lobby", "notice", "moderator", "root"}
)
BOT_SUFFIX = "(bot)"


def _is_space(ch: str) -> bool:
    return ch.isspace() or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def _kept(text: str, *, keep_newlines: bool) -> str:
    out: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", text):
        if keep_newlines and ch == "\n":
            out.append(ch)
            marks = 0
            continue
        if _is_space(ch):
            out.append(" ")
            marks = 0
            continue
        cat = unicodedata.category(ch)
        if cat in _DROP or ord(ch) in _INVISIBLE:
            continue
        if cat in _MARKS:
            if marks >= MAX_MARKS or not out or out[-1] in " \n":
                continue  # a mark with nothing under it, or one too many
            marks += 1
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def clean_text(text: str, limit: int = MAX_CHAT) -> str:
    """One line of text safe to show to others: controls dropped, whitespace collapsed, at most `limit`."""
    if not isinstance(text, str):
        return ""
    return " ".join(_kept(text, keep_newlines=False).split())[:limit].rstrip()


def strip_controls(text: str) -> str:
    """Text for a terminal with its layout kept (newlines and runs of spaces): only what could act
    on the terminal or hide itself is dropped. For printing files (`citadels save show`)."""
    return _kept(text, keep_newlines=True)


def clean_name(text: str, limit: int = MAX_NAME) -> str:
    """A name as others will see it (see `name_problem` for whether it may be used)."""
    return clean_text(text, limit)


def _skeleton(name: str) -> str:
    return "".join(ch for ch in name.casefold() if ch.isalnum())


def name_problem(name: str) -> str | None:
    """Why this (cleaned) name cannot be a player's name, or None if it can."""
    if not name or not any(ch.isalnum() for ch in name):
        return "A name needs at least one letter or digit."
    if not name[0].isalnum():
        return "A name starts with a letter or a digit."
    if _skeleton(name) in RESERVED_NAMES:
        return f"The name {name!r} is reserved for the server."
    if "".join(name.casefold().split()).endswith(BOT_SUFFIX):
        return "Names ending in (bot) are for the bots."
    return None


def player_name(text: str, fallback: str = "player") -> str:
    """A usable name from what a client sent (an SSH user name): cleaned, or `fallback` if refused."""
    name = clean_name(text)
    return fallback if name_problem(name) else name
