"""What the table's panels keep from one view to the next (issue 23) must be what they would make
afresh: the log's lines below the ones shown, the footer's line shared by every app, the hand's
wrapped lines (not copied), the titles looked up again only when what they say changes."""

from __future__ import annotations

import random

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App
from ui_helpers import make_app, reference_side_by_side

from ui import ChatLine
from ui.widgets import key_bar, text_panel
from ui.widgets.key_bar import KeyBar
from ui.widgets.log_view import LogView, Row


def _texts(lines):
    return [(t.plain, tuple(t.spans), t.style) for t in lines]


class LogApp(App):
    CSS = "LogView { height: 9; width: 40; }"

    def __init__(self, max_lines: int) -> None:
        super().__init__()
        self.max_lines = max_lines

    def compose(self):
        yield LogView(max_lines=self.max_lines)


@pytest.mark.parametrize("max_lines", [48, 6])  # 6: rows forgotten while the panel is not full
async def test_the_logs_lines_kept_below_are_the_lines_made_afresh(max_lines):
    """Random rows (1 to 3 wrapped lines, tagged or styled), pages back and forth, the end, a
    resize, rows forgotten in batches: after each, the lines built equal those made from scratch."""
    rnd = random.Random(5)
    app = LogApp(max_lines)
    async with app.run_test(size=(60, 20)) as pilot:
        log = app.query_one(LogView)
        await pilot.pause()
        for i in range(400):
            op = rnd.random()
            if op < 0.75:
                words = "word " * rnd.randrange(12 if max_lines > 8 else 2)
                style, tag = rnd.choice(["", "dim"]), rnd.choice(["", "[you]"])
                log.add_rows([Row(f"event {i} " + words, style=style, tag=tag) for _ in range(rnd.randrange(1, 3))])
            elif op < 0.85:
                log.page(rnd.choice([1, -1]))
            elif op < 0.95:
                log.to_end()
            else:
                log.styles.width = rnd.choice([40, 31, 25])
                await pilot.pause()
            width, height = log.drawn_size
            kept = log.built_lines(width, height)
            first, last = log._window(height, log._total(width))  # the same window, every line made again
            afresh = log._lines_back(log._total(width) - last, last - first)
            assert _texts(kept) == _texts(afresh), i


async def test_the_footers_line_is_shared_only_by_bars_with_the_same_keys_and_width():
    key_bar._lines.clear()

    class BarApp(App):
        def compose(self):
            yield KeyBar()

    app = BarApp()
    async with app.run_test(size=(60, 5)):
        bar = app.query_one(KeyBar)
        seen = set()
        for keys in ([("1-9", "choose"), ("Tab", "panels")], [("1-9", "rank"), ("Tab", "panels")], [("Esc", "")]):
            for width in (60, 12):
                for sentence in (None, "Waiting for Ben"):
                    if sentence is None:
                        bar.show_keys(keys)
                    else:
                        bar.show(sentence)
                    got = bar.build(width, 1)
                    assert _texts(got) == _texts(bar._make(width)), (keys, width, sentence)
                    seen.add(tuple(_texts(got)))
        assert len(seen) == 7  # each set of keys and the sentence differ at each width (a lone Esc fits both)


def test_shared_wrapped_lines_are_wraps_lines_and_wrap_still_hands_out_copies():
    console = Console(width=80)
    text = Text("Tavern (1): a district for the thirsty, with a long text that wraps", style="italic", end="")
    shared = text_panel.wrapped(text, 20, console, indent=3)
    copies = text_panel.wrap(text, 20, console, indent=3)
    assert _texts(shared) == _texts(copies) and len(shared) > 2
    assert text_panel.wrapped(text, 20, console, indent=3) is shared  # made once
    copies[0].stylize("reverse")  # a caller restyling its lines changes its own copies only
    assert _texts(text_panel.wrapped(text, 20, console, indent=3)) == _texts(
        text_panel.wrap(text, 20, console, indent=3)
    )
    assert _texts(shared) != _texts(copies)


async def test_the_titles_follow_the_language_and_the_unread_chat():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            await pilot.pause()
        prompt, chat = app.table.query_one("#prompt"), app.table.query_one("#chat")
        assert prompt.border_title == app.cat.t("ui.prompt") and chat.border_title == app.cat.t("ui.chat")
        app.post_message(ChatLine("Ben", "hola"))
        await pilot.pause()
        assert chat.border_title == app.cat.t("ui.chat_title_unread", n=1)
        app.set_language("es")
        await pilot.pause()
        assert prompt.border_title == app.cat.t("ui.prompt") != "Your move"
        assert chat.border_title == app.cat.t("ui.chat_title_unread", n=1)
        app.table._chat_read()
        assert chat.border_title == app.cat.t("ui.chat")


def test_a_memo_forgets_its_oldest_eighth_at_once_and_keeps_the_newest():
    from ui.widgets.shared_memo import Memo

    memo = Memo(64)
    for i in range(1000):
        assert memo.put(i, i) == i
        assert len(memo) <= 64 and memo[i] == i
    assert list(memo) == sorted(memo) and min(memo) >= 1000 - 64  # first in, first out


