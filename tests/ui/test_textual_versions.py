"""ui/compat's version policy: a Textual it was not verified with is never patched; the game
then runs on Textual's own public paths (drawing the same screens), and `citadels serve` stops
with one line naming the versions.

Another version is simulated in a subprocess by setting `textual.__version__` before `ui`
is imported (the real thing, Textual 8.1.1 in a scratch venv, is described in docs/compat.md).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.strip import Strip
from ui_helpers import make_app, play_by_keys, screen_text

from ui import compat

ROOT = Path(__file__).resolve().parents[2]
PRETEND = "import textual; textual.__version__ = '8.1.1'\n"
PRESSES = 30  # key presses into a seeded game (a few rounds; the whole game takes 20 s)

GAME = """
import asyncio, sys
sys.path.insert(0, "tests/ui")
from textual.strip import Strip
from ui import compat
from ui_helpers import make_app, play_by_keys, screen_text

assert compat.apply() == () and not compat.patched()
assert not getattr(Strip, "_citadels_light_caches", False)

PRESSES = int(sys.argv[1])

async def main():
    app, table = make_app(players=4, seed=3, show_chat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(app, table, pilot, seed=3, max_presses=PRESSES)
        sys.stdout.write("SCREEN\\n" + screen_text(app))

asyncio.run(main())
"""


def _python(code: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "NO_COLOR"))}
    return subprocess.run(
        [sys.executable, "-c", PRETEND + code, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def test_this_textual_is_verified_and_patched():
    assert compat.verified(), compat.unverified_message("the test suite")
    assert compat.apply() == (
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
    assert getattr(Strip, "_citadels_light_caches", False)


def test_serve_stops_with_one_line_naming_the_versions(tmp_path):
    keys = tmp_path / "keys"
    run = _python(
        "import sys\nfrom cli.main import main\nsys.exit(main(sys.argv[1:]))",
        "serve",
        "--port",
        "0",
        "--keys-dir",
        str(keys),
        "--saves-dir",
        str(tmp_path / "saves"),
    )
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Textual 8.1.1" in lines[0] and f"Textual {compat.VERIFIED_TEXTUAL[0]}" in lines[0]
    assert lines[0].startswith("citadels serve: ")
    assert run.stdout == ""
    assert not keys.exists()  # stopped before the server made anything


def test_serving_an_app_refuses_an_unverified_textual():
    """A server started without the command line (an embedder, a test) refuses at its first app."""
    run = _python(
        "from ui import compat\n"
        "try:\n"
        "    compat.require_verified('serving')\n"
        "except compat.UnverifiedTextual as e:\n"
        "    print(e)\n"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("serving: Textual 8.1.1 is installed")


@pytest.mark.slow  # two whole games, one on Textual's public paths
async def test_an_unverified_textual_plays_the_same_game_on_its_public_paths():
    """The same scripted game, patched here and unpatched in a subprocess: the same screen after it."""
    run = _python(GAME, str(PRESSES))
    assert run.returncode == 0, run.stderr[-3000:]
    theirs = run.stdout.split("SCREEN\n", 1)[1]
    app, table = make_app(players=4, seed=3, show_chat=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_by_keys(app, table, pilot, seed=3, max_presses=PRESSES)
        ours = screen_text(app)
    assert ours == theirs
