#!/usr/bin/python3
"""The synthetic localized-relevance problem of examples/clmkl-localized (docs/clmkl.md) for the
localized-MKL training-time workload: N training rows (--n, default 400), 2,000 test rows, eight
multiplicatively normalized linear kernels, one per feature group (written as a --kernels spec file),
the location z in columns 1-2 for the clustering kernel. Prints the problem's meta as JSON."""

import argparse
import json
import os
import sys

from problem_files import cached, write_problem, print_meta, run_data_script

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples",
                                "clmkl-localized"))
from generate import generate  # noqa: E402

GROUPS = ["3-7", "8-12", "13-17", "18-37", "38-57", "58-77", "78-97", "98-117"]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=400, help="training rows (default 400)")
    parser.add_argument("--test-size", type=int, default=2000, help="test rows (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the generator (default 1)")
    parser.add_argument("--out", required=True, help="directory for the files")
    args = parser.parse_args(argv)
    params = {"dataset": "localized", "n": args.n, "test_size": args.test_size, "seed": args.seed}
    meta = cached(args.out, params)
    if meta is None:
        X, y, _ = generate(args.n, args.seed)
        X_test, y_test, _ = generate(args.test_size, args.seed + 1000)
        meta = write_problem(args.out, params, X, y, X_test, y_test, [])
        specs = os.path.join(args.out, "kernels.spec")
        with open(specs, "w") as f:
            f.write("".join("linear:features=%s:norm=mult\n" % g for g in GROUPS))
        meta["kernel_specs"] = specs
        meta["kernel_count"] = len(GROUPS)
        with open(os.path.join(args.out, "meta.json"), "w") as f:
            json.dump(meta, f, indent=1)
    print_meta(meta)


if __name__ == "__main__":
    run_data_script(main)
