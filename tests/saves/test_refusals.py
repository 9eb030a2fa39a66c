"""Files that are not usable saves are refused with one clear line, whatever they hold."""

from __future__ import annotations

import struct
import time
import zlib

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_tiers import examples

from engine.savefile import (
    FORMAT_VERSION,
    HEADER,
    MAGIC,
    MAX_SAVE_BYTES,
    Save,
    SaveError,
    dumps,
    loads,
    loads_json,
    new_save,
    replay,
    to_json,
)

from .games import T0, first_game, game_save

SAVE = game_save(first_game(4, seed=11), stop=150)
DATA = dumps(SAVE)
OTHER = game_save(first_game(4, seed=12), stop=150)


def refused(data: bytes, *words: str) -> str:
    with pytest.raises(SaveError) as e:
        loads(data)
    msg = str(e.value)
    assert "\n" not in msg and msg, msg
    for w in words:
        assert w in msg, msg
    return msg


def with_body(body: bytes, version: int = FORMAT_VERSION) -> bytes:
    return HEADER.pack(MAGIC, version, 0, len(body), zlib.crc32(body)) + body


def body_dict() -> dict:
    return msgspec.msgpack.decode(DATA[HEADER.size :])


def rebuilt(d: dict, splice: tuple[str, bytes] | None = None) -> bytes:
    body = msgspec.msgpack.encode(d)
    if splice:
        marker, raw = splice
        packed = msgspec.msgpack.encode(marker)
        assert body.count(packed) == 1
        body = body.replace(packed, raw)
    return with_body(body)


def test_the_reference_save_loads():
    assert loads(DATA).log == SAVE.log


def test_empty():
    refused(b"", "empty")


