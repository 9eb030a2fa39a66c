"""How the format-1 saves of this folder were made (kept for the record: it needs the old engine).

Format 1 stored card state in string-keyed `GameState.flags` and `Turn.extra`. These saves were
written by the engine of commit 3392c9d (the last one with that layout), run as::

    git archive 3392c9d engine tests | tar -x -C /tmp/old && cd /tmp/old && \
        python -m tests.saves.legacy_v1.make_fixtures tests/saves/legacy_v1

Random-bot games of every rule set are played; a save is written at the first moment a card keeps
a kind of state not yet covered (each `flags` key, each `Turn.extra` key, the Hospital's and the
Witch's short turns, warrants and threats, pending decisions of every card), and at the end of
the game, with the old engine's fingerprint of each position (fingerprint.py) in expected.json.
The current engine must load every one of them to a position with the same fingerprint
(tests/saves/test_legacy_saves.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import msgspec

from engine import GameConfig, apply, copy_state, legal_commands, new_game
from engine.bots.random_bot import RandomBot
from engine.cards.lineups import PRESETS
from engine.rules import RULESETS
from engine.savefile import Seat, new_save, to_json
from tests.saves.games import NAMES, T0
from tests.saves.legacy_v1.fingerprint import fingerprint


def _marks(g) -> set[str]:
    """The kinds of card state this position holds."""
    out = {f"flag:{k}" for k in g.flags}
    t = g.turn
    if t is not None:
        out |= {f"extra:{k.split(':')[0]}" for k in t.extra}
        for name in ("bewitched", "paused", "resumed", "gather_first"):
            if getattr(t, name):
                out.add(f"turn:{name}" + (":killed" if name == "bewitched" and g.markers.killed == t.character else ""))
        if t.aside:
            out.add("turn:aside")
    m = g.markers
    if m.warrants:
        out.add("warrants" + (":revealed" if m.warrant_revealed else ""))
    if m.threats:
        out.add("threats" + (":revealed" if m.threats_revealed else ""))
    p = g.pending
    about = getattr(p, "about", None) or getattr(p, "purpose", None)
    if about:
        out.add(f"pending:{about}")
    return out


def _configs():
    for name, rules in RULESETS.items():
        for n in (2, 3, 4, 5, 7):
            if not rules.min_players <= n <= rules.max_players:
                continue
            if rules.edition == "2016":
                for preset in [*PRESETS, "random"]:
                    for seed in range(3):
                        yield GameConfig(players=NAMES[:n], preset=preset, rules=name, seed=seed)
            else:
                for seed in range(12):
                    variants = ["plague"] if "plague" in rules.options and seed % 3 == 0 else None
                    yield GameConfig(players=NAMES[:n], rules=name, seed=seed, variants=variants)
    # The Hospital's gather-only turn is rare in random line-ups: games that hold it (with the Assassin).
    for seed in range(40):
        yield GameConfig(
            players=NAMES[:4],
            rules="dark-city",
            seed=seed,
            characters=["Tax Collector", "Wizard"],
            uniques=["Hospital", "Bell Tower", "Throne Room"],
        )


def main(out_dir: str) -> None:
    out = Path(out_dir)
    seen: set[str] = set()
    written = 0
    expected: dict[str, str] = {}
    for cfg in _configs():
        g, _ = new_game(cfg)
        bots = [RandomBot(cfg.seed * 10 + s) for s in range(len(cfg.players))]
        log = []
        while g.phase != "over":
            seat = g.pending.seat
            cmd = bots[seat].choose(legal_commands(g, seat))
            apply(g, cmd)
            log.append(cmd)
            new = _marks(g) - seen
            if new:
                seen |= new
                written += _write(out, cfg, g, log, sorted(new)[0], expected)
        if cfg.seed == 0 and len(cfg.players) == 5 and cfg.preset in (None, "random"):
            written += _write(out, cfg, g, log, "finished", expected)
    (out / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"{written} saves; marks covered: {sorted(seen)}", file=sys.stderr)


def _write(out: Path, cfg: GameConfig, g, log, why: str, expected: dict[str, str]) -> int:
    seats = [Seat(name, key=None, bot="random") for name in cfg.players]
    tag = "".join(ch if ch.isalnum() else "-" for ch in why).strip("-").lower()
    table_id = f"v1-{cfg.rules}-{len(cfg.players)}p-{cfg.preset or 'x'}-s{cfg.seed}-{len(log)}-{tag}"
    save = new_save(
        table_id, cfg, seats, msgspec.msgpack.decode(msgspec.msgpack.encode(g), type=type(g)), log, created=T0
    )
    (out / f"{table_id}.json").write_bytes(to_json(save, indent=0))
    expected[f"{table_id}.json"] = fingerprint(copy_state(g))
    return 1


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ".")
