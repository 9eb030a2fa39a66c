"""ui/compat/layout_patch.py: a table screen's layout change is one reflow, and the screen shows
what Textual's two would have shown.

Two sets of served game screens (tests/ui/test_direct_paint.py's: the SSH driver, a terminal model)
take in the same recorded game at 120x40, where the players' panel grows a row now and then (a
city wraps) and the hand and log shrink under it; one set lays out as shipped, the other the usual
way (`layout_patch.switch_off`). After every move each seat's two screens are the same, cell by
cell, and over the game the shipped screens reflowed about once less for every layout that
resized panels in place (Textual's second reflow; a reflow can slip into the next move's count
as the screen's update timer gathers them, so the totals are compared).
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from test_direct_paint import differences, record_game, settle, start_app, table_screens_ready
from textual.screen import Screen

from ui import ViewUpdate, compat
from ui.compat import direct_paint, layout_patch

if "layout_patch" not in compat.apply():  # never skipped: this test verifies a version
    pytest.fail(compat.why_not_applied("layout_patch"), pytrace=False)


async def test_a_layout_change_is_one_reflow_and_shows_the_same(monkeypatch):
    size, seats = (120, 40), 3
    game = record_game(seats, 5)[:120]
    reflows: Counter = Counter()
    original = Screen._refresh_layout

    def counted(self, size=None, scroll=False):
        reflows[self.app] += 1
        return original(self, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    tasks: list = []
    shipped = [start_app(s, size, tasks) for s in range(seats)]
    usual = [start_app(s, size, tasks) for s in range(seats)]
    for app, _ in usual:
        layout_patch.switch_off(app)
    for app, _ in shipped + usual:
        direct_paint.switch_off(app)  # (both paint alike: only the layout differs)
    apps = [a for a, _ in shipped + usual]
    pairs = list(zip(shipped, usual))
    try:
        await table_screens_ready(shipped + usual)
        resized = 0  # layouts that resized panels in place (none shown or hidden)
        kept = layout_patch.STATS["kept"]
        start = Counter(reflows)
        for n, move in enumerate(game):
            plans = [app.table.plan for app, _ in shipped]
            for ((app, _), (app2, _)), (v, ev) in zip(pairs, move):
                app.post_message(ViewUpdate(v, ev))
                app2.post_message(ViewUpdate(v, ev))
            await settle(apps)
            for seat, ((app, ch), (_, ch2)) in enumerate(pairs):
                diff = differences(ch.screen, ch2.screen)
                assert not diff, f"move {n}, seat {seat}:\n" + "\n".join(diff)
                old, new = plans[seat], app.table.plan
                resized += old is not None and new != old and set(new.boxes) == set(old.boxes)
        ours = sum(reflows[a] - start[a] for a, _ in shipped)
        theirs = sum(reflows[a] - start[a] for a, _ in usual)
        assert resized >= seats, resized  # the players' panel grew at least once a seat
        assert theirs - ours >= resized // 2, (ours, theirs, resized)
        assert layout_patch.STATS["kept"] > kept
        print(f"reflows: {ours} shipped, {theirs} usual; {resized} layouts resized panels in place")
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks, return_exceptions=True)
