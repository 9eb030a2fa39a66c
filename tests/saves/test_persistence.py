"""The saves folder: autosave after every command, recovery, finished records, failures reported."""

from __future__ import annotations

import errno
import os

import pytest

from engine import apply, legal_commands, new_game
from engine.savefile import SaveError, dumps, loads
from engine.state import encode
from server.storage import persistence
from server.storage.persistence import PersistenceError, SaveStore
from server.storage.savelog import LOG_HEADER, RECORD, read_log, read_save_file

from .games import NAMES, T0, bots_for, first_game, seats_for


def start(store: SaveStore, table_id="t1", n=4, seed=3):
    cfg = first_game(n, seed=seed)
    g, _ = new_game(cfg)
    table = store.create(table_id, cfg, seats_for(cfg), g, now=T0)
    assert table.problem is None
    return cfg, g, table


def step(table, g, bots, k):
    """Apply and record k commands (or to the end); returns them."""
    out = []
    for _ in range(k):
        if g.phase == "over":
            break
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        assert table.record(cmd, g) is None
        out.append(cmd)
    return out


def test_whole_game_ends_as_a_finished_record(tmp_path):
    store = SaveStore(tmp_path, snapshot_every=20)
    cfg, g, table = start(store)
    log = step(table, g, bots_for(4, 0), 10_000)
    assert g.phase == "over" and table.finished
    assert store.unfinished() == [] and store.finished() == ["t1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["finished"]
    rec = store.read_finished("t1")
    assert rec.finished and rec.log == log and encode(rec.state) == encode(g)
    with pytest.raises(ValueError):
        table.record(log[-1], g)


@pytest.mark.parametrize("k", [0, 1, 19, 20, 21, 55, 130])
def test_reopen_mid_game(tmp_path, k):
    store = SaveStore(tmp_path, snapshot_every=20)
    cfg, g, table = start(store)
    log = step(table, g, bots_for(4, 0), k)
    # no close(): as after a crash
    again = SaveStore(tmp_path, snapshot_every=20).open("t1")
    assert again.save.log == log and encode(again.state) == encode(g)
    assert again.recovery.snapshot_commands + again.recovery.log_commands == k
    assert again.recovery.dropped is None
    assert [s.name for s in again.save.seats] == NAMES[:4] and again.save.seats == seats_for(cfg)
    # and the game goes on from there, still saved
    more = step(again, again.state, bots_for(4, 9), 30)
    third = SaveStore(tmp_path).open("t1")
    assert third.save.log == log + more


def test_resume_all_lists_unfinished_games(tmp_path):
    store = SaveStore(tmp_path)
    tables = {}
    for i in range(3):
        cfg, g, t = start(store, f"t{i}", seed=i)
        tables[t.id] = (g, step(t, g, bots_for(4, i), 40 if i != 1 else 100_000))
    resumed, problems = SaveStore(tmp_path).resume_all()
    assert problems == []
    assert sorted(t.id for t in resumed) == ["t0", "t2"]
    for t in resumed:
        g, log = tables[t.id]
        assert t.save.log == log and encode(t.state) == encode(g)
    assert store.finished() == ["t1"]


def log_bytes(tmp_path, table_id="t1") -> bytes:
    return (tmp_path / f"{table_id}.log").read_bytes()


def test_torn_tail_at_every_byte_of_the_last_record(tmp_path):
    store = SaveStore(tmp_path, snapshot_every=1000)
    cfg, g, table = start(store)
    log = step(table, g, bots_for(4, 0), 12)
    full = log_bytes(tmp_path)
    save_bytes = (tmp_path / "t1.save").read_bytes()
    _base, entries, why = read_log(full, "t1")
    assert len(entries) == 12 and why is None
    # the last record's start
    last_start = len(full)
    pos = LOG_HEADER.size
    while pos < len(full):
        last_start = pos
        pos += RECORD.size + RECORD.unpack_from(full, pos)[0]
    for cut in range(last_start, len(full)):
        (tmp_path / "t1.log").write_bytes(full[:cut])
        (tmp_path / "t1.save").write_bytes(save_bytes)
        t = SaveStore(tmp_path).open("t1")
        assert t.save.log == log[:11], cut
        assert t.recovery.dropped is None if cut == last_start else "torn" in t.recovery.dropped
        t.close()


def test_bad_record_in_the_middle_is_repaired_and_the_damaged_log_kept(tmp_path):
    # Issue 18: one damaged byte no longer loses the records after it (they were dropped before).
    store = SaveStore(tmp_path, snapshot_every=1000)
    cfg, g, table = start(store)
    log = step(table, g, bots_for(4, 0), 12)
    full = bytearray(log_bytes(tmp_path))
    pos = LOG_HEADER.size
    starts = []
    while pos < len(full):
        starts.append(pos)
        pos += RECORD.size + RECORD.unpack_from(full, pos)[0]
    full[starts[6] + RECORD.size + 1] ^= 0xFF  # record 6 = command 6 (record 0 is the head)
    (tmp_path / "t1.log").write_bytes(bytes(full))
    t = SaveStore(tmp_path).open("t1")
    assert t.save.log == log and t.recovery.dropped is None
    assert t.recovery.repaired == 1 and t.recovery.lost == 0 and t.recovery.damaged
    assert (tmp_path / "t1.log.damaged").read_bytes() == bytes(full)


def test_garbage_log_and_foreign_log_are_ignored(tmp_path):
    store = SaveStore(tmp_path)
    _, g, t1 = start(store, "t1", seed=1)
    step(t1, g, bots_for(4, 0), 5)
    _, g2, t2 = start(store, "t2", seed=2)
    step(t2, g2, bots_for(4, 0), 7)
    os.replace(tmp_path / "t2.log", tmp_path / "t1.log")
    t = SaveStore(tmp_path).open("t1")
    assert len(t.save.log) == 0 and "belongs to table 't2'" in t.recovery.dropped
    (tmp_path / "t1.log").write_bytes(b"\x00" * 1000)
    assert "not a command log" in SaveStore(tmp_path).open("t1").recovery.dropped


def test_stale_log_after_a_snapshot_is_skipped(tmp_path):
    # A crash between writing a snapshot and replacing the log leaves the old log: its records
    # are already in the snapshot.
    store = SaveStore(tmp_path, snapshot_every=10)
    _, g, t = start(store)
    log = step(t, g, bots_for(4, 0), 9)
    old_log = log_bytes(tmp_path)
    log += step(t, g, bots_for(4, 1), 2)  # the 10th record makes a snapshot
    os.replace(tmp_path / "t1.log", tmp_path / "x")
    (tmp_path / "t1.log").write_bytes(old_log)
    again = SaveStore(tmp_path).open("t1")
    assert again.save.log == log and again.recovery.dropped is None


def test_a_bad_snapshot_is_reported_and_left_alone(tmp_path):
    store = SaveStore(tmp_path)
    _, g, t = start(store, "good")
    step(t, g, bots_for(4, 0), 5)
    (tmp_path / "bad.save").write_bytes(b"CTDLSAVE\x00\x01garbage")
    (tmp_path / "empty.save").write_bytes(b"")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file() and p.name != "good.log"}
    tables, problems = SaveStore(tmp_path).resume_all()
    assert [x.id for x in tables] == ["good"]
    assert len(problems) == 2 and all("\n" not in p for p in problems)
    assert any("bad.save" in p and "truncated" in p for p in problems)
    assert any("empty.save" in p and "empty" in p for p in problems)
    for name in ("bad.save", "empty.save"):
        assert (tmp_path / name).read_bytes() == before[name]