def test_a_citys_lines_are_shared_only_by_cities_alike_in_the_same_words_and_width():
    """Each input of a city's lines changed in turn: the lines made through the memo equal those
    made afresh (an audited catalogue is not served by the memo)."""
    import msgspec

    from benchmarks.render_cost import record_game
    from ui.i18n import Catalogue
    from ui.widgets import players

    rep = msgspec.structs.replace
    v = next(v for move in record_game(4, 3) for v, _ in move if any(len(p.city) >= 2 for p in v.players))
    p = next(p for p in v.players if len(p.city) >= 2)
    b = p.city[0]
    cities = [
        p.city,
        [rep(b, beautified=not b.beautified), *p.city[1:]],
        [rep(b, under=[*b.under, "Tavern"]), *p.city[1:]],
        [*p.city[1:], b],  # the same districts in another order
        p.city[:1],
        [],
    ]
    players._city_memo.clear()
    seen: dict[tuple, set] = {}
    for rules in ("2016", "classic"):
        for lang in ("en", "es"):
            for city in cities:
                for form in ("full", "short"):
                    for width in (38, 16):
                        q = rep(p, city=city)
                        data = (q, False, 7, None, (None, None, None), None, [], Catalogue(lang, rules), None)
                        got = players._make_lines(data, form, width)
                        fresh_cat = Catalogue(lang, rules)
                        fresh_cat.audit = []
                        want = players._make_lines((*data[:7], fresh_cat, None), form, width)
                        assert _texts(got) == _texts(want), (rules, lang, city, form, width)
                        seen.setdefault((rules, lang, form, width), set()).add(tuple(_texts(got)))
    assert all(len(drawn) == len(cities) for drawn in seen.values())  # every city drawn its own way
    assert len({drawn for case in seen.values() for drawn in case}) > len(cities) * 3  # and by language, width


def test_rows_side_by_side_are_shared_by_their_cells_and_never_by_a_reused_id():
    from ui.widgets import players

    players._row_memo.clear()
    for i in range(300):  # each round's cells are new objects, often at the address of the last round's
        a = [Text(f"  Ana {i}", style="bold" if i % 3 else "", end=""), Text("    N3 Manor", end="")]
        b = [Text(f"  Ben {i * 7}", end="")]
        group = [a, b] if i % 2 else [b, a]
        rows = players._side_by_side(group, 20)
        assert _texts(rows) == _texts(reference_side_by_side(group, 20)), i
        if i < 299:
            del a, b, group, rows  # (their addresses free for the next round's cells)
    assert players._side_by_side(group, 20)[0] is rows[0]  # the same cells: the same row


def test_the_players_rows_at_least_kept_between_views_are_those_counted_afresh():
    """One panel shown a game's views (cities built, seats of other viewers: another order) gives the
    counts a new panel gives each view."""
    from benchmarks.render_cost import record_game
    from ui.i18n import Catalogue
    from ui.widgets.players import FORMS, PlayersPanel

    cat = Catalogue("en")
    kept = PlayersPanel()
    kept.fixed = True
    counts = set()
    for i, move in enumerate(record_game(6, 7)[::3]):
        v = move[(i // 7) % 6][0]  # a few views from one seat, then from the next
        kept.show(v, cat, compact=False)
        fresh = PlayersPanel()
        fresh.fixed = True
        fresh.show(v, cat, compact=False)
        for form in FORMS:
            for cols in (1, 2, 3):
                got = kept.rows_at_least(78, form, cols)
                assert got == fresh.rows_at_least(78, form, cols), (i, form, cols)
                counts.add(got)
    assert len(counts) > 3


def test_a_hands_cards_and_characters_are_shared_only_in_the_same_words_colours_and_width():
    from ui.i18n import Catalogue
    from ui.widgets import hand

    console = Console(width=120)
    hand._item_lines.clear()
    seen: dict[tuple, set] = {}
    items = [("card", "Manor"), ("card", "Library"), ("card", "Smithy"), ("character", "King"), ("character", None)]
    items.append(("character", "Magician"))
    for rules in ("2016", "classic"):
        for lang in ("en", "es"):
            for palette in ("printed", "colour-blind"):
                for kind, name in items:
                    for form, width in (("full", 38), ("full", 24), ("list", 38)):
                        cat = Catalogue(lang, rules, palette=palette)
                        got = hand._item(cat, kind, name, form, width, console)
                        fresh = Catalogue(lang, rules, palette=palette)
                        fresh.audit = []
                        want = hand._item(fresh, kind, name, form, width, console)
                        assert _texts(got) == _texts(want), (rules, lang, palette, kind, name, form, width)
                        seen.setdefault((kind, name, form, width), set()).add(tuple(_texts(got)))
    # the cases differ: by language and edition (texts), by palette (colours), by width (wrapping)
    assert sum(len(drawn) for drawn in seen.values()) > len(seen) * 3


async def test_the_focused_panel_follows_the_focus():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda text: None)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            await pilot.pause()
        seen = []
        for key in ("tab", "tab", "tab", "tab", "c", "escape", "shift+tab"):
            await pilot.press(key)
            table = app.table
            assert table.focused is not None
            assert table.focused_panel() == table._panel_of(table.focused), key  # as found afresh
            seen.append(table.focused_panel())
        assert len(set(seen)) >= 4 and "chat-input" in seen


async def test_a_plan_made_again_the_same_is_kept_as_the_one_made():
    """A plan made again (an answer changed) equal to the one applied moves nothing and becomes the
    plan the next views find by identity (not compared box by box on every view after it)."""
    from ui.screens.table_layout import Planned

    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            await pilot.pause()
        table = app.table
        applied = table.plan
        assert applied is not None and table._planned is not None
        table._planned = Planned(("made from something else",), applied, ())  # so it is made again
        table._layout()
        assert table.plan == applied and table.plan is not applied  # the same plan, made again
        assert table.plan is table._planned.plan
