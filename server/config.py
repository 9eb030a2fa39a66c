"""Server configuration: every limit of the SSH transport in one msgspec Struct.

Loaded from a flat TOML file (``load_config``); any key that is not a field
below is refused with a one-line ``ConfigError`` that names it.
"""

from __future__ import annotations

import ipaddress
import tomllib
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

PositiveInt = Annotated[int, Meta(ge=1)]
NonNegativeInt = Annotated[int, Meta(ge=0)]
NonNegativeFloat = Annotated[float, Meta(ge=0)]
PositiveFloat = Annotated[float, Meta(gt=0)]
Port = Annotated[int, Meta(ge=0, le=65535)]


CLUSTER_TABLE = "cluster"


class ConfigError(ValueError):
    """A configuration file could not be used; the message is one line."""


class ServerConfig(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Settings of the SSH server; the defaults suit a small public server."""

    # Where to listen. Port 0 picks a free port (tests, benchmarks).
    host: str = "127.0.0.1"
    port: Port = 2222
    # Where the host key lives and where games are saved.
    keys_dir: str = "keys"
    saves_dir: str = "saves"
    # Behind a TCP balancer that sends the PROXY protocol (HAProxy's send-proxy / send-proxy-v2):
    # every connection must start with a v1 or v2 header, which names the player's address
    # (server/transport/proxy_listener.py; docs/cluster.md). `proxy_allowed`: the balancers'
    # networks (e.g. ["10.0.0.10/32"]); a header from anyone else is refused. Empty: any sender.
    proxy_protocol: bool = False
    proxy_allowed: list[str] = []
    proxy_header_timeout_seconds: PositiveFloat = 5.0
    # Share the port with other processes (SO_REUSEPORT): `citadels serve --workers N` sets it.
    reuse_port: bool = False

    # Authentication: any public key is accepted and identifies the player;
    # without a key, keyboard-interactive (no prompts) logs in as a guest.
    allow_guests: bool = True

    # Used by the game layer (server/lobby/lobby.py, server/tables/table.py); the transport
    # does not read these. How long a disconnected player's seat waits before
    # a bot plays it; the bots' level (random, easy, normal, hard, expert: hard and expert run in
    # a pool of bot_workers processes, 0 = they play as normal); the delay
    # before a bot moves; the turn timers a table may choose; table limits.
    idle_wait_seconds: PositiveFloat = 60.0
    bot_kind: str = "normal"
    bot_workers: NonNegativeInt = 2
    bot_delay_seconds: Annotated[float, Meta(ge=0)] = 0.6
    turn_timer_relaxed_seconds: PositiveFloat = 120.0
    turn_timer_blitz_seconds: PositiveFloat = 30.0
    max_tables: PositiveInt = 200
    table_queue_size: PositiveInt = 64

    # Tables' owners and lifetimes, join codes, host tools (server/lobby, server/admin).
    # A waiting table whose creator left closes after this grace (its players are told).
    abandoned_table_grace_seconds: PositiveFloat = 30.0
    # Open tables (waiting or playing, created or loaded) per identity (an SSH key; a guest is one
    # per session) and per source address; guests' tables per address (a looping guest's only bound).
    max_tables_per_identity: PositiveInt = 2
    max_tables_per_address: PositiveInt = 10
    max_guest_tables_per_address: PositiveInt = 3
    # Wrong join codes allowed per identity and per source address within the window.
    join_code_attempts_per_identity: PositiveInt = 10
    join_code_attempts_per_address: PositiveInt = 30
    join_code_window_seconds: PositiveFloat = 600.0
    # `citadels admin` talks to the server over a Unix socket in the saves folder (admin.sock, 0600).
    admin_socket: bool = True

    # The players database (server/players, docs/database.md): accounts by key, names, ratings,
    # history. "" is SQLite in players.sqlite3 next to the saves; or sqlite:///PATH,
    # postgresql://USER@HOST:PORT/DB. A new database is created; an older one is refused until
    # `citadels db migrate`. rate_bots: each bot level is a rated player (else a bot at the
    # table makes a game unrated); max_bot_share: a game stays rated while no person's seat
    # had more than this share of its decisions made by a bot (while they were away).
    database: str = ""
    rate_bots: bool = False
    max_bot_share: Annotated[float, Meta(ge=0.0, le=1.0)] = 0.25
    # False: no players database at all (names and seats by key for this run only, nothing recorded).
    accounts: bool = True

    # Logging: JSON lines on stderr instead of plain text.
    json_logs: bool = False
    log_level: str = "INFO"
    asyncssh_log_level: str = "WARNING"

    # SSH connection limits.
    login_timeout_seconds: PositiveFloat = 20.0
    keepalive_interval_seconds: PositiveFloat = 30.0
    keepalive_count_max: PositiveInt = 3
    max_sessions_per_address: PositiveInt = 5
    max_sessions: PositiveInt = 500
    # Offer zlib compression (costs ~300 KB of memory per connection).
    ssh_compression: bool = False

    # Environment requests a client may send per session, and their size.
    max_env_vars: NonNegativeInt = 32
    max_env_bytes: PositiveInt = 1024

    # Terminal sizes are clamped to these (a 0 size becomes 80x24).
    max_term_width: PositiveInt = 500
    max_term_height: PositiveInt = 200

    # Join bursts: how many apps may be starting at once; a start that has not
    # drawn its first frame after the timeout no longer holds its slot.
    max_concurrent_app_starts: PositiveInt = 3
    app_start_timeout_seconds: PositiveFloat = 10.0

    # Input bounds per session: SSH receive window, events queued in the app
    # before the session stops reading, longest bracketed paste (characters).
    input_window_bytes: Annotated[int, Meta(ge=4096)] = 131072
    max_queued_input_events: PositiveInt = 256
    max_paste_chars: PositiveInt = 65536

    # Output back-pressure per session: above the high-water mark frames are
    # dropped (and the screen repainted in full once the client reads again);
    # a backlog past max_output_backlog_bytes, or output blocked for longer
    # than output_stall_timeout_seconds, closes the session.
    output_high_water_bytes: PositiveInt = 262144
    max_output_backlog_bytes: PositiveInt = 4 * 1024 * 1024
    output_stall_timeout_seconds: PositiveFloat = 60.0

    # Mouse reporting for served apps.
    mouse: bool = True

    # Graceful shutdown: how long sessions get to close before being cut.
    shutdown_grace_seconds: PositiveFloat = 3.0
    # While the server runs, a session's app gets this much more time to exit
    # for every other app exiting at the same moment (100 players leaving at
    # once share the loop's time).
    exit_grace_per_closing_seconds: NonNegativeFloat = 0.05

    # Garbage collection tuning (process-wide while the server runs).
    # Empty an ended app's nodes so that reference counting frees it (no full collection needed).
    break_app_cycles: bool = True
    gc_tuning: bool = True
    gc_threshold0: PositiveInt = 20000
    gc_threshold1: PositiveInt = 20
    gc_threshold2: PositiveInt = 50
    # Freeze the heap this long after the last app start.
    gc_freeze_delay_seconds: PositiveFloat = 2.0
    # The pacer (server/transport/gc_tuning.py): collect generation 0 this often (0: no
    # pacer, CPython's own triggers only) ...
    gc_young_interval_seconds: NonNegativeFloat = 0.1
    # ... and generation 1 this often, then freeze what survived.
    gc_freeze_interval_seconds: PositiveFloat = 0.1
    # A pacer step longer than this (a burst of moves made many objects) halves the wait before the
    # next, down to gc_young_min_interval_seconds; short steps let it grow back.
    gc_pause_target_ms: PositiveFloat = 4.0
    gc_young_min_interval_seconds: PositiveFloat = 0.02
    # How often to check whether a quiet unfreeze + collect is due.
    gc_collect_interval_seconds: PositiveFloat = 60.0
    # Seconds without app starts or input that count as "quiet".
    gc_quiet_seconds: PositiveFloat = 2.0
    # The quiet-time unfreeze + full collection (a pause that grows with the
    # live sessions: ~22 ms each) runs only with at most this many sessions
    # live; with more, only the unfrozen objects are collected.
    gc_full_collect_max_sessions: NonNegativeInt = 20
    # ... unless this many sessions have left since the last full collection
    # (0: never). A departed session is freed by reference counting (nothing
    # measured left in frozen cycles); forcing a full collection with 300 live
    # pauses the loop 2-3 s.
    gc_full_collect_after_departures: NonNegativeInt = 0

    def __post_init__(self) -> None:
        for network in self.proxy_allowed:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"proxy_allowed: {network!r} is not an IP network (e.g. 10.0.0.10/32)") from None


def config_from_mapping(data: dict[str, Any], source: str = "config") -> ServerConfig:
    """Build a ServerConfig from a mapping, refusing unknown keys by name."""
    known = set(ServerConfig.__struct_fields__)
    # The [cluster] table is a cluster node's (server/cluster/config.py reads and checks it).
    data = {k: v for k, v in data.items() if k != CLUSTER_TABLE}
    for key in data:
        if key not in known:
            raise ConfigError(f"{source}: unknown key {key!r}")
    try:
        return msgspec.convert(data, ServerConfig)
    except msgspec.ValidationError as error:
        raise ConfigError(f"{source}: {_one_line(str(error))}") from None


def load_config(path: str | Path) -> ServerConfig:
    """Load a ServerConfig from a TOML file (flat keys, names as the fields)."""
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = tomllib.load(file)
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {_one_line(str(error))}") from None
    return config_from_mapping(data, str(path))


def _one_line(text: str) -> str:
    return " ".join(text.split())
