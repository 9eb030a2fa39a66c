"""Ratings: openskill's Plackett-Luce model, one rating per player and rule family.

A finished game is rated when `unrated_reason` finds nothing against it:

- every seat is a person with an account (a guest makes the game unrated), or a bot
  when the host rates bots (`RatingPolicy.rate_bots`: then each bot level is a
  rated player, "hard", "normal"..., so people see where they stand against it);
- a bot sitting from the start makes it unrated unless the host rates bots;
- no person's seat was played by a bot (while they were away) for more than
  `RatingPolicy.max_bot_share` of that seat's decisions;
- no person holds two seats. A bot level may (hard, normal, normal, random): each of its
  seats is rated from the level's rating as it stood before the game, and the level's
  rating moves by the sum of its seats' moves (its sigma shrinks by each seat's factor).

`update_ratings` then rates the seats by place (ties share a place) inside the
caller's transaction, locking the players' rating rows first (PostgreSQL: FOR UPDATE;
SQLite: the write transaction already holds the lock), and writes each player's
rating after the game to rating_history. The shown rating is openskill's ordinal
(mu - 3 sigma), 0 for a new player.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta, Struct
from openskill.models import PlackettLuce
from sqlalchemy import Connection, bindparam, insert, select, update

from .game_record import GameRecord
from .schema import rating_history, ratings

MODEL = PlackettLuce()  # mu 25, sigma 25/3: ordinal 0 for a new player


class RatingPolicy(Struct, frozen=True, kw_only=True):
    """The host's choices about what is rated."""

    rate_bots: bool = False
    max_bot_share: Annotated[float, Meta(ge=0.0, le=1.0)] = 0.25


def unrated_reason(record: GameRecord, seat_players: list[int | None], policy: RatingPolicy) -> str | None:
    """Why this game is not rated (one line), or None when it is. `seat_players`: each seat's rated
    player (a bot seat: its level's player, or None when bots are not rated)."""
    if len(record.seats) < 2:
        return "fewer than two players"
    for seat, pid in zip(record.seats, seat_players):
        if seat.bot is not None:
            if not policy.rate_bots:
                return f"a bot ({seat.bot}) sat at the table"
            continue
        if pid is None:
            return f"{seat.name} played as a guest"
        if seat.bot_share > policy.max_bot_share:
            return f"a bot played {seat.name}'s seat for {seat.bot_share:.0%} of its decisions"
    people = [p for s, p in zip(record.seats, seat_players) if s.bot is None]
    if len(set(people)) != len(people):
        return "one player held two seats"
    return None


def ordinal(mu: float, sigma: float) -> float:
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def rate(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player, in the same order, after a game where they took `places`."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]


def combine(
    prior: dict[int, tuple[float, float]], ids: list[int], after: list[tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """Each player's rating after the game from its seats' (one seat: that seat's rating)."""
    out = dict(prior)
    for pid, (mu, sigma) in zip(ids, after):
        mu0, sigma0 = prior[pid]
        cur_mu, cur_sigma = out[pid]
        out[pid] = (cur_mu + (mu - mu0), cur_sigma * (sigma / sigma0))
    return {pid: out[pid] for pid in dict.fromkeys(ids)}


# Built once: building these statements cost more than running them (benchmarks/db_record.py).
_LOCK = (
    select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma)
    .where(ratings.c.family == bindparam("family"), ratings.c.player_id.in_(bindparam("ids", expanding=True)))
    .with_for_update()
)
_UPDATE = (
    update(ratings)
    .where(ratings.c.player_id == bindparam("b_player"), ratings.c.family == bindparam("b_family"))
    .values(
        mu=bindparam("mu"),
        sigma=bindparam("sigma"),
        ordinal=bindparam("ordinal"),
        games=ratings.c.games + 1,
        wins=ratings.c.wins + bindparam("won"),
        updated_at=bindparam("updated_at"),
    )
)


def update_ratings(conn: Connection, game_id: int, record: GameRecord, seat_players: list[int | None]) -> None:
    """Rate a recorded game (the caller's transaction); every seat has a player here."""
    family = record.family
    ids = [pid for pid in seat_players if pid is not None]
    assert len(ids) == len(record.seats), "a rated game has a player at every seat"
    known = {r.player_id: (r.mu, r.sigma) for r in conn.execute(_LOCK, {"family": family, "ids": ids})}
    prior = {p: known.get(p, (MODEL.mu, MODEL.sigma)) for p in ids}
    moved = combine(prior, ids, rate([prior[p] for p in ids], [s.place for s in record.seats]))
    now: datetime = record.finished_at
    updates, inserts, history = [], [], []
    for pid, (mu, sigma) in moved.items():
        shown = ordinal(mu, sigma)
        won = 1 if any(s.winner for s, p in zip(record.seats, ids) if p == pid) else 0
        if pid in known:
            updates.append(
                {
                    "b_player": pid,
                    "b_family": family,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": shown,
                    "won": won,
                    "updated_at": now,
                }
            )
        else:
            inserts.append(
                {
                    "player_id": pid,
                    "family": family,
                    "mu": mu,
                    "sigma": sigma,
                    "ordinal": shown,
                    "games": 1,
                    "wins": won,
                    "updated_at": now,
                }
            )
        history.append(
            {
                "game_id": game_id,
                "player_id": pid,
                "family": family,
                "mu": mu,
                "sigma": sigma,
                "ordinal": shown,
                "at": now,
            }
        )
    if updates:
        conn.execute(_UPDATE, updates)
    if inserts:
        conn.execute(insert(ratings), inserts)
    conn.execute(insert(rating_history), history)
