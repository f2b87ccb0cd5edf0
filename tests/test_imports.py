"""What importing fastscore costs: no command-line, plotting or cluster library, and no import cycle."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import fastscore

PACKAGE = Path(fastscore.__file__).resolve().parent

#: Needed by the command line (click, rich), the survey report (matplotlib) or the Dask jobs only.
NOT_AT_IMPORT = ("click", "rich", "matplotlib", "dask", "distributed", "tqdm")


def test_import_fastscore_needs_only_numpy_numba_and_pyarrow():
    """A notebook that calls ``score_batch`` loads none of the command line's, the report's or Dask's libraries."""
    code = (
        "import sys\n"
        "import fastscore\n"
        "fastscore.score_batch(fastscore.HandBatch.from_records([{'hand': '11m99m77p11s9s EE RR 333p', 'win': '9s'}]))\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({NOT_AT_IMPORT!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=PACKAGE.parent, env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)}, timeout=600)
    assert done.stdout.strip().splitlines()[-1] == "[]"


def _module_level_imports() -> dict[str, set[str]]:
    """fastscore module -> the fastscore modules it imports at module level (imports inside functions,
    made when called, are left out)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            for item in node.body if isinstance(node, ast.Try) else [node]:
                if isinstance(item, ast.ImportFrom) and item.level:
                    base = package.split(".")[: len(package.split(".")) - item.level + 1]
                    target = ".".join(base + ([item.module] if item.module else []))
                    found |= {f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in item.names}
        graph[name] = {m for m in found if m in modules and m != name}
    return graph


def test_no_import_cycle_among_the_modules():
    graph = _module_level_imports()
    assert "fastscore.io.readers" in graph and "fastscore.jobs" in graph
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' -> '.join(path[path.index(name):] + (name,))}"
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, path + (name,))
        done.add(name)

    for name in sorted(graph):
        visit(name, ())
