#!/usr/bin/python3
"""Model selection side by side: one grid of lp-norm MKL settings scored by K-fold cross-validation,
by kernelmix cv and by the ways one would do it without it, in one run, with the ratios of their
times. Data: fashion-MNIST T-shirt/top against shirt, the first N/2 training images of each class
(fashion_cv.py); kernels: 10 RBF widths 2^k / mean ||x - x'||^2, k = -4..5 (the mean over the
training rows of each fit); the grid C x p (default C in 2^-2, 2^0, 2^2, 2^4 and p in 1, 4/3, 2, 4,
inf: 20 settings), 5 folds, scored by accuracy.

Contenders (every one on the same LIBSVM file, prepared once and not timed):
  kernelmix-cv       kernelmix cv --mkl lp -c LIST --p LIST --folds K --seed S: one process, the base
                     kernels' dot products computed once for every setting and fold, chains of
                     settings trained on a thread a core
  kernelmix-train    the same settings x folds as separate processes: kernelmix train on each fold's
                     training rows and kernelmix predict on its test rows (fold files written from
                     kernelmix's own fold assignment, km_folds: exactly the fits of kernelmix cv)
  kernelmix-train-v  kernelmix train -v K --seed S, one process per setting (the same folds)
  sklearn-grid       scikit-learn GridSearchCV(MKLClassifier(method="lp"), refit=False) over the
                     same grid, on kernelmix's folds (PredefinedSplit): the same fits in one process
  libsvm-grid        LIBSVM's grid.py loop: svm-train -t 4 -v K -c C for each C on the uniform sum
                     of the 10 kernels (precomputed-kernel text; widths from the mean over all N
                     rows, not per fold; LIBSVM's own folds); the model of p = inf, for reference
  kernelmix-cv-1thread  kernelmix cv --threads 1 with one OpenMP and BLAS thread: the one-process
                     baseline of the threads and the ranks, whose results the others must equal
                     apart from the *_seconds fields
  kernelmix-cv-mpi2  mpirun -n 2 kernelmix cv on the same grid, one thread a rank, against
                     kernelmix-cv-1thread. Skipped, saying why, when the binary does not run as 2
                     ranks under mpirun (a build without MPI refuses to run as one of 2 processes)

  bench/cv_grid.py            # N = 2,000, 20 settings x 5 folds (about 10 minutes on 2 cores)
  bench/cv_grid.py --quick    # N = 400, 4 settings (C 2^0, 2^2 x p 4/3, inf): well under a minute

Prints the table (seconds of each contender: the sum of its processes' wall times; peak RSS, the
largest of its processes; kernelmix-cv's time over each contender's, the one-thread run's over
kernelmix-cv's and the ranks' over the one-thread run's; the best setting and its mean accuracy as
each contender chooses it) and whether the contenders' per-setting accuracies agree.
Writes RESULTS/fashion-cv-grid.csv and .md (--quick: under the scratch directory)."""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

from libsvm_files import accuracy, read_labels, read_predictions
from machine import describe
from measure import run_measured
from report import write_csv
from tools import BENCH_DIR

REPOSITORY = os.path.dirname(BENCH_DIR)
KERNEL = "rbf:gamma=2^-4..2^5/mean"
WIDTHS = "-4..5"      # the exponents of KERNEL, for the precomputed uniform sum of libsvm-grid
FULL = {"n": 2000, "C": "2^-2,2^0,2^2,2^4", "p": "1,4/3,2,4,inf"}
QUICK = {"n": 400, "C": "2^0,2^2", "p": "4/3,inf"}
CONTENDERS = ("kernelmix-cv", "kernelmix-train", "kernelmix-train-v", "sklearn-grid", "libsvm-grid",
              "kernelmix-cv-1thread", "kernelmix-cv-mpi2")
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
TIE = 1e-12    # kernelmix cv's tie tolerance on means (relative)
UNIFORM = "uniform sum"    # the p of libsvm-grid's settings: the fixed uniform sum (p = inf)


