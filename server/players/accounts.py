"""Accounts: players found by SSH key, names claimed once, keys added with a one-time code.

Every function works inside the caller's transaction (a `Connection`); `PlayerStore` opens
them. A refusal is an `AccountError` with one line for the player; nothing is changed.

- `player_for_key`: the player a key belongs to; the first connection with a key creates one.
- `claim_name`: unique case-insensitively (the database's unique index on the folded name
  decides a race: of two sessions claiming one name at once, one wins).
- `new_key_code` / `add_key_with_code`: a logged-in session shows a code; the new key's
  session types it within KEY_CODE_TTL and the key joins the player. Only a hash of the
  code is stored, each code works once, a newer code replaces the older.
- `remove_key`: a player keeps at least one key.
- `bot_player`: the rated player standing for a bot level ("hard"...), made on first use.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import Connection, bindparam, delete, exists, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import names
from .records import KeyInfo, Player
from .schema import game_seats, key_codes, player_keys, players

KEY_CODE_TTL = timedelta(minutes=10)
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed again
CODE_LENGTH = 8  # 40 bits, alive for minutes, used once


class AccountError(ValueError):
    """An account change refused; the message is one line for the player."""


def _player(row) -> Player:
    return Player(id=row.id, name=row.name, kind=row.kind, bot_kind=row.bot_kind, created_at=row.created_at)


_PLAYER_COLS = (players.c.id, players.c.name, players.c.kind, players.c.bot_kind, players.c.created_at)
_GET_PLAYER = select(*_PLAYER_COLS).where(players.c.id == bindparam("pid"))  # built once: profiles ask often


def get_player(conn: Connection, player_id: int) -> Player | None:
    row = conn.execute(_GET_PLAYER, {"pid": player_id}).first()
    return _player(row) if row else None


def find_player(conn: Connection, name: str) -> Player | None:
    """A player by name, whatever its case; else the bot player of that level ("hard")."""
    folded = names.fold(name)
    row = conn.execute(select(*_PLAYER_COLS).where(players.c.name_folded == folded)).first()
    if row is None:
        row = conn.execute(select(*_PLAYER_COLS).where(players.c.bot_kind == folded)).first()
    return _player(row) if row else None


def player_for_key(conn: Connection, fingerprint: str, now: datetime, label: str | None = None) -> Player:
    """The key's player, made on the key's first connection; its last use is noted."""
    row = conn.execute(
        select(*_PLAYER_COLS)
        .join(player_keys, player_keys.c.player_id == players.c.id)
        .where(player_keys.c.fingerprint == fingerprint)
    ).first()
    if row is not None:
        conn.execute(update(player_keys).where(player_keys.c.fingerprint == fingerprint).values(last_used_at=now))
        conn.execute(update(players).where(players.c.id == row.id).values(last_seen_at=now))
        return _player(row)
    pid = conn.execute(
        insert(players).values(kind="person", created_at=now, last_seen_at=now).returning(players.c.id)
    ).scalar_one()
    conn.execute(
        insert(player_keys).values(fingerprint=fingerprint, player_id=pid, label=label, added_at=now, last_used_at=now)
    )
    return Player(id=pid, name=None, kind="person", created_at=now)


def key_owner(conn: Connection, fingerprint: str) -> int | None:
    """The player a key belongs to, if any (a read: nothing is made)."""
    return conn.execute(select(player_keys.c.player_id).where(player_keys.c.fingerprint == fingerprint)).scalar()


def player_id_for_key(conn: Connection, fingerprint: str, now: datetime) -> int:
    """The key's player, made if the key is new (a game recorded before its player was known)."""
    pid = conn.execute(select(player_keys.c.player_id).where(player_keys.c.fingerprint == fingerprint)).scalar()
    if pid is not None:
        return pid
    return player_for_key(conn, fingerprint, now).id


def claim_name(conn: Connection, player_id: int, name: str) -> str:
    """Give the player `name` (cleaned); returns it as stored. AccountError when it is taken."""
    try:
        shown, folded = names.checked(name)
    except names.InvalidName as e:
        raise AccountError(str(e)) from None
    kind = conn.execute(select(players.c.kind).where(players.c.id == player_id)).scalar()
    if kind != "person":
        raise AccountError("only a person's account has a name to claim")
    try:
        with conn.begin_nested():  # a savepoint: the caller's transaction survives a refusal
            conn.execute(update(players).where(players.c.id == player_id).values(name=shown, name_folded=folded))
    except IntegrityError:
        raise AccountError(f"the name {shown!r} is taken") from None
    return shown


