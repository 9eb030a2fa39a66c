"""Tables changing owner: a node taking over a table whose lease lapsed (its owner died, or handed it
over), and a node handing its tables over (drain).

Taking over (`take_over`): acquire the lease (of all the nodes that heard the lapse, one wins),
replay the table's log from its last snapshot and fence it (server/cluster/table_log.py:
from then on the old owner's appends are refused), rebuild the table from the save and the
table's listing (its meta, who sat where: a guest's seat stays theirs while their session
lives), start its actor, answer for it (its subjects) and list it under this node. Every
human seat is away until its session resumes (server/cluster/front_events.py) or, after the
idle wait, a bot plays for it; a seat whose session was at the table under the previous owner is
not announced as back when it resumes (it never left).

A table that has no log (a table still waiting for players when its owner died) cannot come
back: its listing is removed, and the sessions in its room are told it closed. A log this
version cannot read is left alone (`LogError`), for an operator: nothing is overwritten.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from engine.savefile import game_key
from server.cluster.kvutil import TRANSIENT
from server.cluster.owner_lobby import meta_of
from server.cluster.table_log import Fenced, LogError, TableLog
from server.lobby.lifetimes import TableOrigin
from server.logging_setup import log_event
from server.tables.bot_names import bot_style
from server.tables.seats import SeatSlot

if TYPE_CHECKING:
    from server.cluster.node import ClusterNode

log = logging.getLogger("citadels.cluster.takeover")

SPREAD_SECONDS = 0.002  # per table this node already runs: the least busy node tries first


async def take_over(node: ClusterNode, table_id: str) -> bool:
    """Try to become the table's owner; True if this node runs it now."""
    if node.draining or node.stopping or table_id in node.desk.lobby.tables or table_id in node.broken:
        return False
    await asyncio.sleep(min(0.2, SPREAD_SECONDS * len(node.desk.lobby.tables)))
    started = time.monotonic()
    try:
        lease = await node.leases.acquire(table_id)
    except TRANSIENT:
        return False
    if lease is None:
        return False
    listing = node.directory.get(table_id)
    if listing is None:
        try:
            listing = await node.directory.fetch(table_id)
        except TRANSIENT:
            listing = None
    if listing is None:  # closed: nothing to take
        await node.leases.release(lease)
        return False
    try:
        table_log = await TableLog.open(node.conn, table_id, lease)
    except LogError as error:
        if "has no log" in str(error):  # a table that had not started: it cannot come back
            log_event(log, logging.INFO, "table lost with its owner", table=table_id, owner=listing.owner)
            node.desk.unlist(table_id)
        else:
            node.broken.add(table_id)
            log_event(log, logging.ERROR, "table log unreadable: not taken over", table=table_id, error=str(error))
        await node.leases.release(lease)
        return False
    except (Fenced, *TRANSIENT) as error:  # type: ignore[misc]
        log_event(log, logging.WARNING, "takeover failed", table=table_id, error=repr(error))
        await node.leases.release(lease)
        return False
    save = table_log.save
    if save.finished:  # over before its owner died: kept as a record, nothing to run
        await asyncio.to_thread(node.store.keep_finished, save)
        node.desk.unlist(table_id)
        await node.leases.release(lease)
        return False
    lobby = node.desk.lobby
    meta = meta_of(listing)
    seats = []
    for i, s in enumerate(save.seats):
        known = listing.seat_list[i] if i < len(listing.seat_list) else None
        slot = SeatSlot(name=s.name, key=s.key, bot=s.bot, style=bot_style(s.name) if s.bot else None)
        if known is not None and slot.bot is None:
            if slot.key is None and known.guest and known.key:  # a guest's seat: theirs while they are here
                slot.key, slot.guest = known.key, True
            slot.style = known.style
            slot.resuming = known.here  # at the table until now: its return is not announced
        if slot.bot is None and slot.key is None:  # nobody can reclaim it
            slot.bot = meta.bot_kind
        seats.append(slot)
    table = lobby._new_table(table_id, meta, seats)
    table.created = listing.updated  # type: ignore[attr-defined]  # its place in the lobby's list
    table.resume(node.store.taken_over(table_log), save.config)
    lobby.tables[table_id] = table
    lobby.games[table_id] = game_key(save.config, save.created)
    if listing.origin_identity:
        lobby.origins[table_id] = TableOrigin(listing.origin_identity, listing.origin_address, listing.origin_guest)
    table.start_actor()
    await node.desk.own(table, lease)
    rec = table_log.recovery
    log_event(
        log,
        logging.INFO,
        "table taken over",
        table=table_id,
        node=node.node_id,
        previous=listing.owner,
        commands=len(save.log),
        replayed=rec.log_commands if rec else None,
        ms=round((time.monotonic() - started) * 1000, 1),
    )
    return True


async def hand_over(node: ClusterNode, table_id: str) -> None:
    """Give a running table to another node: stop it here between two commands (every command it
    showed is in the log), release the lease; the first node to hear it takes the table over."""
    await node.desk.drop(table_id, "hand-over", release=True)
