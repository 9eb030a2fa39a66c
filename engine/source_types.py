"""The annotations of a compiled class as its source writes them, for msgspec.

mypyc keeps only the outer class of a compiled class's annotations (`players: list`, not
`list[Player]`; a union becomes `type`), and msgspec encodes and decodes a dataclass or a Struct by
its annotations. `restore` gives such classes the annotations of their source, read from the `.py`
file beside the compiled module: what the interpreted classes have (strings, since every engine
module has `from __future__ import annotations`). An interpreted class is left as it is.
"""

from __future__ import annotations

import ast
import functools
import inspect
import sys
from pathlib import Path


@functools.cache
def _classes(module_file: str) -> dict[str, dict[str, str]]:
    """Each top-level class of a module's source: its annotated names and their annotations."""
    path = Path(module_file)
    source = path.with_name(path.name.split(".", 1)[0] + ".py")
    out: dict[str, dict[str, str]] = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {
                s.target.id: ast.unparse(s.annotation)
                for s in node.body
                if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
            }
    return out


def restore(*classes: type) -> None:
    for cls in classes:
        if all(isinstance(a, str) for a in inspect.get_annotations(cls).values()):
            continue  # interpreted
        module_file = sys.modules[cls.__module__].__file__
        assert module_file is not None
        cls.__annotations__ = _classes(module_file)[cls.__qualname__]
