"""Confirmations that say exactly what will happen (issue 17, item 4), through Pilot on a real
local table: choices first, then one confirmation naming every target and the gold it costs (and
the table then takes exactly that); no confirmation for what only gives; nothing offered that would
do nothing (the Magician's "discard 0, draw 0")."""

from __future__ import annotations

from scene import DIPLOMAT, MAGICIAN, MARSHAL, WARLORD, choices, labels, scene_app
from ui_helpers import screen_text

from engine.commands import Ability, Confirm, Select


def _shown(prompt) -> str:
    """The prompt's lines as drawn, joined (a sentence wrapped over lines reads whole)."""
    width, height = prompt.content_size
    return " ".join(t.plain.strip() for t in prompt.built_lines(width, height) if t.plain.strip())


async def _confirm_text(pilot, prompt) -> str:
    await pilot.pause()
    assert prompt.confirming, "a confirmation is shown"
    return prompt.menu.entries[0].label.plain


async def test_warlord_confirm_names_player_district_and_price():
    for district, key, price in (("Temple", "1", 1), ("Market", "3", 3)):  # Ana has a Great Wall: +1
        app, table = scene_app(WARLORD, "Ben")
        async with app.run_test(size=(80, 24)) as pilot:
            prompt = await choices(pilot)
            await pilot.press("3")  # Warlord · Destroy a district
            await pilot.pause()
            players = dict(labels(prompt))
            assert players["1"].startswith("Ana") and players["3"].startswith("Cid")
            assert "M1 Watchtower" in players["2"] and "T3 Docks" in players["3"]  # a single target: named
            await pilot.press("1")  # Ana
            await pilot.pause()
            assert [v.split()[1] for k, v in labels(prompt) if k != "escape"] == ["Temple", "Great", "Market"]
            await pilot.press(key)
            sentence = await _confirm_text(pilot, prompt)
            cost = {"Temple": 1, "Market": 3}[district]  # the Market (2) is beautified
            assert sentence == f"Destroy Ana's {district} (cost {cost}): you pay {price} gold."
            assert sentence in _shown(prompt)
            gold = table.state.players[1].gold
            await pilot.press("enter")
            await pilot.pause()
            assert table.state.players[1].gold == gold - price
            assert district not in [b.name for b in table.state.players[0].city]


async def test_warlord_single_target_confirm_names_the_district():
    """The issue's "ana 1g 3c": a player with one district is a single choice; the confirmation
    still says which district and what it costs."""
    app, table = scene_app(WARLORD, "Ben")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("3", "3")  # Cid: his only district
        sentence = await _confirm_text(pilot, prompt)
        assert sentence == "Destroy Cid's Docks (cost 3): you pay 2 gold."
        assert sentence in _shown(prompt)
        assert prompt.menu.title.startswith("Warlord · Destroy a district")


async def test_marshal_confirm_names_price_and_what_the_owner_gets():
    app, table = scene_app(MARSHAL, "Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("3")
        await pilot.pause()
        ben = next(k for k, v in labels(prompt) if v.startswith("Ben"))
        await pilot.press(ben)
        sentence = await _confirm_text(pilot, prompt)
        assert sentence == "Seize Ben's Temple: you pay 2 gold (1 to Ben) and add it to your city."
        assert sentence in _shown(prompt)
        before = (table.state.players[0].gold, table.state.players[1].gold)
        await pilot.press("enter")
        await pilot.pause()
        assert (table.state.players[0].gold, table.state.players[1].gold) == (before[0] - 2, before[1] + 1)


async def test_diplomat_confirm_names_both_districts_and_the_difference():
    app, table = scene_app(DIPLOMAT, "Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("3")
        sentence = await _confirm_text(pilot, prompt)  # one possible exchange: straight to the confirmation
        assert sentence == "Give your Temple to Ben and take their Castle: you pay 3 gold (3 to Ben)."
        assert sentence in _shown(prompt)
        await pilot.press("enter")
        await pilot.pause()
        assert table.state.players[0].gold == 6 and table.state.players[0].city[0].name == "Castle"


async def test_magician_swap_says_how_many_cards_go_and_come():
    app, table = scene_app(MAGICIAN, "Ana")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("3")
        await pilot.pause()
        ben = next(k for k, v in labels(prompt) if v.startswith("Ben"))
        await pilot.press(ben)
        sentence = await _confirm_text(pilot, prompt)
        assert sentence == "Give your 3 cards to Ben and take their 2 cards."
        assert sentence in _shown(prompt)


async def test_magician_redraw_chooses_cards_first_then_one_step():
    app, table = scene_app(MAGICIAN, "Ana")
    sent: list = []
    send = table.send
    table.send = lambda c: (sent.append(c), send(c))
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await choices(pilot)
        await pilot.press("4")  # Discard and redraw: the cards first, nothing sent yet
        await pilot.pause()
        assert sent == [] and not prompt.confirming
        rows = [v for k, v in labels(prompt) if k != "escape"]
        # in the order the hand shows them; nothing that would do nothing
        assert rows == ["[ ]  N3 Manor ", "[ ]  N4 Castle ", "[ ]  R1 Temple "]
        assert "Discard nothing" not in screen_text(app) and "draw 0" not in screen_text(app)
        await pilot.press("1", "3")
        await pilot.pause()
        shown = dict(labels(prompt))
        assert shown["1"].startswith("[x]") and shown["3"].startswith("[x]") and shown["2"].startswith("[ ]")
        assert shown["4"] == "Discard Manor, Temple and draw 2 cards"  # the count with its unit (issue 17 item 7)
        await pilot.press("3")  # marked again: unmarked, the rows stay in place
        await pilot.pause()
        assert dict(labels(prompt))["4"] == "Discard Manor and draw 1 card"
        await pilot.press("3", "4")
        for _ in range(20):
            await pilot.pause()
        assert sent == [
            Ability(0, "Magician", option="redraw"),
            Select(0, "Manor"),
            Select(0, "Temple"),
            Confirm(0),
        ]
        hand = table.state.players[0].hand
        assert "Castle" in hand and len(hand) == 3 and table.state.deck[:2] == ["Manor", "Temple"]  # at the bottom
        assert app.view.pending.kind == "play_turn"  # back to the turn, the Magician used
        assert not any(isinstance(c, Ability) and c.name == "Magician" for c in app.view.legal)
        assert labels(prompt) == [("1", "Take 2 gold"), ("2", "Draw cards")]  # their numbers kept
