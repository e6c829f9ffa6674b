"""LIBSVM text formats: sparse feature rows, precomputed-kernel rows, labels and predictions.
(No numpy import: the harness reads labels and predictions with this module and stays small.)"""


def _label_text(label):
    return "%d" % label if float(label).is_integer() else repr(float(label))


def write_sparse(path, X, y):
    """Writes 'label idx:val ...' rows (1-based indices, zeros omitted, values as Python's shortest
    round-trip repr so a reader gets exactly X)."""
    with open(path, "w") as out:
        for row, label in zip(X, y):
            nonzero = row.nonzero()[0]
            fields = ["%d:%r" % (j + 1, float(row[j])) for j in nonzero]
            out.write(_label_text(label) + (" " + " ".join(fields) if fields else "") + "\n")


def write_precomputed(path, K, y):
    """Writes LIBSVM's precomputed-kernel rows 'label 0:i 1:K(x,x_1) ... n:K(x,x_n)' (i 1-based),
    as svm-train -t 4 reads them for training and svm-predict for test rows."""
    with open(path, "w") as out:
        for i, (row, label) in enumerate(zip(K, y)):
            values = " ".join("%d:%.10g" % (j + 1, v) for j, v in enumerate(row))
            out.write("%s 0:%d %s\n" % (_label_text(label), i + 1, values))


def read_labels(path):
    """First field of every non-empty line of a LIBSVM file."""
    with open(path) as f:
        return [float(line.split(None, 1)[0]) for line in f if line.strip()]


def read_predictions(path):
    """Predicted labels, one a line, as svm-predict writes them (a 'labels ...' header, written with
    probability estimates, is skipped; only the first field of each line is the label)."""
    with open(path) as f:
        return [float(line.split(None, 1)[0]) for line in f
                if line.strip() and not line.startswith("labels")]


def accuracy(truth, predicted):
    if len(truth) != len(predicted):
        raise ValueError("%d predictions for %d test rows" % (len(predicted), len(truth)))
    return sum(t == p for t, p in zip(truth, predicted)) / len(truth)
