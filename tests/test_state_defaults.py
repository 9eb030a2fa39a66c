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


def test_each_written_init_takes_the_fields_in_order_with_their_defaults():
    # The state's classes write their `__init__` (compiled, mypyc compiles a written `__init__`, not the one
    # `@dataclass` generates): it must be the one `@dataclass` would generate, but that a list, dict or
    # state default is passed as None.
    import inspect

    from engine import new_game
    from engine.game_config import GameConfig

    g, _ = new_game(GameConfig(players=["a", "b", "c"], seed=1))
    required_of = {
        state.Player: {"name": "a"},
        state.Turn: {"seat": 1, "character": "King"},
        state.GameState: {
            f: getattr(g, f) for f in ("rules", "lineup", "uniques", "players", "deck", "crown", "rng", "pending")
        },
    }
    for cls in (state.Player, state.Selection, state.Turn, state.Markers, state.GameState):
        fields = dataclasses.fields(cls)
        required = required_of.get(cls, {})
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        if params and params[0].kind is not inspect.Parameter.VAR_POSITIONAL:  # compiled: (*args, **kwargs)
            assert [p.name for p in params] == [f.name for f in fields], cls
            for p, f in zip(params, fields, strict=True):
                if f.name in required:
                    assert p.default is inspect.Parameter.empty, (cls, f.name)
                elif f.default_factory is not dataclasses.MISSING:
                    assert p.default is None, (cls, f.name)
                else:
                    assert p.default == f.default, (cls, f.name)
        made = cls(**required)
        for f in fields:
            if f.name in required:
                want = required[f.name]
            elif f.default_factory is not dataclasses.MISSING:
                want = f.default_factory()
            else:
                want = f.default
            assert getattr(made, f.name) == want, (cls, f.name)
        assert made == cls(*[getattr(made, f.name) for f in fields])  # positionally, in field order
