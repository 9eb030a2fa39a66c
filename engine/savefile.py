"""Save files: a game as bytes and back. Pure: no file I/O here (see server/storage/persistence.py).

A save holds everything needed to rebuild a game and to check it:

- the format version, the table's id and the caller's timestamps;
- the `GameConfig` (rule set, preset or line-up, unique districts, seed, crown);
- one `Seat` per player: name, SSH key fingerprint (None for a guest or a bot),
  bot kind (None for a person), and the positions in the log of the commands a
  bot chose in the person's stead (`bot_played`: while they were away, out of
  time, or after a bot took their seat for good; absent when none, so a save
  without such moves has the same bytes as before the field existed);
- its owners: the keys of every player who held a seat (only they, and the
  host, see and load it; None in saves made before owners were recorded) and
  whether its table was private;
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

Older formats: format 1 (before cards kept their own typed state: it stored
card state in string-keyed `GameState.flags` and `Turn.extra`) is loaded by
falling back to replay: its snapshot is decoded only for the cheap checks, the
state is rebuilt by replaying the log (whatever `check` says), and with `check`
the replayed state must match the snapshot in everything both formats store
alike (`_v1_shared`). The loaded save is then a current one (`version` 2).
"""

from __future__ import annotations

import dataclasses
import hashlib
import struct
import zlib
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Annotated, TypeVar

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
FORMAT_VERSION = 2
REPLAYED_FORMATS = (1,)  # older formats whose snapshot is rebuilt by replaying the log
HEADER = struct.Struct(">8sHHII")  # magic, version, reserved, body length, crc32
MAX_SAVE_BYTES = 16 * 1024 * 1024  # a real save is a few tens of KB
MAX_COMMANDS = 20_000  # the simulator calls a game this long endless
MAX_SEATS = 8

Timestamp = Annotated[datetime, Meta(tz=True)]
_T = TypeVar("_T")


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


Key = Annotated[str, Meta(max_length=200)]


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
    # The keys of every player who held a seat (a player replaced by a bot stays one); None: a save
    # made before owners were recorded (only the host may load it).
    owners: Annotated[list[Key], Meta(max_length=64)] | None = None
    private: bool = False  # the table was private: a loaded game stays so


class SaveSummary(Struct, kw_only=True):
    """What listing a save needs (its owners, its game), decoded without the log and the state."""

    id: Annotated[str, Meta(max_length=200)]
    config: GameConfig
    seats: Annotated[list[Seat], Meta(max_length=MAX_SEATS)]
    finished: bool = False
    created: Timestamp
    owners: Annotated[list[Key], Meta(max_length=64)] | None = None
    private: bool = False


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
    owners: list[str] | None = None,
    private: bool = False,
) -> Save:
    """A save of `state`, reached from `config` by `log` (a new game: log empty).
    `owners` defaults to the keys seated now."""
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
        owners=owners_of(seats) if owners is None else list(owners),
        private=private,
    )


def owners_of(seats: list[Seat], before: list[str] | None = None) -> list[str]:
    """`before` (the owners so far) and every key seated now, in order, once each."""
    out = list(before or [])
    for s in seats:
        if s.key and s.key not in out:
            out.append(s.key)
    return out


def game_key(config: GameConfig, created: datetime) -> str:
    """What identifies one game through its saves, exports and loads: its setup, its seed and when it
    began (the players' names are left out: they may be cleaned when a file is loaded)."""
    setup = msgspec.structs.replace(config, players=[str(i) for i in range(len(config.players))])
    return hashlib.sha256(_enc.encode(setup) + created.isoformat().encode()).hexdigest()[:24]


# -- encoding -------------------------------------------------------------------------------------------

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(Save)
_json_enc = msgspec.json.Encoder()
_json_dec = msgspec.json.Decoder(Save)
_summary_dec = msgspec.msgpack.Decoder(SaveSummary)


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
    return _printable(str(e).splitlines()[0]) if str(e) else type(e).__name__


