"""The kernel bank of Tomioka & Suzuki's experiment (arXiv 1011.3090, §5), rebuilt offline on images.

The paper combines 1760 kernels on Caltech-101: 4 SIFT features x 22 spatial decompositions (the
spatial-pyramid kernel among them) x 2 kernel functions (Gaussian RBF, chi^2) x 10 kernel parameters.
Here the same shape is built from per-pixel descriptors of small grey images:

- 4 descriptors: a 4-bin intensity histogram; 4-bin unsigned and 8-bin signed gradient-orientation
  histograms weighted by the gradient magnitude (central differences); the 4-bin unsigned histogram of
  the 3x3 box-blurred image;
- 22 regions: the whole image, its 2x2 quadrants and 4x4 cells (each an L1-normalised histogram), and
  the pyramid: the 21 histograms concatenated with weights 1/4, 1/4, 1/2 by level;
- 2 kernel functions exp(-gamma D / mean D) with D the squared Euclidean or the chi^2 distance, the
  mean over training pairs (kernelmix's rbf and chi2 with gamma = V / mean D, written out);
- 10 widths gamma in {0.1, 0.2, 0.5, 0.8, 1.2, 1.5, 2, 3, 5, 10}.

Every histogram is a block of features of one data row; every kernel is a kernelmix spec on its block
(a `--kernels` file), so the bank needs no precomputed matrices.
"""
import gzip
import os
import struct

import numpy as np

GAMMAS = (0.1, 0.2, 0.5, 0.8, 1.2, 1.5, 2, 3, 5, 10)
BINS = (4, 4, 8, 4)          # per descriptor
N_REGIONS = 21               # whole, 2x2, 4x4; the pyramid is the 22nd
LEVEL_WEIGHTS = (0.25, 0.25, 0.5)

DIGITS = "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz"
FASHION = "/usr/share/datasets/fashion-mnist"


def load_digits(first, second):
    """8x8 digit images in [0, 1] and their labels, of the two digits."""
    data = np.loadtxt(DIGITS, delimiter=",")
    keep = np.isin(data[:, -1], (first, second))
    return data[keep, :-1].reshape(-1, 8, 8) / 16.0, data[keep, -1]


def _idx(path):
    with gzip.open(path, "rb") as f:
        magic, = struct.unpack(">I", f.read(4))
        dims = struct.unpack(">" + "I" * (magic & 0xFF), f.read(4 * (magic & 0xFF)))
        return np.frombuffer(f.read(), dtype=np.uint8).reshape(dims)


def load_fashion(first, second, part):
    """28x28 Fashion-MNIST images in [0, 1] of two classes, from part 'train' or 't10k'."""
    images = _idx(os.path.join(FASHION, f"{part}-images-idx3-ubyte.gz"))
    labels = _idx(os.path.join(FASHION, f"{part}-labels-idx1-ubyte.gz"))
    keep = np.isin(labels, (first, second))
    return images[keep] / 255.0, labels[keep].astype(float)


def _gradients(img):
    """Central differences (edges replicated): magnitude and angle in (-pi, pi]."""
    p = np.pad(img, ((0, 0), (1, 1), (1, 1)), mode="edge")
    gx = (p[:, 1:-1, 2:] - p[:, 1:-1, :-2]) / 2
    gy = (p[:, 2:, 1:-1] - p[:, :-2, 1:-1]) / 2
    return np.hypot(gx, gy), np.arctan2(gy, gx)


def _one_hot(index, bins, weight):
    out = np.zeros(index.shape + (bins,))
    np.put_along_axis(out, index[..., None], weight[..., None], axis=-1)
    return out


def _orientation(img, bins, signed):
    magnitude, angle = _gradients(img)
    span = 2 * np.pi if signed else np.pi
    index = np.floor(np.mod(angle, span) / span * bins).astype(int) % bins
    return _one_hot(index, bins, magnitude)


def _box_blur(img):
    p = np.pad(img, ((0, 0), (1, 1), (1, 1)), mode="edge")
    h, w = img.shape[1:]
    return sum(p[:, i:i + h, j:j + w] for i in range(3) for j in range(3)) / 9


def pixel_descriptors(img):
    """The 4 descriptors of every pixel: arrays (images, height, width, bins)."""
    intensity = _one_hot(np.minimum((img * 4).astype(int), 3), 4, np.ones_like(img))
    return [intensity, _orientation(img, 4, False), _orientation(img, 8, True),
            _orientation(_box_blur(img), 4, False)]


def _regions(size):
    """Pixel slices of the 21 regions, level by level, with their level."""
    out = []
    for level, cells in enumerate((1, 2, 4)):
        edges = np.linspace(0, size, cells + 1).round().astype(int)
        for i in range(cells):
            for j in range(cells):
                out.append((level, slice(edges[i], edges[i + 1]), slice(edges[j], edges[j + 1])))
    return out


def features(img):
    """One row per image: per descriptor, the 21 region histograms then the pyramid (42 b values)."""
    blocks = []
    for desc in pixel_descriptors(img):
        hists, pyramid = [], []
        for level, rows, cols in _regions(img.shape[1]):
            h = desc[:, rows, cols].sum(axis=(1, 2))
            total = h.sum(axis=1, keepdims=True)
            h = np.divide(h, total, out=np.zeros_like(h), where=total > 0)
            hists.append(h)
            pyramid.append(LEVEL_WEIGHTS[level] * h)
        blocks.append(np.hstack(hists + pyramid))
    return np.hstack(blocks)


def mean_distances(block):
    """Mean squared Euclidean and chi^2 distances over the pairs i < j of the rows of block."""
    i, j = np.triu_indices(len(block), 1)
    diff, total = block[i] - block[j], block[i] + block[j]
    chi2 = np.divide(diff * diff, total, out=np.zeros_like(diff), where=total > 0).sum(axis=1)
    return float(np.mean((diff * diff).sum(axis=1))), float(np.mean(chi2))


def kernel_specs(train, descriptors=range(4), regions=range(N_REGIONS + 1), gammas=GAMMAS):
    """kernelmix specs of the bank on the training features: per descriptor and region, rbf then chi2,
    each with the widths gamma / mean D over the training pairs. A region that is the same in every
    training image (an empty corner cell of a digit) has mean D = 0: its kernels are constant on the
    training rows, carry nothing beyond the bias, and are left out."""
    specs, offset = [], 0
    for t, bins in enumerate(BINS):
        if t in descriptors:
            for r in regions:
                first = offset + (r * bins if r < N_REGIONS else N_REGIONS * bins)
                last = first + (bins if r < N_REGIONS else N_REGIONS * bins)
                for kind, mean in zip(("rbf", "chi2"), mean_distances(train[:, first:last])):
                    if not mean > 0:
                        continue
                    widths = ",".join(f"{g / mean:.10g}" for g in gammas)
                    specs.append(f"{kind}:features={first + 1}-{last}:gamma={widths}")
        offset += 2 * N_REGIONS * bins
    return specs


def write_libsvm(path, X, y):
    """LIBSVM rows; the last feature is always written, so that every row spans the bank's features."""
    with open(path, "w") as out:
        for row, label in zip(X, y):
            nz = np.union1d(np.flatnonzero(row), [len(row) - 1])
            out.write(f"{label:g} " + " ".join(f"{j + 1}:{row[j]:.10g}" for j in nz) + "\n")
