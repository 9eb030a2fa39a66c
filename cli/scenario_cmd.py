"""`citadels scenario run PATH...`: run scenario files or folders of them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "scenario",
        help="run rules scenarios (TOML files, see docs/scenarios.md)",
        description="Rules scenarios: TOML files that set up a position, play commands and "
        "check expectations (see docs/scenarios.md).",
    )
    ss = p.add_subparsers(dest="scenario_command", metavar="ACTION")
    r = ss.add_parser(
        "run",
        help="run scenario files or folders; one line per scenario and a summary",
        description="Run scenario files (or every *.toml below a folder). Prints PASS or FAIL with "
        "what differed for each, then a summary. Exits 1 if any fails, 2 if a file is "
        "malformed.",
    )
    r.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    r.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
    r.set_defaults(func=run)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def collect(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        elif path.exists():
            files.append(path)
        else:
            raise FileNotFoundError(raw)
    return files


def run(args: argparse.Namespace) -> int:
    import engine  # noqa: F401  (registers the cards)
    from engine.scenario import ScenarioError, load
    from engine.scenario import run as run_one

    try:
        files = collect(args.paths)
    except FileNotFoundError as e:
        print(f"citadels scenario: no such file or folder: {e}", file=sys.stderr)
        return 2
    passed = failed = malformed = 0
    for f in files:
        try:
            sc = load(f.read_text(encoding="utf-8"), str(f))
        except ScenarioError as e:
            print(f"ERROR {e}")
            malformed += 1
            continue
        except (OSError, UnicodeDecodeError) as e:
            print(f"ERROR {f}: cannot read: {e}")
            malformed += 1
            continue
        result = run_one(sc)
        if result.ok:
            passed += 1
            if not args.quiet:
                print(f"PASS {f}: {sc.title}")
        else:
            failed += 1
            print(f"FAIL {f}: {sc.title}\n     {result.message}")
    print(f"{passed} passed, {failed} failed" + (f", {malformed} malformed" if malformed else ""))
    return 2 if malformed else 1 if failed else 0