def power(text):
    """'2^-2' -> 0.25; plain numbers as they are."""
    base, _, exponent = text.partition("^")
    return float(base) ** float(exponent) if exponent else float(text)


def p_value(text):
    """'4/3' -> 1.333..., 'inf' and the uniform sum -> inf."""
    if text == UNIFORM:
        return float("inf")
    numerator, _, denominator = text.partition("/")
    return float(numerator) / float(denominator) if denominator else float(text)


class Outcome:
    """One run of one contender: seconds (the sum of its processes' wall times), peak RSS (the largest
    of its processes), per setting (C text, p text) the fold scores and the seconds of its fits, the
    setting it chose; status 'ok', or why it stopped or was skipped."""

    def __init__(self, name, log):
        self.name = name
        self.log = log
        self.seconds = 0.0
        self.peak_kib = 0
        self.processes = 0
        self.scores = {}
        self.setting_seconds = {}
        self.best = None
        self.status = "ok"

    def run(self, command, env=None):
        """Runs one timed process (output appended to the log); False, with the status set, if it failed."""
        measured = run_measured(command, self.log, dict(os.environ, **env) if env else None)
        self.seconds += measured.wall_s
        self.peak_kib = max(self.peak_kib, measured.peak_rss_kib)
        self.processes += 1
        if measured.returncode != 0:
            self.status = "failed (exit %d, see %s)" % (measured.returncode, self.log)
        return measured.returncode == 0

    def last_output_line(self):
        with open(self.log) as f:
            return [line for line in f if line.strip()][-1]

    def mean(self, setting):
        return statistics.fmean(self.scores[setting])


def choose(outcome, grid):
    """kernelmix cv's rule: the best mean; means equal to TIE relative go to the smaller C, then the
    larger p, then the setting listed first."""
    best = None
    for setting in (s for s in grid if s in outcome.scores):
        if best is None:
            best = setting
            continue
        mean, best_mean = outcome.mean(setting), outcome.mean(best)
        tie = abs(mean - best_mean) <= TIE * abs(best_mean)
        simpler = (power(setting[0]), -p_value(setting[1])) < (power(best[0]), -p_value(best[1]))
        if (mean > best_mean and not tie) or (tie and simpler):
            best = setting
    return best


def setting_of_options(options):
    """(C, p) of a kernelmix options text '... -c 2^0 --p 4/3'."""
    return re.search(r"(?:^| )-c (\S+)", options).group(1), re.search(r"--p (\S+)", options).group(1)


def read_cv_lines(path, outcome):
    """Fills outcome from a kernelmix cv --json file: the settings' fold scores and fit seconds, the
    best setting."""
    with open(path) as f:
        for line in f:
            record = json.loads(line)
            if "best" in record:
                outcome.best = setting_of_options(record["best"]["options"])
            elif "options" in record:
                setting = setting_of_options(record["options"])
                outcome.scores[setting] = record["scores"]
                outcome.setting_seconds[setting] = record["fit_seconds"]


