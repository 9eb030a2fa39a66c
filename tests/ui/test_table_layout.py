"""The table screen's layout: the plan's boxes, the crowded screen at 80x24, the "too small" screen,
and a resize giving exactly the screen of connecting at that size."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from ui_helpers import screen_text

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.registry import make_bot
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.cards import district_label
from ui.screens.table_layout import MIN_HEIGHT, MIN_WIDTH, plan

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.fit_states import NAMES, Sample
from benchmarks.screen_fit import check, essentials, menu_items, screen_rows, settle


class FakeNeeds:
    """Panels that need `per_seat` rows a seat (one in the one-line form) and a hand of `cards`."""

    def __init__(self, seats: int = 8, cards: int = 10, has_hand: bool = True, menu: int = 5) -> None:
        self.seats, self.cards, self.has_hand, self.menu = seats, cards, has_hand, menu

    def status(self, width: int) -> int:
        return 2 if width >= 100 else 3

    def players(self, width: int, form: str, cols: int) -> int:
        per = {"full": 3, "short": 3, "line": 1}[form]
        return -(-self.seats // cols) * per

    def hand(self, width: int, form: str) -> int:
        if form == "packed":
            return 1 + -(-self.cards // max(width // 14, 1))
        return 1 + self.cards + (12 if form == "full" else 0)

    def prompt_fits(self, width: int, height: int, roomy: bool) -> bool:
        return height >= self.menu + 4


SIZES = [(w, h) for w in (80, 90, 100, 110, 120, 140, 160, 200, 240) for h in (24, 30, 34, 40, 50, 67)]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("chat", [False, True])
def test_boxes_fill_the_screen_without_overlap(size, chat):
    width, height = size
    for needs in (FakeNeeds(), FakeNeeds(2, 0), FakeNeeds(8, 14, has_hand=False), FakeNeeds(5, 4, menu=30)):
        for lower in ("hand", "log", "chat", "cities"):
            p = plan(width, height, needs, show_chat=chat, lower=lower)
            boxes = p.boxes
            assert {"status", "keys"} <= boxes.keys()
            assert "prompt" in boxes or (lower == "cities" and p.mode == "compact")  # F4 asked for the cities
            for name, b in boxes.items():
                assert b.w > 0 and b.h > 0, name
                assert b.x >= 0 and b.right <= width and b.y >= 0 and b.bottom <= height, (name, b)
            names = list(boxes)
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    x, y = boxes[a], boxes[b]
                    overlap = x.x < y.right and y.x < x.right and x.y < y.bottom and y.y < x.bottom
                    assert not overlap, (a, b, x, y)
            assert boxes["keys"].bottom == height and boxes["status"].y == 0
            if lower == "hand" and needs.has_hand:
                assert "hand" in boxes  # the hand is never behind a key on its own screen


def test_below_the_minimum_only_says_so():
    assert plan(MIN_WIDTH - 1, 40, FakeNeeds()).mode == "small"
    assert plan(200, MIN_HEIGHT - 1, FakeNeeds()).mode == "small"
    assert plan(MIN_WIDTH, MIN_HEIGHT, FakeNeeds()).mode == "compact"


def crowded_state(cards: int = 10):
    """A late turn of an 8-player game with the seat to move holding `cards` cards."""
    g, _ = new_game(GameConfig(players=NAMES, seed=4))
    bots = [make_bot("normal", 40 + s) for s in range(8)]
    while g.phase != "over":
        if g.round >= 6 and type(g.pending).__name__ == "PlayTurn" and max(len(p.city) for p in g.players) >= 5:
            break
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        apply(g, legal[0] if len(legal) == 1 else bots[seat].choose(legal, view(g, seat)), check=False)
    seat = g.pending.seat
    while len(g.players[seat].hand) < cards:
        g.players[seat].hand.append(g.deck.pop())
    return g, seat


async def test_crowded_table_at_80x24_shows_the_whole_hand_and_menu():
    g, seat = crowded_state()
    v = view(g, seat)
    assert len(v.players) == 8 and len(v.players[seat].hand) == 10
    app = CitadelsApp(None, UiOptions(show_chat=True))
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(ViewUpdate(v, []))
        await settle(pilot, app)
        sample = Sample("crowded", v, [], "to_move", "play_turn")
        items = essentials(app, sample, app.cat) + menu_items(app.table.query_one("#prompt"))
        assert len(items) > 14
        assert check(app, screen_rows(app), items) == []
        text = screen_text(app)
        for card in v.players[seat].hand:
            assert district_label(app.cat, card) in text
        # every seat has its line, with its city's size
        for p in v.players:
            assert f"{len(p.city)}/{v.complete_at}" in text


async def test_the_check_sees_a_cut_hand():
    """The measure is not blind: a hand box two rows short is reported."""
    import ui.screens.table as table_screen
    from ui.screens.table_layout import Box

    g, seat = crowded_state()
    v = view(g, seat)
    original = table_screen.plan

    def short_hand(*a, **k):
        p = original(*a, **k)
        hand = p.boxes.get("hand")
        if hand is not None:
            p.boxes["hand"] = Box(hand.x, hand.y, hand.w, hand.h - 2)
        return p

    table_screen.plan = short_hand
    try:
        app = CitadelsApp(None, UiOptions())
        async with app.run_test(size=(80, 24)) as pilot:
            app.post_message(ViewUpdate(v, []))
            await settle(pilot, app)
            missing = check(app, screen_rows(app), essentials(app, Sample("", v, [], "to_move", ""), app.cat))
            assert any(kind == "hand" for kind, _ in missing)
    finally:
        table_screen.plan = original


@pytest.mark.parametrize("size", [(79, 24), (80, 23), (60, 18)])
async def test_too_small_window(size):
    g, seat = crowded_state(4)
    app = CitadelsApp(None, UiOptions())
    async with app.run_test(size=size) as pilot:
        app.post_message(ViewUpdate(view(g, seat), []))
        await settle(pilot, app)
        text = screen_text(app)
        assert f"Window too small: need 80x24, have {size[0]}x{size[1]}" in text
        assert "Your move" not in text
        await pilot.resize_terminal(80, 24)
        await settle(pilot, app)
        text = screen_text(app)
        assert "too small" not in text and "Your move" in text


@pytest.mark.parametrize(
    "path",
    [((80, 24), (120, 40)), ((120, 40), (80, 24)), ((80, 24), (60, 18), (160, 50)), ((100, 30), (240, 67))],
    ids=lambda p: "->".join(f"{w}x{h}" for w, h in p),
)
async def test_resize_gives_the_screen_of_connecting_at_that_size(path):
    g, seat = crowded_state()
    v = view(g, seat)
    resized = CitadelsApp(None, UiOptions(show_chat=True))
    async with resized.run_test(size=path[0]) as pilot:
        resized.post_message(ViewUpdate(v, []))
        await settle(pilot, resized)
        for size in path[1:]:
            await pilot.resize_terminal(*size)
            await settle(pilot, resized)
        after_resize = screen_rows(resized)
        plan_resized = resized.table.plan
    fresh = CitadelsApp(None, UiOptions(show_chat=True))
    async with fresh.run_test(size=path[-1]) as pilot:
        fresh.post_message(ViewUpdate(v, []))
        await settle(pilot, fresh)
        assert fresh.table.plan == plan_resized
        assert screen_rows(fresh) == after_resize
        assert all(row.strip() for row in after_resize[-1:])  # the key bar on the last row


async def test_f4_shows_every_city_and_any_key_for_the_prompt_brings_it_back():
    g, seat = crowded_state()
    v = view(g, seat)
    app = CitadelsApp(None, UiOptions())
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(ViewUpdate(v, []))
        await settle(pilot, app)
        await pilot.press("f4")
        await settle(pilot, app)
        text = screen_text(app)
        assert "Your move" not in text  # the whole width for the cities
        for p in v.players:
            for b in p.city:
                assert district_label(app.cat, b.name, b.beautified, len(b.under)) in text
        await pilot.press("1")  # a key meant for the prompt: the prompt comes back, nothing is chosen
        await settle(pilot, app)
        assert "Your move" in screen_text(app) and not app.table.cities
        assert app.table.query_one("#prompt").sent is False
