"""Private Textual and asyncssh names are used only in their compat homes.

.ci/private_names.py walks the product code's syntax trees (ui/, server/, cli/, engine/) for
imports of private modules, attributes and overrides of names the frameworks define, and
strings naming private modules. Textual's belong in ui/compat/ (the SSH driver's pieces of
Textual may also sit in server/transport/compat.py), asyncssh's in server/transport/compat.py. PENDING lists the uses in the transport files another change
is rewriting now: they move to server/transport/compat.py after it lands, and this list
must shrink to nothing (an entry that no longer matches fails too).
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Textual's names belong in ui/compat/, but the SSH driver's own pieces of Textual (its input parser,
# its driver state) may sit beside asyncssh's in server/transport/compat.py.
HOMES = {"textual": ("ui/compat/", "server/transport/compat.py"), "asyncssh": ("server/transport/compat.py",)}

# Reviewed: our own names that a framework also defines, on receivers other than `self`.
OURS = {
    ("server/transport/ssh.py", "_start"),  # Server._start, our own method
}

# (path, framework, name): the Textual pieces the SSH driver still takes in the transport files (after
# t18-transport moved asyncssh's names into server/transport/compat.py), to move there or into
# ui/compat/ next; an entry that no longer matches fails, so this list only shrinks.
PENDING: set[tuple[str, str, str]] = set()


@functools.cache
def _scanner():
    spec = importlib.util.spec_from_file_location("private_names", ROOT / ".ci" / "private_names.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["private_names"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # a gate (.ci/run runs it with the linters): parses all of Textual's and asyncssh's sources (~5 s)
def test_private_framework_names_live_in_the_compat_homes():
    scanner = _scanner()
    uses = scanner.scan([ROOT / p for p in scanner.DEFAULT_PATHS], ROOT)
    assert any(u.path.startswith("ui/compat/") for u in uses)  # the scan finds what is there
    outside = []
    pending_seen: Counter[tuple[str, str, str]] = Counter()
    for use in uses:
        if use.path.startswith(HOMES[use.framework]) or (use.path, use.name) in OURS:
            continue
        key = (use.path, use.framework, use.name)
        if key in PENDING:
            pending_seen[key] += 1
            continue
        outside.append(str(use))
    assert outside == [], "private framework names outside ui/compat/ and server/transport/compat.py"
    stale = sorted(PENDING - set(pending_seen))
    assert stale == [], f"no longer used there: remove from PENDING {stale}"


@pytest.mark.slow  # the gate's own check: it reads Textual's and asyncssh's sources too (~3 s)
def test_the_scan_sees_each_kind_of_use(tmp_path):
    scanner = _scanner()
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import textual._compositor\n"
        "from textual.app import _NullFile\n"
        "from asyncssh import SSHServerChannel\n"
        "import textual.app as textual_app\n"
        "textual_app.redirect_stdout = print\n"
        "def f(app, chan):\n"
        "    app._registry.clear()\n"
        "    getattr(app, '_screen_stacks')\n"
        "    return chan._env, 'textual._node_list.NodeList'\n"
        "class C(SSHServerChannel):\n"
        "    def _process_env_request(self, packet): ...\n"
    )
    found = {(u.kind, u.name) for u in scanner.scan([sample], tmp_path)}
    assert found >= {
        ("import", "textual._compositor"),
        ("import", "textual.app._NullFile"),
        ("attribute", "_registry"),
        ("getattr", "_screen_stacks"),
        ("attribute", "_env"),
        ("module-string", "textual._node_list.NodeList"),
        ("override", "C._process_env_request"),
        ("patch", "textual_app.redirect_stdout"),
    }, found


def test_a_standard_library_modules_own_names_are_not_the_frameworks(tmp_path):
    """`os._exit` is the os module's (Textual defines an `_exit` of its own): not reported; the same
    name on any other receiver still is."""
    scanner = _scanner()
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nimport sys as system\ndef f(app):\n    os._exit(0)\n    system._getframe()\n    app._exit\n"
    )
    found = [(u.line, u.kind, u.name) for u in scanner.scan([sample], tmp_path)]
    assert found == [(6, "attribute", "_exit")], found
