"""The shared library exports exactly the functions kernelmix.h declares, each with KM_API.

Usage: exported_symbols.py LIBRARY HEADER. Lists LIBRARY's defined dynamic symbols (nm -D
--defined-only) and fails naming every exported symbol the header does not declare and every
declared function the library does not export. Both tiers count: the stable functions and the
experimental ones the header declares only under KM_EXPERIMENTAL_API (the library exports them too)."""
import re
import subprocess
import sys


def declared_functions(header_text):
    # a KM_API declaration: KM_API <return type> name( ... -- the name is the last word before '('
    return set(re.findall(r"^KM_API\b[^;(]*?\b(\w+)\s*\(", header_text, flags=re.MULTILINE))


def experimental_functions(header_text):
    # the KM_API declarations of the #ifdef KM_EXPERIMENTAL_API section
    sections = re.findall(r"^#ifdef KM_EXPERIMENTAL_API$(.*?)^#endif", header_text, flags=re.MULTILINE | re.DOTALL)
    return set().union(*(declared_functions(section) for section in sections))


def unmarked_functions(header_text):
    # a function declared at the start of a line without KM_API (it would stay hidden)
    return set(re.findall(r"^(?!KM_API\b|typedef\b)[A-Za-z][^;(#=]*?\b(km_\w+)\s*\(", header_text, flags=re.MULTILINE))


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True, capture_output=True, text=True).stdout
    # lines "ADDRESS TYPE NAME" (a versioned name carries @VERSION)
    return {fields[2].split("@")[0] for fields in (line.split() for line in out.splitlines()) if len(fields) == 3}


def main():
    library, header = sys.argv[1], sys.argv[2]
    with open(header, encoding="utf-8") as f:
        text = f.read()
    declared, unmarked = declared_functions(text), sorted(unmarked_functions(text))
    exported = exported_symbols(library)
    extra, missing = sorted(exported - declared), sorted(declared - exported)
    for name in extra:
        print(f"exported but not declared KM_API in {header}: {name}")
    for name in missing:
        print(f"declared KM_API but not exported by {library}: {name}")
    for name in unmarked:
        print(f"declared without KM_API in {header} (hidden from the shared library): {name}")
    if not declared:
        print(f"no KM_API declarations found in {header}")
        return 1
    experimental = experimental_functions(text)
    print(f"{len(exported)} exported symbols, {len(declared)} declared functions: "
          f"{len(declared - experimental)} stable, {len(experimental)} experimental")
    return 1 if extra or missing or unmarked or not declared else 0


if __name__ == "__main__":
    sys.exit(main())
