"""What one seat may know: `view(state, seat)` and per-seat event redaction.

A view holds the seat's own hand and characters, everything public (gold,
hand sizes, cities, revealed characters, face-up discards, the crown, named
targets once announced) and never another hand, an unrevealed character, a
face-down discard, the deck order or which warrant or threat is the real one.
`view(state, None)` is a spectator's. The UI, bots, logs and the network only
ever see views and redacted events.

`reveal_all_view(state)` is the one exception, for replays of saved games
watched "with everything revealed" (`ui/replay.py`): every hand and character,
the face-down discards, the pool being passed, the drawn cards and the real
warrant and threat. It is a separate function on purpose: nothing that serves a
seat (the server, bots) calls it, and `view` never shows more than before.
"""

from __future__ import annotations

import msgspec
from msgspec import Struct, field

from .apply import waiting_for
from .city import complete_at
from .commands import Command
from .decisions import Choice, KeepCards, PickCharacter, SelectCards
from .events import Event
from .hooks import card_of
from .legal import legal_commands, select_source
from .state import Built, GameState, Score


class PlayerView(Struct, omit_defaults=True):
    seat: int
    name: str
    gold: int
    hand_size: int
    city: list[Built]
    characters: list[str | None]  # revealed ones by name; hidden ones as None (all named for yourself)
    revealed: list[str] = field(default_factory=list)  # revealed this round
    hand: list[str] | None = None  # only your own
    crown: bool = False


class TurnView(Struct, omit_defaults=True):
    seat: int
    character: str
    gathered: bool = False
    builds: int = 0
    limit: int = 1
    built: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    bewitched: bool = False
    resumed: bool = False
    paused: bool = False
    drawn: list[str] = field(default_factory=list)  # only for the player drawing
    # Why this turn only gathers resources (`bewitched` is then True): "bewitched" (the Witch's victim)
    # or "hospital" (a killed player who owns the Hospital, 2000).
    gather_only_reason: str | None = None


class MarkersView(Struct, omit_defaults=True):
    killed: str | None = None
    robbed: str | None = None
    bewitched: str | None = None
    warrants: list[str] = field(default_factory=list)
    signed: str | None = None  # known to the Magistrate, or to all once revealed
    threats: list[str] = field(default_factory=list)
    flowered: str | None = None  # known to the Blackmailer, or to all once revealed
    threats_revealed: list[str] = field(default_factory=list)


class PendingView(Struct, omit_defaults=True):
    kind: str
    seat: int
    waiting: str  # a public sentence: "waiting for Ana (Magistrate)"
    mode: str | None = None
    about: str | None = None
    options: list[str] = field(default_factory=list)  # only for the deciding seat
    selected: list[str] = field(default_factory=list)  # only for the deciding seat
    min: int = 0
    max: int = 0


class View(Struct, omit_defaults=True):
    seat: int | None
    rules: str
    round: int
    phase: str
    lineup: list[str]
    uniques: list[str]
    players: list[PlayerView]
    crown: int
    deck_size: int
    complete_at: int
    faceup: list[str]
    facedown_count: int
    pool: list[str] = field(default_factory=list)  # the characters passed to you, when you choose
    pool_size: int = 0
    called: str | None = None
    turn: TurnView | None = None
    markers: MarkersView = field(default_factory=MarkersView)
    tax: int = 0
    first_complete: int | None = None
    plague: int | None = None  # the Plague variant: the sick seat (public)
    pending: PendingView | None = None
    legal: list[Command] = field(default_factory=list)
    scores: list[Score] | None = None
    winners: list[int] = field(default_factory=list)
    seq: int = 0
    variants: list[str] = field(default_factory=list)  # the rule set's variants switched on (short-7, plague...)
    # Only in `reveal_all_view` (omitted from every seat's view, whose bytes stay as they were):
    facedown: list[str] = field(default_factory=list)  # the face-down discards
    everything: bool = False  # this view shows every hidden card


def _player_view(g: GameState, seat: int, me: int | None) -> PlayerView:
    p = g.players[seat]
    revealed = [c for c in p.characters if g.revealed.get(c) == seat]
    if seat == me or g.phase == "over":
        chars: list[str | None] = list(p.characters)
    else:
        chars = [c if c in revealed else None for c in p.characters]
    # Copies: the engine changes cities and their districts in place (a build, the Artist, the
    # Museum), and a view must stay the moment it was taken. Cards under a Museum are face down:
    # only their count shows to the others.
    hide = seat != me
    city = [msgspec.structs.replace(b, under=[""] * len(b.under) if hide else list(b.under)) for b in p.city]
    return PlayerView(
        seat=seat,
        name=p.name,
        gold=p.gold,
        hand_size=len(p.hand),
        city=city,
        characters=chars,
        revealed=revealed,
        hand=list(p.hand) if seat == me else None,
        crown=g.crown == seat,
    )


