"""Textual CSS parsed once per process, not once per app.

Verified with Textual 8.2.8 (`ui.compat.VERIFIED_TEXTUAL`; tests/ui/test_textual_patches.py).

Each Textual `App` owns a `Stylesheet` whose `_parse_rules` parses every CSS
source (our .tcss files and every widget class's DEFAULT_CSS) into `RuleSet`
objects, cached only inside that stylesheet. A server runs one app per SSH
session: each session parsed the same CSS again (part of the ~80 ms an app
takes to start) and kept its own ~700 tokens, selectors and rule sets alive,
objects the garbage collector scans and, once a session has left, cycles only
a full collection frees.

`apply()` makes `_parse_rules` look in one process-wide cache first, keyed by
everything the parse depends on: the CSS text, where it was read from, the
default/tie-breaker/scope arguments and the stylesheet's variables (the
theme). Rule sets are only read after parsing (`Stylesheet.apply` extracts
their rules; nothing in Textual writes to them), so apps can share them.
Apps with another theme get their own parse. Applied by `ui.compat.apply`
on a verified Textual only.

Upstream: a class-level (process-wide) cache in `Stylesheet` keyed as here,
or parsed `DEFAULT_CSS` kept on the widget class.
"""

from __future__ import annotations

from typing import Any

from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet

from ui.compat import check_verified

_SHARED: LRUCache[tuple, list[Any]] = LRUCache(512)


def apply() -> bool:
    """Patch `Stylesheet._parse_rules` (once); raises `UnverifiedTextual` on a Textual not verified."""
    if getattr(Stylesheet, "_citadels_shared_parse", False):
        return True
    check_verified(__name__)
    parse_rules = Stylesheet._parse_rules

    def _parse_rules(
        self: Stylesheet,
        css: str,
        read_from: Any,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[Any]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, tuple(sorted(self._variables.items())))
        rules = _SHARED.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            _SHARED[key] = rules
        return rules

    _parse_rules.__doc__ = parse_rules.__doc__
    Stylesheet._parse_rules = _parse_rules  # type: ignore[method-assign]
    Stylesheet._citadels_shared_parse = True  # type: ignore[attr-defined]
    return True
