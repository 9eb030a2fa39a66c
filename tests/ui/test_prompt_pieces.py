"""The prompt keeps the pieces of a menu's drawing while the menu is shown, and a key that highlights
then activates an entry draws once (issue 23). Each test compares what a panel that kept its pieces
draws with what a new panel draws for the same state: a piece kept under a key that missed something
it was made from (the highlight, the width, the roomy screen, the menu) would draw the old one."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from rich.console import Console
from rich.text import Text
from textual import events

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.random_bot import RandomBot
from ui.i18n import Catalogue
from ui.prompt_keys import Numbering
from ui.prompt_model import Checklist, Entry, Menu, checklist_menu
from ui.widgets.line_widget import LineWidget
from ui.widgets.prompt import SENT_REDRAW_SECONDS, PromptPanel

NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva"]
_APP = SimpleNamespace(console=Console(width=120))


class Panel(PromptPanel):
    """A prompt outside an app: its drawing asked for directly, its messages kept."""

    app = _APP  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.posted: list[Any] = []

    def post_message(self, message: Any) -> bool:
        self.posted.append(message)
        return True


def _lines(lines: list[Text]) -> list[tuple]:
    return [(x.plain, list(x.spans), x.style, x.end) for x in lines]


def _fresh(panel: Panel) -> Panel:
    """A panel in the same state that kept nothing."""
    other = Panel()
    other.cat, other.roomy, other._view = panel.cat, panel.roomy, panel._view
    other._stack, other._steps = list(panel._stack), list(panel._steps)
    other.highlighted, other._scroll = panel.highlighted, panel._scroll
    other._clock, other._note, other._key = panel._clock, panel._note, panel._key
    return other


def _menus_of_a_game(seed: int = 3, moves: int = 60):
    """The views of the seat to move in a recorded bots' game, one a move."""
    g, _ = new_game(GameConfig(players=NAMES, preset="first-game", seed=seed))
    bots = [RandomBot(seed=seed * 10 + s) for s in range(len(NAMES))]
    for _ in range(moves):
        if g.phase == "over":
            break
        s = g.pending.seat
        yield view(g, s)
        apply(g, bots[s].choose(legal_commands(g, s), view(g, s)))


def test_moving_the_highlight_draws_what_a_new_panel_draws():
    cat = Catalogue("en")
    clocks = (None, Text(" 0:30", style="bold", end=""), Text(" 0:29", style="bold", end=""))
    checked = 0
    for v in _menus_of_a_game():
        panel = Panel()
        panel.show(v, cat, roomy=True, announce=False)
        n = len(panel._shown.entries)
        for roomy in (True, False):
            panel.roomy = roomy
            for i in [*range(n), 0, n - 1]:  # there and back: pieces made before are used again
                panel.highlighted = i
                for width, height in ((38, 24), (30, 24), (38, 9), (60, 5)):
                    for step, clock in enumerate(clocks):  # the clock ticks at one size
                        panel._clock = clock
                        panel._note = Text("refused", style="bold reverse", end="") if (i + step) % 5 == 4 else None
                        got = panel.build(width, height)
                        fresh = _fresh(panel)
                        assert _lines(got) == _lines(fresh.build(width, height)), (i, roomy, clock, width, height)
                        assert panel._row_map == fresh._row_map and panel._col_map == fresh._col_map
                        for r in (True, False):  # (`fits` keeps its answer for the menu, clock or not)
                            assert panel._measure_fit(width, height, r) == fresh._measure_fit(width, height, r)
                        checked += 1
    assert checked > 2000


def test_another_menu_is_drawn_from_its_own_pieces():
    cat = Catalogue("en")
    panel = Panel()
    seen = set()
    for v in _menus_of_a_game(seed=5, moves=40):
        panel.show(v, cat, roomy=True, announce=False)
        got = _lines(panel.build(38, 24))
        assert got == _lines(_fresh(panel).build(38, 24))
        seen.add(str(got))
    assert len(seen) > 20


def _checklist_panel(cat: Catalogue) -> Panel:
    start = next(c for v in _menus_of_a_game(moves=200) for c in v.legal)  # any command: only sent
    panel = Panel()
    panel.cat = cat
    cl = Checklist("Magician", ["Temple", "Market", "Temple", "Castle"], start, 0)
    panel._stack = [Numbering().keyed(panel._with_back(checklist_menu(cat, cl, "Magician", set())))]
    return panel