def test_interrupted_finish_is_cleaned_up(tmp_path):
    store = SaveStore(tmp_path)
    _, g, t = start(store)
    step(t, g, bots_for(4, 0), 20)
    active = (tmp_path / "t1.save").read_bytes(), log_bytes(tmp_path)
    step(t, g, bots_for(4, 0), 100_000)
    (tmp_path / "t1.save").write_bytes(active[0])  # as if the crash came before the unlinks
    (tmp_path / "t1.log").write_bytes(active[1])
    (tmp_path / ".t1.save.tmp").write_bytes(b"half")
    assert store.unfinished() == []
    tables, problems = store.resume_all()
    assert tables == [] and problems == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["finished"]


def test_export_and_adopt(tmp_path):
    store = SaveStore(tmp_path / "saves")
    cfg, g, t = start(store)
    log = step(t, g, bots_for(4, 0), 33)
    store.export(t, tmp_path / "my game.save")
    loaded = read_save_file(tmp_path / "my game.save")
    assert loaded.log == log
    with pytest.raises(PersistenceError):
        store.adopt(loaded)  # "t1" is taken
    t2 = store.adopt(loaded, "copy")
    more = step(t2, t2.state, bots_for(4, 5), 10)
    assert SaveStore(tmp_path / "saves").open("copy").save.log == log + more
    step(t, g, bots_for(4, 0), 100_000)
    with pytest.raises(SaveError, match="over"):
        store.adopt(store.read_finished("t1"), "again")


