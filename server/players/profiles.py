"""Profiles and leaderboards: read-only queries, each a handful of index lookups.

`profile(conn, player_id)`: the rating per family (with its place and its history),
games, wins and average score (overall and per family) and favourite characters.
`leaderboard(conn, family)`: the top players of a family by shown rating (openskill's
ordinal), equal ratings sharing a place, and the asking player's own row.
"""

from __future__ import annotations

from sqlalchemy import Connection, and_, case, func, select

from .accounts import get_player
from .records import (
    CharacterCount,
    FamilyRating,
    FamilyStats,
    Leaderboard,
    LeaderboardRow,
    Profile,
    RatingPoint,
)
from .schema import FAMILIES, game_seats, games, players, rating_history, ratings, seat_characters

HISTORY_POINTS = 30  # rating points shown per family (the latest)
FAVOURITES = 3
MAX_ROWS = 100


def display_name(name: str | None, player_id: int) -> str:
    return name if name else f"#{player_id}"


def _place(conn: Connection, family: str, rating: float) -> int:
    higher = conn.execute(
        select(func.count()).select_from(ratings).where(ratings.c.family == family, ratings.c.ordinal > rating)
    ).scalar_one()
    return higher + 1


def _rated_players(conn: Connection, family: str) -> int:
    return conn.execute(select(func.count()).select_from(ratings).where(ratings.c.family == family)).scalar_one()


def profile(conn: Connection, player_id: int, points: int = HISTORY_POINTS) -> Profile | None:
    player = get_player(conn, player_id)
    if player is None:
        return None
    by_family = [
        FamilyStats(family=r.family, games=r.games, wins=int(r.wins or 0), average_score=round(float(r.avg or 0), 2))
        for r in conn.execute(
            select(
                games.c.family,
                func.count().label("games"),
                func.sum(case((game_seats.c.winner, 1), else_=0)).label("wins"),
                func.avg(game_seats.c.score).label("avg"),
            )
            .join(games, games.c.id == game_seats.c.game_id)
            .where(game_seats.c.player_id == player_id)
            .group_by(games.c.family)
        )
    ]
    by_family.sort(key=lambda f: FAMILIES.index(f.family) if f.family in FAMILIES else len(FAMILIES))
    total = sum(f.games for f in by_family)
    wins = sum(f.wins for f in by_family)
    average = round(sum(f.average_score * f.games for f in by_family) / total, 2) if total else 0.0
    rated: list[FamilyRating] = []
    history: dict[str, list[RatingPoint]] = {}
    for r in conn.execute(
        select(
            ratings.c.family, ratings.c.ordinal, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins
        ).where(ratings.c.player_id == player_id)
    ):
        rated.append(
            FamilyRating(
                family=r.family,
                rating=r.ordinal,
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
                place=_place(conn, r.family, r.ordinal),
                of=_rated_players(conn, r.family),
            )
        )
        latest = conn.execute(
            select(rating_history.c.game_id, rating_history.c.at, rating_history.c.ordinal)
            .where(rating_history.c.player_id == player_id, rating_history.c.family == r.family)
            .order_by(rating_history.c.at.desc(), rating_history.c.game_id.desc())
            .limit(points)
        ).all()
        history[r.family] = [RatingPoint(game_id=h.game_id, at=h.at, rating=h.ordinal) for h in reversed(latest)]
    rated.sort(key=lambda f: FAMILIES.index(f.family) if f.family in FAMILIES else len(FAMILIES))
    times = func.sum(seat_characters.c.times).label("times")
    favourites = [
        CharacterCount(character=r.character, times=int(r.times))
        for r in conn.execute(
            select(seat_characters.c.character, times)
            .join(
                game_seats,
                and_(game_seats.c.game_id == seat_characters.c.game_id, game_seats.c.seat == seat_characters.c.seat),
            )
            .where(game_seats.c.player_id == player_id)
            .group_by(seat_characters.c.character)
            .order_by(times.desc(), seat_characters.c.character)
            .limit(FAVOURITES)
        )
    ]
    return Profile(
        player=player,
        games=total,
        wins=wins,
        average_score=average,
        ratings=rated,
        history=history,
        by_family=by_family,
        favourites=favourites,
    )


_ROW_COLS = (
    ratings.c.player_id,
    players.c.name,
    players.c.kind,
    ratings.c.ordinal,
    ratings.c.games,
    ratings.c.wins,
)


def _row(r, place: int) -> LeaderboardRow:
    return LeaderboardRow(
        place=place,
        player_id=r.player_id,
        name=display_name(r.name, r.player_id),
        kind=r.kind,
        rating=r.ordinal,
        games=r.games,
        wins=r.wins,
    )


def leaderboard(conn: Connection, family: str, limit: int = 20, you: int | None = None) -> Leaderboard:
    limit = max(1, min(limit, MAX_ROWS))
    found = conn.execute(
        select(*_ROW_COLS)
        .join(players, players.c.id == ratings.c.player_id)
        .where(ratings.c.family == family)
        .order_by(ratings.c.ordinal.desc(), ratings.c.player_id)
        .limit(limit)
    ).all()
    rows: list[LeaderboardRow] = []
    for i, r in enumerate(found):
        tied = i and found[i - 1].ordinal == r.ordinal
        rows.append(_row(r, rows[-1].place if tied else i + 1))
    mine = next((row for row in rows if row.player_id == you), None)
    if you is not None and mine is None:
        r = conn.execute(
            select(*_ROW_COLS)
            .join(players, players.c.id == ratings.c.player_id)
            .where(ratings.c.family == family, ratings.c.player_id == you)
        ).first()
        mine = _row(r, _place(conn, family, r.ordinal)) if r else None
    return Leaderboard(family=family, rows=rows, players=_rated_players(conn, family), you=mine)
