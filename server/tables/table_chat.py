"""A table's chat: a person's line to everyone at the table, and the last lines kept for whoever
comes (back) later. Chat holds no game state: the table calls it directly, without its queue."""

from __future__ import annotations

from collections import deque

import msgspec

from engine.text import clean_text
from server.tables.messages import Chat
from server.tables.seats import MAX_CHAT, Client

CHAT_KEPT = 30  # the last lines a table keeps for a player who comes back (or a spectator who arrives)


class TableChat:
    def __init__(self) -> None:
        self.lines: deque[Chat] = deque(maxlen=CHAT_KEPT)  # marked `past`: not unread when replayed

    def say(self, clients: list[Client], author: str, text: str, watching: bool = False) -> None:
        text = clean_text(text, MAX_CHAT)  # no control, bidi or zero-width character reaches the others
        if not text:
            return
        line = Chat(author, text, watching)
        self.lines.append(msgspec.structs.replace(line, past=True))
        for c in clients:
            c.post(line)

    def replay(self, client: Client) -> None:
        """What was said before `client` came (after its view: the screen is ready for it)."""
        for line in self.lines:
            client.post(line)
