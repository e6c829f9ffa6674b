"""kernelmix's binary matrix files (include/kernelmix.h, km_matrix_read): 8 bytes magic "KMMATRIX",
uint32 version 1, uint32 dtype (1 float64, 2 float32), uint64 rows, uint64 cols, then the values
row-major, all little-endian."""

import struct

import numpy as np

MAGIC = b"KMMATRIX"
HEADER = struct.Struct("<8sIIQQ")
DTYPES = {1: np.dtype("<f8"), 2: np.dtype("<f4")}


def write_matrix(path, K, dtype=np.float64):
    code = next(c for c, d in DTYPES.items() if d == np.dtype(dtype).newbyteorder("<"))
    with open(path, "wb") as f:
        f.write(HEADER.pack(MAGIC, 1, code, K.shape[0], K.shape[1]))
        f.write(np.ascontiguousarray(K, dtype=DTYPES[code]).tobytes())


def read_matrix(path):
    """The matrix as float64."""
    with open(path, "rb") as f:
        magic, version, code, rows, cols = HEADER.unpack(f.read(HEADER.size))
        if magic != MAGIC or version != 1 or code not in DTYPES:
            raise ValueError("%s: not a version-1 KMMATRIX file" % path)
        values = np.fromfile(f, dtype=DTYPES[code], count=rows * cols)
    if values.size != rows * cols:
        raise ValueError("%s: %d values for %d x %d" % (path, values.size, rows, cols))
    return values.reshape(rows, cols).astype(np.float64)
