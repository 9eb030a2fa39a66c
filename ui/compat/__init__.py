"""Every use of a private Textual name lives in this package (tests/test_private_names.py checks it).

Each module says what it changes, why, and the Textual versions it was verified with:

- `strip_patch`: `Strip` makes its seven caches only when it first stores something.
- `css_patch`: CSS parsed once per process, not once per app.
- `compositor_patch`: a partial update draws only the rows it sends.
- `cycle_patch`: `LRUCache.clear` and component-class restyles leave no garbage cycles.
- `line_styles`: what our line widgets need of Textual's per-line styling (borders, titles).
- `served_app`: one app among many on a server's loop (no stdout capture, the client's NO_COLOR,
  no process-wide task factory).
- `app_teardown`: an ended app's objects freed by reference counting.

Versions. `VERIFIED_TEXTUAL` lists the Textual releases every module here was verified with
(their tests: tests/ui/test_textual_patches.py, test_cycle_patch.py, test_line_frame.py,
tests/server/test_session_garbage.py, and the snapshots). `import ui` calls `apply()`:

- on a verified Textual, the four patches are applied and line widgets frame their own lines;
- on any other, nothing is patched and every widget draws through Textual's public path
  (`Widget.render_lines`); tests/ui/test_textual_versions.py plays a game that way;
- `citadels serve` calls `require_verified()` before it imports the server: on another version
  it stops with one line naming the versions, never serving slower than it was measured
  (and the SSH driver needs Textual's input parser, a private module).
"""

from __future__ import annotations

import textual

VERIFIED_TEXTUAL = ("8.2.8",)

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
    from . import compositor_patch, css_patch, cycle_patch, strip_patch

    for patch in (strip_patch, css_patch, compositor_patch, cycle_patch):
        patch.apply()
        _applied.append(patch.__name__.rsplit(".", 1)[-1])
    return tuple(_applied)


def patched() -> bool:
    """True once `apply()` has patched Textual: line widgets may frame their own lines."""
    return bool(_applied)


def check_verified(name: str) -> None:
    """For a patch module's `apply()`: refuse to patch a Textual it was not verified with."""
    if not verified():
        raise UnverifiedTextual(unverified_message(name))
