"""How cards look on screen: small coloured tokens that never rely on colour alone.

A district is `N3 Manor` (type letter, cost, name) on its type's colour; a
beautified one shows `+` after the cost. A character is `4 King` (rank, name).

Colours are the printed cards' (noble yellow, religious blue, trade green,
military red, unique purple), given as RGB: Textual turns the ANSI names into
its theme's RGB, where red and magenta are one colour and yellow is orange.
Each RGB value is chosen so that the conversion to a 256-colour or a
16-colour terminal (Rich's `Color.downgrade`, which the server's driver
applies per client) lands on five different colours of the right hue
(tests/ui/test_cards_colours.py). A second palette (`colour-blind`, after
Okabe and Ito) is chosen per player (`Catalogue.palette`). The type letter is
always there, so NO_COLOR and monochrome screens lose nothing.
"""

from __future__ import annotations

from rich.text import Text

from engine.cards.districts import DISTRICTS, TYPES

from .i18n import Catalogue

PALETTES = ("printed", "colour-blind")

# (background, foreground on it, foreground on the screen's dark background) per type
_RGB: dict[str, dict[str, tuple[str, str, str]]] = {
    "printed": {
        "noble": ("rgb(232,190,40)", "rgb(0,0,0)", "rgb(240,200,60)"),
        "religious": ("rgb(40,90,200)", "rgb(255,255,255)", "rgb(90,140,255)"),
        "trade": ("rgb(40,150,60)", "rgb(0,0,0)", "rgb(70,190,90)"),
        "military": ("rgb(200,40,40)", "rgb(255,255,255)", "rgb(240,80,80)"),
        "unique": ("rgb(140,60,170)", "rgb(255,255,255)", "rgb(190,110,230)"),
    },
    # Okabe-Ito hues (yellow, blue, bluish green, vermillion, reddish purple), nudged so that
    # 16-colour terminals still get five different colours.
    "colour-blind": {
        "noble": ("rgb(240,228,66)", "rgb(0,0,0)", "rgb(240,228,66)"),
        "religious": ("rgb(30,100,220)", "rgb(255,255,255)", "rgb(86,180,233)"),
        "trade": ("rgb(0,158,115)", "rgb(0,0,0)", "rgb(0,180,130)"),
        "military": ("rgb(230,80,20)", "rgb(0,0,0)", "rgb(240,110,40)"),
        "unique": ("rgb(200,100,200)", "rgb(0,0,0)", "rgb(220,140,210)"),
    },
}
TYPE_STYLE = {
    palette: {kind: f"bold {fg} on {bg}" for kind, (bg, fg, _) in kinds.items()} for palette, kinds in _RGB.items()
}
TYPE_FG = {palette: {kind: f"bold {fg}" for kind, (_, _, fg) in kinds.items()} for palette, kinds in _RGB.items()}
CHARACTER_STYLE = "bold"
HIDDEN_STYLE = "dim"


def _palette(cat: Catalogue) -> str:
    p = getattr(cat, "palette", "printed")
    return p if p in _RGB else "printed"


def type_style(cat: Catalogue, kind: str) -> str:
    """The token style (letters on the type's colour) in the player's palette."""
    return TYPE_STYLE[_palette(cat)].get(kind, "")


def type_fg(cat: Catalogue, kind: str) -> str:
    """The type's colour for letters on the screen's background."""
    return TYPE_FG[_palette(cat)].get(kind, "")


def district_type(name: str) -> str:
    d = DISTRICTS.get(name)
    return d.type if d else "unique"


def hand_order(cat: Catalogue, card: str) -> tuple[int, str]:
    """How a hand is sorted: by type (noble, religious, trade, military, unique), then cost."""
    d = DISTRICTS.get(card)
    return (999 if d is None else TYPES.index(d.type) * 100 + (cat.cost(card) or 0), card)


def district_cost(cat: Catalogue, name: str) -> int | None:
    """The printed cost in the edition of the game shown (`cat.set_rules`): the 2000 Observatory costs 5."""
    return cat.cost(name)


def district_label(cat: Catalogue, name: str, beautified: bool = False, under: int = 0) -> str:
    """`N3 Manor`: type letter, cost (`+` when beautified), name (`[2]` cards under it)."""
    kind = district_type(name)
    cost = district_cost(cat, name)
    cost_s = "" if cost is None else str(cost + (1 if beautified else 0))
    label = f"{cat.type_letter(kind)}{cost_s}{'+' if beautified else ''} {cat.district(name)}"
    if under:
        label += f" [{under}]"
    return label


def district_token(cat: Catalogue, name: str, beautified: bool = False, under: int = 0) -> Text:
    """`N3 Manor` on the type's colour; `+` marks a beautified district, `[2]` cards under it."""
    label = district_label(cat, name, beautified, under)
    return Text(f" {label} ", style=type_style(cat, district_type(name)), end="")


def district_letter(cat: Catalogue, name: str, beautified: bool = False) -> Text:
    """One letter for a district in a compressed city: its type's letter in its type's colour
    (underlined when beautified)."""
    kind = district_type(name)
    style = type_fg(cat, kind) + (" underline" if beautified else "")
    return Text(cat.type_letter(kind), style=style, end="")


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


def pack_rows(widths: list[int], width: int, indent: int = 0, sep: int = 1) -> int:
    """How many lines `pack` makes of tokens this wide (counted, not drawn)."""
    rows, used = 1, indent
    for w in widths:
        if used > indent and used + sep + w > width:
            rows += 1
            used = indent
        used += (sep if used > indent else 0) + min(w, max(width - used, 1))
    return rows


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
