"""What a demanding new player found on the table screen and its neighbours (issue 17's polish pass):
each test failed before its fix."""

from __future__ import annotations

from ui_helpers import make_app

from ui.widgets.hand import HandPanel


def _bold_at(line, index: int) -> bool:
    """Whether the character at `index` of a rich Text is drawn bold (base style and spans)."""
    bold = bool(line.style and "bold" in str(line.style))
    for span in line.spans:
        if span.start <= index < span.end and "bold" in str(span.style):
            bold = True
    return bold


async def test_the_hands_head_line_is_bold_only_where_it_means_it():
    """The name (full form) or the gold (short forms) stands out; the rest of the line is plain."""
    for size, form in (((120, 40), "full"), ((80, 24), None)):
        app, _ = make_app(players=4, seed=3)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            panel = app.table.query_one(HandPanel)
            for f in [form] if form else ["list", "packed"]:
                head = panel.lines_for(60, f)[0]
                cards = head.plain.index("card")
                assert head.plain.strip(), head
                assert not _bold_at(head, cards), (f, head.plain, head.spans, head.style)
                assert _bold_at(head, len(head.plain) - len(head.plain.lstrip())), (f, head.plain)


async def test_a_menu_rebuilt_under_the_highlight_keeps_the_same_item_highlighted():
    """The room's menu is rebuilt when someone sits down: the highlight stays on the item it was on
    (not on the same row number, which had become "Remove bruno"), and when that item is gone it moves
    to the nearest item above that is still there."""
    from rich.text import Text
    from textual.app import App

    from ui.widgets.menu_list import Item, MenuList

    class MenuApp(App):
        def compose(self):
            yield MenuList()

    def items(*labels: str) -> list[Item]:
        return [Item(label) for label in labels]

    app = MenuApp()
    async with app.run_test(size=(60, 12)) as pilot:
        menu = app.query_one(MenuList)
        menu.set([Text("room")], items("Put a bot in an open seat", "Remove Petra (bot)", "Close the table"))
        await pilot.press("down")
        menu.set([Text("room")], items("Put a bot in an open seat", "Close the table"))  # Petra removed
        assert menu.items[menu.highlighted].label == "Put a bot in an open seat"
        await pilot.press("down")
        assert menu.items[menu.highlighted].label == "Close the table"
        # bruno sits down: a row appears above the highlighted one
        menu.set([Text("room")], items("Put a bot in an open seat", "Remove bruno", "Close the table"))
        assert menu.items[menu.highlighted].label == "Close the table"
        menu.set([Text("lobby")], items("carl's table", "New table…"), keep=False)
        assert menu.highlighted == 0


async def test_a_roomy_character_choice_shows_each_text_once():
    """At 120x40 every character's text is under its name: the box of what the highlighted one does
    repeated the same text below the list (cut short at that)."""
    from ui_helpers import screen_text

    from ui.widgets.prompt import PromptPanel

    app, _ = make_app(players=4, seed=2, human=0)
    async with app.run_test(size=(120, 40)) as pilot:
        prompt = app.table.query_one(PromptPanel)
        for _ in range(100):
            await pilot.pause()
            if prompt.menu is not None and prompt.menu.entries and prompt.menu.entries[0].inline:
                break
        else:
            raise AssertionError("no character choice")
        await pilot.pause(0.1)
        for _step in range(2):
            e = prompt.menu.entries[prompt.highlighted]
            words = " ".join(e.detail.split()[:3])
            assert screen_text(app).count(words) == 1, (e.label.plain, words)
            await pilot.press("down")
            await pilot.pause(0.1)


async def test_long_names_side_by_side_fold_rather_than_lose_the_gold_and_city():
    """At 120x40 the seats sit in two columns; a long name ("Coin-Counting Carla (bot)") with a
    character cut the line ("2g 4…", "1/"): a player's gold, cards and city size are folded to the
    next line instead, and the layout counts that line."""
    from ui_helpers import screen_text

    from engine import GameConfig
    from ui import CitadelsApp, UiOptions
    from ui.local_game import LocalTable
    from ui.widgets.players import PlayersPanel

    names = ["bruno", "Wendel (bot)", "Coin-Counting Carla (bot)", "Bartholomew Longname"]
    table = LocalTable(GameConfig(players=names, preset="first-game", seed=4), human_seat=0, bot_delay=0)
    app = CitadelsApp(table, UiOptions(lang="en", name="bruno"))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(30):
            await pilot.pause()
        panel = app.table.query_one(PlayersPanel)
        assert panel._columns(panel.size.width) == 2
        region = panel.region
        rows = screen_text(app).splitlines()[region.y : region.bottom]
        shown = "\n".join(r[region.x : region.right] for r in rows)
        assert "…" not in shown, shown
        assert shown.count("/7") == 4, shown  # every seat's city size


