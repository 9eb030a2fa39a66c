"""Does the table screen show what a player needs, at every window size? A measure of the layout.

    python benchmarks/screen_fit.py [--states 300] [--sizes 80x24,100x30,120x40,160x50,240x67]
                                    [--seed 0] [--lang both] [--details]

Renders the real table screen (ui.CitadelsApp, headless) for game states
sampled from bot games (benchmarks/fit_states.py: 2-8 players, every rule set,
early/mid/late, every kind of pending decision, seen by the seat to move, a
seat waiting and a spectator, and the crowded case of 8 players with 10
cards in hand) at each size, and reads the rendered screen's cells (the
composed frame, not what the widgets think they drew). A state is *cut* at a
size when any essential content is not there whole, inside its panel's cells:
  - every card of the seat's hand (`N3 Manor`, as many times as held);
  - the seat's gold (`5 gold`) and each of its characters (`4 King`);
  - the prompt's title and every item of its menu (`1 Take 2 gold`), and of the
    largest sub-menu when there is one (opened as a player would);
  - the status line: the round, the phase, the rank called; and who the game
    waits for (the prompt's title while another seat decides).
Prints ONE JSON line: states, and per size the number of states cut, the mean
share of blank cells, and the cuts by kind. `--details` lists every cut on
stderr. Languages alternate (English, Spanish) unless `--lang` says one.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.fit_states import Sample, sample
from ui import CitadelsApp, UiOptions, ViewUpdate
from ui.cards import district_label
from ui.i18n import Catalogue
from ui.prompt_model import waiting_sentence
from ui.widgets.prompt import PromptPanel

SIZES = ["80x24", "100x30", "120x40", "160x50", "240x67"]
_SPACES = re.compile(r"\s+")


def flat(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


@dataclass
class SizeResult:
    cut: int = 0
    blank: float = 0.0
    renders: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    details: list[str] = field(default_factory=list)


def screen_rows(app: CitadelsApp) -> list[str]:
    """The composed frame as rows of exactly `width` cells (one character per cell)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    rows = console.export_text().split("\n")[:height]
    rows += [""] * (height - len(rows))
    return [r[:width].ljust(width) for r in rows]


def region_text(rows: list[str], widget: Any) -> str:
    """The cells inside a widget's frame on screen, joined and with runs of blanks made one."""
    if not widget.display or not widget.is_mounted:
        return ""
    r = widget.content_region
    return flat(" ".join(row[r.x : r.x + r.width] for row in rows[r.y : r.y + r.height]))


def essentials(app: CitadelsApp, s: Sample, cat: Catalogue) -> list[tuple[str, str, str]]:
    """(kind, widget id, text) that must be on screen whole for this sample."""
    v = s.view
    out: list[tuple[str, str, str]] = []
    out.append(("status", "status", cat.t("ui.round", n=v.round)))
    out.append(("status", "status", cat.t(f"ui.phase_{v.phase}", fallback=v.phase)))
    if v.called:
        out.append(
            ("status", "status", cat.t("ui.calling", rank=cat.rank(v.called) or "", character=cat.character(v.called)))
        )
    if v.pending is not None and v.pending.seat != v.seat:  # who the game waits for: the prompt's title
        out.append(("status", "prompt", waiting_sentence(v, cat)))
    if v.seat is not None:
        me = v.players[v.seat]
        out.append(("gold", "hand", cat.t("ui.gold_n", n=me.gold)))
        for ch in me.characters:
            if ch is not None:
                out.append(("characters", "hand", cat.ranked(ch)))
        for card in me.hand or []:
            out.append(("hand", "hand", district_label(cat, card)))
    return out


def menu_items(prompt: PromptPanel) -> list[tuple[str, str, str]]:
    menu = prompt.menu
    if menu is None:
        return []
    out = [("menu", "prompt", menu.title)]
    for i, e in enumerate(menu.entries):  # each entry as the prompt writes it: its key, then its label
        out.append(("menu", "prompt", prompt._label(i, e, inline=False).plain.strip()))
    return out


