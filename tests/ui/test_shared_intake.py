"""The memos that the apps of one process share when they take in a view (issue 23): each must be
keyed by everything its result is made from. Each test asks the memo in turn for cases that differ in
one input (the seat, the language, the edition, the width...) and compares every answer with the one
made without the memo: a key that missed that input would hand one case the other's answer."""

from __future__ import annotations

from ui_helpers import reference_side_by_side

from engine.events import Event
from ui import log_text
from ui.i18n import Catalogue
from ui.log_text import LogWriter
from ui.replay import EVERYTHING, ReplayWriter

NAMES = ["ana", "ben", "cid"]


def test_a_logged_sentence_is_shared_only_by_seats_that_are_told_it_alike():
    log_text._lines.clear()
    events = [
        Event("redrew", seat=0, count=2, cards=["Tavern", "Watchtower", "Monument", "Watchtower"], private=[0]),
        Event("revealed", seat=1, character="Magician"),
        Event("income", seat=1, gold=2),  # names the actor with the character revealed before
        Event("round_started"),
        Event("income", seat=1, gold=2),  # the same event, no character revealed this round
        Event("warrant_signed", seat=0, character="King", private=[0]),  # a replay tells it otherwise
    ]
    told: dict[str, set[str]] = {}
    for rules in ("2016", "classic"):
        for lang in ("en", "es"):
            for seat in (0, 1, None):
                for writer in (
                    LogWriter(Catalogue(lang, rules), seat),
                    ReplayWriter(Catalogue(lang, rules), seat if seat is not None else EVERYTHING),
                ):
                    fresh = type(writer)(Catalogue(lang, rules), writer.seat)
                    fresh.everything = getattr(writer, "everything", False)
                    for i, ev in enumerate(events):
                        before = dict(writer.playing)
                        line = writer.line(ev, NAMES)
                        fresh.playing = before
                        cat = fresh.cat
                        cat.audit = []  # the memo is not asked: the sentence made afresh
                        want = fresh.line(ev, NAMES)
                        cat.audit = None
                        assert line == want, (rules, lang, seat, type(writer).__name__, ev)
                        told.setdefault(f"{i}", set()).add(line.text)
    # the cases do differ: the private redraw by seat, the names by language and edition, the actor by round
    assert len(told["0"]) >= 4 and len(told["1"]) >= 3 and told["2"] != told["4"] and len(told["5"]) >= 3


def _same_texts(a, b):
    def t(x):
        return (x.plain, list(x.spans), x.style, x.end, x.no_wrap, x.overflow, x.justify, x.tab_size)

    return [t(x) for x in a] == [t(x) for x in b]


def test_seats_side_by_side_are_joined_as_rich_would_and_shared_by_their_lists_and_width():
    from rich.text import Text

    from ui.widgets import players

    def seat(*lines):
        return list(lines)

    styled = Text("    —", style="dim", end="")
    head = Text("  ▶ ♛ Ana  1 Assassin  4g 3c  0/7", end="", no_wrap=True, overflow="ellipsis")
    head.stylize("reverse", 0, 1)
    long = Text("  Ben with a name far too long for a column  2/7", end="", overflow="ellipsis")
    ignore = Text("x" * 30, end="", overflow="ignore")
    a = seat(head, Text("    N3 Manor", end=""), styled)
    b = seat(long)
    c = seat(ignore, Text("    ♛", style="bold", end=""))
    players._joined_memo.clear()
    for group in ([a, b], [b, a], [a, c], [c, b, a], [a, b]):
        for colw in (20, 38, 12):
            key, (lists, rows) = players._joined(group, colw, {})
            assert lists == group and _same_texts(rows, reference_side_by_side(group, colw)), (colw, key)


