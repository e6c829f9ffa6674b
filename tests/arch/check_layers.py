"""The folder-level include graph of src/ has no cycle and no upward include, and no code outside
src/mkl names a kernel-weight method.

Derives the graph from the sources (every #include "FOLDER/..." in src/FOLDER/*.[ch]) and checks it
against the layers of docs/architecture.md: a folder may include its own headers and those of lower
layers only; folders on one layer do not include each other. A folder missing from LAYERS fails too,
so a new folder is placed deliberately.

The method table (src/mkl/method.h) is the only place that knows methods: a method id (a member of
the enumeration km_mkl_method in include/kernelmix.h, KM_MKL_FIXED ... ; not the solver ids such as
KM_MKL_WRAPPER) in src/ outside src/mkl or in cli/ fails, code and comments alike, unless
METHOD_IDS_ALLOWED lists it for that file; an entry there that is no longer needed fails too.

Only src/dist includes <mpi.h>.

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
    "dist": 1,
    "kernel": 2,
    "svm": 3,
    "mkl": 4,
    "train": 5,
    "model": 6,
    "eval": 6,
    "plot": 7,
    "select": 7,
}

# Files that may name methods, and which ids (None: any).
METHOD_IDS_ALLOWED = {
    # train's options: --p and the like without --mkl imply lp
    "cli/train_options.c": {"KM_MKL_LP"},
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


def method_ids(header):
    """The members of enum km_mkl_method in the public header."""
    body = re.search(r"typedef\s+enum\s+km_mkl_method\s*\{(.*?)\}\s*km_mkl_method\s*;", header, re.DOTALL)
    if not body:
        return set()
    code = re.sub(r"/\*.*?\*/", "", body.group(1), flags=re.DOTALL)
    return set(re.findall(r"\b(KM_MKL_[A-Z0-9_]+)\s*(?:=|,|$)", code))


def method_id_references(root, ids):
    """[(path relative to root, line number, id)] of every method id outside src/mkl, in src/ and cli/."""
    pattern = re.compile(r"\b(" + "|".join(sorted(ids)) + r")\b")
    found = []
    files = sorted(root.glob("src/*/*.[ch]")) + sorted(root.glob("cli/*.[ch]"))
    for path in files:
        relative = path.relative_to(root).as_posix()
        if relative.startswith("src/mkl/"):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found.extend((relative, number, m) for m in pattern.findall(line))
    return found


def method_id_violations(root):
    ids = method_ids((root / "include" / "kernelmix.h").read_text(encoding="utf-8"))
    if len(ids) < 2:
        return [f"include/kernelmix.h: the members of enum km_mkl_method were not found ({sorted(ids)})"], 0
    references = method_id_references(root, ids)
    found, used = [], set()
    for path, number, name in references:
        allowed = METHOD_IDS_ALLOWED.get(path, set())
        if allowed is None or name in allowed:
            used.add((path, name if allowed is not None else None))
        else:
            found.append(f"{path}:{number}: names the method {name} (ask its entry in src/mkl/method.h: "
                         "its flags, describe or members)")
    for path, allowed in sorted(METHOD_IDS_ALLOWED.items()):
        for name in sorted(allowed) if allowed is not None else [None]:
            if (path, name) not in used:
                found.append(f"{path}: METHOD_IDS_ALLOWED lists {name or 'any method id'}, which it no longer "
                             "names (remove the entry)")
    return found, len(references)


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


def mpi_violations(root):
    """Includes of <mpi.h> anywhere but src/dist (the one folder that speaks MPI)."""
    found = []
    for path in sorted(root.glob("src/*/*.[ch]")) + sorted(root.glob("cli/*.[ch]")):
        relative = path.relative_to(root).as_posix()
        if not relative.startswith("src/dist/") and any(
                header == "mpi.h" for _, header in ANY_INCLUDE.findall(path.read_text(encoding="utf-8"))):
            found.append(f"{relative} includes mpi.h: MPI is src/dist's (dist.h, task_exchange.h)")
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    graph = include_graph(root / "src")
    problems = violations(graph) + cli_violations(root) + mpi_violations(root)
    for line in problems:
        print("layers:", line)
    edges = sum(len(e) for e in graph.values())
    print(f"layers: {len(graph)} folders, {edges} folder-level includes, {len(problems)} violations")
    method_problems, references = method_id_violations(root)
    for line in method_problems:
        print("method ids:", line)
    print(f"method ids: {references} outside src/mkl, {len(method_problems)} violations")
    return 1 if problems or method_problems else 0


if __name__ == "__main__":
    sys.exit(main())
