"""The tests import the package from this source tree (python/), and the library from
KERNELMIX_LIBRARY (ctest sets it to the build's libkernelmix) or the build tree beside python/."""
import os
import sys

PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPOSITORY = os.path.dirname(PACKAGE_ROOT)
if PACKAGE_ROOT not in sys.path:
    sys.path.insert(0, PACKAGE_ROOT)
# loky's worker processes (GridSearchCV n_jobs=2) import the package too
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_ROOT, os.environ.get("PYTHONPATH")) if p)
HEART_SCALE = os.path.join(REPOSITORY, "examples", "data", "heart_scale")
