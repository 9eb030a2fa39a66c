"""The host's commands (`citadels admin`), run in the server's event loop against its lobby.

Each handler takes a typed request (server/admin/protocol.py) and returns a `Reply`.
Everything here is logged at WARNING with the request's kind (never its text: a
broadcast's words are the host's, but they reach players, so they go through the
same sanitiser as a chat line).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from engine.text import MAX_CHAT, clean_text
from server.admin import protocol as p
from server.admin.bans import BANNED_MESSAGE, BanError
from server.lobby.errors import LobbyError
from server.lobby.lifetimes import address_of
from server.logging_setup import log_event
from server.tables.messages import Toast

log = logging.getLogger("citadels.server.admin")

KICK_MESSAGE = "The host disconnected you."
CLOSE_MESSAGE = "The host closed this table."


class AdminService:
    def __init__(self, lobby: Any, server: Any = None) -> None:
        self.lobby = lobby
        self.server = server

    async def handle(self, req: p.Request) -> p.Reply:
        kind = type(req).__struct_config__.tag
        try:
            reply = await getattr(self, f"_{kind}")(req)
        except (LobbyError, BanError) as e:
            reply = p.Reply(False, str(e))
        except OSError as e:
            reply = p.Reply(False, f"{e.strerror or e}")
        if kind not in ("sessions", "tables", "bans", "status"):
            # what changed something is a warning; a refusal changed nothing (with --workers every worker
            # but the table's owner answers a close with "No table")
            level = logging.WARNING if reply.ok else logging.INFO
            log_event(log, level, "admin command", command=kind, ok=reply.ok, result=reply.message)
        return reply

    # --- listings ---------------------------------------------------------------------------------
    async def _sessions(self, req: p.Sessions) -> p.Reply:
        now = time.time()
        out = []
        for s in sorted(self.lobby.sessions, key=lambda s: getattr(s, "connected_at", 0)):
            t = s.table
            if t is None:
                where = "lobby"
            elif s.seat is None:
                where = "watching"
            else:
                where = "playing" if s.at_table else "room" if t.phase == "waiting" else "away"
            out.append(
                p.SessionRow(
                    session=s.info.session_id,
                    name=s.name,
                    key="guest" if s.guest else s.key,
                    peer=address_of(s) or "?",
                    where=where,
                    table=t.id if t is not None else None,
                    seat=s.seat,
                    connected_s=int(now - getattr(s, "connected_at", now)),
                )
            )
        return p.Reply(True, f"{len(out)} session(s)", rows=p.rows(out))

    async def _tables(self, req: p.Tables) -> p.Reply:
        out = []
        lobby = self.lobby
        for t in lobby.tables.values():
            origin = lobby.origins.get(t.id)
            out.append(
                p.TableRow(
                    table=t.id,
                    name=t.meta.name,
                    phase=t.phase,
                    private=t.meta.private,
                    saved_game=lobby.loaded_game(t) is not None,
                    seats=[s.name or "(open)" for s in t.seats],
                    present=sum(1 for s in lobby.sessions if s.table is t and s.seat is not None),
                    spectators=len(t.spectators),
                    moves=t.state.seq if t.state is not None else 0,
                    creator=t.meta.creator,
                    origin=origin.address if origin else None,
                )
            )
        return p.Reply(True, f"{len(out)} table(s)", rows=p.rows(out))

    async def _bans(self, req: p.Bans) -> p.Reply:
        out = [p.BanRow(b.kind, b.value, b.reason, b.since) for b in self.lobby.bans.list()]
        return p.Reply(True, f"{len(out)} ban(s)", rows=p.rows(out))

    async def _status(self, req: p.Status) -> p.Reply:
        lobby, server = self.lobby, self.server
        phases: dict[str, int] = {}
        for t in lobby.tables.values():
            phases[t.phase] = phases.get(t.phase, 0) + 1
        refusals = dict(lobby.refusals)
        transport = getattr(server, "refusals", None)  # the transport's counters, when it keeps them
        if callable(transport):
            transport = transport()
        data = {
            "sessions": len(lobby.sessions),
            "connections": getattr(server, "connection_count", None),
            "tables": phases,
            "max_tables": lobby.config.max_tables,
            "refusals": refusals,
            "transport_refusals": dict(transport) if transport else {},
            # startups (connections logging in), penalised sources, sessions (server/transport/admission.py)
            "admission": server.admission_stats() if hasattr(server, "admission_stats") else {},
            "bans": len(lobby.bans.list()),
        }
        return p.Reply(True, "status", data=data)

    # --- actions ----------------------------------------------------------------------------------
    def _matching(self, target: str) -> list[Any]:
        return [
            s
            for s in list(self.lobby.sessions)
            if target in (s.info.session_id, s.key, address_of(s)) and target != "guest"
        ]

    async def _kick(self, req: p.Kick) -> p.Reply:
        found = self._matching(req.target.strip())
        if not found:
            return p.Reply(False, f"no session matches {clean_text(req.target, 80)!r}")
        message = clean_text(req.message, MAX_CHAT) or KICK_MESSAGE
        for s in found:
            log_event(log, logging.WARNING, "kicked", session=s.info.session_id, key=s.key, peer=address_of(s))
            s.info.close(message)
        ids = ", ".join(s.info.session_id for s in found)
        return p.Reply(True, f"kicked {len(found)} session(s): {ids}", count=len(found))

    async def _ban(self, req: p.Ban) -> p.Reply:
        kind, value = req.kind, req.value.strip()
        if kind == "session":
            found = [s for s in self.lobby.sessions if s.info.session_id == value]
            if not found:
                return p.Reply(False, f"no session {clean_text(value, 40)!r}")
            s = found[0]
            kind, value = ("address", address_of(s) or "") if s.guest else ("key", s.key)
        ban, new = self.lobby.bans.add(kind, value, req.reason)
        gone = [
            s
            for s in list(self.lobby.sessions)
            if self.lobby.bans.banned(None if s.guest else s.key, address_of(s)) is not None
        ]
        for s in gone:
            s.info.close(BANNED_MESSAGE)
        self.lobby.refusals["banned"] += len(gone)
        what = "banned" if new else "already banned"
        return p.Reply(True, f"{what}: {ban.kind} {ban.value}; {len(gone)} session(s) closed", count=len(gone))

    async def _unban(self, req: p.Unban) -> p.Reply:
        if self.lobby.bans.remove(req.kind, req.value):
            return p.Reply(True, f"unbanned: {req.kind} {req.value.strip()}")
        return p.Reply(False, f"no ban on {req.kind} {clean_text(req.value, 80)!r}")

    async def _close(self, req: p.Close) -> p.Reply:
        message = clean_text(req.message, MAX_CHAT) or CLOSE_MESSAGE
        done = await self.lobby.close_by_host(req.table.strip(), message)
        return p.Reply(True, done)

    async def _broadcast(self, req: p.Broadcast) -> p.Reply:
        text = clean_text(req.text, MAX_CHAT)
        if not text:
            return p.Reply(False, "nothing to say")
        line = f"Message from the host: {text}"
        sessions = list(self.lobby.sessions)
        for s in sessions:
            s.post(Toast(line))
        return p.Reply(True, f"sent to {len(sessions)} session(s)", count=len(sessions))
