"""ui/compat/cycle_patch.py: Textual's LRU cache and component styles without garbage cycles."""

from __future__ import annotations

import gc
import weakref

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.widget import Widget

import ui  # noqa: F401  (applies the patches)
from ui import compat
from ui.compat import cycle_patch

if "cycle_patch" not in compat.apply():  # never skipped: these tests are what makes a Textual version verified
    pytest.fail(compat.why_not_applied("cycle_patch"), pytrace=False)


class StockLRU(LRUCache):
    """Textual's cache with its own `clear`."""

    __slots__ = ()


StockLRU.clear = cycle_patch.ORIGINALS["clear"]  # type: ignore[method-assign]

ops = st.lists(
    st.one_of(
        st.tuples(st.just("set"), st.integers(0, 9), st.integers()),
        st.tuples(st.just("get"), st.integers(0, 9)),
        st.tuples(st.just("discard"), st.integers(0, 9)),
        st.tuples(
            st.just("clear"),
        ),
    ),
    max_size=60,
)


@settings(max_examples=examples(300), deadline=None)
@given(ops, st.integers(1, 5))
def test_the_cache_behaves_as_textuals(sequence, maxsize):
    ours, stock = LRUCache(maxsize), StockLRU(maxsize)
    for op in sequence:
        if op[0] == "set":
            ours.set(op[1], op[2]), stock.set(op[1], op[2])
        elif op[0] == "get":
            assert ours.get(op[1]) == stock.get(op[1])
        elif op[0] == "discard":
            ours.discard(op[1]), stock.discard(op[1])
        else:
            ours.clear(), stock.clear()
        assert sorted(ours.keys()) == sorted(stock.keys())
        assert len(ours) == len(stock)


class Value:
    pass


@pytest.mark.parametrize("kind", [LRUCache, StockLRU])
def test_clearing_frees_the_values_at_once(kind):
    """Textual's `clear` left the entries in a ring holding the values (a cycle)."""
    cache = kind(8)
    values = [Value() for _ in range(5)]
    refs = [weakref.ref(v) for v in values]
    for i, v in enumerate(values):
        cache.set(i, v)
    cache.get(2)
    del values, v
    gc.disable()
    try:
        cache.clear()
        alive = sum(r() is not None for r in refs)
    finally:
        gc.enable()
    assert alive == (0 if kind is LRUCache else 5)


class Lamp(Widget):
    COMPONENT_CLASSES = {"lamp--bulb", "lamp--base"}
    DEFAULT_CSS = """
    Lamp > .lamp--bulb { color: gray; }
    Lamp.on > .lamp--bulb { color: yellow; text-style: bold; }
    Lamp:focus > .lamp--base { background: blue; }
    """
    can_focus = True

    def render(self) -> str:
        return "lamp"


class LampApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Lamp()
        yield Widget()


def _snapshot(lamp: Lamp) -> dict:
    return {
        name: (
            lamp.get_component_styles(name).color,
            lamp.get_component_styles(name).background,
            lamp.get_component_styles(name).text_style,
        )
        for name in sorted(Lamp.COMPONENT_CLASSES)
    }


async def test_component_styles_follow_restyles_with_the_same_virtual_nodes():
    """Restyled in place: the same virtual nodes, and the styles a fresh node would get."""
    app = LampApp()
    async with app.run_test() as pilot:
        lamp = app.query_one(Lamp)
        nodes = dict(lamp._citadels_component_nodes)
        first = _snapshot(lamp)
        seen = [first]
        for step in range(8):  # every combination of the class and the focus, twice
            lamp.set_class(bool(step % 2), "on")
            if (step // 2) % 2:
                app.set_focus(None)
            else:
                lamp.focus()
            await pilot.pause()
            now = _snapshot(lamp)
            # what Textual's own method gives a fresh node for the same state
            stock = cycle_patch.ORIGINALS["_process_component_classes"]
            saved = dict(lamp._component_styles)
            stock(app.stylesheet, lamp)
            assert _snapshot(lamp) == now
            lamp._component_styles.clear()
            lamp._component_styles.update(saved)
            seen.append(now)
        assert lamp._citadels_component_nodes == nodes  # reused, not made again
        assert all(a is b for a, b in zip(lamp._citadels_component_nodes.values(), nodes.values()))
        assert len({repr(s) for s in seen}) == 4  # each combination styled its own way
