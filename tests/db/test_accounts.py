"""Accounts on both backends: a key makes a player once; names are claimed once whatever their case
(two sessions racing for one name: one wins); keys are added with a one-time code and removed,
never the last one."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from server.players.accounts import KEY_CODE_TTL, AccountError

from .games import record, seat_players


def test_a_key_makes_its_player_once(store):
    a = store.player_for_key("SHA256:aaa", "ssh-ed25519")
    again = store.player_for_key("SHA256:aaa")
    other = store.player_for_key("SHA256:bbb")
    assert a.id == again.id != other.id
    assert a.kind == "person" and a.name is None
    assert [k.fingerprint for k in store.keys_of(a.id)] == ["SHA256:aaa"]
    assert store.keys_of(a.id)[0].label == "ssh-ed25519"


def test_names_are_unique_whatever_their_case(store):
    ana = store.player_for_key("SHA256:ana")
    other = store.player_for_key("SHA256:other")
    assert store.claim_name(ana.id, "  Ana \t Lucía\x07 ") == "Ana Lucía"
    for taken in ("ana lucía", "ANA LUCÍA", "Ａｎａ Lucía"):  # full-width letters are the same name
        with pytest.raises(AccountError, match="taken"):
            store.claim_name(other.id, taken)
    assert store.get_player(other.id).name is None  # a refusal changes nothing
    assert store.find_player("ana LUCÍA").id == ana.id
    # The owner may change the case of their own name, or take another and free the first.
    assert store.claim_name(ana.id, "ANA LUCÍA") == "ANA LUCÍA"
    store.claim_name(ana.id, "Ana")
    assert store.claim_name(other.id, "ana lucía") == "ana lucía"


@pytest.mark.parametrize("bad", ["", "   ", "\x1b\x07\t", "!!!", "\u200b"])
def test_a_name_needs_a_letter_or_digit(store, bad):
    p = store.player_for_key("SHA256:p")
    with pytest.raises(AccountError, match="at least one letter or digit"):
        store.claim_name(p.id, bad)


def test_a_long_name_is_cut(store):
    p = store.player_for_key("SHA256:p")
    assert store.claim_name(p.id, "x" * 100) == "x" * 20


def test_two_sessions_claiming_one_name_at_once_one_wins(backend):
    stores = [backend.open(), backend.open()]  # two sessions, each its own connections
    for round_ in range(5):
        ids = [s.player_for_key(f"SHA256:racer{round_}-{i}").id for i, s in enumerate(stores)]
        barrier = threading.Barrier(2)
        results: list = [None, None]

        def claim(i: int) -> None:
            barrier.wait()
            try:
                results[i] = stores[i].claim_name(ids[i], f"Racer {round_}")
            except AccountError as e:
                results[i] = e

        threads = [threading.Thread(target=claim, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        won = [r for r in results if isinstance(r, str)]
        lost = [r for r in results if isinstance(r, AccountError)]
        assert len(won) == 1 and len(lost) == 1, results
        assert "taken" in str(lost[0])
        winner = stores[0].find_player(f"racer {round_}")
        assert winner.id in ids and winner.name == f"Racer {round_}"


def test_a_second_key_joins_with_a_one_time_code(store):
    ana = store.player_for_key("SHA256:laptop")
    store.claim_name(ana.id, "Ana")
    code = store.new_key_code(ana.id)
    assert len(code) == 9 and code[4] == "-"
    # The new key's first connection made an empty player of its own; the code folds it in.
    fresh = store.player_for_key("SHA256:phone")
    assert fresh.id != ana.id
    assert store.add_key_with_code(code.lower().replace("-", " "), "SHA256:phone", "ssh-rsa") == ana.id
    assert store.player_for_key("SHA256:phone").id == ana.id
    assert store.get_player(fresh.id) is None
    assert sorted(k.fingerprint for k in store.keys_of(ana.id)) == ["SHA256:laptop", "SHA256:phone"]
    # A code works once.
    with pytest.raises(AccountError, match="wrong or has expired"):
        store.add_key_with_code(code, "SHA256:tablet")
    assert store.find_player("Ana").id == ana.id


def test_a_wrong_expired_or_replaced_code_adds_nothing(backend):
    store = backend.open()
    ana = store.player_for_key("SHA256:ana")
    with pytest.raises(AccountError, match="wrong or has expired"):
        store.add_key_with_code("ABCD-EFGH", "SHA256:new")
    old = store.new_key_code(ana.id)
    newer = store.new_key_code(ana.id)
    with pytest.raises(AccountError):
        store.add_key_with_code(old, "SHA256:new")  # the newer code replaced it
    later = backend.open()
    later.clock = lambda: store.clock() + KEY_CODE_TTL + timedelta(seconds=1)
    with pytest.raises(AccountError, match="expired"):
        later.add_key_with_code(newer, "SHA256:new")
    assert [k.fingerprint for k in store.keys_of(ana.id)] == ["SHA256:ana"]
    assert store.player_for_key("SHA256:new").id != ana.id


def test_a_key_of_a_player_with_a_name_or_games_does_not_move(store):
    ana = store.player_for_key("SHA256:ana")
    ben = store.player_for_key("SHA256:ben")
    store.claim_name(ben.id, "Ben")
    with pytest.raises(AccountError, match="already belongs"):
        store.add_key_with_code(store.new_key_code(ana.id), "SHA256:ben")
    cid = store.player_for_key("SHA256:cid")  # no name, but a game
    store.record_game(record("g1", seat_players(1, [cid.id, None]), seed=1))
    with pytest.raises(AccountError, match="already belongs"):
        store.add_key_with_code(store.new_key_code(ana.id), "SHA256:cid")
    assert store.player_for_key("SHA256:ben").id == ben.id
    assert store.player_for_key("SHA256:cid").id == cid.id
    # Adding a key the player already has is no change.
    assert store.add_key_with_code(store.new_key_code(ana.id), "SHA256:ana") == ana.id
    assert len(store.keys_of(ana.id)) == 1


def test_keys_are_removed_but_never_the_last(store):
    ana = store.player_for_key("SHA256:one")
    store.add_key_with_code(store.new_key_code(ana.id), "SHA256:two")
    other = store.player_for_key("SHA256:other")
    with pytest.raises(AccountError, match="no such key"):
        store.remove_key(ana.id, "SHA256:other")
    with pytest.raises(AccountError, match="no such key"):
        store.remove_key(other.id, "SHA256:one")
    store.remove_key(ana.id, "SHA256:one")
    assert [k.fingerprint for k in store.keys_of(ana.id)] == ["SHA256:two"]
    with pytest.raises(AccountError, match="only key"):
        store.remove_key(ana.id, "SHA256:two")
    # The removed key is a stranger now: its next connection makes a new player.
    assert store.player_for_key("SHA256:one").id not in (ana.id, other.id)


def test_two_sessions_removing_the_last_two_keys_at_once_leave_one(backend):
    stores = [backend.open(), backend.open()]
    for round_ in range(3):
        pid = stores[0].player_for_key(f"SHA256:k{round_}a").id
        stores[0].add_key_with_code(stores[0].new_key_code(pid), f"SHA256:k{round_}b")
        barrier = threading.Barrier(2)
        errors: list = []

        def remove(i: int, fp: str) -> None:
            barrier.wait()
            try:
                stores[i].remove_key(pid, fp)
            except AccountError as e:
                errors.append(e)

        threads = [threading.Thread(target=remove, args=(i, f"SHA256:k{round_}{x}")) for i, x in enumerate("ab")]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert len(stores[0].keys_of(pid)) == 1
        assert len(errors) == 1 and "only key" in str(errors[0])


def test_one_key_connecting_twice_at_once_makes_one_player(backend):
    stores = [backend.open(), backend.open()]
    barrier = threading.Barrier(2)
    got: list = [None, None]

    def connect(i: int) -> None:
        barrier.wait()
        got[i] = stores[i].player_for_key("SHA256:twice")

    threads = [threading.Thread(target=connect, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert got[0].id == got[1].id


def test_bot_levels_are_players_found_by_level(bot_store):
    ids = [None, None]
    rec = record("bots", ids, seed=1, bots=["hard", "random"])
    bot_store.record_game(rec)
    hard = bot_store.find_player("HARD")
    assert hard.kind == "bot" and hard.bot_kind == "hard" and hard.name == "hard"
    # A person may be called "hard" too; the name finds the person first.
    p = bot_store.player_for_key("SHA256:p")
    bot_store.claim_name(p.id, "Hard")
    assert bot_store.find_player("hard").id == p.id
