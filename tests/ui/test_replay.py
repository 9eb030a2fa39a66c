"""Replays of saved games (ui/replay.py, ui/screens/replay.py, `citadels save replay`).

Games are played by random bots (as `engine.sim` does), saved with
`engine.savefile` and loaded back with every check, then watched by keys.
Snapshots: the replay screen at 80x24 and 120x40, English and Spanish
(`--snapshot-update` to accept new pictures).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import msgspec
import pytest
from textual import events
from ui_helpers import NAMES, screen_text

from engine import GameConfig, apply, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.savefile import Save, Seat, dumps, loads, new_save, utcnow
from engine.state import encode
from engine.view import reveal_all_view, view, view_bytes
from ui.i18n import Catalogue, _load
from ui.replay import EVERYTHING, SNAPSHOT_EVERY, Replay, ReplayWriter
from ui.screens.replay import ReplayApp, ReplayOptions, ReplayScreen
from ui.widgets.log_view import LogView
from ui.widgets.replay_hands import ReplayHands

ROOT = Path(__file__).resolve().parents[2]


def make_save(players: int = 4, seed: int = 5, stop: int | None = None, preset: str = "first-game") -> Save:
    cfg = GameConfig(players=NAMES[:players], preset=preset, seed=seed)
    g, _ = new_game(cfg)
    bots = [RandomBot(seed * 10 + s) for s in range(players)]
    log = []
    while g.phase != "over" and (stop is None or len(log) < stop):
        s = g.pending.seat
        cmd = bots[s].choose(legal_commands(g, s))
        apply(g, cmd)
        log.append(cmd)
    save = new_save("replay-test", cfg, [Seat(n) for n in cfg.players], g, log, created=utcnow())
    return loads(dumps(save))  # through the bytes, every check of a real load


@pytest.fixture(scope="module")
def finished() -> Save:
    save = make_save()
    assert save.finished
    return save


@pytest.fixture(scope="module")
def unfinished() -> Save:
    save = make_save(players=5, seed=8, stop=150)
    assert not save.finished
    return save


def fresh_state(save: Save, p: int):
    g, _ = new_game(save.config)
    for cmd in save.log[:p]:
        apply(g, cmd)
    return g


async def keys(pilot, *names: str, every: int = 25) -> None:
    """Press keys the way the terminal sends them, many at a time: Pilot.press waits ~50 ms after
    each key, too slow for hundreds of moves. The app handles them in order; a pause every `every`."""
    app = pilot.app
    for i, name in enumerate(names, 1):
        app._driver.send_message(events.Key(name, name if len(name) == 1 else None))
        if i % every == 0:
            await pilot.pause()
    await pilot.pause()


def bar(app) -> str:
    return screen_text(app).splitlines()[0]


def _word(name: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


# --- the model --------------------------------------------------------------------------------------------


def test_positions_match_a_fresh_replay_in_any_order(finished):
    r = Replay(finished)
    assert r.total == len(finished.log) and r.finished
    assert len(r._snapshots) == r.total // SNAPSHOT_EVERY + 1  # memory: one snapshot per SNAPSHOT_EVERY moves
    order = [r.total, 0, r.total - 1, 1, 57, 56, 55, 200, 31, 32, 33, 64, 63] + random.Random(1).sample(
        range(r.total + 1), 25
    )
    for p in order:
        assert encode(r.state(p)) == encode(fresh_state(finished, p)), p


def test_round_starts_are_round_boundaries(finished):
    r = Replay(finished)
    assert r.round_starts[0] == 0
    rounds = [r.round_at(p) for p in r.round_starts]
    assert rounds == list(range(1, len(rounds) + 1))
    for s in r.round_starts[1:]:
        assert r.round_at(s - 1) == r.round_at(s) - 1
        assert any(e.kind == "round_started" for e in r.events(s))


def test_everything_log_tells_private_events_in_full(finished):
    r = Replay(finished)
    cat = Catalogue("en")
    f_all = r.frame(r.total, EVERYTHING, cat, limit=10_000)
    f_ana = r.frame(r.total, 0, cat, limit=10_000)
    assert len(f_all.rows) == len(f_ana.rows)
    picks_all = [row.text for row in f_all.rows if " chose the " in row.text]
    assert len(picks_all) >= 4 * r.round_at(r.total) - 4  # every pick named, by everyone
    picks_ana = [row.text for row in f_ana.rows if " chose the " in row.text]
    assert picks_ana and all(t.startswith("Ana") for t in picks_ana)  # Ana sees only her own picks
    assert any(row.tag == "[seen by Ben]" for row in f_all.rows)
    assert not any("You " in row.text for row in f_all.rows)


def test_writer_third_person_for_private_you_sentences():
    from engine.events import Event

    cat = Catalogue("en")
    ev = Event("warrant_signed", seat=1, character="King", private=[1])
    assert ReplayWriter(cat, EVERYTHING).line(ev, NAMES[:4]).text == "Ben signs the warrant on the 4 King.".replace(
        "4 King", "King"
    )
    assert ReplayWriter(cat, 0).line(ev, NAMES[:4]).text == "Ben signs one of the warrants."


# --- the engine's "everything" view -------------------------------------------------------------------------


def test_reveal_all_view_and_the_normal_view_unchanged(finished):
    r = Replay(finished)
    for p in (5, 57, 120):
        g = r.state(p)
        v = reveal_all_view(g)
        assert v.everything and v.seat is None and not v.legal
        assert [pv.hand for pv in v.players] == [p_.hand for p_ in g.players]
        assert [pv.characters for pv in v.players] == [p_.characters for p_ in g.players]
        assert v.facedown == g.selection.facedown
        for seat in (None, 0, 1):
            keys = msgspec.msgpack.decode(view_bytes(g, seat)).keys()
            assert "facedown" not in keys and "everything" not in keys  # a seat's view is as it was
            assert view(g, seat).facedown == [] and not view(g, seat).everything


def test_the_server_never_uses_the_revealed_view():
    for path in (ROOT / "server").rglob("*.py"):
        assert "reveal_all_view" not in path.read_text(), path
    import engine

    assert not hasattr(engine, "reveal_all_view")  # not in the engine's public API next to `view`


# --- the screen, by keys ----------------------------------------------------------------------------------


@pytest.mark.slow  # a whole game's replay walked by keys, both ways
async def test_forward_to_the_end_and_back_by_keys(finished):
    r = Replay(finished)
    app = ReplayApp(finished, ReplayOptions(lang="en"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.replay_screen
        assert "move 0/%d" % r.total in bar(app) and "A game for 4 players begins" in bar(app)
        for k in range(0, r.total, 40):
            n = min(40, r.total - k)
            await keys(pilot, *["right" if i % 2 else "n" for i in range(n)])
            assert screen.position == k + n
            assert f"move {k + n}/{r.total}" in bar(app) and f"Round {r.round_at(k + n)}" in bar(app)
        await keys(pilot, "right")  # past the end: stays
        text = screen_text(app)
        assert screen.position == r.total
        assert f"move {r.total}/{r.total}" in bar(app) and "the end" in bar(app)
        assert "The game is over." in text
        winner = NAMES[finished.state.winners[0]]
        assert f"★ {winner}" in text and f"{winner} wins!" in text  # the scores at the end
        # the log holds exactly the sentences of every event so far (the last 400)
        expected = Replay(finished).frame(r.total, EVERYTHING, Catalogue("en")).rows
        assert [row.text for row in app.screen.query_one(LogView).rows] == [row.text for row in expected]
        for k in range(r.total, 0, -40):
            n = min(40, k)
            await keys(pilot, *["left" if i % 2 else "p" for i in range(n)])
            assert screen.position == k - n
            assert f"move {k - n}/{r.total}" in bar(app)
        await keys(pilot, "left")
        assert screen.position == 0 and f"move 0/{r.total}" in bar(app)
        rows = [row.text for row in app.screen.query_one(LogView).rows]
        assert rows[0].startswith("A game for 4 players begins") and len(rows) == len(r.events(0))
        await pilot.press("end")
        assert screen.position == r.total
        await pilot.press("home")
        assert screen.position == 0


@pytest.mark.slow  # every round of a whole game's replay by keys, both ways
async def test_round_jumps_land_on_round_boundaries(finished):
    r = Replay(finished)
    app = ReplayApp(finished, ReplayOptions(lang="en", seat=1))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.replay_screen
        seen = [0]
        for _ in range(len(r.round_starts) + 2):
            await pilot.press("pagedown" if len(seen) % 2 else "r")
            seen.append(screen.position)
        assert seen[: len(r.round_starts)] == r.round_starts
        assert seen[-1] == r.total  # after the last round's start: the end
        await pilot.pause()
        assert f"move {r.total}/{r.total}" in bar(app)
        back = []
        for _ in range(len(r.round_starts) + 1):
            await pilot.press("pageup" if len(back) % 2 else "R")
            back.append(screen.position)
        assert back == list(reversed(r.round_starts)) + [0]
        await pilot.press("end", "r")
        assert screen.position == r.total
        # from the middle of a round: back to its start, then to the previous round's
        mid = r.round_starts[3] + 3
        screen.show(mid, full=True)
        await pilot.press("pageup")
        assert screen.position == r.round_starts[3]
        await pilot.press("pageup")
        assert screen.position == r.round_starts[2]
        await pilot.pause()
        assert "Round 3" in bar(app)


@pytest.mark.slow  # a whole game's replay checked at eight positions from every seat (test_everything_log_tells_private_events_in_full and the engine's view tests stay fast)
async def test_a_seat_never_sees_another_hand_and_everything_sees_all(finished):
    r = Replay(finished)
    cat = Catalogue("en")
    vocab = "\n".join(v if isinstance(v, str) else "\n".join(v) for v in _load("en").values())  # each plural form
    app = ReplayApp(finished, ReplayOptions(lang="en", seat=0))
    checked = {"forbidden": 0, "own": 0, "all": 0}
    async with app.run_test(size=(200, 60)) as pilot:
        screen = app.replay_screen
        for p in (3, 20, 57, 90, 133, 170, 220, r.total - 1):
            for seat in (0, 1, 2, 3):
                screen.show(p, full=True)
                await pilot.press(str(seat + 1))
                await pilot.pause()
                assert screen.seat == seat and screen.position == p
                g = r.state(p)
                mine = set(g.players[seat].hand)
                if g.turn is not None and g.turn.seat == seat:
                    mine |= set(g.turn.drawn)
                public = {b.name for pl in g.players for b in pl.city}
                for q in range(p + 1):
                    for ev in r.events(q):
                        if ev.private is None or seat in ev.private:
                            public |= {c for c in (ev.district, ev.card, *ev.cards) if c}
                        else:
                            public |= {ev.district} if ev.district else set()
                others = {c for s, pl in enumerate(g.players) if s != seat for c in pl.hand}
                forbidden = {cat.district(c) for c in others - mine - public}
                forbidden = {n for n in forbidden if not _word(n).search(vocab)}
                text = screen_text(app)
                hands = "\n".join(t.plain for t in app.screen.query_one(ReplayHands)._all(60))
                leaked = sorted(n for n in forbidden if _word(n).search(text) or _word(n).search(hands))
                assert not leaked, f"seat {seat} at {p} sees another hand's cards: {leaked}\n{text}"
                checked["forbidden"] += len(forbidden)
                for c in g.players[seat].hand:
                    assert _word(cat.district(c)).search(hands)
                    checked["own"] += 1
            await pilot.press("0")
            await pilot.pause()
            assert screen.seat == EVERYTHING
            hands = "\n".join(t.plain for t in app.screen.query_one(ReplayHands)._all(60))
            g = r.state(p)
            for pl in g.players:
                for c in pl.hand:
                    assert _word(cat.district(c)).search(hands), (p, c)
                    checked["all"] += 1
            for c in g.selection.facedown:
                assert cat.character(c) in hands
    assert checked["forbidden"] > 20 and checked["own"] > 20 and checked["all"] > 50, checked


async def test_tab_cycles_the_views_and_limits_are_kept(finished):
    app = ReplayApp(finished, ReplayOptions(lang="en", seat=2))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.replay_screen
        got = []
        for _ in range(5):
            await pilot.press("tab")
            got.append(screen.seat)
        assert got == [3, EVERYTHING, 0, 1, 2]
        await pilot.press("shift+tab")
        assert screen.seat == 1
        await pilot.press("9")  # no such seat: nothing changes
        assert screen.seat == 1
    # a player allowed only their own seat (e.g. watching an unfinished game over SSH)
    app = ReplayApp(finished, ReplayOptions(lang="en", seat=None, seats=[1], everything=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.replay_screen
        assert screen.seat == 1
        await pilot.press("0", "3", "tab", "a")
        assert screen.seat == 1
        await pilot.pause()
        assert "Everything" not in screen_text(app).splitlines()[1]


async def test_unfinished_save(unfinished):
    r = Replay(unfinished)
    assert not r.finished and r.total == 150
    app = ReplayApp(unfinished, ReplayOptions(lang="es", seat=None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert "jugada 0/150" in bar(app)
        await pilot.press("end")
        await pilot.pause()
        assert "jugada 150/150" in bar(app) and "sin terminar" in bar(app)
        assert app.replay_screen.frame.view.scores is None
        assert "Puntuación" not in screen_text(app)
        await pilot.press("left", "f2")
        await pilot.pause()
        assert "move 149/150" in bar(app)  # F2: English


async def test_replay_screen_pushed_over_another_app(finished):
    """The lobby's way: a Save object and options, pushed as a screen; Esc comes back."""
    from textual.app import App

    class Host(App):
        pass

    host = Host()
    async with host.run_test(size=(100, 30)) as pilot:
        await host.push_screen(ReplayScreen(finished, ReplayOptions(lang="en", seat=0, position=-1)))
        await pilot.pause()
        assert isinstance(host.screen, ReplayScreen)
        assert "move %d/%d" % (len(finished.log), len(finished.log)) in screen_text(host)
        assert host.screen.compact and host.screen.query_one("#players").styles.border_top[0] == "solid"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(host.screen, ReplayScreen)


