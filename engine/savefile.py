"""Save files: a game as bytes and back. Pure: no file I/O here (see server/storage/persistence.py).

A save holds everything needed to rebuild a game and to check it:

- the format version, the table's id and the caller's timestamps;
- the `GameConfig` (rule set, preset or line-up, unique districts, seed, crown);
- one `Seat` per player: name, SSH key fingerprint (None for a guest or a bot),
  bot kind (None for a person), and the positions in the log of the commands a
  bot chose in the person's stead (`bot_played`: while they were away, out of
  time, or after a bot took their seat for good; absent when none, so a save
  without such moves has the same bytes as before the field existed);
- the command log from the start;
- a snapshot of the current `GameState` (fast loading; checked against a replay);
- a `finished` flag.

Encoding (``dumps``): a 20-byte header then a MessagePack body::

    offset  size  field
    0       8     magic  b"CTDLSAVE"
    8       2     format version, big-endian (FORMAT_VERSION)
    10      2     reserved, zero
    12      4     body length, big-endian
    16      4     CRC-32 of the body, big-endian
    20      n     the `Save` Struct, MessagePack

The header lets a loader say "not a save", "truncated", "corrupt" or "made by a
newer version" before it decodes anything. ``to_json`` gives a readable,
diffable export of the same Struct (``loads_json`` reads it back, with the same
checks).

Loading (``loads``) trusts nothing: a size limit, the header checks, strict
typed decoding (msgspec; deep nesting and lying length prefixes are refused),
consistency checks (seats against the config, snapshot against the log length,
finished flag against the state), then, unless ``check=False``, a replay of
the log from the config with every command validated by the engine, which must
reproduce the snapshot byte for byte. A save whose log does not match its
config or its snapshot ("from another game") is refused. Every refusal is a
`SaveError` with a one-line message; nothing is changed.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Annotated

import msgspec
from msgspec import Meta, Struct, field

from .apply import apply
from .commands import Command
from .errors import IllegalCommand, SetupError
from .events import Event
from .setup import GameConfig, new_game
from .state import GameState
from .state import encode as encode_state

MAGIC = b"CTDLSAVE"
FORMAT_VERSION = 1
HEADER = struct.Struct(">8sHHII")  # magic, version, reserved, body length, crc32
MAX_SAVE_BYTES = 16 * 1024 * 1024  # a real save is a few tens of KB
MAX_COMMANDS = 20_000  # the simulator calls a game this long endless
MAX_SEATS = 8

Timestamp = Annotated[datetime, Meta(tz=True)]


class SaveError(ValueError):
    """A save that cannot be used; the message is one line for a person."""


class Seat(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """Who sits at one seat."""

    name: Annotated[str, Meta(max_length=200)]
    key: Annotated[str, Meta(max_length=200)] | None = None  # SSH key fingerprint ("SHA256:...")
    bot: Annotated[str, Meta(max_length=50)] | None = None  # bot kind ("random", ...), None for a person
    # Positions (1 = the log's first command), increasing, of this seat's commands that a bot chose
    # in the person's stead. A bot's own seat (its name says "(bot)") lists nothing: all its moves are a bot's.
    bot_played: Annotated[list[int], Meta(max_length=MAX_COMMANDS)] = field(default_factory=list)


class Save(Struct, forbid_unknown_fields=True, kw_only=True):
    version: int
    id: Annotated[str, Meta(max_length=200)]  # the table's id
    config: GameConfig
    seats: Annotated[list[Seat], Meta(max_length=MAX_SEATS)]
    log: Annotated[list[Command], Meta(max_length=MAX_COMMANDS)] = field(default_factory=list)
    state: GameState
    finished: bool = False
    created: Timestamp
    updated: Timestamp


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_save(
    table_id: str,
    config: GameConfig,
    seats: list[Seat],
    state: GameState,
    log: list[Command] | None = None,
    *,
    created: datetime,
    updated: datetime | None = None,
) -> Save:
    """A save of `state`, reached from `config` by `log` (a new game: log empty)."""
    return Save(
        version=FORMAT_VERSION,
        id=table_id,
        config=config,
        seats=list(seats),
        log=list(log or []),
        state=state,
        finished=state.phase == "over",
        created=created,
        updated=updated or created,
    )


# -- encoding -------------------------------------------------------------------------------------------

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(Save)
_json_enc = msgspec.json.Encoder()
_json_dec = msgspec.json.Decoder(Save)


def _check_times(save: Save) -> None:
    for t in (save.created, save.updated):
        if t.tzinfo is None:
            raise ValueError("save timestamps must be timezone-aware (use datetime.now(timezone.utc))")


def dumps(save: Save) -> bytes:
    """The save as bytes: header + MessagePack."""
    _check_times(save)
    body = _enc.encode(save)
    return HEADER.pack(MAGIC, FORMAT_VERSION, 0, len(body), zlib.crc32(body)) + body


def to_json(save: Save, indent: int = 2) -> bytes:
    """A readable JSON export (the same Struct; hidden cards included)."""
    _check_times(save)
    data = _json_enc.encode(save)
    return msgspec.json.format(data, indent=indent) if indent else data


# -- loading --------------------------------------------------------------------------------------------


def _describe(e: BaseException) -> str:
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def read_header(data: bytes) -> tuple[int, int]:
    """(format version, body length), or SaveError for anything that is not a complete save."""
    if len(data) == 0:
        raise SaveError("the file is empty: it is not a save (was it created by a crash before any save?)")
    if len(data) > MAX_SAVE_BYTES + HEADER.size:
        raise SaveError(f"the file is {len(data)} bytes, more than the {MAX_SAVE_BYTES} bytes a save may have")
    if len(data) < HEADER.size:
        if MAGIC.startswith(data[: len(MAGIC)]):
            raise SaveError(f"the save is truncated: {len(data)} bytes, shorter than its own header")
        raise SaveError("not a Citadels save (no save header)")
    magic, version, _reserved, length, crc = HEADER.unpack_from(data)
    if magic != MAGIC:
        if data.lstrip()[:1] == b"{":
            raise SaveError("this is JSON, not a save file: read it with loads_json")
        raise SaveError("not a Citadels save (no save header)")
    if version > FORMAT_VERSION:
        raise SaveError(
            f"the save uses format version {version}, newer than this program's {FORMAT_VERSION}: "
            "update citadels to load it"
        )
    if version < 1:
        raise SaveError(f"the save declares format version {version}, which never existed: the file is corrupt")
    if version < FORMAT_VERSION:  # pragma: no cover - no older format exists yet
        raise SaveError(
            f"the save uses format version {version}, older than this program's {FORMAT_VERSION}; "
            f"load it with an older citadels and finish the game there"
        )
    if length > MAX_SAVE_BYTES:
        raise SaveError(f"the save declares a {length}-byte body, more than the {MAX_SAVE_BYTES} bytes allowed")
    have = len(data) - HEADER.size
    if have < length:
        raise SaveError(f"the save is truncated: {have} of {length} bytes")
    if have > length:
        raise SaveError(f"the save has {have - length} unexpected bytes after its end: the file is corrupt")
    if zlib.crc32(memoryview(data)[HEADER.size :]) != crc:
        raise SaveError("the save is corrupt: its checksum does not match its contents")
    return version, length


def _decode_typed(decode, data: bytes | memoryview) -> Save:
    try:
        return decode(data)
    except msgspec.ValidationError as e:
        raise SaveError(f"the save's contents are not valid: {_describe(e)}") from None
    except msgspec.DecodeError as e:
        raise SaveError(f"the save cannot be decoded: {_describe(e)}") from None
    except RecursionError:
        raise SaveError("the save cannot be decoded: it is nested too deeply") from None
    except (MemoryError, OverflowError, ValueError, TypeError) as e:
        raise SaveError(f"the save cannot be decoded: {_describe(e)}") from None


def loads(data: bytes, *, check: bool = True) -> Save:
    """Decode and check a save. `check=True` also replays the log (see `verify`);
    the returned save then holds the replayed state (identical bytes, engine types)."""
    read_header(data)
    save = _decode_typed(_dec.decode, memoryview(data)[HEADER.size :])
    return _checked(save, check)


def loads_json(data: bytes, *, check: bool = True) -> Save:
    """Read a JSON export back, with the same checks as `loads`."""
    if len(data) == 0:
        raise SaveError("the file is empty: it is not a save")
    if len(data) > 4 * MAX_SAVE_BYTES:
        raise SaveError(f"the file is {len(data)} bytes, more than a JSON save may have")
    save = _decode_typed(_json_dec.decode, data)
    return _checked(save, check)


def _checked(save: Save, check: bool) -> Save:
    if save.version != FORMAT_VERSION:
        raise SaveError(
            f"the save's body declares format version {save.version}, not {FORMAT_VERSION}: "
            "the file is corrupt or from another version"
        )
    consistency(save)
    if check:
        save.state = verify(save)
    return save


def consistency(save: Save) -> None:
    """Cheap checks that need no replay; SaveError if the parts of the save disagree."""
    cfg, st = save.config, save.state
    if not 2 <= len(cfg.players) <= MAX_SEATS:
        raise SaveError(f"the save's game has {len(cfg.players)} players; Citadels is for 2 to 8")
    if [s.name for s in save.seats] != list(cfg.players):
        raise SaveError("the save's seats do not match its game's players: the file is from another game or corrupt")
    if [p.name for p in st.players] != list(cfg.players):
        raise SaveError("the save's state has other players than its game: the state is from another game")
    if st.seq != len(save.log):
        raise SaveError(
            f"the save's state is after {st.seq} commands but its log has {len(save.log)}: "
            "the log and the state are from different games or moments"
        )
    if st.rules.name != cfg.rules:
        raise SaveError(f"the save's state uses rules {st.rules.name!r} but its game {cfg.rules!r}: from another game")
    if save.finished != (st.phase == "over"):
        raise SaveError("the save's finished flag disagrees with its state: the file is corrupt")
    for i, seat in enumerate(save.seats):
        last = 0
        for n in seat.bot_played:
            if not last < n <= len(save.log) or getattr(save.log[n - 1], "seat", None) != i:
                raise SaveError(
                    f"the save marks command {n} as a bot's for seat {i + 1}, but the log has no such command "
                    "of that seat there: the file is corrupt"
                )
            last = n


def bot_played(save: Save) -> set[int]:
    """The positions (1-based) of the log's commands that a bot chose in a person's stead."""
    return {n for seat in save.seats for n in seat.bot_played}


def bot_doings(events: list[Event], seat: int) -> list[bool]:
    """Per event of a command a bot chose for `seat`: whether it is the bot's doing (an event of that
    seat), not the flow's that followed (a rank called, another seat's reveal...)."""
    return [ev.seat == seat and ev.kind != "called" for ev in events]


# -- replay ---------------------------------------------------------------------------------------------


def start(save: Save) -> tuple[GameState, list[Event]]:
    """The game as it began: `new_game(save.config)`, or SaveError."""
    try:
        return new_game(save.config)
    except SetupError as e:
        raise SaveError(f"the save's game cannot be set up: {e}") from None
    except Exception as e:  # a hostile config the engine did not expect
        raise SaveError(f"the save's game cannot be set up: {_describe(e)}") from None


def replay_steps(save: Save) -> Iterator[tuple[int, Command, list[Event], GameState]]:
    """Re-run the log from the config: yields (n, command, events, state) after each command n = 1, 2, ...

    `state` is the same live object every time: copy it (engine.copy_state) to keep a position.
    Raises SaveError when a command is refused: the log is not from this game.
    """
    g, _ = start(save)
    yield from _steps(g, save.log)


def _steps(g: GameState, log: list[Command]) -> Iterator[tuple[int, Command, list[Event], GameState]]:
    for n, cmd in enumerate(log, 1):
        try:
            ev = apply(g, cmd)
        except IllegalCommand as e:
            raise SaveError(
                f"command {n} of the log ({type(cmd).__struct_config__.tag}) is illegal in this game "
                f"({e}): the log is from another game"
            ) from None
        except Exception as e:
            raise SaveError(f"command {n} of the log cannot be replayed: {_describe(e)}") from None
        yield n, cmd, ev, g


def replay(save: Save) -> GameState:
    """The state reached by replaying the whole log from the config (SaveError if it cannot be)."""
    g, _ = start(save)
    for _ in _steps(g, save.log):
        pass
    return g


def verify(save: Save) -> GameState:
    """Replay the log and check it reproduces the snapshot byte for byte; return the replayed state."""
    g = replay(save)
    if encode_state(g) != encode_state(save.state):
        where = _first_difference(g, save.state)
        raise SaveError(
            f"replaying the log does not reproduce the saved state ({where}): the save is from another "
            "game, was edited, or was made by a different version of the rules"
        )
    return g


def _first_difference(a: GameState, b: GameState) -> str:
    for f in a.__struct_fields__:
        if msgspec.msgpack.encode(getattr(a, f)) != msgspec.msgpack.encode(getattr(b, f)):
            return f"first difference: {f}"
    return "the encodings differ"
