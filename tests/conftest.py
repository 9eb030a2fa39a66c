"""The whole suite's settings: the Hypothesis profile of the run (tests/hypothesis_tiers.py), and
the snapshot sweeps' tiers, and the event loop the async tests run on.

The async tests run on the loop the server runs on (server/event_loop.py): uvloop where it is
installed; `CITADELS_TEST_LOOP=asyncio` runs them on asyncio's own (.ci/run's fast tier on 3.12
does, so that both loops are tested).

Snapshot tests (pytest-textual-snapshot's ``snap_compare``) parametrized by ``lang`` and ``size``
run one of their four pictures in the fast tier, English at 80x24; the other three (Spanish, and
120x40) are marked slow here and complete the sweep in the whole suite.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from hypothesis import settings
from hypothesis_tiers import profile_for

SNAPSHOTS_IN_THE_FAST_TIER = {("en", (80, 24))}


def pytest_configure(config: Any) -> None:
    # Before Hypothesis' own plugin, which then loads --hypothesis-profile when one is given.
    settings.load_profile(profile_for(config.getoption("markexpr") or ""))


def pytest_report_header(config: Any) -> list[str]:
    return [
        f"hypothesis profile: {settings.get_current_profile_name()} (tests/hypothesis_tiers.py)",
        f"event loop of the async tests: {_test_loop()[0]} (CITADELS_TEST_LOOP)",
    ]


def _test_loop() -> tuple[str, Callable[[], Any]]:
    import asyncio

    from server.event_loop import loop_factory

    choice = os.environ.get("CITADELS_TEST_LOOP", "auto")
    if choice not in ("auto", "uvloop", "asyncio"):
        raise pytest.UsageError(f"CITADELS_TEST_LOOP={choice!r}: auto, uvloop or asyncio")
    factory = loop_factory(choice)  # type: ignore[arg-type]
    return ("asyncio", asyncio.new_event_loop) if factory is None else ("uvloop", factory)


def pytest_asyncio_loop_factories(config: Any, item: pytest.Item) -> Mapping[str, Callable[[], Any]]:
    name, factory = _test_loop()
    return {name: factory}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marks
def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "snap_compare" not in getattr(item, "fixturenames", ()) or not {"lang", "size"} <= params.keys():
            continue
        if (params["lang"], tuple(params["size"])) not in SNAPSHOTS_IN_THE_FAST_TIER:
            item.add_marker(pytest.mark.slow)
