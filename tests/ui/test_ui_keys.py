"""Keys that mean one thing (issue 17, item 3), through Pilot on a real local table:

- a list of characters answers to their ranks, shown once, in rank order;
- other lists keep each entry's number for the whole turn: a key pressed again never does
  something else;
- ending the turn is `e` and asks once, naming what is still possible; a number never confirms;
- the chat is entered with `c` only, left with Enter (sending) or Esc, and no game key goes in;
- Tab moves the focus between panels, the focused one is shown, the footer follows.
"""

from __future__ import annotations

from scene import ARCHITECT, ASSASSIN, MERCHANT, choices, labels, scene_app
from textual import events
from ui_helpers import make_app, screen_text

from engine.commands import Ability, EndTurn, Pick, TakeGold
from ui import ChatLine
from ui.widgets.key_bar import KeyBar
from ui.widgets.prompt import PromptPanel


def _record(table) -> list:
    """The commands the screen sends to the table, in order."""
    sent: list = []
    send = table.send

    def recording(cmd):
        sent.append(cmd)
        send(cmd)

    table.send = recording
    return sent


async def test_character_choice_by_rank_whatever_the_order():
    app, table = make_app(players=4, seed=1)
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        entries = prompt.menu.entries
        ranks = [e.rank for e in entries]
        assert ranks == sorted(ranks), "the list is in rank order"
        assert all(e.key == str(e.rank) for e in entries), "each character's key is its rank"
        text = screen_text(app)
        for e in entries:  # the rank shown once: "8 Warlord", not "3 8 Warlord"
            assert f"{e.rank} {e.label.plain}" in text
            assert f"{entries.index(e) + 1} {e.rank} {e.label.plain}" not in text
        passed = [c.character for c in app.view.legal]  # in the order passed: the Warlord second
        assert passed.index("Warlord") == 1 and [e.key for e in entries].index("8") == 2
        free = next(d for d in "123456789" if d not in {e.key for e in entries})
        await pilot.press(free)  # a rank not offered does nothing
        await pilot.pause()
        assert sent == []
        await pilot.press("8")
        await pilot.pause()
        assert sent == [Pick(0, "Warlord")]


async def test_character_targets_by_rank():
    app, table = scene_app(ASSASSIN, "Ana")
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        assert labels(prompt)[2] == ("3", "Assassin · Kill a character")
        await pilot.press("3")
        await pilot.pause()
        keys = {e.key: e.label.plain for e in prompt.menu.entries if not e.back}
        assert keys["4"] == "King" and keys["8"] == "Warlord" and keys["2"] == "Thief"
        await pilot.press("4")  # the King, by its rank
        await pilot.pause()
        assert prompt.confirming and "Kill the King" in screen_text(app)
        await pilot.press("4", "1")  # digits never confirm
        await pilot.pause()
        assert sent == []
        await pilot.press("enter")
        await pilot.pause()
        assert sent == [Ability(0, "Assassin", character="King")]


async def test_numbers_stay_with_their_entries_for_the_turn():
    app, table = scene_app(ARCHITECT, "Ana")
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        assert labels(prompt) == [("1", "Take 2 gold"), ("2", "Draw cards"), ("3", "Architect · Draw 2 extra cards")]
        await pilot.press("1")  # take 2 gold
        prompt = await choices(pilot)
        shown = dict(labels(prompt))
        assert shown["3"] == "Architect · Draw 2 extra cards"  # kept its number
        assert "1" not in shown and "2" not in shown  # gone with what they did
        assert shown["e"] == "End your turn"  # its own key, never a number
        build = next(k for k, v in shown.items() if v.startswith("Build"))
        assert build == "4"
        await pilot.press("1")  # pressed again: nothing (it was "Take 2 gold")
        await pilot.pause()
        assert sent == [TakeGold(0)]
        await pilot.press("3")  # the Architect's cards: no confirmation (only gives)
        prompt = await choices(pilot)
        assert isinstance(sent[-1], Ability) and sent[-1].name == "Architect"
        assert dict(labels(prompt))["4"].startswith("Build")  # still 4
        await pilot.press("3")  # gone: nothing
        await pilot.pause()
        assert len(sent) == 2


