"""List every use of a framework's private names in our code (Textual and asyncssh).

    python .ci/private_names.py [PATH ...]       # default: ui/ server/ cli/ engine/

A use is:
- an import of a private module (`textual._compositor`, `from asyncssh.connection import _x`)
  or of a private name from a framework module;
- an attribute `obj._name` (not a dunder) where `_name` is a name the framework defines
  (a method, a class attribute, an instance attribute it assigns, a slot) and our own code
  does not define it (so `self._cache` of our own class is not reported);
- `getattr`/`setattr`/`hasattr`/`delattr` with such a name as a string;
- a string naming a private module (`"textual._node_list"`), as type-name tables do;
- an assignment to an attribute of a framework module or class imported by name
  (`textual_app.redirect_stdout = ...`, `Strip.crop = ...`): a patch, whatever the name;
- a method defined in a subclass with a framework private method's name (an override),
  except Textual's handler naming conventions (`_on_*`, `_watch_*`, `_compute_*`,
  `_validate_*`), which its dispatcher looks up by name on purpose.

Names both frameworks and our code define (`_cache`, `_config`...) are reported as
"ambiguous" only when the receiver is not `self`: a reviewer decides (see
tests/test_private_names.py for the reviewed ones).

Prints one line per use, `path:line: framework kind name`, and exits 0; `--json` prints a list.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

FRAMEWORKS = ("textual", "asyncssh")
HANDLER_PREFIXES = ("_on_", "_watch_", "_compute_", "_validate_")
ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ("ui", "server", "cli", "engine")


@dataclass(frozen=True, order=True)
class Use:
    path: str
    line: int
    framework: str
    kind: str  # import, attribute, getattr, module-string, patch, override, ambiguous
    name: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.framework} {self.kind} {self.name}"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _package_dir(framework: str) -> Path:
    spec = importlib.util.find_spec(framework)
    if spec is None or spec.origin is None:
        raise SystemExit(f"{framework} is not installed")
    return Path(spec.origin).parent


def _defined_names(files: Iterable[Path]) -> tuple[set[str], set[str]]:
    """Private names the files define (all kinds) and the private methods among them."""
    names: set[str] = set()
    methods: set[str] = set()
    for file in files:
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                if _private(node.name):
                    names.add(node.name)
                if isinstance(node, ast.ClassDef):
                    for item in node.body:
                        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and _private(item.name):
                            methods.add(item.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and _private(node.id):
                names.add(node.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _private(node.target.id):
                names.add(node.target.id)
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and _private(node.value)
                and node.value.isidentifier()
            ):
                names.add(node.value)  # __slots__ entries, setattr(self, "_x", ...)
    return names, methods


def _python_files(paths: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_file() and path.suffix == ".py":
            files.append(path)
        elif path.is_dir():
            files.extend(p for p in sorted(path.rglob("*.py")) if ".venv" not in p.relative_to(path).parts)
    return files


def _is_self(node: ast.expr) -> bool:
    """`self`, `cls` or `super()`: a name on our own object (reported only if our code never defines it)."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


