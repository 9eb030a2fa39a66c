"""Fingerprints of whole seeded games: a change that alters any game's course shows as a changed hash.

`game_hash(case)` plays one seeded game with bots and hashes, in order: the set-up events; then,
at every command, the acting seat's legal commands, its view and a spectator's view (the bytes
the UI and the bots receive), the command and its events; finally the game's outcome (players'
gold, hands, cities and characters, the deck, the crown, the generator, scores and winners).
Only public engine names are used (`new_game`, `legal_commands`, `apply`, `view_bytes`, the bots),
never the state's layout, so the hashes survive a change in how the state is stored and fail
on any change in what happens. The stored hashes are `tests/data/game_hashes.json`.

    python -m tests.game_hashes > tests/data/game_hashes.json   # only when the rules are meant to change
"""

from __future__ import annotations

import hashlib
import json
import sys

import msgspec

from engine import GameConfig, apply, legal_commands, new_game, view, view_bytes
from engine.bots.random_bot import RandomBot
from engine.bots.registry import make_bot
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Fa", "Gu", "Hal"]
MAX_COMMANDS = 20_000

_enc = msgspec.msgpack.Encoder()


class Case(msgspec.Struct, frozen=True, omit_defaults=True):
    """One seeded game: its set-up and the bots at its seats."""

    rules: str
    players: int
    seed: int
    preset: str | None = None
    variants: tuple[str, ...] = ()
    bots: str = "random"  # "random", "normal" or "hard" (the hard bot with fixed iterations: reproducible)

    def key(self) -> str:
        parts = [self.rules, f"{self.players}p", self.preset or "-", "+".join(self.variants) or "-", self.bots]
        return "/".join(parts) + f"/seed{self.seed}"

    def config(self) -> GameConfig:
        return GameConfig(
            players=NAMES[: self.players],
            preset=self.preset,
            rules=self.rules,
            seed=self.seed,
            variants=list(self.variants) or None,
        )


def cases() -> list[Case]:
    """A few hundred games: every rule set at every player count it allows, the 2016 presets and
    random line-ups, the older editions' variants, and a few games of the normal and hard bots."""
    out: list[Case] = []
    for name, rules in RULESETS.items():
        for n in range(rules.min_players, rules.max_players + 1):
            if rules.edition == "2016":
                for k, preset in enumerate([*PRESETS, "random"]):
                    for seed in range(2):
                        out.append(Case(name, n, 1000 * n + 10 * k + seed, preset=preset))
            else:
                for seed in range(4):
                    out.append(Case(name, n, 100 * n + seed))
                if rules.options:
                    for k, variants in enumerate((("plague",), ("short-7",), ("short-6", "plague"))):
                        out.append(Case(name, n, 500 + 10 * n + k, variants=variants))
    for k, preset in enumerate(PRESETS):
        out.append(Case("2016", 5, 70 + k, preset=preset, bots="normal"))
    for name, rules in RULESETS.items():
        if rules.edition != "2016":
            out.append(Case(name, 4, 80, bots="normal"))
    for k, preset in enumerate(("cunning-agents", "devious-dignitaries", "illustrious-emissaries")):
        out.append(Case("2016", 4, 90 + k, preset=preset, bots="hard"))
    out.append(Case("dark-city", 5, 95, variants=("plague",), bots="hard"))
    return out


def _bots(case: Case) -> list:
    n = case.players
    if case.bots == "random":
        return [RandomBot(case.seed * 10 + s) for s in range(n)]
    if case.bots == "normal":
        return [make_bot("normal", case.seed * 10 + s) for s in range(n)]
    # The hard bot at one seat (reproducible: a fixed number of sampled worlds, no clock), normal bots elsewhere.
    return [make_bot("hard", case.seed * 10, iterations=3, budget_ms=None)] + [
        make_bot("normal", case.seed * 10 + s) for s in range(1, n)
    ]


def game_hash(case: Case) -> str:
    g, events = new_game(case.config())
    h = hashlib.sha256(_enc.encode(events))
    bots = _bots(case)
    for _ in range(MAX_COMMANDS):
        if g.phase == "over":
            break
        seat = g.pending.seat
        legal = legal_commands(g, seat)
        mine = view_bytes(g, seat)
        h.update(_enc.encode(legal))
        h.update(mine)
        h.update(view_bytes(g, None))
        bot = bots[seat]
        cmd = bot.choose(legal, view(g, seat) if getattr(bot, "needs_view", True) else None)
        h.update(_enc.encode(cmd))
        h.update(_enc.encode(apply(g, cmd)))
    outcome = [
        [[p.name, p.gold, p.hand, p.city, p.characters] for p in g.players],
        g.deck,
        g.crown,
        g.rng,
        g.round,
        g.phase,
        g.seq,
        g.tax,
        g.first_complete,
        g.scores,
        g.winners,
    ]
    h.update(_enc.encode(outcome))
    return h.hexdigest()


def all_hashes() -> dict[str, str]:
    return {c.key(): game_hash(c) for c in cases()}


if __name__ == "__main__":
    json.dump(all_hashes(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
