"""Hypothesis example counts for the two tiers of the suite.

Two profiles: ``full`` (Hypothesis' own default of 100 examples; each test's count as written) and
``fast`` (a fifth of that). tests/conftest.py loads ``fast`` for the fast tier (``pytest``, whose
addopts say ``-m 'not slow'``: the development loop, and CI's fast tier) and ``full`` for any other
selection, the whole suite (``-m "slow or not slow"``, CI on 3.11 and 3.13) and ``-m slow`` included.
``--hypothesis-profile full`` (or ``fast``) chooses one by hand.

A test that sets its own count writes ``max_examples=examples(N)``: N under ``full``, scaled with
the profile (N / 5 under ``fast``, never fewer than min(N, 3)).
"""

from __future__ import annotations

from hypothesis import settings

FULL_EXAMPLES = 100  # Hypothesis' default
settings.register_profile("full", max_examples=FULL_EXAMPLES)
settings.register_profile("fast", max_examples=FULL_EXAMPLES // 5)


def profile_for(markexpr: str) -> str:
    """The profile of a run selecting tests by `markexpr` (-m): fast for the fast tier alone."""
    return "fast" if " ".join(markexpr.split()) == "not slow" else "full"


def examples(count: int) -> int:
    """A test's example count under the loaded profile: `count` under full, scaled under fast."""
    scaled = count * settings.default.max_examples // FULL_EXAMPLES
    return max(scaled, min(count, 3))
