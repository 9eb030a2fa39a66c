"""The whole suite's settings: the Hypothesis profile of the run (tests/hypothesis_tiers.py), and
the snapshot sweeps' tiers.

Snapshot tests (pytest-textual-snapshot's ``snap_compare``) parametrized by ``lang`` and ``size``
run one of their four pictures in the fast tier, English at 80x24; the other three (Spanish, and
120x40) are marked slow here and complete the sweep in the whole suite.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import settings
from hypothesis_tiers import profile_for

SNAPSHOTS_IN_THE_FAST_TIER = {("en", (80, 24))}


def pytest_configure(config: Any) -> None:
    # Before Hypothesis' own plugin, which then loads --hypothesis-profile when one is given.
    settings.load_profile(profile_for(config.getoption("markexpr") or ""))


def pytest_report_header(config: Any) -> str:
    return f"hypothesis profile: {settings.get_current_profile_name()} (tests/hypothesis_tiers.py)"


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marks
def pytest_collection_modifyitems(config: Any, items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if "snap_compare" not in getattr(item, "fixturenames", ()) or not {"lang", "size"} <= params.keys():
            continue
        if (params["lang"], tuple(params["size"])) not in SNAPSHOTS_IN_THE_FAST_TIER:
            item.add_marker(pytest.mark.slow)
