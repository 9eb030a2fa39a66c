"""`citadels save show|export|verify|replay FILE`: look into a save file without a server.

Every file is decoded strictly and, unless --no-check, replayed from its seed and
checked against its stored state before anything is printed. A file that cannot
be used gets one line on stderr and exit status 1; no traceback.

A save's text (players' names, keys, its id) comes from whoever wrote the file:
nothing from it reaches the terminal unfiltered. `show`, `verify` and the error
lines drop control, bidi and zero-width characters (engine/text.py); `export`
writes them as JSON \\u escapes (the same JSON, read back unchanged); `replay`
shows cleaned names.
"""

from __future__ import annotations

import argparse
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "save",
        help="show, export or verify a save file",
        description="Tools for save files (a server's saves folder holds <id>.save files and "
        "finished/<id>.save records; `citadels sim --save-dir` writes some too). "
        "Exit status: 0 ok, 1 the file is not a usable save, 2 usage error.",
    )
    ssub = p.add_subparsers(dest="save_command", metavar="ACTION")

    show = ssub.add_parser(
        "show",
        help="players, round, scores so far (no hidden card unless --reveal)",
        description="Print the players, the round and the scores so far. Hidden cards (hands, "
        "characters not yet revealed, face-down discards, the deck) are shown only "
        "with --reveal.",
    )
    show.add_argument("file")
    show.add_argument("--reveal", action="store_true", help="also show every hidden card")
    show.add_argument("--no-check", action="store_true", help="skip the replay check (strict decoding still)")
    show.set_defaults(func=run_show)

    export = ssub.add_parser(
        "export",
        help="the whole save as JSON on stdout (hidden cards included)",
        description="Print the save as indented JSON (every field, hidden cards included), "
        "for reading or diffing. A JSON export can be read back by every "
        "`citadels save` action.",
    )
    export.add_argument("file")
    export.add_argument("--compact", action="store_true", help="one line instead of indented JSON")
    export.add_argument("--no-check", action="store_true", help="skip the replay check (strict decoding still)")
    export.set_defaults(func=run_export)

    verify = ssub.add_parser(
        "verify",
        help="replay the log from the seed and check it reproduces the stored state",
        description="Replay the command log from the game's configuration and seed, each "
        "command validated by the rules engine, and compare the result byte for "
        "byte with the stored state. Exit 0 when it reproduces it.",
    )
    verify.add_argument("file")
    verify.set_defaults(func=run_verify)

    replay = ssub.add_parser(
        "replay",
        help="watch the game move by move in the terminal",
        description="Open the game in the replay screen: forward and back move by move "
        "(arrows), a round at a time (PgUp/PgDn), start and end (Home/End), "
        "from one seat's point of view (keys 1-8) or with everything revealed "
        "(0). Finished and unfinished games alike.",
    )
    replay.add_argument("file")
    who = replay.add_mutually_exclusive_group()
    who.add_argument(
        "--seat",
        help="start from this seat's point of view: its number as `citadels save show` "
        "lists it (0 = the first player) or the player's name",
    )
    who.add_argument("--all", action="store_true", help="start with everything revealed (the default)")
    replay.add_argument("--lang", choices=["en", "es"], default="en", help="language (F2 switches)")
    replay.add_argument("--end", action="store_true", help="start at the end instead of the deal")
    replay.set_defaults(func=run_replay)

    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def _load(path: str, check: bool):
    from engine.savefile import SaveError
    from server.storage.savelog import read_save_file

    try:
        return read_save_file(path, check=check)
    except SaveError as e:
        _error(f"citadels save: {e}")
        return None


def _error(line: str) -> None:
    from engine.text import strip_controls

    print(strip_controls(line).replace("\n", " "), file=sys.stderr)


