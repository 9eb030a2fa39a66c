"""A field an older save lacks is decoded to its default, but in the compiled build only if its default is
0 or False (or it is an object: a list, a string, None): mypyc's native classes start zeroed, and msgspec
fills only the fields it finds unset (docs/speed.md, "The state as native classes")."""

from __future__ import annotations

import dataclasses

from engine import state

# In every save since format 1: a save never lacks them, so their defaults are never decoded.
NONZERO_DEFAULTS_IN_EVERY_FORMAT = {("Player", "gold"), ("Turn", "limit"), ("GameState", "round")}


def test_a_new_int_or_bool_field_defaults_to_zero():
    found = set()
    for cls in (state.Player, state.Selection, state.Turn, state.Markers, state.GameState):
        for f in dataclasses.fields(cls):
            if isinstance(f.default, (int, bool)) and f.default:
                found.add((cls.__name__, f.name))
    # A new field with another default reads 0/False compiled when an older save is loaded: give it a
    # zero default, or fill it when such a save is loaded (engine/savefile.py), before adding it here.
    assert found == NONZERO_DEFAULTS_IN_EVERY_FORMAT
