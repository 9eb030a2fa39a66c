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

from server.event_loop import LoopChoice

PositiveInt = Annotated[int, Meta(ge=1)]
NonNegativeInt = Annotated[int, Meta(ge=0)]
NonNegativeFloat = Annotated[float, Meta(ge=0)]
PositiveFloat = Annotated[float, Meta(gt=0)]
Port = Annotated[int, Meta(ge=0, le=65535)]


CLUSTER_TABLE = "cluster"
SSH_CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr")
SSH_MACS = ("hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512")


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

    # The event loop (server/event_loop.py): "auto" is uvloop where it is installed (Linux, macOS) on
    # Python 3.11 and 3.12, else asyncio's own; "uvloop" refuses to start without it; "asyncio" never uses it.
    event_loop: LoopChoice = "auto"

    # Logging: JSON lines on stderr instead of plain text.
    json_logs: bool = False
    log_level: str = "INFO"
    asyncssh_log_level: str = "WARNING"

    # SSH connection limits. Sessions (authenticated connections) are counted per address and in all;
    # connections still logging in are counted apart (the admission block below).
    # SSH keepalives: a request to a silent client every keepalive_interval_seconds, dropped after
    # keepalive_count_max unanswered. Unset: 300 s, or 30 s behind a balancer (proxy_protocol), where
    # the kernel's probes below reach the balancer, not the player (server/transport/tcp_probes.py).
    keepalive_interval_seconds: PositiveFloat | None = None
    keepalive_count_max: PositiveInt = 3
    # The kernel's TCP probes on each accepted connection (cost the server nothing): a silent peer is
    # probed after tcp_keepalive_idle_seconds, then every tcp_keepalive_interval_seconds, and dropped
    # after tcp_keepalive_count unanswered (60 s); data unacknowledged for tcp_user_timeout_seconds
    # drops it too. 0 for any of them: the system's default.
    tcp_keepalive_idle_seconds: NonNegativeInt = 30
    tcp_keepalive_interval_seconds: NonNegativeInt = 10
    tcp_keepalive_count: NonNegativeInt = 3
    tcp_user_timeout_seconds: NonNegativeInt = 60
    max_sessions_per_address: PositiveInt = 5
    max_sessions: PositiveInt = 500

    # --- Admission before login (server/transport/admission.py), after OpenSSH's LoginGraceTime,
    # MaxStartups and PerSourcePenalties. A "source" is an IPv4 address or an IPv6 /64.
    # The login grace: a connection not authenticated this long after it was accepted is closed.
    login_timeout_seconds: PositiveFloat = 10.0
    # Connections still logging in ("startups"): from startups_begin on, a new connection from a
    # source that already has one logging in is refused with a probability of startups_refuse_percent,
    # rising linearly to 100 % at max_startups. A source with none logging in is not refused early;
    # at max_startups it takes the place of the oldest connection of the source holding the most (if
    # that one holds two or more), else of the oldest connection still logging in if that one is
    # older than startup_displace_after_seconds (silent connections are old; real logins take a
    # fraction of a second); else it is refused.
    max_startups: PositiveInt = 100
    startups_begin: PositiveInt = 30
    startups_refuse_percent: Annotated[int, Meta(ge=0, le=100)] = 30
    max_startups_per_source: PositiveInt = 8
    startup_displace_after_seconds: NonNegativeFloat = 1.0
    # Penalties per source: seconds added when one of its connections reaches the login grace, is
    # displaced, or is closed by the client before authenticating. A source whose penalty reaches
    # penalty_min_seconds is refused at once (before any SSH work) until its penalty runs out, and its
    # connections still logging in are closed. Penalties never pass penalty_max_seconds; at most
    # max_penalised_sources sources are remembered (past it, new ones are not penalised).
    penalty_grace_seconds: NonNegativeFloat = 10.0
    penalty_displaced_seconds: NonNegativeFloat = 5.0
    penalty_noauth_seconds: NonNegativeFloat = 1.0
    penalty_min_seconds: PositiveFloat = 15.0
    penalty_max_seconds: PositiveFloat = 600.0
    max_penalised_sources: PositiveInt = 65536
    # Networks (CIDR) never penalised nor limited per source, e.g. a monitoring host.
    admission_exempt: list[str] = []
    # An authenticated connection that has started no session (shell) after this long is closed.
    session_start_timeout_seconds: PositiveFloat = 5.0
    # The listening socket's queue of connections not yet accepted.
    listen_backlog: PositiveInt = 1024
    # Refusals are logged as one line of counts per cause at most this often (and each penalty once).
    refusal_log_interval_seconds: PositiveFloat = 10.0

    # --- Fair input per session (server/transport/input_budget.py).
    # Keys (and mouse clicks, scrolls, pastes) pass a token bucket: key_burst at once, refilled at
    # key_rate_per_second; keys past it are dropped and the player is told (at most once every
    # input_notice_interval_seconds).
    key_rate_per_second: PositiveFloat = 30.0
    key_burst: PositiveInt = 60
    # The event-loop time a session's app spends after an input event (its keys, clicks, resizes:
    # handlers, layout, rendering) until it has drawn the frames that show it (at most
    # input_cost_window_seconds), and parsing its input, is charged to a budget of
    # input_cpu_burst_seconds, refilled at input_cpu_share seconds per second. A
    # session whose budget is spent is not read (its input waits in its client) and its window
    # changes wait until the budget is back: a storm costs the server at most that share. Input that
    # waits (a burst, a flood) is handed to its app only when the loop is idle. A new session
    # starts from what the last one from its address left (reconnecting refills nothing).
    # The budget pays for one person's bursts (quick presses, a held key at a 120x40 table: ~30
    # keys a second of 10-20 ms each); what many sessions spend together is bounded by the pools;
    # a session whose keys are dropped for their rate (a flood) is paced whatever its budget.
    input_cpu_share: Annotated[float, Meta(gt=0, le=1)] = 0.01
    input_cpu_burst_seconds: PositiveFloat = 3.0
    # The first input_light_seconds of a session's budget are handed over at once; past them, until
    # three quarters of its budget are spent, its input also draws on one pool shared by all sessions in that
    # tier (input_burst_pool_share of a core, input_burst_pool_seconds at once) and gives way to
    # light sessions' input: a person's burst passes, five flooding sessions share one burst.
    input_light_seconds: PositiveFloat = 0.1
    input_burst_pool_share: Annotated[float, Meta(gt=0, le=1)] = 0.05
    input_burst_pool_seconds: PositiveFloat = 3.0
    # Sessions past three quarters of their budget share, all together, this share of a core for their input
    # (however many there are: five storms cost no more than one).
    paced_input_share: Annotated[float, Meta(gt=0, le=1)] = 0.01
    input_cost_window_seconds: PositiveFloat = 1.0
    input_notice_interval_seconds: PositiveFloat = 5.0
    # Window-change requests (each costs the SSH layer some work before any merging; dragging a
    # window's corner sends one per character cell): past this bucket the session's connection is
    # not read until a quarter of it is back, twice as long for each hold of a storm (the client
    # waits; the last size still wins).
    window_changes_per_second: PositiveFloat = 20.0
    window_change_burst: PositiveInt = 200
    # Each connection's socket receive buffer (0: the system's). A client sends keys and small
    # pastes; a small buffer bounds what a held connection has queued when it is read again.
    socket_receive_buffer_bytes: NonNegativeInt = 8192
    # Offer zlib compression (costs ~300 KB of memory per connection).
    ssh_compression: bool = False
    # The ciphers and MACs offered, by asyncssh's names. A client takes the first of its own list
    # that the server offers, so what is left out is what counts: chacha20-poly1305 costs this
    # server 4-5 times AES-GCM's CPU per packet (asyncssh builds two ChaCha20 ciphers and a
    # Poly1305 per packet; AES runs in one call on the CPU's AES instructions; 20.6 against 4.4 us
    # a 2.4 KB frame) and umac is slower than HMAC-SHA-256 here. Every SSH client in use has
    # AES-GCM or AES-CTR with HMAC-SHA-2 (OpenSSH since 6.2, PuTTY, Windows Terminal's OpenSSH).
    ssh_ciphers: list[str] = msgspec.field(default_factory=lambda: list(SSH_CIPHERS))
    ssh_macs: list[str] = msgspec.field(default_factory=lambda: list(SSH_MACS))

    # Environment requests a client may send per session, and their size.
    max_env_vars: NonNegativeInt = 32
    max_env_bytes: PositiveInt = 1024

    # Terminal sizes are clamped to these (a 0 size becomes 80x24). A window change's layout and
    # render cost grows with the area (25-30 ms at 500x200, ~8 at 320x100): a larger window is drawn
    # at this size, and a resize storm cannot buy long loop stalls (benchmarks/abuse.py, resize).
    max_term_width: PositiveInt = 320
    max_term_height: PositiveInt = 100

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
    gc_young_interval_seconds: NonNegativeFloat = 0.3
    # ... and generation 1 this often, then freeze what survived. A step scans only what is still
    # alive when it runs: every 0.3 s rather than 0.1 s, the objects of a move that live a few tenths
    # of a second are freed before any step sees them (CPU per move at 1,000 sessions 12 % lower,
    # steps still under gc_pause_target_ms; docs/performance.md).
    gc_freeze_interval_seconds: PositiveFloat = 0.3
    # A pacer step longer than this (a burst of moves made many objects) halves the wait before the
    # next, down to gc_young_min_interval_seconds; short steps let it grow back.
    gc_pause_target_ms: PositiveFloat = 4.0
    gc_young_min_interval_seconds: PositiveFloat = 0.02
    # A step shorter than this found next to nothing (no game moving): the wait doubles, up to
    # gc_young_quiet_interval_seconds (not past gc_young_interval_seconds if that is smaller); the
    # first step that finds work (or a player's input) puts the usual wait back. Fewer wake-ups of an idle server.
    gc_quiet_step_ms: NonNegativeFloat = 0.1
    gc_young_quiet_interval_seconds: NonNegativeFloat = 0.5
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

    def ssh_keepalive_seconds(self) -> float:
        """The SSH keepalive's interval: as set, else 30 s behind a balancer and 300 s direct."""
        if self.keepalive_interval_seconds is not None:
            return self.keepalive_interval_seconds
        return 30.0 if self.proxy_protocol else 300.0

    def __post_init__(self) -> None:
        if self.startups_begin > self.max_startups:
            raise ValueError(f"startups_begin ({self.startups_begin}) is more than max_startups ({self.max_startups})")
        for network in self.admission_exempt:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"admission_exempt: {network!r} is not a network (CIDR)") from None
        for field, known in (("ssh_ciphers", _known_ciphers()), ("ssh_macs", _known_macs())):
            names = getattr(self, field)
            if not names:
                raise ValueError(f"{field}: empty (a client could not agree on any)")
            for name in names:
                if name not in known:
                    raise ValueError(f"{field}: {name!r} is not one asyncssh offers ({', '.join(sorted(known))})")
        for network in self.proxy_allowed:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"proxy_allowed: {network!r} is not an IP network (e.g. 10.0.0.10/32)") from None


def _known_ciphers() -> set[str]:
    from asyncssh.encryption import get_encryption_algs

    return {name.decode() for name in get_encryption_algs()}


def _known_macs() -> set[str]:
    from asyncssh.mac import get_mac_algs

    return {name.decode() for name in get_mac_algs()}


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
