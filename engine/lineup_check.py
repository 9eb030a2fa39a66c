"""Which line-ups and unique districts a game may use: the checks, each refusal a sentence that says why."""

from __future__ import annotations

import functools

from .cards.characters import CHARACTERS, ORIGINAL_EIGHT
from .cards.districts import UNIQUE_DISTRICTS
from .cards.editions import rank
from .errors import SetupError
from .hooks import ROLES
from .rules import RULESETS


def one_line(names: list[str]) -> str:
    return ", ".join(names)


def check_lineup(chars: list[str], n: int, rules: str = "2016") -> list[str]:
    """Refuse an impossible line-up with a sentence that says why; the line-up in rank order."""
    return list(_checked_lineup(tuple(chars), n, rules))


@functools.lru_cache(maxsize=256)  # a pure check, asked at every new game (a refusal raises: not cached)
def _checked_lineup(line: tuple[str, ...], n: int, rules: str) -> tuple[str, ...]:
    chars = list(line)
    rules_obj = RULESETS[rules]
    for c in chars:
        if c not in CHARACTERS:
            raise SetupError(f"Unknown character {c!r}; known: {one_line(list(CHARACTERS))}.")
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
            raise SetupError(f"The line-up has more than one rank-{r} character: {one_line(names)}.")
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
            f"(the rules: one or two), not {len(swapped)}: {one_line(swapped)}."
        )
    if n == 2 and "Emperor" in chars:
        raise SetupError("The Emperor is not used with 2 players: use the King or the Patrician instead.")
    if n < 5 and "Queen" in chars:
        raise SetupError("The Queen is only used with 5 or more players: use the Artist or the Tax Collector instead.")
    return tuple(chars)


def check_uniques(names: list[str]) -> list[str]:
    for u in names:
        if u not in UNIQUE_DISTRICTS:
            raise SetupError(f"Unknown unique district {u!r}; known: {one_line(list(UNIQUE_DISTRICTS))}.")
    if len(set(names)) != len(names):
        raise SetupError("A unique district is listed twice.")
    if len(names) != 14:
        raise SetupError(f"Choose 14 unique districts, not {len(names)}.")
    return names