def without_seconds(value):
    """A JSON value with every field named *_seconds removed, at any depth."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if not k.endswith("_seconds")}
    if isinstance(value, list):
        return [without_seconds(v) for v in value]
    return value


def same_apart_from_seconds(path_a, path_b):
    """Whether two kernelmix cv --json files hold the same lines once the *_seconds fields are dropped."""
    def lines(path):
        with open(path) as f:
            return [without_seconds(json.loads(line)) for line in f if line.strip()]
    return lines(path_a) == lines(path_b)


def mpi_unavailable(kernelmix, small_train):
    """None when kernelmix cv runs as 2 ranks under mpirun (one set of results, from rank 0), else why
    not: a build without MPI refuses to run as one of 2 processes ("built without MPI")."""
    if not shutil.which("mpirun"):
        return "mpirun not found"
    try:
        done = subprocess.run(["mpirun", "--allow-run-as-root", "-n", "2", kernelmix, "cv", "--kernel", "rbf", "-c",
                               "1,2", "--folds", "2", "--json", "-q", small_train], capture_output=True, text=True,
                              env=dict(os.environ, **ONE_THREAD), timeout=120)
    except subprocess.TimeoutExpired:
        return "mpirun -n 2 kernelmix cv did not end within 120 s"
    if done.returncode != 0 and "built without MPI" in done.stderr:
        return "kernelmix built without MPI"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        return "mpirun -n 2 kernelmix cv failed (exit %d: %s)" % (done.returncode, last)
    best_lines = sum(1 for line in done.stdout.splitlines() if line.startswith('{"best"'))
    if best_lines == 1:
        return None
    return "mpirun -n 2 kernelmix cv printed %d best lines, expected 1" % best_lines


class Contenders:
    """The contenders' runs on one prepared problem: each method fills an Outcome."""

    def __init__(self, options, problem, work):
        self.o = options
        self.problem = problem
        self.work = work
        self.grid = [(c, p) for c in options.C.split(",") for p in options.p.split(",")]
        self.split = ["--folds", str(options.folds), "--seed", str(options.seed)]

    def cv_command(self, output):
        return [self.o.kernelmix, "cv", "--kernel", KERNEL, "--mkl", "lp", "-c", self.o.C, "--p", self.o.p,
                *self.split, "--json", "-q", "-o", output, self.problem["train"]]

    def output(self, name):
        return os.path.join(self.work, name)

    def kernelmix_cv(self, outcome):
        if outcome.run(self.cv_command(self.output("kernelmix-cv.json"))):
            read_cv_lines(self.output("kernelmix-cv.json"), outcome)

    def kernelmix_train(self, outcome):
        model, predictions = self.output("fold.model"), self.output("fold.predictions")
        truths = [read_labels(path) for path in self.problem["fold_test"]]
        for c, p in self.grid:
            scores, start = [], outcome.seconds
            for train, test, truth in zip(self.problem["fold_train"], self.problem["fold_test"], truths):
                if not (outcome.run([self.o.kernelmix, "train", "--kernel", KERNEL, "--mkl", "lp", "-c", c, "--p", p,
                                     "-q", train, model]) and
                        outcome.run([self.o.kernelmix, "predict", "-q", test, model, predictions])):
                    return
                scores.append(accuracy(truth, read_predictions(predictions)))
            outcome.scores[(c, p)] = scores
            outcome.setting_seconds[(c, p)] = outcome.seconds - start
        outcome.best = choose(outcome, self.grid)

    def kernelmix_train_v(self, outcome):
        for c, p in self.grid:
            start = outcome.seconds
            if not outcome.run([self.o.kernelmix, "train", "-v", str(self.o.folds), "--seed", str(self.o.seed),
                                "--kernel", KERNEL, "--mkl", "lp", "-c", c, "--p", p, "--json", "-q",
                                self.problem["train"]]):
                return
            # the JSON line gives accuracy in percent
            outcome.scores[(c, p)] = [s / 100.0 for s in json.loads(outcome.last_output_line())["scores"]]
            outcome.setting_seconds[(c, p)] = outcome.seconds - start
        outcome.best = choose(outcome, self.grid)

    def sklearn_grid(self, outcome):
        output = self.output("sklearn-grid.json")
        env = {"KERNELMIX_LIBRARY": self.o.library}
        if not outcome.run([self.o.python, os.path.join(BENCH_DIR, "sklearn_grid.py"), "--kernel", KERNEL,
                            "--C", self.o.C, "--p", self.o.p, "--fold-file", self.problem["fold_of_row"],
                            self.problem["train"], output], env):
            return
        with open(output) as f:
            for record in (json.loads(line) for line in f):
                setting = next(s for s in self.grid if power(s[0]) == record["C"] and s[1] == record["p"])
                outcome.scores[setting] = record["scores"]
                outcome.setting_seconds[setting] = record["seconds"]
                if record["best"]:
                    outcome.best = setting

    def libsvm_grid(self, outcome):
        for c in self.o.C.split(","):
            start = outcome.seconds
            if not outcome.run(["svm-train", "-t", "4", "-v", str(self.o.folds), "-c", repr(power(c)), "-q",
                                self.problem["train_kernel"]]):
                return
            # pooled over the rows: the mean of the folds' accuracies, the folds being of equal size
            found = re.search(r"Cross Validation Accuracy = ([0-9.]+)%", outcome.last_output_line())
            outcome.scores[(c, UNIFORM)] = [float(found.group(1)) / 100.0]
            outcome.setting_seconds[(c, UNIFORM)] = outcome.seconds - start
        outcome.best = choose(outcome, [(c, UNIFORM) for c in self.o.C.split(",")])

    def kernelmix_cv_1thread(self, outcome):
        output = self.output("kernelmix-cv-1thread.json")
        if outcome.run([*self.cv_command(output), "--threads", "1"], ONE_THREAD):
            read_cv_lines(output, outcome)

    def kernelmix_cv_mpi2(self, outcome):
        reason = mpi_unavailable(self.o.kernelmix, self.problem["fold_test"][0])
        if reason:
            outcome.status = "skipped: " + reason
            return
        output = self.output("kernelmix-cv-mpi2.json")
        exports = [arg for name in sorted(ONE_THREAD) for arg in ("-x", name)]
        if outcome.run(["mpirun", "--allow-run-as-root", "-n", "2", *exports, *self.cv_command(output)], ONE_THREAD):
            read_cv_lines(output, outcome)

    def run(self, name, log):
        outcome = Outcome(name, log)
        getattr(self, name.replace("-", "_"))(outcome)
        return outcome