def _printable(text: str) -> str:
    """`text` on one line, its control characters escaped: a hostile save's names reach the message."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


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
    if version < FORMAT_VERSION and version not in REPLAYED_FORMATS:  # pragma: no cover - none yet
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


def _decode_typed(decode: Callable[[bytes | memoryview], _T], data: bytes | memoryview) -> _T:
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
    version, _ = read_header(data)
    save = _decode_typed(_dec.decode, memoryview(data)[HEADER.size :])
    return _checked(save, check, version)


def loads_json(data: bytes, *, check: bool = True) -> Save:
    """Read a JSON export back, with the same checks as `loads`."""
    if len(data) == 0:
        raise SaveError("the file is empty: it is not a save")
    if len(data) > 4 * MAX_SAVE_BYTES:
        raise SaveError(f"the file is {len(data)} bytes, more than a JSON save may have")
    save = _decode_typed(_json_dec.decode, data)
    return _checked(save, check)


def read_summary(data: bytes) -> SaveSummary:
    """A save's summary (owners, game, seats) after the header and checksum checks, without decoding
    its log and state: cheap enough to list a folder of saves. SaveError as `loads`."""
    read_header(data)
    return _decode_typed(_summary_dec.decode, memoryview(data)[HEADER.size :])


def clean_names(save: Save) -> list[tuple[str, str]]:
    """Make the players' names safe to show (engine/text.py), the same in the config, the seats and
    the state; a name that is empty or not allowed becomes "Player N". Returns (old, new) per change."""
    from .text import MAX_NAME, clean_text, name_problem

    bot_mark = " (bot)"
    new: list[str] = []
    for i, (old, seat) in enumerate(zip(save.config.players, save.seats)):
        name = clean_text(old, MAX_NAME + len(bot_mark))
        base = name[: -len(bot_mark)] if seat.bot and name.endswith(bot_mark) else name
        if name_problem(base) is not None:
            name = f"Player {i + 1}"
        while name in new:
            name = f"{name[: MAX_NAME - 2]} {len(new) + 1}"
        new.append(name)
    changes = [(a, b) for a, b in zip(save.config.players, new) if a != b]
    if changes:
        save.config.players = list(new)
        for seat, p, name in zip(save.seats, save.state.players, new):
            seat.name = name
            p.name = name
    return changes


def _checked(save: Save, check: bool, header_version: int | None = None) -> Save:
    """`header_version`: None for JSON, which has only the body's."""
    if save.version not in (FORMAT_VERSION, *REPLAYED_FORMATS) or save.version != (header_version or save.version):
        raise SaveError(
            f"the save's body declares format version {save.version}, not {header_version or FORMAT_VERSION}: "
            "the file is corrupt or from another version"
        )
    consistency(save)
    if save.version in REPLAYED_FORMATS:
        return _replayed(save, check)
    if check:
        save.state = verify(save)
    return save


def _replayed(save: Save, check: bool) -> Save:
    """An older format's save: its state rebuilt by replaying the log (the snapshot checks it)."""
    g = replay(save)
    if check and encode_state(_v1_shared(g)) != encode_state(_v1_shared(save.state)):
        where = _first_difference(_v1_shared(g), _v1_shared(save.state))
        raise SaveError(
            f"replaying the log does not reproduce the saved state ({where}): the save is from another "
            "game, was edited, or was made by a different version of the rules"
        )
    save.state = g
    save.version = FORMAT_VERSION
    return save


def _v1_shared(g: GameState) -> GameState:
    """The state without what format 1 stored otherwise (card states, which card limits a turn, the
    flow's end-of-round bookkeeping): a format-1 snapshot decodes to this much of the current layout."""
    t = g.turn
    return dataclasses.replace(
        g,
        cards={},
        end_round_from=0,
        turn=None if t is None else dataclasses.replace(t, cards={}, gather_only=None),
    )


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
                f"({_printable(str(e))}): the log is from another game"
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
    for f in dataclasses.fields(a):
        if msgspec.msgpack.encode(getattr(a, f.name)) != msgspec.msgpack.encode(getattr(b, f.name)):
            return f"first difference: {f.name}"
    return "the encodings differ"