def test_a_redraw_says_which_cards_went_and_which_came():
    """ "discards 2 cards and draws as many: Tavern, Watchtower, Monument, Watchtower" read as four
    cards drawn: the line names the discarded cards and the drawn ones apart (to the Magician's
    player; the others still read only how many)."""
    from engine.events import Event
    from ui.i18n import Catalogue
    from ui.log_text import LogWriter

    ev = Event("redrew", seat=0, count=2, cards=["Tavern", "Watchtower", "Monument", "Watchtower"], private=[0])
    names = ["ana", "bruno"]
    mine = LogWriter(Catalogue("en"), 0).line(ev, names).text
    assert mine == "ana discards Tavern, Watchtower and draws Monument, Watchtower.", mine
    theirs = LogWriter(Catalogue("en"), 1).line(ev, names).text
    assert theirs == "ana discards 2 cards and draws as many.", theirs
    es = LogWriter(Catalogue("es"), 0).line(ev, names).text
    assert "descarta" in es and "Monumento" in es and es.index("Taberna") < es.index("roba"), es


async def test_a_spectators_prompt_panel_is_not_called_your_move():
    """A spectator has no move to make: the panel that says what the game waits for is titled "Now"."""
    from test_ui_feedback import spectator_app
    from ui_helpers import screen_text

    from ui.link import ViewUpdate

    app, (v, events) = spectator_app()
    async with app.run_test(size=(100, 30)) as pilot:
        app.post_message(ViewUpdate(v, events))
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "Your move" not in text and "Now" in text, text
    app, _ = make_app(players=4, seed=1)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(10):
            await pilot.pause()
        assert "Your move" in screen_text(app)


def test_a_folded_seat_head_never_parts_a_rank_from_its_character():
    """The fold once left "Coin-Counting Carla (bot) 4" on one line and "Emperor [bewitched]" on the
    next: it folds at a space that does not follow a rank."""
    import msgspec

    from engine import GameConfig, new_game, view
    from ui.i18n import Catalogue
    from ui.widgets.players import _head_lines

    g, _ = new_game(GameConfig(players=["bruno", "Coin-Counting Carla (bot)", "Wendel (bot)"], seed=1))
    v = view(g, 0)
    carla = msgspec.structs.replace(v.players[1], characters=["Emperor"], revealed=["Emperor"])
    cat = Catalogue("en")
    for width in range(26, 44):
        data = (carla, False, 7, None, (None, None, "Emperor"), 0, [], cat, None)
        lines = [t.plain for t in _head_lines(data, "short", width)]
        assert all(t.cell_len <= width for t in _head_lines(data, "short", width)), (width, lines)
        assert not any(line.rstrip().endswith(" 4") for line in lines), (width, lines)
        assert "4 Emperor" in " ".join(lines), (width, lines)


async def test_arrows_and_enter_work_again_after_the_window_was_too_small():
    """Seen over SSH: after "Window too small" and back, the focus was gone (nothing focused), so ↑↓
    and Enter did nothing while the footer still offered them."""
    from ui.widgets.prompt import PromptPanel

    app, _ = make_app(players=4, seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = app.table.query_one(PromptPanel)
        for _ in range(50):
            await pilot.pause()
            if prompt.menu is not None and len(prompt.menu.entries) > 1 and not prompt.sent:
                break
        assert app.focused is prompt
        for size in ((60, 18), (120, 40), (60, 18), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            await pilot.pause()
        assert app.focused is prompt
        at = prompt.highlighted
        await pilot.press("down")
        assert prompt.highlighted == at + 1


def test_a_profile_with_one_game_says_one_game():
    """The profile said "1 games · 1 wins": the counts take their plural forms from the language."""
    import io

    from rich.console import Console

    from ui.i18n import Catalogue
    from ui.players_data import ProfileData
    from ui.screens.profile import profile_renderable

    data = ProfileData(
        player_id=2, name="ana", bot=False, games=1, wins=1, average_score=12.0, ratings=[], favourites=[], you=True
    )
    for lang, want in (("en", "1 game · 1 win (100%)"), ("es", "1 partida · 1 victoria (100 %)")):
        console = Console(width=80, file=io.StringIO(), record=True, color_system=None)
        console.print(profile_renderable(Catalogue(lang), data))
        assert want in console.export_text(), console.export_text()


def test_open_seats_are_counted_in_words_not_seat_s():
    """The room said "1 seat(s) open": the count takes its plural form (Spanish: the adjective too)."""
    from ui.i18n import Catalogue

    en, es = Catalogue("en"), Catalogue("es")
    assert en.t("lobby.waiting_players", open=1).startswith("1 seat open:")
    assert en.t("lobby.waiting_players", open=2).startswith("2 seats open:")
    assert es.t("lobby.waiting_players", open=1).startswith("1 asiento libre:")
    assert es.t("lobby.waiting_players", open=3).startswith("3 asientos libres:")
