"""From the players database's records to what the players' screens show (`ui.players_data`).

The server calls these after an `AsyncPlayerStore` query and pushes the screen; `you` is
the asking player's id (their own rows are marked)."""

from __future__ import annotations

from ui.players_data import (
    FamilyRatingData,
    GameRowData,
    GamesData,
    LeaderboardData,
    LeaderRowData,
    ProfileData,
    SeatData,
)

from .profiles import display_name
from .records import GameSummary, Leaderboard, LeaderboardRow, Profile


def profile_data(p: Profile, you: int | None = None) -> ProfileData:
    return ProfileData(
        player_id=p.player.id,
        name=display_name(p.player.name, p.player.id),
        bot=p.player.kind == "bot",
        games=p.games,
        wins=p.wins,
        average_score=p.average_score,
        ratings=[
            FamilyRatingData(
                family=r.family,
                rating=r.rating,
                games=r.games,
                wins=r.wins,
                place=r.place,
                of=r.of,
                history=[pt.rating for pt in p.history.get(r.family, [])],
            )
            for r in p.ratings
        ],
        favourites=[(c.character, c.times) for c in p.favourites],
        you=p.player.id == you,
    )


def _row(r: LeaderboardRow, you: int | None) -> LeaderRowData:
    return LeaderRowData(
        place=r.place,
        player_id=r.player_id,
        name=r.name,
        bot=r.kind == "bot",
        rating=r.rating,
        games=r.games,
        wins=r.wins,
        you=r.player_id == you,
    )


def leaderboard_data(b: Leaderboard, you: int | None = None) -> LeaderboardData:
    return LeaderboardData(
        family=b.family,
        rows=[_row(r, you) for r in b.rows],
        players=b.players,
        you=_row(b.you, you) if b.you is not None else None,
    )


def games_data(games: list[GameSummary], limit: int | None = None) -> GamesData:
    rows = [
        GameRowData(
            game_id=g.id,
            family=g.family,
            finished_at=g.finished_at,
            rounds=g.rounds,
            rated=g.rated,
            seats=[
                SeatData(
                    name=s.name,
                    score=s.score,
                    place=s.place,
                    winner=s.winner,
                    bot=s.bot is not None,
                    you=s.seat == g.you,
                )
                for s in g.seats
            ],
        )
        for g in games
    ]
    return GamesData(rows=rows, more=limit is not None and len(games) >= limit)
