"""Hidden information on the cluster's subjects: a test that reads every message NATS carries for a
table (real node processes, players on a node that does not own the table) and checks what one
seat's subjects carry: its own view and its own commands, never another seat's hidden cards."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import msgspec
import pytest

from engine import view as engine_view
from server.cluster import wire
from server.cluster.subjects import seat_token
from server.tables import messages as tm

from .harness import GameFollower, Player, loaded_table
from .playing import play_to_end


class Tap:
    """Every message on the namespace's table and node subjects, in the order NATS delivered them."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, bytes]] = []

    async def take(self, msg: Any) -> None:
        self.messages.append((msg.subject, bytes(msg.data)))

    def on(self, subject: str) -> list[bytes]:
        return [data for s, data in self.messages if s == subject]


def _known_to(follower: GameFollower, seat: int, upto: int) -> set[str]:
    """The card names `seat` had been shown by command `upto`: its hands, its draws, every city, and the
    events redacted for it."""
    assert follower.states is not None
    known: set[str] = set()
    for seq in range(upto + 1):
        g = follower.states.get(seq)
        if g is None:
            continue
        known.update(g.players[seat].hand)
        if g.turn is not None and g.turn.seat == seat:
            known.update(g.turn.drawn)
        for p in g.players:
            known.update(b.name for b in p.city)
        for ev in follower.redacted(seq, seat):
            known.update(c for c in (ev.district, ev.card, ev.option, *ev.cards) if c)
    return known


def _hidden_from(follower: GameFollower, seat: int, seq: int) -> set[str]:
    """Card names that, after command `seq`, only other hands held and `seat` had never been shown (the
    line-up's unique districts are named in every view: not looked for by name, the view's equality
    with `engine.view` covers them)."""
    assert follower.states is not None
    g = follower.states[seq]
    others = {c for s, p in enumerate(g.players) if s != seat for c in p.hand}
    public = set(engine_view(g, seat).uniques or [])
    return others - _known_to(follower, seat, seq) - public


@pytest.mark.slow  # a whole game on node processes, every seat's subjects read
async def test_a_seats_subjects_carry_its_own_view_and_no_other_seats_hidden_cards(cluster, tmp_path) -> None:
    ana, bob, cara = Player("ana"), Player("bob"), Player("cara")
    (n1, n2), conn, _directory, listing, _f = await loaded_table(cluster, tmp_path, [ana, bob, cara])
    tap = Tap()
    subs = [
        await conn.nc.subscribe(f"{conn.names.namespace}.table.{listing.id}.>", cb=tap.take),
        await conn.nc.subscribe(f"{conn.names.namespace}.node.>", cb=tap.take),
    ]
    follower = await GameFollower.start(conn, listing.id, keep_states=True)
    # everyone plays from node 2: the owner (node 1) sends each seat's views over NATS
    await asyncio.gather(ana.connect(n2.port), bob.connect(n2.port), cara.connect(n2.port))
    for p in (ana, bob, cara):
        await p.wait_for("Round 1")
    await play_to_end(follower, {0: ana, 1: bob, 2: cara}, random.Random(2), stop_at=45)
    await asyncio.sleep(0.5)  # the last views reach the tap
    for sub in subs:
        await sub.unsubscribe()

    secret = conn.subject_secret
    keys = [ana.fingerprint, bob.fingerprint, cara.fingerprint]
    out = [conn.names.seat_updates(listing.id, seat_token(secret, listing.id, i, k)) for i, k in enumerate(keys)]
    cmd = [conn.names.seat_commands(listing.id, seat_token(secret, listing.id, i, k)) for i, k in enumerate(keys)]
    seat = 1  # bob's subjects, everything on them
    views = checks = 0
    for data in tap.on(out[seat]):
        message = wire.to_session.decode(data)
        assert isinstance(message, tm.SeatView | tm.Refused | tm.Chat | tm.Notice | tm.Toast | tm.Presence)
        seq = message.view.seq if isinstance(message, tm.SeatView) else follower.seq
        if isinstance(message, tm.SeatView):
            # exactly the seat's view of the game at that point (engine.view: what a seat may know)
            assert message.view == engine_view(follower.states[seq], seat)
            views += 1
        for name in _hidden_from(follower, seat, seq):
            assert msgspec.msgpack.encode(name) not in data, f"{name!r} (another hand's) on seat {seat}'s subject"
            checks += 1
    for data in tap.on(cmd[seat]):
        play = wire.play.decode(data)
        assert play.command.seat == seat
    assert views > 20, views
    assert checks > 100, f"few hidden cards to look for: the check would prove little ({checks})"

    # nothing else anyone reads carries a seat's view: the control subject and the nodes' inboxes
    others = [(s, d) for s, d in tap.messages if s not in out and s not in cmd]
    assert others, "no calls nor inbox messages seen: the tap missed them"
    for subject, data in others:
        if subject.endswith(".inbox"):
            message: Any = wire.to_front.decode(data)
            assert not isinstance(message, wire.Watched)  # nobody watches this table
        else:
            message = wire.to_owner.decode(data)
        for s in range(3):
            for name in _hidden_from(follower, s, follower.seq):
                assert msgspec.msgpack.encode(name) not in data, f"{name!r} on {subject}"

    # the control: each seat's own subject does carry its own hand (the check above is not vacuous)
    for s in (0, 2):
        own = {c for g in follower.states.values() for c in g.players[s].hand}
        shown = [name for name in own if any(msgspec.msgpack.encode(name) in d for d in tap.on(out[s]))]
        assert len(shown) >= len(own) // 2, (s, shown, own)
    for p in (ana, bob, cara):
        p.close()
    assert n1.proc.returncode is None
