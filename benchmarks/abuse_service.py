"""The service-side attacks of benchmarks/abuse.py (issue 18's attacks 2-5 and 7).

Each acts as a player would: SSH sessions from their own loopback addresses, their lobby and
table requests made through the session's `PlayerSession` (the calls the lobby screen and the
table menu make: benchmarks/abuse_server.py), chat typed as keys into the chat input. Each
reports what happened, whatever the server's behaviour of the day; a request the server's API
no longer knows shows as {"error": ...} rather than stopping the benchmark.
"""

from __future__ import annotations

import asyncio
import hashlib
import struct
import time
from pathlib import Path
from typing import Any

import asyncssh
import msgspec
from abuse_clients import Player, open_player

FORBIDDEN_IN_CHAT = {"U+009B": "\u009b", "U+009D": "\u009d", "U+202E": "\u202e", "U+200B": "\u200b"}


def _key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def _guarded(name: str, coro: Any) -> dict:
    try:
        return await coro
    except Exception as e:
        return {"error": f"{name}: {type(e).__name__}: {str(e)[:300]}"}


async def service_attacks(abuse: Any) -> dict:
    out: dict = {"_phases": []}
    out["abandoned_tables"] = await _guarded("abandoned", abandoned_tables(abuse, out["_phases"]))
    out["stranger_loads"] = await _guarded("loads", stranger_loads(abuse))
    out["same_name_exports"] = await _guarded("exports", same_name_exports(abuse))
    out["chat_controls"] = await _guarded("chat", chat_controls(abuse))
    out["star_name"] = await _guarded("star", star_name(abuse))
    out["flipped_bit"] = await _guarded("bitflip", flipped_bit(abuse))
    return out


async def _player(abuse: Any, name: str, local: str, guest: bool = False) -> Player:
    player, _ = await open_player(abuse.port, name, local, None if guest else _key())
    abuse.players.append(player)
    return player


async def _table_of(abuse: Any, creator: Player, name: str, players: int, bots: int, others=()) -> str | None:
    """The creator's table (its lobby call), others joined, the game started: the table's id."""
    bench = abuse.bench
    made = await bench.call("created", cmd="create", user=name, players=players, bots=bots, name=f"{name} table")
    if made.get("error") or not made.get("t"):
        raise RuntimeError(f"create: {made}")
    for other in others:
        joined = await bench.call("joined", cmd="join", user=other, t=made["t"])
        if joined.get("error"):
            raise RuntimeError(f"join: {joined}")
    started = await bench.call("started", cmd="start", user=name)
    if started.get("error"):
        raise RuntimeError(f"start: {started}")
    await creator.expect(b"Round", 20)
    return made["t"]


async def abandoned_tables(abuse: Any, phases: list) -> dict:
    """Ten guests from ten addresses loop: connect, create a table, leave (3 rounds)."""
    bench = abuse.bench
    t0 = time.monotonic()
    before = await bench.call("tables", cmd="tables")
    created, errors = 0, []
    lobby: list = []
    for rnd in range(3):
        for i in range(10):
            name = f"abandon{i}r{rnd}"
            try:
                guest = await _player(abuse, name, f"127.0.3.{i + 1}", guest=True)
            except Exception as e:
                errors.append(f"connect: {type(e).__name__}")
                continue
            made = await bench.call("created", cmd="create", user=name, players=4)
            if made.get("error"):
                errors.append(str(made["error"])[:120])
            else:
                created += 1
            guest.close()
        lobby.append(await abuse.time_to_lobby())
    right_after = await bench.call("tables", cmd="tables")
    await asyncio.sleep(abuse.args.abandon_wait)
    later = await bench.call("tables", cmd="tables")
    lobby.append(await abuse.time_to_lobby())
    keyed = await _player(abuse, "keyed-creator", "127.0.3.50")
    made = await bench.call("created", cmd="create", user="keyed-creator", players=4)
    keyed.close()
    phases.append({"time_to_lobby_max_ms": max([t for t in lobby if t is not None], default=None)})
    return {
        "guests_tables_created": created,
        "create_errors": sorted(set(errors))[:5],
        "tables_before": before.get("tables"),
        "tables_right_after": right_after.get("tables"),
        "tables_after_wait": later.get("tables"),
        "waited_s": abuse.args.abandon_wait,
        "keyed_player_can_create": not made.get("error"),
        "keyed_create_error": made.get("error"),
        "time_to_lobby_ms": lobby,
        "seconds": round(time.monotonic() - t0, 1),
    }


