"""The whole suite's settings: the Hypothesis profile of the run (tests/hypothesis_tiers.py)."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis_tiers import profile_for


def pytest_configure(config: Any) -> None:
    # Before Hypothesis' own plugin, which then loads --hypothesis-profile when one is given.
    settings.load_profile(profile_for(config.getoption("markexpr") or ""))


def pytest_report_header(config: Any) -> str:
    return f"hypothesis profile: {settings.get_current_profile_name()} (tests/hypothesis_tiers.py)"
