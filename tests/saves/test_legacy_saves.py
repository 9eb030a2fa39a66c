"""Saves of format 1 (card state in `flags` and `Turn.extra`, before cards kept typed state) still load.

The fixtures in legacy_v1/ were written by the engine of that format at moments when each kind of
card state was live (see legacy_v1/make_fixtures.py); expected.json holds that engine's fingerprint
of each position: every seat's view and a seeded continuation to the end. Loading falls back to
replaying the log, and the position must behave exactly as it did.
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import msgspec
import pytest

from engine.savefile import FORMAT_VERSION, HEADER, MAGIC, SaveError, dumps, loads, loads_json

from .legacy_v1.fingerprint import fingerprint

HERE = Path(__file__).parent / "legacy_v1"
EXPECTED: dict[str, str] = json.loads((HERE / "expected.json").read_text())


def test_fixtures_are_there() -> None:
    assert len(EXPECTED) >= 40
    assert sorted(EXPECTED) == sorted(p.name for p in HERE.glob("v1-*.json"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_format_1_save_loads_to_the_same_position(name: str) -> None:
    data = (HERE / name).read_bytes()
    assert json.loads(data)["version"] == 1
    save = loads_json(data)  # checked: replayed, and the snapshot agrees with the replay
    assert save.version == FORMAT_VERSION
    again = loads(dumps(save))  # saved again, it is a current save
    assert again.state == save.state
    assert fingerprint(save.state) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED)[:8])
def test_unchecked_load_replays_too(name: str) -> None:
    save = loads_json((HERE / name).read_bytes(), check=False)
    assert save.version == FORMAT_VERSION
    assert fingerprint(save.state) == EXPECTED[name]


def test_edited_format_1_snapshot_is_refused() -> None:
    name = next(n for n in sorted(EXPECTED) if "warrants" in n)
    doc = json.loads((HERE / name).read_bytes())
    doc["state"]["players"][0]["gold"] += 5
    with pytest.raises(SaveError, match="does not reproduce"):
        loads_json(msgspec.json.encode(doc))
    loads_json(msgspec.json.encode(doc), check=False)  # unchecked: the log is the truth


def test_format_1_binary_save_loads() -> None:
    name = sorted(EXPECTED)[0]
    body = msgspec.msgpack.encode(json.loads((HERE / name).read_bytes()))
    data = HEADER.pack(MAGIC, 1, 0, len(body), zlib.crc32(body)) + body
    assert fingerprint(loads(data).state) == EXPECTED[name]