def test_a_key_that_sends_a_command_draws_the_panel_once(monkeypatch):
    # (outside an event loop, as here: at once; in an app, with the table's answer: below)
    drawn: list[tuple] = []
    monkeypatch.setattr(
        LineWidget, "invalidate", lambda self, layout=False: drawn.append((self.highlighted, self.sent))
    )
    cat = Catalogue("en")
    for v in _menus_of_a_game():
        panel = Panel()
        panel.show(v, cat, roomy=True, announce=False)
        entries = panel._shown.entries
        i = next((i for i, e in enumerate(entries) if e.key and e.command is not None and not e.confirm), None)
        if i is None or len(entries) < 2:
            continue
        panel.highlighted = (i + 1) % len(entries)
        drawn.clear()
        assert panel.press_key(entries[i].key)
        assert drawn == [(i, True)]  # once, as it is left: highlighted, the command sent
        assert isinstance(panel.posted[-1], PromptPanel.Chosen)
        return
    raise AssertionError("no menu with a command to send under a digit")


def _drawn_anew(panel: Panel, width: int, height: int) -> list[tuple]:
    """What a new panel in `panel`'s state draws with the process-wide memos empty (they are put back
    after: what the panels drew before stays there, as in a server)."""
    from ui.widgets import prompt_drawing, text_panel

    memos = (prompt_drawing._title_memo, prompt_drawing._detail_memo, prompt_drawing._block_memo, text_panel._wrapped)
    kept = [dict(memo) for memo in memos]
    for memo in memos:
        memo.clear()
    try:
        return _lines(_fresh(panel).build(width, height))
    finally:
        for memo, entries in zip(memos, kept):
            memo.clear()
            memo.update(entries)


