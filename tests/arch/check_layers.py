"""The folder-level include graph of src/ has no cycle and no upward include.

Derives the graph from the sources (every #include "FOLDER/..." in src/FOLDER/*.[ch]) and checks it
against the layers of docs/architecture.md: a folder may include its own headers and those of lower
layers only; folders on one layer do not include each other. A folder missing from LAYERS fails too,
so a new folder is placed deliberately.

The command-line tool (cli/*.[ch]) includes the public header kernelmix.h, cli_internals.h (the
library internals it uses, named in one place), its own headers and system headers only.

Usage: check_layers.py REPOSITORY_ROOT
"""
import pathlib
import re
import sys

LAYERS = {
    "core": 0,
    "data": 1,
    "kernel": 2,
    "svm": 3,
    "mkl": 4,
    "train": 5,
    "model": 6,
    "eval": 6,
    "plot": 7,
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/[^"]+"', re.MULTILINE)
ANY_INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^">]+)[">]', re.MULTILINE)
CLI_MAY_INCLUDE = {"kernelmix.h", "cli_internals.h"}


def include_graph(src):
    """{folder: {included folder: [files that include it]}}"""
    graph = {}
    for path in sorted(src.glob("*/*.[ch]")):
        folder = path.parent.name
        edges = graph.setdefault(folder, {})
        for target in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if target != folder:
                edges.setdefault(target, []).append(path.name)
    return graph


def violations(graph):
    found = []
    for folder, edges in sorted(graph.items()):
        if folder not in LAYERS:
            found.append(f"src/{folder}: not placed in a layer (add it to LAYERS and docs/architecture.md)")
            continue
        for target, files in sorted(edges.items()):
            if target not in LAYERS:
                found.append(f"src/{folder} includes {target}/, which is not a layer ({', '.join(files)})")
            elif LAYERS[target] >= LAYERS[folder]:
                kind = "a folder of the same layer" if LAYERS[target] == LAYERS[folder] else "a higher layer"
                found.append(f"src/{folder} includes {target}/, {kind} ({', '.join(files)})")
    return found


def cli_violations(root):
    """The includes of cli/ files other than kernelmix.h, cli_internals.h, cli/'s own headers and system
    headers (a header of src/ in angle brackets counts as the library's)."""
    cli = root / "cli"
    allowed = CLI_MAY_INCLUDE | {path.name for path in cli.glob("*.h")}
    found = []
    for path in sorted(cli.glob("*.[ch]")):
        for delimiter, header in ANY_INCLUDE.findall(path.read_text(encoding="utf-8")):
            if header not in allowed and (delimiter == '"' or (root / "src" / header).exists()):
                found.append(f"cli/{path.name} includes {header}: the tool uses internals through cli_internals.h only")
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    graph = include_graph(root / "src")
    problems = violations(graph) + cli_violations(root)
    for line in problems:
        print("layers:", line)
    edges = sum(len(e) for e in graph.values())
    print(f"layers: {len(graph)} folders, {edges} folder-level includes, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