def _json_safe(text: str) -> str:
    """JSON text with every control, format, private-use or unassigned character as a \\u escape."""
    import unicodedata

    out = []
    for ch in text:
        if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Cn"):
            cp = ord(ch)
            if cp > 0xFFFF:  # a surrogate pair, as JSON writes characters beyond the BMP
                cp -= 0x10000
                out.append(f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}")
            else:
                out.append(f"\\u{cp:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _write(text: str, raw: bool = False) -> None:
    from engine.text import strip_controls

    if not raw:
        text = strip_controls(text)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:  # `citadels save export f | head`: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run_export(args: argparse.Namespace) -> int:
    from engine.savefile import to_json

    save = _load(args.file, not args.no_check)
    if save is None:
        return 1
    _write(_json_safe(to_json(save, indent=0 if args.compact else 2).decode()) + "\n", raw=True)
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from engine.savefile import SaveError, verify

    save = _load(args.file, False)
    if save is None:
        return 1
    try:
        verify(save)
    except SaveError as e:
        _error(f"citadels save: {args.file}: {e}")
        return 1
    g = save.state
    status = "finished" if save.finished else f"round {g.round}, {g.phase}"
    _write(
        f"ok: {args.file}: {len(save.log)} commands replayed from seed {save.config.seed} reproduce the "
        f"saved state ({status})\n"
    )
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from engine.savefile import SaveError

    save = _load(args.file, True)
    if save is None:
        return 1
    seat = None
    if args.seat is not None:
        names = list(save.config.players)
        if args.seat.isdigit() and int(args.seat) < len(names):
            seat = int(args.seat)
        elif args.seat in names:
            seat = names.index(args.seat)
        else:
            _error(f"citadels save: --seat {args.seat}: no such seat (0-{len(names) - 1} or one of {', '.join(names)})")
            return 2
    from engine.savefile import clean_names
    from ui.screens.replay import ReplayApp, ReplayOptions

    clean_names(save)  # the names as a server would show them

    try:
        app = ReplayApp(save, ReplayOptions(lang=args.lang, seat=seat, position=-1 if args.end else 0))
    except SaveError as e:
        _error(f"citadels save: {args.file}: {e}")
        return 1
    app.run()
    return 0


def _public_scores(g, reveal: bool) -> list[int]:
    """Each seat's score if the game ended now; without reveal, hands are not looked at."""
    from engine.scoring import best_score
    from engine.state import copy_state

    h = copy_state(g)
    if not reveal:
        for p in h.players:
            p.hand = []
    return [best_score(h, s).total for s in range(len(h.players))]


def run_show(args: argparse.Namespace) -> int:
    from engine.view import view

    save = _load(args.file, not args.no_check)
    if save is None:
        return 1
    g = save.state
    cfg = save.config
    v = view(g, None)
    out: list[str] = []
    line_up = cfg.preset or ("custom" if cfg.characters else "first-game")
    out.append(
        f"Save {save.id!r} (format {save.version}), created {save.created:%Y-%m-%d %H:%M:%S %Z}, "
        f"updated {save.updated:%Y-%m-%d %H:%M:%S %Z}"
    )
    state = "finished" if save.finished else f"round {g.round}, {g.phase}"
    out.append(
        f"Game: {len(g.players)} players, rules {cfg.rules}, line-up {line_up}, seed {cfg.seed}; "
        f"{len(save.log)} commands; {state}"
    )
    out.append(f"Characters: {', '.join(g.lineup)}")
    out.append(f"Unique districts: {', '.join(g.uniques)}")
    if not save.finished:
        out.append(f"Now: {v.pending.waiting}" if v.pending else "Now: -")
    if save.finished and g.scores:
        scores = [s["total"] if isinstance(s, dict) else s.total for s in g.scores]
        title = "Final scores"
    else:
        scores = _public_scores(g, args.reveal)
        title = "Scores so far" + ("" if args.reveal else " (cities only; hands not counted)")
    out.append(f"{title}:")
    for pv, seat, score in zip(v.players, save.seats, scores):
        who = seat.name
        if seat.bot:
            who += f" [bot: {seat.bot}]"
        elif seat.key:
            who += f" [{seat.key}]"
        marks = []
        if pv.crown:
            marks.append("crown")
        if pv.seat in (g.winners or []):
            marks.append("WINNER")
        shown = [c for c in pv.characters if c]
        line = (
            f"  {pv.seat}. {who}: {score} points; {pv.gold} gold, {pv.hand_size} cards in hand, "
            f"{len(pv.city)} districts" + (f" ({', '.join(marks)})" if marks else "")
        )
        out.append(line)
        if pv.city:
            out.append("     city: " + ", ".join(b.name for b in pv.city))
        if shown and not args.reveal:
            out.append("     revealed: " + ", ".join(shown))
        if args.reveal:
            p = g.players[pv.seat]
            out.append("     hand: " + (", ".join(p.hand) or "-"))
            out.append("     characters: " + (", ".join(p.characters) or "-"))
    if v.faceup:
        out.append(f"Face-up discards: {', '.join(v.faceup)}")
    if args.reveal:
        sel = g.selection
        out.append(f"Face-down discards: {', '.join(sel.facedown) or '-'}")
        out.append(f"Deck ({len(g.deck)}, top first): {', '.join(reversed(g.deck)) or '-'}")
    else:
        out.append(f"Deck: {v.deck_size} cards; face-down discards: {v.facedown_count}. (Hidden cards: use --reveal.)")
    _write("\n".join(out) + "\n")
    return 0


def sim_saver(save_dir: str):
    """The `on_game` callback of engine.sim.run for `citadels sim --save-dir DIR`: one save file per game.

    Raises ValueError with one line when DIR cannot be written (`citadels sim` reports it)."""
    from pathlib import Path

    from engine.savefile import Seat, dumps, new_save, utcnow
    from server.storage.savelog import atomic_write

    root = Path(save_dir)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot create the save folder {root}: {e.strerror or e}") from None

    def on_game(cfg, g, log, bots) -> None:
        name = f"sim-{len(cfg.players)}p-seed{cfg.seed}"
        seats = [Seat(p, bot=getattr(b, "kind", None) or type(b).__name__) for p, b in zip(cfg.players, bots)]
        save = new_save(name, cfg, seats, g, log, created=utcnow())
        try:
            atomic_write(root / f"{name}.save", dumps(save), durable=False)
        except OSError as e:
            raise ValueError(f"cannot write {root / (name + '.save')}: {e.strerror or e}") from None

    return on_game
