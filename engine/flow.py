"""The flow of a game: rounds, calling ranks, turns, the end of the game.

It knows no card by name; it calls the hooks of `engine.hooks`.
"""

from __future__ import annotations

from . import caches, selection
from .cards.editions import RANK_TABLE
from .cardstate import start_new_round
from .city import owned_uniques
from .events import Event
from .finals import EVENT, GAME_OVER, PLAY_TURN
from .hooks import ROLES, Role, active_variants, role_of
from .state import GameState, Markers, Turn


def lineup_roles(g: GameState) -> list[Role]:
    """The line-up's roles in rank order (do not change the list)."""
    return caches.lineup(g).roles


def start_round(g: GameState, ev: list[Event], order: list[str] | None = None) -> None:
    g.phase = "selection"
    g.called = 0
    g.turn = None
    g.holders = {}
    g.revealed = {}
    g.markers = Markers()
    if g.cards:  # no interpreted call when no card keeps a state
        start_new_round(g)  # the cards' round states (warrants, threats, a robbery...) go
    selection.start(g, ev, order)
    if not g.selection.steps:
        end_selection(g, ev)


def after_selection_step(g: GameState, ev: list[Event]) -> None:
    if selection.advance(g, ev):
        end_selection(g, ev)


def end_selection(g: GameState, ev: list[Event]) -> None:
    """Selection is over: end-of-selection effects (Theater), then call rank 1."""
    g.phase = "turns"
    g.called = 0
    for seat in range(len(g.players)):
        for u in caches.city(g, seat).end_selection:
            if u.end_selection(g, seat, ev):
                return
    for r in caches.lineup(g).on_selection_end:
        if r.on_selection_end(g, ev):
            return
    call_next(g, ev)


def call_next(g: GameState, ev: list[Event]) -> None:
    """Call the next rank; a killed or absent character is passed over silently."""
    lineup = g.lineup
    ranks = RANK_TABLE[g.rules.edition]
    while g.called < len(lineup):
        ch = lineup[g.called]
        g.called += 1
        ev.append(EVENT("called", character=ch, count=ranks[ch]))
        seat = g.holders.get(ch)
        if seat is None:
            continue
        if g.markers.killed == ch:
            cause = next((u for u in owned_uniques(g, seat) if u.killed_may_gather(g, seat)), None)
            if cause is not None:
                gather_only_turn(g, seat, ch, ev, cause.name)  # the Hospital (2000)
                return
            continue
        begin_turn(g, seat, ch, ev)
        return
    end_round(g, ev)


def gather_only_turn(g: GameState, seat: int, ch: str, ev: list[Event], cause: str) -> None:
    """A killed character's player still gathers resources, and nothing else: no reveal, no
    build, no ability, no end-of-turn effects (the turn ends once resources are gathered).
    `cause` is the card that allows it (the Hospital)."""
    t = begin_turn(g, seat, ch, ev, resumed=True)
    t.gather_only = cause  # turn.legal and finish_gather: only gathering, then the turn ends
    ev.append(EVENT("gather_only", seat=seat, character=ch))  # public: the turn shows who plays


def begin_turn(g: GameState, seat: int, ch: str, ev: list[Event], resumed: bool = False) -> Turn:
    role = ROLES.get(ch) or role_of(ch)  # role_of, without a call in the common case
    t = Turn(seat=seat, character=ch, resumed=resumed, limit=role.build_limit)
    g.turn = t
    g.pending = PLAY_TURN(seat)
    if not resumed:
        g.revealed[ch] = seat
        ev.append(EVENT("revealed", seat=seat, character=ch))
        for r in caches.lineup(g).on_any_reveal:
            r.on_any_reveal(g, t, ev)
        if "on_reveal" in role.overridden:
            role.on_reveal(g, t, ev)
        if g.rules.edition != "2016":  # older districts that react to any reveal (the Ballroom)
            for s in range(len(g.players)):
                for u in caches.city(g, s).on_any_reveal:
                    u.on_any_reveal(g, s, t, ev)
        if g.rules.variants:
            for v in active_variants(g):
                v.turn_start(g, t, ev)  # the Plague's discard
    return t


def finish_gather(g: GameState, t: Turn, ev: list[Event]) -> None:
    """Resources are gathered: gathering-time reactions (the Blackmailer's threat)."""
    t.gathered = True
    g.pending = PLAY_TURN(t.seat)
    role = ROLES.get(t.character) or role_of(t.character)
    if "on_gather" in role.overridden:
        role.on_gather(g, t, ev)
    for r in caches.lineup(g).on_any_gather:
        r.on_any_gather(g, t, ev)
    if t.gather_only is not None and isinstance(g.pending, PLAY_TURN):
        end_turn(g, ev)  # a gather-only turn ends once resources are gathered


def end_turn(g: GameState, ev: list[Event]) -> None:
    t = g.turn
    assert t is not None
    if not t.paused and t.gather_only is None:
        for u in caches.city(g, t.seat).end_turn:
            u.end_turn(g, t, ev)  # Park, Poor House: before the Alchemist
        role = ROLES.get(t.character) or role_of(t.character)
        if "end_turn" in role.overridden:
            role.end_turn(g, t, ev)
    ev.append(EVENT("turn_ended", seat=t.seat, character=t.character))
    g.turn = None
    for r in caches.lineup(g).on_any_turn_end:
        if r.on_any_turn_end(g, t, ev):
            return
    call_next(g, ev)


def end_round(g: GameState, ev: list[Event]) -> None:
    """End-of-round effects in rank order, then the next round or the end of the game.

    A role whose end_round leaves a decision pending (the killed Emperor's crown)
    returns True; the decision's handler calls end_round again, which goes on with
    the next role (g.end_round_from)."""
    g.turn = None
    roles = lineup_roles(g)
    start, g.end_round_from = g.end_round_from, 0
    for i in range(start, len(roles)):
        r = roles[i]
        if "end_round" in r.overridden and r.end_round(g, ev):
            g.end_round_from = i + 1
            return
    killed = g.markers.killed
    if g.rules.reveal_killed and killed in g.holders:
        if killed not in g.revealed:  # 2000: the killed character reveals only now (a King heir did already)
            g.revealed[killed] = g.holders[killed]
            ev.append(EVENT("revealed", seat=g.holders[killed], character=killed, option="killed"))
        for r in caches.lineup(g).on_killed_revealed:
            r.on_killed_revealed(g, g.holders[killed], ev)
    ev.append(EVENT("round_ended", count=g.round))
    if g.first_complete is not None:
        end_game(g, ev)
        return
    g.round += 1
    start_round(g, ev)


def end_game(g: GameState, ev: list[Event]) -> None:
    from .scoring import final_scores, winners

    g.phase = "over"
    g.scores = final_scores(g)
    g.winners = winners(g, g.scores)
    g.pending = GAME_OVER()
    ev.append(EVENT("game_ended", seat=g.winners[0] if g.winners else -1, cards=[], count=len(g.winners)))
