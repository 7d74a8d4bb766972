#!/usr/bin/env python3
"""Import cycles among the modules of a package, and which of its parts import which.

Every ``import`` and ``from … import`` of a module counts, wherever it is (inside a function,
under ``if TYPE_CHECKING``): a cycle that only shows at run time is still a cycle in the
design. A package's ``__init__`` is left out (its re-exports are not cycles). A cycle is a
strongly connected component of the module graph (Tarjan's algorithm), printed as its modules
joined by ``<->``.

    python scripts/import_cycles.py tui_games            cycles: none (exit 0), or the cycles (exit 1)
    python scripts/import_cycles.py tui_games --layers   which top-level part imports which

``tests/test_import_cycles.py`` runs it on the package.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path


def modules(root: Path) -> dict[str, Path]:
    """Every module of the package at ``root``, by dotted name (``pkg.sub.__init__`` for a package)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        found[".".join(parts)] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: set[str]) -> list[str]:
    """The package's modules that one import statement of module ``name`` names."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".")
            if path.name != "__init__.py":
                package = package[:-1]
            package = package[:len(package) - (node.level - 1)]
            base = ".".join([*package, base] if base else package)
        # ``from pkg import mod`` names the module pkg.mod; ``from mod import thing`` names mod.
        wanted = [f"{base}.{alias.name}" if (f"{base}.{alias.name}" in known
                                              or f"{base}.{alias.name}.__init__" in known) else base
                  for alias in node.names]
    out = []
    for target in wanted:
        if target in known:
            out.append(target)
        elif f"{target}.__init__" in known:
            out.append(f"{target}.__init__")
    return out


def graph(root: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``__init__`` modules left out both ways)."""
    found = modules(root)
    known = set(found)
    edges: dict[str, set[str]] = {name: set() for name in found if not name.endswith(".__init__")}
    for name, path in found.items():
        if name.endswith(".__init__"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges[name].update(t for t in _targets(name, path, node, known)
                                   if t != name and not t.endswith(".__init__"))
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, with an explicit stack of (node, its remaining successors).
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
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

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def part(module: str) -> str:
    """A module's top-level part of the package: its sub-package, or the module itself."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else pieces[0]


def layers(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """Top-level part -> the other parts it imports."""
    out: dict[str, set[str]] = {}
    for module, targets in edges.items():
        out.setdefault(part(module), set()).update(part(t) for t in targets if part(t) != part(module))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="import_cycles.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("package", type=Path, help="the package's directory (tui_games)")
    parser.add_argument("--layers", action="store_true", help="print which top-level part imports which")
    args = parser.parse_args(argv)
    if not (args.package / "__init__.py").is_file():
        print(f"import_cycles.py: error: {args.package} is not a package (no __init__.py)", file=sys.stderr)
        return 2
    edges = graph(args.package.resolve())
    if args.layers:
        for name, targets in sorted(layers(edges).items()):
            print(f"{name} -> {', '.join(sorted(targets)) or '-'}")
        return 0
    found = cycles(edges)
    if not found:
        print("cycles: none")
        return 0
    short = [" <-> ".join(m.split(".", 1)[1] for m in component) for component in found]
    print("cycles: " + ", ".join(short))
    return 1


if __name__ == "__main__":
    sys.exit(main())
