"""Bytes for the player's terminal outside the screen's cells: the bell and the window title.

Textual 8.2.8 has `App.bell()` (it writes BEL through the private `App._driver`) but nothing for the
terminal's title. `write` does what `App.bell` does, for any control sequence; a headless app
(Pilot tests) or an app without a driver writes nothing. A driver with `send_control(data)` (the
SSH server's) sends them at once, so that a frame it drops under back-pressure cannot take them
along; any other driver sends them with its next frame. Verified with Textual 8.2.8.

The title is set with OSC 2 after saving the terminal's own title on xterm's title stack
(CSI 22;2 t), and `restore_title` pops it back (CSI 23;2 t): terminals without a stack ignore both.
Only catalogue text is ever written here (never a player's words: no control character can come in).
"""

from __future__ import annotations

from typing import Any

BEL = "\x07"
SAVE_TITLE = "\x1b[22;2t"
RESTORE_TITLE = "\x1b[23;2t"


def write(app: Any, data: str) -> bool:
    """Write `data` to the app's terminal (False: headless or no terminal)."""
    driver = getattr(app, "_driver", None)
    if driver is None or app.is_headless:
        return False
    send = getattr(driver, "send_control", None)
    if send is not None:
        send(data)
    else:
        driver.write(data)
    return True


def title_sequence(title: str) -> str:
    """OSC 2 (window title) with `title` stripped of anything that is not printable."""
    clean = "".join(ch for ch in title if ch.isprintable())
    return f"\x1b]2;{clean}\x07"
