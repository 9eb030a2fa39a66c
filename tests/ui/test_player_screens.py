"""The players' screens (profile, leaderboard, "my games") with sample data: what they show, their
keys (family switching, a profile asked for, a replay asked for, Esc, F2), and snapshots at 80x24
and 120x40 in English and Spanish. A second part fills them from a real SQLite players database
through the server's adapter (server/players/screens_data.py).

Update the baselines with `pytest tests/ui/test_player_screens.py --snapshot-update` after looking
at the new pictures (tests/ui/__snapshots__/test_player_screens/).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.app import App
from textual.binding import Binding
from ui_helpers import screen_text

from ui.app import CitadelsApp
from ui.i18n import Catalogue
from ui.players_data import (
    FamilyRatingData,
    GameRowData,
    GamesData,
    LeaderboardData,
    LeaderRowData,
    ProfileData,
    SeatData,
)
from ui.screens.leaderboard import LeaderboardScreen
from ui.screens.my_games import GamesScreen
from ui.screens.players_common import sparkline
from ui.screens.profile import ProfileScreen

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "es"]  # snapshots: en at 80x24 in the fast tier, the rest slow (tests/conftest.py)


def sample_profile(you: bool = True) -> ProfileData:
    return ProfileData(
        player_id=7,
        name="Ana",
        bot=False,
        games=42,
        wins=12,
        average_score=21.43,
        ratings=[
            FamilyRatingData(
                family="2016",
                rating=18.42,
                games=30,
                wins=10,
                place=3,
                of=120,
                history=[0.0, 2.1, 1.4, 4.8, 7.9, 6.5, 9.9, 12.2, 11.0, 14.7, 16.3, 18.42],
            ),
            FamilyRatingData(family="classic", rating=-2.3, games=8, wins=2, place=40, of=61, history=[0.0, 1.2, -2.3]),
        ],
        favourites=[("King", 14), ("Thief", 9), ("Architect", 7)],
        you=you,
    )


def sample_boards() -> dict[str, LeaderboardData]:
    names = ["Bruno", "hard", "Carla", "Diego", "Elena", "normal", "Fátima", "Gonzalo", "Héctor", "Inés", "Jorge"]
    rows = [
        LeaderRowData(
            place=i + 1 if i != 3 else 3,  # two players tied for third
            player_id=100 + i,
            name=n,
            bot=n in ("hard", "normal"),
            rating=round(31.5 - 2.2 * i + (2.2 if i == 3 else 0), 1),
            games=60 - 3 * i,
            wins=25 - 2 * i,
        )
        for i, n in enumerate(names)
    ]
    you = LeaderRowData(place=57, player_id=7, name="Ana", bot=False, rating=3.4, games=12, wins=3, you=True)
    return {
        "2016": LeaderboardData(family="2016", rows=rows, players=120, you=you),
        "classic": LeaderboardData(family="classic", rows=rows[:3], players=3),
        "2000": LeaderboardData(family="2000", rows=[], players=0),
    }


def sample_games() -> GamesData:
    def seats(mine: int, scores: list[int], names: list[str], winner: int) -> list[SeatData]:
        order = sorted(range(len(scores)), key=lambda s: (s != winner, -scores[s]))
        place = {s: i + 1 for i, s in enumerate(order)}
        return [
            SeatData(name=n, score=sc, place=place[i], winner=i == winner, bot=n == "hard", you=i == mine)
            for i, (n, sc) in enumerate(zip(names, scores))
        ]

    return GamesData(
        rows=[
            GameRowData(
                game_id=1042,
                family="2016",
                finished_at=datetime(2026, 11, 24, 21, 5, tzinfo=UTC),
                rounds=8,
                rated=True,
                seats=seats(0, [31, 24, 27, 19], ["Ana", "Bruno", "Carla", "Diego"], 0),
            ),
            GameRowData(
                game_id=1017,
                family="classic",
                finished_at=datetime(2026, 11, 20, 18, 40, tzinfo=UTC),
                rounds=9,
                rated=False,
                seats=seats(2, [22, 29, 18], ["Bruno", "hard", "Ana"], 1),
            ),
            GameRowData(
                game_id=988,
                family="2000",
                finished_at=datetime(2026, 11, 2, 9, 15, tzinfo=UTC),
                rounds=7,
                rated=True,
                seats=seats(1, [25, 23, 26, 20, 14], ["Elena", "Ana", "Fátima", "Gonzalo", "Inés"], 2),
            ),
        ],
        more=True,
    )


class PlayersApp(App):
    """A bare app showing one players' screen, as the server's app will (F2 switches the language)."""

    CSS_PATH = CitadelsApp.CSS_PATH
    BINDINGS = [Binding("f2", "switch_language", show=False)]

    def __init__(self, make_screen, lang: str = "en") -> None:
        super().__init__()
        self.cat = Catalogue(lang)
        self.make_screen = make_screen
        self.asked: list = []

    def on_mount(self) -> None:
        self.push_screen(self.make_screen(self.cat))

    def action_switch_language(self) -> None:
        self.cat = Catalogue(self.cat.other())
        self.screen.set_language(self.cat)

    def on_leaderboard_screen_profile_requested(self, msg: LeaderboardScreen.ProfileRequested) -> None:
        self.asked.append(("profile", msg.player_id))

    def on_games_screen_replay_requested(self, msg: GamesScreen.ReplayRequested) -> None:
        self.asked.append(("replay", msg.game_id))


def profile_app(lang: str = "en", data: ProfileData | None = None) -> PlayersApp:
    return PlayersApp(lambda cat: ProfileScreen(cat, data or sample_profile()), lang)


def leaderboard_app(lang: str = "en", boards=None) -> PlayersApp:
    return PlayersApp(lambda cat: LeaderboardScreen(cat, boards or sample_boards(), "2016"), lang)


def games_app(lang: str = "en", data: GamesData | None = None) -> PlayersApp:
    return PlayersApp(lambda cat: GamesScreen(cat, data or sample_games()), lang)


# -- behaviour ------------------------------------------------------------------------------------


async def settle(pilot) -> None:
    for _ in range(3):
        await pilot.pause()


def test_sparkline_spans_low_to_high():
    assert sparkline([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█"
    assert sparkline([5, 5, 5]) == "▄▄▄"
    assert sparkline([]) == ""
    assert len(sparkline(list(range(100)), width=30)) == 30


async def test_profile_shows_the_numbers_and_goes_back():
    app = profile_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Ana · your profile" in text
        assert "42 games · 12 wins (29%) · average score 21.4" in text
        assert "Favourite characters: King ×14, Thief ×9, Architect ×7" in text
        assert "3 of 120" in text and "18.4" in text and "40 of 61" in text
        assert "not rated yet" in text  # the 2000 family
        assert "last 12: 0.0 → 18.4" in text
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "Ana · tu perfil" in text and "Rey ×14" in text and "Ladrón ×9" in text
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ProfileScreen)


async def test_another_players_profile_and_a_bot_level():
    bot = ProfileData(player_id=3, name="hard", bot=True, games=0, wins=0, average_score=0.0)
    app = profile_app(data=bot)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "hard · profile" in text and "your profile" not in text
        assert "No finished games yet." in text and "A bot level" in text
        assert text.count("not rated yet") == 3


async def test_leaderboard_switches_family_and_asks_for_a_profile():
    app = leaderboard_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Leaderboard · ‹ Citadels (2016) ›" in text and "120 rated players" in text
        assert "hard (bot)" in text and "Ana (you)" in text and " 57  Ana (you)" in text
        assert text.count("  3  ") >= 2  # the tie shares third place
        assert "    1  Bruno" in text and "1   1  Bruno" not in text  # the place once, no list number beside it
        await pilot.press("right")
        await settle(pilot)
        text = screen_text(app)
        assert "Leaderboard · ‹ Citadels Classic ›" in text and "3 rated players" in text and "Ana (you)" not in text
        await pilot.press("right")
        await settle(pilot)
        assert "No rated games in these rules yet." in screen_text(app)
        await pilot.press("left", "right", "right")  # ←/→ on the empty family's line; round again to 2016
        await settle(pilot)
        await pilot.press("down", "enter")  # the second player: the "hard" bot level
        await settle(pilot)
        assert app.asked == [("profile", 101)]
        await pilot.press("1")  # no key numbers: a row's number is its place
        await settle(pilot)
        assert app.asked == [("profile", 101)]
        await pilot.press("end", "enter")  # your own row, under the top ones
        await settle(pilot)
        assert app.asked[-1] == ("profile", 7)


async def test_my_games_lists_newest_first_and_asks_for_a_replay():
    app = games_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert "Your games (newest first)" in text
        lines = [ln for ln in text.splitlines() if "#" in ln]
        assert [ln.split("#")[1].split(" ")[0] for ln in lines] == ["1042", "1017", "988"]
        assert "won with 31 pts" in text and "3 of 3, 18 pts" in text and "unrated" in text
        assert "★hard" in text
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.asked == [("replay", 1017)]
        await pilot.press("f2")
        await settle(pilot)
        text = screen_text(app)
        assert "Tus partidas" in text and "ganada con 31 puntos" in text and "amistosa" in text


async def test_no_games_yet():
    app = games_app(data=GamesData(rows=[]))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "No finished games yet: a game appears here when it ends." in screen_text(app)
        await pilot.press("enter")  # nothing to choose: nothing asked
        await settle(pilot)
        assert app.asked == []


def test_every_players_key_reads_in_both_languages():
    from ui.i18n import _load

    en = {k for k in _load("en") if k.startswith("players.")}
    es = {k for k in _load("es") if k.startswith("players.")}
    assert en == es and len(en) > 30


# -- snapshots ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_profile_snapshot(snap_compare, lang, size):
    assert snap_compare(profile_app(lang), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_leaderboard_snapshot(snap_compare, lang, size):
    async def run_before(pilot):
        await pilot.press("down")

    assert snap_compare(leaderboard_app(lang), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_my_games_snapshot(snap_compare, lang, size):
    assert snap_compare(games_app(lang), terminal_size=size)


# -- from a real players database -----------------------------------------------------------------


async def test_the_screens_show_a_real_database(tmp_path):
    from cli.sim_cmd import SimRecorder
    from engine.sim import run as simulate
    from server.players.screens_data import games_data, leaderboard_data, profile_data

    recorder = SimRecorder(f"sqlite:///{tmp_path / 'players.sqlite3'}")
    simulate(3, 6, seed=5, seats=["normal", "easy", "random"], on_game=recorder, check_every=False)
    store = recorder.store
    normal = store.find_player("normal")
    prof = profile_data(store.profile(normal.id), you=normal.id)
    assert prof.games == 6 and prof.bot and prof.you and prof.ratings[0].family == "2016"
    assert len(prof.ratings[0].history) == 6
    board = leaderboard_data(store.leaderboard("2016", you=normal.id), you=normal.id)
    assert board.rows[0].name == "normal" and board.rows[0].you
    games = games_data(store.games(player_id=normal.id, limit=4), limit=4)
    assert games.more and len(games.rows) == 4 and all(g.yours is not None for g in games.rows)

    for make, expect in (
        (lambda cat: ProfileScreen(cat, prof), ["normal · your profile", "6 games", "1 of 3"]),
        (lambda cat: LeaderboardScreen(cat, {"2016": board}), ["3 rated players", "normal (bot) (you)"]),
        (lambda cat: GamesScreen(cat, games), ["#6 ·", "Citadels 2016", "rated"]),
    ):
        app = PlayersApp(make)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            text = screen_text(app)
            for e in expect:
                assert e in text, (e, text)
    recorder.close()
