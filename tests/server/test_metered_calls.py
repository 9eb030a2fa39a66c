"""server/transport/input_budget.run_metered: a call made for a session from another task (a view
dispatched without waking the app's task) runs in the session's context and is charged to its input
budget while its input window is open, as a step of its own task would be."""

from __future__ import annotations

import contextvars
import time

import pytest

from server.config import ServerConfig
from server.transport.input_budget import InputBudget, run_metered, session_context

marker: contextvars.ContextVar[str] = contextvars.ContextVar("marker", default="elsewhere")


def _busy(seconds: float) -> str:
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        pass
    return marker.get()


async def test_charged_only_while_the_window_is_open_and_run_in_the_session_context():
    budget = InputBudget(ServerConfig())
    context = session_context(budget)
    context.run(marker.set, "session")
    assert run_metered(context, _busy, 0.01) == "session"
    assert budget.charged_seconds == 0  # no input waiting for its frames: the loop's time, not the session's
    budget.arm(time.perf_counter())
    assert run_metered(context, _busy, 0.02) == "session"
    assert 0.02 <= budget.charged_seconds < 1.0
    assert marker.get() == "elsewhere"  # the caller's context untouched


async def test_a_failing_call_is_charged_and_raises():
    budget = InputBudget(ServerConfig())
    context = session_context(budget)
    budget.arm(time.perf_counter())

    def fail() -> None:
        _busy(0.01)
        raise RuntimeError("failed")

    with pytest.raises(RuntimeError, match="failed"):
        run_metered(context, fail)
    assert budget.charged_seconds >= 0.01


async def test_a_context_without_a_budget_is_run_and_not_charged():
    assert run_metered(contextvars.Context(), _busy, 0.0) == "elsewhere"
