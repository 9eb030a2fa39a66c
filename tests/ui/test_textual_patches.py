"""ui/compat/strip_patch.py and ui/compat/css_patch.py change how Textual caches, never what it draws.

The patched `Strip` methods are compared with Textual's own on random strips
(wide characters, styles, crops past either end, cuts at and beyond the end),
first call and cached call; the snapshots in test_ui_snapshots.py check whole
screens. The shared CSS parse is checked to hand the same rule sets to apps
with the same theme and separate ones to another theme.
"""

from __future__ import annotations

import gc
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.filter import Monochrome
from textual.strip import Strip

import ui  # noqa: F401  (applies the patches)
from ui import compat
from ui.compat import compositor_patch, css_patch, rich_text_patch, strip_patch

for _patch in (
    "strip_patch",
    "css_patch",
    "compositor_patch",
    "rich_text_patch",
):  # never skipped: these tests verify a version
    if _patch not in compat.apply():
        pytest.fail(compat.why_not_applied(_patch), pytrace=False)


class StockStrip(Strip):
    """A strip with Textual's own methods (its caches made in __init__)."""

    __slots__ = ()


for _name, _fn in strip_patch.ORIGINALS.items():
    setattr(StockStrip, _name, _fn)

STYLES = [None, Style(bold=True), Style(color="red"), Style(bgcolor="blue", italic=True)]
texts = st.text(alphabet=st.sampled_from(list("ab cd") + ["宽", "字", "é"]), max_size=8)
segments = st.lists(st.tuples(texts, st.sampled_from(STYLES)), max_size=6)


def both(segs: list[tuple[str, Style | None]]) -> tuple[Strip, Strip]:
    parts = [Segment(t, s) for t, s in segs]
    return Strip(parts), StockStrip(parts)


def same(a: Strip, b: Strip) -> None:
    assert list(a) == list(b)
    assert a.cell_length == b.cell_length


@settings(max_examples=examples(300), deadline=None)
@given(segments, st.integers(-2, 30), st.integers(-2, 30), st.sampled_from(STYLES))
def test_crop_and_lengths_match_textual(segs, start, end, style):
    new, old = both(segs)
    for _ in range(2):  # the second call answers from the cache
        same(new.crop(start, end), old.crop(start, end))
        same(new.crop(start), old.crop(start))
        same(new.crop_extend(max(start, 0), max(end, 0), style), old.crop_extend(max(start, 0), max(end, 0), style))
        same(new.adjust_cell_length(max(end, 0), style), old.adjust_cell_length(max(end, 0), style))
        same(new.extend_cell_length(max(end, 0), style), old.extend_cell_length(max(end, 0), style))


@settings(max_examples=examples(300), deadline=None)
@given(
    segments, st.lists(st.integers(0, 30), max_size=4), st.sampled_from(STYLES), st.integers(0, 5), st.integers(0, 5)
)
def test_divide_style_filter_offsets_match_textual(segs, cuts, style, x, y):
    new, old = both(segs)
    cuts = sorted(set(cuts))
    flt = Monochrome()
    background = Color(10, 20, 30)
    for _ in range(2):
        a, b = new.divide(cuts), old.divide(cuts)
        assert len(a) == len(b)
        for p, q in zip(a, b):
            same(p, q)
        same(new.divide([new.cell_length])[0], old.divide([old.cell_length])[0])
        if style is not None:
            same(new.apply_style(style), old.apply_style(style))
        styled_new, styled_old = both([(t, s or Style()) for t, s in segs])  # the filter needs styles
        same(styled_new.apply_filter(flt, background), styled_old.apply_filter(flt, background))
        same(new.apply_offsets(x, y), old.apply_offsets(x, y))


def test_a_strip_never_caches_itself():
    """Textual's `divide` at the strip's own length cached `[self]`: a cycle per strip."""
    strip = Strip([Segment("hello", Style(bold=True)), Segment(" world")])
    strip.divide([strip.cell_length])
    strip.crop_extend(0, strip.cell_length, None)
    strip.adjust_cell_length(strip.cell_length)
    strip.crop(0, 3)
    for slot in ("_divide_cache", "_crop_cache", "_crop_extend_cache", "_line_length_cache"):
        cache = getattr(strip, slot)
        for value in (cache or {}).values():
            assert value is not strip and (not isinstance(value, list) or strip not in value)


