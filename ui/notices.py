"""How the table's own words and the players' words look: one home for both, so that they can never
be confused.

A player's chat line is "name: text" with the name in bold. The table's notices (a player away, a
bot playing for them, their return, time up, saving...) arrive as their own message type
(`ui.link.TableNotice`, never a chat line) and are drawn with a reversed "»" badge and italic text:
no name a player can choose and nothing they can type produces that badge (their text is drawn as
plain characters after their bold name).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .i18n import Catalogue
from .widgets.log_view import Row

NOTICE_TAG = "»"
NOTICE_TAG_STYLE = "bold reverse"
NOTICE_STYLE = "italic"
BOT_TAG_STYLE = "bold"


@dataclass(frozen=True)
class NoticeLine:
    """A notice kept in the game log (told again when the language changes)."""

    key: str
    fields: dict[str, Any] = field(default_factory=dict)

    def text(self, cat: Catalogue) -> str:
        return cat.t(f"notice.{self.key}", **self.fields)


def notice_row(text: str) -> Row:
    return Row(text, style=NOTICE_STYLE, tag=NOTICE_TAG, tag_style=NOTICE_TAG_STYLE)


def chat_row(cat: Catalogue, author: str, text: str, watching: bool = False) -> Row:
    name = cat.t("ui.watching_author", name=author) if watching else author
    return Row(text, tag=f"{name}:", tag_style="bold")


def event_row(cat: Catalogue, text: str, quiet: bool, private: bool, by_bot: bool) -> Row:
    """A log sentence: dimmed when it is bookkeeping, tagged when only you see it or a bot played it."""
    style = "dim" if quiet else ""
    tags = []
    if by_bot:
        tags.append(f"[{cat.t('ui.by_bot')}]")
    if private:
        tags.append(f"[{cat.t('ui.private')}]")
    if not tags:
        return Row(text, style=style)
    return Row(text, style=style, tag="".join(tags), tag_style="bold reverse" if private else BOT_TAG_STYLE)
