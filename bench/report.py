"""Summaries of repeated runs: medians, kernelmix/peer ratios, CSV files and the Markdown report."""

import csv
import statistics
from dataclasses import dataclass, field
from typing import List

# time_s: the workload's phase (training, or kernel computation alone), median over the repeats; cpu_s:
# its CPU seconds (user + system), median
COLUMNS = ["workload", "phase", "n_train", "n_test", "kernels", "mean_sq_dist", "gamma_min", "gamma_max",
           "tool", "status", "repeats",
           "time_s", "cpu_s", "predict_s", "peak_rss_mib", "accuracy", "ratio_of", "time_ratio", "memory_ratio",
           "time_s_all", "predict_s_all", "peak_rss_mib_all", "cache_mb",
           "dgemm_gflops", "gram_s", "gram_gflops", "gram_percent_of_dgemm", "command"]

HEADERS = [("workload", "workload"), ("n_train", "N"), ("kernels", "M"), ("tool", "tool"),
           ("time_s", "%s s"), ("cpu_s", "CPU s"), ("predict_s", "predict s"), ("peak_rss_mib", "peak RSS MiB"),
           ("accuracy", "test accuracy"), ("time_ratio", "time %s/peer"), ("memory_ratio", "memory %s/peer")]


@dataclass
class ToolRuns:
    """One tool's repeats on one problem. status is 'ok' or why the tool stopped; predict_s and
    accuracy stay empty for tools that only compute a kernel."""
    tool: str
    command: List[str]                                   # the timed first command (training or kernel)
    status: str = "ok"
    time_s: List[float] = field(default_factory=list)
    cpu_s: List[float] = field(default_factory=list)
    predict_s: List[float] = field(default_factory=list)
    peak_kib: List[int] = field(default_factory=list)    # max of the processes of one repeat
    accuracy: List[float] = field(default_factory=list)


def _ratio(mine, theirs):
    return "%.2f" % (mine / theirs) if mine is not None and theirs else ""


def _median(values, scale=1.0):
    return statistics.median(values) / scale if values else None


def is_kernelmix(tool):
    """kernelmix's own rows ("kernelmix", "kernelmix-mkl"): every other tool is a peer."""
    return tool == "kernelmix" or tool.startswith("kernelmix-")


def summarize(workload, problem, runs, cache_mb=None):
    """CSV rows, one per tool: medians over the repeats; each peer row carries the ratios
    reference/peer (the workload's reference tool, a kernelmix row, or the row the workload pairs
    with the peer) of the median time of the workload's phase and of the median peak memory."""
    rows = []
    for r in runs:
        done = r.status == "ok"
        rows.append({
            "workload": workload.name, "phase": workload.phase, "n_train": problem["n_train"],
            "n_test": problem["n_test"], "kernels": problem.get("kernel_count", len(problem["gammas"])),
            "mean_sq_dist": problem["mean_sq_dist"], "gamma_min": min(problem["gammas"], default=None),
            "gamma_max": max(problem["gammas"], default=None), "tool": r.tool, "status": r.status,
            "repeats": len(r.time_s),
            "time_s": _median(r.time_s) if done else None,
            "cpu_s": _median(r.cpu_s) if done else None,
            "predict_s": _median(r.predict_s) if done else None,
            "peak_rss_mib": _median(r.peak_kib, 1024) if done else None,
            "accuracy": _median(r.accuracy) if done else None,
            "ratio_of": "", "time_ratio": "", "memory_ratio": "",
            "time_s_all": ";".join("%.3f" % t for t in r.time_s),
            "predict_s_all": ";".join("%.3f" % t for t in r.predict_s),
            "peak_rss_mib_all": ";".join("%.1f" % (k / 1024) for k in r.peak_kib),
            "cache_mb": cache_mb,
            "dgemm_gflops": None, "gram_s": None, "gram_gflops": None, "gram_percent_of_dgemm": None,
            "command": " ".join(r.command),
        })
    by_tool = {row["tool"]: row for row in rows}
    for row in rows:
        reference = by_tool.get(workload.reference_of(row["tool"]))
        paired = row["tool"] in dict(workload.references)   # a kernelmix row may be another's peer
        if reference is not None and (paired or not is_kernelmix(row["tool"])):
            row["ratio_of"] = reference["tool"]
            row["time_ratio"] = _ratio(reference["time_s"], row["time_s"])
            row["memory_ratio"] = _ratio(reference["peak_rss_mib"], row["peak_rss_mib"])
    return rows