# --- the command line -----------------------------------------------------------------------------------------


def test_cli_replay(tmp_path, monkeypatch, capsys, finished):
    from cli.main import main

    path = tmp_path / "game.save"
    path.write_bytes(dumps(finished))
    opened = []
    monkeypatch.setattr(ReplayApp, "run", lambda self, *a, **k: opened.append(self.replay_screen))
    assert main(["save", "replay", str(path), "--seat", "Ben", "--lang", "es"]) == 0
    assert opened[-1].seat == 1 and opened[-1].cat.lang == "es" and opened[-1].position == 0
    assert main(["save", "replay", str(path), "--seat", "2", "--end"]) == 0
    assert opened[-1].seat == 2 and opened[-1].position == len(finished.log)
    assert main(["save", "replay", str(path), "--all"]) == 0
    assert opened[-1].seat == EVERYTHING
    capsys.readouterr()
    assert main(["save", "replay", str(path), "--seat", "Zed"]) == 2
    assert "no such seat" in capsys.readouterr().err
    bad = tmp_path / "bad.save"
    bad.write_bytes(dumps(finished)[:300])
    assert main(["save", "replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("citadels save: ") and "truncated" in err and err.count("\n") == 1
    assert len(opened) == 3


# --- snapshots ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
@pytest.mark.parametrize("lang", ["en", "es"])  # en at 80x24 in the fast tier, the rest slow (tests/conftest.py)
def test_replay_snapshot(snap_compare, finished, lang, size):
    app = ReplayApp(finished, ReplayOptions(lang=lang, seat=None, position=57))
    assert snap_compare(app, terminal_size=size)
