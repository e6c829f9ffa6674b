"""Writes the seed corpus of tests/fuzz/fuzz_npy.c into corpus/fuzz_npy/ (run with /usr/bin/python3,
which has numpy): arrays numpy writes in each format version, dtype and order, and a few damaged ones.
The corpus also keeps inputs fuzzing found (dtype_with_newline.npy: a control byte in the dtype)."""
import io
import os

import numpy as np
import numpy.lib.format as npy_format

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_npy")


def save(name, array, version=None):
    buffer = io.BytesIO()
    npy_format.write_array(buffer, array, version=version, allow_pickle=False)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(buffer.getvalue())
    return buffer.getvalue()


def main():
    os.makedirs(OUT, exist_ok=True)
    a = np.array([[1.0, 2.5, -1.0], [0.25, -3.0, 1.0]])
    plain = save("f64_2x3.npy", a)
    save("f32_fortran.npy", np.asfortranarray(a.astype("<f4")))
    save("v2.npy", a, version=(2, 0))
    save("v3.npy", a, version=(3, 0))
    save("int64.npy", np.arange(6).reshape(2, 3))
    save("big_endian.npy", a.astype(">f8"))
    save("one_dim.npy", np.ones(4))
    save("labels_only.npy", np.array([[1.0], [-1.0], [1.0]]))
    save("three_dim.npy", np.ones((2, 1, 2)))
    with open(os.path.join(OUT, "truncated.npy"), "wb") as f:
        f.write(plain[:-5])
    with open(os.path.join(OUT, "header_overrun.npy"), "wb") as f:
        f.write(plain[:8] + b"\xff\xff" + plain[10:])


if __name__ == "__main__":
    main()
