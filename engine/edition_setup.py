"""Line-ups and decks of the older rule sets (Classic 2016 box, 2000, The Dark City).

- `classic`, `classic-variant`: the 8 original characters, the fixed 68-card deck
  (54 base + `editions.CLASSIC_PURPLE`). Nothing to choose.
- `original-2000`: the 8 original characters, the 66-card basic deck.
- `dark-city`: `GameConfig.characters` lists the Dark City characters swapped in
  (one or two at ranks 1-8, of the same rank as the basic one they replace) and
  an optional rank 9 (needed with 8 players); a whole line-up is accepted too.
  `GameConfig.uniques` lists the Dark City purple districts added (2-3; 4-6 then
  replace as many basic purple districts: 4 -> 2, 5 -> 2, 6 -> 3 removed, or
  name them with a "-" prefix: "-University"). Without a list, both are drawn
  from the seed (one or two characters, three districts; a rank 9 with 8
  players, and with 4-7 one game in two unless `GameConfig.rank9` says).
  The Graveyard leaves the deck when the Diplomat is in the line-up; the
  Hospital may not be used without the Assassin (`004_...`).

`GameState.uniques` holds every purple card shuffled into the deck, copies
repeated (two Keeps), so the invariants' card count stays `base + uniques`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards.characters import ORIGINAL_EIGHT
from .cards.editions import BASIC_2000_PURPLE, CLASSIC_PURPLE, DARK_CITY_CHARACTERS, DARK_CITY_PURPLE, rank
from .errors import SetupError
from .game_config import GameConfig
from .lineup_check import check_lineup
from .rng import Rng, seed_state
from .rules import RuleSet

_STREAM = 0x4441524B4349  # "DARKCI": a stream apart from the game's own


def _names(xs: Iterable[str]) -> str:
    return ", ".join(xs)


def older_lineup(cfg: GameConfig, rules: RuleSet) -> tuple[list[str], list[str]]:
    """(characters in rank order, purple cards in the deck) for an older rule set."""
    n = len(cfg.players)
    rng = Rng(seed_state(cfg.seed) ^ _STREAM)
    if cfg.preset not in (None, "random"):
        raise SetupError(f"Presets are 2016 line-ups; the {rules.title} rules use their own characters.")
    if rules.max_substitutes == 0 or rules.deck == "classic":
        chars = list(cfg.characters) if cfg.characters else list(ORIGINAL_EIGHT)
        if cfg.uniques:
            raise SetupError(f"The {rules.title} rules use a fixed deck: no districts to choose.")
        chars = check_lineup(chars, n, rules.name)
        purple = list(CLASSIC_PURPLE if rules.deck == "classic" else BASIC_2000_PURPLE)
        return chars, purple
    chars = _dark_city_characters(cfg, rules, n, rng)
    chars = check_lineup(chars, n, rules.name)
    return chars, _dark_city_deck(cfg, chars, rng)


def _dark_city_characters(cfg: GameConfig, rules: RuleSet, n: int, rng: Rng) -> list[str]:
    given = list(cfg.characters or [])
    if given and (len(given) >= 8 or any(c not in DARK_CITY_CHARACTERS for c in given)):
        return given  # a whole line-up (check_lineup says what is wrong with it)
    if not given and (cfg.preset in (None, "random")):
        ranks = [r for r in range(1, 9) if not (n == 2 and r == 4)]  # no Emperor with 2 players
        rng.shuffle(ranks)
        for r in ranks[: 1 + rng.below(2)]:
            given.append(next(c for c in DARK_CITY_CHARACTERS if rank("2000", c) == r))
        want9 = n == 8 or (4 <= n <= 7 and (cfg.rank9 if cfg.rank9 is not None else rng.below(2) == 1))
        if want9:
            given.append("Queen" if n >= 5 and rng.below(2) else "Artist")
    elif cfg.rank9 and n >= 4 and not any(rank("2000", c) == 9 for c in given):
        given.append("Artist")
    swapped = {rank("2000", c): c for c in given}
    chars = [swapped.get(rank("2000", c), c) for c in ORIGINAL_EIGHT]
    if 9 in swapped:
        chars.append(swapped[9])
    if len(swapped) != len(given):
        raise SetupError(f"Swap in one Dark City character per rank: {_names(given)}.")
    return chars


def _dark_city_deck(cfg: GameConfig, chars: list[str], rng: Rng) -> list[str]:
    if cfg.uniques is None:
        pool = [u for u in DARK_CITY_PURPLE if not (u == "Hospital" and "Assassin" not in chars)]
        rng.shuffle(pool)
        added, removed = pool[:3], []
    else:
        added = [u for u in cfg.uniques if not u.startswith("-")]
        removed = [u[1:] for u in cfg.uniques if u.startswith("-")]
    for u in added:
        if u not in DARK_CITY_PURPLE:
            raise SetupError(f"{u!r} is not a Dark City purple district; known: {_names(DARK_CITY_PURPLE)}.")
    if len(set(added)) != len(added):
        raise SetupError("A Dark City district is listed twice.")
    if not 2 <= len(added) <= 6:
        raise SetupError(f"Add 2 or 3 Dark City districts (up to 6, replacing basic purple ones), not {len(added)}.")
    if "Hospital" in added and "Assassin" not in chars:
        raise SetupError("The Hospital is not used without the Assassin.")
    basic = list(BASIC_2000_PURPLE)
    for u in removed:
        if u not in basic:
            raise SetupError(f"{u!r} is not one of the basic purple districts left to remove.")
        basic.remove(u)
    k = len(added)
    allowed = [0] if k <= 3 else [r for r in (2, 3) if k - r in (2, 3)]
    if not removed and allowed != [0]:
        for _ in range(allowed[0]):
            basic.pop(rng.below(len(basic)))
    elif len(removed) not in allowed:
        raise SetupError(
            f"With {k} Dark City districts remove {' or '.join(map(str, allowed))} basic purple "
            f"districts, not {len(removed)} (2-3 added, then 2-3 more replacing as many)."
        )
    if "Diplomat" in chars and "Graveyard" in basic:
        basic.remove("Graveyard")  # not used with the Diplomat
    return basic + added