# contender -> (numerator, denominator, target) of its time ratio: kernelmix-cv's time over the
# contender's, but the one-thread run's over kernelmix-cv's and the ranks' over the one-thread run's
# (both on one core a process); target None: for reference
RATIOS = {
    "kernelmix-train": ("kernelmix-cv", "kernelmix-train", 0.25),
    "kernelmix-train-v": ("kernelmix-cv", "kernelmix-train-v", None),
    "sklearn-grid": ("kernelmix-cv", "sklearn-grid", 0.25),
    "libsvm-grid": ("kernelmix-cv", "libsvm-grid", None),
    "kernelmix-cv-1thread": ("kernelmix-cv", "kernelmix-cv-1thread", None),
    "kernelmix-cv-mpi2": ("kernelmix-cv-mpi2", "kernelmix-cv-1thread", 0.6),
}
# contenders whose results file must equal kernelmix-cv-1thread's apart from the *_seconds fields
SAME_RESULTS = ("kernelmix-cv", "kernelmix-cv-mpi2")
WHAT = {
    "kernelmix-cv": "kernelmix cv, one process, a thread a core",
    "kernelmix-train": "kernelmix train + predict per setting x fold",
    "kernelmix-train-v": "kernelmix train -v K per setting",
    "sklearn-grid": "GridSearchCV(MKLClassifier), one process",
    "libsvm-grid": "svm-train -t 4 -v K per C, uniform sum",
    "kernelmix-cv-1thread": "kernelmix cv --threads 1, one process, one thread",
    "kernelmix-cv-mpi2": "mpirun -n 2 kernelmix cv, 1 thread a rank",
}
COLUMNS = ["contender", "what", "status", "repeats", "processes", "seconds", "seconds_all", "peak_rss_mib",
           "ratio_of", "time_ratio", "target", "best_setting", "best_accuracy", "agreement"]


def setting_text(setting):
    return "-c %s %s" % (setting[0], "(uniform sum)" if setting[1] == UNIFORM else "--p " + setting[1])


