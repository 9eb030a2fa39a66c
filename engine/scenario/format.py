"""Parsing scenario files: TOML text to a checked `Scenario`.

Every problem is reported as `ScenarioError` naming the file, the line and
what is wrong; unknown keys are refused so that a typo never silently passes.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from typing import Any

from msgspec import Struct, field

from ..cards.characters import CHARACTERS
from ..cards.districts import DISTRICTS
from ..cards.lineups import PRESETS
from ..rules import RULESETS


class ScenarioError(Exception):
    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


class PlayerSpec(Struct):
    name: str
    gold: int = 2
    hand: list[str] = field(default_factory=list)
    city: list[str] = field(default_factory=list)  # "Name", "Name+" beautified, "Museum[Temple,Castle]"
    characters: list[str] = field(default_factory=list)
    revealed: list[str] = field(default_factory=list)


class Step(Struct):
    line: int
    player: str | None = None
    do: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    refused: str | bool | None = None
    expect: dict[str, Any] = field(default_factory=dict)


class Scenario(Struct):
    path: str
    title: str
    source: str
    setup: dict[str, Any]
    players: list[PlayerSpec]
    steps: list[Step]
    expect: dict[str, Any]
    text: str = ""


SETUP_KEYS = {
    "rules",
    "characters",
    "preset",
    "uniques",
    "seed",
    "crown",
    "deck",
    "phase",
    "turn",
    "round",
    "faceup",
    "facedown",
    "killed",
    "robbed",
    "bewitched",
    "character_order",
    "first_complete",
    "tax",
    "warrants",
    "signed",
    "threats",
    "flowered",
    "cards",
    "refused",
    "variants",
    "plague",
}
PLAYER_KEYS = {"name", "gold", "hand", "city", "characters", "revealed"}
STEP_KEYS = {
    "player",
    "do",
    "refused",
    "expect",
    "target",
    "character",
    "district",
    "card",
    "option",
    "via",
    "using",
    "kind",
    "gold",
    "name",
}
EXPECT_KEYS = {
    "plague",
    "complete_at",
    "players",
    "crown",
    "pending",
    "turn",
    "phase",
    "round",
    "winner",
    "scores",
    "breakdown",
    "deck_top",
    "deck_bottom",
    "deck_size",
    "legal_includes",
    "legal_excludes",
    "killed",
    "robbed",
    "bewitched",
    "faceup",
    "facedown_count",
    "tax",
    "events",
    "no_events",
    "first_complete",
    "warrants",
    "threats",
    "called",
    "signed",
    "flowered",
    "warrant_revealed",
    "threats_revealed",
    "private",
}
EXPECT_PLAYER_KEYS = {
    "gold",
    "hand",
    "hand_size",
    "city",
    "city_size",
    "characters",
    "score",
    "hand_includes",
    "hand_excludes",
    "city_includes",
    "city_excludes",
}
COMMANDS = {
    "pick",
    "discard_character",
    "take_gold",
    "draw_cards",
    "keep",
    "build",
    "income",
    "ability",
    "choose",
    "select",
    "unselect",
    "confirm",
    "end_turn",
}


def line_of(text: str, *needles: str) -> int | None:
    """The first line holding all needles (for messages about a key or value)."""
    for i, line in enumerate(text.splitlines(), 1):
        if all(n in line for n in needles):
            return i
    return None


def _step_lines(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if re.match(r"\s*\[\[\s*steps\s*\]\]", line)]


def load(text: str, path: str = "<scenario>") -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise ScenarioError(path, int(m.group(1)) if m else None, f"not valid TOML: {e}") from None

    def fail(message: str, *needles: str) -> ScenarioError:
        return ScenarioError(path, line_of(text, *needles) if needles else None, message)

    for key in data:
        if key not in {"title", "source", "setup", "players", "steps", "expect"}:
            raise fail(f"unknown top-level key {key!r}", key)
    title = data.get("title")
    if not isinstance(title, str) or not title:
        raise fail('a scenario needs a title = "..." saying what it shows')
    setup = data.get("setup", {})
    if not isinstance(setup, dict):
        raise fail("[setup] must be a table", "setup")
    for key in setup:
        if key not in SETUP_KEYS:
            raise fail(f"unknown key {key!r} in [setup]; known: {', '.join(sorted(SETUP_KEYS))}", key)
    if "preset" in setup and setup["preset"] not in PRESETS:
        raise fail(f"unknown preset {setup['preset']!r}", str(setup["preset"]))
    if "rules" in setup and setup["rules"] not in RULESETS:
        raise fail(f"unknown rule set {setup['rules']!r}", str(setup["rules"]))
    for key in ("characters", "faceup", "facedown", "character_order", "warrants", "threats"):
        for c in setup.get(key, []):
            _check_character(c, fail)
    for key in ("turn", "killed", "robbed", "bewitched", "signed", "flowered"):
        if key in setup and not (key == "turn" and setup[key] == "first"):
            _check_character(setup[key], fail)
    for c in setup.get("deck", []):
        _check_district(c, fail)
    if setup.get("phase", "turn") not in ("turn", "selection"):
        raise fail('phase must be "turn" or "selection"', "phase")

    players = []
    raw_players = data.get("players", [])
    if not isinstance(raw_players, list) or len(raw_players) < 2:
        raise fail("a scenario needs at least two [[players]]")
    for rp in raw_players:
        for key in rp:
            if key not in PLAYER_KEYS:
                raise fail(f"unknown key {key!r} in [[players]]; known: {', '.join(sorted(PLAYER_KEYS))}", key)
        if "name" not in rp:
            raise fail("every [[players]] entry needs a name", "[[players]]")
        for c in rp.get("hand", []):
            _check_district(c, fail)
        for c in rp.get("city", []):
            _check_district(parse_built(c)[0], fail)
            for u in parse_built(c)[2]:
                _check_district(u, fail)
        for c in rp.get("characters", []) + rp.get("revealed", []):
            _check_character(c, fail)
        try:
            players.append(PlayerSpec(**rp))
        except TypeError as e:
            raise fail(f"bad [[players]] entry for {rp.get('name')!r}: {e}", str(rp.get("name"))) from None
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise fail("two players have the same name")

    steps = []
    lines = _step_lines(text)
    for i, rs in enumerate(data.get("steps", [])):
        line = lines[i] if i < len(lines) else None
        for key in rs:
            if key not in STEP_KEYS:
                raise ScenarioError(
                    path, line, f"unknown key {key!r} in [[steps]]; known: {', '.join(sorted(STEP_KEYS))}"
                )
        do = rs.get("do")
        if do is not None and do not in COMMANDS:
            raise ScenarioError(path, line, f"unknown command {do!r}; known: {', '.join(sorted(COMMANDS))}")
        if do is not None and rs.get("player") not in names:
            raise ScenarioError(path, line, f"step player {rs.get('player')!r} is not one of the players {names}")
        if do is None and "expect" not in rs:
            raise ScenarioError(path, line, "a step needs a command (do = ...) or an expect table")
        if "target" in rs and rs["target"] not in names:
            raise ScenarioError(path, line, f"target {rs['target']!r} is not one of the players {names}")

        def step_error(m: str, line: int | None = line) -> Exception:
            return ScenarioError(path, line, m)

        _check_expect(rs.get("expect", {}), names, step_error)
        args = {k: v for k, v in rs.items() if k not in ("player", "do", "refused", "expect")}
        steps.append(
            Step(
                line=line or 0,
                player=rs.get("player"),
                do=do,
                args=args,
                refused=rs.get("refused"),
                expect=rs.get("expect", {}),
            )
        )
    expect = data.get("expect", {})
    _check_expect(expect, names, lambda m: fail(m, "[expect"))
    crown = setup.get("crown")
    if crown is not None and crown not in names:
        raise fail(f"crown {crown!r} is not one of the players", "crown")
    if "plague" in setup and setup["plague"] not in names:
        raise fail(f"plague {setup['plague']!r} is not one of the players", "plague")
    return Scenario(
        path=path,
        title=title,
        source=str(data.get("source", "")),
        setup=setup,
        players=players,
        steps=steps,
        expect=expect,
        text=text,
    )


def parse_built(spec: str) -> tuple[str, bool, list[str]]:
    """'Castle' / 'Castle+' (beautified) / 'Museum[Temple,Tavern]' (cards under it)."""
    under: list[str] = []
    m = re.fullmatch(r"(.*?)\[(.*)\]", spec)
    if m:
        spec = m.group(1)
        under = [u.strip() for u in m.group(2).split(",") if u.strip()]
    beautified = spec.endswith("+")
    return spec.rstrip("+").strip(), beautified, under


def _check_character(c: Any, fail: Callable[[str, str], Exception]) -> None:
    if c not in CHARACTERS:
        raise fail(f"unknown character {c!r}", str(c))


def _check_district(c: Any, fail: Callable[[str, str], Exception]) -> None:
    if c not in DISTRICTS:
        raise fail(f"unknown district {c!r}", str(c))


def _check_expect(expect: dict[str, Any], names: list[str], err: Callable[[str], Exception]) -> None:
    for key, value in expect.items():
        if key not in EXPECT_KEYS:
            raise err(f"unknown expectation {key!r}; known: {', '.join(sorted(EXPECT_KEYS))}")
        if key in ("players", "breakdown"):
            for name, checks in value.items():
                if name not in names:
                    raise err(f"expectation about unknown player {name!r}")
                if key == "players":
                    for k in checks:
                        if k not in EXPECT_PLAYER_KEYS:
                            raise err(
                                f"unknown player expectation {k!r}; known: {', '.join(sorted(EXPECT_PLAYER_KEYS))}"
                            )
        if key == "scores":
            for name in value:
                if name not in names:
                    raise err(f"score for unknown player {name!r}")
