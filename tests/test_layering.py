"""The house rules of the code, checked on the source (docs/architecture.md#packages).

Imports flow one way: ``ranking`` (the pure core) <- ``tiebreak`` (the application) <- ``bot``
and ``site_builder``, which never import each other; tests may import benchmarks' helpers'
sources never, and benchmarks may import tests.  No project module takes part in an import
cycle, counting imports inside functions (they run, only later) and leaving out imports under
``if TYPE_CHECKING:`` (they never run).  A project import inside a function is deliberate
(start-up time, an optional dependency): it carries a comment saying why.

Every module is parsed with ``ast``; nothing is imported, so a broken module cannot hide an edge.
"""

from __future__ import annotations

import ast
import functools
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("ranking", "tiebreak", "bot", "site_builder")
TOP_LEVEL = ("tests", "benchmarks")

#: what a package must never import (its own name excepted): the walls of docs/architecture.md#packages
WALLS: dict[str, frozenset[str]] = {
    "ranking": frozenset({"sqlite3", "argparse", "getpass", "tiebreak", "bot", "site_builder"}),
    "tiebreak": frozenset({"bot", "site_builder"}),
    "bot": frozenset({"site_builder"}),
    "site_builder": frozenset({"bot"}),
    "tests": frozenset({"benchmarks"}),
}

#: The one deliberate crossing: ``python -m ranking`` is the ``tiebreak`` command (docs/architecture.md#packages:
#: ``ranking/__main__.py`` is only the shim), so the shim calls the application's entry point.
#: No other module imports it, so it closes no loop.
SHIMS = frozenset({"ranking.__main__"})


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: str  # the imported module (or package), dotted
    line: int
    deferred: bool  # inside a function
    commented: bool  # a comment on its line or the line above


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> dict[str, Path]:
    files = {}
    for top in (*PACKAGES, *TOP_LEVEL):
        for path in sorted((ROOT / top).rglob("*.py")):
            if ".venv" in path.parts or "data" in path.relative_to(ROOT).parts:
                continue
            files[module_name(path)] = path
    return files


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str, path: Path, modules: set[str]) -> list[Import]:
    """Every import statement of the module that runs, resolved to module names."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text, filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[Import] = []

    def commented(line: int) -> bool:
        here = lines[line - 1]
        above = lines[line - 2].strip() if line > 1 else ""
        return "#" in here or "#" in above

    def add(target: str, node: ast.stmt, deferred: bool) -> None:
        found.append(Import(name, target, node.lineno, deferred, commented(node.lineno)))

    def visit(nodes: list[ast.stmt], deferred: bool) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse, deferred)
                continue
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name, node, deferred)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    stem = ".".join(base + ([node.module] if node.module else []))
                else:
                    stem = node.module or ""
                for alias in node.names:
                    candidate = f"{stem}.{alias.name}"
                    add(candidate if candidate in modules else stem, node, deferred)
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list) and children and isinstance(children[0], ast.stmt | ast.excepthandler):
                    inner = deferred or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                    if field == "handlers":
                        for handler in children:
                            visit(handler.body, inner)
                    else:  # class bodies run at import time, function bodies when called
                        visit(children, inner)

    visit(tree.body, False)
    return found


def all_imports() -> list[Import]:
    return list(_imports_under(ROOT))


@functools.cache
def _imports_under(root: Path) -> tuple[Import, ...]:
    """Every project import under ``root``, parsed once for the tests of this module."""
    files = project_files()
    modules = set(files)
    return tuple(found for name, path in files.items() for found in imports_of(name, path, modules))


def project_edges(imports: list[Import]) -> dict[str, set[str]]:
    modules = set(project_files())
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for found in imports:
        if found.source in SHIMS or found.target not in modules:
            continue
        targets = {found.target}
        parts = found.target.split(".")
        targets |= {".".join(parts[:n]) for n in range(1, len(parts)) if ".".join(parts[:n]) in modules}
        # Importing a module runs its packages' __init__ first, except the importer's own
        # packages, which are already being imported when it runs.
        own = {".".join(found.source.split(".")[:n]) for n in range(1, found.source.count(".") + 2)}
        graph[found.source] |= targets - own
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def strongconnect(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                strongconnect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            strongconnect(node)
    return found


def crossings(imports: list[Import]) -> list[str]:
    found = []
    for item in imports:
        if item.source in SHIMS:
            continue
        top = item.source.split(".")[0]
        wall = WALLS.get(top, frozenset())
        if item.target.split(".")[0] in wall:
            found.append(f"{item.source}:{item.line} imports {item.target}")
    return found


def test_no_import_cycle_among_project_modules():
    found = cycles(project_edges(all_imports()))
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(component) for component in found)


def test_no_import_crosses_a_wall():
    found = crossings(all_imports())
    assert found == [], "wall crossings: " + "; ".join(found)


def test_every_deferred_project_import_says_why():
    modules = set(project_files())
    silent = [f"{item.source}:{item.line} imports {item.target}" for item in all_imports()
              if item.deferred and item.target in modules and not item.commented
              and item.source.split(".")[0] in PACKAGES]
    assert silent == [], "deferred imports without a comment saying why: " + "; ".join(silent)


def test_the_checker_sees_cycles_walls_and_deferred_imports(tmp_path, monkeypatch):
    """The checks above can fail: a made-up tree with a loop through a function-local import,
    a core module importing sqlite3, and a TYPE_CHECKING import that must not count."""
    (tmp_path / "ranking").mkdir()
    (tmp_path / "ranking" / "__init__.py").write_text("")
    (tmp_path / "ranking" / "a.py").write_text("from ranking.b import x\n")
    (tmp_path / "ranking" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nimport sqlite3\n"
        "if TYPE_CHECKING:\n    from ranking.c import y\n"
        "def f():\n    from ranking.a import z\n")
    (tmp_path / "ranking" / "c.py").write_text("from ranking.b import x\n")
    for top in (*PACKAGES[1:], *TOP_LEVEL):
        (tmp_path / top).mkdir()
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    imports = all_imports()
    assert cycles(project_edges(imports)) == [["ranking.a", "ranking.b"]]
    assert crossings(imports) == ["ranking.b:2 imports sqlite3"]
    deferred = [item for item in imports if item.deferred]
    assert [(item.target, item.commented) for item in deferred] == [("ranking.a", False)]