def test_the_status_bars_lines_are_shared_only_by_bars_with_the_same_texts_marks_badges_and_width():
    from rich.text import Text

    from ui.widgets import status_bar
    from ui.widgets.status_bar import StatusBar

    line1 = Text(" Round 2  Turns", end="", no_wrap=True, overflow="ellipsis")
    parts = (Text("Discarded: 3 Magician", end=""), Text("Killed: 4 King", style="bold", end=""))
    watching = Text(" watching ", style="bold reverse", end="")
    variants = {
        "key": [b"a", b"b"],
        "marks": [None, Text("0:30", end=""), Text("0:30", style="bold", end="")],
        "prefix": [None, watching, Text(" watching ", style="dim", end="")],
        "suffix": [None, Text("2 watch", style="dim", end="")],
        "width": [60, 30],
    }
    status_bar._lines.clear()
    seen = set()
    for key in variants["key"]:
        for marks in variants["marks"]:
            for prefix in variants["prefix"]:
                for suffix in variants["suffix"]:
                    for width in variants["width"]:
                        bar = StatusBar()
                        bar._key, bar._marks, bar._prefix, bar._suffix = key, marks, prefix, suffix
                        bar._line1 = line1 if key == b"a" else Text(" Round 3  Turns", end="")
                        bar._parts = parts
                        got = bar.lines_for(width)
                        assert _same_texts(got, bar._make_lines(width)), (key, marks, prefix, suffix, width)
                        seen.add(tuple((t.plain, tuple(t.spans), t.style) for t in got))
    assert len(seen) > 40  # the cases do draw differently


def test_the_waiting_sentence_is_shared_only_by_views_that_wait_alike():
    import msgspec

    from benchmarks.render_cost import record_game
    from ui import prompt_model
    from ui.prompt_model import build_menu, waiting_menu

    views = [v for move in record_game(4, 3)[:60] for v, _ in move if not v.legal]
    rep = msgspec.structs.replace

    def player(v, **changes):  # the waited-for player changed
        s = v.pending.seat
        return rep(v, players=[rep(p, **changes) if p.seat == s else p for p in v.players])

    picking = next(v for v in views if v.pending.kind == "pick_character")
    playing = next(v for v in views if v.pending.kind == "play_turn" and v.turn is not None)
    # the same decision waited for, but another name, character revealed, way of picking, character played
    views += [
        player(picking, name="Zed"),
        player(rep(playing, turn=None), revealed=["King"]),
        player(rep(playing, turn=None), revealed=["Thief"]),
        rep(picking, pending=rep(picking.pending, mode="discard")),
        rep(playing, turn=rep(playing.turn, character="Warlord")),
    ]
    prompt_model._waiting.clear()
    titles = set()
    for rules in ("2016", "classic"):
        for lang in ("en", "es"):
            for v in views:
                got = waiting_menu(v, Catalogue(lang, rules))
                assert got == build_menu(v, Catalogue(lang, rules)), (rules, lang, v.pending)
                titles.add(got.title)
    assert len(titles) > 12


def test_a_prompt_with_nothing_to_choose_shares_its_lines_only_with_the_same_texts_and_size():
    from types import SimpleNamespace

    from rich.console import Console
    from rich.text import Text

    from ui.prompt_model import Menu
    from ui.widgets import prompt_drawing
    from ui.widgets.prompt_drawing import PromptDrawing

    class Drawing(PromptDrawing):
        def __init__(self, menu, clock, note):
            self.app = SimpleNamespace(console=Console(width=80))
            self.menu, self._clock, self._note = menu, clock, note
            self.highlighted, self.roomy, self._scroll = 0, True, 0
            self._row_map, self._col_map = {1: 0}, {1: [(0, 1, 0)]}  # left from a menu with entries

    prompt_drawing._waiting_lines.clear()
    seen = set()
    for title in ("Waiting for Ana (King) to play the turn, and a title long enough to wrap", "Waiting for Ben"):
        for hint in ("", "a hint"):
            for clock in (None, Text(" 0:30", style="bold", end=""), Text(" 0:30", style="bold reverse", end="")):
                for note in (None, Text("refused", style="bold reverse", end="")):
                    for width, height in ((38, 36), (30, 36), (38, 20)):
                        d = Drawing(Menu(title=title, hint=hint), clock, note)
                        got = d.build(width, height)
                        assert d._row_map == {} and d._col_map == {}
                        assert _same_texts(got, d._build(width, height)), (title, hint, clock, note, width, height)
                        seen.add(tuple((t.plain, tuple(t.spans), t.style) for t in got))
    assert len(seen) >= 60


