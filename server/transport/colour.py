"""Per-client colours for served apps.

Rich caches the escape codes of a Style on the Style instance, whatever the
colour system, and Textual shares Style and Strip instances between apps
through class-level caches. Apps in one process must therefore all render
with one colour system: served apps render in true colour, and the driver
rewrites the colours of each frame for clients with fewer colours (the same
conversion Rich would have made).

The conversions are shared by every session of the process with the same colour
system. Most of a frame is the rendered text of strips that are themselves
shared (Textual keeps a strip's rendered text on it; `ui/compat/direct_paint.py`
paints such texts one by one): `rendered_colours` converts each such text once
per process and colour system, keyed by the text, and the driver writes it as
is (`SSHDriver.write_converted`). Textual's own frames are converted whole when
they are sent, as before.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from itertools import islice

from rich.color import Color, ColorSystem

_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_DOWNGRADE_CACHE_SIZE = 4096
MAX_RENDERED = 4096  # converted texts kept per colour system (a strip's row: ~100-500 characters)
_SYSTEMS = {"256": ColorSystem.EIGHT_BIT, "standard": ColorSystem.STANDARD}
_COLOUR_PARAMS = {str(n) for n in (*range(30, 38), 39, *range(40, 48), 49, *range(90, 98), *range(100, 108))}


@functools.cache
def make_colour_downgrade(color_system: str | None) -> Callable[[str], str] | None:
    """A function rewriting the SGR colours of a true-colour frame for a client
    whose colour system is ``color_system`` ("truecolor", "256", "standard" or
    None for no colour); None when nothing needs rewriting. One per colour system
    in the process: its memo of SGR parameters serves every session."""
    if color_system in ("truecolor", "windows"):
        return None
    system = _SYSTEMS.get(color_system or "")
    cache: dict[str, str] = {}

    def convert_params(params: str) -> str:
        parts = params.split(";")
        out: list[str] = []
        i = 0
        while i < len(parts):
            part = parts[i]
            if part in ("38", "48") and i + 1 < len(parts):
                kind = parts[i + 1]
                if kind == "2" and i + 4 < len(parts):
                    try:
                        color = Color.from_rgb(int(parts[i + 2]), int(parts[i + 3]), int(parts[i + 4]))
                    except ValueError:
                        color = None
                    i += 5
                elif kind == "5" and i + 2 < len(parts):
                    try:
                        color = Color.from_ansi(int(parts[i + 2]))
                    except (ValueError, IndexError):
                        color = None
                    i += 3
                else:
                    out.append(part)
                    i += 1
                    continue
                if color is not None and system is not None:
                    out.extend(color.downgrade(system).get_ansi_codes(foreground=part == "38"))
                continue
            if system is None and part in _COLOUR_PARAMS:
                i += 1
                continue
            out.append(part)
            i += 1
        return ";".join(out)

    def replace(params: str) -> str:
        if not params or params == "0":
            result = f"\x1b[{params}m"
        else:
            converted = convert_params(params)
            result = f"\x1b[{converted}m" if converted else ""
        if len(cache) >= _DOWNGRADE_CACHE_SIZE:
            cache.clear()
        cache[params] = result
        return result

    def downgrade(frame: str) -> str:
        # split, not `sub` with a callback: a frame has ~100 SGRs, nearly all in the cache, and a
        # look-up per piece is ~40 % cheaper than a call per match
        parts = _SGR.split(frame)  # text, params, text, params, ..., text
        get = cache.get
        for i in range(1, len(parts), 2):
            params = parts[i]
            result = get(params)
            parts[i] = replace(params) if result is None else result
        return "".join(parts)

    return downgrade


@functools.cache
def rendered_colours(color_system: str | None) -> Callable[[str], str] | None:
    """Like `make_colour_downgrade`, for texts that recur as they are (a strip's rendered row, shared
    by every app): each converted once and kept, first in first out, keyed by the whole text (a `str`
    keeps its hash, and the same object compares at once). Only for whole escape sequences: a text
    is converted on its own, not with what is written around it. None when nothing needs rewriting."""
    downgrade = make_colour_downgrade(color_system)
    if downgrade is None:
        return None
    converted: dict[str, str] = {}

    def convert(text: str) -> str:
        result = converted.get(text)
        if result is None:
            result = downgrade(text)
            if len(converted) >= MAX_RENDERED:  # an eighth at a time (`line_frame._put` says why)
                for old in list(islice(converted, MAX_RENDERED // 8)):
                    del converted[old]
            converted[text] = result
        return result

    return convert
