"""Scenario files: TOML positions, commands and expectations (see docs/scenarios.md).

`load(text, path)` parses a file's text into a `Scenario`; `run(scenario)` plays it
and returns a `Result`. Reading files is left to the caller (the engine does no I/O).
"""

from .format import Scenario, ScenarioError, load
from .runner import Result, run

__all__ = ["Result", "Scenario", "ScenarioError", "load", "run"]
