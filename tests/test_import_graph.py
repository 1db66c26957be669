"""No import cycles among the analyzer modules, counting imports inside functions too."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def import_graph(pkg_dir: Path, pkg_name: str, extensions: tuple[str, ...] = ()) -> dict[str, set[str]]:
    """Module -> modules of the same package it imports, from every ``import`` / ``from ... import`` statement
    (module level, in functions, under ``if``), with relative imports resolved. ``extensions`` names compiled
    submodules (no .py file), so that ``from pkg import ext`` is not taken for a use of ``pkg/__init__.py``."""
    modules = {}
    for path in sorted(pkg_dir.rglob("*.py")):
        parts = [pkg_name, *path.relative_to(pkg_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            modules[".".join(parts[:-1])] = (path, True)
        else:
            modules[".".join(parts)] = (path, False)
    known = set(modules) | set(extensions)

    def owner(name: str) -> str | None:
        """The longest prefix of a dotted name that is a module of the package."""
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for mod, (path, is_pkg) in modules.items():
        here = mod if is_pkg else mod.rpartition(".")[0]
        edges = graph.setdefault(mod, set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.rsplit(".", node.level - 1)[0] if node.level > 1 else here
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                # `from pkg import name` imports the submodule pkg.name when there is one
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            for t in targets:
                t = owner(t)
                if t in modules:
                    edges.add(t)
    return graph


def closure(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` reaches through its imports."""
    seen, todo = set(), [start]
    while todo:
        for m in graph.get(todo.pop(), ()):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module, or a module importing itself."""
    reachable = {m: closure(graph, m) for m in graph}
    out = []
    for m in sorted(graph):
        if m in reachable[m] and not any(m in c for c in out):
            out.append(sorted(x for x in reachable[m] if m in reachable[x]))
    return out


def test_analyzers_have_no_import_cycles():
    graph = import_graph(ROOT / "analyzers", "analyzers")
    # the graph sees through relative, subpackage and function-level imports
    assert "analyzers.values" in graph["analyzers.build"]
    assert "analyzers.sym" in graph["analyzers.passes.races"]
    assert "analyzers.driver" in graph["analyzers"]
    found = cycles(graph)
    assert not found, "import cycles among analyzers modules: " + "; ".join(", ".join(c) for c in found)


VOCABULARY = {"kopt.diagnostic", "kopt.rules", "kopt.expr", "kopt.annotations", "kopt.source", "kopt.candidate",
              "kopt.errors", "kopt.archs", "kopt.dtypes"}


def test_the_nouns_import_neither_the_compiler_nor_the_runner():
    """The grammar, the expression language and the candidate are leaves the analyzers may import."""
    graph = import_graph(ROOT / "kopt", "kopt", extensions=("kopt._harness",))
    for noun in ("kopt.expr", "kopt.annotations", "kopt.candidate", "kopt.source", "kopt.rules"):
        reached = closure(graph, noun)
        assert reached <= VOCABULARY, f"{noun} reaches {sorted(reached - VOCABULARY)}"
    assert closure(graph, "kopt.geometry") <= VOCABULARY


def test_the_analyzers_import_only_kopts_vocabulary():
    used = set()
    for path in (ROOT / "analyzers").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").startswith("kopt"):
                used.add(node.module)
            elif isinstance(node, ast.Import):
                used |= {a.name for a in node.names if a.name.startswith("kopt")}
    assert used and used <= VOCABULARY, sorted(used - VOCABULARY)


# What the GPU worker may import besides its own package: the protocol, the harness and kopt's nouns.
WORKER_MAY_IMPORT = VOCABULARY | {"kopt.protocol", "kopt._harness", "kopt.task", "kopt.plan", "kopt.geometry",
                                  "kopt.inputs", "kopt.reference", "kopt.torch_reference", "kopt.params"}


def test_kopt_has_no_import_cycles():
    graph = import_graph(ROOT / "kopt", "kopt", extensions=("kopt._harness",))
    assert "kopt.worker.runner" in graph["kopt.worker.timing"]  # the graph sees into the worker package
    found = cycles(graph)
    assert not found, "import cycles among kopt modules: " + "; ".join(", ".join(c) for c in found)


def test_the_worker_never_imports_the_parent():
    graph = import_graph(ROOT / "kopt", "kopt", extensions=("kopt._harness",))
    workers = [m for m in graph if m == "kopt.worker" or m.startswith("kopt.worker.")]
    assert len(workers) >= 8
    for m in workers:
        outside = {x for x in closure(graph, m) if not x.startswith("kopt.worker")} - WORKER_MAY_IMPORT
        assert not outside, f"{m} reaches parent-side modules {sorted(outside)}"


def test_function_level_import_cycle_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import d\n")
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .sub.c import x\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text("import pkg.a\n")
    (pkg / "d.py").write_text("from .a import y\nfrom . import ext\n")
    graph = import_graph(pkg, "pkg", extensions=("pkg.ext",))
    assert cycles(graph) == [["pkg.a", "pkg.b", "pkg.sub.c"]]
    assert cycles(import_graph(pkg, "pkg")) == [["pkg", "pkg.d"], ["pkg.a", "pkg.b", "pkg.sub.c"]]


def test_every_module_imports_without_a_gpu():
    """GPU-side modules are exercised only on a GPU; importing them here catches a broken name early."""
    import importlib
    import pkgutil

    import analyzers
    import kopt

    broken = []
    for pkg in (kopt, analyzers):
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if not m.name.endswith("__main__"):
                try:
                    importlib.import_module(m.name)
                except Exception as exc:  # reported, not raised: list every broken module at once
                    broken.append(f"{m.name}: {exc!r}")
    assert not broken, "\n".join(broken)
