"""check_layers.py's method-id guard on small trees: a method id outside src/mkl fails, a solver id or
an id inside src/mkl does not, an allowed id passes and an allow-list entry no longer needed fails. An include of
mpi.h outside src/dist fails."""
import pathlib
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import check_layers  # noqa: E402

HEADER = """
typedef enum km_mkl_method {
    KM_MKL_FIXED = 0,   /* given weights; see KM_MKL_SOLVER_LIKE */
    KM_MKL_LP = 1,
    KM_MKL_OBSCURE = 30
} km_mkl_method;
typedef enum km_mkl_solver {
    KM_MKL_INTERLEAVED = 0,
    KM_MKL_WRAPPER = 1
} km_mkl_solver;
"""


class MethodIdGuard(unittest.TestCase):
    def tree(self, files):
        root = pathlib.Path(self.enterContext(tempfile.TemporaryDirectory()))
        (root / "include").mkdir()
        (root / "include" / "kernelmix.h").write_text(HEADER)
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        return root

    def setUp(self):
        self.saved = check_layers.METHOD_IDS_ALLOWED
        check_layers.METHOD_IDS_ALLOWED = {"src/model/save.c": {"KM_MKL_LP"}}

    def tearDown(self):
        check_layers.METHOD_IDS_ALLOWED = self.saved

    def test_ids_are_the_method_enumeration(self):
        self.assertEqual(check_layers.method_ids(HEADER), {"KM_MKL_FIXED", "KM_MKL_LP", "KM_MKL_OBSCURE"})

    def test_method_id_outside_mkl_fails(self):
        root = self.tree({"src/model/save.c": "KM_MKL_LP\n", "cli/info.c": "x\n/* KM_MKL_OBSCURE */\n",
                          "src/mkl/lp.c": "KM_MKL_OBSCURE KM_MKL_FIXED\n", "src/train/t.c": "KM_MKL_WRAPPER\n"})
        problems, references = check_layers.method_id_violations(root)
        self.assertEqual(references, 2)
        self.assertEqual(len(problems), 1)
        self.assertIn("cli/info.c:2: names the method KM_MKL_OBSCURE", problems[0])

    def test_allowed_id_no_longer_named_fails(self):
        root = self.tree({"src/model/save.c": "KM_MKL_FIXED\n"})
        problems, _ = check_layers.method_id_violations(root)
        self.assertEqual(len(problems), 2)
        self.assertIn("src/model/save.c:1: names the method KM_MKL_FIXED", problems[0])
        self.assertIn("lists KM_MKL_LP, which it no longer names", problems[1])


class MpiGuard(unittest.TestCase):
    tree = MethodIdGuard.tree

    def test_mpi_outside_dist_fails(self):
        root = self.tree({"src/dist/dist.c": "#include <mpi.h>\n", "src/select/cv.c": "#  include <mpi.h>\n",
                          "cli/cmd.c": '#include "mpi.h"\n', "src/data/x.c": "/* mpi.h */\n"})
        problems = check_layers.mpi_violations(root)
        self.assertEqual(len(problems), 2, problems)
        self.assertIn("src/select/cv.c includes mpi.h", problems[0])
        self.assertIn("cli/cmd.c includes mpi.h", problems[1])


if __name__ == "__main__":
    unittest.main()