def test_a_fresh_strip_holds_no_cache_objects():
    strip = Strip([Segment("x")])
    assert all(
        getattr(strip, s) is None
        for s in (
            "_crop_cache",
            "_style_cache",
            "_filter_cache",
            "_divide_cache",
            "_line_length_cache",
            "_crop_extend_cache",
            "_offsets_cache",
        )
    )
    assert not any(type(o).__name__ == "FIFOCache" for o in gc.get_referents(strip))


# control codes (the five Rich strips, and others it keeps), newline, tab, escape, wide and combining
# characters, non-printable code points of other kinds (a line separator, a zero-width space)
_rich_chars = list("ab ·") + ["\x07", "\x08", "\x0b", "\x0c", "\r", "\n", "\t", "\x1b", "\x00", "\x7f"]
_rich_chars += ["宽", "é", "\u0301", "\u2028", "\u200b", "♛", "▶"]


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.sampled_from(_rich_chars), max_size=12))
def test_rich_text_strips_control_codes_as_rich_does(text):
    import rich.text
    from rich.control import strip_control_codes

    assert rich.text.strip_control_codes is rich_text_patch.strip_control_codes
    assert rich_text_patch.strip_control_codes(text) == strip_control_codes(text)
    made = rich.text.Text(text)
    made.append(text)
    assert made.plain == strip_control_codes(text) * 2
    assert all(type(part) is str for part in made._text)  # (a str subclass is not kept, as Rich's translate)


def test_rich_text_keeps_no_str_subclass():
    class Name(str):
        pass

    assert type(rich_text_patch.strip_control_codes(Name("Manor"))) is str
    assert type(rich_text_patch.strip_control_codes(Name("Man\ror"))) is str


def test_css_is_parsed_once_per_theme():
    css = "#x { color: $accent; height: 2; }"
    one = Stylesheet(variables={"accent": "red"})
    two = Stylesheet(variables={"accent": "red"})
    other = Stylesheet(variables={"accent": "blue"})
    r1 = one._parse_rules(css, ("test", "x"))
    r2 = two._parse_rules(css, ("test", "x"))
    r3 = other._parse_rules(css, ("test", "x"))
    assert css_patch.apply()
    assert r1 is r2  # shared between apps with the same theme
    assert r3 is not r1
    assert r1[0].styles.color != r3[0].styles.color  # each theme's own values


@pytest.mark.parametrize(
    "size,players,seed",
    [
        # whole games compared frame by frame: the slow tier (the properties above stay in the fast tier)
        pytest.param((80, 24), 4, 3, marks=pytest.mark.slow),
        pytest.param((120, 40), 6, 5, marks=pytest.mark.slow),
        pytest.param((160, 48), 7, 2, marks=pytest.mark.slow),
    ],
)
async def test_partial_updates_send_what_textual_would(monkeypatch, size, players, seed):
    """Every frame of a game played by keys (menus, log, chat, help and score screens on top):
    the patched partial update renders exactly the bytes of Textual's own, asked second (so a
    changed line the patch failed to redraw would still be dirty there and differ)."""
    from rich.console import Console
    from textual._compositor import Compositor
    from ui_helpers import make_app, play_by_keys

    patched = Compositor.render_partial_update
    console = Console(
        width=size[0],
        height=size[1],
        force_terminal=True,
        color_system="truecolor",
        legacy_windows=False,
        safe_box=False,
        file=io.StringIO(),
    )
    frames = []

    def both(self):
        dirty = list(self._dirty_regions)
        ours = patched(self)
        self._dirty_regions.update(dirty)
        theirs = compositor_patch.ORIGINAL["render_partial_update"](self)
        if ours is None or theirs is None:
            assert ours is None and theirs is None
            return ours
        assert ours.render_segments(console) == compositor_patch.ORIGINAL["render_segments"](theirs, console)
        frames.append(len(ours.spans))
        return ours

    monkeypatch.setattr(Compositor, "render_partial_update", both)
    app, table = make_app(players=players, seed=seed, show_chat=True)
    table.bot_delay = 0.001

    async def now_and_then():
        if len(frames) % 40 == 7:
            await pilot.press("f1")
            await pilot.press("escape")
        elif len(frames) % 40 == 21:
            await pilot.press("tab")

    async with app.run_test(size=size) as pilot:
        await play_by_keys(app, table, pilot, seed=seed, before_key=now_and_then)
        assert table.over
    assert len(frames) > 60  # enough frames compared (99 seen under load: frames coalesce when the machine is busy)


