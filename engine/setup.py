"""Setting up a game: the line-up (2016 presets here, the older rule sets in edition_setup.py, the
checks in lineup_check.py), the deck, hands, gold and the crown."""

from __future__ import annotations

from . import flow
from .cards.districts import base_deck
from .cards.lineups import PRESETS
from .decisions import PickCharacter
from .edition_setup import older_lineup
from .errors import SetupError
from .events import Event
from .game_config import GameConfig
from .hooks import active_variants
from .lineup_check import check_lineup, check_uniques, one_line
from .lineup_random import random_lineup
from .rng import Rng, seed_state
from .rules import RULESETS, VARIANTS, with_variants
from .state import GameState, Player

__all__ = ["GameConfig", "new_game", "resolve_lineup"]  # GameConfig lives in game_config.py


# The rulebook's substitutes for characters a player count cannot use.
SUBSTITUTES = {"Emperor": ("King", "Patrician"), "Queen": ("Artist", "Tax Collector")}
FIRST_GAME_RANK9 = "Artist"
RANDOM = "random"  # GameConfig(preset="random"): a random legal line-up from the seed


def resolve_lineup(cfg: GameConfig) -> tuple[list[str], list[str]]:
    """The characters (in rank order) and unique districts for this configuration."""
    n = len(cfg.players)
    rules = RULESETS.get(cfg.rules)
    if rules is None:
        raise SetupError(f"Unknown rule set {cfg.rules!r}; known: {one_line(list(RULESETS))}.")
    if rules.edition != "2016":  # Classic box, 2000, Dark City: their own line-ups and decks
        return older_lineup(cfg, rules)
    if cfg.preset == RANDOM:  # a legal line-up drawn from the seed (engine/lineup_random.py)
        if cfg.characters:
            raise SetupError("Give either a preset or a list of characters, not both.")
        chars, uniques = random_lineup(n, cfg.seed, cfg.rank9, rules.rank9_allowed)
        return check_lineup(chars, n, rules.name), check_uniques(list(cfg.uniques or uniques))
    if cfg.preset is not None or not cfg.characters:
        preset = PRESETS.get(cfg.preset or "first-game")
        if preset is None:
            raise SetupError(f"Unknown preset {cfg.preset!r}; known: {one_line(list(PRESETS))}.")
        chars = list(preset.characters)
        if cfg.characters:
            raise SetupError("Give either a preset or a list of characters, not both.")
        # Presets substitute automatically (rulebook): no Emperor with 2 players, no Queen under 5.
        if n == 2:
            chars = [SUBSTITUTES["Emperor"][0] if c == "Emperor" else c for c in chars]
        rank9 = preset.rank9 or FIRST_GAME_RANK9
        if rank9 == "Queen" and n < 5:
            rank9 = SUBSTITUTES["Queen"][0]
        wanted = cfg.rank9 if cfg.rank9 is not None else preset.rank9 is not None
        if n in (3, 8) or (4 <= n <= 7 and wanted and rules.rank9_allowed):
            chars.append(rank9)
        uniques = list(cfg.uniques or preset.uniques)
    else:
        chars = list(cfg.characters or PRESETS["first-game"].characters)
        uniques = list(cfg.uniques or PRESETS["first-game"].uniques)
    return check_lineup(chars, n, rules.name), check_uniques(uniques)


def new_game(cfg: GameConfig) -> tuple[GameState, list[Event]]:
    """Set up a game and start the first selection phase."""
    n = len(cfg.players)
    if not 2 <= n <= 8:
        raise SetupError(f"Citadels is for 2 to 8 players, not {n}.")
    if len(set(cfg.players)) != n:
        raise SetupError("Each player needs a different name.")
    chars, uniques = resolve_lineup(cfg)
    rng = Rng(seed_state(cfg.seed))
    deck = base_deck() + uniques
    rng.shuffle(deck)
    players = []
    for name in cfg.players:
        hand = [deck.pop() for _ in range(4)]
        players.append(Player(name=name, gold=2, hand=hand))
    if cfg.crown is None:
        crown = rng.below(n)
    elif 0 <= cfg.crown < n:
        crown = cfg.crown
    else:
        raise SetupError(f"There is no seat {cfg.crown} to give the crown to.")
    rules = RULESETS[cfg.rules]
    for v in cfg.variants or []:
        if v not in rules.options:
            raise SetupError(
                f"The {rules.title} rules have no variant {v!r}"
                + (f"; known: {one_line([o for o in rules.options if o in VARIANTS])}." if rules.options else ".")
            )
    g = GameState(
        rules=with_variants(rules, cfg.variants or []),
        lineup=chars,
        uniques=uniques,
        players=players,
        deck=deck,
        crown=crown,
        rng=rng.state,
        pending=PickCharacter(crown),
    )
    ev = [Event("game_started", seat=crown, count=n)]
    for variant in active_variants(g):
        variant.start(g, ev)  # the Plague: its first holder
    flow.start_round(g, ev)
    return g, ev
