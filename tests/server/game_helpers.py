"""Helpers for the end-to-end game tests (tests/server/test_game_*.py).

A game server in the test's event loop (a real asyncssh server on 127.0.0.1
with the lobby, tables and saves), and the key presses that choose a command
on the game screen: the test computes the seat's menu from its view exactly as
the screen does (ui.prompt_model.build_menu) and presses the digits of the
path to a chosen command. Named game_helpers (not server...) so that it never
shadows the real `server` package.
"""

from __future__ import annotations

import asyncio
import bisect
import random
import re
import time
from dataclasses import dataclass
from typing import Any

from engine import view as engine_view
from engine.commands import Build, Unselect
from server.app import ServerApp, make_app_factory
from server.config import ServerConfig
from server.lobby.lobby import Lobby
from server.storage.persistence import SaveStore
from server.transport.ssh import start_server
from tests.ssh_terminal import ANSI, Terminal, plain
from ui.i18n import Catalogue, _load
from ui.prompt_keys import ENTER as KEY_ENTER
from ui.prompt_keys import Numbering, key_bytes, place_of, turn_of
from ui.prompt_model import build_menu, checklist_menu
from ui.widgets.prompt import PromptPanel

DOWN = b"\x1b[B"
UP = b"\x1b[A"
LEFT = b"\x1b[D"
RIGHT = b"\x1b[C"
HOME = b"\x1b[H"
END = b"\x1b[F"
ENTER = b"\r"
ESC = b"\x1b"
CTRL_Q = b"\x11"


@dataclass
class GameServer:
    server: Any
    lobby: Lobby
    store: SaveStore
    config: ServerConfig

    def table(self) -> Any:
        tables = [t for t in self.lobby.tables.values()]
        assert tables, "no table"
        return tables[-1]

    def session(self, key: str) -> Any:
        for s in self.lobby.sessions:
            if s.key == key:
                return s
        return None

    def app_of(self, key: str) -> ServerApp | None:
        s = self.session(key)
        return s.app if s is not None else None

    async def close(self) -> None:
        await asyncio.wait_for(self.server.close(), 15)
        await self.lobby.close()
        self.store.unlock()


def machine_speed_config(tmp_path, **overrides: Any) -> ServerConfig:
    """A test server's settings: a free port, fresh folders, and games at machine speed."""
    settings: dict[str, Any] = dict(
        port=0,
        keys_dir=str(tmp_path / "keys"),
        saves_dir=str(tmp_path / "saves"),
        gc_tuning=False,
        bot_delay_seconds=0.0,
        max_concurrent_app_starts=8,
        # These games are played at machine speed (bots without delay, keys at once): a whole game
        # in seconds charges each session ~15 % of a core, far past a person's input budget (whose
        # defaults tests/server/test_people_input.py and test_transport_fair_input.py test).
        input_cpu_share=1.0,
        # and their keys come faster than a person's key rate (dropped past it, with a notice)
        key_rate_per_second=1e6,
        key_burst=1_000_000,
    )
    settings.update(overrides)
    return ServerConfig(**settings)


async def start_game_server(tmp_path, **overrides: Any) -> GameServer:
    config = machine_speed_config(tmp_path, **overrides)
    store = SaveStore(config.saves_dir)
    store.lock()
    lobby = Lobby(config, store)
    lobby.resume_saved()
    server = await start_server(config, make_app_factory(lobby))
    return GameServer(server, lobby, store, config)


def _inert(e) -> bool:
    return e.command is None and e.submenu is None and e.toggle is None and not e.plan


def choose(rng: random.Random, entries: list) -> int:
    """A random choice that keeps games short: builds often, rarely puts cards back."""
    # not Back, and not a row that cannot be chosen now (a card a multi-card choice cannot take: shown dim)
    real = [i for i, e in enumerate(entries) if not e.back and not e.disabled and not _inert(e)]
    builds = [
        i
        for i in real
        if isinstance(entries[i].command, Build)
        or (entries[i].submenu is not None and entries[i].label.plain.startswith(("Build", "Constru")))
    ]
    if builds and rng.random() < 0.8:
        return rng.choice(builds)
    keep = [i for i in real if not isinstance(entries[i].command, Unselect)] or real
    return rng.choice(keep)


