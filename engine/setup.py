"""Setting up a game: line-up checks, the deck, hands, gold and the crown."""

from __future__ import annotations

from msgspec import Struct

from . import flow
from .cards.characters import CHARACTERS, ORIGINAL_EIGHT
from .cards.districts import UNIQUE_DISTRICTS, base_deck
from .cards.editions import rank
from .cards.lineups import PRESETS
from .decisions import PickCharacter
from .errors import SetupError
from .events import Event
from .hooks import ROLES, active_variants
from .rng import Rng, seed_state
from .rules import RULESETS, VARIANTS, with_variants
from .state import GameState, Player


class GameConfig(Struct, omit_defaults=True):
    """What a table chooses before the game: players, line-up, rules, seed."""

    players: list[str]
    preset: str | None = None  # a preset name, or None with `characters`
    characters: list[str] | None = None  # one per rank 1-8, optional rank 9
    uniques: list[str] | None = None  # 14 unique districts (default: the preset's)
    rules: str = "2016"
    seed: int = 0
    crown: int | None = None  # None: a random seat
    rank9: bool | None = None  # with 4-7 players and a preset: use its rank 9 (default: yes if it names one)
    variants: list[str] | None = None  # rule-set variants: "short-7", "short-6", "plague" (RuleSet.options)


# The rulebook's substitutes for characters a player count cannot use.
SUBSTITUTES = {"Emperor": ("King", "Patrician"), "Queen": ("Artist", "Tax Collector")}
FIRST_GAME_RANK9 = "Artist"
RANDOM = "random"  # GameConfig(preset="random"): a random legal line-up from the seed


def _one_line(names: list[str]) -> str:
    return ", ".join(names)


def resolve_lineup(cfg: GameConfig) -> tuple[list[str], list[str]]:
    """The characters (in rank order) and unique districts for this configuration."""
    n = len(cfg.players)
    rules = RULESETS.get(cfg.rules)
    if rules is None:
        raise SetupError(f"Unknown rule set {cfg.rules!r}; known: {_one_line(list(RULESETS))}.")
    if rules.edition != "2016":  # Classic box, 2000, Dark City: their own line-ups and decks
        from .edition_setup import older_lineup

        return older_lineup(cfg, rules)
    if cfg.preset == RANDOM:  # a legal line-up drawn from the seed (engine/lineup_random.py)
        from .lineup_random import random_lineup

        if cfg.characters:
            raise SetupError("Give either a preset or a list of characters, not both.")
        chars, uniques = random_lineup(n, cfg.seed, cfg.rank9, rules.rank9_allowed)
        return check_lineup(chars, n, rules.name), check_uniques(list(cfg.uniques or uniques))
    if cfg.preset is not None or not cfg.characters:
        preset = PRESETS.get(cfg.preset or "first-game")
        if preset is None:
            raise SetupError(f"Unknown preset {cfg.preset!r}; known: {_one_line(list(PRESETS))}.")
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


def check_lineup(chars: list[str], n: int, rules: str = "2016") -> list[str]:
    """Refuse an impossible line-up with a sentence that says why."""
    rules_obj = RULESETS[rules]
    for c in chars:
        if c not in CHARACTERS:
            raise SetupError(f"Unknown character {c!r}; known: {_one_line(list(CHARACTERS))}.")
        if c not in ROLES:
            raise SetupError(f"The {c} is not playable yet in this version.")
        if rules_obj.characters and c not in rules_obj.characters:
            raise SetupError(f"The {c} is not part of the {rules_obj.title} rules.")
    ed = rules_obj.edition
    chars = sorted(chars, key=lambda c: rank(ed, c))
    ranks = [rank(ed, c) for c in chars]
    for r in range(1, 9):
        if ranks.count(r) != 1:
            names = [c for c in chars if rank(ed, c) == r]
            if not names:
                raise SetupError(f"The line-up needs one rank-{r} character.")
            raise SetupError(f"The line-up has more than one rank-{r} character: {_one_line(names)}.")
    if ranks.count(9) > 1:
        raise SetupError("The line-up may have only one rank-9 character.")
    if not rules_obj.min_players <= n <= rules_obj.max_players:
        raise SetupError(f"This rule set is for {rules_obj.min_players} to {rules_obj.max_players} players, not {n}.")
    has9 = 9 in ranks
    if n == 2 and has9:
        raise SetupError("2-player games use ranks 1-8 only: remove the rank-9 character.")
    if (n == 8 or (n == 3 and rules_obj.three_player_characters == 9)) and not has9:
        raise SetupError(f"{n} players need a rank-9 character.")
    if n == 3 and has9 and rules_obj.three_player_characters == 8:
        raise SetupError(
            "3-player games of these rules use the 8 characters of ranks 1-8: remove the rank-9 character."
        )
    swapped = [c for c in chars if c not in ORIGINAL_EIGHT and rank(ed, c) <= 8]
    if len(swapped) > rules_obj.max_substitutes:
        raise SetupError(
            f"Swap in at most {rules_obj.max_substitutes} Dark City characters for basic ones "
            f"(the rules: one or two), not {len(swapped)}: {_one_line(swapped)}."
        )
    if n == 2 and "Emperor" in chars:
        raise SetupError("The Emperor is not used with 2 players: use the King or the Patrician instead.")
    if n < 5 and "Queen" in chars:
        raise SetupError("The Queen is only used with 5 or more players: use the Artist or the Tax Collector instead.")
    return chars


def check_uniques(names: list[str]) -> list[str]:
    for u in names:
        if u not in UNIQUE_DISTRICTS:
            raise SetupError(f"Unknown unique district {u!r}; known: {_one_line(list(UNIQUE_DISTRICTS))}.")
    if len(set(names)) != len(names):
        raise SetupError("A unique district is listed twice.")
    if len(names) != 14:
        raise SetupError(f"Choose 14 unique districts, not {len(names)}.")
    return names


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
                + (f"; known: {_one_line([o for o in rules.options if o in VARIANTS])}." if rules.options else ".")
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
    for v in active_variants(g):
        v.start(g, ev)  # the Plague: its first holder
    flow.start_round(g, ev)
    return g, ev