def _cell(row, key):
    value = row[key]
    if value is None:
        return row["status"] if key == "time_s" and row["status"] != "ok" else ""
    if key in ("time_s", "cpu_s", "predict_s"):
        return "%.3f" % value
    if key == "peak_rss_mib":
        return "%.1f" % value
    if key == "accuracy":
        return "%.4f" % value
    return str(value)


def _ratio_cell(row, key, workload):
    """A ratio, naming its reference when that is not the column's."""
    text = _cell(row, key)
    return "%s (%s)" % (text, row["ratio_of"]) if text and row["ratio_of"] != workload.reference else text


def markdown_table(rows, workload):
    """The table of a workload's rows; the ratio columns name the workload's reference tool, a cell
    whose ratio divides another kernelmix row names that row."""
    titles = [title % (workload.phase if key == "time_s" else workload.reference) if "%s" in title else title
              for key, title in HEADERS]
    lines = ["| " + " | ".join(titles) + " |",
             "|" + "|".join("---" for _ in HEADERS) + "|"]
    lines += ["| " + " | ".join(_ratio_cell(row, key, workload) if key.endswith("_ratio") else _cell(row, key)
                                for key, _ in HEADERS) + " |" for row in rows]
    return "\n".join(lines)


def data_lines(rows):
    """One line per problem: its size, its mean squared distance (problems of feature vectors) and its
    RBF widths."""
    seen, lines = set(), []
    for row in rows:
        key = (row["n_train"], row["n_test"], row["kernels"])
        if key not in seen:
            seen.add(key)
            widths = ("%d kernels of a spec file, no widths" % row["kernels"] if row["gamma_min"] is None else
                      "gamma = %.6g" % row["gamma_min"] if row["kernels"] == 1 else
                      "%d widths, gamma from %.6g to %.6g" % (row["kernels"], row["gamma_min"], row["gamma_max"]))
            distance = row["mean_sq_dist"]
            distance = ("mean ||x-x'||^2 = %.6g over the training pairs; " % distance
                        if distance is not None and distance > 0 else "")
            lines.append("- N = %d, %d test rows: %s%s" % (row["n_train"], row["n_test"], distance, widths))
    return lines


def write_csv(path, rows, columns=COLUMNS):
    """The rows (dicts holding every column; None written empty) as CSV with the given columns."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: ("" if row[k] is None else row[k]) for k in columns})


def memory_lines(rows):
    """Peak memory of each kernelmix row against its kernel-cache budget."""
    return ["- %s at N = %d: peak RSS %.1f MiB, %.0f %% of the %g MiB kernel cache budget (-m)"
            % (row["tool"], row["n_train"], row["peak_rss_mib"], 100.0 * row["peak_rss_mib"] / row["cache_mb"],
               row["cache_mb"])
            for row in rows if row["cache_mb"] and is_kernelmix(row["tool"]) and row["peak_rss_mib"] is not None]


def section(workload, rows, notes=()):
    """Markdown lines of one workload: its table, its problems, memory against the budget (where the
    workload sets one), notes."""
    parts = [markdown_table(rows, workload), ""] + data_lines(rows)
    parts += memory_lines(rows) if workload.cache_mb is not None else []
    return parts + ([""] + list(notes) if notes else [])


def write_markdown(path, sections, machine, settings):
    """sections: (workload, rows, notes) triples, notes extra Markdown lines; machine and settings:
    (field, value) pairs."""
    parts = ["# kernelmix benchmarks", ""]
    for workload, rows, notes in sections:
        parts += ["## %s: %s" % (workload.name, workload.title), ""] + section(workload, rows, notes) + [""]
    parts += ["## Settings", ""] + ["- %s: %s" % item for item in settings] + [""]
    parts += ["## Machine", ""] + ["- %s: %s" % item for item in machine] + [""]
    with open(path, "w") as f:
        f.write("\n".join(parts))
