"""Where each panel of the table screen goes, for a window size and what the panels hold.

Pure: `plan(width, height, needs, ...)` returns a `Plan` (a box per panel shown,
and the form each panel draws in), from the sizes the panels say they need
(`Needs`). The table screen places its widgets in those boxes; the plan is a
function of the size and the content only, so a resize gives exactly the
layout of connecting at that size.

Space goes by what matters (docs: /work/shared/design/table-screen.md):
1. the decision: the prompt keeps a column of the whole height;
2. the hand and purse: the whole hand always (cards packed side by side if
   need be), then one card per line, then the characters' and cards' texts;
3. the step of the round: the status bar gets the lines it needs (2-4);
4. the others: one line per seat at least (size and type letters of each
   city), then the cities as tokens, then long heads;
5. the log gets what is left (hidden under `LOG_MIN` rows on small windows,
   a Tab away); 6. the chat: beside or under the log, or under the prompt on
   tall windows, or a Tab away on small ones.
Below `MIN_WIDTH` x `MIN_HEIGHT` the screen only says it is too small.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

MIN_WIDTH = 80
MIN_HEIGHT = 24
STATUS_MAX = 4
LOG_MIN = 5  # rows (with its title) under which a compact screen hides the log
HAND_STEP = 3  # a compact screen's hand grows and shrinks by this many rows at a time
LOG_MIN_ROOMY = 8  # rows (with its frame) the log keeps on a roomy screen
CHAT_MIN = 8
PROMPT_TALL = 30  # rows a prompt can use at most: on taller windows the chat goes under it
ROOMY_LEFT = 76  # columns left of the prompt from which hand and log sit side by side
ROOMY_BODY = 26
# (hand, players) forms on a roomy screen, best first: the whole hand always; the cities' names
# before the hand's texts (a card's effect is in the help), a card per line before the cities' names.
ROOMY_ORDER = [
    ("full", "full"),
    ("full", "short"),
    ("list", "full"),
    ("list", "short"),
    ("packed", "short"),
    ("list", "line"),
    ("packed", "line"),
]
LEFT_MIN = 30  # columns the left side keeps when a long menu widens the prompt


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h


@dataclass(frozen=True)
class Plan:
    mode: str  # "small", "compact" or "roomy"
    boxes: dict[str, Box] = field(default_factory=dict)  # the panels shown: status, players, hand, ...
    players_form: str = "line"
    players_cols: int = 1
    hand_form: str = "packed"

    @property
    def compact(self) -> bool:
        return self.mode != "roomy"


class Needs(Protocol):
    """Rows of content each panel needs at a width (frames not included)."""

    seats: int
    has_hand: bool

    def status(self, width: int) -> int: ...

    def players(self, width: int, form: str, cols: int) -> int: ...

    def hand(self, width: int, form: str) -> int: ...

    def prompt_fits(self, width: int, height: int, roomy: bool) -> bool:
        """Does every item of the current menu show whole in this much content (as a roomy or a
        compact screen shows it)?"""
        ...


def players_at_least(needs: Needs, width: int, form: str, cols: int) -> int:
    """A number of rows the players need at least (`needs.players` is never less); 0 from panels that
    cannot tell it cheaply (a `Needs` without `players_at_least`)."""
    at_least = getattr(needs, "players_at_least", None)
    return at_least(width, form, cols) if at_least is not None else 0


def prompt_width(width: int, roomy: bool) -> int:
    if roomy:
        return min(max(width // 3, 38), 56)
    return 34 if width < 90 else min(width * 2 // 5, 44)


def plan(width: int, height: int, needs: Needs, show_chat: bool = False, lower: str = "hand") -> Plan:
    """The layout at `width` x `height`. `lower`: what a compact screen shows under the players
    ("hand": the hand, and the log if it fits; "log"; "chat"; "cities": the players' whole cities)."""
    if width < MIN_WIDTH or height < MIN_HEIGHT:
        return Plan("small", {"small": Box(0, 0, width, height)})
    s = min(max(needs.status(width), 2), STATUS_MAX)
    top, body = s, height - 1 - s
    base = {"status": Box(0, 0, width, s), "keys": Box(0, height - 1, width, 1)}
    roomy_p = prompt_width(width, True)
    if width - roomy_p >= ROOMY_LEFT and body >= ROOMY_BODY:
        roomy = _roomy(width, top, body, roomy_p, needs, show_chat, lower, dict(base))
        if roomy is not None:
            return roomy
    return _compact(width, top, body, prompt_width(width, False), needs, show_chat, lower, base)


def _widen(pw: int, width: int, fits) -> int:
    """The prompt's width: its usual one, or wider (4 columns at a time, the left side keeping
    `LEFT_MIN`) until the whole menu shows."""
    while not fits(pw) and pw + 4 <= width - LEFT_MIN:
        pw += 4
    return pw


def _compact(
    width: int, top: int, body: int, pw: int, needs: Needs, show_chat: bool, lower: str, boxes: dict[str, Box]
) -> Plan:
    """Panels framed by one title line; the prompt on the right, the rest stacked on the left."""
    if lower == "cities":  # asked for (F4, again to go back): every city in full, the whole width
        cols = 2 if width >= 76 and needs.seats > 2 else 1
        for form in ("full", "short", "line"):
            c = min(
                ((cols_, 1 + needs.players(width, form, cols_)) for cols_ in range(1, cols + 1)), key=lambda x: x[1]
            )
            if c[1] <= body:
                break
        boxes["players"] = Box(0, top, width, body)
        return Plan("compact", boxes, players_form=form, players_cols=c[0])
    pw = _widen(pw, width, lambda w: needs.prompt_fits(w - 1, body - 1, False))  # frame: a top line, a left bar
    boxes["prompt"] = Box(width - pw, top, pw, body)
    left = width - pw
    if lower == "chat" and not show_chat:
        lower = "hand"
    if lower == "hand" and not needs.has_hand:
        lower = "log"
    players_line = 1 + needs.players(left, "line", 1)
    if lower in ("log", "chat"):  # the players in their richest form that leaves half the rows
        ph = min(players_line, max(body - LOG_MIN, 1))
        for form in ("full", "short"):
            rows = 1 + needs.players(left, form, 1)
            if rows <= body // 2:
                boxes["players"] = Box(0, top, left, rows)
                boxes[lower] = Box(0, top + rows, left, body - rows)
                return Plan("compact", boxes, players_form=form)
        boxes["players"] = Box(0, top, left, ph)
        boxes[lower] = Box(0, top + ph, left, body - ph)
        return Plan("compact", boxes)

    def heights(p_form: str, h_form: str) -> tuple[int, int]:
        return 1 + needs.players(left, p_form, 1), 1 + needs.hand(left, h_form)

    p_form, h_form = "line", "packed"
    ph, hh = heights(p_form, h_form)
    base_rest = body - ph - hh
    if base_rest < 0:  # not even the smallest forms fit: the hand first, the players get the rest
        hh = min(hh, body - 2)
        ph = body - hh
    else:
        # (the hand's texts are a roomy screen's: here they would trade places with the log at every
        # character and card, moving panels on the screen far more often than it is worth)
        for which, form in (("hand", "list"), ("players", "short"), ("players", "full")):
            cand = (form, h_form) if which == "players" else (p_form, form)
            cph, chh = heights(*cand)
            rest = body - cph - chh
            if rest >= LOG_MIN or (base_rest < LOG_MIN and rest >= 0):
                p_form, h_form = cand
                ph, hh = cph, chh
    rest = body - ph - hh
    if rest < LOG_MIN:  # no room for a log worth reading: the hand keeps the rows (the log is a Tab away)
        hh += rest
        rest = 0
    else:  # the hand's height in steps: a card more or less seldom moves the log (a new layout, a repaint)
        step = min(-hh % HAND_STEP, rest - LOG_MIN)
        hh += step
        rest -= step
    boxes["players"] = Box(0, top, left, ph)
    boxes["hand"] = Box(0, top + ph, left, hh)
    if rest:
        boxes["log"] = Box(0, top + ph + hh, left, rest)
    return Plan("compact", boxes, players_form=p_form, hand_form=h_form)


def _roomy(
    width: int, top: int, body: int, pw: int, needs: Needs, show_chat: bool, lower: str, boxes: dict[str, Box]
) -> Plan | None:
    """Every panel framed: players across the top left, hand | log (| chat) under them, the prompt
    on the right (with the chat under it on tall windows). "cities": the players take the left."""
    chat_under_prompt = (
        show_chat and body - PROMPT_TALL >= CHAT_MIN and needs.prompt_fits(pw - 2, PROMPT_TALL - 2, True)
    )
    if not chat_under_prompt:
        pw = _widen(pw, width, lambda w: needs.prompt_fits(w - 2, body - 2, True))
    left = width - pw
    if left < ROOMY_LEFT:  # a menu this long: the compact layout gives it more room
        return None
    if chat_under_prompt:
        boxes["prompt"] = Box(left, top, pw, PROMPT_TALL)
        boxes["chat"] = Box(left, top + PROMPT_TALL, pw, body - PROMPT_TALL)
    else:
        boxes["prompt"] = Box(left, top, pw, body)
    max_cols = 1 if needs.seats <= 2 else max(1, min((left - 2) // 38, 4, needs.seats))

    def players_rows(form: str) -> tuple[int, int]:
        """(rows with the frame, columns) of the form in its fewest rows (the fewest columns of those).
        The most columns first: a count that cannot be lower than the best so far is not made (one
        column needs a row per seat at least, and each new content at a width is counted afresh)."""
        best: tuple[int, int] | None = None
        for c in range(max_cols, 0, -1):
            if best is not None and 2 + players_at_least(needs, left - 2, form, c) > best[0]:
                continue
            rows = 2 + needs.players(left - 2, form, c)
            if best is None or rows <= best[0]:
                best = (rows, c)
        assert best is not None  # max_cols >= 1
        return best

    if lower == "cities":
        for form in ("full", "short", "line"):
            ph, cols = players_rows(form)
            if ph <= body:
                break
        boxes["players"] = Box(0, top, left, body)
        return Plan("roomy", boxes, players_form=form, players_cols=cols)
    hw = min(max(left // 2, 40), 60) if needs.has_hand else 0
    chosen = None
    for h_form, p_form in ROOMY_ORDER:
        hh = 2 + needs.hand(hw - 2, h_form) if needs.has_hand else 0
        ph, cols = players_rows(p_form)
        if ph + max(hh, LOG_MIN_ROOMY) <= body:
            chosen = (p_form, cols, h_form, ph)
            break
    if chosen is None:  # the hand first: the players get what is left
        h_form = "packed"
        hh = 2 + needs.hand(hw - 2, h_form) if needs.has_hand else LOG_MIN_ROOMY
        p_form, (ph, cols) = "line", players_rows("line")
        ph = max(min(ph, body - hh), 3)
        chosen = (p_form, cols, h_form, ph)
    p_form, cols, h_form, ph = chosen
    boxes["players"] = Box(0, top, left, ph)
    y, rest = top + ph, body - ph
    if needs.has_hand:
        boxes["hand"] = Box(0, y, hw, rest)
    lx, lw = hw, left - hw
    if show_chat and not chat_under_prompt:
        if lw >= 80:
            half = lw // 2
            boxes["log"] = Box(lx, y, half, rest)
            boxes["chat"] = Box(lx + half, y, lw - half, rest)
        else:
            ch = max(CHAT_MIN, rest // 3)
            boxes["log"] = Box(lx, y, lw, rest - ch)
            boxes["chat"] = Box(lx, y + rest - ch, lw, ch)
    else:
        boxes["log"] = Box(lx, y, lw, rest)
    return Plan("roomy", boxes, players_form=p_form, players_cols=cols, hand_form=h_form)


# --- the plan again, only when an answer it was made from changed -------------------------------
class _Asked:
    """A `Needs` that records every question `plan` asks and its answer, in order."""

    def __init__(self, needs: Needs) -> None:
        self._needs = needs
        self.seats = needs.seats
        self.has_hand = needs.has_hand
        self.asked: list[tuple[str, tuple, object]] = []

    def _ask(self, name: str, *args: object) -> Any:
        answer = getattr(self._needs, name)(*args)
        self.asked.append((name, args, answer))
        return answer

    def status(self, width: int) -> int:
        return self._ask("status", width)

    def players(self, width: int, form: str, cols: int) -> int:
        return self._ask("players", width, form, cols)

    def players_at_least(self, width: int, form: str, cols: int) -> int:
        answer = players_at_least(self._needs, width, form, cols)
        self.asked.append(("players_at_least", (width, form, cols), answer))
        return answer

    def hand(self, width: int, form: str) -> int:
        return self._ask("hand", width, form)

    def prompt_fits(self, width: int, height: int, roomy: bool) -> bool:
        return self._ask("prompt_fits", width, height, roomy)


@dataclass(frozen=True)
class Planned:
    """A plan with what it was made from: its arguments and the panels' answers, in the order asked."""

    args: tuple
    plan: Plan
    asked: tuple[tuple[str, tuple, object], ...]


def replan(
    last: Planned | None,
    width: int,
    height: int,
    needs: Needs,
    show_chat: bool,
    lower: str,
    make: Callable[..., Plan] = plan,
) -> Planned:
    """`make(width, height, needs, show_chat, lower)` (`plan`), the last one kept if nothing it read
    changed.

    `plan` is a function of its arguments, `needs.seats`, `needs.has_hand` and the answers to its
    questions: the same arguments make it ask the same first question, and each answer the same as
    before makes it ask the same next one. So when the arguments are the same and every question,
    asked again in its order, gets the same answer, the plan is the one made before. Asking again
    is cheap: the panels keep their answers until their content changes."""
    args = (make, width, height, needs.seats, needs.has_hand, show_chat, lower)
    if last is not None and last.args == args:
        for name, q, answer in last.asked:
            again = players_at_least(needs, *q) if name == "players_at_least" else getattr(needs, name)(*q)
            if again != answer:
                break
        else:
            return last
    asked = _Asked(needs)
    return Planned(args, make(width, height, asked, show_chat, lower), tuple(asked.asked))
