"""pip install --no-build-isolation ./python: the package, with libkernelmix copied into it.

The library is taken from KERNELMIX_LIBRARY, else from the build tree beside this directory
(build/libkernelmix.so.MAJOR.MINOR); without either the package installs alone and finds the library at
run time (KERNELMIX_LIBRARY, or the system's loader path). Dependencies are Debian's python3-numpy,
python3-scipy and python3-sklearn; none is downloaded."""
import os
import re
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = os.path.join(HERE, "..", "include", "kernelmix.h")


def version():
    with open(HEADER, encoding="utf-8") as f:
        parts = dict(re.findall(r"#define KM_VERSION_(MAJOR|MINOR|PATCH) (\d+)", f.read()))
    return f"{parts['MAJOR']}.{parts['MINOR']}.{parts['PATCH']}"


VERSION = version()
LIBRARY_NAME = "libkernelmix.so." + ".".join(VERSION.split(".")[:2])


class build_py_with_library(build_py):
    def run(self):
        super().run()
        library = os.environ.get("KERNELMIX_LIBRARY") or os.path.join(HERE, "..", "build", LIBRARY_NAME)
        if os.path.exists(library):
            shutil.copy2(os.path.realpath(library), os.path.join(self.build_lib, "kernelmix", LIBRARY_NAME))
        else:
            print(f"setup.py: no {LIBRARY_NAME} at {library}: the package will look for it at run time")


setup(name="kernelmix", version=VERSION, description="Multiple kernel learning: scikit-learn estimators over libkernelmix",
      packages=["kernelmix"], python_requires=">=3.9", install_requires=["numpy", "scipy", "scikit-learn"],
      cmdclass={"build_py": build_py_with_library}, zip_safe=False)
