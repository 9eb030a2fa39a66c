"""The save records which commands a bot chose in a person's stead (`Seat.bot_played`, the log's
`LogEntry.bot`): kept through the log, recovery, seat changes and exports; absent from the bytes of a
save that has none (older saves read as they always did); checked on load; shown by the replay."""

from __future__ import annotations

import msgspec
import pytest

from engine import apply, legal_commands, new_game
from engine.savefile import SaveError, Seat, bot_played, dumps, loads, to_json
from server.storage.persistence import SaveStore
from server.storage.savelog import LogEntry, read_log
from ui.i18n import Catalogue
from ui.replay import Replay

from .games import T0, bots_for, first_game, seats_for


def play(table, g, bots, k, stand_in_seat: int | None = None) -> list[int]:
    """Apply and record k commands; those of `stand_in_seat` as a bot's in the person's stead.
    Returns the positions (1-based) recorded as a bot's."""
    marked = []
    for _ in range(k):
        if g.phase == "over":
            break
        seat = g.pending.seat
        cmd = bots[seat].choose(legal_commands(g, seat))
        apply(g, cmd)
        stand_in = seat == stand_in_seat
        assert table.record(cmd, g, stand_in=stand_in) is None
        if stand_in:
            marked.append(g.seq)
    return marked


def start(tmp_path, snapshot_every=20):
    store = SaveStore(tmp_path, snapshot_every=snapshot_every)
    cfg = first_game(4, seed=5)
    g, _ = new_game(cfg)
    return store, g, store.create("t1", cfg, seats_for(cfg), g, now=T0)


def test_a_save_without_bot_moves_has_the_bytes_it_always_had():
    seat = Seat(name="Ana", key="SHA256:x")
    assert msgspec.msgpack.encode(seat) == msgspec.msgpack.encode({"name": "Ana", "key": "SHA256:x"})
    assert b"bot_played" not in msgspec.json.encode(seat)
    # and a seat written before the field existed reads with no marks
    assert msgspec.msgpack.decode(msgspec.msgpack.encode({"name": "Ana"}), type=Seat).bot_played == []


def test_log_records_of_three_elements_read_as_a_persons_move():
    old = msgspec.msgpack.encode(["cmd", 1, {"type": "end_turn", "seat": 0}, "2026-01-02T03:04:05Z"])
    rec = msgspec.msgpack.decode(old, type=LogEntry)
    assert rec.bot is False


def test_marks_survive_the_log_recovery_and_a_fresh_snapshot(tmp_path):
    store, g, table = start(tmp_path)
    bots = bots_for(4, 1)
    marked = play(table, g, bots, 35, stand_in_seat=2)
    assert marked and table.save.seats[2].bot_played == marked
    assert all(table.save.log[n - 1].seat == 2 for n in marked)
    # the log on disk carries the marks of the records since the last snapshot
    _base, entries, problem = read_log(store.log_path("t1").read_bytes(), "t1")
    assert problem is None and any(e.bot for e in entries)
    # reopened as after a crash (no close): snapshot + log give the same marks
    again = SaveStore(tmp_path, snapshot_every=20).open("t1")
    assert again.save.seats[2].bot_played == marked
    assert [s.bot_played for i, s in enumerate(again.save.seats) if i != 2] == [[], [], []]
    assert bot_played(again.save) == set(marked)


def test_seat_changes_keep_the_marks(tmp_path):
    store, g, table = start(tmp_path)
    marked = play(table, g, bots_for(4, 2), 20, stand_in_seat=1)
    seats = [Seat(name=s.name, key=s.key, bot=s.bot) for s in table.save.seats]
    seats[1] = Seat(name=seats[1].name, bot="normal")  # the person is replaced by a bot for good
    table.set_seats(seats)
    assert table.save.seats[1].bot == "normal" and table.save.seats[1].bot_played == marked
    assert loads(dumps(table.save)).seats[1].bot_played == marked


def test_exports_carry_the_marks_and_loading_checks_them(tmp_path):
    store, g, table = start(tmp_path)
    marked = play(table, g, bots_for(4, 3), 30, stand_in_seat=0)
    data = dumps(table.save)
    assert loads(data).seats[0].bot_played == marked
    assert b'"bot_played"' in to_json(table.save)
    # a mark on another seat's command, past the log's end, or out of order: refused, one line
    other = next(n for n, c in enumerate(table.save.log, 1) if c.seat != 1)
    for bad in ([other], [len(table.save.log) + 1], [0]):
        broken = msgspec.structs.replace(table.save, seats=list(table.save.seats))
        broken.seats[1] = msgspec.structs.replace(broken.seats[1], bot_played=bad)
        with pytest.raises(SaveError, match="as a bot's for seat 2"):
            loads(dumps(broken))
    if len(marked) >= 2:
        broken = msgspec.structs.replace(table.save, seats=list(table.save.seats))
        broken.seats[0] = msgspec.structs.replace(broken.seats[0], bot_played=[marked[1], marked[0]])
        with pytest.raises(SaveError, match="as a bot's"):
            loads(dumps(broken))


def test_the_replay_tags_the_moves_a_bot_made_for_a_person(tmp_path):
    store, g, table = start(tmp_path)
    marked = play(table, g, bots_for(4, 4), 40, stand_in_seat=3)
    replay = Replay(loads(dumps(table.save)))
    cat = Catalogue("en")
    frame = replay.frame(replay.total, 3, cat)
    tagged = [r for r in frame.rows if r.tag.startswith("[bot]")]
    assert tagged, "the bot's moves for the person are tagged"
    # only rows of the marked steps are tagged: the events of the bot's seat, not the flow's that followed
    for p in range(1, replay.total + 1):
        rows = replay.frame(p, 3, cat).new_rows
        events = replay.events(p)
        want = [p in marked and ev.seat == 3 and ev.kind != "called" for ev in events]
        assert [r.tag.startswith("[bot]") for r in rows] == want, p
        if p in marked:
            assert any(want), p
