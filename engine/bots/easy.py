"""The easy bot: plausible but loose.

The normal bot's scores with a wide random spread, no fear (it does not read
the face-up discards nor the pool passed to it), and now and then a random
legal command.
"""

from __future__ import annotations

from msgspec import structs

from .normal import NormalBot
from .styles import STYLES, Style


class EasyBot(NormalBot):
    kind = "easy"

    def __init__(self, seed: int = 0, style: Style | str | None = None, name: str | None = None) -> None:
        if isinstance(style, str):
            style = STYLES[style]
        base = style or STYLES["balanced"]
        loose = structs.replace(base, noise=2.5, mistakes=0.12, reads_table=False, caution=0.0)
        super().__init__(seed, loose, name or base.name)