def agreement(outcome, reference):
    """How a contender's per-setting accuracies compare with kernelmix-cv's."""
    if reference is None or outcome.name == reference.name or not outcome.scores or not reference.scores:
        return ""
    if outcome.name == "libsvm-grid":
        gaps = [abs(outcome.mean((c, UNIFORM)) - reference.mean((c, "inf")))
                for c, _ in outcome.scores if (c, "inf") in reference.scores]
        return ("mean accuracy within %.4f of kernelmix-cv's p = inf at each C (LIBSVM's folds; widths from all "
                "rows)" % max(gaps)) if gaps else ""
    common = [s for s in reference.scores if s in outcome.scores]
    equal = [s for s in common if len(outcome.scores[s]) == len(reference.scores[s]) and
             all(abs(a - b) <= 1e-12 for a, b in zip(outcome.scores[s], reference.scores[s]))]
    text = "fold accuracies equal to kernelmix-cv's in %d of %d settings" % (len(equal), len(common))
    if len(equal) < len(common):
        text += "; largest difference of means %.4f" % max(abs(outcome.mean(s) - reference.mean(s)) for s in common)
    return text


def summarize(runs):
    """One row per contender: the median of the seconds over its repeats, the largest peak RSS, the
    ratio and the last repeat's choice."""
    reference = runs.get("kernelmix-cv", [None])[-1]
    medians = {name: statistics.median(o.seconds for o in outcomes) for name, outcomes in runs.items()
               if all(o.status == "ok" for o in outcomes)}
    rows = []
    for name, outcomes in runs.items():
        last = outcomes[-1]
        status = next((o.status for o in outcomes if o.status != "ok"), "ok")
        numerator, denominator, target = RATIOS.get(name, (None, None, None))
        ratio = medians[numerator] / medians[denominator] if numerator in medians and denominator in medians else None
        ratio_of = "%s/%s" % (numerator, denominator) if ratio is not None else ""
        rows.append({
            "contender": name, "what": WHAT[name], "status": status, "repeats": len(outcomes),
            "processes": last.processes, "seconds": medians.get(name),
            "seconds_all": ";".join("%.3f" % o.seconds for o in outcomes),
            "peak_rss_mib": max(o.peak_kib for o in outcomes) / 1024 if name in medians else None,
            "ratio_of": ratio_of, "time_ratio": ratio,
            "target": "<= %g" % target if target else "",
            "best_setting": setting_text(last.best) if last.best else "",
            "best_accuracy": last.mean(last.best) if last.best else None,
            "agreement": agreement(last, reference),
        })
    return rows


def cell(row, key):
    value = row[key]
    if key == "seconds":
        return "%.2f" % value if value is not None else row["status"]
    if value is None or value == "":
        return ""
    if key == "peak_rss_mib":
        return "%.1f" % value
    if key == "time_ratio":
        met = "" if not row["target"] else " (target %s: %s)" % (row["target"], "met" if value <= float(
            row["target"].split()[-1]) else "missed")
        return "%.3f %s%s" % (value, row["ratio_of"], met)
    if key == "best_accuracy":
        return "%.4f" % value
    return str(value)


def table(rows):
    headers = [("contender", "contender"), ("what", "what"), ("processes", "processes"), ("seconds", "seconds"),
               ("peak_rss_mib", "peak RSS MiB"), ("time_ratio", "time ratio"), ("best_setting", "best setting"),
               ("best_accuracy", "its mean accuracy")]
    lines = ["| " + " | ".join(title for _, title in headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(row, key) for key, _ in headers) + " |" for row in rows]
    return lines


def setting_table(grid, runs):
    """Markdown lines: the seconds of each setting's fits, per contender (the last repeat); libsvm-grid's
    uniform sum on the p = inf rows."""
    names = [name for name, outcomes in runs.items() if outcomes[-1].setting_seconds]
    lines = ["| setting | " + " | ".join(names) + " |", "|" + "---|" * (len(names) + 1)]
    for c, p in grid:
        cells = []
        for name in names:
            seconds = runs[name][-1].setting_seconds
            value = seconds.get((c, p), seconds.get((c, UNIFORM)) if p == "inf" else None)
            cells.append("%.2f" % value if value is not None else "")
        lines.append("| -c %s --p %s | %s |" % (c, p, " | ".join(cells)))
    return lines