@pytest.mark.parametrize("cut", [1, 7, 8, 19, 20, 21, 100, len(DATA) // 2, len(DATA) - 1])
def test_truncated(cut):
    refused(DATA[:cut], "truncated")


def test_every_truncation_is_refused():
    for cut in range(0, len(DATA), 97):
        with pytest.raises(SaveError):
            loads(DATA[:cut])


def test_trailing_garbage():
    refused(DATA + b"x", "corrupt")


@pytest.mark.parametrize("pos", [HEADER.size, HEADER.size + 100, len(DATA) // 2, len(DATA) - 1])
def test_corrupt_byte(pos):
    bad = bytearray(DATA)
    bad[pos] ^= 0x40
    refused(bytes(bad), "corrupt", "checksum")


def test_not_a_save():
    refused(b"hello, this is a text file that is long enough", "not a Citadels save")
    refused(b"\x89PNG\r\n\x1a\n" + bytes(100), "not a Citadels save")
    refused(msgspec.msgpack.encode(SAVE), "not a Citadels save")  # a bare body without header
    refused(to_json(SAVE), "JSON")


def test_newer_version_says_update():
    bad = bytearray(DATA)
    struct.pack_into(">H", bad, 8, FORMAT_VERSION + 1)
    refused(bytes(bad), "newer", "update citadels")


def test_version_zero_is_corrupt():
    bad = bytearray(DATA)
    struct.pack_into(">H", bad, 8, 0)
    refused(bytes(bad), "never existed")


def test_body_version_disagrees_with_header():
    d = body_dict()
    d["version"] = 99
    refused(rebuilt(d), "format version 99")


def test_too_large_is_refused_before_decoding():
    t = time.perf_counter()
    refused(DATA + bytes(MAX_SAVE_BYTES), "more than")
    big_claim = bytearray(DATA)
    struct.pack_into(">I", big_claim, 12, 2**32 - 1)
    refused(bytes(big_claim), "more than")
    assert time.perf_counter() - t < 1.0


def test_deep_nesting():
    d = body_dict()
    d["state"]["selection"]["steps"] = "@@DEEP@@"
    refused(rebuilt(d, ("@@DEEP@@", b"\x91" * 200_000 + b"\xc0")), "nested too deeply")


@pytest.mark.parametrize(
    "raw",
    [
        b"\xdd\xff\xff\xff\xff",  # array of 4 billion
        b"\xdf\xff\xff\xff\xff",  # map of 4 billion
        b"\xdb\xff\xff\xff\xffabc",  # string of 4 GB
        b"\xc6\xff\xff\xff\xff",  # bin of 4 GB
    ],
)
def test_huge_length_prefixes(raw):
    d = body_dict()
    d["log"] = "@@HUGE@@"
    t = time.perf_counter()
    refused(rebuilt(d, ("@@HUGE@@", raw)), "the save")
    assert time.perf_counter() - t < 1.0


@pytest.mark.parametrize(
    "path,value,word",
    [
        (("config", "seed"), "twelve", "Expected `int`"),
        (("config", "players"), 4, "Expected `array`"),
        (("seats",), [{"name": 3}], "Expected `str`"),
        (("log",), [{"type": "launch_missiles", "seat": 0}], "Invalid value 'launch_missiles'"),
        (("log",), [{"type": "pick", "seat": "zero", "character": "King"}], "Expected `int`"),
        (("state", "players"), None, "Expected `array`"),
        (("state", "rng"), -1.5, "Expected `int`"),
        (("created",), "yesterday", "Invalid"),
        (("created",), "2026-01-01T00:00:00", "timezone"),  # a naive time
        (("unknown_field",), 1, "unknown field"),
        (("seats",), [{"name": "Ana"}] * 9, "length"),
    ],
)
def test_wrong_types(path, value, word):
    d = body_dict()
    at = d
    for k in path[:-1]:
        at = at[k]
    at[path[-1]] = value
    msg = refused(rebuilt(d), "not valid")
    assert word.lower() in msg.lower(), msg


def test_missing_field():
    d = body_dict()
    del d["state"]
    refused(rebuilt(d), "missing required field")


# -- from another game ------------------------------------------------------------------------------------


def test_log_from_another_game():
    d = body_dict()
    d["log"] = body_dict_of(OTHER)["log"]
    refused(rebuilt(d), "another game")


def test_state_from_another_game():
    d = body_dict()
    d["state"] = body_dict_of(OTHER)["state"]
    refused(rebuilt(d), "another game")


def test_config_with_another_seed():
    d = body_dict()
    d["config"]["seed"] = 12345
    refused(rebuilt(d), "another game")


def test_seats_of_another_table():
    d = body_dict()
    d["seats"] = [{"name": n} for n in ["W", "X", "Y", "Z"]]
    refused(rebuilt(d), "another game")


def test_log_shorter_than_state():
    d = body_dict()
    d["log"] = d["log"][:-1]
    refused(rebuilt(d), "log has 149")


def test_finished_flag_lies():
    d = body_dict()
    d["finished"] = True
    refused(rebuilt(d), "finished flag")


def test_impossible_config():
    d = body_dict()
    d["config"]["preset"] = "no-such-preset"
    refused(rebuilt(d), "cannot be set up")


def test_edited_state_is_caught_by_the_replay():
    d = body_dict()
    d["state"]["players"][0]["gold"] += 50
    refused(rebuilt(d), "does not reproduce", "players")


def test_check_false_skips_only_the_replay():
    d = body_dict()
    d["state"]["players"][0]["gold"] += 50
    assert loads(rebuilt(d), check=False).state.players[0].gold == SAVE.state.players[0].gold + 50
    d["log"] = d["log"][:-1]
    with pytest.raises(SaveError):
        loads(rebuilt(d), check=False)  # consistency checks still run


def test_json_refusals():
    for data, word in [
        (b"", "empty"),
        (b"{", "cannot be decoded"),
        (b"[]", "not valid"),
        (b"[" * 100_000, "not valid"),
        (to_json(SAVE)[:-30], "cannot be decoded"),
        (to_json(SAVE, indent=0).replace(b'"steps":[', b'"steps":[' + b"[" * 100_000), "too deeply"),
    ]:
        with pytest.raises(SaveError) as e:
            loads_json(data)
        assert word in str(e.value) and "\n" not in str(e.value)


@settings(max_examples=examples(300), deadline=None)
@given(st.data())
def test_any_mutation_is_a_save_or_a_save_error(data):
    """Hostile edits with a correct checksum: the loader either refuses with SaveError or returns a save
    whose replay reproduces its state (an edited timestamp or key is still a valid save)."""
    body = bytearray(DATA[HEADER.size :])
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(body) - 1))
        body[pos] = data.draw(st.integers(0, 255))
    if data.draw(st.booleans()):
        cut = data.draw(st.integers(0, len(body)))
        body = body[:cut]
    try:
        save = loads(with_body(bytes(body)))
    except SaveError as e:
        assert "\n" not in str(e)
    else:
        assert isinstance(save, Save) and save.state.seq == len(save.log)


def body_dict_of(save) -> dict:
    return msgspec.msgpack.decode(dumps(save)[HEADER.size :])


def test_naive_timestamps_are_refused_when_saving():
    import datetime

    s = new_save("t", SAVE.config, SAVE.seats, SAVE.state, SAVE.log, created=datetime.datetime(2026, 1, 1))
    with pytest.raises(ValueError):
        dumps(s)
    assert T0.tzinfo is not None


def test_a_hostile_name_in_an_illegal_command_is_reported_on_one_line():
    """Found by the mutation test above: a byte of a character's name turned into a newline made the
    refusal (which names the command's character) two lines."""
    save = loads(DATA)
    at = next(i for i, c in enumerate(save.log) if isinstance(getattr(c, "name", None), str))
    bad = msgspec.structs.replace(save.log[at], name="M\nagi\x1b[2Jcian")
    save.log[at] = bad
    with pytest.raises(SaveError) as refused:
        replay(save)
    assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)
    assert "M\\nagi\\x1b[2Jcian" in str(refused.value)