async def stranger_loads(abuse: Any) -> dict:
    """An owner saves their game; a guest stranger lists the saves and loads it three times."""
    bench = abuse.bench
    owner = await _player(abuse, "owner", "127.0.4.1")
    await _table_of(abuse, owner, "owner", players=2, bots=1)
    exported = await bench.call("exported", cmd="export", user="owner", name="abuse-owner")
    own = await bench.call("saved", cmd="saved", user="owner")
    await _player(abuse, "stranger", "127.0.4.2", guest=True)
    listed = await bench.call("saved", cmd="saved", user="stranger")
    names = listed.get("names") or []
    loads = []
    for _ in range(3):
        loaded = await bench.call("loaded", cmd="load", user="stranger", name="abuse-owner")
        loads.append({k: loaded.get(k) for k in ("error", "new_tables", "tables")})
    return {
        "export_error": exported.get("error"),
        "exports_on_disk": exported.get("files"),
        "owner_sees_the_save": "abuse-owner" in (own.get("names") or []),
        "saves_visible_to_stranger": len(names),
        "owners_save_visible": "abuse-owner" in names,
        "stranger_loads": loads,
        "stranger_loads_succeeded": sum(1 for x in loads if not x["error"]),
        "list_error": listed.get("error"),
    }


async def same_name_exports(abuse: Any) -> dict:
    """Two creators at two tables export under the same name."""
    bench = abuse.bench
    first = await _player(abuse, "exporter1", "127.0.4.3")
    second = await _player(abuse, "exporter2", "127.0.4.4")
    t1 = await _table_of(abuse, first, "exporter1", players=2, bots=1)
    t2 = await _table_of(abuse, second, "exporter2", players=2, bots=1)
    one = await bench.call("exported", cmd="export", user="exporter1", name="same-name")
    two = await bench.call("exported", cmd="export", user="exporter2", name="same-name")
    exports = Path(abuse.bench.tmp) / "saves" / "exports"
    kept = {}
    for path in sorted(exports.glob("same-name*")):
        data = path.read_bytes()
        kept[path.name] = [t for t in (t1, t2) if t.encode() in data]
    return {
        "errors": [one.get("error"), two.get("error")],
        "files": kept,
        "first_game_kept": any(t1 in tables for tables in kept.values()),
        "second_game_kept": any(t2 in tables for tables in kept.values()),
    }


async def chat_controls(abuse: Any) -> dict:
    """A player types, then pastes, C1, bidi and zero-width characters into the chat; what reaches
    the other player's terminal."""
    writer = await _player(abuse, "chatter", "127.0.4.5")
    reader = await _player(abuse, "listener", "127.0.4.6")
    await _table_of(abuse, writer, "chatter", players=2, bots=0, others=["listener"])
    await reader.expect(b"Round", 20)
    await asyncio.sleep(0.5)
    out = {}
    for how, end in (("typed", "endtyped"), ("pasted", "endpasted")):
        start = len(reader.raw)
        writer.send(b"c")  # c enters the chat; Enter sends the line and returns to the game
        await asyncio.sleep(0.3)
        text = f"hi\u009b31mred\u009d0;title\u0007\u202etxet\u200bjoin {end}"
        if how == "typed":
            writer.send(text.encode())
        else:
            writer.send(b"\x1b[200~" + text.encode() + b"\x1b[201~")
        await asyncio.sleep(0.2)
        writer.send(b"\r")
        seen = True
        try:
            await reader.expect(end.encode(), 10)
        except Exception:
            seen = False
        await asyncio.sleep(0.3)
        received = bytes(reader.raw[start:]).decode("utf-8", "replace")
        found = {name: received.count(ch) for name, ch in FORBIDDEN_IN_CHAT.items() if ch in received}
        out[how] = {"line_reached_the_other": seen, "forbidden_received": found}
    out["forbidden_total"] = sum(sum(v["forbidden_received"].values()) for v in out.values())
    return out


