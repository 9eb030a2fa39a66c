"""Snapshots of every screen and modal at 80x24 and 120x40, in English and Spanish (with
tests/ui/test_ui_snapshots.py and the replay's in test_replay.py): the crowded table (8 players,
7-district cities, a 10-card hand), the build list, a spectator, every city in full (F4), help, the
"too small" screen, and the server's lobby and table menu. Fixed seeds, no clock on screen.

Update the baselines with `pytest tests/ui --snapshot-update` after looking at the new pictures.
"""

from __future__ import annotations

import random
import sys
import types
from pathlib import Path

import pytest
from test_table_layout import crowded_state

from engine import GameConfig, apply, legal_commands, new_game, view
from engine.bots.registry import make_bot
from engine.commands import Build
from server.lobby import snapshots
from ui import CitadelsApp, UiOptions, ViewUpdate

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.screen_fit import settle

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "es"]  # snapshots: en at 80x24 in the fast tier, the rest slow (tests/conftest.py)


def building_state():
    """A late turn of 8 players where the seat to move has gathered and may build, with 10 cards and
    4 gold: some districts affordable, some not."""
    from benchmarks.fit_states import NAMES

    g, _ = new_game(GameConfig(players=NAMES, seed=4))
    bots = [make_bot("normal", 40 + s) for s in range(8)]
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        if g.round >= 5 and g.turn is not None and g.turn.gathered and any(isinstance(c, Build) for c in legal):
            break
        apply(g, legal[0] if len(legal) == 1 else bots[seat].choose(legal, view(g, seat)), check=False)
    seat = g.pending.seat
    while len(g.players[seat].hand) < 10:
        g.players[seat].hand.append(g.deck.pop())
    g.players[seat].gold = 4
    return g, seat


def view_app(v, lang: str) -> CitadelsApp:
    """The table screen showing one view (nothing sent: the snapshot only looks)."""
    app = CitadelsApp(None, UiOptions(lang=lang, show_chat=True, show_scores_at_end=False))

    async def show(pilot) -> None:
        app.post_message(ViewUpdate(v, []))
        await settle(pilot, app)

    app._snapshot_setup = show  # type: ignore[attr-defined]
    return app


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_crowded_table(snap_compare, lang, size):
    g, seat = crowded_state()
    app = view_app(view(g, seat), lang)
    assert snap_compare(app, terminal_size=size, run_before=app._snapshot_setup)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_build_list_with_unaffordable_districts(snap_compare, lang, size):
    g, seat = building_state()
    app = view_app(view(g, seat), lang)

    async def run_before(pilot):
        await app._snapshot_setup(pilot)
        prompt = app.table.query_one("#prompt")
        build = next(
            i for i, e in enumerate(prompt.menu.entries) if e.submenu and any(x.disabled for x in e.submenu.entries)
        )
        prompt.activate(build)
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_spectator(snap_compare, lang, size):
    g, _seat = crowded_state(4)
    app = view_app(view(g, None), lang)
    assert snap_compare(app, terminal_size=size, run_before=app._snapshot_setup)


@pytest.mark.parametrize("lang", LANGS)
def test_whole_cities(snap_compare, lang):
    g, seat = crowded_state()
    app = view_app(view(g, seat), lang)

    async def run_before(pilot):
        await app._snapshot_setup(pilot)
        await pilot.press("f4")
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_help(snap_compare, lang, size):
    g, seat = crowded_state(4)
    app = view_app(view(g, seat), lang)

    async def run_before(pilot):
        await app._snapshot_setup(pilot)
        await pilot.press("f1")
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_too_small(snap_compare, lang):
    g, seat = crowded_state(4)
    app = view_app(view(g, seat), lang)
    assert snap_compare(app, terminal_size=(70, 20), run_before=app._snapshot_setup)


# --- the server's screens: a ServerApp with a real lobby, without SSH ------------------------------
def deterministic_lobby(monkeypatch) -> None:
    """The lobby draws table ids, bots' names and the game's seed at random: fixed for pictures."""
    import importlib

    rng = random.Random(5)
    fake = types.SimpleNamespace(
        token_hex=lambda n: "%0*x" % (2 * n, rng.getrandbits(8 * n)),
        randbits=lambda n: 12345,
        choice=rng.choice,
        SystemRandom=lambda: random.Random(7),
    )
    for name in ("lobby", "seating", "join_codes", "saved_games"):
        module = importlib.import_module(f"server.lobby.{name}")
        if hasattr(module, "secrets"):
            monkeypatch.setattr(module, "secrets", fake)


def server_app(lang: str):
    from server.app import ServerApp
    from server.config import ServerConfig
    from server.lobby.lobby import Lobby
    from server.transport.session_info import SessionInfo

    info = SessionInfo(
        session_id="s1",
        username="ana",
        key_fingerprint="SHA256:snapshot",
        is_guest=False,
        peer_host="127.0.0.1",
        peer_port=2222,
        term="xterm-256color",
        color_system="truecolor",
        size=(80, 24),
        lang="es_ES.UTF-8" if lang == "es" else "en_US.UTF-8",
    )
    lobby = Lobby(ServerConfig(port=0, bot_delay_seconds=0.0, gc_tuning=False))
    return ServerApp(info, lobby), lobby


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_lobby(snap_compare, monkeypatch, lang, size):
    deterministic_lobby(monkeypatch)
    monkeypatch.setattr(snapshots, "BROADCAST_DELAY", 0.01)  # the lobby's coalesced update: 10 ms, not 0.25 s
    app, _ = server_app(lang)

    async def run_before(pilot):
        for _ in range(5):
            await pilot.pause(0.05)  # the coalesced updates

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_table_menu(snap_compare, monkeypatch, lang, size):
    from ui.lobby_link import TableSpec

    deterministic_lobby(monkeypatch)
    app, lobby = server_app(lang)

    async def run_before(pilot):
        await pilot.pause(0.3)
        session = app.session
        assert session.create(TableSpec(name="snap", players=4, bots=3, bot_kind="normal")) is None
        assert session.start() is None
        for _ in range(50):
            await pilot.pause(0.05)
            if app.at_table and app.view is not None and app.view.legal:
                break
        await settle(pilot, app)
        await pilot.press("ctrl+q")
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