def _pending(g: GameState, me: int | None) -> PendingView:
    p = g.pending
    kind = str(type(p).__struct_config__.tag)
    pv = PendingView(kind=kind, seat=p.seat, waiting=waiting_for(g))
    mine = me is not None and p.seat == me
    if isinstance(p, PickCharacter):
        pv.mode = p.mode
    elif isinstance(p, Choice):
        pv.about = p.about
        if mine:
            pv.options = list(p.options)
    elif isinstance(p, SelectCards):
        pv.about = p.purpose
        pv.min, pv.max = p.min, p.max
        if mine:
            pv.selected = list(p.selected)
            pv.options = list(select_source(g, p))
    elif isinstance(p, KeepCards):
        pv.min = pv.max = p.keep
    return pv


def view(g: GameState, seat: int | None, others: dict[int, PlayerView] | None = None) -> View:
    """What `seat` (None: a spectator) knows of `g`.

    `others`, for the views of one state taken one after the other (a table's seats after a move):
    each player as the other seats see them is made once, kept there, and shared by those views (it
    is the same for every seat but theirs; a seat's own player is always made for it alone). Pass
    a new dict for each state; never change a view taken this way."""
    return _view(g, seat, everything=False, others=others)


def _others_view(g: GameState, seat: int, others: dict[int, PlayerView]) -> PlayerView:
    """Player `seat` as any other seat sees them (as `_player_view` makes it for any `me` but theirs)."""
    pv = others.get(seat)
    if pv is None:
        pv = others[seat] = _player_view(g, seat, None)
    return pv


def _view(g: GameState, seat: int | None, everything: bool, others: dict[int, PlayerView] | None = None) -> View:
    t = g.turn
    tv = None
    if t is not None:
        tv = TurnView(
            seat=t.seat,
            character=t.character,
            gathered=t.gathered,
            builds=t.builds,
            limit=t.limit,
            built=list(t.built),
            used=list(t.used),
            bewitched=t.gather_only is not None,
            resumed=t.resumed,
            paused=t.paused,
            drawn=list(t.drawn) if seat == t.seat else [],
            gather_only_reason=card_of(t.gather_only).gather_only_reason if t.gather_only is not None else None,
        )
    sel = g.selection
    my_pick = seat is not None and isinstance(g.pending, PickCharacter) and g.pending.seat == seat
    v = View(
        seat=seat,
        rules=g.rules.name,
        round=g.round,
        phase=g.phase,
        lineup=list(g.lineup),
        uniques=list(g.uniques),
        players=[
            _player_view(g, s, seat) if others is None or s == seat else _others_view(g, s, others)
            for s in range(len(g.players))
        ],
        crown=g.crown,
        deck_size=len(g.deck),
        complete_at=complete_at(g),
        faceup=list(sel.faceup),
        facedown_count=len(sel.facedown),
        pool=list(sel.pool) if my_pick else [],
        pool_size=len(sel.pool) if g.phase == "selection" else 0,
        called=g.lineup[g.called - 1] if g.phase == "turns" and g.called else None,
        turn=tv,
        markers=MarkersView(killed=g.markers.killed),
        tax=g.tax,
        first_complete=g.first_complete,
        pending=_pending(g, seat),
        legal=legal_commands(g, seat) if seat is not None else [],
        scores=g.scores,
        winners=list(g.winners),
        seq=g.seq,
        variants=list(g.rules.variants),
    )
    for state in g.cards.values():  # what each card lets this seat know of its state (warrants, threats...)
        state.show(g, seat, v, everything)
    return v


def reveal_all_view(g: GameState) -> View:
    """Everything: a spectator's view plus every hidden card (replays of saves only; never a seat's view)."""
    v = _view(g, None, everything=True)
    for pv, p in zip(v.players, g.players):
        pv.hand = list(p.hand)
        pv.characters = list(p.characters)
        pv.city = [msgspec.structs.replace(b, under=list(b.under)) for b in p.city]  # cards under a Museum included
    v.facedown = list(g.selection.facedown)
    v.pool = list(g.selection.pool) if g.phase == "selection" else []
    if v.turn is not None and g.turn is not None:
        v.turn.drawn = list(g.turn.drawn)
    if g.pending is not None and g.phase != "over":
        v.pending = _pending(g, g.pending.seat)
    v.everything = True
    return v


def redact_event(ev: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: hidden fields blanked unless `seat` is entitled."""
    if ev.private is None or (seat is not None and seat in ev.private):
        return ev
    return msgspec.structs.replace(ev, character=None, card=None, cards=[])


def redact_events(events: list[Event], seat: int | None) -> list[Event]:
    return [redact_event(e, seat) for e in events]


_encoder = msgspec.msgpack.Encoder()


def view_bytes(g: GameState, seat: int | None) -> bytes:
    return _encoder.encode(view(g, seat))
