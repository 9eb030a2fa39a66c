"""Profiles and leaderboards: read-only queries, each a handful of index lookups.

`profile(conn, player_id)`: the rating per family (with its place and its history),
games, wins and average score (overall and per family) and favourite characters.
`leaderboard(conn, family)`: the top players of a family by shown rating (openskill's
ordinal), equal ratings sharing a place, and the asking player's own row.

A place is "how many rate higher, plus one": a count over the family's rating index,
thousands of entries for a mid-table player. The leaderboard counts (once per call); a
profile may take its places from a `PlaceCache` instead (each family's ratings sorted,
refetched at most every `ttl` seconds: a bisect), so a profile's place can lag the newest
games by that much.
"""

from __future__ import annotations

import threading
import time
from bisect import bisect_right
from collections.abc import Callable

from sqlalchemy import Connection, and_, bindparam, case, func, select

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

# The statements are built once: building a SQLAlchemy statement costs more than running these
# indexed queries (measured by benchmarks/db_queries.py), so each call only binds its values.
_r2 = ratings.alias("r2")
_PLACE = (
    select(func.count()).select_from(_r2).where(_r2.c.family == ratings.c.family, _r2.c.ordinal > ratings.c.ordinal)
).scalar_subquery()
_OF = select(func.count()).select_from(_r2).where(_r2.c.family == ratings.c.family).scalar_subquery()

_RATINGS_EXACT = select(
    ratings.c.family,
    ratings.c.ordinal,
    ratings.c.mu,
    ratings.c.sigma,
    ratings.c.games,
    ratings.c.wins,
    (_PLACE + 1).label("place"),
    _OF.label("of"),
).where(ratings.c.player_id == bindparam("pid"))
_RATINGS_ONLY = select(
    ratings.c.family, ratings.c.ordinal, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins
).where(ratings.c.player_id == bindparam("pid"))
_ORDINALS = select(ratings.c.ordinal).where(ratings.c.family == bindparam("family")).order_by(ratings.c.ordinal)


class PlaceCache:
    """Each family's ratings, sorted, for at most `ttl` seconds: a place is then a bisect."""

    def __init__(self, ttl: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        self._sorted: dict[str, tuple[float, list[float]]] = {}
        self._lock = threading.Lock()  # the store's threads share it

    def clear(self) -> None:
        with self._lock:
            self._sorted.clear()

    def place(self, conn: Connection, family: str, rating: float) -> tuple[int, int]:
        """(place, players) of `rating` in `family`."""
        now = self.clock()
        with self._lock:
            entry = self._sorted.get(family)
        if entry is None or now - entry[0] > self.ttl:
            entry = (now, list(conn.execute(_ORDINALS, {"family": family}).scalars()))
            with self._lock:
                self._sorted[family] = entry
        values = entry[1]
        higher = len(values) - bisect_right(values, rating)
        return higher + 1, max(len(values), higher + 1)


_BY_FAMILY = (
    select(
        games.c.family,
        func.count().label("games"),
        func.sum(case((game_seats.c.winner, 1), else_=0)).label("wins"),
        func.avg(game_seats.c.score).label("avg"),
    )
    .join(games, games.c.id == game_seats.c.game_id)
    .where(game_seats.c.player_id == bindparam("pid"))
    .group_by(games.c.family)
)
_HISTORY = (
    select(rating_history.c.game_id, rating_history.c.at, rating_history.c.ordinal)
    .where(rating_history.c.player_id == bindparam("pid"), rating_history.c.family == bindparam("family"))
    .order_by(rating_history.c.at.desc(), rating_history.c.game_id.desc())
    .limit(bindparam("points"))
)
_TIMES = func.sum(seat_characters.c.times).label("times")
_FAVOURITES = (
    select(seat_characters.c.character, _TIMES)
    .join(
        game_seats,
        and_(game_seats.c.game_id == seat_characters.c.game_id, game_seats.c.seat == seat_characters.c.seat),
    )
    .where(game_seats.c.player_id == bindparam("pid"))
    .group_by(seat_characters.c.character)
    .order_by(_TIMES.desc(), seat_characters.c.character)
    .limit(FAVOURITES)
)


def display_name(name: str | None, player_id: int) -> str:
    return name if name else f"#{player_id}"


def _family_order(family: str) -> int:
    return FAMILIES.index(family) if family in FAMILIES else len(FAMILIES)


def profile(
    conn: Connection, player_id: int, points: int = HISTORY_POINTS, places: PlaceCache | None = None
) -> Profile | None:
    player = get_player(conn, player_id)
    if player is None:
        return None
    by_family = sorted(
        (
            FamilyStats(
                family=r.family, games=r.games, wins=int(r.wins or 0), average_score=round(float(r.avg or 0), 2)
            )
            for r in conn.execute(_BY_FAMILY, {"pid": player_id})
        ),
        key=lambda f: _family_order(f.family),
    )
    total = sum(f.games for f in by_family)
    wins = sum(f.wins for f in by_family)
    average = round(sum(f.average_score * f.games for f in by_family) / total, 2) if total else 0.0
    rated = []
    for r in conn.execute(_RATINGS_EXACT if places is None else _RATINGS_ONLY, {"pid": player_id}).all():
        place, of = (r.place, r.of) if places is None else places.place(conn, r.family, r.ordinal)
        rated.append(
            FamilyRating(
                family=r.family,
                rating=r.ordinal,
                mu=r.mu,
                sigma=r.sigma,
                games=r.games,
                wins=r.wins,
                place=place,
                of=of,
            )
        )
    rated.sort(key=lambda f: _family_order(f.family))
    history = {
        r.family: [
            RatingPoint(game_id=h.game_id, at=h.at, rating=h.ordinal)
            for h in reversed(conn.execute(_HISTORY, {"pid": player_id, "family": r.family, "points": points}).all())
        ]
        for r in rated
    }
    favourites = [
        CharacterCount(character=r.character, times=int(r.times)) for r in conn.execute(_FAVOURITES, {"pid": player_id})
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


_BOARD_COLS = (ratings.c.player_id, players.c.name, players.c.kind, ratings.c.ordinal, ratings.c.games, ratings.c.wins)
_TOP = (
    select(*_BOARD_COLS)
    .join(players, players.c.id == ratings.c.player_id)
    .where(ratings.c.family == bindparam("family"))
    .order_by(ratings.c.ordinal.desc(), ratings.c.player_id)
    .limit(bindparam("limit"))
)
_COUNT = select(func.count()).select_from(ratings).where(ratings.c.family == bindparam("family"))
_MINE = (
    select(*_BOARD_COLS, (_PLACE + 1).label("place"))
    .join(players, players.c.id == ratings.c.player_id)
    .where(ratings.c.family == bindparam("family"), ratings.c.player_id == bindparam("pid"))
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
    found = conn.execute(_TOP, {"family": family, "limit": limit}).all()
    rows: list[LeaderboardRow] = []
    for i, r in enumerate(found):
        tied = i and found[i - 1].ordinal == r.ordinal
        rows.append(_row(r, rows[-1].place if tied else i + 1))
    mine = next((row for row in rows if row.player_id == you), None)
    if you is not None and mine is None:
        own = conn.execute(_MINE, {"family": family, "pid": you}).first()
        mine = _row(own, own.place) if own else None
    players_n = len(rows) if len(rows) < limit else conn.execute(_COUNT, {"family": family}).scalar_one()
    return Leaderboard(family=family, rows=rows, players=players_n, you=mine)
