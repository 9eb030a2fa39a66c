"""Names in NATS: valid for subjects, streams and buckets, one namespace apart from another,
and seat tokens that cannot be derived from public data."""

from __future__ import annotations

import re

import pytest

from server.cluster.subjects import BadName, Names, key_id, seat_token

SECRET = bytes(range(32))
SUBJECT_TOKEN = re.compile(r"[^.*>\s]+\Z")


def test_every_name_is_valid_and_namespaced() -> None:
    names = Names("prod")
    token = seat_token(SECRET, "t1", 0, "SHA256:k")
    subjects = [
        names.log_subject("t1"),
        names.seat_commands("t1", token),
        names.seat_updates("t1", token),
        names.table_public("t1"),
        names.table_control("t1"),
        names.node_control("node-1"),
    ]
    for subject in subjects:
        assert subject.startswith("prod.") and all(SUBJECT_TOKEN.match(part) for part in subject.split("."))
    for stream in (
        names.log_stream,
        names.owners_bucket,
        names.nodes_bucket,
        names.tables_bucket,
        names.identity_bucket,
    ):
        assert re.fullmatch(r"[a-z0-9_-]+", stream) and stream.startswith("prod_")
    assert Names("prod").log_subject("t1") != Names("staging").log_subject("t1")


def test_bad_names_are_refused() -> None:
    for bad in ("", "a.b", "a b", "*", ">", "x" * 65, "-lead"):
        with pytest.raises(BadName):
            Names().log_subject(bad)
    for bad in ("Upper", "with.dot", "", "a" * 33):
        with pytest.raises(BadName):
            Names(bad)
    with pytest.raises(BadName):
        Names().seat_updates("t1", "guessable")
    with pytest.raises(BadName):
        Names().code_key("ab.c")


def test_seat_tokens_depend_on_the_secret_and_every_part() -> None:
    base = seat_token(SECRET, "t1", 2, "SHA256:alice")
    assert len(base) == 22 and SUBJECT_TOKEN.match(base)
    assert seat_token(SECRET, "t1", 2, "SHA256:alice") == base  # every node computes the same
    others = {
        seat_token(bytes(32), "t1", 2, "SHA256:alice"),  # another cluster's secret
        seat_token(SECRET, "t2", 2, "SHA256:alice"),
        seat_token(SECRET, "t1", 3, "SHA256:alice"),
        seat_token(SECRET, "t1", 2, "SHA256:bob"),  # the seat changed hands
    }
    assert base not in others and len(others) == 4
    # Separators cannot be shifted to forge another seat's token.
    assert seat_token(SECRET, "t1", 21, "x") != seat_token(SECRET, "t12", 1, "x")
    with pytest.raises(ValueError, match="secret"):
        seat_token(b"short", "t1", 0, "x")


def test_key_ids_are_stable_and_valid_keys() -> None:
    fingerprint = "SHA256:AbC+d/ef0123=="
    assert key_id(fingerprint) == key_id(fingerprint) != key_id(fingerprint + "x")
    assert re.fullmatch(r"[0-9a-f]{40}", key_id(fingerprint))
    assert Names.seat_binding_key(fingerprint) == f"seat.{key_id(fingerprint)}"
