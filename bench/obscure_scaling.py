#!/usr/bin/python3
"""OBSCURE's epoch time against N on fashion-MNIST, 10 classes, the 12 block kernels of
fashion_mnist_blocks.py (Orabona, Jie & Caputo's MNIST set-up): for each N, one training with one
online and --epochs stochastic epochs (p-block 1.1, C = --C), whose per-epoch times come from
`kernelmix train --verbose`; prints them with the wall time, peak memory and the test error on the
first --test-size t10k images, and the exponent b of a least-squares fit epoch time ~ a N^b over the
sizes (the paper: linear in N per epoch for a fixed number of support rows per class; the support
rows grow with N, so b lies between 1 and 2).

    bench/obscure_scaling.py --sizes 5000,10000,20000,60000 --epochs 10      # tens of minutes
    bench/obscure_scaling.py --sizes 1000,2000 --epochs 1 --test-size 1000   # a quick check
    bench/obscure_scaling.py --sizes 5000,20000,60000 --landmarks 500         # low-rank kernels

With --landmarks R every kernel is its Nyström approximation on R landmark rows (`train --landmarks`):
OBSCURE then keeps its weight blocks on the features, O(12 R) a step whatever the support.

With --results DIR, the rows also go to DIR/fashion-obscure-scaling.csv (with --landmarks R,
fashion-obscure-scaling-landmarksR.csv), one per N, each with the
exponent of the whole run and ten_epochs_lower_s: the online epoch plus ten times the mean
stochastic epoch, a lower bound on a ten-epoch training (the training the 60,000-row target is
stated for), which also evaluates the objective and the duality certificate after every epoch.
"""
import argparse
import csv
import json
import math
import os
import re
import subprocess
import sys

from measure import run_measured
from tools import BENCH_DIR


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="5000,10000,20000,60000")
    parser.add_argument("--epochs", type=int, default=2, help="stochastic epochs (default 2)")
    parser.add_argument("--C", type=float, default=10.0)
    parser.add_argument("--cache-mb", type=float, default=1000.0)
    parser.add_argument("--test-size", type=int, default=10000)
    parser.add_argument("--landmarks", type=int, default=0, help="low-rank kernels of R landmark rows (default: exact)")
    parser.add_argument("--kernelmix", default=os.path.join(os.path.dirname(BENCH_DIR), "build", "kernelmix"))
    parser.add_argument("--out", default=os.path.join(BENCH_DIR, "results", "tmp", "data"),
                        help="directory of the prepared data (default: bench/results/tmp/data, ignored by git)")
    parser.add_argument("--results", help="also write the rows to RESULTS/fashion-obscure-scaling.csv")
    args = parser.parse_args(argv)
    rows, table = [], []
    print("N       online s  stochastic s/epoch  wall s   peak MiB  support rows  test error")
    for n in (int(v) for v in args.sizes.split(",")):
        out = os.path.join(args.out, "fashion-blocks-%d" % n)
        meta = json.loads(subprocess.run([sys.executable, os.path.join(BENCH_DIR, "fashion_mnist_blocks.py"),
                                          "--n", str(n), "--test-size", str(args.test_size), "--out", out],
                                         check=True, capture_output=True, text=True).stdout)
        model, log = os.path.join(out, "obscure.model"), os.path.join(out, "obscure.log")
        if os.path.exists(log):
            os.remove(log)
        measured = run_measured([args.kernelmix, "train", "--verbose", "--mkl", "obscure", "--p-block", "1.1",
                                 "-c", repr(args.C), "-m", repr(args.cache_mb), "--online-epochs", "1", "--epochs",
                                 str(args.epochs), "--kernels", meta["kernel_specs"]]
                                + (["--landmarks", str(args.landmarks)] if args.landmarks else [])
                                + [meta["train"], model], log)
        if measured.returncode:
            sys.exit("obscure_scaling.py: training failed at N = %d (%s)" % (n, log))
        text = open(log).read()
        online = [float(t) for t in re.findall(r"obscure online epoch \d+: .* in ([0-9.]+) s", text)]
        stochastic = [float(t) for t in re.findall(r"obscure stochastic epoch \d+: .* in ([0-9.]+) s", text)]
        support = int(re.search(r"([0-9]+) support rows", text).group(1))
        predicted = subprocess.run([args.kernelmix, "predict", meta["test"], model,
                                    os.path.join(out, "predictions")], check=True, capture_output=True, text=True)
        accuracy = float(re.search(r"Accuracy = ([0-9.]+)%", predicted.stdout).group(1)) / 100
        epoch = sum(stochastic) / len(stochastic)
        rows.append((n, epoch))
        table.append({"n_train": n, "n_test": args.test_size, "landmarks": args.landmarks, "epochs": args.epochs,
                      "C": args.C,
                      "online_s": online[0], "stochastic_s_per_epoch": epoch, "wall_s": measured.wall_s,
                      "cpu_s": measured.cpu_s, "peak_rss_mib": measured.peak_rss_kib / 1024, "support_rows": support,
                      "test_error": 1 - accuracy, "ten_epochs_lower_s": online[0] + 10 * epoch, "exponent": ""})
        print("%-7d %-9.2f %-19.2f %-8.1f %-9.1f %-13d %.4f" % (n, online[0], epoch, measured.wall_s,
                                                             measured.peak_rss_kib / 1024, support, 1 - accuracy))
    if len(rows) > 1:
        xs, ys = [math.log(n) for n, _ in rows], [math.log(t) for _, t in rows]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        print("stochastic epoch time ~ N^%.2f over N = %s" % (slope, args.sizes))
        for row in table:
            row["exponent"] = round(slope, 3)
    if args.results:
        os.makedirs(args.results, exist_ok=True)
        name = "fashion-obscure-scaling%s.csv" % ("-landmarks%d" % args.landmarks if args.landmarks else "")
        with open(os.path.join(args.results, name), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(table[0]))
            writer.writeheader()
            writer.writerows(table)


if __name__ == "__main__":
    main(sys.argv[1:])
