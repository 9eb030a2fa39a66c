"""The optional compiled engine: `CITADELS_MYPYC=1` compiles the engine's flow and bots with mypyc.

    pip install -e '.[fast]'                                           # mypy (mypyc) in the environment
    CITADELS_MYPYC=1 pip install --no-build-isolation -e '.[fast]'     # then build the engine compiled

Without the variable (the default) nothing is compiled: the engine is pure Python. Compiled or not,
the games are the same (tests/test_state_hashes.py, tests/test_game_hashes.py; docs/speed.md).
Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from setuptools import setup

# Not compiled: the msgspec Structs (mypyc cannot compile a class body with msgspec fields: the commands,
# events, views, state_structs.py, and the cards that declare a state with such fields), the preset line-ups, the
# save files, the scenarios and what runs once per game or never in a game's course. hooks.py is compiled:
# Role, Unique and Variant are native classes, and so is each card class of a compiled module (registered
# by a call after its class, `role(Warlord)`: a class decorator would make it an ordinary Python class).
# state.py is compiled: the state's dataclasses are native classes (docs/speed.md). So are the card tables
# (engine/cards/): compiled code reads a `Final` name of a compiled module (COST_TABLE, ROLES) from a C
# static, any other module-level name from the module's dictionary at every use.
NOT_COMPILED = {
    "engine/__init__.py",
    "engine/cardstate.py",
    "engine/commands.py",
    "engine/decisions.py",
    "engine/errors.py",
    "engine/events.py",
    "engine/game_config.py",
    "engine/invariants.py",
    "engine/rules.py",
    # the generator's 64-bit arithmetic: mypyc's ints are 63-bit, so every step is a Python long there, and
    # the compiled shuffle timed about 10% slower than CPython's own (2,000 shuffles of 66 cards: 0.100 s against 0.090 s);
    # compiled, Rng.shuffle calls engine/shuffle64.py instead: the generator in 32-bit halves of native i64s, 16x faster
    "engine/rng.py",
    "engine/savefile.py",
    "engine/state_structs.py",
    "engine/sim.py",
    "engine/view.py",
    "engine/bots/styles.py",
    "engine/bots/registry.py",
}
NOT_COMPILED_DIRS = ("engine/scenario/", "engine/cards/lineups")
_MSGSPEC_FIELD = re.compile(r"^from msgspec import .*\bfield\b", re.MULTILINE)


def compiled_modules() -> list[str]:
    root = Path(__file__).resolve().parent
    out = []
    for p in sorted(root.glob("engine/**/*.py")):
        rel = p.relative_to(root).as_posix()
        if rel in NOT_COMPILED or rel.startswith(NOT_COMPILED_DIRS) or p.name == "__init__.py":
            continue
        if _MSGSPEC_FIELD.search(p.read_text()):  # declares msgspec fields (a card's state)
            continue
        out.append(rel)
    return out


ext_modules = []
if os.environ.get("CITADELS_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(compiled_modules(), opt_level="3", debug_level="0")

setup(ext_modules=ext_modules)
