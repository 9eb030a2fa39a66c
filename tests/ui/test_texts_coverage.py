"""Every card reads properly, in English and Spanish: coverage by random play.

Random legal commands play many games: every preset and `preset="random"`
line-ups at every player count, and every other rule set (older editions, with
their variants). We collect each `Ability` (name, option) and
`Build(via=...)` offered, each `Choice` (about, kind of option) and
`SelectCards` purpose asked, and each event kind (with its option) that
happens, keeping a few real positions of each. Each one is then rendered
through the UI's own functions (`build_menu` on the deciding seat's view, the
waiting sentence on another seat's view, `LogWriter.line` on the event as a
seat in `private`, a seat outside it and a spectator receive it), with the
catalogue's audit on: a generic stand-in, a missing key, an English text
standing in for a Spanish one or an unfilled {placeholder} fails the test,
naming the key. A card whose texts are missing therefore fails here.
"""

from __future__ import annotations

import copy
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from engine import GameConfig, apply, legal_commands, new_game, redact_event, view
from engine.cards.characters import CHARACTERS
from engine.cards.districts import DISTRICTS, UNIQUE_DISTRICTS
from engine.cards.lineups import PRESETS
from engine.commands import Ability, Build
from engine.decisions import Choice, SelectCards
from engine.errors import SetupError
from engine.hooks import ROLES, UNIQUES
from engine.rules import RULESETS
from ui.i18n import LANGUAGES, Catalogue, _load
from ui.log_text import LogWriter
from ui.prompt_model import Menu, build_menu, waiting_sentence

ROOT = Path(__file__).resolve().parents[2]
PLAYER_COUNTS = (2, 3, 4, 5, 6, 7, 8)
RANDOM_SEEDS = 8  # random line-ups per player count
PRESET_SEEDS = 2
OTHER_RULES_SEEDS = 3  # games per player count of each other rule set (and again with each variant)
SAMPLES = 3  # positions kept per key
NAMES = ["Ana", "Ben", "Cid", "Dee", "Eva", "Fox", "Gus", "Hal"]


def _option_class(option: str) -> str:
    """Choice options that stand for any seat / card / character are one key."""
    seat, _, rest = option.partition(":")
    if seat.isdigit():
        return "<seat>:<character>" if rest else "<seat>"
    if option in DISTRICTS:
        return "<district>"
    if option in CHARACTERS:
        return "<character>"
    return option


class Seen:
    def __init__(self) -> None:
        self.decisions: dict[tuple, list] = defaultdict(list)  # key -> [(view of the deciding seat, view of another)]
        self.events: dict[tuple, list] = defaultdict(list)  # (kind, option) -> [(event, names)]
        self.games = self.commands = 0

    def want(self, keys: list[tuple]) -> list[tuple]:
        return [k for k in keys if len(self.decisions[k]) < SAMPLES]


def _decision_keys(g, legal) -> list[tuple]:
    keys = []
    for c in legal:
        if isinstance(c, Ability):
            keys.append(("ability", c.name, c.option))
        elif isinstance(c, Build) and c.via is not None:
            keys.append(("build", c.via))
    pd = g.pending
    if isinstance(pd, Choice):
        keys += [("choice", pd.about, _option_class(o)) for o in pd.options]
    elif isinstance(pd, SelectCards):
        keys.append(("select", pd.purpose))
    return list(dict.fromkeys(keys))


def _play(seen: Seen, cfg: GameConfig) -> None:
    try:
        g, events = new_game(cfg)
    except SetupError:  # a player count this line-up or rule set does not allow
        return
    names = cfg.players
    rng = random.Random(cfg.seed * 7919 + len(names))
    seen.games += 1

    def note(evs):
        for e in evs:
            k = (e.kind, "*" if e.kind == "sacrificed" else e.option)
            if len(seen.events[k]) < SAMPLES:
                seen.events[k].append((e, names))

    note(events)
    while g.phase != "over":
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        wanted = seen.want(_decision_keys(g, legal))
        if wanted:
            # copies: a view shares the state's city lists, which later moves would change under it
            mine = copy.deepcopy(view(g, seat))
            other = copy.deepcopy(view(g, (seat + 1) % len(names)))
            for k in wanted:
                seen.decisions[k].append((mine, other))
        note(apply(g, rng.choice(legal), check=False))
        seen.commands += 1