class _Needs:
    """Panels whose answers the test changes one at a time: `extra[question]` rows (or a menu that
    no longer fits) added to a plain answer, for one set of arguments or for all (None)."""

    def __init__(self, seats=6, has_hand=True, extra=None, rows_of=None):
        self.seats, self.has_hand, self.extra = seats, has_hand, extra or {}
        self.rows_of = rows_of or seats  # the players' rows as if this many seats (the same answers)

    def _more(self, name, *args):
        return self.extra.get((name, args), 0) + self.extra.get((name, None), 0)

    def status(self, width):
        return 2 + self._more("status", width)

    def players(self, width, form, cols):
        return -(-self.rows_of // cols) * {"full": 3, "short": 2, "line": 1}[form] + self._more(
            "players", width, form, cols
        )

    def hand(self, width, form):
        return {"full": 14, "list": 9, "packed": 4}[form] + self._more("hand", width, form)

    def prompt_fits(self, width, height, roomy):
        return height >= 12 + 30 * self._more("prompt_fits", width, height, roomy)


def test_the_layout_plan_is_kept_only_while_every_answer_it_was_made_from_is_the_same():
    from ui.screens.table_layout import plan, replan

    sizes = [(120, 40), (120, 30), (80, 24), (80, 30), (100, 30), (200, 60)]
    for width, height in sizes:
        for chat in (False, True):
            for lower in ("hand", "log", "cities"):
                base = replan(None, width, height, _Needs(), chat, lower)
                assert base.plan == plan(width, height, _Needs(), chat, lower)
                again = replan(base, width, height, _Needs(), chat, lower)
                assert again is base  # nothing changed: the plan kept
                changes = [_Needs(extra={(name, args): more}) for name, args, _ in base.asked for more in (1, 4)]
                changes += [_Needs(extra={(name, None): 9}) for name in ("status", "players", "hand", "prompt_fits")]
                changes += [_Needs(seats=3), _Needs(seats=2, rows_of=6), _Needs(has_hand=False)]
                for needs in changes:
                    got = replan(base, width, height, needs, chat, lower).plan
                    assert got == plan(width, height, needs, chat, lower), (width, height, chat, lower, needs.extra)
                for other in [(w, h, chat, lower) for w, h in sizes] + [(width, height, not chat, "log")]:
                    assert replan(base, *other[:2], _Needs(), *other[2:]).plan == plan(*other[:2], _Needs(), *other[2:])


def test_the_players_rows_at_least_are_never_more_than_they_take_and_the_plan_is_the_same_with_them():
    from benchmarks.render_cost import record_game
    from ui.screens.table_layout import plan
    from ui.widgets.players import FORMS, PlayersPanel

    class WithBound(_Needs):
        def __init__(self, panel, **kw):
            super().__init__(seats=len(panel._order), **kw)
            self.panel = panel

        def players(self, width, form, cols):
            return self.panel.height_for(width, form, cols)

        def players_at_least(self, width, form, cols):
            return self.panel.rows_at_least(width, form, cols)

    class WithoutBound(WithBound):
        players_at_least = None  # a Needs that cannot tell: every count is made

    moves = record_game(6, 7)
    cat = Catalogue("en")
    tight = 0
    for move in moves[::15]:
        for seat in (0, 3):
            panel = PlayersPanel()
            panel.fixed = True
            panel.show(move[seat][0], cat, compact=False)
            for form in FORMS:
                for cols in (1, 2, 3):
                    for width in (24, 38, 52, 78, 118):
                        least, rows = panel.rows_at_least(width, form, cols), panel.height_for(width, form, cols)
                        assert least <= rows, (form, cols, width)
                        tight += least == rows
            for width, height in ((120, 40), (160, 50), (100, 30)):
                assert plan(width, height, WithBound(panel)) == plan(width, height, WithoutBound(panel))
    assert tight > 50  # the bound is often the count itself: it does skip counts


def test_a_players_bytes_are_kept_per_view_object_and_follow_every_change():
    """ui/widgets/players.py keys a seat's lines by its player's view encoded once per view object
    (the table's views of one state share the other players): the same object, the same bytes; an
    equal object, equal bytes; any field changed in a new view, other bytes."""
    import msgspec

    from engine import GameConfig, new_game
    from engine.view import view
    from ui.widgets.players import _player_bytes

    g, _ = new_game(GameConfig(players=NAMES, seed=3))
    others: dict = {}
    a, b = view(g, 0, others), view(g, 1, others)
    assert a.players[2] is b.players[2]
    first = _player_bytes(a.players[2])
    assert _player_bytes(b.players[2]) is first
    assert _player_bytes(view(g, 0).players[2]) == first  # another object, the same player
    for change in ({"gold": 9}, {"crown": True}, {"hand_size": 7}, {"characters": ["King"]}, {"name": "dan"}):
        assert _player_bytes(msgspec.structs.replace(a.players[2], **change)) != first, change
