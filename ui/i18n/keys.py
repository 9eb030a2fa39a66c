"""The keys the code asks the catalogue for: a Babel extraction method and the dynamic families.

`extract` is a Babel extraction method (registered as `citadels_keys` in pyproject's
`babel.extractors` entry points; `ui/i18n/babel.cfg` maps it to the UI's Python files): it reads a
source file with `ast` and yields every key given as a literal to a lookup (`cat.t("ui.round")`,
`self.L("f_seats")` is "lobby.f_seats"), and for a key built at run time (an f-string,
`cat.t(f"event.{kind}")`, a sum `"ui." + label`) the key with `*` where the variable goes
("event.*"; a key held in a variable, `cat.t(key)`, is not seen: its literals are, wherever they
are written). The messages' text is
the template's English, not the code's, so extracting does not write the template: it proves it
(tests/ui/test_catalogue_keys.py: every literal key is in the template; every template key is used,
literally or by one of `FAMILIES`; every built key's pattern is one of `FAMILIES`).

    pybabel extract -F ui/i18n/babel.cfg -o /tmp/keys.pot .   # the keys the code uses, one per msgid
"""

from __future__ import annotations

import ast
import fnmatch
from collections.abc import Iterator
from typing import IO, Any

# The lookups: method or function name -> the prefix it puts before its argument.
KEYWORDS: dict[str, str] = {
    "t": "",
    "has": "",
    "first": "",
    "raw": "",
    "L": "lobby.",  # lobby screens' helper
    "P": "players.",  # players screens' helper
}

# Keys built at run time, one place for all of them: pattern (fnmatch) -> what builds it.
FAMILIES: dict[str, str] = {
    "event.*": "ui/log_text.py: event.<kind>[_<option>][_hidden], from the engine's events",
    "ability.*": "ui/prompt_labels.py: ability.<Card>[.<option>][_does], from the engine's abilities",
    "choice.*": "ui/prompt_labels.py: choice.<about>.<option>[_does] (with * for any card)",
    "select.*": "ui/prompt_*.py: select.<purpose>[_hint|_plan|_confirm...]",
    "cmd.*": "ui/prompt_model.py: cmd.<command kind>[_does]",
    "build.*": "ui/prompt_model.py: build.<way>_does",
    "waiting.*": "ui/prompt_texts.py: waiting.<pending kind>",
    "prompt.*": "ui/prompt_*.py: prompt.<pending kind>, prompt.pick_target_<field>",
    "character_text.*": "Catalogue.character_text: a character's rule text",
    "district_text.*": "Catalogue.district_text: a unique district's rule text",
    "the.*": "Catalogue.article: a card's name with its article",
    "grammar.*": "Catalogue.article: to_the, of_the",
    "amount.*": "grammar.Amount: {gold:gold} -> amount.gold",
    "types.*": "Catalogue.type_name: a district type",
    "type_letter.*": "Catalogue.type_letter: a district type's letter",
    "resources.*": "Catalogue.kind: gold, cards",
    "markers.*": "ui/widgets: a card's state marker",
    "notice.*": "ui/notices.py: a server notice's kind",
    "keys.*": "ui/help: a key's description",
    "score.*": "ui/widgets/scores: a score line",
    "help.tiebreak_*": "ui/help: the rule set's tie break",
    "ui.phase_*": "ui/widgets: the game's phase",
    "ui.palette_*": "the palette setting's name",
    "players.family_*": "ui/screens/players_*: a bot family",
    "gather_only.*": "ui/prompt_texts.py: why a turn only gathers (bewitched, hospital)",
    "replay.event_*": "ui/replay.py: an event's sentence in a replay, where it speaks to 'you'",
    "lobby.*": "ui/screens/lobby*: self.L(key), keys also built from options (lineup_<name>, timer_<name>...)",
    "players.*": "ui/screens/players*: self.P(key)",
}
EDITIONS = ("classic:", "2000:")  # an older edition's text of a key: "<edition>:<key>"


def family_of(key: str) -> str | None:
    """The dynamic family a key belongs to (None: it must be used literally)."""
    for edition in EDITIONS:
        key = key.removeprefix(edition)
    for pattern in FAMILIES:
        if fnmatch.fnmatchcase(key, pattern):
            return pattern
    return None


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _key(node: ast.expr, prefix: str) -> str | None:
    """A literal key, or an f-string's with `*` for its fields; None when it is neither."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return prefix + node.value
    if isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) else "*" for v in node.values]
        return prefix + "".join(str(p) for p in parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # "ui." + label, key + "_does"
        left, right = _key(node.left, prefix), _key(node.right, "")
        return (left if left is not None else prefix + "*") + (right if right is not None else "*")
    return None


def keys_in(source: str) -> Iterator[tuple[int, str, str]]:
    """(line, lookup, key) for every key given to a lookup in a Python source."""
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _name(node.func)
        if name not in KEYWORDS or not node.args:
            continue
        args = node.args if name == "first" else node.args[:1]
        for arg in args:
            key = _key(arg, KEYWORDS[name])
            if key is not None and "." in key and key != "*.*":
                yield node.lineno, name, key


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: dict[str, Any]
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method: (lineno, funcname, key, comments) for each key the file looks up.
    The lookup's name goes into the comments (a funcname would have to be one of pybabel's -k)."""
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    for lineno, name, key in keys_in(source):
        yield lineno, None, key, [f"{name}()"]