def bot_player(conn: Connection, kind: str, now: datetime) -> int:
    """The player standing for bots of level `kind` (made on first use)."""
    pid = conn.execute(select(players.c.id).where(players.c.bot_kind == kind)).scalar()
    if pid is not None:
        return pid
    try:
        with conn.begin_nested():
            return conn.execute(
                insert(players).values(name=kind, kind="bot", bot_kind=kind, created_at=now).returning(players.c.id)
            ).scalar_one()
    except IntegrityError:  # made meanwhile by another recorder
        return conn.execute(select(players.c.id).where(players.c.bot_kind == kind)).scalar_one()


def _hash(code: str) -> str:
    typed = "".join(ch for ch in code.upper() if ch.isalnum())
    return hashlib.sha256(typed.encode()).hexdigest()


def new_key_code(conn: Connection, player_id: int, now: datetime) -> str:
    """A one-time code ("ABCD-EFGH") adding a key to this player; replaces the player's older code."""
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    conn.execute(delete(key_codes).where((key_codes.c.player_id == player_id) | (key_codes.c.expires_at <= now)))
    conn.execute(insert(key_codes).values(code_hash=_hash(code), player_id=player_id, expires_at=now + KEY_CODE_TTL))
    return f"{code[:4]}-{code[4:]}"


def add_key_with_code(conn: Connection, code: str, fingerprint: str, now: datetime, label: str | None = None) -> int:
    """Add the key to the player who made `code`; returns that player's id.

    The key may already have a player of its own (its first connection made one): that
    player is folded in only while it is empty (no name, no game, no other key)."""
    digest = _hash(code)
    owner = conn.execute(
        select(key_codes.c.player_id).where(key_codes.c.code_hash == digest, key_codes.c.expires_at > now)
    ).scalar()
    if owner is None or conn.execute(delete(key_codes).where(key_codes.c.code_hash == digest)).rowcount != 1:
        raise AccountError("that code is wrong or has expired: ask your other session for a new one")
    current = conn.execute(select(player_keys.c.player_id).where(player_keys.c.fingerprint == fingerprint)).scalar()
    if current == owner:
        return owner
    if current is not None:
        _drop_empty_player(conn, current, fingerprint)
    conn.execute(
        insert(player_keys).values(
            fingerprint=fingerprint, player_id=owner, label=label, added_at=now, last_used_at=now
        )
    )
    return owner


def _drop_empty_player(conn: Connection, player_id: int, fingerprint: str) -> None:
    name = conn.execute(select(players.c.name).where(players.c.id == player_id)).scalar()
    other_keys = conn.execute(
        select(func.count())
        .select_from(player_keys)
        .where(player_keys.c.player_id == player_id, player_keys.c.fingerprint != fingerprint)
    ).scalar_one()
    played = conn.execute(select(exists().where(game_seats.c.player_id == player_id))).scalar()
    if name is not None or other_keys or played:
        raise AccountError(
            "this key already belongs to a player with a name, games or other keys: it cannot move to another"
        )
    conn.execute(delete(player_keys).where(player_keys.c.fingerprint == fingerprint))
    conn.execute(delete(players).where(players.c.id == player_id))


def keys_of(conn: Connection, player_id: int) -> list[KeyInfo]:
    rows = conn.execute(
        select(player_keys.c.fingerprint, player_keys.c.label, player_keys.c.added_at, player_keys.c.last_used_at)
        .where(player_keys.c.player_id == player_id)
        .order_by(player_keys.c.added_at, player_keys.c.fingerprint)
    ).all()
    return [KeyInfo(fingerprint=r[0], label=r[1], added_at=r[2], last_used_at=r[3]) for r in rows]


def directory_rows(conn: Connection, limit: int) -> tuple[list[tuple[str, int]], list[tuple[int, str]]]:
    """Up to `limit` keys (fingerprint, player) and named people (player, name), the most recently
    used first: what a server keeps in memory so that a login needs no query."""
    keys = conn.execute(
        select(player_keys.c.fingerprint, player_keys.c.player_id)
        .order_by(player_keys.c.last_used_at.desc())
        .limit(limit)
    ).all()
    named = conn.execute(
        select(players.c.id, players.c.name)
        .where(players.c.kind == "person", players.c.name.is_not(None))
        .order_by(players.c.last_seen_at.desc())
        .limit(limit)
    ).all()
    return [(r[0], r[1]) for r in keys], [(r[0], r[1]) for r in named]


def remove_key(conn: Connection, player_id: int, fingerprint: str) -> None:
    """Remove one of the player's keys; the last one stays (AccountError)."""
    # Lock the player first: two sessions removing its last two keys at once must not both succeed.
    conn.execute(select(players.c.id).where(players.c.id == player_id).with_for_update())
    keys = [k.fingerprint for k in keys_of(conn, player_id)]
    if fingerprint not in keys:
        raise AccountError("no such key on your account")
    if len(keys) == 1:
        raise AccountError("this is your only key: add another before removing it")
    conn.execute(
        delete(player_keys).where(player_keys.c.player_id == player_id, player_keys.c.fingerprint == fingerprint)
    )