def key_path(view: Any, cat: Catalogue, rng: random.Random, numbers: Numbering | None = None) -> tuple[bytes, Any]:
    """The keys that choose a command on this view's prompt, and that command.

    The keys are the screen's (ui.prompt_keys): pass the seat's `Numbering` (the app's
    `PromptPanel.numbers`, or one kept by the caller for that seat across its decisions),
    since a number stays with its entry for the whole turn; None: a fresh one."""
    numbers = numbers if numbers is not None else Numbering()
    numbers.begin(turn_of(view))
    opened: list[Any] = []
    menu = numbers.keyed(build_menu(view, cat), place_of(view))
    keys = b""
    for _ in range(10):
        entries = menu.entries
        i = choose(rng, entries)
        e = entries[i]
        keys += key_bytes(e.key) if e.key else HOME + DOWN * i + ENTER
        if e.submenu is not None:
            opened.append(e.ident)
            menu = e.submenu
            if menu.checklist is not None:  # the Magician's cards: mark some, then the last step
                cl, chosen = menu.checklist, set()
                place = place_of(view, tuple(opened))
                rows = range(min(len(cl.cards), 9))  # rows with a digit
                for row in rng.sample(rows, rng.randint(1, len(rows))):
                    keyed = numbers.keyed(checklist_menu(cat, cl, menu.title, chosen), place)
                    keys += key_bytes(next(x.key for x in keyed.entries if x.toggle == row))
                    chosen.add(row)
                keyed = numbers.keyed(checklist_menu(cat, cl, menu.title, chosen), place)
                at, done = next((j, x) for j, x in enumerate(keyed.entries) if x.plan)
                # Ten cards take every digit (1-9, 0): the last step has none, Enter reaches it.
                return keys + (key_bytes(done.key) if done.key else HOME + DOWN * at + ENTER), done.plan[0]
            menu = numbers.keyed(menu, place_of(view, tuple(opened)))
            continue
        if e.confirm:
            keys += key_bytes(KEY_ENTER)
        return keys, e.command
    raise AssertionError("menu too deep")


def app_keys(app: ServerApp, cat: Catalogue, rng: random.Random) -> bytes:
    """The keys that choose a command on the prompt of this app (in this process): its own numbering."""
    return key_path(app.view, cat, rng, app.table.query_one(PromptPanel).numbers)[0]


def prompt_ready(app: ServerApp | None, seq: int) -> bool:
    """The app shows the view after `seq` commands and waits for a choice."""
    if app is None or not app.at_table or app.view is None or app.view.seq != seq:
        return False
    try:
        prompt = app.table.query_one(PromptPanel)
    except Exception:
        return False
    return not prompt.sent and prompt.menu is not None and prompt.depth == 1


async def wait_until(predicate, timeout: float = 10.0, what: str = "condition", step: float = 0.005) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not reached within {timeout}s")
        await asyncio.sleep(step)


class Screen:
    """The output of one PTY session (a conftest Terminal), with waits on its text."""

    def __init__(self, term: Any) -> None:
        self.term = term

    @property
    def raw(self) -> bytearray:
        return self.term.raw

    def mark(self) -> None:
        self.term.mark()

    def text(self, since_mark: bool = True) -> str:
        return self.term.text(since_mark)

    async def wait_for(self, text: str, timeout: float = 10.0) -> str:
        return await self.term.wait_for(text, timeout)

    async def pump(self, seconds: float = 0.05) -> None:
        await self.term.read_some(seconds)

    def send(self, data: bytes | str) -> None:
        self.term.send(data)


def plain_offsets(raw: bytes, positions: list[int]) -> list[int]:
    """Each byte position of `raw` as the offset in `plain(raw)` of the text received before it.

    Exact where the bytes were cut mid-character or mid-escape-sequence (a read ends anywhere in a
    frame): the position counts from the character or escape sequence it cuts into. Decoding the
    pieces between positions separately would not do: a cut sequence is not recognised as one, its
    pieces count as text, and the offsets drift past the text they stand for (up to beyond its end).
    """
    full = raw.decode("utf-8", "replace")
    spans = [m.span() for m in ANSI.finditer(full)]
    starts = [a for a, _b in spans]
    removed = [0]
    for a, b in spans:
        removed.append(removed[-1] + b - a)
    out = []
    for pos in positions:
        while 0 < pos < len(raw) and raw[pos] & 0xC0 == 0x80:  # into a UTF-8 sequence: from its start
            pos -= 1
        c = len(raw[:pos].decode("utf-8", "replace"))
        k = bisect.bisect_left(starts, c)  # escape sequences that begin before c
        gone = removed[k]
        if k and spans[k - 1][1] > c:  # c cuts into one: its part after c is not before c
            gone -= spans[k - 1][1] - c
        out.append(c - gone)
    return out


