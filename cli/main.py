"""`citadels`: one command line with subcommands, each with --help.

Each subcommand lives in its own module of this package with
`add_parser(subparsers)` (which sets `func`) so that the parts stay apart.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = ["serve", "play", "sim", "scenario", "save", "admin", "db", "history", "ratings"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citadels",
        description="Citadels (Bruno Faidutti's card game) over SSH: server, local play, simulation, tools.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"cli.{name}_cmd")
        except ModuleNotFoundError as e:
            if e.name != f"cli.{name}_cmd":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
