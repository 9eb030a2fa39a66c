"""History: finished games written once, listed newest first, replayed and exported by id.

`record_game` writes a `GameRecord` (its settings, seats, scores, places, the characters
each seat picked and the full command log) and, when the game is rated, updates the
ratings, all in the caller's transaction. A record whose `uid` is already there is not
written again (the outbox may deliver one twice after a lost reply).

`export_save` rebuilds the game as a save file (`engine.savefile.Save`) by replaying its
log, every command checked by the engine, so a stored game opens in the replay screen
and in `citadels save`.
"""

from __future__ import annotations

from datetime import datetime

import msgspec
from sqlalchemy import Connection, bindparam, insert, select

from engine.apply import apply
from engine.errors import IllegalCommand, SetupError
from engine.savefile import Save, SaveError, Seat, new_save
from engine.setup import GameConfig, new_game

from .accounts import bot_player, player_id_for_key
from .game_record import LOG_FORMAT, GameRecord, SeatRecord, decode_log, encode_log
from .ratings import RatingPolicy, unrated_reason, update_ratings
from .records import GameSummary, RecordResult, SeatResult
from .schema import game_logs, game_seats, games, seat_characters

MAX_LIST = 200  # games per page of a list


_KNOWN = select(games.c.id, games.c.rated, games.c.unrated_reason).where(games.c.uid == bindparam("uid"))
_INSERT_GAME = insert(games).returning(games.c.id)


def record_game(conn: Connection, record: GameRecord, policy: RatingPolicy, now: datetime) -> RecordResult:
    known = conn.execute(_KNOWN, {"uid": record.uid}).first()
    if known is not None:
        return RecordResult(game_id=known.id, rated=known.rated, unrated_reason=known.unrated_reason, new=False)
    seat_players = [_seat_player(conn, s, now) for s in record.seats]
    reason = unrated_reason(record, seat_players, policy)
    game_id = conn.execute(
        _INSERT_GAME,
        {
            "uid": record.uid,
            "family": record.family,
            "rules": record.config.rules,
            "settings": msgspec.json.encode(record.config).decode(),
            "players": len(record.seats),
            "rounds": record.rounds,
            "commands": len(record.log),
            "rated": reason is None,
            "unrated_reason": reason,
            "source": record.source,
            "started_at": record.started_at,
            "finished_at": record.finished_at,
            "recorded_at": now,
        },
    ).scalar_one()
    conn.execute(insert(game_logs), {"game_id": game_id, "format": LOG_FORMAT, "log": encode_log(record.log)})
    conn.execute(
        insert(game_seats),
        [
            {
                "game_id": game_id,
                "seat": s.seat,
                "player_id": pid,
                "name": s.name,
                "bot": s.bot,
                "bot_share": s.bot_share,
                "score": s.score,
                "place": s.place,
                "winner": s.winner,
                "finished_at": record.finished_at,
            }
            for s, pid in zip(record.seats, seat_players)
        ],
    )
    picks = [
        {"game_id": game_id, "seat": s.seat, "character": c, "times": n}
        for s in record.seats
        for c, n in s.characters.items()
    ]
    if picks:
        conn.execute(insert(seat_characters), picks)
    if reason is None:
        update_ratings(conn, game_id, record, seat_players)
    return RecordResult(game_id=game_id, rated=reason is None, unrated_reason=reason, new=True)


def _seat_player(conn: Connection, seat: SeatRecord, now: datetime) -> int | None:
    """The rated player of a seat: a bot level's, the person's, or the one its key belongs to."""
    if seat.bot:
        return bot_player(conn, seat.bot, now)
    if seat.player_id is None and seat.key:
        return player_id_for_key(conn, seat.key, now)
    return seat.player_id


