"""Running a scenario: build the position, play the steps, check the expectations.

After every accepted command the invariants are checked (cards conserved from
the starting position, gold never negative, one crown); a refused command
must leave the state byte-for-byte unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import msgspec
from msgspec import Struct

from .. import flow
from ..apply import apply
from ..cards.districts import base_deck
from ..cards.lineups import PRESETS
from ..cardstate import AnyCardState
from ..city import complete_at
from ..commands import Command
from ..decisions import PickCharacter
from ..errors import IllegalCommand, SetupError
from ..events import Event
from ..invariants import all_cards, check
from ..legal import legal_commands
from ..lineup_check import check_lineup
from ..rng import Rng, seed_state
from ..roles.blackmailer import Threats
from ..roles.magistrate import Warrants
from ..roles.thief import Robbery
from ..roles.witch import Bewitchment, bewitched
from ..rules import RULESETS, with_variants
from ..scoring import final_scores, winners
from ..setup import GameConfig, resolve_lineup
from ..state import Built, GameState, Markers, Player, encode
from ..variants.plague import Sick, sick_seat
from .format import Scenario, Step, parse_built


class Result(Struct):
    path: str
    title: str
    ok: bool
    message: str = ""


class Failure(Exception):
    pass


def build_state(sc: Scenario) -> tuple[GameState, list[Event]]:
    s = sc.setup
    names = [p.name for p in sc.players]
    n = len(names)
    rules = s.get("rules", "2016")
    try:
        if RULESETS[rules].edition != "2016":  # the older rule sets' own line-ups and decks
            chars, uniques = resolve_lineup(
                GameConfig(
                    players=names,
                    characters=s.get("characters"),
                    uniques=s.get("uniques"),
                    rules=rules,
                    seed=int(s.get("seed", 0)),
                )
            )
        elif "characters" in s:
            chars = check_lineup(list(s["characters"]), n, rules)
            uniques = list(s.get("uniques") or PRESETS[s.get("preset", "first-game")].uniques)
        else:
            chars, uniques = resolve_lineup(
                GameConfig(players=names, preset=s.get("preset", "first-game"), rules=rules, uniques=s.get("uniques"))
            )
    except SetupError as e:
        raise Failure(f"impossible set-up: {e}") from None
    players = []
    for ps in sc.players:
        city = []
        for spec in ps.city:
            name, beautified, under = parse_built(spec)
            city.append(Built(name, beautified, under))
        players.append(
            Player(name=ps.name, gold=ps.gold, hand=list(ps.hand), city=city, characters=list(ps.characters))
        )
    rng = Rng(seed_state(int(s.get("seed", 0))))
    if "deck" in s:
        deck = list(reversed(s["deck"]))
    else:
        used: Counter[str] = Counter()
        for p in players:
            used.update(p.hand)
            for b in p.city:
                used[b.name] += 1
                used.update(b.under)
        deck = list((Counter(base_deck() + uniques) - used).elements())
        rng.shuffle(deck)
    crown = names.index(s["crown"]) if "crown" in s else 0
    unknown = [v for v in s.get("variants", []) if v not in RULESETS[rules].options]
    if unknown:
        raise Failure(f"impossible set-up: the {rules} rules have no variant {unknown[0]!r}")
    g = GameState(
        rules=with_variants(RULESETS[rules], s.get("variants", [])),
        lineup=chars,
        uniques=uniques,
        players=players,
        deck=deck,
        crown=crown,
        rng=rng.state,
        pending=PickCharacter(crown),
        round=int(s.get("round", 1)),
    )
    g.tax = int(s.get("tax", 0))
    for kind, fields in s.get("cards", {}).items():  # any card's state, by its type: {HauntedBuilt = {round = 3}}
        try:
            state = msgspec.convert({"card": kind, **fields}, AnyCardState)
        except msgspec.ValidationError as e:
            raise Failure(f"impossible set-up: card state {kind!r}: {e}") from None
        g.cards[kind] = state
    if "first_complete" in s:
        g.first_complete = names.index(s["first_complete"])
    if "plague" in s:  # the Plague variant: the sick player
        Sick(seat=names.index(s["plague"])).put(g)
    ev: list[Event] = []
    if s.get("phase", "turn") == "selection":
        order = s.get("character_order")
        if order is not None and sorted(order) != sorted(chars):
            raise Failure("character_order must list exactly the line-up's characters")
        flow.start_round(g, ev, order=order)
        return g, ev
    g.phase = "turns"
    for seat, ps in enumerate(sc.players):
        for c in ps.characters:
            if c not in chars:
                raise Failure(f"{ps.name} holds the {c}, which is not in the line-up")
            g.holders[c] = seat
        for c in ps.revealed:
            g.revealed[c] = seat
    g.selection.faceup = list(s.get("faceup", []))
    g.selection.facedown = list(s.get("facedown", []))
    g.markers = Markers(killed=s.get("killed"))
    if s.get("robbed"):
        Robbery(character=s["robbed"]).put(g)
    if s.get("bewitched"):
        Bewitchment(character=s["bewitched"]).put(g)
    if s.get("warrants"):
        Warrants(characters=list(s["warrants"]), signed=s.get("signed", "")).put(g)
    if s.get("threats"):
        Threats(characters=list(s["threats"]), flowered=s.get("flowered")).put(g)
    turn = s.get("turn", "first")
    if turn == "first":
        g.called = 0
    else:
        if turn not in chars:
            raise Failure(f"turn {turn!r} is not in the line-up")
        g.called = chars.index(turn)
    flow.call_next(g, ev)
    return g, ev


def make_command(sc: Scenario, step: Step, seat: int) -> Command:
    names = [p.name for p in sc.players]
    fields: dict[str, Any] = {"type": step.do, "seat": seat}
    for k, v in step.args.items():
        fields["player" if k == "target" else k] = names.index(v) if k == "target" else v
    try:
        cmd: Command = msgspec.convert(fields, Command)
        return cmd
    except msgspec.ValidationError as e:
        raise Failure(f"line {step.line}: bad command {step.do!r}: {e}") from None


def _multiset(xs: Iterable[str]) -> list[str]:
    return sorted(xs)


def _city_specs(g: GameState, seat: int) -> list[str]:
    out = []
    for b in g.players[seat].city:
        spec = b.name + ("+" if b.beautified else "")
        if b.under:
            spec += "[" + ",".join(b.under) + "]"
        out.append(spec)
    return out


def _cmd_matches(want: dict[str, Any], cmd: Command, names: list[str]) -> bool:
    d = msgspec.to_builtins(cmd)
    for k, v in want.items():
        key = {"do": "type", "target": "player"}.get(k, k)
        if key == "player" and isinstance(v, str):
            v = names.index(v)
        if d.get(key) != v:
            return False
    return True


def check_expect(sc: Scenario, g: GameState, exp: dict[str, Any], events: list[Event]) -> list[str]:
    names = [p.name for p in sc.players]
    bad: list[str] = []

    def eq(what: str, want: object, got: object) -> None:
        if want != got:
            bad.append(f"{what}: expected {want!r}, got {got!r}")

    scores = g.scores if g.scores is not None else None
    for key, want in exp.items():
        if key == "players":
            for name, checks in want.items():
                seat = names.index(name)
                p = g.players[seat]
                for k, w in checks.items():
                    if k == "gold":
                        eq(f"{name}'s gold", w, p.gold)
                    elif k == "hand":
                        eq(f"{name}'s hand", _multiset(w), _multiset(p.hand))
                    elif k == "hand_size":
                        eq(f"{name}'s hand size", w, len(p.hand))
                    elif k == "hand_includes":
                        missing = list((Counter(w) - Counter(p.hand)).elements())
                        if missing:
                            bad.append(f"{name}'s hand lacks {missing} (hand: {p.hand})")
                    elif k == "hand_excludes":
                        present = [c for c in w if c in p.hand]
                        if present:
                            bad.append(f"{name}'s hand should not hold {present}")
                    elif k == "city":
                        eq(f"{name}'s city", _multiset(w), _multiset(_city_specs(g, seat)))
                    elif k == "city_includes":
                        have = [b.name for b in p.city]
                        missing = [c for c in w if c not in have]
                        if missing:
                            bad.append(f"{name}'s city lacks {missing} (city: {have})")
                    elif k == "city_excludes":
                        present = [c for c in w if any(b.name == c for b in p.city)]
                        if present:
                            bad.append(f"{name}'s city should not hold {present}")
                    elif k == "city_size":
                        eq(f"{name}'s city size", w, len(p.city))
                    elif k == "characters":
                        eq(f"{name}'s characters", _multiset(w), _multiset(p.characters))
                    elif k == "score":
                        scores = scores or final_scores(g)
                        eq(f"{name}'s score", w, scores[seat].total)
        elif key == "crown":
            eq("crown", want, names[g.crown])
        elif key == "pending":
            d = g.pending
            kind = type(d).__struct_config__.tag
            got = f"{names[d.seat]}:{kind}" if d.seat >= 0 else kind
            if ":" not in want and d.seat >= 0:
                got = names[d.seat]
            eq("pending decision", want, got)
        elif key == "turn":
            eq("turn", want, g.turn.character if g.turn else "none")
        elif key == "called":
            eq("called character", want, g.lineup[g.called - 1] if g.called else "none")
        elif key == "phase":
            eq("phase", want, g.phase)
        elif key == "round":
            eq("round", want, g.round)
        elif key in ("scores", "winner", "breakdown"):
            scores = scores or final_scores(g)
            if key == "scores":
                eq("scores", want, {names[s.seat]: s.total for s in scores})
            elif key == "winner":
                won = [names[s] for s in (g.winners or winners(g, scores))]
                eq("winner", want if isinstance(want, list) else [want], won)
            else:
                for name, parts in want.items():
                    sc_ = msgspec.to_builtins(scores[names.index(name)])
                    for k, w in parts.items():
                        eq(f"{name}'s {k}", w, sc_.get(k, {} if k in ("bonuses", "choices") else 0))
        elif key == "deck_top":
            eq("deck top", list(want), list(reversed(g.deck))[: len(want)])
        elif key == "deck_bottom":
            eq("deck bottom", list(want), g.deck[: len(want)])
        elif key == "deck_size":
            eq("deck size", want, len(g.deck))
        elif key in ("legal_includes", "legal_excludes"):
            for w in want:
                w = dict(w)
                who = w.pop("player", None)
                seat = names.index(who) if who else g.pending.seat
                legal = legal_commands(g, seat) if seat >= 0 else []
                found = any(_cmd_matches(w, c, names) for c in legal)
                if key == "legal_includes" and not found:
                    bad.append(f"not legal but expected to be: {w}")
                if key == "legal_excludes" and found:
                    bad.append(f"legal but expected not to be: {w}")
        elif key in ("killed", "robbed", "bewitched"):
            robbery = Robbery.get(g)
            got_m = {"killed": g.markers.killed, "robbed": robbery and robbery.character, "bewitched": bewitched(g)}
            eq(key, want, got_m[key] or "none")
        elif key in ("warrants", "signed", "warrant_revealed"):
            wr = Warrants.get(g)
            got_w: dict[str, object] = {
                "warrants": _multiset(wr.characters if wr else []),
                "signed": (wr.signed if wr else None) or "none",
                "warrant_revealed": bool(wr and wr.revealed),
            }
            eq(key.replace("_", " "), _multiset(want) if key == "warrants" else want, got_w[key])
        elif key in ("threats", "flowered", "threats_revealed"):
            th = Threats.get(g)
            got_t: dict[str, object] = {
                "threats": _multiset(th.characters if th else []),
                "flowered": (th.flowered if th else None) or "none",
                "threats_revealed": _multiset(th.revealed if th else []),
            }
            eq(key.replace("_", " "), want if key == "flowered" else _multiset(want), got_t[key])
        elif key == "private":  # [{event = KIND, seen_by = [NAMES]}]: who sees the event's hidden fields
            for w in want:
                hits = [
                    e
                    for e in events
                    if e.kind == w["event"] and ("player" not in w or e.player == names.index(w["player"]))
                ]
                if not hits:
                    bad.append(f"event {w['event']!r} did not happen")
                for e in hits:
                    got_p = sorted(names[s] for s in e.private) if e.private is not None else "everyone"
                    eq(f"who sees {w['event']!r}", sorted(w["seen_by"]), got_p)
        elif key == "faceup":
            eq("face-up discards", _multiset(want), _multiset(g.selection.faceup))
        elif key == "facedown_count":
            eq("face-down discards", want, len(g.selection.facedown))
        elif key == "tax":
            eq("tax token", want, g.tax)
        elif key == "plague":
            sick = sick_seat(g)
            eq("plague", want, names[sick] if sick is not None else "none")
        elif key == "complete_at":
            eq("districts to complete a city", want, complete_at(g))
        elif key == "first_complete":
            eq("first complete city", want, names[g.first_complete] if g.first_complete is not None else "none")
        elif key == "events":
            kinds = [e.kind for e in events]
            for w in want:
                if w not in kinds:
                    bad.append(f"event {w!r} did not happen (events: {kinds})")
        elif key == "no_events":
            kinds = [e.kind for e in events]
            for w in want:
                if w in kinds:
                    bad.append(f"event {w!r} happened but should not have")
    return bad


def _describe(step: Step) -> str:
    args = " ".join(f"{k}={v!r}" for k, v in step.args.items())
    return f"line {step.line}: {step.player} {step.do} {args}".rstrip()


def run(sc: Scenario) -> Result:
    try:
        _run(sc)
    except Failure as e:
        return Result(sc.path, sc.title, False, str(e))
    return Result(sc.path, sc.title, True)


def _run(sc: Scenario) -> None:
    if "refused" in sc.setup:  # the set-up itself must be refused (an impossible line-up)
        want = str(sc.setup["refused"])
        try:
            build_state(sc)
        except Failure as e:
            if want.lower() not in str(e).lower():
                raise Failure(f"set-up refused with {str(e)!r}, expected a message containing {want!r}") from None
            return
        raise Failure("the set-up was accepted, but expected to be refused")
    g, events = build_state(sc)
    expected_cards = all_cards(g)
    names = [p.name for p in sc.players]
    for step in sc.steps:
        if step.do is not None:
            seat = names.index(step.player or "")
            cmd = make_command(sc, step, seat)
            before = encode(g)
            try:
                events = apply(g, cmd)
            except IllegalCommand as e:
                if not step.refused:
                    raise Failure(f"{_describe(step)}: refused: {e}") from None
                if isinstance(step.refused, str) and step.refused.lower() not in str(e).lower():
                    raise Failure(
                        f"{_describe(step)}: refused with {str(e)!r}, expected a message containing {step.refused!r}"
                    ) from None
                if encode(g) != before:
                    raise Failure(f"{_describe(step)}: the refused command changed the state") from None
            else:
                if step.refused:
                    raise Failure(f"{_describe(step)}: accepted, but expected to be refused")
                bad = check(g, expected_cards)
                if bad:
                    raise Failure(f"{_describe(step)}: invariant broken: {'; '.join(bad)}")
        if step.expect:
            bad = check_expect(sc, g, step.expect, events)
            if bad:
                raise Failure(f"line {step.line}: " + "; ".join(bad))
    bad = check_expect(sc, g, sc.expect, events)
    if bad:
        raise Failure("final expectations: " + "; ".join(bad))