def vocabulary(lang: str = "en") -> str:
    return "\n".join(v if isinstance(v, str) else "\n".join(v) for v in _load(lang).values())  # each plural form


def word(name: str) -> re.Pattern:
    return re.compile(r"(?<!\w)" + re.escape(name) + r"(?!\w)")


def hidden_names_for(save: Any, seat: int, cat: Catalogue) -> tuple[set[str], set[str]]:
    """Replay a finished game: (names of cards that were only ever in other hands, names of own cards).

    A name counts as known to `seat` once it was in its hand or drawn cards, in any city, or named in an
    event shown to it; the rest of the names held in other hands are what its screen must never show.
    """
    from engine.savefile import replay_steps, start
    from engine.view import redact_events

    g, events = start(save)
    known: set[str] = set()
    others: set[str] = set()
    own: set[str] = set()

    def observe(g: Any, events: list) -> None:
        me = g.players[seat]
        own.update(me.hand)
        known.update(me.hand)
        if g.turn is not None and g.turn.seat == seat:
            known.update(g.turn.drawn)
        for p in g.players:
            for b in p.city:
                known.add(b.name)
        for ev in redact_events(events, seat):
            known.update(c for c in (ev.district, ev.card, *ev.cards) if c)
        for s, p in enumerate(g.players):
            if s != seat:
                others.update(p.hand)

    observe(g, events)
    for _n, _cmd, ev, g in replay_steps(save):
        observe(g, ev)
    vocab = vocabulary(cat.lang)
    forbidden = {cat.district(c) for c in others - known}
    forbidden = {n for n in forbidden if not word(n).search(vocab)}
    return forbidden, {cat.district(c) for c in own}


def seat_view(table: Any, seat: int | None) -> Any:
    return engine_view(table.state, seat)


class HandWatch:
    """Checks that a seat's screen never showed a card that, at that moment, only other hands held.

    `record()` notes, at some instant, how much output the seat's client had received and which card
    names were then in other hands without ever having been shown to this seat (its hand or drawn
    cards, a city, an event redacted for it). `verify()` checks that none of those names occurs in
    the output received up to that instant. As a control, the seat's own hand must have been shown.
    """

    def __init__(self, seat: int, screen: Screen, lang: str = "en") -> None:
        self.seat = seat
        self.screen = screen
        self.cat = Catalogue(lang)
        self.vocab = vocabulary(lang)
        self.known: set[str] = set()
        self.own: set[str] = set()
        self.records: list[tuple[int, set[str]]] = []
        self._seen_events = 0

    def record(self, table: Any) -> None:
        from engine.view import redact_events

        pos = len(self.screen.raw)
        g = table.state
        if g is None:
            return
        me = g.players[self.seat]
        self.known.update(me.hand)
        self.own.update(me.hand)
        if g.turn is not None and g.turn.seat == self.seat:
            self.known.update(g.turn.drawn)
        for p in g.players:
            self.known.update(b.name for b in p.city)
        for ev in redact_events(table.history, self.seat):
            self.known.update(c for c in (ev.district, ev.card, ev.option, *ev.cards) if c)
        others = {c for s, p in enumerate(g.players) if s != self.seat for c in p.hand}
        names = {self.cat.district(c) for c in others - self.known}
        names = {n for n in names if not word(n).search(self.vocab)}
        self.records.append((pos, names))

    def verify(self) -> dict[str, int]:
        raw = bytes(self.screen.raw)
        text = plain(raw)
        cuts = plain_offsets(raw, [pos for pos, _names in self.records])
        first: dict[str, int] = {}
        for _pos, names in self.records:
            for n in names:
                if n not in first:
                    m = word(n).search(text)
                    if m is not None:  # never shown: no leak, whatever the cut
                        first[n] = m.start()
        leaks = sorted(
            {n for cut, (_pos, names) in zip(cuts, self.records) for n in names if n in first and first[n] < cut}
        )
        if leaks:
            where = {n: text[max(first[n] - 200, 0) : first[n] + 60] for n in leaks}
            raise AssertionError(
                f"seat {self.seat}'s screen showed cards only other hands held: {leaks}; first seen in: {where!r}"
            )
        forbidden_total = sum(len(names) for _, names in self.records)
        own_seen = sum(1 for c in self.own if word(self.cat.district(c)).search(text))
        return {"checks": len(self.records), "forbidden": forbidden_total, "own_seen": own_seen, "own": len(self.own)}