class _Scanner(ast.NodeVisitor):
    def __init__(
        self,
        path: str,
        framework_names: dict[str, set[str]],
        framework_methods: dict[str, set[str]],
        ours: set[str],
        import_classes: bool,
    ) -> None:
        self.path = path
        self.import_classes = import_classes
        self.framework_names = framework_names
        self.framework_methods = framework_methods
        self.ours = ours
        self.uses: list[Use] = []
        self.framework_aliases: dict[str, str] = {}  # a local name -> the framework it was imported from
        self.stdlib_aliases: set[str] = set()  # local names of standard-library modules (`os._exit` is theirs)

    def _add(self, node: ast.AST, framework: str, kind: str, name: str) -> None:
        self.uses.append(Use(self.path, getattr(node, "lineno", 0), framework, kind, name))

    def _framework_of_module(self, module: str) -> str | None:
        top = module.split(".", 1)[0]
        return top if top in FRAMEWORKS else None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".", 1)[0] in sys.stdlib_module_names:
                self.stdlib_aliases.add(alias.asname or alias.name.split(".", 1)[0])
            framework = self._framework_of_module(alias.name)
            if framework:
                self.framework_aliases[alias.asname or alias.name.split(".", 1)[0]] = framework
            if framework and any(_private(part) for part in alias.name.split(".")[1:]):
                self._add(node, framework, "import", alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        framework = self._framework_of_module(module)
        if framework and node.level == 0:
            for alias in node.names:
                self.framework_aliases[alias.asname or alias.name] = framework
            if any(_private(part) for part in module.split(".")[1:]):
                self._add(node, framework, "import", module)
            else:
                for alias in node.names:
                    if _private(alias.name):
                        self._add(node, framework, "import", f"{module}.{alias.name}")

    def _check_name(self, node: ast.AST, name: str, receiver_is_self: bool, kind: str) -> None:
        if not _private(name):
            return
        for framework, names in self.framework_names.items():
            if name not in names:
                continue
            if name not in self.ours:
                self._add(node, framework, kind, name)
            elif not receiver_is_self:
                self._add(node, framework, "ambiguous", name)

    def _check_patch(self, target: ast.expr) -> None:
        if not isinstance(target, ast.Attribute):
            return
        root = target.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root.id in self.framework_aliases:
            self._add(target, self.framework_aliases[root.id], "patch", f"{ast.unparse(target.value)}.{target.attr}")

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._check_patch(target)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._check_patch(node.target)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        receiver_is_self = _is_self(node.value)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.stdlib_aliases):
            self._check_name(node, node.attr, receiver_is_self, "attribute")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Name)
            and func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            receiver_is_self = _is_self(node.args[0])
            self._check_name(node, node.args[1].value, receiver_is_self, "getattr")
            if func.id in ("setattr", "delattr"):
                receiver = node.args[0]
                if isinstance(receiver, ast.Name) and receiver.id in self.framework_aliases:
                    name = f"{receiver.id}.{node.args[1].value}"
                    self._add(node, self.framework_aliases[receiver.id], "patch", name)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, str) and "." in value and " " not in value:
            framework = self._framework_of_module(value)
            if framework and any(_private(part) for part in value.split(".")[1:]):
                self._add(node, framework, "module-string", value)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        cls = _runtime_class(self.path, node.name) if self.import_classes else None
        for item in node.body:
            if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            name = item.name
            if not _private(name) or name.startswith(HANDLER_PREFIXES):
                continue
            if cls is not None:
                # The real base classes decide: a framework class in the MRO defining the name.
                for base in cls.__mro__[1:]:
                    framework = (base.__module__ or "").split(".", 1)[0]
                    if framework in FRAMEWORKS and name in vars(base):
                        self._add(item, framework, "override", f"{node.name}.{name}")
                        break
                continue
            for framework, methods in self.framework_methods.items():
                if name in methods:
                    self._add(item, framework, "override", f"{node.name}.{name}")
        self.generic_visit(node)


def _runtime_class(path: str, name: str) -> type | None:
    """The class `name` defined at the top of the module at `path` (relative to the root), if it imports."""
    if not path.endswith(".py") or path.startswith("/"):
        return None
    module_name = path[:-3].replace("/", ".").removesuffix(".__init__")
    try:
        module = importlib.import_module(module_name)
    except Exception:
        return None
    found = getattr(module, name, None)
    return found if isinstance(found, type) else None


@functools.cache
def _framework_definitions() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """Every private name each framework defines, and its private methods (parsed once per process)."""
    framework_names: dict[str, set[str]] = {}
    framework_methods: dict[str, set[str]] = {}
    for framework in FRAMEWORKS:
        names, methods = _defined_names(_python_files([_package_dir(framework)]))
        framework_names[framework] = names
        framework_methods[framework] = methods
    return framework_names, framework_methods


def scan(paths: Iterable[Path], root: Path = ROOT) -> list[Use]:
    framework_names, framework_methods = _framework_definitions()
    all_ours = _python_files(root / p for p in DEFAULT_PATHS)
    ours, _ = _defined_names(all_ours)
    uses: list[Use] = []
    for file in _python_files(paths):
        tree = ast.parse(file.read_text(encoding="utf-8"), str(file))
        try:
            rel = str(file.resolve().relative_to(root))
        except ValueError:
            rel = str(file)
        scanner = _Scanner(rel, framework_names, framework_methods, ours, import_classes=root == ROOT)
        scanner.visit(tree)
        uses.extend(scanner.uses)
    return sorted(set(uses))


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    paths = [Path(a) for a in args] or [ROOT / p for p in DEFAULT_PATHS]
    uses = scan(paths)
    if as_json:
        print(json.dumps([asdict(u) for u in uses], indent=1))
    else:
        for use in uses:
            print(use)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
