"""Events: what a command caused, as one generic msgspec Struct.

One shape for every event keeps redaction, logging and the UI's sentences
generic: `kind` names what happened (the UI has one sentence per kind), the
other fields say who and what. `private` lists the seats that may see the
hidden fields (`character`, `card`, `cards`); everyone else receives the event
with those fields blanked (see `view.redact_event`).
"""

from __future__ import annotations

from msgspec import Struct, field


class Event(Struct, omit_defaults=True):
    kind: str
    seat: int = -1  # who did it
    player: int = -1  # who it was done to
    character: str | None = None
    district: str | None = None
    card: str | None = None
    cards: list[str] = field(default_factory=list)
    gold: int = 0
    count: int = 0
    option: str | None = None
    private: list[int] | None = None  # seats that see the hidden fields; None: public
