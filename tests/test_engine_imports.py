"""The engine's imports: no circles between its modules, nothing from the UI, the server or their
frameworks. Read from the source (every import, also inside functions; those under
`if TYPE_CHECKING:` are for the type checker only and do not run), and checked by importing the
engine in a fresh interpreter. import-linter holds the same contracts (pyproject.toml)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = ("ui", "server", "cli", "textual", "asyncssh")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """Modules `path` imports when it runs (relative imports resolved; TYPE_CHECKING blocks skipped)."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:  # `from . import flow` imports the module engine.flow
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
    return out


def _graph() -> dict[str, set[str]]:
    files = sorted((ROOT / "engine").rglob("*.py"))
    modules = {_module_name(f) for f in files}
    return {_module_name(f): _runtime_imports(f, modules) for f in files}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), among engine modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in graph or w.startswith(v + ".") or v.startswith(w + "."):
                continue  # outside the engine, or a package and its own modules
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_import_reader_sees_circles() -> None:
    fake = {"engine.a": {"engine.b"}, "engine.b": {"engine.c"}, "engine.c": {"engine.a"}, "engine.d": set()}
    assert _cycles(fake) == [["engine.a", "engine.b", "engine.c"]]


def test_no_import_circles_in_the_engine() -> None:
    graph = _graph()
    assert "engine.flow" in graph["engine.turn"]  # the reader resolves `from . import flow`
    assert _cycles(graph) == []


def test_engine_imports_no_ui_server_or_frameworks() -> None:
    bad = {(m, i) for m, imports in _graph().items() for i in imports if i.split(".")[0] in FORBIDDEN}
    assert not bad, sorted(bad)
    code = "import sys, engine, engine.savefile, engine.sim, engine.scenario.runner, engine.bots.hard; " + (
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


# Every module of the engine, not only its entry points: nothing of the rest, nor Rich, nor the tests.
EVERY_MODULE = """
import importlib, json, pkgutil, sys
import engine
names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
for name in names:
    importlib.import_module(name)
print(json.dumps({"engine": names, "loaded": sorted(sys.modules)}))
"""


def test_importing_every_engine_module_loads_nothing_of_the_rest() -> None:
    import json

    done = subprocess.run([sys.executable, "-c", EVERY_MODULE], cwd=ROOT, capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert len(found["engine"]) > 50  # every module was imported, not just the package
    loaded = {name.split(".", 1)[0] for name in found["loaded"]}
    assert loaded & {*FORBIDDEN, "rich", "tests", "benchmarks"} == set()