@pytest.fixture(scope="module")
def seen() -> Seen:
    s = Seen()
    for n in PLAYER_COUNTS:
        players = NAMES[:n]
        for preset in PRESETS:
            for i in range(PRESET_SEEDS):
                _play(s, GameConfig(players=players, preset=preset, seed=100 * n + i))
        for i in range(RANDOM_SEEDS):
            _play(s, GameConfig(players=players, preset="random", seed=1000 * n + i))
        for name, rules in RULESETS.items():
            if name == "2016":
                continue
            variants = [[]] + [[o] for o in getattr(rules, "options", ()) if o == "plague"]
            for v in variants:
                for i in range(OTHER_RULES_SEEDS):
                    cfg = GameConfig(players=players, rules=name, seed=2000 * n + i)
                    if v:
                        cfg = GameConfig(players=players, rules=name, seed=2000 * n + i, variants=v)
                    _play(s, cfg)
    return s


def _texts(menu: Menu) -> list[str]:
    out = [menu.title, menu.hint]
    for e in menu.entries:
        out += [e.label.plain, e.detail]
        if e.submenu is not None:
            out += _texts(e.submenu)
    return out


def _problems(cat: Catalogue, texts: list[str]) -> list[str]:
    bad = list(cat.audit or [])
    bad += [f"raw placeholder in {t!r}" for t in texts if re.search(r"\{\w*\}", t)]
    return bad


def test_coverage_is_broad(seen):
    abilities = {k for k in seen.decisions if k[0] == "ability"}
    choices = {k[1] for k in seen.decisions if k[0] == "choice"}
    selects = {k for k in seen.decisions if k[0] == "select"}
    kinds = {k[0] for k in seen.events}
    print(
        f"\n{seen.games} games, {seen.commands} commands: {len(abilities)} (ability, option) keys, "
        f"{len({k for k in seen.decisions if k[0] == 'build'})} build-via keys, "
        f"{len({k for k in seen.decisions if k[0] == 'choice'})} (choice, option) keys over {len(choices)} "
        f"questions, {len(selects)} select purposes, {len(kinds)} event kinds "
        f"({len(seen.events)} with options)"
    )
    # Every character with an ability and every unique district with one must have been offered.
    names = {k[1] for k in abilities}
    for must in (
        "Assassin",
        "Witch",
        "Magistrate",
        "Thief",
        "Spy",
        "Blackmailer",
        "Magician",
        "Wizard",
        "Seer",
        "Emperor",
        "Abbot",
        "Warlord",
        "Diplomat",
        "Marshal",
        "Queen",
        "Artist",
        "Tax Collector",
        "Navigator",
        "Scholar",
        "Armory",
        "Laboratory",
        "Smithy",
        "Museum",
    ):
        assert must in names, must
    assert {
        "Theater",
        "Magistrate.warrant",
        "Magistrate.reveal",
        "Blackmailer.threat",
        "Blackmailer.bribe",
        "Blackmailer.reveal",
        "Wizard.take",
        "Wizard.use",
    } <= choices
    assert {("select", p) for p in ("Magician", "Scholar", "Cardinal", "Seer", "Thieves' Den")} <= selects
    assert {
        "theater_received",
        "theater",
        "warrant_revealed",
        "threat_revealed",
        "poor_house",
        "museum",
        "armory",
        "sacrificed",
        "thieves_den",
        "queen_gold",
    } <= kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_decision_reads_properly(seen, lang):
    cat = Catalogue(lang)
    failures: dict[tuple, list[str]] = {}
    for key, samples in sorted(seen.decisions.items(), key=str):
        for mine, other in samples:
            cat.audit = []
            texts = _texts(build_menu(mine, cat))
            texts.append(waiting_sentence(other, cat))
            bad = _problems(cat, texts)
            if bad:
                failures[key] = sorted(set(bad))
    cat.audit = None
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def _hidden_words(cat: Catalogue, ev, redacted) -> set[str]:
    """Names in the hidden fields that the redacted event does not also show."""
    hidden = {ev.character, ev.card, *ev.cards} - {None, ""}
    public = {redacted.district, redacted.option, *redacted.cards} - {None, ""}
    return {cat.card(c) for c in hidden - public}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_reads_properly_for_every_seat(seen, lang):
    cat = Catalogue(lang)
    failures: dict[tuple, list[str]] = {}
    for key, samples in sorted(seen.events.items(), key=str):
        for ev, names in samples:
            seats = [None] + list(range(len(names)))
            for seat in seats:
                red = redact_event(ev, seat)
                cat.audit = []
                line = LogWriter(cat, seat).line(red, names)
                bad = _problems(cat, [line.text])
                entitled = ev.private is not None and seat is not None and seat in ev.private
                assert line.private == entitled
                if ev.private is not None and not entitled:
                    leaked = [
                        w for w in _hidden_words(cat, ev, red) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", line.text)
                    ]
                    bad += [f"hidden {w!r} in the public sentence {line.text!r}" for w in leaked]
                if bad:
                    failures[key + (seat,)] = sorted(set(bad))
    cat.audit = None
    assert not failures, "\n".join(f"{k}: {v}" for k, v in failures.items())


