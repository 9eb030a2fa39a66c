"""Rich's control-code stripping skipped for text that has no control code.

Verified with Rich 15.0.0 (the version Textual 8.2.8 installs here; tests/ui/test_textual_patches.py
compares the patched function with Rich's own on random text).

Every `rich.text.Text(...)` and every `Text.append(str)` passes its string through
`rich.control.strip_control_codes`, a `str.translate` with a dict of five code points: a dict
look-up per character (0.3-1.1 us for a 5-30 character string). The table screen's lines are built
from many short strings (names, gold, card names) on every view: 1 % of a served move's CPU
(CPU-time samples at 1,000 sessions, docs/performance.md). A string without any of those codes is
returned as it is; `str.isprintable()` (one C pass, ~0.05 us) finds that for nearly all of them: every
code Rich strips (bell, backspace, vertical tab, form feed, carriage return; any control code) is
not printable, so a printable string has none. Anything else (a newline, a tab, an escape, a
control code) goes to Rich's own function, as before. A `str` subclass comes back as a plain `str`,
as `str.translate` makes it.

`apply()` replaces the name `strip_control_codes` in `rich.text`, the module that calls it; if a Rich
release stops calling it by that name there, the patch changes nothing (Rich's function still
runs, only slower). Applied by `ui.compat.apply` on a verified Textual only.

Upstream: the same fast path at the top of `strip_control_codes`.
"""

from __future__ import annotations

import rich.text
from rich.control import strip_control_codes as rich_strip_control_codes

from ui.compat import check_verified


def strip_control_codes(text: str) -> str:
    """`rich.control.strip_control_codes`, the string itself when it is all printable (as a plain
    `str`, as `str.translate` returns: a subclass such as a card's name is not kept in a `Text`)."""
    if text.isprintable():
        return text if type(text) is str else str.__str__(text)
    return rich_strip_control_codes(text)


def apply() -> bool:
    """Make `rich.text` strip control codes this way (once); raises `UnverifiedTextual` on a Textual not verified."""
    check_verified("rich_text_patch")
    rich.text.strip_control_codes = strip_control_codes  # type: ignore[assignment]  # (Rich's has a default second argument)
    return True