def test_record_refuses_a_missed_or_doubled_command(tmp_path):
    store = SaveStore(tmp_path)
    _, g, t = start(store)
    bots = bots_for(4, 0)
    c1 = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
    apply(g, c1)
    c2 = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
    apply(g, c2)
    with pytest.raises(ValueError, match="exactly once"):
        t.record(c2, g)  # c1 was never recorded
    assert t.save.log == []


def test_table_ids_are_checked(tmp_path):
    store = SaveStore(tmp_path)
    cfg = first_game(4)
    g, _ = new_game(cfg)
    for bad in ["", "../x", "a/b", ".hidden", "x" * 65, "é"]:
        with pytest.raises(ValueError):
            store.create(bad, cfg, seats_for(cfg), g)


# -- failures: the game goes on in memory -----------------------------------------------------------------


def test_unwritable_folder_is_reported_and_the_game_goes_on(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the saves folder should be")
    store = SaveStore(blocker / "saves")
    cfg = first_game(4)
    g, _ = new_game(cfg)
    table = store.create("t1", cfg, seats_for(cfg), g)
    assert table.problem is not None and not table.problem.ok
    assert "cannot be saved" in table.problem.message and "goes on" in table.problem.message
    assert "Not a directory" in table.problem.detail and "t1" in table.problem.detail
    bots = bots_for(4, 0)
    notices = []
    while g.phase != "over":
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        notices.append(table.record(cmd, g))
    assert g.phase == "over" and len(table.save.log) == g.seq  # the whole game was played, in memory
    assert notices == [None] * len(notices)  # reported once, not at every command
    assert not table.healthy


def test_full_disk_is_reported_then_saving_resumes(tmp_path, monkeypatch):
    store = SaveStore(tmp_path, snapshot_every=1000)
    _, g, table = start(store)
    bots = bots_for(4, 0)
    log = step(table, g, bots, 10)

    real_write = os.write

    def full(fd, data):
        real_write(fd, bytes(data)[:3])  # a torn record, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(persistence.os, "write", full)
    got = []
    for _ in range(5):
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        log.append(cmd)
        got.append(table.record(cmd, g))
    assert got[0] is not None and not got[0].ok and "full" in got[0].message
    assert "No space left" in got[0].detail
    assert got[1:] == [None] * 4
    # meanwhile a crash would recover the last saved command and nothing torn
    assert SaveStore(tmp_path).open("t1").save.log == log[:10]
    monkeypatch.setattr(persistence.os, "write", real_write)
    cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
    apply(g, cmd)
    log.append(cmd)
    back = table.record(cmd, g)
    assert back is not None and back.ok and table.healthy
    log += step(table, g, bots, 5)
    again = SaveStore(tmp_path).open("t1")
    assert again.save.log == log and encode(again.state) == encode(g)


def test_fdatasync_failure_is_reported(tmp_path, monkeypatch):
    store = SaveStore(tmp_path)
    _, g, table = start(store)
    bots = bots_for(4, 0)
    step(table, g, bots, 3)

    def eio(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(persistence.os, "fdatasync", eio)
    cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
    apply(g, cmd)
    n = table.record(cmd, g)
    assert n is not None and not n.ok and "not writable" in n.message


def test_save_file_tools(tmp_path):
    store = SaveStore(tmp_path)
    cfg, g, t = start(store)
    step(t, g, bots_for(4, 0), 10)
    s = read_save_file(tmp_path / "t1.save")
    assert len(s.log) == 0  # the snapshot; the 10 commands are in the log
    assert loads(dumps(s)).id == "t1"
    with pytest.raises(SaveError, match="cannot read"):
        read_save_file(tmp_path / "missing.save")
    with pytest.raises(SaveError, match="cannot read"):
        read_save_file(tmp_path)  # a folder


def test_one_server_per_folder(tmp_path):
    a, b = SaveStore(tmp_path), SaveStore(tmp_path)
    a.lock()
    with pytest.raises(PersistenceError, match="in use"):
        b.lock()
    a.unlock()
    b.lock()
    b.unlock()


async def test_arecord_keeps_the_event_loop_free(tmp_path):
    import asyncio

    store = SaveStore(tmp_path, snapshot_every=15)
    cfg, g, table = start(store)
    bots = bots_for(4, 0)
    ticks = 0
    stop = False

    async def ticker():
        nonlocal ticks
        while not stop:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    log = []
    for _ in range(60):
        cmd = bots[g.pending.seat].choose(legal_commands(g, g.pending.seat))
        apply(g, cmd)
        log.append(cmd)
        assert await table.arecord(cmd, g) is None
    stop = True
    await task
    assert ticks >= 60  # the loop ran other tasks while the disk worked
    assert SaveStore(tmp_path).open("t1").save.log == log