async def create_table(screen: Screen, players: int, bots: int, extra: bytes = b"") -> None:
    """From the lobby's main page: New table, set players and bots, Create."""
    screen.mark()
    screen.send(b"1")  # "New table…" is the first item when there is no table yet
    await screen.wait_for("New table")
    # items: Name, Players, Rules, Line-up, Bots, Bot level, Turn timer, Private, Spectators may chat, Create, Back
    keys = DOWN + (LEFT * (4 - players) if players < 4 else RIGHT * (players - 4))
    keys += DOWN * 3 + RIGHT * bots + extra
    screen.send(keys)
    await asyncio.sleep(0.1)
    screen.mark()
    screen.send(END + UP + b"\r")  # Create the table (the item before Back)
    await screen.wait_for("Table:")


async def started_with_bots(
    gs: GameServer, open_terminal: Any, key: Any, size: tuple[int, int], bots: int
) -> tuple[Any, Screen]:
    """alice's table of herself and `bots` bots, started: (the table, her screen)."""
    a = Screen(await open_terminal(gs.server, username="alice", key=key, size=size))
    await a.wait_for("Citadels · lobby")
    await create_table(a, players=bots + 1, bots=bots)
    await a.wait_for("Start the game")
    a.send(b"1")
    table = gs.table()
    await wait_until(lambda: table.phase == "playing", what="game start")
    return table, a


async def play_to_end(
    gs, players: dict[int, tuple[str, Screen]], rng: random.Random, timeout: float = 120.0, on_step=None
) -> int:
    """Answer every decision of the human seats with keys until the game ends."""
    table = gs.table()
    cat = Catalogue("en")
    presses = 0
    deadline = time.monotonic() + timeout
    while table.state is None or table.state.phase != "over":
        assert time.monotonic() < deadline, (
            f"game not over in {timeout}s (seq {table.state.seq if table.state else None})"
        )
        st = table.state
        if st is None:
            await asyncio.sleep(0.02)
            continue
        seat = st.pending.seat
        if seat not in players:
            await asyncio.sleep(0.01)
            continue
        key, screen = players[seat]
        seq = st.seq
        app = gs.app_of(key)
        try:
            await wait_until(
                lambda: prompt_ready(gs.app_of(key), table.state.seq) or table.state.seq != seq,
                timeout=10,
                what=f"seat {seat}'s prompt",
            )
        except AssertionError:
            raise AssertionError(f"seat {seat} prompt never ready; screen: {screen.text(False)[-1500:]!r}")
        if table.state.seq != seq:
            continue
        if on_step is not None:
            on_step(seat)
        keys = app_keys(app, cat, rng)
        screen.send(keys)
        presses += 1
        try:
            await wait_until(lambda: table.state.seq != seq or table.state.phase == "over", timeout=10)
        except AssertionError:
            prompt = app.table.query_one(PromptPanel)
            shown = [(e.key, e.label.plain) for e in (prompt.menu.entries if prompt.menu else [])]
            raise AssertionError(
                f"seat {seat}'s command (keys {keys!r}) not made in 10 s; the prompt shows {shown}, "
                f"depth {prompt.depth}, sent {prompt.sent}, focus {app.focused!r}"
            ) from None
    return presses


async def drain(screens: list[Screen]) -> None:
    """Keep reading the clients' output (a PTY client that is not read stalls its session).

    Ends by itself once every client's output has ended, so that a cancellation lost inside
    `asyncio.wait_for` (a known race) cannot leave it spinning after the test."""
    live = list(screens)
    while live:
        for s in list(live):
            if not await s.term.read_some(0.01):
                live.remove(s)


def close_with_session(conn: Any, process: Any) -> asyncio.Task[None]:
    """Close the connection once its session has ended, as OpenSSH's client does (a server that
    stops then sees its connections leave after their goodbye, instead of waiting out its grace
    for clients that stay connected with no session)."""

    async def watch() -> None:
        await process.wait_closed()
        conn.close()

    return asyncio.ensure_future(watch())


async def ssh_connect(port: int, key: Any, username: str, size: tuple[int, int] = (120, 40)) -> Screen:
    import asyncssh

    conn = await asyncio.wait_for(
        asyncssh.connect(
            "127.0.0.1",
            port,
            username=username,
            client_keys=[key],
            known_hosts=None,
            agent_path=None,
            config=None,
            password=None,
        ),
        10,
    )
    proc = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    close_with_session(conn, proc)
    return Screen(Terminal(conn, proc))