def check(app: CitadelsApp, rows: list[str], items: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """The items not found whole in their panel's cells on the screen `rows`: (kind, text)."""
    texts: dict[str, str] = {}
    missing = []
    need: dict[tuple[str, str], int] = {}
    for _kind, wid, text in items:
        need[(wid, flat(text))] = need.get((wid, flat(text)), 0) + 1
    for kind, wid, text in items:
        if wid not in texts:
            widgets = app.screen.query(f"#{wid}")
            texts[wid] = region_text(rows, widgets.first()) if widgets else ""
        t = flat(text)
        if texts[wid].count(t) < need[(wid, t)]:
            missing.append((kind, text))
    return missing


def blank_share(rows: list[str]) -> float:
    cells = sum(len(r) for r in rows)
    return sum(r.count(" ") for r in rows) / max(cells, 1)


async def settle(pilot: Any, app: CitadelsApp, rounds: int = 3) -> None:
    """Let every message be handled and the frame be drawn: a view, the layout it asks for, the
    widgets' resizes (no waiting for the machine to look idle, which costs most of a run)."""
    for _ in range(rounds):
        await pilot._wait_for_screen()
        app.screen._on_timer_update()


async def measure_size(samples: list[Sample], size: tuple[int, int], langs: list[str]) -> SizeResult:
    res = SizeResult()
    for k, lang in enumerate(langs):
        mine = samples[k :: len(langs)]
        app = CitadelsApp(None, UiOptions(lang=lang, show_chat=True, show_scores_at_end=False))
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            for s in mine:
                await measure_one(app, pilot, s, size, res)
    res.blank /= max(res.renders, 1)
    return res


async def measure_one(app: CitadelsApp, pilot: Any, s: Sample, size: tuple[int, int], res: SizeResult) -> None:
    """Show one sample as a new table (what a server does for each table) and read the screen."""
    app.reset_log()
    app.table.reset(app.cat)
    app.post_message(ViewUpdate(s.view, s.events))
    await settle(pilot, app)
    cat = app.cat
    prompt = app.table.query_one(PromptPanel)
    items = essentials(app, s, cat)
    if s.view.legal:
        items += menu_items(prompt)
    rows = screen_rows(app)
    missing = check(app, rows, items)
    res.blank += blank_share(rows)
    res.renders += 1
    menu = prompt.menu
    subs = [(len(e.submenu.entries), j) for j, e in enumerate(menu.entries) if e.submenu] if menu else []
    if subs and not missing:
        _, j = max(subs)
        prompt.activate(j)
        await settle(pilot, app)
        missing += check(app, screen_rows(app), menu_items(prompt))
        prompt.back()
    if missing:
        res.cut += 1
        for kind, _text in missing:
            res.kinds[kind] = res.kinds.get(kind, 0) + 1
        res.details.append(f"{size[0]}x{size[1]} {cat.lang} {s.label}: " + "; ".join(f"{k}: {t!r}" for k, t in missing))


async def run(samples: list[Sample], sizes: list[str], langs: list[str]) -> dict[str, SizeResult]:
    out = {}
    for size in sizes:
        w, h = (int(x) for x in size.split("x"))
        out[size] = await measure_size(samples, (w, h), langs)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--lang", choices=["en", "es", "both"], default="both")
    ap.add_argument("--details", action="store_true", help="list every cut on stderr")
    args = ap.parse_args()
    t0 = time.perf_counter()
    samples = sample(args.states, args.seed)
    langs = ["en", "es"] if args.lang == "both" else [args.lang]
    results = asyncio.run(run(samples, args.sizes.split(","), langs))
    if args.details:
        for r in results.values():
            for d in r.details:
                print(d, file=sys.stderr)
    print(
        json.dumps(
            {
                "states": len(samples),
                "sizes": {
                    size: {"cut": r.cut, "blank": round(r.blank, 3), "cut_by": r.kinds} for size, r in results.items()
                },
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