def test_theater_received_full_text_only_for_its_seat():
    from engine.events import Event

    names = ["Ana", "Ben", "Cid", "Dee"]
    ev = Event("theater_received", seat=1, character="Magistrate", private=[1])
    for lang, word in (("en", "Magistrate"), ("es", "Magistrado")):
        cat = Catalogue(lang)
        own = LogWriter(cat, 1).line(redact_event(ev, 1), names)
        assert own.private and word in own.text and "Ben" in own.text
        for seat in (0, 2, None):
            other = LogWriter(cat, seat).line(redact_event(ev, seat), names)
            assert not other.private and "Ben" in other.text and word not in other.text and "?" not in other.text


def test_every_card_has_its_rule_text_and_every_key_both_languages():
    en, es = _load("en"), _load("es")
    assert set(en) == set(es), sorted(set(en) ^ set(es))
    cards = [f"character_text.{c}" for c in CHARACTERS if c in ROLES]
    cards += [f"district_text.{d}" for d in UNIQUE_DISTRICTS if d in UNIQUES]
    assert not [k for k in cards if k not in en], [k for k in cards if k not in en]
    for lang, texts in (("en", en), ("es", es)):
        for k, v in texts.items():  # every {placeholder} must be one the UI fills
            for form in v if isinstance(v, tuple) else (v,):  # a text with plural forms: each of them
                for name in re.findall(r"\{(\w*)(?::\w+)?\}", form):
                    assert name, f"{lang}: {k}: empty placeholder"


def test_every_event_kind_the_engine_emits_has_a_sentence():
    """Rare events too (random play may miss them): every `Event("kind"` in the engine's source (or
    `EVENT("kind"`, its `Final` name in the compiled flow: engine/finals.py)."""
    source = "\n".join(p.read_text() for p in (ROOT / "engine").rglob("*.py"))
    kinds = set(re.findall(r"(?:Event|EVENT)\(\s*(?:kind=)?\"(\w+)\"", source))
    assert len(kinds) > 60
    for lang in LANGUAGES:
        texts = _load(lang)
        missing = sorted(k for k in kinds if not any(x == f"event.{k}" or x.startswith(f"event.{k}_") for x in texts))
        assert not missing, f"{lang}: no sentence for {missing}"


def test_card_texts_have_one_home():
    """Card texts live in the catalogues only (ui/i18n/locale/) (they once were in engine/cards/texts.py)."""
    assert not (ROOT / "engine" / "cards" / "texts.py").exists(), (
        "card texts belong in the catalogues (ui/i18n/locale/citadels.pot and its .po), not in the engine"
    )