@pytest.mark.parametrize(
    "size,max_presses",
    [
        pytest.param((100, 30), 150),  # a few rounds of menus, the log, help and chat: the fast tier
        pytest.param((120, 40), 4000, marks=pytest.mark.slow),  # a whole game
    ],
)
async def test_dispatch_finds_the_handlers_textual_would(monkeypatch, size, max_presses):
    """Every message dispatched while a game is played by keys (with the help screen and the chat):
    the patched look-up yields the same handlers, in the same order, as Textual's own walk of the
    MRO, asked with the message as it is before any handler ran."""
    from textual.message_pump import MessagePump
    from ui_helpers import make_app, play_by_keys

    from ui.compat import dispatch_patch

    patched = MessagePump._get_dispatch_methods
    assert patched is dispatch_patch._get_dispatch_methods
    seen: set[tuple[type, str, type]] = set()

    def both(self, method_name, message):
        ours = list(patched(self, method_name, message))
        theirs = list(dispatch_patch.original_get_dispatch_methods(self, method_name, message))
        assert [(c, m.__func__, m.__self__) for c, m in ours] == [(c, m.__func__, m.__self__) for c, m in theirs]
        seen.add((self.__class__, method_name, message.__class__))
        yield from ours

    monkeypatch.setattr(MessagePump, "_get_dispatch_methods", both)
    app, table = make_app(players=5, seed=4, show_chat=True)
    table.bot_delay = 0.001
    presses = [0]

    async def now_and_then():
        presses[0] += 1
        if presses[0] % 40 == 7:
            await pilot.press("f1")
            await pilot.press("escape")
        elif presses[0] % 40 == 21:
            await pilot.press("tab")

    async with app.run_test(size=size) as pilot:
        await play_by_keys(app, table, pilot, seed=4, max_presses=max_presses, before_key=now_and_then)
    assert len(seen) > 50  # many kinds of widget and message


async def test_dispatch_logs_handler_calls_when_textual_would(monkeypatch, tmp_path):
    """With a TEXTUAL_LOG file (or a devtools console) each handler call is recorded as Textual
    records it; without one, no log record is made at all (`dispatch_patch._on_message`)."""
    from textual import Logger, constants
    from textual.app import App
    from textual.message import Message

    from ui.compat import dispatch_patch

    assert App._on_message is dispatch_patch._on_message

    class Echo(App[None]):
        pings = 0

        class Ping(Message):  # handled by on_echo_ping
            pass

        def on_echo_ping(self, message: Message) -> None:
            self.pings += 1

    Ping = Echo.Ping
    made = [0]
    real_init = Logger.__init__

    def counting(self, *args, **kwargs):
        made[0] += 1
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(Logger, "__init__", counting)
    log_file = tmp_path / "textual.log"
    app = Echo()
    async with app.run_test() as pilot:
        made[0] = 0
        app.post_message(Ping())
        await pilot.pause()
        assert app.pings == 1 and made[0] == 0  # nothing records: no Logger made
        monkeypatch.setattr(constants, "LOG_FILE", str(log_file))
        app.post_message(Ping())
        await pilot.pause()
        assert app.pings == 2
    assert "method=<Echo.on_echo_ping>" in log_file.read_text()


async def test_dispatch_leaves_prevented_messages_to_textual(monkeypatch):
    """A message posted inside `prevent(X)` carries X: Textual's own `_dispatch_message` handles it
    (its `prevent` context); a message with nothing prevented takes the short way, and both reach
    their handler once."""
    from textual.app import App
    from textual.message import Message

    from ui.compat import dispatch_patch

    class Guard(App[None]):
        outer = 0

        class Quiet(Message):
            pass

        class Outer(Message):
            pass

        def on_guard_outer(self, message: Message) -> None:
            self.outer += 1

    textuals: list[type] = []
    textual_own = dispatch_patch.original_dispatch_message

    async def spy(self, message):
        textuals.append(type(message))
        await textual_own(self, message)

    monkeypatch.setattr(dispatch_patch, "original_dispatch_message", spy)
    app = Guard()
    async with app.run_test() as pilot:
        with app.prevent(Guard.Quiet):
            app.post_message(Guard.Outer())
        await pilot.pause()
        assert app.outer == 1 and textuals.count(Guard.Outer) == 1
        app.post_message(Guard.Outer())
        await pilot.pause()
        assert app.outer == 2 and textuals.count(Guard.Outer) == 1