async def test_end_turn_is_its_own_key_and_asks_once():
    app, table = scene_app(ARCHITECT, "Ana")
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("e")  # not yet possible (gather first): nothing
        await pilot.pause()
        assert not prompt.confirming and sent == []
        await pilot.press("1")
        prompt = await choices(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert prompt.confirming
        text = screen_text(app)
        assert "End your turn?" in text and "Still possible:" in text and "Build" in text
        await pilot.press("1", "e", "3")  # neither a number nor e again confirms
        await pilot.pause()
        assert sent == [TakeGold(0)] and prompt.confirming
        await pilot.press("escape")
        await pilot.pause()
        assert not prompt.confirming
        await pilot.press("e", "enter")
        await pilot.pause()
        assert sent[-1] == EndTurn(0)


async def test_end_turn_without_anything_left_does_not_ask():
    app, table = scene_app(MERCHANT, "Ana")
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await choices(pilot)
        await pilot.press("1")  # take 2 gold
        prompt = await choices(pilot)
        shown = dict(labels(prompt))
        assert shown["3"] == "Merchant · Take 1 extra gold" and shown["4"] == "Take income"
        await pilot.press("3")  # the Merchant's gold: no confirmation, like income
        prompt = await choices(pilot)
        assert sent[-1] == Ability(0, "Merchant")
        await pilot.press("4")  # income: no confirmation either
        prompt = await choices(pilot)
        assert [e.key for e in prompt.menu.entries] == ["e"]  # nothing else left (no card affordable)
        await pilot.press("e")
        await pilot.pause()
        assert sent[-1] == EndTurn(0)


async def test_chat_is_entered_with_its_key_and_keeps_game_keys_out():
    said: list[str] = []
    app, table = make_app(players=4, seed=1, show_chat=True, chat_send=said.append)
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await choices(pilot)
        bar = app.table.query_one(KeyBar)
        assert "c chat" in bar.plain and "Tab panels" in bar.plain
        await pilot.press("tab", "tab", "tab", "tab")  # prompt -> log -> chat -> hand -> prompt
        assert isinstance(app.focused, PromptPanel)
        assert app.focused.id != "chat-input"
        await pilot.press("c")
        assert app.focused.id == "chat-input" and app.table.lower == "chat"
        assert bar.plain.startswith("⏎ send") and "Esc back to the game" in bar.plain
        await pilot.press("8", "e", "c", "1")  # game keys: typed into the chat, not played
        await pilot.pause()
        assert sent == [] and app.focused.value == "8ec1"
        await pilot.press("enter")
        assert said == ["8ec1"]
        assert isinstance(app.focused, PromptPanel) and app.table.lower == "hand"  # back to the game
        await pilot.press("8")  # the game has the keys again
        await pilot.pause()
        assert sent == [Pick(0, "Warlord")]
        app.post_message(ChatLine("Ben", "hola"))
        await pilot.press("c", "h", "escape")  # Esc leaves without sending; the text waits
        assert isinstance(app.focused, PromptPanel) and said == ["8ec1"]
        assert app.table.query_one("#chat-input").value == "h"
        await pilot.press("enter")  # Enter in the game is the prompt's, not the chat's
        assert said == ["8ec1"]


async def test_tab_moves_the_visible_focus_and_the_footer_follows():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda t: None)
    async with app.run_test(size=(120, 40)) as pilot:
        await choices(pilot)
        screen = app.table
        bar = screen.query_one(KeyBar)
        assert screen.focused_panel() == "prompt" and not screen.has_class("-away")
        assert "1-9 choose by rank" in bar.plain
        await pilot.press("tab")
        assert screen.focused_panel() == "log" and screen.has_class("-away")

        def look(panel: str) -> tuple:
            st = screen.query_one(panel).styles
            return st.border_top[1], st.border_title_style.reverse

        assert look("#log")[1] and not look("#hand")[1] and not look("#prompt")[1]  # its title reversed
        assert look("#log")[0] != look("#hand")[0] and look("#prompt")[0] == look("#hand")[0]  # its frame lit
        assert bar.plain.startswith("↑↓ PgUp PgDn scroll · Esc back to the game")
        await pilot.press("shift+tab")
        assert screen.focused_panel() == "prompt"
        assert look("#prompt")[1] and not look("#log")[1]
        await pilot.press("tab", "tab", "tab")
        assert screen.focused_panel() == "hand" and look("#hand")[1]
        await pilot.press("escape")  # back to the prompt
        assert screen.focused_panel() == "prompt"


async def test_compact_lower_panel_follows_the_focus():
    app, _ = make_app(players=4, seed=1, show_chat=True, chat_send=lambda t: None)
    async with app.run_test(size=(80, 24)) as pilot:
        await choices(pilot)
        screen = app.table
        assert screen.compact and screen.lower == "hand"
        await pilot.press("tab")
        assert screen.lower == "log" and screen.focused_panel() == "log"
        await pilot.press("tab")
        assert screen.lower == "chat" and screen.focused_panel() == "chat"
        await pilot.press("tab")
        assert screen.lower == "hand" and screen.focused_panel() == "hand"
        await pilot.press("tab")
        assert screen.lower == "hand" and screen.focused_panel() == "prompt"


async def test_keys_typed_at_once_go_where_the_focus_is_by_then():
    """A fast typist (or one SSH packet): "c3" writes 3 in the chat (3, the Magician, is not taken);
    "h⏎8" sends the line and then takes the Warlord."""
    said: list[str] = []
    app, table = make_app(players=4, seed=1, show_chat=True, chat_send=said.append)
    sent = _record(table)
    async with app.run_test(size=(80, 24)) as pilot:
        await choices(pilot)

        def burst(*keys: str) -> None:  # posted together, as the SSH driver posts one packet's keys
            for k in keys:
                app.post_message(events.Key(k, k if len(k) == 1 else None))

        burst("c", "3")
        await pilot.pause()
        await pilot.pause()
        assert sent == [] and app.table.query_one("#chat-input").value == "3"
        burst("h", "enter", "8")
        await pilot.pause()
        await pilot.pause()
        assert said == ["3h"] and sent == [Pick(0, "Warlord")]
        assert app.table.query_one("#chat-input").value == ""


async def test_keys_that_open_menus_and_send_at_once_leave_the_footer_to_the_answer():
    """One packet opens the Assassin's targets, picks the King and confirms: the menus' changes are
    handled after the command went, and the footer stays as the last menu set it (the table's answer
    redraws it), not a footer of nothing to choose that a late answer would leave on screen."""
    app, table = scene_app(ASSASSIN, "Ana")
    sent: list = []
    table.send = sent.append  # no answer comes
    async with app.run_test(size=(80, 24)) as pilot:
        await choices(pilot)
        bar = app.table.query_one(KeyBar)
        for k in ("3", "4", "enter"):  # posted together, as the SSH driver posts one packet's keys
            app.post_message(events.Key(k, k if len(k) == 1 else None))
        for _ in range(5):
            await pilot.pause()
        assert sent == [Ability(0, "Assassin", character="King")]
        assert bar.plain.startswith("⏎ confirm · Esc back"), bar.plain
