"""Every scenario file under tests/scenarios is one test (see docs/scenarios.md)."""

from pathlib import Path

import pytest

import engine  # noqa: F401
from engine.scenario import load, run

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[str(f.relative_to(ROOT)) for f in FILES])
def test_scenario(path: Path) -> None:
    result = run(load(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT.parent))))
    assert result.ok, result.message
