"""Cards that look like Citadels: the printed cards' colours, kept apart on 256- and 16-colour terminals
(through the server's own conversion), a palette for colour-blind players that stays apart under
simulated colour blindness, the type letter always there; and the help's prose reflowed to the window."""

from __future__ import annotations

import itertools
import re

import pytest
from rich.color import Color, ColorSystem
from rich.text import Text
from ui_helpers import make_app, screen_text

from server.transport.colour import make_colour_downgrade
from ui.cards import _RGB, PALETTES, district_token
from ui.i18n import Catalogue
from ui.screens.help import reflow

TYPES = ("noble", "religious", "trade", "military", "unique")
# the 16 ANSI colours a type may land on (normal or bright): its printed hue
HUES = {"noble": {3, 11}, "religious": {4, 12}, "trade": {2, 10}, "military": {1, 9}, "unique": {5, 13}}


def rgb(spec: str) -> tuple[int, int, int]:
    r, g, b = (int(v) for v in re.findall(r"\d+", spec))
    return r, g, b


@pytest.mark.parametrize("palette", PALETTES)
def test_types_are_five_colours_in_every_colour_system(palette):
    backgrounds = {kind: Color.from_rgb(*rgb(_RGB[palette][kind][0])) for kind in TYPES}
    for system in (ColorSystem.EIGHT_BIT, ColorSystem.STANDARD):
        numbers = {kind: c.downgrade(system).number for kind, c in backgrounds.items()}
        assert len(set(numbers.values())) == 5, (palette, system, numbers)
        if palette == "printed" and system == ColorSystem.STANDARD:
            for kind, n in numbers.items():
                assert n in HUES[kind], (kind, n)


@pytest.mark.parametrize("system", ["256", "standard"])
def test_the_servers_conversion_keeps_the_types_apart(system):
    """A row of tokens rendered as the server renders (true colour), converted for the client."""
    cat = Catalogue("en")
    from rich.console import Console

    console = Console(color_system="truecolor", force_terminal=True, width=200)
    names = ["Manor", "Temple", "Market", "Prison", "Keep"]
    for palette in PALETTES:
        cat.set_palette(palette)
        row = Text(" ").join(district_token(cat, n) for n in names)
        with console.capture() as cap:
            console.print(row, end="")
        frame = make_colour_downgrade(system)(cap.get())
        backgrounds = re.findall(r"\x1b\[[0-9;]*?(?:4[0-7]|10[0-7]|48;5;\d+)[;m]", frame)
        assert len(set(backgrounds)) == 5, (palette, backgrounds)


M = {  # Machado, Oliveira & Fernandes (2009), severity 1, on linear RGB
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.3039]],
}


def _lab(c: tuple[int, int, int], m: list[list[float]]) -> tuple[float, float, float]:
    lin = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c]
    r, g, b = (max(0.0, min(1.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3))
    x, y, z = (
        0.4124 * r + 0.3576 * g + 0.1805 * b,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        0.0193 * r + 0.1192 * g + 0.9505 * b,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x / 0.95047) - f(y)), 200 * (f(y) - f(z / 1.08883))


def closest_pair(palette: str, m: list[list[float]]) -> float:
    labs = [_lab(rgb(_RGB[palette][kind][0]), m) for kind in TYPES]
    return min(sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5 for a, b in itertools.combinations(labs, 2))


@pytest.mark.parametrize("deficiency", list(M))
def test_colour_blind_palette_stays_apart(deficiency):
    """Under simulated colour blindness the five types of the colour-blind palette stay at least 20 ΔE
    apart (the printed colours do not: red and green, blue and purple come close)."""
    m = M[deficiency]
    assert closest_pair("colour-blind", m) >= 20
    if deficiency != "tritanopia":
        assert closest_pair("colour-blind", m) > 1.5 * closest_pair("printed", m)


async def test_f5_switches_the_palette_and_keeps_the_letters():
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
        before = screen_text(app)
        await pilot.press("f5")
        await pilot.pause()
        assert app.options.palette == "colour-blind" and app.cat.palette == "colour-blind"
        assert app.cat.key != Catalogue("en").key  # lines drawn for one palette are not shared with the other
        for token in ("N5 Palace", "R3 Monastery", "T4 Harbor"):
            assert token in before and token in screen_text(app)
        await pilot.press("f5")
        await pilot.pause()
        assert app.options.palette == "printed"


def test_help_prose_is_reflowed():
    for lang in ("en", "es"):
        cat = Catalogue(lang)
        text = reflow(cat.t("help.rules", complete=7, top=8, tiebreak=cat.t("help.tiebreak_rank")))
        paragraphs = text.split("\n\n")
        assert len(paragraphs) == 3 and all("\n" not in p for p in paragraphs)


@pytest.mark.parametrize(
    "size,lang",  # en at 80x24 in the fast tier; the other three complete the sweep (slow)
    [
        pytest.param((80, 24), "en", id="80x24-en"),
        pytest.param((80, 24), "es", id="80x24-es", marks=pytest.mark.slow),
        pytest.param((120, 40), "en", id="120x40-en", marks=pytest.mark.slow),
        pytest.param((120, 40), "es", id="120x40-es", marks=pytest.mark.slow),
    ],
)
async def test_help_wraps_to_the_window(size, lang):
    """The rules in short, on screen: every line of a paragraph but its last runs to the window's width
    (the catalogue's own line breaks used to end lines early and leave single words alone)."""
    app, _ = make_app(players=4, seed=1, lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.press("end")
        await pilot.pause()
        region = app.screen.query_one("#help-scroll").content_region  # the page, inside its frame
        rows = [row[region.x : region.right] for row in screen_text(app).splitlines()[region.y : region.bottom]]
        title = app.cat.t("help.rules_title")
        start = next(i for i, row in enumerate(rows) if title in row)
        body = [row.rstrip("▁▇█▔▎▊ ").strip() for row in rows[start + 1 :]]
        width = region.width - 2  # a column of scroll bar
        paragraphs: list[list[str]] = [[]]
        for line in body:
            if line:
                paragraphs[-1].append(line)
            elif paragraphs[-1]:
                paragraphs.append([])
        full = [line for p in paragraphs for line in p[:-1]]
        assert len(full) >= 4
        assert all(len(line) >= width - 16 for line in full), (width, full)