async def star_name(abuse: Any) -> dict:
    """A player names themselves "*" and chats: does their line read as a server notice?"""
    bench = abuse.bench
    star = await _player(abuse, "starred", "127.0.4.7")
    other = await _player(abuse, "witness", "127.0.4.8")
    renamed = await bench.call("renamed", cmd="rename", user="starred", name="*")
    t = await _table_of(abuse, star, "starred", players=2, bots=0, others=["witness"])
    await other.expect(b"Round", 20)
    await asyncio.sleep(0.5)
    await bench.call("noticed", cmd="notice", t=t, text="probe notice")
    await other.expect(b"probe notice", 10)
    star.send(b"c")  # into the chat
    await asyncio.sleep(0.3)
    star.send(b"probe player\r")
    seen = True
    try:
        await other.expect(b"probe player", 10)
    except Exception:
        seen = False
    plain = other.plain()
    notice_line = _line_with(plain, "probe notice").replace("probe notice", "TEXT")
    player_line = _line_with(plain, "probe player").replace("probe player", "TEXT")
    return {
        "rename_error": renamed.get("error"),
        "name_taken": renamed.get("name"),
        "line_reached_the_other": seen,
        "notice_as_shown": notice_line,
        "player_line_as_shown": player_line,
        "indistinguishable": seen and notice_line == player_line,
    }


def _line_with(plain: str, text: str) -> str:
    """The chat row that shows ``text``: what precedes it back to the panel's border or a gap."""
    for line in reversed(plain.splitlines()):
        start = line.rfind(text)
        if start >= 0:
            left = start
            while left > 0 and line[left - 1] not in "│┃╭╮╰╯─" and line[left - 2 : left] != "  ":
                left -= 1
            return line[left : start + len(text)].strip()
    return ""


async def flipped_bit(abuse: Any) -> dict:
    """A bot table plays; the server stops; one bit of its move log flips; the server starts again."""
    bench = abuse.bench
    made = await bench.call("botgame", cmd="botgame")
    t = made.get("t")
    if not t:
        return {"error": f"botgame: {made}"}
    deadline = time.monotonic() + 60
    seq = 0
    while time.monotonic() < deadline:  # far enough from a snapshot (every 100 moves) for a long log
        seq = (await bench.call("seq", cmd="seq", t=t)).get("seq") or 0
        if seq % 100 >= 60:
            break
        await asyncio.sleep(0.2)
    for p in abuse.players:
        p.close()
    abuse.players.clear()
    await bench.stop_server()
    saves = Path(bench.tmp) / "saves"
    log_path = saves / f"{t}.log"
    files_before = sorted(p.name for p in saves.iterdir() if p.name.startswith(t))
    flipped = flip_a_bit(log_path)
    damaged = hashlib.sha256(log_path.read_bytes()).hexdigest()
    acknowledged = None
    head = (await _log_base(log_path)) if log_path.exists() else None
    if head is not None:
        acknowledged = head + flipped["records"] - 1  # the first record is the log's head
    await bench.start_server(abuse.spec())
    resumed = await bench.call("resumed", cmd="resumed")
    recovered = (resumed.get("tables") or {}).get(t)
    files_after = sorted(p.name for p in saves.iterdir() if p.name.startswith(t))
    kept = any(hashlib.sha256(p.read_bytes()).hexdigest() == damaged for p in saves.rglob("*") if p.is_file())
    stderr = bench.server_stderr()
    return {
        "moves_acknowledged": acknowledged,
        "moves_recovered": recovered,
        # the bots play on as soon as the game is back: recovered moves can pass acknowledged ones
        "moves_lost": None if acknowledged is None or recovered is None else max(0, acknowledged - recovered),
        "log_records": flipped["records"],
        "flipped_record": flipped["flipped_record"],
        "files_before": files_before,
        "files_after": files_after,
        "damaged_log_kept": kept,
        "warning_lines_on_stderr": [ln[:400] for ln in stderr.splitlines() if "WARNING" in ln or "warning" in ln][:5],
        "resume_problems": resumed.get("problems"),
    }


async def _log_base(log_path: Path) -> int | None:
    """The command count the log starts from (its head record's base)."""
    data = log_path.read_bytes()
    length, _ = struct.unpack_from("<II", data, 12)
    head = msgspec.msgpack.decode(data[20 : 20 + length])
    return int(head[2]) if isinstance(head, list) and len(head) >= 3 else None


def flip_a_bit(log_path: Path, record_index: int | None = None) -> dict:
    """Flip one bit in the payload of the middle record of a move log (server/storage/savelog.py)."""
    data = bytearray(log_path.read_bytes())
    offset, records = 12, []
    while offset + 8 <= len(data):
        length, _crc = struct.unpack_from("<II", data, offset)
        if offset + 8 + length > len(data):
            break
        records.append((offset, length))
        offset += 8 + length
    index = len(records) // 2 if record_index is None else record_index
    start, length = records[index]
    data[start + 8 + length // 2] ^= 0x10
    log_path.write_bytes(bytes(data))
    return {"records": len(records), "flipped_record": index}
