"""What the players' screens share: the family names, the rating as shown, a sparkline, the base screen."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding
from textual.screen import Screen

from ..i18n import Catalogue
from ..players_data import FAMILIES
from ..widgets.key_bar import KeyBar

STYLES = Path(__file__).resolve().parent.parent / "styles"
BARS = "▁▂▃▄▅▆▇█"


def family_title(cat: Catalogue, family: str) -> str:
    return cat.t(f"players.family_{family}", fallback=family)


def family_short(cat: Catalogue, family: str) -> str:
    return cat.t(f"players.family_short_{family}", fallback=family)


def rating_text(rating: float) -> str:
    return f"{rating:.1f}"


def sparkline(values: list[float], width: int = 30) -> str:
    """The last `width` values as block characters, lowest to highest (all equal: a flat middle line)."""
    values = values[-width:]
    if not values:
        return ""
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return BARS[3] * len(values)
    return "".join(BARS[round((v - low) / (high - low) * (len(BARS) - 1))] for v in values)


def next_family(family: str, delta: int, families: list[str] | tuple[str, ...] = FAMILIES) -> str:
    i = families.index(family) if family in families else 0
    return families[(i + delta) % len(families)]


class PlayersScreen(Screen):
    """A full screen with Esc to go back; `refresh_page()` draws it in the current language."""

    CSS_PATH = [STYLES / "players.tcss"]
    BINDINGS = [Binding("escape", "back", show=False)]
    KEYS = ""  # the catalogue key of the key bar

    def __init__(self, cat: Catalogue, **kw) -> None:
        super().__init__(classes="players-screen", **kw)
        self.cat = cat

    def P(self, key: str, **kw) -> str:
        return self.cat.t(f"players.{key}", **kw)

    def set_language(self, cat: Catalogue) -> None:
        self.cat = cat
        if self.is_mounted:
            self.refresh_page()

    def refresh_page(self) -> None:
        self.query_one(KeyBar).show(self.P(self.KEYS))

    def on_mount(self) -> None:
        self.refresh_page()

    def action_back(self) -> None:
        self.dismiss(None)