# Built once (a statement costs more to build than these indexed queries take to run).
_GAMES = select(
    games.c.id,
    games.c.family,
    games.c.rules,
    games.c.players,
    games.c.rounds,
    games.c.rated,
    games.c.unrated_reason,
    games.c.source,
    games.c.finished_at,
).where(games.c.id.in_(bindparam("ids", expanding=True)))
_SEATS = (
    select(
        game_seats.c.game_id,
        game_seats.c.seat,
        game_seats.c.name,
        game_seats.c.player_id,
        game_seats.c.bot,
        game_seats.c.score,
        game_seats.c.place,
        game_seats.c.winner,
    )
    .where(game_seats.c.game_id.in_(bindparam("ids", expanding=True)))
    .order_by(game_seats.c.game_id, game_seats.c.seat)
)
_ALL_NEWEST = (
    select(games.c.id)
    .order_by(games.c.finished_at.desc(), games.c.id.desc())
    .limit(bindparam("limit"))
    .offset(bindparam("offset"))
)
_PLAYERS_NEWEST = (
    select(game_seats.c.game_id)
    .where(game_seats.c.player_id == bindparam("pid"))
    .order_by(game_seats.c.finished_at.desc(), game_seats.c.game_id.desc())
    .limit(bindparam("limit"))
    .offset(bindparam("offset"))
)


def _summaries(conn: Connection, ids: list[int], you: int | None = None) -> list[GameSummary]:
    if not ids:
        return []
    rows = {r.id: r for r in conn.execute(_GAMES, {"ids": ids})}
    seats: dict[int, list[SeatResult]] = {i: [] for i in ids}
    for r in conn.execute(_SEATS, {"ids": ids}):
        seats[r.game_id].append(
            SeatResult(
                seat=r.seat,
                name=r.name,
                player_id=r.player_id,
                bot=r.bot,
                score=r.score,
                place=r.place,
                winner=r.winner,
            )
        )
    out = []
    for i in ids:
        g = rows.get(i)
        if g is None:
            continue
        mine = next((s.seat for s in seats[i] if you is not None and s.player_id == you), None)
        out.append(
            GameSummary(
                id=g.id,
                family=g.family,
                rules=g.rules,
                players=g.players,
                rounds=g.rounds,
                rated=g.rated,
                unrated_reason=g.unrated_reason,
                source=g.source,
                finished_at=g.finished_at,
                seats=seats[i],
                you=mine,
            )
        )
    return out


def list_games(conn: Connection, player_id: int | None = None, limit: int = 50, offset: int = 0) -> list[GameSummary]:
    """Finished games newest first: all of them, or one player's."""
    page = {"limit": max(1, min(limit, MAX_LIST)), "offset": max(offset, 0)}
    if player_id is None:
        ids = list(conn.execute(_ALL_NEWEST, page).scalars())
    else:
        ids = list(conn.execute(_PLAYERS_NEWEST, {**page, "pid": player_id}).scalars())
    return _summaries(conn, ids, player_id)


def game_summary(conn: Connection, game_id: int, you: int | None = None) -> GameSummary | None:
    found = _summaries(conn, [game_id], you)
    return found[0] if found else None


def export_save(conn: Connection, game_id: int) -> Save | None:
    """The game as a save file, its final state rebuilt from the log (SaveError if it cannot be)."""
    row = conn.execute(
        select(games.c.settings, games.c.started_at, games.c.finished_at, game_logs.c.format, game_logs.c.log)
        .join(game_logs, game_logs.c.game_id == games.c.id)
        .where(games.c.id == game_id)
    ).first()
    if row is None:
        return None
    seats = conn.execute(
        select(game_seats.c.name, game_seats.c.bot).where(game_seats.c.game_id == game_id).order_by(game_seats.c.seat)
    ).all()
    try:
        config = msgspec.json.decode(row.settings, type=GameConfig)
        log = decode_log(row.log, row.format)
        g, _ = new_game(config)
        for cmd in log:
            apply(g, cmd)
    except (SetupError, IllegalCommand, msgspec.DecodeError, ValueError) as e:
        raise SaveError(f"game {game_id} cannot be rebuilt from its record: {e}") from None
    return new_save(
        f"game-{game_id}",
        config,
        [Seat(name=s.name, bot=s.bot) for s in seats],
        g,
        log,
        created=row.started_at,
        updated=row.finished_at,
    )
