"""The house has no import circles: among the project's modules (every import, also one inside a function, which is
how a circle usually hides) and among its top-level packages (a layer imports only the layers below it)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.browser import ROOT

NOT_THE_APP = {"tests", "bench", "scripts", "static", "wheels", "docs", "deploy"}


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every Python file of the app (packages, pages, top-level modules)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root)
        if rel.parts[0] in NOT_THE_APP or any(p.startswith(".") for p in rel.parts):
            continue
        name = ".".join(rel.with_suffix("").parts)
        found[name.removesuffix(".__init__")] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports anywhere in its file (relative imports resolved; `from p import m` names
    the submodule m when there is one, else the package p)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def module_graph() -> dict[str, set[str]]:
    modules = project_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def package_graph() -> dict[str, set[str]]:
    top: dict[str, set[str]] = {}
    for name, targets in module_graph().items():
        here = name.split(".")[0]
        top.setdefault(here, set()).update(t.split(".")[0] for t in targets if t.split(".")[0] != here)
    return top


def test_no_module_imports_itself_through_others():
    assert circles(module_graph()) == []


def test_no_package_imports_a_package_that_imports_it():
    assert circles(package_graph()) == []


def test_the_checker_finds_a_circle_hidden_in_a_function(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from . import a\n")
    (tmp_path / "pkg" / "c.py").write_text("import pkg.a\n")
    modules = project_modules(tmp_path)
    graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
    assert graph["pkg.c"] == {"pkg.a"}
    assert circles(graph) == [["pkg.a", "pkg.b"]]


def test_the_classroom_screens_are_modules_of_their_own_over_a_store_that_knows_no_page():
    graph = module_graph()
    for screen in ("projector", "console", "follower", "join"):
        assert f"classroom.{screen}" in graph
    store = {t for name, targets in graph.items() if name.startswith("liveclass") for t in targets}
    assert not {t for t in store if t.split(".")[0] in {"ui", "classroom", "frame", "pages"}}