def check_lines(rows, runs, work):
    """Markdown lines: the agreement of each contender with kernelmix-cv, skipped contenders, and the
    identity of the threads' and the ranks' results with the one-thread run's."""
    lines = ["- %s: %s" % (row["contender"], row["agreement"]) for row in rows if row["agreement"]]
    lines += ["- %s: %s" % (row["contender"], row["status"]) for row in rows if row["status"] != "ok"]
    one = os.path.join(work, "kernelmix-cv-1thread.json")
    for name in SAME_RESULTS:
        other = os.path.join(work, name + ".json")
        if runs.get(name) and all(o.status == "ok" for o in runs[name]) and os.path.exists(one) and \
                os.path.exists(other):
            lines.append("- %s: results %s kernelmix-cv-1thread's apart from the *_seconds fields"
                         % (name, "identical to" if same_apart_from_seconds(one, other) else "DIFFERENT from"))
    return lines


def parse_options(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="N = %(n)d, -c %(C)s, --p %(p)s" % QUICK)
    parser.add_argument("--n", type=int, help="rows, N/2 of each class (default %d; --quick %d)" % (FULL["n"],
                                                                                                   QUICK["n"]))
    parser.add_argument("-c", dest="C", help="the C values (default %s; --quick %s)" % (FULL["C"], QUICK["C"]))
    parser.add_argument("--p", help="the p values (default %s; --quick %s)" % (FULL["p"], QUICK["p"]))
    parser.add_argument("--folds", type=int, default=5, help="K (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="kernelmix's fold seed (default 1)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="runs of each contender, in rotating order; medians reported (default 1)")
    parser.add_argument("--contenders", default=",".join(CONTENDERS),
                        help="comma-separated subset of %s" % ", ".join(CONTENDERS))
    parser.add_argument("--kernelmix", default=os.path.join(REPOSITORY, "build", "kernelmix"),
                        help="kernelmix binary (default build/kernelmix)")
    parser.add_argument("--library", help="libkernelmix for the fold assignment and the Python package (default: "
                                          "libkernelmix.so beside the binary)")
    parser.add_argument("--python", default=sys.executable, help="python3 with numpy and scikit-learn")
    parser.add_argument("--results", help="results directory (default bench/results; --quick: the scratch "
                                          "directory)")
    parser.add_argument("--scratch", help="data, outputs and logs (default bench/results/tmp)")
    options = parser.parse_args(argv)
    defaults = QUICK if options.quick else FULL
    options.n = options.n or defaults["n"]
    options.C = options.C or defaults["C"]
    options.p = options.p or defaults["p"]
    options.contenders = options.contenders.split(",")
    unknown = [name for name in options.contenders if name not in CONTENDERS]
    if unknown:
        parser.error("unknown contender %s (known: %s)" % (", ".join(unknown), ", ".join(CONTENDERS)))
    if options.repeats < 1:
        parser.error("--repeats must be at least 1")
    options.kernelmix = os.path.abspath(options.kernelmix)
    options.library = os.path.abspath(options.library or
                                      os.path.join(os.path.dirname(options.kernelmix), "libkernelmix.so"))
    options.scratch = os.path.abspath(options.scratch or os.path.join(BENCH_DIR, "results", "tmp"))
    options.results = os.path.abspath(options.results or (options.scratch if options.quick else
                                                          os.path.join(BENCH_DIR, "results")))
    for path, what in ((options.kernelmix, "kernelmix binary"), (options.library, "libkernelmix (--library)")):
        if not os.path.exists(path):
            parser.error("%s %s not found (build it, or pass its path)" % (what, path))
    return options


def prepare(options):
    """The problem's files (fashion_cv.py, not timed) and their meta."""
    out = os.path.join(options.scratch, "data", "fashion-cv-n%d-k%d-seed%d" % (options.n, options.folds,
                                                                              options.seed))
    command = [options.python, os.path.join(BENCH_DIR, "fashion_cv.py"), "--n", str(options.n), "--folds",
               str(options.folds), "--seed", str(options.seed), "--widths=" + WIDTHS, "--library", options.library,
               "--out", out]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError("data preparation failed: %s\n%s" % (" ".join(command), done.stderr.strip()))
    return json.loads(done.stdout)


def main(argv):
    options = parse_options(argv)
    load_at_start = os.getloadavg()[0]
    problem = prepare(options)
    work = os.path.join(options.scratch, "runs", "fashion-cv-grid-n%d" % options.n)
    os.makedirs(work, exist_ok=True)
    for stale in os.listdir(work):
        os.remove(os.path.join(work, stale))
    contenders = Contenders(options, problem, work)
    settings = len(contenders.grid)
    print("fashion-MNIST T-shirt vs shirt, N = %d, %d settings x %d folds" % (options.n, settings, options.folds),
          file=sys.stderr)
    runs = {name: [] for name in options.contenders}
    for repeat in range(options.repeats):
        turn = repeat % len(options.contenders)
        for name in options.contenders[turn:] + options.contenders[:turn]:
            if runs[name] and runs[name][-1].status != "ok":
                continue
            outcome = contenders.run(name, os.path.join(work, name + ".log"))
            runs[name].append(outcome)
            print("  %-18s %s" % (name, "%9.2f s (%d processes)" % (outcome.seconds, outcome.processes)
                                  if outcome.status == "ok" else outcome.status), file=sys.stderr)
    rows = summarize(runs)
    title = ("fashion-MNIST T-shirt vs shirt, N = %d (the first %d of each class), lp-norm MKL over 10 RBF widths "
             "(%s), -c %s x --p %s (%d settings), %d folds" % (options.n, options.n // 2, KERNEL, options.C,
                                                               options.p, settings, options.folds))
    notes = ["- mean ||x-x'||^2 = %.6g over all %d rows (libsvm-grid's widths); kernelmix and the Python package "
             "fit the widths on each fold's training rows" % (problem["mean_sq_dist"], options.n),
             "- seconds: the sum of the contender's processes' wall times (median over %d repeat(s)); ratios of "
             "those" % options.repeats] + check_lines(rows, runs, work)
    machine = describe(options.python, options.kernelmix, REPOSITORY)
    settings_lines = [("command", "bench/cv_grid.py " + " ".join(argv)),
                      ("load average", "%.2f at the start, %.2f at the end (1 minute)" % (load_at_start,
                                                                                         os.getloadavg()[0]))]
    per_setting = ["Seconds of each setting's fits (kernelmix-cv: its fit_seconds, training and scoring the "
                   "folds; kernelmix-train: its processes; sklearn-grid: fit and score times):", ""]
    per_setting += setting_table(contenders.grid, runs)
    markdown = ["# kernelmix benchmarks", "", "## fashion-cv-grid: " + title, ""] + table(rows) + [""] + notes
    markdown += [""] + per_setting
    markdown += ["", "## Settings", ""] + ["- %s: %s" % item for item in settings_lines]
    markdown += ["", "## Machine", ""] + ["- %s: %s" % item for item in machine] + [""]
    os.makedirs(options.results, exist_ok=True)
    name = "fashion-cv-grid" + ("-quick" if options.quick else "")
    write_csv(os.path.join(options.results, name + ".csv"), rows, COLUMNS)
    with open(os.path.join(options.results, name + ".md"), "w") as f:
        f.write("\n".join(markdown))
    print("\n".join([title, ""] + table(rows) + [""] + notes + ["- %s: %s" % item for item in settings_lines] +
                    [""] + per_setting))
    print("\nwritten: %s" % ", ".join(os.path.join(options.results, name + ext) for ext in (".csv", ".md")))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (OSError, RuntimeError) as error:
        sys.exit("bench/cv_grid.py: %s" % error)
