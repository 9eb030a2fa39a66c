"""Finished games in the players database, through real SSH connections (asyncssh clients; SQLite):
a game played to the end by key presses is recorded and rated, the ratings move the right way, and
its players reach their profile, the leaderboard and "my games" (a past game replayed by its id) from
the lobby, and a table-mate's profile from the table menu; a game finishing while the database is
locked is recorded when it frees, the table never waiting on it; while a game runs, nothing of it is
in anyone's profile or history."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
import time

import pytest
from game_helpers import CTRL_Q, ESC, create_table, drain, play_to_end, wait_until
from players_helpers import fingerprint, lobby, new_key, player_known, press, start_players_server

from ui.screens.leaderboard import LeaderboardScreen
from ui.screens.my_games import GamesScreen
from ui.screens.profile import ProfileScreen
from ui.screens.replay import ReplayScreen
from ui.screens.scores import ScoresScreen


class LoopWatch:
    """The longest the event loop went without running a 10 ms ticker."""

    def __init__(self) -> None:
        self.worst = 0.0
        self._task: asyncio.Task | None = None

    async def _tick(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.worst = max(self.worst, now - last)
            last = now

    def __enter__(self) -> LoopWatch:
        self._task = asyncio.create_task(self._tick())
        return self

    def __exit__(self, *exc) -> None:
        assert self._task is not None
        self._task.cancel()


@pytest.mark.slow  # a whole game over SSH, then the profile, leaderboard and replay screens
async def test_a_game_played_to_the_end_is_recorded_rated_and_shown(tmp_path, open_terminal):
    gs = await start_players_server(tmp_path, rate_bots=True)
    try:
        ka, kb = new_key(), new_key()
        a = await lobby(open_terminal, gs, ka, "ana", size=(120, 40))
        b = await lobby(open_terminal, gs, kb, "ben", size=(120, 40))
        pa, pb = await player_known(gs, ka), await player_known(gs, kb)
        assert await gs.app_of(fingerprint(ka)).players_link.claim_name("Ana") == "Ana"
        assert await gs.app_of(fingerprint(kb)).players_link.claim_name("Ben") == "Ben"
        await create_table(a, players=3, bots=1)
        await press(gs, kb, b, "Ana's table")
        await press(gs, kb, b, "Take a seat")
        await b.wait_for("Waiting for the creator")
        await press(gs, ka, a, "Start the game")
        table = gs.table()
        await wait_until(lambda: table.phase == "playing", what="game start")
        seats = {
            table.seat_of(fingerprint(ka)): (fingerprint(ka), a),
            table.seat_of(fingerprint(kb)): (fingerprint(kb), b),
        }
        # A game in progress is in nobody's history or profile.
        link = gs.app_of(fingerprint(ka)).players_link
        assert (await link.my_games()).rows == [] and (await link.my_profile()).games == 0

        reader = asyncio.ensure_future(drain([a, b]))
        try:
            await play_to_end(gs, seats, random.Random(7), timeout=240)
        finally:
            reader.cancel()
        await wait_until(lambda: table.accounts.recorded, what="the record handed over")
        assert await gs.players.outbox.flush(20)
        games = gs.db().games(pa)
        assert len(games) == 1 and games[0].rated, games
        g = games[0]
        assert {s.player_id for s in g.seats if s.bot is None} == {pa, pb}
        # Ratings moved by place: each seat's rating after the game, better places rated higher.
        bot = gs.db().find_player("normal")
        assert bot is not None and bot.kind == "bot"
        rating = {}
        for pid in (pa, pb, bot.id):
            prof = gs.db().profile(pid)
            (r,) = prof.ratings
            assert r.family == "2016" and r.games == 1
            rating[pid] = r.rating
        place = {s.player_id if s.bot is None else bot.id: s.place for s in g.seats}
        ordered = sorted(rating, key=lambda p: place[p])
        assert all(rating[ordered[i]] >= rating[ordered[i + 1]] for i in range(2)), (rating, place)
        assert len(set(rating.values())) > 1  # they moved, and not alike
        winner = ordered[0]
        assert rating[winner] > 0 > min(rating.values())

        # The table menu: a table-mate's profile (the game is over; the table is still on screen).
        app = gs.app_of(fingerprint(ka))
        a.send(ESC)
        # Ctrl-Q within the escape delay after Esc would be read as Alt+Ctrl-Q: wait for the scores to close
        await wait_until(lambda: not isinstance(app.screen, ScoresScreen), what="the scores closed")
        a.send(CTRL_Q)
        await press(gs, ka, a, "Profile of Ben")
        await wait_until(lambda: isinstance(app.screen, ProfileScreen), what="Ben's profile")
        assert app.screen.data.player_id == pb and app.screen.data.games == 1
        await a.wait_for("Ben · profile")
        a.send(ESC)
        await wait_until(lambda: not isinstance(app.screen, ProfileScreen), what="the profile closed")
        await press(gs, ka, a, "Go to the lobby")

        # The lobby: my profile, the leaderboard, my games and a replay by the game's id.
        await press(gs, ka, a, "My profile")
        await wait_until(lambda: isinstance(app.screen, ProfileScreen), what="my profile")
        await a.wait_for("Ana · your profile")
        assert app.screen.data.games == 1 and app.screen.data.ratings[0].rating == pytest.approx(rating[pa])
        a.send(ESC)
        await press(gs, ka, a, "Leaderboard")
        await wait_until(lambda: isinstance(app.screen, LeaderboardScreen), what="the leaderboard")
        await a.wait_for("3 rated players")
        rows = app.screen.boards["2016"].rows
        assert [r.player_id for r in rows] == ordered
        a.send(ESC)
        await press(gs, ka, a, "My games")
        await wait_until(lambda: isinstance(app.screen, GamesScreen), what="my games")
        await a.wait_for(f"#{g.id} ·")
        await press(gs, ka, a, f"#{g.id} ·")
        await wait_until(lambda: isinstance(app.screen, ReplayScreen), what="the replay")
        replay = app.screen.replay
        assert replay.total == len(table.save.save.log)
        a.send(b"\x1b[F")  # End: the final position, every hand shown (the game is over)
        await wait_until(lambda: app.screen.position == replay.total, what="the replay's end")
        a.send(ESC)
        await wait_until(lambda: isinstance(app.screen, GamesScreen), what="back to my games")
    finally:
        await gs.close()


@pytest.mark.slow  # a whole game played by bots over SSH with the database locked (tests/db/test_outbox.py checks the outbox in the fast tier)
async def test_a_game_finishing_while_the_database_is_locked_is_recorded_when_it_frees(tmp_path, open_terminal, caplog):
    caplog.set_level(logging.INFO, logger="citadels.server.players.outbox")
    # A person whose seat a bot plays while they are away: the game runs by itself, quickly.
    gs = await start_players_server(tmp_path, idle_wait_seconds=0.05)
    try:
        ka = new_key()
        a = await lobby(open_terminal, gs, ka, "ana", size=(120, 40))
        pa = await player_known(gs, ka)
        await create_table(a, players=3, bots=2)
        await press(gs, ka, a, "Start the game")
        table = gs.table()
        await wait_until(lambda: table.phase == "playing", what="game start")
        holder = sqlite3.connect(tmp_path / "saves" / "players.sqlite3", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # every write to the players database now waits, then fails
        try:
            a.term.close()  # ana leaves: a bot plays her seat
            with LoopWatch() as watch:
                t0 = time.monotonic()
                await wait_until(lambda: table.phase == "over", timeout=120, what="the end of the game")
                played = time.monotonic() - t0
                await wait_until(lambda: gs.players.outbox.down, timeout=30, what="the outbox noticing")
                await asyncio.sleep(0.5)  # a few more tries fail
            assert gs.players.outbox.pending == 1 and gs.players.outbox.written == 0
            assert list((tmp_path / "saves" / "db-outbox").glob("*.record"))  # kept on disk meanwhile
            assert watch.worst < 0.5, f"the loop stalled {watch.worst:.3f} s while the database was locked"
            assert table.commands > 20 and played < 120
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert await gs.players.outbox.flush(30)
        (g,) = gs.db().games(pa)
        assert not g.rated and "a bot played ana's seat" in g.unrated_reason  # by the bot share
        messages = [r.getMessage() for r in caplog.records if r.name == "citadels.server.players.outbox"]
        assert any("players database unavailable" in m for m in messages)
        assert any("players database back: 1 waiting game(s) recorded" in m for m in messages)
        assert not list((tmp_path / "saves" / "db-outbox").glob("*.record"))
    finally:
        await gs.close()
