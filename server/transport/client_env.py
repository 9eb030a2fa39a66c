"""What a client sends about its terminal: text it names, its size, its colours,
its environment requests — each bounded or sanitised before the server uses it."""

from __future__ import annotations

from typing import Any

import asyncssh

from server.config import ServerConfig

DEFAULT_SIZE = (80, 24)


def sanitize_text(text: str, limit: int = 64) -> str:
    """Printable characters only, at most ``limit`` of them."""
    return "".join(ch for ch in text if ch.isprintable())[:limit]


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


class BoundedEnvChannel(asyncssh.SSHServerChannel):  # type: ignore[type-arg]
    """An asyncssh server channel that bounds ``env`` requests.

    asyncssh stores every environment request; this refuses them past a count
    and a size. Instances are made by asyncssh and re-classed in
    ``server/transport/ssh.py`` (this subclass adds no state of its own besides limits).
    """

    _citadels_max_env_vars = 32
    _citadels_max_env_bytes = 1024

    def _process_env_request(self, packet: Any) -> bool:  # asyncssh 2.24.1 hook
        key = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        if len(self._env) >= self._citadels_max_env_vars or len(key) + len(value) > self._citadels_max_env_bytes:
            return False
        self._env[key] = value
        return True