def test_lines_shared_by_the_apps_are_what_a_panel_makes_anew():
    # The titles, the entries' lines and what they do come from memos shared by every app, keyed by
    # what they are made from: whatever other menus, games, languages, widths and highlights left
    # there, a panel draws what a panel draws with them empty. (A key that missed an input fails here.)
    checked = 0
    for lang, seed in (("en", 3), ("es", 8), ("en", 12)):
        cat = Catalogue(lang)
        for v in _menus_of_a_game(seed=seed, moves=80):
            panel = Panel()
            panel.show(v, cat, roomy=True, announce=False)
            menus = [panel._shown, *(e.submenu for e in panel._shown.entries if e.submenu is not None)]
            for menu in menus[:3]:
                panel._stack = [menu if menu is menus[0] else panel._keyed(panel._with_back(menu))]
                n = len(panel._shown.entries)
                for i in sorted({0, n // 2, n - 1}):
                    panel.highlighted = i
                    for width, height in ((38, 24), (24, 24), (60, 8)):
                        for roomy in (True, False):
                            panel.roomy = roomy
                            got = _lines(panel.build(width, height))
                            assert got == _drawn_anew(panel, width, height), (lang, i, roomy, width)
                            checked += 1
    assert checked > 1000


def test_an_entrys_lines_follow_each_thing_they_are_made_from():
    # Entries alike but for one input (the label's style, a sub-menu, Back, the key, the text under
    # it, the keys column's width through another entry, the highlight): each drawn as anew.
    cat = Catalogue("en")
    detail = "Takes 2 gold from the bank, and then some more words to wrap over a second line."
    base = {"label": Text("Temple of the long name", style="red", end=""), "detail": detail, "key": "1"}
    variants = [
        {},
        {"label": Text("Temple of the long name", style="blue", end="")},
        {"label": Text("Temple of the long name", end="").append("!", style="bold")},
        {"submenu": object()},
        {"back": True},
        {"key": "2"},
        {"key": ""},  # (as Back, but not Back)
        {"inline": True},
        {"inline": True, "detail": detail + " Other."},
    ]
    checked = 0
    for other_key in ("", "3", "enter"):  # the keys column: 0, 1 or 1 wide ("⏎")
        for variant in variants:
            entry = Entry(**{**base, **variant})
            others = [Entry(Text("Market", end=""), "A market.", key=other_key)]
            panel = Panel()
            panel.cat = cat
            panel._stack = [Menu(title="Choose", hint="A hint", entries=[entry, *others])]
            for lit in (0, 1):
                panel.highlighted = lit
                for width in (20, 30, 60):
                    for roomy in (True, False):
                        panel.roomy = roomy
                        got = _lines(panel.build(width, 24))
                        assert got == _drawn_anew(panel, width, 24), (variant, other_key, lit, width, roomy)
                        checked += 1
    assert checked == 3 * len(variants) * 2 * 3 * 2


def _sending_panel(cat: Catalogue) -> tuple[Panel, int, Any]:
    """A panel whose menu has a command under a digit, highlighted elsewhere; and the next view."""
    views = list(_menus_of_a_game())
    for v, nxt in zip(views, views[1:]):
        panel = Panel()
        panel.show(v, cat, roomy=True, announce=False)
        entries = panel._shown.entries
        i = next((i for i, e in enumerate(entries) if e.key and e.command is not None and not e.confirm), None)
        if i is not None and len(entries) >= 2:
            panel.highlighted = (i + 1) % len(entries)
            return panel, i, nxt
    raise AssertionError("no menu with a command to send under a digit")


async def test_a_sent_commands_highlight_is_drawn_with_the_answer(monkeypatch):
    drawn: list[tuple] = []
    monkeypatch.setattr(
        LineWidget, "invalidate", lambda self, layout=False: drawn.append((self.highlighted, self.menu))
    )
    cat = Catalogue("en")
    panel, i, answer = _sending_panel(cat)
    drawn.clear()
    assert panel.press_key(panel._shown.entries[i].key)
    assert drawn == [] and panel.sent  # waits for the answer
    assert panel.show(answer, cat, roomy=True, announce=False)
    assert drawn == [(panel.highlighted, panel.menu)]  # one redraw: the answer's, from the lines before the key
    await asyncio.sleep(SENT_REDRAW_SECONDS * 3)
    assert not [m for m in panel.posted if isinstance(m, events.Callback)]  # the wait was called off


async def test_a_sent_commands_highlight_without_an_answer_is_drawn_a_frame_later(monkeypatch):
    drawn: list[tuple] = []
    monkeypatch.setattr(
        LineWidget, "invalidate", lambda self, layout=False: drawn.append((self.highlighted, self.sent))
    )
    panel, i, _ = _sending_panel(Catalogue("en"))
    drawn.clear()
    assert panel.press_key(panel._shown.entries[i].key)
    assert drawn == []
    await asyncio.sleep(SENT_REDRAW_SECONDS * 3)
    for m in [m for m in panel.posted if isinstance(m, events.Callback)]:  # (the app's queue runs it)
        m.callback()
    assert drawn == [(i, True)]  # highlighted, the command sent


async def test_a_refusal_draws_the_sent_commands_highlight(monkeypatch):
    drawn: list[tuple] = []
    monkeypatch.setattr(
        LineWidget, "invalidate", lambda self, layout=False: drawn.append((self.highlighted, self.sent))
    )
    panel, i, _ = _sending_panel(Catalogue("en"))
    drawn.clear()
    assert panel.press_key(panel._shown.entries[i].key)
    panel.refused("not now")
    assert drawn == [(i, False)]
    await asyncio.sleep(SENT_REDRAW_SECONDS * 3)
    assert not [m for m in panel.posted if isinstance(m, events.Callback)]


def test_a_checklist_row_marked_by_its_key_is_drawn_highlighted_first(monkeypatch):
    # the row's highlight is drawn before the list changes under it (its scroll starts from there)
    drawn: list[tuple] = []
    monkeypatch.setattr(
        LineWidget, "invalidate", lambda self, layout=False: drawn.append((self.highlighted, self.menu))
    )
    panel = _checklist_panel(Catalogue("en"))
    before = panel.menu
    row = panel.menu.entries[2]
    assert panel.press_key(row.key)
    assert [(h, m is before) for h, m in drawn] == [(2, True), (2, False)]
    assert panel.menu.entries[2].label.plain.startswith("[x]")


def test_a_label_on_one_line_is_what_wrapping_it_gives():
    from ui.widgets.prompt_drawing import one_line
    from ui.widgets.text_panel import wrap

    cat = Catalogue("en")
    kept = 0
    for v in _menus_of_a_game(seed=4, moves=120):
        panel = Panel()
        panel.show(v, cat, roomy=True, announce=False)
        menus = [panel._shown, *(e.submenu for e in panel._shown.entries if e.submenu is not None)]
        for menu in menus:
            for i, e in enumerate(menu.entries):
                for inline in (True, False):
                    label = panel._label(i, e, inline=inline)
                    for width in (12, 20, 30, 38, 60):
                        wrapped = wrap(label, width, _APP.console, indent=panel._pad() + 1)
                        got = one_line(label, width)
                        if got is not None:
                            assert _lines(got) == _lines(wrapped), (label.plain, width)
                            kept += 1
                        else:
                            assert len(wrapped) > 1 or label.cell_len > width
    assert kept > 500


def test_an_entry_given_its_key_is_the_entry_replaced():
    import dataclasses

    from ui.prompt_keys import _keyed_entry

    cat = Catalogue("en")
    seen = 0
    for v in _menus_of_a_game(seed=6, moves=30):
        panel = Panel()
        panel.show(v, cat, roomy=True, announce=False)
        for e in panel._shown.entries:
            label = Text("9 ", style="bold", end="") + e.label
            for key, lab in (("3", None), ("", label)):
                got = _keyed_entry(e, key, lab)
                want = dataclasses.replace(e, key=key, label=lab if lab is not None else e.label)
                assert type(got) is Entry and got == want and got is not e
                seen += 1
    assert seen > 50
