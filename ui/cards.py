"""How cards look on screen: small coloured tokens that never rely on colour alone.

A district is `N3 Manor` (type letter, cost, name) on its type's colour; a
beautified one shows `+` after the cost. A character is `4 King` (rank, name).
Colours are the 16 basic ANSI colours, so they survive any colour system, and
the letter carries the type when there is no colour at all (NO_COLOR).
"""

from __future__ import annotations

from rich.text import Text

from engine.cards.districts import DISTRICTS

from .i18n import Catalogue

TYPE_STYLE = {
    "noble": "bold black on yellow",
    "religious": "bold bright_white on blue",
    "trade": "bold black on green",
    "military": "bold bright_white on red",
    "unique": "bold bright_white on magenta",
}
TYPE_FG = {
    "noble": "yellow",
    "religious": "blue",
    "trade": "green",
    "military": "red",
    "unique": "magenta",
}
CHARACTER_STYLE = "bold"
HIDDEN_STYLE = "dim"


def district_type(name: str) -> str:
    d = DISTRICTS.get(name)
    return d.type if d else "unique"


def district_cost(cat: Catalogue, name: str) -> int | None:
    """The printed cost in the edition of the game shown (`cat.set_rules`): the 2000 Observatory costs 5."""
    return cat.cost(name)


def district_token(cat: Catalogue, name: str, beautified: bool = False, under: int = 0) -> Text:
    """`N3 Manor` on the type's colour; `+` marks a beautified district, `[2]` cards under it."""
    kind = district_type(name)
    cost = district_cost(cat, name)
    cost_s = "" if cost is None else str(cost + (1 if beautified else 0))
    label = f"{cat.type_letter(kind)}{cost_s}{'+' if beautified else ''} {cat.district(name)}"
    if under:
        label += f" [{under}]"
    return Text(f" {label} ", style=TYPE_STYLE.get(kind, ""), end="")


def district_line(cat: Catalogue, name: str) -> Text:
    """A hand card on its own line: token, then the unique effect text (the edition's)."""
    t = Text(end="")
    t.append_text(district_token(cat, name))  # not the token itself: its colours would run on
    if district_type(name) == "unique":
        text = cat.district_text(name)
        if text:
            t.append(" " + text, style="italic")
    return t


def character_label(cat: Catalogue, name: str | None) -> Text:
    if name is None:
        return Text(cat.t("ui.unknown"), style=HIDDEN_STYLE, end="")
    return Text(cat.ranked(name), style=CHARACTER_STYLE, end="")


def pack(tokens: list[Text], width: int, indent: int = 0, sep: int = 1) -> list[Text]:
    """Lay tokens out in lines no wider than `width`, never splitting a token."""
    lines: list[Text] = []
    line = Text(" " * indent, end="")
    used = indent
    for tok in tokens:
        w = tok.cell_len
        if used > indent and used + sep + w > width:
            lines.append(line)
            line = Text(" " * indent, end="")
            used = indent
        if used > indent:
            line.append(" " * sep)
            used += sep
        if w > width - used:  # a token wider than the line: truncate it
            tok = tok.copy()
            tok.truncate(max(width - used, 1), overflow="ellipsis")
            w = tok.cell_len
        line.append_text(tok)
        used += w
    if used > indent or not lines:
        lines.append(line)
    return lines
