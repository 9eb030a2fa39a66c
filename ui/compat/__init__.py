"""Every use of a private Textual name lives in this package (tests/test_private_names.py checks it).

Each module says what it changes, why, and the Textual versions it was verified with:

- `strip_patch`: `Strip` makes its seven caches only when it first stores something.
- `css_patch`: CSS parsed once per process, not once per app.
- `compositor_patch`: a partial update draws only the rows it sends, its cursor moves written as text.
- `cycle_patch`: `LRUCache.clear` and component-class restyles leave no garbage cycles.
- `dispatch_patch`: a message's handlers found once per widget class and message class.
- `rich_text_patch`: Rich's `Text` skips its control-code stripping for all-printable strings.
- `line_styles`: what our line widgets need of Textual's per-line styling (borders, titles).
- `served_app`: one app among many on a server's loop (no stdout capture, the client's NO_COLOR,
  no process-wide task factory).
- `app_teardown`: an ended app's objects freed by reference counting.
- `direct_paint`: a table screen's changed lines painted straight to the driver after a view
  update, without Textual's refresh round trip (when that is what Textual's next frame would draw).
- `direct_messages`: a message for an app waiting for one dispatched without waking its task, not
  through its queue (the server's view updates, in the loop's next step).
- `layout_patch`: a widget the table screen places in a fixed box does not ask for a second
  reflow when a layout resizes it.
- `direct_keys`: a key whose only effect is a binding's action has the action called by the
  server's driver, not routed through the app's, the focused widget's and its ancestors' queues.

`line_frames` is not a patch of Textual: it lets our line widgets frame their own lines
(`ui/widgets/line_frame.py` with `line_styles`), so it is applied and counted like one.

For measurements only, `CITADELS_WITHOUT_PATCHES=strip_patch,line_frames` (any of `PATCHES`)
leaves those out, and says so on stderr (benchmarks/compat_effect.py; docs/compat.md).

Versions. `VERIFIED_TEXTUAL` lists the Textual releases every module here was verified with
(their tests: tests/ui/test_textual_patches.py, test_cycle_patch.py, test_line_frame.py,
tests/server/test_session_garbage.py, and the snapshots). `import ui` calls `apply()`:

- on a verified Textual, the patches of `PATCHES` are applied and line widgets frame their own lines;
- on any other, nothing is patched and every widget draws through Textual's public path
  (`Widget.render_lines`); tests/ui/test_textual_versions.py plays a game that way;
- `citadels serve` calls `require_verified()` before it imports the server: on another version
  it stops with one line naming the versions, never serving slower than it was measured
  (and the SSH driver needs Textual's input parser, a private module).
"""

from __future__ import annotations

import importlib
import os
import sys

import textual

VERIFIED_TEXTUAL = ("8.2.8",)
PATCHES = (
    "strip_patch",
    "css_patch",
    "compositor_patch",
    "cycle_patch",
    "dispatch_patch",
    "rich_text_patch",
    "line_frames",
    "direct_paint",
    "direct_messages",
    "layout_patch",
    "direct_keys",
)
WITHOUT_ENV = "CITADELS_WITHOUT_PATCHES"

_applied: list[str] = []


class UnverifiedTextual(RuntimeError):
    """The installed Textual is not one this package was verified with."""


def textual_version() -> str:
    return textual.__version__


def verified() -> bool:
    return textual.__version__ in VERIFIED_TEXTUAL


def unverified_message(what: str) -> str:
    """One line naming the installed and the verified versions."""
    wanted = " or ".join(VERIFIED_TEXTUAL)
    return (
        f"{what}: Textual {textual.__version__} is installed, but citadels-ssh was verified with Textual "
        f"{wanted} only; install it with: pip install 'textual=={VERIFIED_TEXTUAL[-1]}'"
    )


def require_verified(what: str) -> None:
    """Raise `UnverifiedTextual` (with `unverified_message`) unless the installed Textual is verified."""
    if not verified():
        raise UnverifiedTextual(unverified_message(what))


def apply() -> tuple[str, ...]:
    """Apply every patch (once) on a verified Textual; on any other, none. Returns the patches applied."""
    if _applied or not verified():
        return tuple(_applied)
    without = _without()
    for name in PATCHES:
        if name in without:
            continue
        if name != "line_frames":
            importlib.import_module(f"{__name__}.{name}").apply()
        _applied.append(name)
    if without:
        left_out = ", ".join(sorted(without))
        print(f"{WITHOUT_ENV}: Textual runs without {left_out} (for measurements only)", file=sys.stderr)
    return tuple(_applied)


def _without() -> set[str]:
    names = {n.strip() for n in os.environ.get(WITHOUT_ENV, "").split(",") if n.strip()}
    unknown = names - set(PATCHES)
    if unknown:
        raise ValueError(f"{WITHOUT_ENV}: unknown {sorted(unknown)}; the patches are {', '.join(PATCHES)}")
    return names


def patched() -> bool:
    """True once `apply()` has patched Textual (on a verified version)."""
    return bool(_applied)


def why_not_applied(name: str) -> str:
    """Why the patch `name` is not applied: the version, or the measurement switch."""
    if not verified():
        return unverified_message(name)
    return f"{name}: left out by {WITHOUT_ENV}={os.environ.get(WITHOUT_ENV, '')}"


def frames_lines() -> bool:
    """True when line widgets frame their own lines (`line_frames`), False: Textual's `render_lines`."""
    return "line_frames" in _applied


def check_verified(name: str) -> None:
    """For a patch module's `apply()`: refuse to patch a Textual it was not verified with."""
    if not verified():
        raise UnverifiedTextual(unverified_message(name))
