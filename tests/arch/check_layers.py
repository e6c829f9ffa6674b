"""The folder-level include graph of src/ has no cycle and no upward include.

Derives the graph from the sources (every #include "FOLDER/..." in src/FOLDER/*.[ch]) and checks it
against the layers of docs/architecture.md: a folder may include its own headers and those of lower
layers only; folders on one layer do not include each other. A folder missing from LAYERS fails too,
so a new folder is placed deliberately.

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


def main():
    root = pathlib.Path(sys.argv[1])
    graph = include_graph(root / "src")
    problems = violations(graph)
    for line in problems:
        print("layers:", line)
    edges = sum(len(e) for e in graph.values())
    print(f"layers: {len(graph)} folders, {edges} folder-level includes, {len(problems)} violations")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
