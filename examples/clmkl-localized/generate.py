#!/usr/bin/python3
"""The synthetic "localized relevance" data of docs/clmkl.md: a location z in R^2 falls in one of
three regions; feature group r (5 standard normal features) decides the label in region r only,
y = sign(<u, x^(r)>), u = (1,...,1)/sqrt(5); five groups of 20 noise features never matter; 5 % of
the labels are flipped. Columns: z (1-2), groups 1-3 (3-17), noise groups 4-8 (18-117).

usage: generate.py N SEED OUT.svm"""
import sys

import numpy as np

CENTRES = np.array([[0.0, 0.0], [6.0, 0.0], [3.0, 3.0 * np.sqrt(3.0)]])


def generate(n, seed):
    rng = np.random.default_rng(seed)
    region = rng.integers(0, 3, n)
    z = CENTRES[region] + rng.standard_normal((n, 2))
    groups = rng.standard_normal((n, 15))
    noise = rng.standard_normal((n, 100))
    u = np.ones(5) / np.sqrt(5.0)
    signal = np.array([groups[i, 5 * r:5 * r + 5] @ u for i, r in enumerate(region)])
    y = np.where(signal >= 0, 1, -1)
    y[rng.random(n) < 0.05] *= -1
    return np.hstack([z, groups, noise]), y, region


def write_svm(path, x, y):
    with open(path, "w") as out:
        for row, label in zip(x, y):
            out.write("%+d %s\n" % (label, " ".join("%d:%.17g" % (j + 1, v) for j, v in enumerate(row))))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    x, y, _ = generate(int(sys.argv[1]), int(sys.argv[2]))
    write_svm(sys.argv[3], x, y)
