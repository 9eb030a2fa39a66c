"""What a client sends about its terminal: text it names, its size, its colours — each bounded
or sanitised before the server uses it (its environment requests: compat.BoundedEnvChannel)."""

from __future__ import annotations

import socket

from server.config import ServerConfig

DEFAULT_SIZE = (80, 24)


def sanitize_text(text: str, limit: int = 64) -> str:
    """Printable characters only, at most ``limit`` of them."""
    return "".join(ch for ch in text if ch.isprintable())[:limit]


def display_host(host: str) -> str:
    """The host name to show in "ssh -p PORT HOST" for a listening address."""
    if host in ("", "0.0.0.0", "::"):
        return socket.gethostname()
    return host


def clamp_size(width: int, height: int, config: ServerConfig) -> tuple[int, int]:
    """Clamp a client's terminal size; a zero size becomes 80x24."""
    if width <= 0 or height <= 0:
        width, height = DEFAULT_SIZE
    return (min(max(width, 1), config.max_term_width), min(max(height, 1), config.max_term_height))


_TRUECOLOR_TERMS = (
    "kitty",
    "alacritty",
    "wezterm",
    "ghostty",
    "foot",
    "contour",
    "iterm",
    "truecolor",
    "24bit",
    "direct",
)


def color_system_for(term: str | None, colorterm: str | None) -> str | None:
    """Pick a Rich colour system from the client's TERM and COLORTERM.

    OpenSSH forwards only TERM by default, so most clients are judged by it:
    ``*-256color`` gives 256 colours, terminals known for true colour get it,
    ``dumb``/``unknown`` get none, anything else the 16 standard colours.
    """
    colorterm = (colorterm or "").strip().lower()
    if colorterm in ("truecolor", "24bit"):
        return "truecolor"
    term = (term or "").strip().lower()
    if term in ("dumb", "unknown"):
        return None
    if any(name in term for name in _TRUECOLOR_TERMS):
        return "truecolor"
    if term.endswith("256color") or "256" in term:
        return "256"
    return "standard"
